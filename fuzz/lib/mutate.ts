/**
 * Mutations of a seed file. Each is chosen to reach a different kind of decoder bug: bit flips
 * and byte sets for field values, truncations for "read past the end", splices for structurally
 * plausible but inconsistent files, forged counts and sizes for allocation and loop bounds, and
 * corrupt compressed streams for the LZO/LZSS decoders inside P3D files.
 */
import { Prng } from './prng.ts';

/** A seed and what is known of its layout. */
export interface Seed {
  /** Where it came from: a corpus file name or `generated:<builder>`. */
  name: string;
  format: string;
  bytes: Uint8Array;
  /** [start, end) of compressed streams inside the file (P3D ODOL), found by decoding the seed. */
  streams: readonly (readonly [number, number])[];
  /** Offsets where decoded nodes start or end (their counts, sizes, offsets, chunk headers). */
  fields?: readonly number[];
}

export type MutationKind = 'bitflip' | 'byteset' | 'truncate' | 'splice' | 'forge-count' | 'forge-field' | 'stream' | 'stacked';

/** A mutated input and how it was made (enough to explain, not to replay: replay uses the seed). */
export interface Mutant {
  bytes: Uint8Array;
  kind: MutationKind;
  desc: string;
}

/** The values a forged count or size takes: the edges, and small ints that look legitimate. */
const FORGED = [0, 0xffffffff, 0x7fffffff, 0x80000000, 1, 2, 3, 4, 7, 8, 16, 255, 256, 0xffff, 0x10000, 0x100000] as const;

function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = (v >>> 24) & 0xff;
}

function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function bitflip(rnd: Prng, src: Uint8Array, lo = 0, hi = src.length): Mutant {
  const b = src.slice();
  const n = 1 + rnd.int(rnd.chance(0.7) ? 2 : 16);
  const at: number[] = [];
  for (let i = 0; i < n && hi > lo; i++) {
    const p = lo + rnd.int(hi - lo);
    b[p]! ^= 1 << rnd.int(8);
    at.push(p);
  }
  return { bytes: b, kind: 'bitflip', desc: `flip ${n} bit(s) at ${at.slice(0, 4).join(',')}${at.length > 4 ? ',...' : ''}` };
}

function byteset(rnd: Prng, src: Uint8Array): Mutant {
  const b = src.slice();
  const p = rnd.int(b.length);
  const len = Math.min(b.length - p, 1 + rnd.int(rnd.chance(0.8) ? 2 : 64));
  const v = rnd.pick([0x00, 0xff, 0x7f, 0x80, rnd.int(256)]);
  b.fill(v, p, p + len);
  return { bytes: b, kind: 'byteset', desc: `set ${len} byte(s) at ${p} to 0x${v.toString(16)}` };
}

function truncate(rnd: Prng, src: Uint8Array): Mutant {
  // Biased towards the ends, where headers and trailers are.
  const r = rnd.float();
  const at = rnd.chance(0.3) ? rnd.int(Math.min(64, src.length)) : rnd.chance(0.3) ? Math.max(0, src.length - 1 - rnd.int(64)) : Math.floor(r * src.length);
  return { bytes: src.slice(0, at), kind: 'truncate', desc: `truncate to ${at} of ${src.length}` };
}

function splice(rnd: Prng, a: Uint8Array, b: Uint8Array, bName: string): Mutant {
  const cutA = rnd.int(a.length + 1);
  const cutB = rnd.int(b.length + 1);
  const tail = b.subarray(cutB, Math.min(b.length, cutB + Math.max(1024, a.length - cutA) * 2));
  const out = new Uint8Array(cutA + tail.length);
  out.set(a.subarray(0, cutA), 0);
  out.set(tail, cutA);
  return { bytes: out, kind: 'splice', desc: `first ${cutA} bytes, then ${bName} from ${cutB} (${tail.length} bytes)` };
}

function forgeCount(rnd: Prng, src: Uint8Array): Mutant {
  const b = src.slice();
  if (b.length < 4) return bitflip(rnd, src);
  // Prefer 4-aligned words that already hold a small number: those are likely counts and sizes.
  let at = 0;
  for (let tries = 0; tries < 16; tries++) {
    at = rnd.int((b.length >> 2)) << 2;
    if (at + 4 > b.length) at = b.length - 4 - ((b.length - 4) & 3);
    const v = readU32(b, at);
    if (v > 0 && v < 0x100000) break;
  }
  const old = readU32(b, at);
  const v = rnd.chance(0.15) ? (old + (rnd.chance(0.5) ? 1 : -1)) >>> 0 : rnd.pick(FORGED);
  writeU32(b, at, v);
  return { bytes: b, kind: 'forge-count', desc: `u32 at ${at}: ${old} -> ${v}` };
}

/**
 * Structure-aware: a u32 at (or 4, 8 or 12 bytes after) the start of a decoded node, which is
 * where counts, sizes, offsets and chunk lengths live, set to an edge value, a near miss, or a
 * size that points at (or just past) the end of the file.
 */
function forgeField(rnd: Prng, src: Uint8Array, fields: readonly number[]): Mutant {
  const b = src.slice();
  const at = rnd.pick(fields) + rnd.pick([0, 0, 4, 8, 12]);
  if (at + 4 > b.length) return forgeCount(rnd, src);
  const old = readU32(b, at);
  const roll = rnd.int(4);
  const v =
    roll === 0 ? rnd.pick(FORGED)
    : roll === 1 ? (old + rnd.pick([1, -1, 2, -2, 4, -4, 12, -12])) >>> 0
    : roll === 2 ? (b.length - at + rnd.pick([-4, 0, 1, 4])) >>> 0
    : (old * rnd.pick([2, 16, 256, 65536])) >>> 0;
  writeU32(b, at, v);
  return { bytes: b, kind: 'forge-field', desc: `field u32 at ${at}: ${old} -> ${v}` };
}

function corruptStream(rnd: Prng, seed: Seed): Mutant {
  const [s, e] = rnd.pick(seed.streams);
  const b = seed.bytes.slice();
  const op = rnd.int(4);
  if (op === 0) {
    const m = bitflip(rnd, seed.bytes, s, e);
    return { ...m, kind: 'stream', desc: `stream [${s},${e}): ${m.desc}` };
  }
  if (op === 1) {
    // Destroy the end of the stream (LZO end marker, LZSS checksum).
    const at = Math.max(s, e - 1 - rnd.int(Math.min(8, e - s)));
    b[at] = rnd.int(256);
    return { bytes: b, kind: 'stream', desc: `stream [${s},${e}): tail byte ${at} = ${b[at]}` };
  }
  if (op === 2) {
    // Big back-references and long runs: opcode bytes set to their extremes.
    const at = s + rnd.int(Math.max(1, e - s));
    const v = rnd.pick([0x00, 0x10, 0x11, 0x1f, 0x20, 0x3f, 0x40, 0xff]);
    b[at] = v;
    if (at + 1 < e) b[at + 1] = rnd.pick([0x00, 0xff]);
    return { bytes: b, kind: 'stream', desc: `stream [${s},${e}): opcode at ${at} = 0x${v.toString(16)}` };
  }
  // Cut the stream short and close the gap: everything after shifts into it.
  const cut = s + rnd.int(Math.max(1, e - s));
  const out = new Uint8Array(b.length - (e - cut));
  out.set(b.subarray(0, cut), 0);
  out.set(b.subarray(e), cut);
  return { bytes: out, kind: 'stream', desc: `stream [${s},${e}): cut at ${cut}` };
}

/** One mutant of `seed`; `other` is the splice partner. */
export function mutate(rnd: Prng, seed: Seed, other: Seed): Mutant {
  const src = seed.bytes;
  if (src.length === 0) return { bytes: src.slice(), kind: 'byteset', desc: 'empty seed' };
  const roll = rnd.float();
  if (seed.streams.length > 0 && roll < 0.25) return corruptStream(rnd, seed);
  const r = seed.streams.length > 0 ? (roll - 0.25) / 0.75 : roll;
  if (r < 0.25) return bitflip(rnd, src);
  if (r < 0.4) return byteset(rnd, src);
  if (r < 0.5) return truncate(rnd, src);
  if (r < 0.6) return splice(rnd, src, other.bytes, other.name);
  const fields = seed.fields ?? [];
  if (r < 0.9) return fields.length > 0 && rnd.chance(0.6) ? forgeField(rnd, src, fields) : forgeCount(rnd, src);
  // Several mutations at once reach states single ones cannot (a count and the data it bounds).
  let m = fields.length > 0 ? forgeField(rnd, src, fields) : forgeCount(rnd, src);
  const n = 1 + rnd.int(3);
  const descs = [m.desc];
  for (let i = 0; i < n; i++) {
    const next = rnd.chance(0.4) ? bitflip(rnd, m.bytes) : fields.length > 0 && rnd.chance(0.5) ? forgeField(rnd, m.bytes, fields) : forgeCount(rnd, m.bytes);
    descs.push(next.desc);
    m = next;
  }
  return { bytes: m.bytes, kind: 'stacked', desc: descs.join('; ') };
}

/**
 * The plain mutation loop: `inputs` times (or until `seconds` pass) mutates a random seed, crossed
 * with another random one, counts it in `counts.inputs` and hands it to `run`.
 */
export function forEachMutant(
  seeds: readonly Seed[],
  opts: { inputs: number; seconds: number; seed: number },
  counts: { inputs: number },
  run: (m: Mutant, seed: Seed) => void,
): void {
  const rnd = new Prng(opts.seed);
  const t0 = performance.now();
  while (counts.inputs < opts.inputs && performance.now() - t0 < opts.seconds * 1000) {
    const seed = seeds[rnd.int(seeds.length)]!;
    const other = seeds[rnd.int(seeds.length)]!;
    const m = mutate(rnd, seed, other);
    counts.inputs++;
    run(m, seed);
  }
}
