/**
 * The modding rules in the editor's Problems (doc-rules.ts): an MLOD file that breaks a rule
 * shows it with its id, the nearest lodsmith.json's choices apply, and an edit that fixes the
 * path makes it go away (problems recomputed per revision).
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-docrules-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const service = (): DocumentService => new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });

function model(texture: string): Uint8Array {
  const c = cube(1);
  return encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) })]));
}

describe('modding rules in the Problems panel', () => {
  it('a broken rule shows with its id; lodsmith.json turns it off; fixing the path removes it', async () => {
    const file = join(dir, 'box.p3d');
    await writeFile(file, model('P:/mymod/box_co.paa'));
    const svc = service();
    const snap = await svc.open(file);
    const rules = snap.problems.filter((p) => /\[[a-z-]+\]$/.test(p.message)).map((p) => `${p.severity} ${/\[([a-z-]+)\]$/.exec(p.message)![1]}`);
    expect(rules).toEqual(expect.arrayContaining(['error path-absolute', 'warning path-forward-slash', 'warning path-missing']));
    const abs = snap.problems.find((p) => p.message.endsWith('[path-absolute]'))!;
    expect(abs.where).toBe('LOD 1.000, texture P:/mymod/box_co.paa');

    // Fix the texture path through the editor's own edit: the rule findings follow the revision.
    const edited = await svc.edit(snap.id, { op: 'set', path: ['lods', 0, 'faces', 'textures', 0], value: 'mymod\\box_co.paa' });
    const after = edited.problems.map((p) => p.message);
    expect(after.some((m) => m.endsWith('[path-absolute]'))).toBe(false);
    expect(after.some((m) => m.endsWith('[path-missing]'))).toBe(true);

    const file2 = join(dir, 'sub', 'box2.p3d');
    await (await import('node:fs/promises')).mkdir(join(dir, 'sub'));
    await writeFile(file2, model('P:/mymod/box_co.paa'));
    await writeFile(join(dir, 'lodsmith.json'), JSON.stringify({ rules: { 'path-absolute': 'off', 'path-missing': 'info' } }));
    const snap2 = await svc.open(file2);
    const msgs2 = snap2.problems.map((p) => `${p.severity} ${p.message}`);
    expect(msgs2.some((m) => m.endsWith('[path-absolute]'))).toBe(false);
    expect(msgs2.some((m) => m.startsWith('info ') && m.endsWith('[path-missing]'))).toBe(true);
  });
});
