/* global process */
// Loaded with `node --import` into a command the benchmark measures: on exit it writes the
// process's memory high-water mark (Linux VmHWM, else maxRSS) to stderr as one tagged line.
import { readFileSync, writeSync } from 'node:fs';

process.on('exit', () => {
  let bytes = process.resourceUsage().maxRSS * 1024;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) bytes = Number(m[1]) * 1024;
  } catch {
    // not Linux: maxRSS
  }
  writeSync(2, `\nLODSMITH_HWM ${bytes}\n`);
});
