// Preloaded (`node --require`) into a process whose memory a test or benchmark measures: at its exit,
// process.resourceUsage() as JSON (maxRSS, the peak resident set in KiB; CPU times in µs) in the file
// PEAK_RSS_FILE names. The process reads nothing of it; only this hook does.
'use strict';
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.PEAK_RSS_FILE, JSON.stringify(process.resourceUsage()));
});
