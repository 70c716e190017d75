/**
 * The fuzz loop: input i is mutant i of a seed chosen by a generator seeded with (seed, i), so a
 * run is the same on every machine whatever the worker count, and any single input can be
 * replayed from its number. Every input must end in success or a DecodeError; anything else is a
 * failure, grouped by signature, shrunk, and (when a folder is given) saved as a regression input.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mutate, type Mutant, type Seed } from './mutate.ts';
import { FuzzPool } from './pool.ts';
import { Prng } from './prng.ts';
import { FAILURES, type FuzzResponse, type Outcome } from './protocol.ts';

export interface FuzzOptions {
  seed: number;
  /** Stop after this many inputs ... */
  inputs: number;
  /** ... or after this many seconds, whichever comes first. */
  seconds: number;
  seeds: readonly Seed[];
  /** Worker count (default: 2). */
  concurrency?: number;
  /** Where failures are saved (`<format>-<hash>.bin` + `.json`); nothing is saved without it. */
  saveDir?: string;
  /** Allocation limit per input: factor * input bytes + slack. */
  memFactor?: number;
  memSlackMb?: number;
  /** Per-input time limit: base + per MB of input. */
  timeBaseMs?: number;
  timeMsPerMB?: number;
  /**
   * Every Nth input's glTF goes through the Khronos validator (0: none). Validating every input
   * would cost more than the rest of the pipeline, so a fixed sample is checked (default 1 in 20).
   */
  gltfEvery?: number;
  /** Run the stages after decode (default true). */
  pipeline?: boolean;
  /** Shrink each new failure before saving it (costs extra runs). */
  minimize?: boolean;
  /** Module URL every worker imports after the codecs (harness self-test only). */
  preload?: string;
  /** Stops the run early (the inputs so far are reported as usual). */
  signal?: AbortSignal;
  /** Called about once a second. */
  onProgress?: (s: FuzzStats) => void;
}

/** One distinct failure (the first input with its signature). */
export interface Finding {
  signature: string;
  format: string;
  outcome: Outcome;
  message: string;
  stack: string;
  seedName: string;
  mutation: string;
  input: number;
  bytes: Uint8Array;
  /** How many inputs hit this signature. */
  hits: number;
  /** Saved file name (without folder), when saved. */
  file?: string;
}

export interface FuzzStats {
  inputs: number;
  seconds: number;
  byFormat: Record<string, Partial<Record<Outcome, number>>>;
  findings: Finding[];
  /**
   * First accepted input per format that did not save back byte-identical. Not a crash (the
   * decoder and encoder both ended well) but a break of the lossless promise, so it is reported.
   */
  mismatches: Finding[];
  restarts: number;
  /** Inputs whose glTF export was checked by the Khronos validator. */
  gltfChecked: number;
  /**
   * Inputs that missed the time limit once but finished within ten times it on a second run:
   * a busy machine, not a loop. Counted by their second outcome; a second miss is a hang.
   */
  slowRetries: number;
  /**
   * CPU time the workers spent on the inputs (seconds, summed over workers). On a shared machine
   * the rate says how busy the machine was; this says what the inputs cost: workers / (cpuSeconds /
   * inputs) is the rate the same run reaches with a free core per worker.
   */
  cpuSeconds: number;
}

/** The generator of input i: independent of every other input. */
export function inputPrng(seed: number, i: number): Prng {
  return new Prng((Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2f) + Math.imul(i + 1, 0x9e3779b1)) >>> 0);
}

/**
 * Seeds above this size are picked less often, in proportion: a 1 MiB file a quarter as often as
 * a small one, a 2 MiB file an eighth. An input costs roughly in proportion to its size above a
 * fixed cost per input, and the few big corpus files took a quarter of a run's time for a tenth of
 * its inputs. Like libFuzzer's -max_len, but the big files are still fuzzed whole, only less often:
 * in a run of a million inputs each still gets thousands.
 */
export const FULL_SHARE_BYTES = 256 * 1024;

/** How often a seed is picked relative to a small one (see {@link FULL_SHARE_BYTES}). */
export function seedWeight(bytes: number): number {
  return bytes <= FULL_SHARE_BYTES ? 1 : FULL_SHARE_BYTES / bytes;
}

/** One format's seeds with the running sum of their weights, for a weighted pick. */
export interface SeedList {
  seeds: readonly Seed[];
  cumulative: Float64Array;
}

export function seedList(seeds: readonly Seed[]): SeedList {
  const cumulative = new Float64Array(seeds.length);
  let sum = 0;
  seeds.forEach((s, i) => (cumulative[i] = sum += seedWeight(s.bytes.length)));
  return { seeds, cumulative };
}

function pickWeighted(rnd: Prng, list: SeedList): Seed {
  const x = rnd.float() * list.cumulative[list.cumulative.length - 1]!;
  let lo = 0;
  let hi = list.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list.cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return list.seeds[lo]!;
}

/** Mutant i of a run: which seed and which mutation. */
export function makeInput(seeds: readonly Seed[], byFormat: ReadonlyMap<string, SeedList>, formats: readonly string[], seed: number, i: number): { seed: Seed; mutant: Mutant } {
  const rnd = inputPrng(seed, i);
  // Every format gets the same share, however many corpus files it happens to have.
  const list = byFormat.get(formats[i % formats.length]!)!;
  const s = pickWeighted(rnd, list);
  const partner = rnd.chance(0.8) ? rnd.pick(list.seeds) : rnd.pick(seeds);
  return { seed: s, mutant: mutate(rnd, s, partner) };
}

/**
 * Groups failures: the same bug hit from many inputs is one finding. The signature is the error
 * type and the top codec frames (function and file, no line numbers, so it survives edits); the
 * message is left out when there are frames, because it carries data (a mutated chunk name, a
 * count) that differs from one input to the next.
 */
export function signatureOf(format: string, r: FuzzResponse): string {
  const frames = (r.stack ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('at ') && /\/(shared)\//.test(l))
    .slice(0, 3)
    .map((l) => l.replace(/^at /, '').replace(/\s*\(?(file:\/\/)?\/[^\s]*\/(shared\/[^:)]+):\d+:\d+\)?$/, ' $2'));
  const errorName = /^(\w*Error)\b/.exec(r.message ?? '')?.[1] ?? '';
  if (frames.length > 0) return `${format}|${r.outcome}|${errorName}|${frames.join(' < ')}`;
  const msg = r.outcome === 'hang' || r.outcome === 'blowup' || r.outcome === 'oom' ? '' : (r.message ?? '').replace(/\d+/g, 'N').slice(0, 160);
  return `${format}|${r.outcome}|${msg}`;
}

function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/** Runs a fuzz campaign. */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzStats> {
  const grouped = new Map<string, Seed[]>();
  for (const s of opts.seeds) {
    if (!grouped.has(s.format)) grouped.set(s.format, []);
    grouped.get(s.format)!.push(s);
  }
  const byFormat = new Map([...grouped].map(([f, list]) => [f, seedList(list)]));
  const formats = [...byFormat.keys()].sort();
  const stats: FuzzStats = { inputs: 0, seconds: 0, byFormat: {}, findings: [], mismatches: [], restarts: 0, gltfChecked: 0, slowRetries: 0, cpuSeconds: 0 };
  const mismatches = new Map<string, Finding>();
  if (formats.length === 0) return stats;
  const memFactor = opts.memFactor ?? 32;
  const memSlackBytes = (opts.memSlackMb ?? 64) * 1024 * 1024;
  const pool = new FuzzPool({
    size: opts.concurrency ?? 2,
    maxOldGenerationSizeMb: 512,
    baseMs: opts.timeBaseMs ?? 5000,
    msPerMB: opts.timeMsPerMB ?? 2000,
    ...(opts.preload ? { preload: opts.preload } : {}),
  });
  const findings = new Map<string, Finding>();
  // Failures already saved (by an earlier run) are counted but not saved or shrunk again.
  const alreadySaved = opts.saveDir ? savedSignatures(opts.saveDir) : new Set<string>();
  const t0 = performance.now();
  let next = 0;
  let lastProgress = t0;
  const elapsed = () => (performance.now() - t0) / 1000;

  const gltfEvery = opts.gltfEvery ?? 20;
  const pipeline = opts.pipeline !== false;
  const request = async (id: number, format: string, bytes: Uint8Array, gltfCheck = false): Promise<FuzzResponse> => {
    const r = await pool.run({ id, format, bytes, encode: true, memFactor, memSlackBytes, pipeline, gltfCheck });
    if (r.outcome !== 'hang') return r;
    // The time limit is wall-clock time: on a machine shared with other work an input can miss it
    // without looping. A real hang misses ten times the limit too.
    const again = await pool.run({ id, format, bytes, encode: true, memFactor, memSlackBytes, pipeline, gltfCheck, timeScale: 10 });
    if (again.outcome !== 'hang' && id >= 0) stats.slowRetries++;
    return again;
  };

  const record = async (i: number, seed: Seed, mutant: Mutant, r: FuzzResponse) => {
    const counts = (stats.byFormat[seed.format] ??= {});
    counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    if (r.outcome === 'mismatch') {
      const m = mismatches.get(seed.format);
      if (m) m.hits++;
      else mismatches.set(seed.format, { signature: `${seed.format}|mismatch`, format: seed.format, outcome: r.outcome, message: r.message ?? '', stack: '', seedName: seed.name, mutation: `${mutant.kind}: ${mutant.desc}`, input: i, bytes: mutant.bytes, hits: 1 });
    }
    if (r.gltfChecked) stats.gltfChecked++;
    stats.cpuSeconds += (r.cpuUs ?? 0) / 1e6;
    if (!FAILURES.includes(r.outcome)) return;
    const sig = signatureOf(seed.format, r);
    const known = findings.get(sig);
    if (known) {
      known.hits++;
      return;
    }
    const f: Finding = {
      signature: sig, format: seed.format, outcome: r.outcome, message: r.message ?? '', stack: r.stack ?? '',
      seedName: seed.name, mutation: `${mutant.kind}: ${mutant.desc}`, input: i, bytes: mutant.bytes, hits: 1,
    };
    findings.set(sig, f);
    if (alreadySaved.has(sig)) return;
    const check = r.outcome === 'gltf-invalid';
    if (opts.minimize !== false) f.bytes = await shrink(f.bytes, (b) => request(-1, seed.format, b, check).then((x) => signatureOf(seed.format, x) === sig), r.outcome === 'hang' ? 4 : 48);
    if (opts.saveDir) save(opts.saveDir, f, opts.seed);
  };

  const take = () => {
    if (next >= opts.inputs || elapsed() >= opts.seconds || opts.signal?.aborted) return undefined;
    const i = next++;
    return { i, ...makeInput(opts.seeds, byFormat, formats, opts.seed, i) };
  };
  const lane = async () => {
    let upcoming = take();
    while (upcoming) {
      const { i, seed, mutant } = upcoming;
      const pending = request(i, seed.format, mutant.bytes, gltfEvery > 0 && i % gltfEvery === 0);
      // The next mutant is made while the worker runs this one, so the worker waits only for the
      // message round trip. (Taken but not run when the clock or a signal stops the run.)
      upcoming = take();
      const r = await pending;
      await record(i, seed, mutant, r);
      stats.inputs++;
      const now = performance.now();
      if (opts.onProgress && now - lastProgress > 1000) {
        lastProgress = now;
        stats.seconds = elapsed();
        stats.findings = [...findings.values()];
        opts.onProgress(stats);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency ?? 2 }, lane));
  } finally {
    await pool.close();
  }
  stats.seconds = elapsed();
  stats.findings = [...findings.values()];
  stats.mismatches = [...mismatches.values()];
  stats.restarts = pool.restarts;
  return stats;
}

/**
 * Shrinks a failing input while it keeps failing the same way: cuts the tail, then removes
 * blocks of decreasing size. Smaller regression inputs carry less of any seed file and point
 * closer at the bug.
 */
export async function shrink(bytes: Uint8Array, stillFails: (b: Uint8Array) => Promise<boolean>, budget: number): Promise<Uint8Array> {
  let cur = bytes;
  let tries = 0;
  // Tail first: most formats read front to back, so what follows the failure point is irrelevant.
  for (let cut = cur.length >> 1; cut >= 1 && tries < budget; cut >>= 1) {
    while (cur.length > cut && tries < budget) {
      const cand = cur.subarray(0, cur.length - cut);
      tries++;
      if (await stillFails(cand)) cur = cand.slice();
      else break;
    }
  }
  return cur;
}

/** Signatures of the notes already in a crash folder. */
export function savedSignatures(dir: string): Set<string> {
  const out = new Set<string>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    try {
      const sig = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { signature?: unknown }).signature;
      if (typeof sig === 'string') out.add(sig);
    } catch {
      // A note that does not parse is left for a person to look at.
    }
  }
  return out;
}

function save(dir: string, f: Finding, fuzzSeed: number): void {
  mkdirSync(dir, { recursive: true });
  const name = `${f.format}-${hashOf(f.bytes)}`;
  f.file = `${name}.bin`;
  writeFileSync(join(dir, `${name}.bin`), f.bytes);
  const stackTop = f.stack.split('\n').slice(0, 8).map((l) => l.replace(/\(?file:\/\/\/.*?\/(shared|fuzz|test)\//g, '($1/').replace(/\/[^\s()]*\/(shared|fuzz|test)\//g, '$1/'));
  const note = {
    format: f.format,
    signature: f.signature,
    outcome: f.outcome,
    message: f.message,
    stack: stackTop,
    seed: f.seedName,
    mutation: f.mutation,
    fuzzSeed,
    input: f.input,
    bytes: f.bytes.length,
    // `open` until the codec is fixed; the regression test runs (instead of a todo) once `fixed`.
    status: 'open',
  };
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(note, null, 2)}\n`);
}
