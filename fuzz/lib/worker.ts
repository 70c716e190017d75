/**
 * The fuzz worker: decodes one input at a time with the format's codec and, when that succeeds,
 * encodes the document back. The parent thread enforces the time limit (it terminates this worker
 * on a hang) and the heap limit (resourceLimits); this side counts ArrayBuffer allocations.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { allocatedBytes, installAllocMeter, resetAllocated } from './alloc-meter.ts';
import type { FuzzRequest, FuzzResponse } from './protocol.ts';

// Before the codecs load, so every allocation they make is counted.
installAllocMeter();
const { formatById } = await import('../../shared/formats/index.ts');
const { isDecodeError } = await import('../../shared/errors.ts');
const preload = (workerData as { preload?: string } | null)?.preload;
if (preload) await import(preload);

function describe(e: unknown): { message: string; stack: string; name: string } {
  if (e instanceof Error) return { message: e.message, stack: e.stack ?? '', name: e.name };
  return { message: String(e), stack: '', name: typeof e };
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

let _lastDoc: unknown;

function run(req: FuzzRequest): FuzzResponse {
  _lastDoc = undefined;
  const t0 = performance.now();
  const abBefore = process.memoryUsage().arrayBuffers;
  resetAllocated();
  const codec = formatById(req.format as Parameters<typeof formatById>[0]);
  const bytes = req.bytes;
  const limit = req.memFactor * bytes.length + req.memSlackBytes;
  const base = { id: req.id, allocated: 0, retained: 0, ms: 0 };
  const done = (r: Omit<FuzzResponse, 'id' | 'allocated' | 'retained' | 'ms'>, doc?: unknown): FuzzResponse => {
    // The document stays reachable while its retained size is read.
    _lastDoc = doc;
    const retained = process.memoryUsage().arrayBuffers - abBefore;
    const out = { ...base, ...r, allocated: allocatedBytes(), retained, ms: performance.now() - t0 };
    if (r.outcome === 'ok' || r.outcome === 'decode-error') {
      // An allocation far beyond the input is a failure even when decoding ends well: a forged
      // count was believed before the bytes behind it were checked.
      if (out.allocated > limit || retained > limit) {
        return { ...out, outcome: 'blowup', message: `allocated ${out.allocated} bytes (retained ${retained}) for a ${bytes.length}-byte input; limit ${limit}` };
      }
    }
    return out;
  };

  let doc: object;
  try {
    doc = codec.decode(bytes, { fileName: 'fuzz-input' });
  } catch (e) {
    const d = describe(e);
    if (isDecodeError(e)) {
      const off = (e as { offset?: unknown }).offset;
      if (typeof off !== 'number' || !Number.isInteger(off) || off < 0 || off > bytes.length) {
        return done({ outcome: 'bad-error', message: `DecodeError offset ${String(off)} outside the ${bytes.length}-byte input: ${d.message}`, stack: d.stack });
      }
      return done({ outcome: 'decode-error', message: d.message });
    }
    return done({ outcome: 'crash', message: `${d.name}: ${d.message}`, stack: d.stack });
  }
  if (!req.encode) return done({ outcome: 'ok' }, doc);
  let identical = true;
  // Saving an untouched document (the default, which may copy kept bytes) and encoding every field
  // from its decoded value (what an edited file needs) are separate promises: each is checked.
  for (const reuseRaw of [true, false]) {
    try {
      const out = codec.encode(doc, { reuseRaw });
      if (!same(out, bytes)) identical = false;
    } catch (e) {
      const d = describe(e);
      const which = reuseRaw ? 'encode' : 'encode(reuseRaw: false)';
      return done({ outcome: 'encode-crash', message: `${d.name} from ${which}: ${d.message}`, stack: d.stack }, doc);
    }
  }
  // An input the decoder accepted must save back byte-identical: the lossless promise holds for
  // odd files too, not only for the ones the corpus happens to contain.
  if (!identical) return done({ outcome: 'mismatch', message: 'accepted input does not re-encode byte-identical' }, doc);
  return done({ outcome: 'ok' }, doc);
}

parentPort!.on('message', (req: FuzzRequest) => {
  let res: FuzzResponse;
  try {
    res = run(req);
  } catch (e) {
    const d = describe(e);
    res = { id: req.id, outcome: 'crash', message: `${d.name}: ${d.message}`, stack: d.stack, allocated: allocatedBytes(), retained: 0, ms: 0 };
  }
  _lastDoc = undefined;
  parentPort!.postMessage(res);
});
parentPort!.postMessage({ ready: true });
