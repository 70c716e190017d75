/**
 * Whole-process figures: what a user waits for when they type a command, start-up included.
 * Each runs the real launcher (bin/lodsmith.cjs, which runs the prebuilt CLI) with the Node that
 * runs the benchmark, and compares it with that same Node in the same minutes: rounds alternate
 * between the two, and each figure is the median of the per-round ratios, so a load swing on the
 * shared machine moves both sides alike. The timed processes are started by a small runner
 * process (bench/lib/process-runner.mjs), not by this one: a fork of the benchmark's own large
 * process added up to ~27 ms to every run, bare Node's included.
 *
 * - start-up: `lodsmith info` on a tiny MLOD file against a bare `node -e 0` (target <= 1.3x);
 * - `info` over every MLOD corpus file, one process per file: mean time per file, against Python's
 *   Arma 3 Object Builder reader (A3OB) run the same way in the same passes (target: 2x faster;
 *   without the peer the row is a MISS saying "peer missing");
 * - `check` over the corpus copied eight times (~1,300 files) with `-j 2` against `-j 1` (target
 *   <= 0.7x on 2 cores), beside the machine's bound: two CPU-bound processes side by side / one;
 * - `check` over a folder of four PBOs holding the corpus's models and textures: MB/s of entries
 *   (no target yet: the first figure of a new kind of input).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBundle } from '../../scripts/build-cli.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../../test/helpers/corpus.ts';
import { buildPbo } from '../../test/helpers/pbo.ts';
import { corpusInputs } from './inputs.ts';
import { a3obCommandLine, peersDir } from './peer-paths.ts';
import type { Row } from './report.ts';
import { median } from './timing.ts';

const BIN = join(repoRoot, 'bin/lodsmith.cjs');
/** Python A3OB's `info`-equivalent read of one MLOD file, measured beside LodSmith on another machine (see peerCommand). */
const A3OB_MS_PER_FILE = 53;
const PEER_SPEEDUP = 2;
/** Issue 26: whole-process `info` on a tiny file at most this many times a bare `node -e 0`. */
const STARTUP_TARGET = 1.3;

const RUNNER = join(repoRoot, 'bench/lib/process-runner.mjs');

/** Arguments to this Node, or another program (a peer's command). */
type Command = readonly string[] | { readonly exe: string; readonly args: readonly string[] };

/**
 * Python A3OB's read of one MLOD file, to run side by side with ours when this machine has it:
 * `LODSMITH_BENCH_A3OB` holds its command line (a JSON array, or words separated by spaces) to
 * which the file is appended, e.g. a script that reads the file with A3OB's `P3D_MLOD` and
 * prints a summary. The peer's code is never part of this repository. Without it the row uses
 * {@link A3OB_MS_PER_FILE}, measured on another machine.
 */
export function peerCommand(line: string | undefined): { exe: string; args: string[] } | undefined {
  const text = line?.trim();
  if (!text) return undefined;
  const words = text.startsWith('[') ? (JSON.parse(text) as unknown) : text.split(/\s+/);
  if (!Array.isArray(words) || words.length === 0 || !words.every((w) => typeof w === 'string' && w.length > 0)) {
    throw new Error('LODSMITH_BENCH_A3OB must be a command line: a JSON array of strings or words separated by spaces');
  }
  return { exe: words[0], args: words.slice(1) };
}

/**
 * Wall time of each command line (arguments to this Node), run one after another in the given
 * order by bench/lib/process-runner.mjs: a small process of its own, so that starting each
 * timed process costs what it costs from a shell, not a fork of this benchmark's large process
 * (which added up to ~27 ms to every run, bare Node's included; see the runner's header).
 */
function timed(commands: readonly Command[]): number[] {
  return timedWithCpu(commands).ms;
}

/**
 * {@link timed}, with each command's CPU time (user + system, all threads) where the runner can
 * read it (Linux), in 10 ms ticks: sum many before reading it.
 */
function timedWithCpu(commands: readonly Command[]): { ms: number[]; cpuMs: number[] | null } {
  const r = spawnSync(process.execPath, [RUNNER], { input: JSON.stringify({ commands }), stdio: ['pipe', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  if (r.error) throw r.error;
  const out = JSON.parse(r.stdout.toString()) as { ms: number[]; cpuMs: number[] | null; failed: [number, string] | null };
  if (out.failed) {
    const c = commands[out.failed[0]]!;
    throw new Error(`${('exe' in c ? [c.exe, ...c.args] : c).join(' ')}: ${out.failed[1]}`);
  }
  return out;
}

/** The smallest MLOD corpus file, or a tiny generated one when the corpus is absent. */
async function tinyMlod(dir: string): Promise<{ file: string; label: string }> {
  const real = corpusInputs('p3d-mlod').sort((a, b) => a.bytes - b.bytes)[0];
  if (real) return { file: real.file, label: `smallest corpus MLOD (${real.bytes} B)` };
  const { buildSampleMlod } = await import('../../scripts/fixtures/mlod.ts');
  const { mlodCodec } = await import('../../shared/formats/p3d/mlod/codec.ts');
  const file = join(dir, 'tiny.p3d');
  writeFileSync(file, mlodCodec.encode(buildSampleMlod()));
  return { file, label: 'generated sample MLOD' };
}

export async function benchProcesses(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const built = await ensureCliBundle().catch((e: unknown) => new Error(String(e)));
  if (built instanceof Error) {
    return [{ section: 'process', subject: 'lodsmith', input: 'prebuilt CLI', bytes: 0, metric: 'start-up', value: null, unit: 'x', target: `<= ${STARTUP_TARGET}x node -e 0`, verdict: 'MISS', note: `not measured: the prebuilt CLI could not be built (${built.message})` }];
  }
  if (built) log(`process: ${built}`);
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-process-'));
  try {
    // 1. Start-up on a tiny file against bare Node, alternating.
    const tiny = await tinyMlod(dir);
    const rounds = quick ? 9 : 31;
    log(`process: start-up, ${rounds} alternating rounds`);
    // The first run warms the compile cache; then bare Node and lodsmith alternate.
    const startup = timed([[BIN, 'info', tiny.file], ...Array.from({ length: rounds }, () => [['-e', '0'], [BIN, 'info', tiny.file]]).flat()]).slice(1);
    const bare: number[] = [];
    const ours: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const b = startup[2 * r]!;
      const o = startup[2 * r + 1]!;
      bare.push(b);
      ours.push(o);
      ratios.push(o / b);
    }
    const startRatio = median(ratios);
    rows.push({
      section: 'process', subject: 'lodsmith info', input: tiny.label, bytes: 0, metric: 'whole process vs node -e 0', value: startRatio, unit: 'x',
      target: `<= ${STARTUP_TARGET}x`, verdict: startRatio <= STARTUP_TARGET ? 'PASS' : 'MISS',
      note: `medians: lodsmith info ${median(ours).toFixed(1)} ms, node -e 0 ${median(bare).toFixed(1)} ms (${process.version}); ratio = median of ${rounds} per-round ratios`,
    });

    // 2. info over the MLOD corpus, one process per file (and the peer's read, when given).
    const mlod = corpusInputs('p3d-mlod');
    const peer = peerCommand(a3obCommandLine());
    const fixedTarget = A3OB_MS_PER_FILE / PEER_SPEEDUP;
    if (mlod.length === 0) {
      rows.push({ section: 'process', subject: 'lodsmith info', input: 'MLOD corpus, a process per file', bytes: 0, metric: 'ms per file', value: null, unit: 's', target: `<= ${fixedTarget.toFixed(0)} ms`, verdict: 'MISS', note: 'not measured: no corpus' });
    } else {
      const passes = quick ? 1 : 3;
      log(`process: info over ${mlod.length} MLOD files, ${passes} passes${peer ? ', beside A3OB' : ''}`);
      const perFile: number[] = [];
      const bareStart: number[] = [];
      const peerPerFile: number[] = [];
      const cpuPerFile: number[] = [];
      const cpuBare: number[] = [];
      const cpuPeer: number[] = [];
      const step = peer ? 3 : 2;
      for (let p = 0; p < passes; p++) {
        const { ms: t, cpuMs } = timedWithCpu(mlod.flatMap((f): Command[] => [['-e', '0'], [BIN, 'info', f.file], ...(peer ? [{ exe: peer.exe, args: [...peer.args, f.file] }] : [])]));
        let total = 0;
        let totalBare = 0;
        let totalPeer = 0;
        let cpu = 0;
        let cpuB = 0;
        let cpuP = 0;
        for (let i = 0; i < mlod.length; i++) {
          totalBare += t[step * i]!;
          total += t[step * i + 1]!;
          cpuB += cpuMs?.[step * i] ?? 0;
          cpu += cpuMs?.[step * i + 1] ?? 0;
          if (peer) {
            totalPeer += t[step * i + 2]!;
            cpuP += cpuMs?.[step * i + 2] ?? 0;
          }
        }
        perFile.push(total / mlod.length);
        bareStart.push(totalBare / mlod.length);
        if (peer) peerPerFile.push(totalPeer / mlod.length);
        if (cpuMs) {
          cpuPerFile.push(cpu / mlod.length);
          cpuBare.push(cpuB / mlod.length);
          if (peer) cpuPeer.push(cpuP / mlod.length);
        }
      }
      const ms = median(perFile);
      const bareMs = median(bareStart);
      const peerMs = peer ? median(peerPerFile) : undefined;
      const target = peerMs !== undefined ? peerMs / PEER_SPEEDUP : fixedTarget;
      const cpuNote = cpuPerFile.length
        ? `; CPU time per file ${median(cpuPerFile).toFixed(1)} ms, bare Node ${median(cpuBare).toFixed(1)} ms (${(median(cpuPerFile) - median(cpuBare)).toFixed(1)} ms over)${peer ? `, A3OB ${median(cpuPeer).toFixed(1)} ms` : ''}`
        : '';
      const peerNote =
        peerMs !== undefined
          ? `A3OB (${[peer!.exe, ...peer!.args].join(' ')}) took ${peerMs.toFixed(1)} ms a file in the same passes: ours is ${(peerMs / ms).toFixed(2)}x faster`
          : `peer missing: A3OB's reader is neither in ${peersDir}/a3ob nor named by LODSMITH_BENCH_A3OB (the ${A3OB_MS_PER_FILE} ms target was measured on another machine, so this row cannot pass)`;
      rows.push({
        section: 'process', subject: 'lodsmith info', input: `MLOD corpus (${mlod.length} files), a process per file`, bytes: mlod.reduce((a, f) => a + f.bytes, 0), metric: 'mean per file', value: ms / 1000, unit: 's',
        target: peerMs !== undefined ? `<= ${target.toFixed(0)} ms (A3OB here ${peerMs.toFixed(0)} ms / ${PEER_SPEEDUP})` : `<= ${target.toFixed(0)} ms (A3OB ${A3OB_MS_PER_FILE} ms / ${PEER_SPEEDUP})`,
        verdict: peerMs !== undefined && ms <= target ? 'PASS' : 'MISS',
        note: `bare node -e 0 took ${bareMs.toFixed(1)} ms a run in the same passes (${(ms / bareMs).toFixed(2)}x, ${(ms - bareMs).toFixed(1)} ms over bare Node; the issue's budget for loading and decoding is ~15 ms)${cpuNote}; ${peerNote}`,
      });
    }

    // 3. check over a folder of PBO archives (the corpus's P3D models and textures packed by the
    // test helper, half of the archives LZSS-compressed): throughput of reading, expanding,
    // decoding, round-tripping and rule-checking every model inside.
    if (hasCorpus) {
      const pboDir = join(dir, 'pbos');
      const { entries, bytes } = writeCorpusPbos(pboDir);
      const reps = quick ? 1 : 3;
      log(`process: check over ${entries} entries in 4 PBOs, ${reps} rounds`);
      const runs = timedWithCpu(Array.from({ length: reps + 1 }, () => [BIN, 'check', pboDir]));
      const ms = median(runs.ms.slice(1));
      rows.push({
        section: 'process', subject: 'lodsmith check', input: `4 PBOs (${entries} models and textures, 2 compressed)`, bytes, metric: 'check over PBOs', value: bytes / 1e6 / (ms / 1000), unit: 'MB/s',
        verdict: '-', note: `median wall time ${ms.toFixed(0)} ms for ${(bytes / 1e6).toFixed(1)} MB of entries (decoded sizes), default -j; the first run warmed the compile cache`,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** How many copies of the corpus make the `check` folder (issue 26: >= 1,000 model files). */
const CHECK_COPIES = 8;
const CHECK_TARGET = 0.7;
/**
 * `-j2`'s CPU time over `-j1`'s for the same files: what a second worker costs beyond the work
 * itself (its own V8 warming up; the queue keeps each worker on fewer kinds of file for it).
 * Measured by CPU time, so it holds on a busy machine too.
 */
const CHECK_CPU_TARGET = 1.15;

/** A CPU-bound Node child (~0.3 s alone), started `n` at a time by one small parent that waits for them. */
function busyChildren(n: number): string[] {
  const busy = 'let x = 0; for (let i = 0; i < 3e8; i++) x = (x + i) | 0; if (x === 1) console.log(x);';
  return ['-e', `const { spawn } = require('node:child_process'); for (let k = 0; k < ${n}; k++) spawn(process.execPath, ['-e', ${JSON.stringify(busy)}], { stdio: 'ignore' });`];
}

/**
 * `lodsmith check` over the corpus copied {@link CHECK_COPIES} times into `dir` (~1,300 files),
 * `-j2` against `-j1` in alternating rounds (target <= 0.7x on 2 or more cores). In the same
 * rounds, the bound the machine sets: two CPU-bound processes side by side against one alone
 * (1.0x when two cores are really there; the check row cannot beat half of it).
 */
export async function benchCheck(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const built = await ensureCliBundle().catch((e: unknown) => new Error(String(e)));
  if (built instanceof Error) return [{ section: 'process', subject: 'lodsmith check', input: 'prebuilt CLI', bytes: 0, metric: '-j2 / -j1 wall time', value: null, unit: 'x', target: `<= ${CHECK_TARGET}x`, verdict: 'MISS', note: `not measured: the prebuilt CLI could not be built (${built.message})` }];
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-check-'));
  try {
    return checkFolder(dir, quick, log);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function checkFolder(dir: string, quick: boolean, log: (s: string) => void): Row[] {
  const cores = availableParallelism();
  const base = { section: 'process' as const, subject: 'lodsmith check', bytes: 0, unit: 'x' as const, target: `<= ${CHECK_TARGET}x` };
  if (!hasCorpus) return [{ ...base, input: `corpus x ${CHECK_COPIES}`, metric: '-j2 / -j1 wall time', value: null, verdict: 'MISS', note: 'not measured: no corpus' }];
  // Two halves of four copies each, so the check's own bound can be measured: a `check -j1` on
  // each half, side by side, shares nothing, which no pool inside one process can beat.
  const folder = join(dir, 'mod-folder');
  const half = (h: number): string => join(folder, `half${h}`);
  for (let c = 1; c <= CHECK_COPIES; c++) cpSync(corpusDir, join(half(c <= CHECK_COPIES / 2 ? 1 : 2), `copy${c}`), { recursive: true });
  const files = countFiles(folder);
  const reps = quick ? 2 : 5;
  log(`process: check -j1 / -j2 over ${files} files (the corpus x ${CHECK_COPIES}), ${reps} alternating rounds, beside two busy processes / one and two check -j1 on halves`);
  const check = (j: number): string[] => [BIN, 'check', folder, '-j', String(j)];
  // Both halves checked at once by two processes (one small parent that waits for both).
  const halves: string[] = ['-e', `const { spawn } = require('node:child_process'); for (const d of ${JSON.stringify([half(1), half(2)])}) spawn(process.execPath, [${JSON.stringify(BIN)}, 'check', d, '-j', '1'], { stdio: 'ignore' });`];
  // The first run warms the compile cache and the page cache; then the five alternate.
  const runs = timedWithCpu([check(2), ...Array.from({ length: reps }, () => [check(1), check(2), busyChildren(1), busyChildren(2), halves]).flat()]);
  const t = runs.ms.slice(1);
  const cpu = runs.cpuMs?.slice(1);
  const col = (k: number): number[] => Array.from({ length: reps }, (_, r) => t[5 * r + k]!);
  const cpuCol = (k: number): number[] => (cpu ? Array.from({ length: reps }, (_, r) => cpu[5 * r + k]!) : []);
  const [j1, j2, one, two, split] = [col(0), col(1), col(2), col(3), col(4)];
  const ratio = median(j2.map((b, r) => b / j1[r]!));
  const bound = median(two.map((b, r) => b / one[r]!));
  const splitBound = median(split.map((b, r) => b / j1[r]!));
  const cpuNote = cpu ? `; CPU time -j1 ${median(cpuCol(0)).toFixed(0)} ms, -j2 ${median(cpuCol(1)).toFixed(0)} ms` : '';
  // A process cannot use more CPU time than its wall time on every core: -j2's wall time is at
  // least its CPU time / cores, so -j2 / -j1 is at least this, whatever the schedule. When -j1
  // already keeps more than one core busy (V8's compiler and GC threads beside its worker), this
  // bound alone can be above the target.
  const coresBound = cpu ? median(cpuCol(1).map((c, r) => c / cores / j1[r]!)) : null;
  const cpuRatio = cpu ? median(cpuCol(1).map((b, r) => b / cpuCol(0)[r]!)) : null;
  return [
    {
      ...base, input: `${files} files (corpus x ${CHECK_COPIES})`, metric: '-j2 / -j1 wall time', value: ratio,
      verdict: cores >= 2 && ratio <= CHECK_TARGET ? 'PASS' : 'MISS',
      note: `medians: -j1 ${median(j1).toFixed(0)} ms, -j2 ${median(j2).toFixed(0)} ms${cpuNote}; ratio = median of ${reps} per-round ratios (${j2.map((b, r) => (b / j1[r]!).toFixed(2)).join(', ')}); -j defaults to the ${cores} cores here${cores < 2 ? ' (fewer than 2: the target cannot be met here)' : ''}${coresBound !== null && coresBound > CHECK_TARGET ? `; bound by the cores: -j2's own CPU time on ${cores} cores cannot take less than ${coresBound.toFixed(2)}x -j1's wall time (row "cores")` : ''}; the machine's bounds in the same rounds: the machine rows below`,
    },
    cpuRatio !== null
      ? {
          ...base, input: `${files} files (corpus x ${CHECK_COPIES})`, metric: '-j2 CPU / -j1 CPU', value: cpuRatio, target: `<= ${CHECK_CPU_TARGET}x`,
          verdict: cpuRatio <= CHECK_CPU_TARGET ? 'PASS' : 'MISS',
          note: `whole-process CPU time (user + system), median of ${reps} per-round ratios (-j1 ${median(cpuCol(0)).toFixed(0)} ms, -j2 ${median(cpuCol(1)).toFixed(0)} ms): the second worker's cost beyond the files' work, which no machine load excuses; 1.0x means it costs nothing, so -j2 could take ~0.5x the wall time of -j1 on two free cores`,
        }
      : { ...base, input: `${files} files (corpus x ${CHECK_COPIES})`, metric: '-j2 CPU / -j1 CPU', value: null, target: `<= ${CHECK_CPU_TARGET}x`, verdict: 'MISS', note: 'not measured: no CPU times from the process runner here' },
    {
      ...base, subject: 'machine', input: 'two CPU-bound processes / one', metric: 'wall time, side by side / alone', value: bound, target: undefined, verdict: '-',
      note: `medians: one ${median(one).toFixed(0)} ms, two side by side ${median(two).toFixed(0)} ms; per round ${two.map((b, r) => (b / one[r]!).toFixed(2)).join(', ')} (the other tenants' load moves single rounds, so the medians of the columns need not give the median ratio); 1.0x means two free cores, 2.0x one: check -j2 / -j1 cannot go below about half of this`,
    },
    {
      ...base, subject: 'machine', input: 'two check -j1 on halves / one on all', metric: 'wall time, side by side / -j1', value: splitBound, target: undefined, verdict: '-',
      note: `medians: two processes each checking half the folder at once ${median(split).toFixed(0)} ms, one check -j1 of all ${median(j1).toFixed(0)} ms (same rounds); processes that share nothing, each with V8's compiler and GC threads of its own (a pool in one process can do better than this, and did on a quiet machine)`,
    },
    coresBound !== null
      ? {
          ...base, subject: 'machine', input: `cores (${cores})`, metric: '-j2 CPU / (cores x -j1 wall)', value: coresBound, target: undefined, verdict: '-',
          note: `medians of ${reps} per-round values (-j2 CPU ${median(cpuCol(1)).toFixed(0)} ms, -j1 wall ${median(j1).toFixed(0)} ms, -j1 CPU ${median(cpuCol(0)).toFixed(0)} ms: -j1 alone keeps ${(median(cpuCol(0)) / median(j1)).toFixed(2)} cores busy); the lowest -j2 / -j1 wall time any schedule of -j2's CPU time on ${cores} free cores could reach: where it is above ${CHECK_TARGET}x, the wall-time target is out of reach on this machine unless the check's CPU time itself shrinks`,
        }
      : { ...base, subject: 'machine', input: `cores (${cores})`, metric: '-j2 CPU / (cores x -j1 wall)', value: null, target: undefined, verdict: '-', note: 'not measured: no CPU times from the process runner here' },
  ];
}

function countFiles(d: string): number {
  let n = 0;
  for (const e of readdirSync(d, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(d, e.name)) : 1;
  return n;
}

/** The corpus's P3D models and PAA textures in four PBOs (two compressed) under `dir`. */
export function writeCorpusPbos(dir: string): { entries: number; bytes: number } {
  mkdirSync(dir, { recursive: true });
  const files = [...corpusFiles('p3d_mlod'), ...corpusFiles('p3d_odol'), ...corpusFiles('paa')];
  let bytes = 0;
  for (let k = 0; k < 4; k++) {
    const mine = files.filter((_, i) => i % 4 === k);
    const entries = mine.map((f) => {
      const data = readBytes(f);
      bytes += data.length;
      return { name: `data\\${f.split(/[\\/]/).pop()!}`, data, compress: k % 2 === 1 };
    });
    writeFileSync(join(dir, `addon${k}.pbo`), buildPbo(entries, { properties: [['prefix', `bench\\addon${k}`]] }));
  }
  return { entries: files.length, bytes };
}
