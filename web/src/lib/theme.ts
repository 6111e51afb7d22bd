import { useEffect, useState } from 'react';

/** The colour modes (Bootstrap's data-bs-theme); public/theme.js sets one before the first paint. */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'ctf-theme';
/** Bootstrap's own primary colour: no accent style is needed for it. */
const BOOTSTRAP_PRIMARY = '#0d6efd';

function storedTheme(): Theme | null {
  try {
    const t = localStorage.getItem(THEME_STORAGE_KEY);
    return t === 'light' || t === 'dark' ? t : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

/** The theme shown now: the one chosen in this browser, else the system's. */
export function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

function apply(theme: Theme): void {
  document.documentElement.setAttribute('data-bs-theme', theme);
}

/**
 * The theme and a way to change it (remembered in this browser). Without a choice it follows the
 * system preference, also when that changes while the page is open.
 */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => {
      if (storedTheme()) return;
      const next = systemTheme();
      apply(next);
      setTheme(next);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  const choose = (next: Theme) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage disabled: the choice lasts for this page.
    }
    apply(next);
    setTheme(next);
  };
  return [theme, choose];
}

/** The CSS that turns Bootstrap's primary colour (buttons, links, focus) into the accent. */
export function accentCss(accent: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(accent) || accent.toLowerCase() === BOOTSTRAP_PRIMARY) return '';
  const rgb = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16)).join(', ');
  const vars = `--bs-primary: ${accent}; --bs-primary-rgb: ${rgb}; --bs-link-color: ${accent}; --bs-link-color-rgb: ${rgb}; --bs-link-hover-color: ${accent}; --bs-link-hover-color-rgb: ${rgb};`;
  const button = `--bs-btn-bg: ${accent}; --bs-btn-border-color: ${accent}; --bs-btn-hover-bg: ${accent}; --bs-btn-hover-border-color: ${accent}; --bs-btn-active-bg: ${accent}; --bs-btn-active-border-color: ${accent}; --bs-btn-disabled-bg: ${accent}; --bs-btn-disabled-border-color: ${accent};`;
  const outline = `--bs-btn-color: ${accent}; --bs-btn-border-color: ${accent}; --bs-btn-hover-bg: ${accent}; --bs-btn-hover-border-color: ${accent}; --bs-btn-active-bg: ${accent}; --bs-btn-active-border-color: ${accent};`;
  return `:root { ${vars} } .btn-primary { ${button} } .btn-outline-primary { ${outline} }`;
}

/** Keeps one style element with the accent's CSS in the document head. */
export function useAccent(accent: string | undefined): void {
  useEffect(() => {
    const css = accent ? accentCss(accent) : '';
    let el = document.getElementById('ctf-accent') as HTMLStyleElement | null;
    if (!css) {
      el?.remove();
      return;
    }
    if (!el) {
      el = document.createElement('style');
      el.id = 'ctf-accent';
      document.head.append(el);
    }
    el.textContent = css;
  }, [accent]);
}
