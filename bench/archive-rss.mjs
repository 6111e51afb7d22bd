// Preloaded (node --import) into the archive command the benchmark runs (bench/archive.ts): at exit
// it reports the process's peak resident memory, as the kernel counted it (getrusage's ru_maxrss).
process.on('exit', () => {
  process.stderr.write(`bench-archive-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
