/** The process memory high-water mark, for the fresh-process memory probes. */
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The process high-water mark. On Linux VmHWM is read rather than getrusage's maxRSS: a child
 * started by fork+exec inherits in maxRSS the parent's size at the fork, which would make every
 * probe report the benchmark's own footprint.
 */
export function highWaterMark(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // Not Linux: fall through to maxRSS.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Resets the high-water mark to the current RSS (Linux `clear_refs` 5); false where it cannot. */
export function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
