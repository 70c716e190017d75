/**
 * The recent-files list: changes apply one after another in the order asked, whatever order their
 * writes finish in, and the file on disk is always a whole list (a temporary file renamed over it,
 * none left behind).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECENT_LIMIT, RecentFiles } from '../../main/documents/recent.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-recent-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RecentFiles', () => {
  it('applies changes asked at once in order, and leaves one whole file', async () => {
    const r = new RecentFiles(join(dir, 'config'));
    await Promise.all(['a', 'b', 'c', 'a', 'd'].map((p) => r.add(`/m/${p}.p3d`)).concat(r.remove('/m/b.p3d')));
    const want = ['/m/d.p3d', '/m/a.p3d', '/m/c.p3d'];
    expect(await r.get()).toEqual(want);
    expect(JSON.parse(await readFile(r.file, 'utf8'))).toEqual({ files: want });
    expect(await readdir(join(dir, 'config'))).toEqual(['recent.json']);
    // A new list over the same folder reads what was written.
    expect(await new RecentFiles(join(dir, 'config')).get()).toEqual(want);
  });

  it('keeps the newest entries only, and starts empty from an unreadable file', async () => {
    const r = new RecentFiles(dir);
    for (let i = 0; i < RECENT_LIMIT + 3; i++) await r.add(`/m/${i}.lod`);
    const list = await r.get();
    expect(list).toHaveLength(RECENT_LIMIT);
    expect(list[0]).toBe(`/m/${RECENT_LIMIT + 2}.lod`);
    await writeFile(r.file, '{"files": [');
    expect(await new RecentFiles(dir).get()).toEqual([]);
  });

  it('an unwritable folder does not fail the change', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const r = new RecentFiles(join(dir, 'file', 'config'));
    await expect(r.add('/m/a.p3d')).resolves.toBeUndefined();
    expect(await r.get()).toEqual(['/m/a.p3d']);
  });
});
