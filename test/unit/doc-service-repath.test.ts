/**
 * Find and replace paths in the editor (`doc:query` kind `repath`, then `doc:edit`): the changes
 * across every LOD of a document, applied as one undo step per document, for each open document;
 * undo restores the tree, save writes the new paths and nothing else changes.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { RepathAnswer } from '../../shared/model/editor-query.ts';
import { repoRoot } from '../helpers/corpus.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-docrepath-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Three LODs naming textures and materials under mymod\data, one texture elsewhere. */
function model(): Uint8Array {
  const c = cube(1);
  const uvs = c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]);
  const lod = (resolution: number): ReturnType<typeof buildLod> => buildLod({
    resolution, ...c, uvs,
    textures: c.faces.map((_, i) => (i === 0 ? 'a3\\data_f\\white_co.paa' : `MyMod\\Data\\box${i % 2}_co.paa`)),
    materials: c.faces.map(() => 'mymod\\data\\box.rvmat'),
  });
  return encodeMlod(buildMlod([lod(1), lod(2), lod(3)]));
}

describe('Find and replace paths (editor)', () => {
  it('across all LODs and open documents, one undo step per document', async () => {
    const p3d = join(dir, 'box.p3d');
    const lod = join(dir, 'sample.lod');
    await writeFile(p3d, model());
    await writeFile(lod, await readFile(join(repoRoot, 'build/sample/sample.lod')));
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });
    const a = await svc.open(p3d);
    const b = await svc.open(lod);

    const qa = svc.query(a.id, { kind: 'repath', from: 'mymod\\data', to: 'newmod\\art' }) as RepathAnswer;
    // Two texture paths and one material per LOD, three LODs; the a3 path is left alone.
    expect(qa.changes).toHaveLength(9);
    expect(new Set(qa.changes.map((c) => c.where.split('/')[1]))).toEqual(new Set(['0', '1', '2']));
    expect(qa.changes.every((c) => c.after.startsWith('newmod\\art\\'))).toBe(true);
    expect(qa.changes.some((c) => c.before.startsWith('a3'))).toBe(false);
    const qb = svc.query(b.id, { kind: 'repath', from: 'mymod\\data', to: 'newmod\\art' }) as RepathAnswer;
    expect(qb).toEqual({ changes: [], command: null });

    const steps = a.history?.labels.length ?? 0;
    const after = await svc.edit(a.id, qa.command as EditCommand);
    expect(after.history!.labels.length).toBe(steps + 1);
    expect(after.history!.labels.at(-1)).toBe('Replace paths mymod\\data -> newmod\\art (9)');
    expect((svc.query(a.id, { kind: 'repath', from: 'mymod\\data', to: 'x' }) as RepathAnswer).changes).toEqual([]);
    const undone = await svc.undo(a.id);
    expect(undone.dirty).toBe(false);
    expect((svc.query(a.id, { kind: 'repath', from: 'mymod\\data', to: 'x' }) as RepathAnswer).changes).toHaveLength(9);
    await svc.edit(a.id, qa.command as EditCommand);
    await svc.save(a.id);
    const saved = new Uint8Array(await readFile(p3d));
    const text = Buffer.from(saved).toString('latin1');
    expect(text).not.toMatch(/mymod\\data/i);
    expect(text).toContain('newmod\\art\\box1_co.paa');
    // Back again from the saved file: the original bytes.
    const svc2 = new DocumentService({ configDir: join(dir, 'config2'), emit: () => undefined });
    const c = await svc2.open(p3d);
    const back = svc2.query(c.id, { kind: 'repath', from: 'newmod\\art', to: 'MyMod\\Data' }) as RepathAnswer;
    await svc2.edit(c.id, back.command as EditCommand);
    await svc2.save(c.id);
    // The prefix is written as given ("MyMod\Data") where the original had "mymod\data" for materials:
    expect(Buffer.from(await readFile(p3d)).toString('latin1')).toContain('MyMod\\Data\\box.rvmat');

    // The sample's texture list: a LODka document rewritten the same way.
    const ql = svc.query(b.id, { kind: 'repath', from: 'ground.png', to: 'terrain\\ground.png' }) as RepathAnswer;
    expect(ql.changes.length).toBeGreaterThanOrEqual(2);
    const lodAfter = await svc.edit(b.id, ql.command as EditCommand);
    expect(lodAfter.history!.labels.at(-1)).toMatch(/^Replace paths ground\.png/);
  });
});
