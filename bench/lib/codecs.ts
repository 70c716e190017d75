/**
 * Codec throughput and peak memory, per format: the whole real corpus (aggregated), its largest
 * file, and the large generated inputs. Throughput is MB/s of file bytes; memory is measured in a
 * fresh child process per file (see ../memory-probe.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatCodec, FormatId } from '../../shared/formats/registry.ts';
import type { MemoryProbeResult } from '../memory-probe.ts';
import { corpusInputs, GENERATED, loadBuilder, shortName } from './inputs.ts';
import type { Row } from './report.ts';
import { mbPerSecond, median, memcpyMbPerSecond, QUICK_PLAN, timeEach, timeIt, warmUp, type TimingPlan } from './timing.ts';

/** Uncompressed formats must encode large files at this speed or better. */
export const THROUGHPUT_TARGET_MBPS = 1000;
/**
 * ... and decode them at this speed or better, the way `lodsmith info` decodes (in situ: arrays
 * are views of the file's bytes, unaligned ones moved into alignment inside them).
 */
export const DECODE_TARGET_MBPS = 4000;
/** Peak memory of a decode must stay within 2N + 64 MB for a file of N bytes. */
export const memoryTarget = (n: number): number => 2 * n + 64 * 1024 * 1024;
/** Formats whose bulk data may be compressed: the 1 GB/s goal is for uncompressed data only. */
const COMPRESSED_FORMATS = new Set<FormatId>(['p3d-odol']);

const probeScript = fileURLToPath(new URL('../memory-probe.ts', import.meta.url));

/** Runs the memory probe on one file in a fresh Node process. */
export function probeMemory(format: FormatId, file: string): MemoryProbeResult | string {
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', probeScript, format, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out.trim().split('\n').pop()!) as MemoryProbeResult;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    return (err.stderr || err.message).split('\n').find((l) => l.trim()) ?? 'probe failed';
  }
}

/** Peak of a probe: RSS high-water delta, but never less than what the document holds live. */
function probePeak(p: MemoryProbeResult): number {
  return Math.max(p.peakDelta, p.arrayBuffersRetained + Math.max(0, p.heapRetained));
}

function memoryRow(format: FormatId, input: string, bytes: number, probe: MemoryProbeResult | string, extraNote?: string): Row {
  const limit = memoryTarget(bytes);
  const target = `<= 2N+64MB = ${(limit / 1e6).toFixed(0)} MB`;
  if (typeof probe === 'string') {
    return { section: 'memory', subject: format, input, bytes, metric: 'decode peak', value: null, unit: 'bytes', target, verdict: 'n/a', note: `probe failed: ${probe}` };
  }
  const notes = [
    `retained after decode: ${(probe.arrayBuffersRetained / 1e6).toFixed(1)} MB buffers + ${(probe.heapRetained / 1e6).toFixed(1)} MB heap`,
    probe.decodeError ? `decode failed: ${probe.decodeError}` : '',
    probe.hwmReset ? '' : 'high-water mark could not be reset: upper bound including start-up',
    extraNote ?? '',
  ].filter(Boolean);
  // The allocator may reuse pages freed before the baseline, hiding part of a decode from RSS; the
  // live buffers and heap the document holds are a floor the figure never goes below.
  const peak = probePeak(probe);
  notes.unshift(`RSS high-water delta ${(probe.peakDelta / 1e6).toFixed(1)} MB`);
  return {
    section: 'memory', subject: format, input, bytes, metric: 'decode peak', value: peak, unit: 'bytes',
    target, verdict: probe.decodeError ? 'n/a' : peak <= limit ? 'PASS' : 'MISS', note: notes.join('; '),
  };
}

/**
 * The memcpy baseline right next to the figure it divides: on a shared machine the speed of
 * memory changes from minute to minute, and a baseline from another moment would skew the ratio.
 */
function memcpyAt(bytes: number, plan: TimingPlan): number {
  return memcpyMbPerSecond(bytes, plan);
}

/** Untimed decoding of a real-file batch before its decode is timed (see throughputRows). */
const CORPUS_WARMUP_MS = 1000;
/** The warm-up goes on past its time (up to this) while the CPU time per call still improves. */
const CORPUS_WARMUP_MAX_MS = 6000;
/** CPU-time passes behind the note of a real-corpus decode row. */
const CPU_PASSES = 15;


/** File bytes per CPU-second (user + system time of the process) of `fn`, the median of `runs` calls. */
function cpuMbPerSecond(bytes: number, fn: () => unknown, runs: number): number {
  const sink: unknown[] = [];
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    sink[0] = fn();
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / 1e6);
  }
  if (sink.length === 0) throw new Error('unreachable');
  return mbPerSecond(bytes, median(samples));
}

/** Decode targets for a format's whole real corpus (file bytes per second). */
const CORPUS_DECODE_TARGET_MBPS: Partial<Record<string, number>> = { 'p3d-odol': 300 };

interface Loaded {
  name: string;
  bytes: Uint8Array;
  doc: object;
}

/** Decode and encode throughput over a set of files taken as one batch. */
function throughputRows(codec: FormatCodec, input: string, files: Loaded[], plan: TimingPlan, large: boolean): Row[] {
  const total = files.reduce((s, f) => s + f.bytes.length, 0);
  const memcpy = memcpyAt(total, plan);
  const uncompressed = !COMPRESSED_FORMATS.has(codec.id);
  const targeted = large && uncompressed;
  const verdict = (mbps: number): Row['verdict'] => (targeted ? (mbps >= THROUGHPUT_TARGET_MBPS ? 'PASS' : 'MISS') : '-');
  const target = targeted ? `>= ${THROUGHPUT_TARGET_MBPS} MB/s` : undefined;
  const rows: Row[] = [];

  if (large) {
    // The decode the command line runs: `info` in situ and deferred (DecodeOptions.defer), into a
    // fresh copy of the file's bytes for every call (copied into one reused buffer, untimed, as a
    // command reads the file before it decodes); `check` shared (`roundtrip` shared and deferred:
    // for a codec without in-situ moves, the first row's work); the editor and the host with copies.
    const scratch = files.map((f) => new Uint8Array(f.bytes.length));
    const fresh = (): Uint8Array[] => scratch.map((s, i) => (s.set(files[i]!.bytes), s));
    const inSitu = mbPerSecond(total, timeEach(fresh, (inputs) => inputs.map((b) => codec.decode(b, { share: 'in-situ', defer: true })), plan));
    const shared = mbPerSecond(total, timeIt(() => files.map((f) => codec.decode(f.bytes, { share: true })), plan));
    const copies = mbPerSecond(total, timeIt(() => files.map((f) => codec.decode(f.bytes)), plan));
    const decodeTarget = uncompressed ? `>= ${DECODE_TARGET_MBPS} MB/s` : undefined;
    rows.push({
      section: 'codec', subject: codec.id, input, bytes: total, metric: 'decode', value: inSitu, unit: 'MB/s', vsMemcpy: inSitu / memcpy, target: decodeTarget,
      verdict: uncompressed ? (inSitu >= DECODE_TARGET_MBPS ? 'PASS' : 'MISS') : '-',
      note: `as lodsmith info decodes (share: 'in-situ'${codec.inSitu ? '' : ', which this codec runs as shared'}; defer: true, so arrays a codec defers are checked, not made)`,
    });
    rows.push({ section: 'codec', subject: codec.id, input, bytes: total, metric: 'decode (shared: check)', value: shared, unit: 'MB/s', vsMemcpy: shared / memcpy, verdict: '-' });
    rows.push({ section: 'codec', subject: codec.id, input, bytes: total, metric: 'decode (copies: editor, host)', value: copies, unit: 'MB/s', vsMemcpy: copies / memcpy, verdict: '-' });
  } else {
    // A batch of real files decodes as a command going through many files does (`check`, `info`
    // per file): one file at a time, each document dropped before the next (the last is
    // returned, so the work cannot be optimised away). Holding the whole batch's documents alive
    // while the next batch decoded made garbage collection copy and compact all of them, which no
    // command does. Real files are small, so a pass of the corpus is a few runs of each decoder:
    // it is warmed up first (see warmUp: the JIT compiles hot loops on a background thread, which
    // load delays).
    const decodeBatch = (): object | undefined => {
      let last: object | undefined;
      for (const f of files) last = codec.decode(f.bytes);
      return last;
    };
    const warmMs = plan === QUICK_PLAN ? CORPUS_WARMUP_MS / 2 : CORPUS_WARMUP_MS;
    warmUp(decodeBatch, warmMs, CORPUS_WARMUP_MAX_MS);
    const dec = mbPerSecond(total, timeIt(decodeBatch, plan));
    // The real ODOL corpus has its own decode target (its arrays are LZO streams: see docs/performance.md).
    const corpusTarget = CORPUS_DECODE_TARGET_MBPS[codec.id];
    if (corpusTarget !== undefined) {
      // Beside the wall-clock figure, the CPU time of more passes (all threads: GC helpers and the
      // JIT included), which the machine's load moves much less: at a load far above the core
      // count the process waits for a core most of the time.
      const cpu = cpuMbPerSecond(total, decodeBatch, CPU_PASSES);
      rows.push({
        section: 'codec', subject: codec.id, input, bytes: total, metric: 'decode', value: dec, unit: 'MB/s', vsMemcpy: dec / memcpy, target: `>= ${corpusTarget} MB/s`, verdict: dec >= corpusTarget ? 'PASS' : 'MISS',
        note: `one file at a time, each document dropped before the next (as check and info go through files), after a warm-up of at least ${warmMs / 1000} s; CPU: ${cpu.toFixed(0)} MB per CPU-second (median of ${CPU_PASSES} passes)`,
      });
    } else {
      rows.push({ section: 'codec', subject: codec.id, input, bytes: total, metric: 'decode', value: dec, unit: 'MB/s', vsMemcpy: dec / memcpy, target, verdict: verdict(dec) });
    }
  }

  let identical = 0;
  for (const f of files) {
    const out = codec.encode(f.doc);
    if (Buffer.compare(Buffer.from(out.buffer, out.byteOffset, out.length), Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.length)) === 0) identical++;
  }
  const enc = mbPerSecond(total, timeIt(() => files.map((f) => codec.encode(f.doc)), plan));
  rows.push({
    section: 'codec', subject: codec.id, input, bytes: total, metric: 'encode (save untouched)', value: enc, unit: 'MB/s', vsMemcpy: enc / memcpy, target, verdict: verdict(enc),
    note: `${identical}/${files.length} file(s) re-encode byte-identical`,
  });
  // Encoding every field from the decoded values (no reuse of the original bytes) is what an
  // edited file costs; it is the figure that shows the field encoders' speed.
  try {
    const encFields = mbPerSecond(total, timeIt(() => files.map((f) => codec.encode(f.doc, { reuseRaw: false })), plan));
    rows.push({ section: 'codec', subject: codec.id, input, bytes: total, metric: 'encode (all fields)', value: encFields, unit: 'MB/s', vsMemcpy: encFields / memcpy, target, verdict: verdict(encFields) });
  } catch (e) {
    rows.push({ section: 'codec', subject: codec.id, input, bytes: total, metric: 'encode (all fields)', value: null, unit: 'MB/s', verdict: 'n/a', note: `threw: ${(e as Error).message}` });
  }
  return rows;
}

function loadFiles(codec: FormatCodec, paths: string[]): { ok: Loaded[]; failed: string[] } {
  const ok: Loaded[] = [];
  const failed: string[] = [];
  for (const p of paths) {
    const buf = readFileSync(p);
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    try {
      ok.push({ name: p, bytes, doc: codec.decode(bytes, { fileName: p }) });
    } catch (e) {
      failed.push(`${shortName(p)}: ${(e as Error).message}`);
    }
  }
  return { ok, failed };
}

/** Options of the codec section. */
export interface CodecBenchOptions {
  plan: TimingPlan;
  quick: boolean;
  /** Restrict to these formats (all when empty). */
  only: readonly string[];
  log: (s: string) => void;
}

/** Benchmarks one registered codec on the corpus and on its generated inputs. */
export async function benchCodec(format: FormatId, codec: FormatCodec | undefined, opts: CodecBenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  const na = (input: string, metric: string, note: string, section: Row['section'] = 'codec'): Row => ({
    section, subject: format, input, bytes: 0, metric, value: null, unit: section === 'memory' ? 'bytes' : 'MB/s', verdict: 'n/a', note,
  });
  const corpus = corpusInputs(format);
  if (!codec) {
    rows.push(na('all', 'decode/encode', 'codec not registered in shared/formats/index.ts yet: not measured'));
    return rows;
  }

  // Real files.
  if (corpus.length === 0) {
    rows.push(na('corpus', 'decode/encode', 'corpus absent: real files skipped'));
  } else {
    opts.log(`${format}: corpus (${corpus.length} files)`);
    const { ok, failed } = loadFiles(codec, corpus.map((c) => c.file));
    if (ok.length > 0) {
      const r = throughputRows(codec, `corpus (${ok.length} files)`, ok, opts.plan, false);
      if (failed.length) r[0]!.note = `${failed.length} file(s) failed to decode and are left out: ${failed.join('; ')}`;
      rows.push(...r);
      const largest = ok.reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
      rows.push(...throughputRows(codec, `largest: ${shortName(largest.name)}`, [largest], opts.plan, false));
    } else {
      rows.push(na('corpus', 'decode', `every file failed to decode: ${failed.join('; ')}`));
    }
    // Memory: every file in its own process (the worst margin is reported), the largest by name.
    const toProbe = opts.quick ? [corpus.reduce((a, b) => (b.bytes > a.bytes ? b : a))] : corpus;
    let worst: { file: string; bytes: number; probe: MemoryProbeResult } | undefined;
    let failures = 0;
    for (const c of toProbe) {
      const probe = probeMemory(format, c.file);
      if (typeof probe === 'string' || probe.decodeError) {
        failures++;
        continue;
      }
      const margin = probePeak(probe) / memoryTarget(c.bytes);
      if (!worst || margin > probePeak(worst.probe) / memoryTarget(worst.bytes)) worst = { file: c.file, bytes: c.bytes, probe };
    }
    if (worst) {
      const label = opts.quick ? `largest: ${shortName(worst.file)}` : `worst of ${toProbe.length}: ${shortName(worst.file)}`;
      rows.push(memoryRow(format, label, worst.bytes, worst.probe, failures ? `${failures} file(s) could not be probed` : undefined));
    }
    if (!opts.quick) {
      const largest = corpus.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      if (!worst || largest.file !== worst.file) rows.push(memoryRow(format, `largest: ${shortName(largest.file)}`, largest.bytes, probeMemory(format, largest.file)));
    }
  }

  // Generated large files.
  for (const spec of GENERATED.filter((g) => g.format === format)) {
    const builder = await loadBuilder(spec);
    if (!builder.ok) {
      rows.push(na(spec.label, 'decode/encode', `input not available: ${builder.reason}`));
      rows.push(na(spec.label, 'decode peak', `input not available: ${builder.reason}`, 'memory'));
      continue;
    }
    opts.log(`${format}: building ${spec.label}${opts.quick ? ' (quick: 1/10 size)' : ''}`);
    const t0 = performance.now();
    let bytes: Uint8Array;
    try {
      bytes = await builder.build(...spec.args(opts.quick));
    } catch (e) {
      rows.push(na(spec.label, 'decode/encode', `builder threw: ${(e as Error).message}`));
      continue;
    }
    const buildSeconds = (performance.now() - t0) / 1000;
    const label = opts.quick ? `${spec.label} (quick: 1/10)` : spec.label;
    let doc: object;
    try {
      doc = codec.decode(bytes, { fileName: spec.label });
    } catch (e) {
      rows.push(na(label, 'decode', `generated file failed to decode: ${(e as Error).message}`));
      continue;
    }
    opts.log(`${format}: timing ${spec.label} (${(bytes.length / 1e6).toFixed(1)} MB, built in ${buildSeconds.toFixed(1)} s)`);
    const r = throughputRows(codec, label, [{ name: spec.label, bytes, doc }], opts.plan, true);
    r[0]!.note = `${spec.description}; ${(bytes.length / 1e6).toFixed(1)} MB built by ${spec.module} in ${buildSeconds.toFixed(1)} s; ${r[0]!.note}`;
    rows.push(...r);
    const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-gen-'));
    try {
      const file = join(dir, 'input.bin');
      writeFileSync(file, bytes);
      rows.push(memoryRow(format, label, bytes.length, probeMemory(format, file)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
