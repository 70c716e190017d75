/**
 * How `lodsmith check` runs its workers: started once, taking files from one shared queue without
 * waiting for the main thread, side by side, with results handed on in file order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckJob, CheckResult } from '../../main/cli/check-file.ts';
import { planQueue } from '../../main/cli/check-queue.ts';
import { jobKind, runPool } from '../../main/cli/commands/check.ts';

const WORKER = new URL('./helpers/unruly-worker.ts', import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-pool-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Done {
  thread: string;
  file: string;
  start: number;
  end: number;
}

function readLog(log: string): Done[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [thread, file, start, end] = l.split(' ');
      return { thread: thread!, file: file!, start: Number(start), end: Number(end) };
    });
}

describe('check worker pool', () => {
  it('workers keep taking files while the main thread is busy, and work side by side', async () => {
    const log = join(tmp, 'busy.log');
    const names = Array.from({ length: 40 }, (_, i) => `f${String(i).padStart(2, '0')}-slow`);
    const jobs: CheckJob[] = names.map((file) => ({ abs: log, file, strict: false }));
    let whileBlocked: Done[] = [];
    const results = await runPool(jobs, 2, 60_000, () => {
      if (whileBlocked.length) return;
      // The main thread is blocked here (the first result's callback) until the workers have done
      // every file, or 30 s. A pool that hands out files from the main thread gets no further
      // than one more file per worker while it is blocked.
      const until = Date.now() + 30_000;
      do whileBlocked = readLog(log);
      while (whileBlocked.length < names.length && Date.now() < until);
    }, WORKER);
    expect(results.map((r) => r.result)).toEqual(names.map(() => 'ok'));
    expect(whileBlocked.length).toBe(names.length);
    // Both workers did files (counted per thread), and their busy intervals overlap in time.
    const done = readLog(log);
    const threads = [...new Set(done.map((d) => d.thread))];
    expect(threads).toHaveLength(2);
    const [a, b] = threads.map((t) => done.filter((d) => d.thread === t));
    expect(a!.length + b!.length).toBe(names.length);
    const overlaps = a!.filter((x) => b!.some((y) => x.start < y.end && y.start < x.end));
    expect(overlaps.length).toBeGreaterThan(0);
  });

  it('hands results on in file order, a slow first file holding back those done before it', async () => {
    const log = join(tmp, 'order.log');
    const names = ['a-slower', 'b', 'c', 'd-slow', 'e', 'f', 'g'];
    const seen: string[] = [];
    const results: CheckResult[] = await runPool(names.map((file) => ({ abs: log, file, strict: false })), 2, 60_000, (r) => seen.push(r.file), WORKER);
    expect(seen).toEqual(names);
    expect(results.map((r) => r.file)).toEqual(names);
    // The other worker really finished later files first: the order is the pool's doing.
    const done = readLog(log).map((d) => d.file);
    expect(done.indexOf('b')).toBeLessThan(done.indexOf('a-slower'));
  });

  it('survives a file that hangs, a worker that dies and one that throws, and still checks the rest', async () => {
    const names = ['a', 'hang', 'b', 'crash', 'c', 'boom', 'd'];
    const jobs = names.map((file) => ({ abs: file, file, strict: false }));
    const seen: string[] = [];
    const results = await runPool(jobs, 2, 1500, (r) => seen.push(r.file), WORKER);
    expect(results.map((r) => r.file)).toEqual(names);
    expect(seen).toEqual(names);
    const by = new Map(results.map((r) => [r.file, r]));
    for (const ok of ['a', 'b', 'c', 'd']) expect(by.get(ok)!.result).toBe('ok');
    expect(by.get('hang')).toMatchObject({ result: 'error', detail: expect.stringMatching(/^stopped after 1\.5 s: took too long/) });
    expect(by.get('crash')).toMatchObject({ result: 'error', detail: expect.stringMatching(/worker stopped unexpectedly/) });
    expect(by.get('boom')).toMatchObject({ result: 'error', detail: 'worker failed: boom' });
  });

  it('keeps each worker on one kind of file while files of it remain, and the results in file order', async () => {
    // Two kinds taking turns in pairs in file order: two workers taking the files in that order
    // would each switch kind at almost every file (and each compile both kinds' decoders).
    const log = join(tmp, 'kinds.log');
    const names = Array.from({ length: 24 }, (_, i) => `f${String(i).padStart(2, '0')}-slow.${i % 4 < 2 ? 'even' : 'odd'}`);
    const seen: string[] = [];
    const results = await runPool(names.map((file) => ({ abs: log, file, strict: false })), 2, 60_000, (r) => seen.push(r.file), WORKER);
    expect(seen).toEqual(names);
    expect(results.map((r) => r.result)).toEqual(names.map(() => 'ok'));
    const done = readLog(log);
    expect(done.map((d) => d.file).sort()).toEqual(names);
    for (const thread of new Set(done.map((d) => d.thread))) {
      const kinds = done.filter((d) => d.thread === thread).map((d) => d.file.split('.')[1]);
      // One kind, then at most the other one, joined once its own has run out.
      const switches = kinds.filter((k, i) => i > 0 && k !== kinds[i - 1]).length;
      expect(switches, `${thread}: ${kinds.join(' ')}`).toBeLessThanOrEqual(1);
    }
    // Each kind's files were started in file order.
    for (const kind of ['even', 'odd']) {
      const mine = done.filter((d) => d.file.endsWith(kind)).sort((a, b) => a.start - b.start).map((d) => d.file);
      expect(mine).toEqual(names.filter((n) => n.endsWith(kind)));
    }
  });

  it('one worker takes the files in file order, whatever their kinds', async () => {
    const log = join(tmp, 'one.log');
    const names = ['a.p', 'b.q', 'c.p', 'd.r', 'e.q'];
    await runPool(names.map((file) => ({ abs: log, file, strict: false })), 1, 60_000, () => {}, WORKER);
    expect(readLog(log).map((d) => d.file)).toEqual(names);
  });

  it('groups the jobs by kind, kinds in the order of their first file; a P3D by its signature too', () => {
    const plan = planQueue(['x.b', 'y.a', 'z.b', 'w.a', 'v.c'], (f) => f.split('.')[1]!);
    expect([...plan.order]).toEqual([0, 2, 1, 3, 4]);
    expect(plan.start).toEqual([0, 2, 4, 5]);
    const mlod = join(tmp, 'm.p3d');
    const odol = join(tmp, 'o.P3D');
    writeFileSync(mlod, 'MLOD\x01\x01\0\0\x01\0\0\0');
    writeFileSync(odol, 'ODOL\x49\0\0\0\0\0\0\0');
    const job = (abs: string, file = abs): CheckJob => ({ abs, file, strict: false });
    expect(jobKind(job(mlod))).toBe('.p3d:p3d-mlod');
    expect(jobKind(job(odol))).toBe('.p3d:p3d-odol');
    expect(jobKind(job(join(tmp, 'gone.p3d')))).toBe('.p3d');
    // A head no P3D format recognises: the extension alone.
    const odd = join(tmp, 'odd.p3d');
    writeFileSync(odd, 'XXXX\0\0\0\0\0\0\0\0');
    expect(jobKind(job(odd))).toBe('.p3d');
    // An extension one format reads: the file is not opened (it need not exist).
    expect(jobKind(job(join(tmp, 'gone.lod')))).toBe('.lod');
    expect(jobKind(job('a.pbo', 'a.pbo::data\\x.PAA'))).toBe('.paa');
  });

  it('files a worker did but had not reported when it died are done again, not lost or failed', async () => {
    // One worker: a, b and c wait in its batch (posted every 50 ms or 64 files) when it dies.
    const names = ['a', 'b', 'c', 'crash', 'd'];
    const seen: string[] = [];
    const results = await runPool(names.map((file) => ({ abs: file, file, strict: false })), 1, 60_000, (r) => seen.push(r.file), WORKER);
    expect(seen).toEqual(names);
    expect(results.map((r) => `${r.file} ${r.result}`)).toEqual(['a ok', 'b ok', 'c ok', 'crash error', 'd ok']);
    expect(results[3]!.detail).toMatch(/worker stopped unexpectedly/);
  });
});
