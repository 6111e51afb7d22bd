// Sets the colour mode before the first paint (a blocking script of this site: the CSP forbids
// inline scripts). The choice made with the navbar toggle is remembered in this browser; without
// one the system preference decides. web/src/lib/theme.ts keeps it up to date afterwards.
(function () {
  try {
    var t = localStorage.getItem('ctf-theme');
    if (t !== 'light' && t !== 'dark') t = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.setAttribute('data-bs-theme', t);
  } catch {
    /* storage disabled: the light theme */
  }
})();
