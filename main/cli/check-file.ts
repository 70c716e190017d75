/** One file of `lodsmith check`: detect, decode, round-trip, time it. Runs inside a worker. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import '../../shared/formats/index.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { codecFor, MAX_INPUT_BYTES } from './load.ts';
import { describeError } from './fail.ts';
import { describeDiff, roundTrip } from './verify.ts';

export interface CheckResult {
  /** Path relative to the checked folder. */
  file: string;
  format?: string;
  version?: string | number;
  bytes: number;
  result: 'ok' | 'differs' | 'error';
  /** What went wrong, one line (no file name). */
  detail?: string;
  /** Byte offset of the decode error or the first difference. */
  offset?: number;
  /** Node path of the decode error or the first difference. */
  path?: string;
  ms: number;
}

export interface CheckJob {
  abs: string;
  file: string;
  strict: boolean;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
}

export function checkFile(job: CheckJob): CheckResult {
  const t0 = performance.now();
  let bytes = 0;
  let format: string | undefined;
  let version: string | number | undefined;
  try {
    const b = readFileSync(job.abs);
    if (b.length > MAX_INPUT_BYTES) throw new Error('file too large');
    const data = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    bytes = data.length;
    const codec = codecFor(data, job.file);
    format = codec.id;
    const maxMemory = job.maxMemory !== undefined ? { maxMemory: job.maxMemory } : {};
    const doc = codec.decode(data, { fileName: basename(job.file), ...maxMemory }) as object;
    version = codec.info(doc, data.length).version;
    const diff = roundTrip(codec, data, basename(job.file), doc, job.strict, job.maxMemory);
    const ms = performance.now() - t0;
    if (!diff) return { file: job.file, format, version, bytes, result: 'ok', ms };
    return { file: job.file, format, version, bytes, result: 'differs', detail: describeDiff(diff), offset: diff.offset, path: diff.path, ms };
  } catch (e) {
    const r: CheckResult = { file: job.file, format, version, bytes, result: 'error', detail: describeError(e), ms: performance.now() - t0 };
    if (isDecodeError(e)) {
      r.offset = e.offset;
      r.path = e.path;
    }
    return r;
  }
}
