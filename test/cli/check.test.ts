/**
 * `lodsmith check` over a temporary folder holding good copies of every registered format's
 * smallest sample, a truncated copy, an unsupported file and a hidden folder.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolSize, type CheckSummary } from '../../main/cli/commands/check.ts';
import { runCli } from '../../main/cli/program.ts';
import { repoRoot } from '../helpers/corpus.ts';
import { smallestPerFormat } from './helpers/formats.ts';
import { memoryIO } from './helpers/memory-io.ts';

const picks = smallestPerFormat();
const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-check-'));
const good = join(tmp, 'good');
const mixed = join(tmp, 'mixed');

beforeAll(() => {
  for (const dir of [good, mixed]) {
    mkdirSync(join(dir, 'sub/deeper'), { recursive: true });
    mkdirSync(join(dir, '.hidden'), { recursive: true });
    picks.forEach((s, i) => copyFileSync(s.file, join(dir, i % 2 ? 'sub/deeper' : '', basename(s.file))));
    writeFileSync(join(dir, 'readme.txt'), 'not a model');
    if (picks[0]) copyFileSync(picks[0].file, join(dir, '.hidden', basename(picks[0].file)));
  }
  const first = picks[0];
  if (first) {
    const bytes = readFileSync(first.file);
    writeFileSync(join(mixed, 'sub', `broken-${basename(first.file)}`), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[], tty = false): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp, { tty });
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

describe('check', () => {
  it('sizes the pool by CPU count, capped by --jobs and by the file count', () => {
    expect(poolSize(undefined, 1000)).toBe(availableParallelism());
    expect(poolSize(3, 1000)).toBe(3);
    expect(poolSize(8, 2)).toBe(2);
    expect(poolSize(undefined, 0)).toBe(1);
  });

  it('refuses a file where a folder is expected (exit 2)', async () => {
    writeFileSync(join(tmp, 'plain.txt'), 'x');
    const r = await run(['check', 'plain.txt']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^lodsmith: plain\.txt: is not a directory/);
  });

  it('says so when a folder holds no model files (exit 0)', async () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'notes.txt'), 'x');
    const r = await run(['check', empty]);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(`no supported model files under ${empty} (1 other file skipped)`);
  });

  it.skipIf(picks.length === 0)('passes a folder of good files (exit 0), skipping other and hidden files', async () => {
    const r = await run(['check', '--json', good]);
    expect(r.err).toBe('');
    const s = JSON.parse(r.out) as CheckSummary;
    expect(r.code).toBe(0);
    expect(s.totals).toMatchObject({ files: picks.length, ok: picks.length, differs: 0, errors: 0 });
    expect(s.skipped).toBe(1);
    expect(s.files.map((f) => f.format).sort()).toEqual(picks.map((p) => p.codec.id).sort());
    // In file order, as they were written while the check ran.
    expect(s.files.map((f) => f.file)).toEqual(s.files.map((f) => f.file).sort());
    for (const f of s.files) {
      expect(f.result).toBe('ok');
      expect(f.file).not.toContain('\\');
      expect(f.bytes).toBeGreaterThan(0);
      expect(f.version).toBeDefined();
    }
  });

  it.skipIf(picks.length === 0)('fails a folder with a corrupt file (exit 1) and says where it broke', async () => {
    const r = await run(['check', '--json', '--jobs', '2', mixed]);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.out) as CheckSummary;
    expect(s.totals).toMatchObject({ files: picks.length + 1, ok: picks.length, errors: 1 });
    const bad = s.files.find((f) => f.result === 'error')!;
    expect(bad.file).toBe(`sub/broken-${basename(picks[0]!.file)}`);
    expect(bad.offset).toBeTypeOf('number');
    expect(bad.detail).toMatch(/at offset \d+ \(0x[0-9a-f]+\), node /);
  });

  it.skipIf(picks.length === 0)('prints an aligned table, the problems and totals; a bar only on a terminal', async () => {
    const plain = await run(['check', mixed]);
    expect(plain.code).toBe(1);
    expect(plain.err).toBe('');
    const lines = plain.out.split('\n');
    expect(lines[0]).toMatch(/^file +format +version +size +result +rules +time$/);
    expect(lines[1]).toMatch(/^-+ +-+ +-+ +-+ +-+ +-+ +-+$/);
    // Every row's columns line up under the header.
    const resultCol = lines[0]!.indexOf('result');
    for (const row of lines.slice(2, 2 + picks.length + 1)) expect(row.slice(resultCol)).toMatch(/^(ok|FAILED|DIFFERS) /);
    expect(plain.out).toMatch(/^Problems:\n {2}sub\/broken-.*at offset \d+/m);
    expect(plain.out).toMatch(new RegExp(`^${picks.length + 1} files \\(.+\\) checked in .+: ${picks.length} ok, 1 failed(, modding rules: \\d+ errors?, \\d+ warnings?)?; 1 other file skipped$`, 'm'));
    const tty = await run(['check', good], true);
    expect(tty.code).toBe(0);
    expect(tty.err).toContain('checking [');
  });

  it.skipIf(picks.length === 0)('runs from the real launcher with workers', async () => {
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), 'check', mixed], (e, out) =>
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, out }),
      );
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/1 failed(, modding rules: \d+ errors?, \d+ warnings?)?; 1 other file skipped/);
  });
});
