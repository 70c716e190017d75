/**
 * Saving survives being stopped at any point: real child processes killed with SIGKILL (at random
 * and at every step), faults thrown at every step in process, and the clean-up of temporary files
 * a killed save left behind. The long run is `node scripts/save-crash-trials.ts --trials 1000`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeFile } from '../host/fake-format.ts';
import { atomicWriteFile, isTempOf, removeStaleTemps, SAVE_STEPS, type SaveStep } from '../../main/documents/atomic-save.ts';
import { AppErrorException } from '../../main/documents/app-error.ts';
import { DocumentService } from '../../main/documents/document-service.ts';
import { runSaveCrashTrials } from '../../scripts/save-crash/trials.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-savecrash-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const v = (n: number) => fakeFile([{ value: n, name: `version ${n}` }]);

describe('save crash trials (child processes killed with SIGKILL)', () => {
  it('after every kill the model is the old or the new version, the backup is complete, leftovers are cleaned', async () => {
    const s = await runSaveCrashTrials({ trials: 32, seed: 20261121, lanes: 2 });
    expect(s.failures).toEqual([]);
    // Each step was hit deterministically: before the rename the old version stays, after it the new one.
    expect(s.perStep).toEqual({ 'temp-written': 'old', 'temp-synced': 'old', 'backup-done': 'old', 'renamed': 'new' });
    expect(s.kills + s.killsAt.completed).toBe(32);
    expect(s.kills).toBeGreaterThan(0);
    expect(s.outcomes.old + s.outcomes.new).toBe(32);
    expect(s.saves).toBeGreaterThan(0);
    // The per-step kills before the rename leave a temporary file; the following save removed each.
    expect(s.leftovers.cleanedByNextSave).toBeGreaterThanOrEqual(3);
  }, 300_000);
});

describe('a fault at each step of a save through the document service', () => {
  const failing: SaveStep[] = ['temp-written', 'temp-synced', 'backup-done'];
  for (const step of failing) {
    it(`at ${step}: clear error, the file and its backup are complete, no temporary files, edits kept`, async () => {
      const file = join(dir, 'm.fake');
      await writeFile(file, v(1));
      let failAt: SaveStep | null = null;
      const svc = new DocumentService({
        configDir: join(dir, 'config'),
        onSaveStep: (s) => {
          if (s === failAt) throw Object.assign(new Error('simulated I/O failure'), { code: 'EIO' });
        },
      });
      const { id } = await svc.open(file);
      await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 2 });
      await svc.save(id); // m.fake = 2, m.fake.bak = 1
      await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 3 });
      failAt = step;
      const err = await svc.save(id).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppErrorException);
      const app = (err as AppErrorException).appError;
      expect(app.code).toBe('io');
      expect(app.message).toContain('Input/output error');
      expect(app.message).toContain('previous version is unchanged');
      const saved2 = fakeFile([{ value: 2, name: 'version 1' }]);
      expect(new Uint8Array(await readFile(file))).toEqual(saved2);
      // Before the backup step the backup is still the version before; at it, it already holds the file on disk.
      const bak = new Uint8Array(await readFile(file + '.bak'));
      expect(bak).toEqual(step === 'backup-done' ? saved2 : v(1));
      expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake', 'm.fake.bak']);
      expect((await svc.getSnapshot(id)).dirty).toBe(true);
      failAt = null;
      await svc.save(id);
      expect(new Uint8Array(await readFile(file))).toEqual(fakeFile([{ value: 3, name: 'version 1' }]));
      expect(new Uint8Array(await readFile(file + '.bak'))).toEqual(saved2);
    });
  }

  it('at renamed (after the file was replaced): the new version and its backup are in place', async () => {
    const file = join(dir, 'm.fake');
    await writeFile(file, v(1));
    const seen: SaveStep[] = [];
    await expect(atomicWriteFile(file, v(2), {
      onStep: (s) => {
        seen.push(s);
        if (s === 'renamed') throw new Error('stop after rename');
      },
    })).rejects.toThrow('stop after rename');
    expect(seen).toEqual(SAVE_STEPS);
    expect(new Uint8Array(await readFile(file))).toEqual(v(2));
    expect(new Uint8Array(await readFile(file + '.bak'))).toEqual(v(1));
    expect((await readdir(dir)).sort()).toEqual(['m.fake', 'm.fake.bak']);
  });
});

describe('temporary files left by a killed save', () => {
  it('are removed by the next save of that file; other files are left alone', async () => {
    const file = join(dir, 'm.fake');
    await writeFile(file, v(1));
    const stale = ['.m.fake.0123456789ab.tmp', '.m.fake.ba9876543210.baktmp'];
    const keep = ['.m.fake.0123456789ab.tmp.keep', '.m.fake.xyz.tmp', '.other.fake.0123456789ab.tmp', 'm.fake.0123456789ab.tmp'];
    for (const n of [...stale, ...keep]) await writeFile(join(dir, n), 'partial');
    await mkdir(join(dir, '.m.fake.aaaaaaaaaaaa.tmp')); // not a file: not ours
    expect(stale.every((n) => isTempOf(file, n))).toBe(true);
    expect(keep.some((n) => isTempOf(file, n))).toBe(false);
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 2 });
    await svc.save(id);
    expect((await readdir(dir)).sort()).toEqual(['.m.fake.aaaaaaaaaaaa.tmp', ...keep, 'config', 'm.fake', 'm.fake.bak'].sort());
    expect(await removeStaleTemps(file)).toEqual([]);
  });

  it('a save running at the same time in this process keeps its temporary file', async () => {
    const file = join(dir, 'm.fake');
    await writeFile(file, v(1));
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atStep = new Promise<void>((r) => (reached = r));
    const first = atomicWriteFile(file, v(2), {
      onStep: async (s) => {
        if (s !== 'temp-synced') return;
        reached();
        await paused;
      },
    });
    await atStep;
    // This save's clean-up must not take the first save's temporary file.
    await atomicWriteFile(join(dir, 'm.fake'), v(3));
    release();
    await first;
    expect(new Uint8Array(await readFile(file))).toEqual(v(2));
    expect(new Uint8Array(await readFile(file + '.bak'))).toEqual(v(3));
    expect((await readdir(dir)).sort()).toEqual(['m.fake', 'm.fake.bak']);
  });
});
