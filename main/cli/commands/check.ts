/**
 * `lodsmith check DIR`: every supported model file under DIR, decoded and round-tripped in
 * parallel worker threads, then a table and totals.
 */
import { availableParallelism } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { GAME_TEXTURE_EXTENSIONS } from '../../../shared/formats/texture/extensions.ts';
import { isDecodeError } from '../../../shared/errors.ts';
import { printableName } from '../../../shared/formats/pbo/pbo.ts';
import type { CheckJob, CheckResult } from '../check-file.ts';
import { CliFailure, describeError, EXIT_OK, EXIT_PROBLEMS } from '../fail.ts';
import { PboFile } from '../../documents/pbo-file.ts';
import { escapeControls, writeJson, writeLines, type CliIO } from '../io.ts';
import { formatEntries, knownExtensions } from '../load.ts';
import { ruleIds } from '../../documents/rules-env.ts';
import { unknownRuleIds } from '../../../shared/model/rules.ts';
import { duration, humanBytes, plural, table } from '../text.ts';

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
  // Largest first: a big file started last would leave the other workers idle at the end.
  const sizes = new Map(jobs.map((j) => [j, j.pbo ? j.pbo.size : statSync(j.abs, { throwIfNoEntry: false })?.size ?? 0]));
  jobs.sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const showBar = !opts.json && !!io.stderr.isTTY && jobs.length > 0;
  const bar = showBar
    ? new cliProgress.SingleBar(
        { stream: io.stderr as NodeJS.WritableStream, format: 'checking [{bar}] {value}/{total} {file}', hideCursor: true, clearOnComplete: true, barsize: 30 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(jobs.length, 0, { file: '' });
  const results = await runPool(jobs, poolSize(opts.jobs, jobs.length), (opts.timeout ?? 60) * 1000, (r) => bar?.increment({ file: escapeControls(r.file) }));
  bar?.stop();
  results.push(...early);
  results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
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
  if (opts.json) await writeJson(io.stdout, summary);
  else await writeLines(io.stdout, describeSummary(summary));
  return summary.totals.ok === summary.totals.files && summary.totals.ruleErrors === 0 ? EXIT_OK : EXIT_PROBLEMS;
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
 * The jobs as queues by file extension (each in the given order, largest first), from which a
 * worker takes the next file of the kind it had last, and only when that queue is empty the head
 * of the fullest queue no other worker is on. Each worker's engine then compiles and optimises
 * the code of fewer formats: with one shared list, every worker warmed up every decoder, and
 * `-j 2` spent ~250 ms more CPU than `-j 1` on the corpus (~730 ms), about a third of it there.
 */
export class JobQueues<J extends { file: string }> {
  private readonly queues = new Map<string, J[]>();
  private readonly heads = new Map<string, number>();
  private left: number;

  constructor(jobs: readonly J[]) {
    for (const j of jobs) {
      const k = kindOf(j.file);
      let q = this.queues.get(k);
      if (!q) this.queues.set(k, (q = []));
      q.push(j);
    }
    for (const k of this.queues.keys()) this.heads.set(k, 0);
    this.left = jobs.length;
  }

  get remaining(): number {
    return this.left;
  }

  /** The next job for a worker that last had kind `kind`, avoiding kinds in `busy` when it can. */
  take(kind: string | undefined, busy: ReadonlySet<string>): J | undefined {
    if (this.left === 0) return undefined;
    let pick = kind !== undefined && this.pending(kind) > 0 ? kind : undefined;
    if (pick === undefined) {
      let best = -1;
      for (const k of this.queues.keys()) {
        const n = this.pending(k);
        if (n === 0) continue;
        const score = busy.has(k) ? n : n + this.left;
        if (score > best) {
          best = score;
          pick = k;
        }
      }
    }
    if (pick === undefined) return undefined;
    const at = this.heads.get(pick)!;
    this.heads.set(pick, at + 1);
    this.left--;
    return this.queues.get(pick)![at];
  }

  private pending(kind: string): number {
    return this.queues.get(kind)!.length - this.heads.get(kind)!;
  }
}

/** The queue a file goes to: its extension (.pac files are PAA). */
export function kindOf(file: string): string {
  const ext = file.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';
  return ext === '.pac' ? '.paa' : ext;
}

/**
 * Hands jobs to `size` workers, one at a time each (see JobQueues). A worker that exceeds the
 * timeout or dies is replaced and its file counted as failed, so one bad file can neither hang
 * nor sink the run.
 */
export function runPool(
  jobs: readonly CheckJob[],
  size: number,
  timeoutMs: number,
  onResult: (r: CheckResult) => void,
  workerUrl: URL = WORKER_URL,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  if (jobs.length === 0) return Promise.resolve(results);
  const queues = new JobQueues(jobs);
  /** Kinds a live worker is on, each with how many workers. */
  const onKind = new Map<string, number>();
  let running = 0;
  return new Promise((resolveAll) => {
    const finish = (r: CheckResult): void => {
      results.push(r);
      onResult(r);
    };
    const startWorker = (): void => {
      const w = new Worker(workerUrl);
      running++;
      let current: CheckJob | undefined;
      /** The kind of the file this worker has (or last had). */
      let kind: string | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let started = 0;
      let dead = false;
      let online = false;
      // The clock starts once the thread runs: loading the codecs is not the file's fault.
      const arm = (): void => {
        started = performance.now();
        timer = setTimeout(() => {
          const job = current!;
          current = undefined;
          dead = true;
          finish({ file: job.file, bytes: 0, result: 'error', detail: `stopped after ${duration(timeoutMs)}: took too long (a decoder loop?)`, ms: performance.now() - started });
          release();
          w.removeAllListeners('exit');
          void w.terminate().then(() => {
            running--;
            replace();
          });
        }, timeoutMs);
      };
      w.once('online', () => {
        online = true;
        if (current) arm();
      });
      /** This worker is off its kind (done with a file, or gone). */
      const release = (): void => {
        if (kind === undefined) return;
        const n = onKind.get(kind)! - 1;
        if (n === 0) onKind.delete(kind);
        else onKind.set(kind, n);
        kind = undefined;
      };
      const feed = (): void => {
        const last = kind;
        release();
        const job = queues.take(last, new Set(onKind.keys()));
        if (!job) {
          current = undefined;
          void w.terminate();
          return;
        }
        current = job;
        kind = kindOf(job.file);
        onKind.set(kind, (onKind.get(kind) ?? 0) + 1);
        if (online) arm();
        w.postMessage(current);
      };
      const replace = (): void => {
        if (queues.remaining > 0) startWorker();
        else if (running === 0) resolveAll(results);
      };
      w.on('message', (r: CheckResult) => {
        if (dead) return;
        clearTimeout(timer);
        if (current) finish(r);
        feed();
      });
      w.on('error', (e) => {
        clearTimeout(timer);
        if (current) finish({ file: current.file, bytes: 0, result: 'error', detail: `worker failed: ${e.message}`, ms: performance.now() - started });
        current = undefined;
      });
      w.on('exit', () => {
        clearTimeout(timer);
        if (current) finish({ file: current.file, bytes: 0, result: 'error', detail: 'worker stopped unexpectedly (out of memory?)', ms: performance.now() - started });
        current = undefined;
        release();
        running--;
        replace();
      });
      feed();
    };
    for (let i = 0; i < size; i++) startWorker();
  });
}

const RESULT_TEXT: Record<CheckResult['result'], string> = { ok: 'ok', differs: 'DIFFERS', error: 'FAILED' };

export function describeSummary(s: CheckSummary): string[] {
  const out: string[] = [];
  if (s.files.length) {
    const ruleCell = (r: CheckResult): string => (r.rules ? (r.rules.errors || r.rules.warnings ? `${r.rules.errors}E ${r.rules.warnings}W` : 'ok') : '-');
    const rows = s.files.map((r) => [r.file, r.format ?? '-', r.version !== undefined ? String(r.version) : '-', humanBytes(r.bytes), RESULT_TEXT[r.result], ruleCell(r), duration(r.ms)]);
    out.push(
      ...table(
        [{ title: 'file', max: 60 }, { title: 'format' }, { title: 'version', align: 'right' }, { title: 'size', align: 'right' }, { title: 'result' }, { title: 'rules' }, { title: 'time', align: 'right' }],
        rows,
      ),
      '',
    );
  }
  const bad = s.files.filter((r) => r.result !== 'ok');
  if (bad.length) {
    out.push('Problems:');
    for (const r of bad) out.push(`  ${r.file}: ${r.detail ?? r.result}`);
    out.push('');
  }
  const ruleErrors = s.files.filter((r) => r.rules?.errors);
  if (ruleErrors.length) {
    out.push('Modding rule errors (docs/rules.md; warnings with lodsmith validate or --json):');
    for (const r of ruleErrors) for (const p of r.rules!.problems.filter((q) => q.severity === 'error')) out.push(`  ${r.file}: ${p.where}: ${p.message}`);
    out.push('');
  }
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
