/**
 * Peak memory of one decode, measured in a fresh process so nothing else the benchmark did is in
 * the figure. Run as `node --expose-gc bench/memory-probe.ts <format> <file>`; prints one JSON line.
 *
 * The baseline is taken after the codecs are loaded and the heap collected, before the file is
 * read, so the peak includes the input bytes themselves: peak - baseline is what opening a file of
 * N bytes costs, and the target is 2N + 64 MB. The process high-water mark (maxRSS) is what the
 * operating system had to give us, which is what a user's machine feels.
 *
 * Loading and compiling the modules peaks higher than the settled baseline, so on Linux the
 * high-water mark is reset (`/proc/self/clear_refs` = 5) right at the baseline; elsewhere the
 * figure is an upper bound that may include that start-up peak (`hwmReset: false`).
 */
import { readFileSync } from 'node:fs';
import { highWaterMark, resetHighWaterMark } from './lib/high-water.ts';
import { formatById, type FormatId } from '../shared/formats/index.ts';

/** What the probe prints. */
export interface MemoryProbeResult {
  bytes: number;
  /** RSS after loading the codecs, before reading the file. */
  baselineRss: number;
  /** maxRSS after reading and decoding (the process high-water mark). */
  peakRss: number;
  /** peakRss - baselineRss. */
  peakDelta: number;
  /** Live ArrayBuffer bytes held by the decoded document (input bytes included). */
  arrayBuffersRetained: number;
  /** Live JS heap held by the decoded document. */
  heapRetained: number;
  /** Whether the high-water mark was reset at the baseline (false: the peak may be start-up's). */
  hwmReset: boolean;
  decodeError?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const [format, file] = process.argv.slice(2);
  if (!format || !file) throw new Error('usage: memory-probe.ts <format> <file>');
  const codec = formatById(format as FormatId);
  gc?.();
  gc?.();
  const before = process.memoryUsage();
  const baselineRss = before.rss;
  const hwmReset = resetHighWaterMark();
  const buf = readFileSync(file);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let decodeError: string | undefined;
  try {
    const doc = codec.decode(bytes, { fileName: file });
    // Reachable until the process ends, so the retained figures below are real.
    (globalThis as { lodsmithProbeDoc?: unknown }).lodsmithProbeDoc = doc;
  } catch (e) {
    decodeError = (e as Error).message;
  }
  const peakRss = highWaterMark();
  gc?.();
  const after = process.memoryUsage();
  const result: MemoryProbeResult = {
    bytes: bytes.length,
    baselineRss,
    peakRss,
    peakDelta: Math.max(0, peakRss - baselineRss),
    arrayBuffersRetained: after.arrayBuffers - before.arrayBuffers,
    heapRetained: after.heapUsed - before.heapUsed,
    hwmReset,
    ...(decodeError ? { decodeError } : {}),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
