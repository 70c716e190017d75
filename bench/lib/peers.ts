/**
 * Our hand-written LZO1X and LZ4 decoders beside the npm packages a project would pick instead,
 * on the same stream in the same run (rounds alternate; each figure is the median of per-round
 * ratios). docs/compression.md says why each hand-written decoder stays.
 *
 * - LZO1X: `lzo-wasm` (FFmpeg's av_lzo1x_decode compiled to WebAssembly), `lzo` (a native
 *   binding of miniLZO) and `lzo-decompress` (native, links FFmpeg's libavutil), the two native
 *   ones built for the run (bench/lib/native-peers.ts). A package that cannot be fetched, built or
 *   loaded here is a MISS saying why: a row that cannot be measured never passes.
 * - LZ4 block format (Unigine ms14 geometry): `lz4js` (pure JS), `lz4-wasm-nodejs` and
 *   `lz4-napi` (lz4_flex in WebAssembly / native), which read a block with its size prepended.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { lzo1xCompress, lzo1xDecompress } from '../../shared/binary/lzo1x.ts';
import { lz4Compress, lz4Decompress } from '../../shared/formats/unigine/lz4.ts';
import { repoRoot } from '../../test/helpers/corpus.ts';
import { meshLikeBytes } from './mesh-data.ts';
import { buildNativeLzo } from './native-peers.ts';
import type { Row } from './report.ts';
import { median } from './timing.ts';

const require = createRequire(import.meta.url);

interface Peer {
  name: string;
  /** Decodes the stream; must give back the original bytes. */
  decode?: () => Uint8Array;
  /** Why it could not be measured. */
  missing?: string;
  /** What it does with a stream that claims more or less than the declared size. */
  bounds: string;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/** ms per call, alternating with `ours`, and the median per-round ratio ours/peer time. */
function race(ours: () => unknown, peer: () => unknown, rounds: number): { ours: number; peer: number; ratio: number } {
  const time = (fn: () => unknown): number => {
    const t0 = performance.now();
    let n = 0;
    do {
      fn();
      n++;
    } while (performance.now() - t0 < 40);
    return (performance.now() - t0) / n;
  };
  time(ours);
  time(peer);
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const x = time(ours);
    const y = time(peer);
    a.push(x);
    b.push(y);
    r.push(y / x);
  }
  return { ours: median(a), peer: median(b), ratio: median(r) };
}

function rowsFor(subject: string, raw: Uint8Array, oursDecode: () => Uint8Array, peers: Peer[], rounds: number): Row[] {
  const rows: Row[] = [];
  for (const p of peers) {
    const base = { section: 'compression' as const, subject, input: `${(raw.length / 1e6).toFixed(0)} MB model-like`, bytes: raw.length, metric: `ours vs ${p.name}`, unit: 'x' as const, target: 'measured side by side' };
    if (!p.decode) {
      rows.push({ ...base, value: null, verdict: 'MISS', note: `${p.name} not measured: ${p.missing}` });
      continue;
    }
    let out: Uint8Array;
    try {
      out = p.decode();
    } catch (e) {
      rows.push({ ...base, value: null, verdict: 'MISS', note: `${p.name} failed on the stream: ${(e as Error).message}` });
      continue;
    }
    if (!sameBytes(out, raw)) {
      rows.push({ ...base, value: null, verdict: 'MISS', note: `${p.name} gave different bytes` });
      continue;
    }
    const t = race(oursDecode, p.decode, rounds);
    rows.push({
      ...base, value: t.ratio, verdict: 'PASS',
      note: `speed of ours / ${p.name} (above 1: ours faster); ours ${(raw.length / 1e3 / t.ours).toFixed(0)} MB/s, ${p.name} ${(raw.length / 1e3 / t.peer).toFixed(0)} MB/s; bounds: ${p.bounds}`,
    });
  }
  return rows;
}

async function lzoPeers(stream: Uint8Array, size: number): Promise<Peer[]> {
  const peers: Peer[] = [];
  // lzo-wasm's own entry imports the .wasm file as a module (bundlers only); its Emscripten glue is loaded directly.
  try {
    const dir = join(repoRoot, 'node_modules/lzo-wasm/');
    const createModule = (await import(`${dir}lzo-wasm.js`)).default as (o: object) => Promise<{ _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array; cwrap(n: string, r: string, a: string[]): (...a: number[]) => number }>;
    const M = await createModule({ wasmBinary: readFileSync(`${dir}lzo-wasm.wasm`), locateFile: (f: string) => dir + f });
    const dec = M.cwrap('decompress', 'number', ['number', 'number', 'number']);
    peers.push({
      name: 'lzo-wasm',
      bounds: 'FFmpeg av_lzo1x_decode into a buffer of the declared size (stops there); the stream is copied into and the output out of the WebAssembly heap, as its own decompress() does',
      decode: () => {
        const ip = M._malloc(stream.length + 8);
        M.HEAPU8.set(stream, ip);
        const op = dec(ip, stream.length, size);
        const out = M.HEAPU8.slice(op, op + size);
        M._free(ip);
        M._free(op);
        return out;
      },
    });
  } catch (e) {
    peers.push({ name: 'lzo-wasm', bounds: '', missing: `could not load (${(e as Error).message.split('\n')[0]})` });
  }
  // The native packages, built in a temp folder kept between runs (bench/lib/native-peers.ts).
  const dir = join(tmpdir(), `lodsmith-bench-native-lzo-${process.version}-${process.arch}`);
  mkdirSync(dir, { recursive: true });
  {
    const built = buildNativeLzo(dir);
    // A few bytes past the stream's end stay inside the allocation: lzo-decompress hands FFmpeg
    // the length plus AV_LZO_INPUT_PADDING, as FFmpeg's decoder may read that far ahead.
    const padded = Buffer.alloc(stream.length + 64);
    padded.set(stream);
    const buf = padded.subarray(0, stream.length);
    const bounds: Record<string, string> = {
      lzo: 'miniLZO lzo1x_decompress_safe (liblzo2\'s own one-file edition) into a new zero-filled Buffer of the given size per call, as its decompress() does',
      'lzo-decompress': 'FFmpeg av_lzo1x_decode into a new buffer of the given size, copied into a new Buffer per call, as its decompress() does',
    };
    for (const name of ['lzo', 'lzo-decompress'] as const) {
      const b = built[name];
      if (b.decompress) {
        const decompress = b.decompress;
        peers.push({ name, bounds: bounds[name]!, decode: () => decompress(buf, size) });
      } else peers.push({ name, bounds: '', missing: b.missing! });
    }
  }
  return peers;
}

function lz4Peers(block: Uint8Array, size: number): Peer[] {
  const peers: Peer[] = [];
  const prepended = new Uint8Array(block.length + 4);
  new DataView(prepended.buffer).setUint32(0, size, true);
  prepended.set(block, 4);
  try {
    const lz4js = require('lz4js') as { decompressBlock(src: Uint8Array, dst: Uint8Array, s: number, n: number, d: number): number };
    peers.push({
      name: 'lz4js',
      bounds: 'none: writes into the array it is given, and a write past its end is silently dropped, so an overlong or short block is not reported',
      decode: () => {
        const out = new Uint8Array(size);
        lz4js.decompressBlock(block, out, 0, block.length, 0);
        return out;
      },
    });
  } catch (e) {
    peers.push({ name: 'lz4js', bounds: '', missing: (e as Error).message });
  }
  try {
    const w = require('lz4-wasm-nodejs') as { decompress(b: Uint8Array): Uint8Array };
    peers.push({ name: 'lz4-wasm-nodejs', bounds: 'lz4_flex: the size prepended to the block (our callers would have to prepend the declared size)', decode: () => w.decompress(prepended) });
  } catch (e) {
    peers.push({ name: 'lz4-wasm-nodejs', bounds: '', missing: (e as Error).message });
  }
  try {
    const n = require('lz4-napi') as { uncompressSync(b: Uint8Array): Buffer };
    peers.push({ name: 'lz4-napi', bounds: 'lz4_flex (native): the size prepended to the block', decode: () => n.uncompressSync(prepended) });
  } catch (e) {
    peers.push({ name: 'lz4-napi', bounds: '', missing: (e as Error).message });
  }
  return peers;
}

export async function benchPeers(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  // 4 MiB: lzo-wasm's fixed WebAssembly heap aborts (out of memory) on a 16 MiB stream plus output.
  const size = 4 << 20;
  const rounds = quick ? 3 : 7;
  const raw = meshLikeBytes(size, 11);
  log('compression: LZO1X and LZ4 decoders beside npm packages');
  const lzo = lzo1xCompress(raw);
  const rows = rowsFor('lzo1x', raw, () => lzo1xDecompress(lzo, 0, size).data, await lzoPeers(lzo, size), rounds);
  const block = lz4Compress(raw);
  const ours = (): Uint8Array => {
    const r = lz4Decompress(block, size);
    if (typeof r === 'string') throw new Error(r);
    return r;
  };
  rows.push(...rowsFor('lz4', raw, ours, lz4Peers(block, size), rounds));
  return rows;
}
