/**
 * `lodsmith check DIR`: every supported model file under DIR, decoded and round-tripped in
 * parallel worker threads, a table row written for each as soon as it and those before it (in
 * file order) are done, then the problems and totals.
 */
import { availableParallelism } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { GAME_TEXTURE_EXTENSIONS } from '../../../shared/formats/texture/extensions.ts';
import { isDecodeError } from '../../../shared/errors.ts';
import { printableName } from '../../../shared/formats/pbo/pbo.ts';
import { unknownRuleIds } from '../../../shared/model/rules.ts';
import { PboFile } from '../../documents/pbo-file.ts';
import { ruleIds } from '../../documents/rules-env.ts';
import type { CheckJob, CheckResult } from '../check-file.ts';
import { planQueue, queueCounters, type QueueData, type QueueResult } from '../check-queue.ts';
import { CliFailure, describeError, EXIT_OK, EXIT_PROBLEMS } from '../fail.ts';
import { escapeControls, terminalSafeJson, write, type CliIO, type OutStream } from '../io.ts';
import { entryFor, formatEntries, knownExtensions, sharedExtensions } from '../load.ts';
import { duration, humanBytes, plural, table, type Column } from '../text.ts';

export interface CheckOptions {
  json?: boolean;
  /** Most worker threads to use (default: the CPU count). */
  jobs?: number;
  strict?: boolean;
  /** Seconds one file may take before its worker is stopped (default 60). */
  timeout?: number;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
  /** --rule / --no-rule (docs/rules.md). */
  rule?: string;
  skipRule?: string;
}

export interface CheckSummary {
  dir: string;
  files: CheckResult[];
  /** Files with extensions no format claims. */
  skipped: number;
  totals: { files: number; ok: number; differs: number; errors: number; bytes: number; ms: number; ruleErrors: number; ruleWarnings: number };
}

/**
 * The worker's entry: beside the sources when running from them, and in the prebuilt CLI
 * (out/cli, scripts/build-cli.ts) this module is a chunk in out/cli/chunks/ and the worker is
 * out/cli/check-worker.cjs, the same relative place.
 */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? '../check-worker.ts' : '../check-worker.cjs', import.meta.url);

export async function runCheck(dir: string, opts: CheckOptions, io: CliIO): Promise<number> {
  const t0 = performance.now();
  const root = resolve(io.cwd, dir);
  const st = await stat(root);
  if (!st.isDirectory()) throw new CliFailure('is not a directory (check takes a folder; use roundtrip for single files)');
  const exts = new Set<string>([...knownExtensions(), ...GAME_TEXTURE_EXTENSIONS]);
  const all = await walk(root);
  const jobs: CheckJob[] = [];
  /** Results known before any worker runs: archives that do not open, entries they cannot read. */
  const early: CheckResult[] = [];
  let skipped = 0;
  const rules = opts.rule !== undefined || opts.skipRule !== undefined ? { rules: { ...(opts.rule !== undefined ? { rule: opts.rule } : {}), ...(opts.skipRule !== undefined ? { skipRule: opts.skipRule } : {}) } } : {};
  if (rules.rules) await checkRuleIds(rules.rules);
  const memory = { ...(opts.maxMemory !== undefined ? { maxMemory: opts.maxMemory } : {}), ...rules };
  for (const abs of all) {
    const ext = extOf(abs);
    const file = relative(root, abs).split(sep).join('/');
    if (ext === '.pbo') skipped += archiveJobs(abs, file, exts, !!opts.strict, memory, jobs, early);
    else if (exts.has(ext)) jobs.push({ abs, file, strict: !!opts.strict, ...memory });
    else skipped++;
  }
  // File order: the workers take the files in it and the results are written in it as they come.
  jobs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  // A bar only where the rows themselves do not show the progress: stdout piped, stderr a terminal.
  const showBar = !opts.json && !!io.stderr.isTTY && !io.stdout.isTTY && jobs.length > 0;
  const bar = showBar
    ? new cliProgress.SingleBar(
        { stream: io.stderr as NodeJS.WritableStream, format: 'checking [{bar}] {value}/{total} {file}', hideCursor: true, clearOnComplete: true, barsize: 30 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(jobs.length, 0, { file: '' });
  const out = new OrderedWriter(io.stdout);
  const rows = opts.json ? undefined : new StreamedTable([...jobs, ...early].map((j) => j.file));
  if (jobs.length + early.length > 0) out.push(opts.json ? `{\n  "dir": ${terminalSafeJson(JSON.stringify(dir))},\n  "files": [` : rows!.head().map(escapeControls).join('\n') + '\n');
  let first = true;
  const emit = (r: CheckResult): void => {
    if (opts.json) {
      out.push(`${first ? '' : ','}\n    ${terminalSafeJson(JSON.stringify(r, null, 2)).replace(/\n/g, '\n    ')}`);
      first = false;
    } else out.push(escapeControls(rows!.row(r)) + '\n');
  };
  const results = await runPool(jobs, poolSize(opts.jobs, jobs.length), (opts.timeout ?? 60) * 1000, (r) => {
    bar?.increment({ file: escapeControls(r.file) });
    emit(r);
  });
  bar?.stop();
  // Archives that did not open and entries they could not give: after the files checked.
  for (const r of early) emit(r);
  results.push(...early);
  const summary: CheckSummary = {
    dir,
    files: results,
    skipped,
    totals: {
      files: results.length,
      ok: results.filter((r) => r.result === 'ok').length,
      differs: results.filter((r) => r.result === 'differs').length,
      errors: results.filter((r) => r.result === 'error').length,
      bytes: results.reduce((a, r) => a + r.bytes, 0),
      ms: Math.round(performance.now() - t0),
      ruleErrors: results.reduce((a, r) => a + (r.rules?.errors ?? 0), 0),
      ruleWarnings: results.reduce((a, r) => a + (r.rules?.warnings ?? 0), 0),
    },
  };
  if (opts.json) {
    if (results.length === 0) out.push(terminalSafeJson(JSON.stringify(summary, null, 2)) + '\n');
    else out.push(`\n  ],\n  "skipped": ${skipped},\n  "totals": ${JSON.stringify(summary.totals, null, 2).replace(/\n/g, '\n  ')}\n}\n`);
  } else {
    const tail = describeSummary({ ...summary, files: [] });
    out.push((results.length > 0 ? '\n' : '') + describeProblems(results).concat(tail).map(escapeControls).join('\n') + '\n');
  }
  await out.done();
  return summary.totals.ok === summary.totals.files && summary.totals.ruleErrors === 0 ? EXIT_OK : EXIT_PROBLEMS;
}

/**
 * Text written in the order it was pushed, with backpressure, while the caller goes on: the
 * results come from a synchronous callback.
 */
class OrderedWriter {
  private chain: Promise<void> = Promise.resolve();
  private readonly out: OutStream;
  constructor(out: OutStream) {
    this.out = out;
  }
  push(text: string): void {
    this.chain = this.chain.then(() => write(this.out, text));
  }
  done(): Promise<void> {
    return this.chain;
  }
}

/**
 * The results table written a row at a time: every column's width is known before the first
 * result (file names and sizes from the folder, the longest format id of any format), except
 * the version's, which is as wide as the usual ones; a longer version (a TGA's description)
 * pushes the rest of its own row to the right.
 */
class StreamedTable {
  private readonly widths: number[];
  private static readonly COLUMNS: readonly Column[] = [{ title: 'file', max: 60 }, { title: 'format' }, { title: 'version', align: 'right' }, { title: 'size', align: 'right' }, { title: 'result' }, { title: 'rules' }, { title: 'time', align: 'right' }];
  constructor(files: readonly string[]) {
    const formats = [...formatEntries().map((e) => e.id), 'texture-paa', 'texture-dds', 'texture-tga', 'pbo'];
    this.widths = [
      Math.max(4, ...files.map((f) => Math.min(60, f.length))),
      Math.max(6, ...formats.map((f) => f.length)),
      8,
      8,
      7,
      7,
      6,
    ];
  }
  head(): string[] {
    return [this.line(StreamedTable.COLUMNS.map((c) => c.title)), this.line(this.widths.map((w) => '-'.repeat(w)))];
  }
  row(r: CheckResult): string {
    return this.line([r.file, r.format ?? '-', r.version !== undefined ? String(r.version) : '-', humanBytes(r.bytes), RESULT_TEXT[r.result], ruleCell(r), duration(r.ms)]);
  }
  private line(cells: readonly string[]): string {
    // The table's own layout (text.ts), one row at a time: a row of titles sets no width.
    return table(StreamedTable.COLUMNS.map((c, i) => ({ ...c, title: ''.padEnd(this.widths[i]!) })), [cells.map(String)])[2]!;
  }
}

/** What the modding rules found in one file: `1E 3W`, `ok`, or `-` (no rules for its format). */
const ruleCell = (r: CheckResult): string => (r.rules ? (r.rules.errors || r.rules.warnings ? `${r.rules.errors}E ${r.rules.warnings}W` : 'ok') : '-');

function describeProblems(files: readonly CheckResult[]): string[] {
  const out: string[] = [];
  const bad = files.filter((r) => r.result !== 'ok');
  if (bad.length) out.push('Problems:', ...bad.map((r) => `  ${r.file}: ${r.detail ?? r.result}`), '');
  const ruleErrors = files.filter((r) => r.rules?.errors);
  if (ruleErrors.length) {
    out.push('Modding rule errors (docs/rules.md; warnings with lodsmith validate or --json):');
    for (const r of ruleErrors) for (const p of r.rules!.problems.filter((q) => q.severity === 'error')) out.push(`  ${r.file}: ${p.where}: ${p.message}`);
    out.push('');
  }
  return out;
}

const extOf = (name: string): string => name.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';

/**
 * A PBO's entries that a format reads become jobs named `archive.pbo::path\in\archive.p3d`
 * (the worker reads each entry's bytes from the archive); an archive whose header does not parse,
 * and entries it cannot give (obfuscated, encrypted), become failed results. Returns how many
 * entries no format reads (skipped).
 */
/** `--rule`/`--no-rule` ids that no format's rules know: one line, exit 2, before any file is read. */
async function checkRuleIds(choice: { rule?: string; skipRule?: string }): Promise<void> {
  const known = [];
  for (const e of formatEntries()) {
    const codec = await e.load();
    if (codec.rules) known.push(...codec.rules.rules);
  }
  const unknown = unknownRuleIds({ only: ruleIds(choice.rule), off: ruleIds(choice.skipRule) }, known);
  if (unknown.length) throw new CliFailure(`no modding rule is called ${unknown.join(', ')}; docs/rules.md lists them`);
}

function archiveJobs(abs: string, file: string, exts: ReadonlySet<string>, strict: boolean, memory: Pick<CheckJob, 'maxMemory' | 'rules'>, jobs: CheckJob[], early: CheckResult[]): number {
  let pbo: PboFile;
  try {
    pbo = PboFile.open(abs);
  } catch (e) {
    const r: CheckResult = { file, format: 'pbo', bytes: statSync(abs, { throwIfNoEntry: false })?.size ?? 0, result: 'error', detail: describeError(e), ms: 0 };
    if (isDecodeError(e)) {
      r.offset = e.offset;
      r.path = e.path;
    }
    early.push(r);
    return 0;
  }
  pbo.close();
  const archive = { prefix: pbo.archive.prefix, names: pbo.archive.entries.filter((e) => !e.unreadable).map((e) => e.name) };
  let skipped = 0;
  for (const entry of pbo.archive.entries) {
    const name = `${file}::${printableName(entry.name)}`;
    if (!exts.has(extOf(entry.name))) {
      skipped++;
      continue;
    }
    if (entry.unreadable) early.push({ file: name, format: 'pbo', bytes: entry.dataSize, result: 'error', detail: `cannot be read: ${entry.unreadable}`, offset: entry.headerOffset, ms: 0 });
    else jobs.push({ abs, file: name, strict, pbo: entry, archive, ...memory });
  }
  return skipped;
}

/** CPU count by default; `--jobs N` caps it; never more workers than files. */
export function poolSize(requested: number | undefined, files: number): number {
  const cap = requested !== undefined && requested > 0 ? Math.floor(requested) : availableParallelism();
  return Math.max(1, Math.min(cap, files));
}

/** Every regular file under root; hidden folders (.git, ...) and symlinks are not followed. */
async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const d = stack.pop()!;
    const entries = await readdir(d, { withFileTypes: true });
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) stack.push(p);
      } else if (e.isFile()) out.push(p);
    }
  }
  return out;
}

/**
 * Runs `jobs` on `size` worker threads that take them from one shared queue (check-queue.ts) in
 * the given order, and calls `onResult` in that same order as soon as a result and all before it
 * are in (results that arrive early wait; workers post them in batches). A worker that exceeds
 * the timeout or dies is replaced and its file counted as failed, so one bad file can neither
 * hang nor sink the run; the files it had done but not reported are done again by its successor.
 */
export function runPool(
  jobs: readonly CheckJob[],
  size: number,
  timeoutMs: number,
  onResult: (r: CheckResult) => void,
  workerUrl: URL = WORKER_URL,
): Promise<CheckResult[]> {
  const results: (CheckResult | undefined)[] = new Array<CheckResult | undefined>(jobs.length);
  if (jobs.length === 0) return Promise.resolve([]);
  // Queued by kind, so that each worker compiles the code of fewer kinds (check-queue.ts); one
  // worker takes the files in file order.
  const shared = size > 1 ? sharedExtensions() : new Set<string>();
  const plan = planQueue(jobs, size > 1 ? (job) => jobKind(job, shared) : () => '');
  const counters = queueCounters(plan);
  const next = counters.next;
  const current = new Int32Array(new SharedArrayBuffer(4 * size)).fill(-1);
  const owner = new Int32Array(new SharedArrayBuffer(4 * jobs.length));
  let emitted = 0;
  let running = 0;
  return new Promise((resolveAll) => {
    const settle = (index: number, r: CheckResult): void => {
      if (results[index]) return;
      results[index] = r;
      while (emitted < jobs.length && results[emitted]) onResult(results[emitted++]!);
    };
    const failed = (index: number, detail: string, ms = 0): void => settle(index, { file: jobs[index]!.file, bytes: 0, result: 'error', detail, ms });
    /** Per slot: the job last seen there by the watchdog, and since when. */
    const seen = new Int32Array(size).fill(-1);
    const since = new Float64Array(size);
    const workers: (Worker | undefined)[] = new Array<Worker | undefined>(size);
    // The watchdog: a job that sits in a slot for the whole timeout stops its worker.
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (let slot = 0; slot < size; slot++) {
        const c = Atomics.load(current, slot);
        if (c !== seen[slot]) {
          seen[slot] = c;
          since[slot] = now;
        } else if (c >= 0 && now - since[slot]! >= timeoutMs && workers[slot]) {
          failed(c, `stopped after ${duration(timeoutMs)}: took too long (a decoder loop?)`, now - since[slot]!);
          void workers[slot]!.terminate();
        }
      }
    }, Math.max(10, Math.min(250, timeoutMs / 4)));
    const end = (): void => {
      clearInterval(watchdog);
      // A job claimed by a worker that ended before it said which one it had (never seen).
      for (let i = 0; i < jobs.length; i++) if (!results[i]) failed(i, 'worker stopped before it reported this file');
      resolveAll(results as CheckResult[]);
    };
    const startWorker = (slot: number, retry: readonly number[] = []): void => {
      const data: QueueData<CheckJob> = { jobs, ...plan, ...counters, current, owner, slot, retry };
      const w = new Worker(workerUrl, { workerData: data });
      workers[slot] = w;
      running++;
      w.on('message', (batch: QueueResult<CheckResult>[]) => {
        for (const m of batch) settle(m.index, m.result);
      });
      w.on('error', (e) => {
        const c = Atomics.load(current, slot);
        if (c >= 0) failed(c, `worker failed: ${e.message}`);
      });
      w.on('exit', () => {
        const c = Atomics.load(current, slot);
        if (c >= 0) failed(c, 'worker stopped unexpectedly (out of memory?)');
        Atomics.store(current, slot, -1);
        workers[slot] = undefined;
        running--;
        // Files this worker did but had not reported yet (its last batch) go to its successor.
        const retry: number[] = [];
        for (let i = 0; i < jobs.length; i++) if (!results[i] && Atomics.load(owner, i) === slot + 1) retry.push(i);
        if (retry.length > 0 || Atomics.load(next, 0) < jobs.length) startWorker(slot, retry);
        else if (running === 0) end();
      });
    };
    for (let slot = 0; slot < size; slot++) startWorker(slot);
  });
}

/** Bytes of a file's head read to tell formats that share an extension apart (their probes look at the first few). */
const KIND_HEAD_BYTES = 64;

/**
 * A job's kind for the queue: its extension, which picks its decoder, writer and rules; where
 * several formats share the extension (formatEntries), for a file on disk also the format its
 * first bytes say (each has a decoder of its own, and one of them is often most of a folder's work).
 */
export function jobKind(job: CheckJob, shared: ReadonlySet<string> = sharedExtensions()): string {
  const ext = extOf(job.file);
  if (!shared.has(ext) || job.pbo) return ext;
  const head = new Uint8Array(KIND_HEAD_BYTES);
  let got = 0;
  try {
    const fd = openSync(job.abs, 'r');
    try {
      got = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The worker reports the file; for the queue it is one of its extension like any other.
  }
  const format = got > 0 ? entryFor(head.subarray(0, got), job.file) : undefined;
  return format ? `${ext}:${format.id}` : ext;
}

const RESULT_TEXT: Record<CheckResult['result'], string> = { ok: 'ok', differs: 'DIFFERS', error: 'FAILED' };

export function describeSummary(s: CheckSummary): string[] {
  const out: string[] = [];
  if (s.files.length) {
    const rows = s.files.map((r) => [r.file, r.format ?? '-', r.version !== undefined ? String(r.version) : '-', humanBytes(r.bytes), RESULT_TEXT[r.result], ruleCell(r), duration(r.ms)]);
    out.push(
      ...table(
        [{ title: 'file', max: 60 }, { title: 'format' }, { title: 'version', align: 'right' }, { title: 'size', align: 'right' }, { title: 'result' }, { title: 'rules' }, { title: 'time', align: 'right' }],
        rows,
      ),
      '',
    );
  }
  out.push(...describeProblems(s.files));
  const t = s.totals;
  if (t.files === 0) {
    out.push(`no supported model files under ${s.dir}${s.skipped ? ` (${plural(s.skipped, 'other file')} skipped)` : ''}`);
    return out;
  }
  const parts = [`${t.ok} ok`];
  if (t.differs) parts.push(`${t.differs} differ`);
  if (t.errors) parts.push(`${t.errors} failed`);
  if (t.ruleErrors || t.ruleWarnings) parts.push(`modding rules: ${plural(t.ruleErrors, 'error')}, ${plural(t.ruleWarnings, 'warning')}`);
  out.push(
    `${plural(t.files, 'file')} (${humanBytes(t.bytes)}) checked in ${duration(t.ms)}: ${parts.join(', ')}` +
      (s.skipped ? `; ${plural(s.skipped, 'other file')} skipped` : ''),
  );
  return out;
}
