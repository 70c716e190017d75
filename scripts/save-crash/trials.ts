/**
 * Crash trials for saving: child processes (scripts/save-crash/child.ts) save a real model
 * through the document service in a loop and are killed with SIGKILL, either after a seeded
 * random delay or deterministically at each step of the save. After every kill the folder is
 * checked:
 *
 * - the model is byte for byte either the last version saved or the one being saved, and decodes;
 * - `NAME.bak` is the complete version it should be for the point of the kill (the version before
 *   the one on disk, or before that when the kill came before the backup step), and decodes;
 * - temporary files a kill left behind are gone once a later save has finished.
 *
 * Trials run in lanes (one folder each, trials in a lane one after another on the same file, so
 * each trial starts from what the previous kill left); lanes run side by side.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKUP_SUFFIX, isTempOf, SAVE_STEPS, type SaveStep } from '../../main/documents/atomic-save.ts';
import { detectFormat } from '../../shared/formats/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, 'child.ts');
/** The bundled sample (a real LODka model) is the model every lane starts from. */
export const SAMPLE = resolve(here, '..', '..', 'build', 'sample', 'sample.lod');

/** Where a kill landed: the last thing the child announced before it died. */
export type KillPoint = 'open' | 'edit-encode' | 'temp-write' | SaveStep | 'completed';

export interface TrialOptions {
  trials: number;
  seed: number;
  /** Folders saved in side by side (default 2). */
  lanes?: number;
  /** Also kill each lane once at every save step (default true). */
  perStep?: boolean;
  /** Node executable for the children (default: this one). */
  node?: string;
}

export interface TrialSummary {
  trials: number;
  seed: number;
  kills: number;
  /** Random trials by where the kill landed. */
  killsAt: Record<KillPoint, number>;
  /** What the model held after a kill: the last saved version, or the one being saved. */
  outcomes: { old: number; new: number };
  /** Kills that left temporary files behind, and how many such files a later save removed. */
  leftovers: { trials: number; files: number; cleanedByNextSave: number };
  /** Deterministic kills at each step: step -> the outcome seen ('old' or 'new'). */
  perStep: Partial<Record<SaveStep, 'old' | 'new'>>;
  saves: number;
  failures: string[];
}

/** mulberry32: small, seedable, good enough to spread kill times. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

interface ChildLine {
  t: string;
  k?: number;
  hash?: string;
  step?: SaveStep;
  message?: string;
  /** When the parent read the line (ms, monotonic). */
  at?: number;
}

interface ChildRun {
  lines: ChildLine[];
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
}

/** Runs one child; `killAfterReady` (ms) kills it that long after it reported the open. */
function runChild(node: string, args: string[], killAfterReady?: number): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: ChildLine[] = [];
    let buf = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const l = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const msg = JSON.parse(l) as ChildLine;
          msg.at = performance.now();
          lines.push(msg);
          if (msg.t === 'ready' && killAfterReady !== undefined) {
            timer = setTimeout(() => child.kill('SIGKILL'), killAfterReady);
          }
        } catch {
          stderr += `unparsed stdout: ${l}\n`;
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolvePromise({ lines, signal, code, stderr });
    });
  });
}

interface Lane {
  dir: string;
  file: string;
  config: string;
  /** Hash of the model as the last check found it. */
  current: string;
  /** Hash of the backup as the last check found it (null: none yet). */
  bak: string | null;
  /** Temporary files seen after the last kill. */
  stale: string[];
  /** Every version this lane ever wrote or started from. */
  known: Set<string>;
}

async function hashOrNull(file: string): Promise<{ hash: string; bytes: Uint8Array } | null> {
  try {
    const bytes = new Uint8Array(await readFile(file));
    return { hash: sha256(bytes), bytes };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function decodes(bytes: Uint8Array, name: string): string | null {
  const codec = detectFormat(bytes, name);
  if (!codec) return 'not recognised';
  try {
    codec.decode(bytes, { fileName: name });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function killPoint(lines: ChildLine[]): KillPoint {
  const last = lines[lines.length - 1];
  if (!last || last.t === 'error') return 'open';
  if (last.t === 'ready' || last.t === 'saved') return 'edit-encode';
  if (last.t === 'saving') return 'temp-write';
  if (last.t === 'step' && last.step) return last.step;
  return 'open';
}

/**
 * Checks the lane's folder after a child ended, updates the lane and returns what the model held.
 * `label` prefixes failure messages.
 */
async function check(lane: Lane, run: ChildRun, label: string, failures: string[]): Promise<'old' | 'new' | null> {
  const fail = (m: string): null => {
    failures.push(`${label}: ${m}`);
    return null;
  };
  if (run.lines.some((l) => l.t === 'error')) return fail(`child error: ${run.lines.find((l) => l.t === 'error')?.message}`);
  const ready = run.lines.find((l) => l.t === 'ready');
  if (ready && ready.hash !== lane.current) return fail('the child opened other bytes than the last check found');
  // The last save that finished, and the one under way when the child died.
  let old = lane.current;
  let oldBak = lane.bak;
  let pending: string | null = null;
  for (const l of run.lines) {
    if (l.t === 'saving' && l.hash) {
      pending = l.hash;
      lane.known.add(l.hash);
    }
    if (l.t === 'saved' && pending) {
      // A save that finished: the backup is the version it replaced.
      oldBak = old;
      old = pending;
      pending = null;
    }
  }
  const model = await hashOrNull(lane.file);
  if (!model) return fail('the model file is missing');
  let outcome: 'old' | 'new';
  if (model.hash === old) outcome = 'old';
  else if (pending !== null && model.hash === pending) outcome = 'new';
  else return fail(`the model is neither the last saved version nor the one being saved (${model.bytes.length} bytes${lane.known.has(model.hash) ? ', an older version' : ''})`);
  const bad = decodes(model.bytes, 'model.lod');
  if (bad) return fail(`the model does not decode: ${bad}`);

  const bak = await hashOrNull(lane.file + BACKUP_SUFFIX);
  // After the rename the backup must be the replaced version; before it, the earlier backup or
  // (killed after the backup step) the version on disk.
  const allowed = outcome === 'new' ? [old] : [oldBak, old];
  if (!bak) {
    if (outcome === 'new' || oldBak !== null) return fail('the backup is missing');
  } else {
    if (!allowed.includes(bak.hash)) return fail(`the backup is not a complete earlier version (${bak.bytes.length} bytes)`);
    const badBak = decodes(bak.bytes, 'model.lod.bak');
    if (badBak) return fail(`the backup does not decode: ${badBak}`);
  }

  const names = await readdir(lane.dir);
  const temps = names.filter((n) => isTempOf(lane.file, n));
  const savedOnce = run.lines.some((l) => l.t === 'saved');
  if (savedOnce) {
    const survivors = lane.stale.filter((n) => temps.includes(n));
    if (survivors.length > 0) return fail(`stale temporary files survived a later save: ${survivors.join(', ')}`);
  }
  const unknown = names.filter((n) => n !== 'model.lod' && n !== 'model.lod' + BACKUP_SUFFIX && n !== 'config' && !temps.includes(n));
  if (unknown.length > 0) return fail(`unexpected files: ${unknown.join(', ')}`);
  lane.current = model.hash;
  lane.bak = bak?.hash ?? null;
  return outcome;
}

async function newLane(root: string, i: number): Promise<Lane> {
  const dir = join(root, `lane-${i}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'model.lod');
  await copyFile(SAMPLE, file);
  const start = sha256(new Uint8Array(await readFile(file)));
  return { dir, file, config: join(dir, 'config'), current: start, bak: null, stale: [], known: new Set([start]) };
}

/** Runs the trials; never throws for a failed check (they are listed in `failures`). */
export async function runSaveCrashTrials(opts: TrialOptions): Promise<TrialSummary> {
  const node = opts.node ?? process.execPath;
  const laneCount = Math.max(1, opts.lanes ?? 2);
  const summary: TrialSummary = {
    trials: opts.trials, seed: opts.seed, kills: 0,
    killsAt: { 'open': 0, 'edit-encode': 0, 'temp-write': 0, 'temp-written': 0, 'temp-synced': 0, 'backup-done': 0, 'renamed': 0, 'completed': 0 },
    outcomes: { old: 0, new: 0 }, leftovers: { trials: 0, files: 0, cleanedByNextSave: 0 }, perStep: {}, saves: 0, failures: [],
  };
  const root = await mkdtemp(join(tmpdir(), 'lodsmith-save-crash-'));
  try {
    const lanes = await Promise.all(Array.from({ length: laneCount }, (_, i) => newLane(root, i)));
    // Saves are timed as they happen, so kill delays cover the save loop on any machine speed.
    const saveMs: number[] = [];
    const window = (): number => {
      if (saveMs.length === 0) return 150;
      const sorted = [...saveMs].sort((a, b) => a - b);
      return 2.5 * sorted[Math.floor(sorted.length / 2)]!;
    };
    const afterRun = async (lane: Lane, run: ChildRun, label: string): Promise<'old' | 'new' | null> => {
      summary.saves += run.lines.filter((l) => l.t === 'saved').length;
      const before = lane.stale;
      const outcome = await check(lane, run, label, summary.failures);
      const temps = (await readdir(lane.dir)).filter((n) => isTempOf(lane.file, n));
      summary.leftovers.cleanedByNextSave += before.filter((n) => !temps.includes(n)).length;
      const added = temps.filter((n) => !before.includes(n));
      if (added.length > 0) {
        summary.leftovers.trials++;
        summary.leftovers.files += added.length;
      }
      lane.stale = temps;
      return outcome;
    };

    if (opts.perStep !== false) {
      const lane = lanes[0]!;
      for (const step of SAVE_STEPS) {
        const run = await runChild(node, [lane.file, lane.config, String(opts.seed), '--die-at', step]);
        const label = `kill at ${step}`;
        if (run.signal !== 'SIGKILL') {
          summary.failures.push(`${label}: the child was not killed (exit ${run.code}) ${run.stderr.trim()}`);
          continue;
        }
        const seen = run.lines.filter((l) => l.t === 'step').map((l) => l.step);
        if (seen[seen.length - 1] !== step) summary.failures.push(`${label}: died after ${String(seen[seen.length - 1])}`);
        const outcome = await afterRun(lane, run, label);
        if (outcome) {
          summary.perStep[step] = outcome;
          const want = step === 'renamed' ? 'new' : 'old';
          if (outcome !== want) summary.failures.push(`${label}: the model holds the ${outcome} version, expected the ${want} one`);
        }
        // One complete save afterwards: it must clean up what the kill left.
        const next = await runChild(node, [lane.file, lane.config, String(opts.seed + 1000), '--saves', '1']);
        if (next.code !== 0) summary.failures.push(`${label}, next save: exit ${next.code} ${next.stderr.trim()}`);
        await afterRun(lane, next, `${label}, next save`);
        if (lane.stale.length > 0) summary.failures.push(`${label}: temporary files left after a finished save: ${lane.stale.join(', ')}`);
      }
    }

    const random = rng(opts.seed);
    const plan = Array.from({ length: opts.trials }, (_, i) => ({ i, lane: i % laneCount, delayFraction: random(), salt: Math.floor(random() * 1e6) }));
    await Promise.all(lanes.map(async (lane, li) => {
      for (const t of plan.filter((p) => p.lane === li)) {
        const delay = t.delayFraction * window() * 4;
        const run = await runChild(node, [lane.file, lane.config, String(t.salt)], delay);
        const label = `trial ${t.i} (seed ${opts.seed}, delay ${delay.toFixed(1)} ms)`;
        if (run.signal === 'SIGKILL') {
          summary.kills++;
          summary.killsAt[killPoint(run.lines)]++;
        } else {
          summary.killsAt.completed++;
          if (run.code !== 0) summary.failures.push(`${label}: exit ${run.code} ${run.stderr.trim()}`);
        }
        const outcome = await afterRun(lane, run, label);
        if (outcome) summary.outcomes[outcome]++;
        // How long one edit + save took, for the next delays.
        let prev = run.lines.find((l) => l.t === 'ready')?.at;
        for (const l of run.lines) {
          if (l.t !== 'saved' || l.at === undefined || prev === undefined) continue;
          saveMs.push(l.at - prev);
          prev = l.at;
        }
      }
    }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return summary;
}

/** One line for humans and logs. */
export function summaryLine(s: TrialSummary): string {
  const at = Object.entries(s.killsAt).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
  const steps = Object.entries(s.perStep).map(([k, v]) => `${k}->${v}`).join(' ');
  return `save-crash: ${s.trials} trials (seed ${s.seed}), ${s.kills} kills [${at}], model after kill: old ${s.outcomes.old} / new ${s.outcomes.new}, `
    + `${s.saves} saves finished, leftover temps after ${s.leftovers.trials} kills (${s.leftovers.files} files, ${s.leftovers.cleanedByNextSave} removed by the next save), `
    + `per-step kills: ${steps || 'none'}, failures: ${s.failures.length}`;
}
