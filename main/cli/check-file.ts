/** One file of `lodsmith check`: detect, decode, round-trip, time it. Runs inside a worker. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isDecodeError } from '../../shared/errors.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { codecFor, MAX_INPUT_BYTES, recognisesModel } from './load.ts';
import { describeError, where } from './fail.ts';
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

type TextureModule = typeof import('../../shared/formats/texture/index.ts');

export interface CheckJob {
  abs: string;
  file: string;
  strict: boolean;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
}

export async function checkFile(job: CheckJob): Promise<CheckResult> {
  const t0 = performance.now();
  let bytes = 0;
  let format: string | undefined;
  let version: string | number | undefined;
  try {
    const b = readFileSync(job.abs);
    if (b.length > MAX_INPUT_BYTES) throw new Error('file too large');
    const data = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    bytes = data.length;
    // Texture code (decoders, PNG and JPEG libraries, their tables) loads only once a file that is
    // no model turns up: a worker's start costs ~40 ms of CPU with it, which a folder of models
    // would pay for nothing.
    if (!recognisesModel(data)) {
      const texture = await import('../../shared/formats/texture/index.ts');
      if (texture.probeTexture(data, basename(job.file))) return checkTexture(texture, job, data, t0);
    }
    const codec = await codecFor(data, job.file);
    format = codec.id;
    const maxMemory = job.maxMemory !== undefined ? { maxMemory: job.maxMemory } : {};
    // Read-only: the document's arrays may be views of the file's bytes (shared/binary/share.ts).
    const doc = codec.decode(data, { fileName: basename(job.file), share: true, ...maxMemory }) as object;
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

/**
 * A texture: decoded, every mip decoded to pixels (validateTexture does that), then written back
 * and compared byte for byte.
 */
function checkTexture(texture: TextureModule, job: CheckJob, data: Uint8Array, t0: number): CheckResult {
  const { decodeTexture, encodeTexture, probeTexture, textureInfo, validateTexture } = texture;
  const base = { file: job.file, format: `texture-${probeTexture(data, basename(job.file))}`, bytes: data.length };
  return withBudget(MemoryBudget.forInput(data.length), () => {
    const doc = decodeTexture(data, basename(job.file));
    const version = textureInfo(doc, data.length).type;
    const problem = validateTexture(doc).find((p) => p.severity === 'error');
    if (problem) {
      return { ...base, version, result: 'error' as const, detail: `${problem.message} ${where(problem.offset ?? 0, problem.where)}`, ...(problem.offset !== undefined ? { offset: problem.offset } : {}), path: problem.where, ms: performance.now() - t0 };
    }
    const out = encodeTexture(doc);
    let at = -1;
    const n = Math.min(out.length, data.length);
    for (let i = 0; i < n; i++) if (out[i] !== data[i]) { at = i; break; }
    if (at < 0 && out.length !== data.length) at = n;
    if (at < 0) return { ...base, version, result: 'ok' as const, ms: performance.now() - t0 };
    return { ...base, version, result: 'differs' as const, detail: `re-saved texture differs at byte ${at}`, offset: at, path: '', ms: performance.now() - t0 };
  });
}
