/**
 * The editor's document service with model.cfg: a P3D model opened beside its model.cfg has one
 * clip per animation source in its scene (the preview's timeline plays them), and the config's
 * checks are in its Problems with the config's file and line; an ODOL model plays its compiled
 * animations the same way.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { corpusDir } from '../helpers/corpus.ts';

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');
const trap = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.skipIf(!existsSync(house) || !existsSync(trap))('document service: source animations', () => {
  it('finds model.cfg in a parent folder, gives one clip per source, and reports its checks at file:line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-modelcfg-'));
    dirs.push(dir);
    await mkdir(join(dir, 'data'));
    await copyFile(join(house, 'sample_building.p3d'), join(dir, 'data', 'sample_building.p3d'));
    await writeFile(join(dir, 'model.cfg'), (await import('node:fs')).readFileSync(join(house, 'model.cfg'), 'latin1').replace('"door3",""', '"door3","",\n\t\t\t"ghost",""'), 'latin1');
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'data', 'sample_building.p3d'));
    const scene = svc.scene(doc.id);
    expect(scene.clips.map((c) => c.name)).toEqual(['doorsTwin1', 'door3']);
    expect(scene.clips[0]!.tracks.map((t) => t.targetName).sort()).toEqual(['door1', 'door2']);
    expect(scene.meshes[0]!.skin).toBeDefined();
    const ghost = doc.problems.find((p) => /bone ghost has no named selection/.test(p.message));
    expect(ghost?.where).toMatch(/model\.cfg:17$/);
    // Another LOD is animated too (the Memory LOD's action points move with the doors).
    expect(svc.scene(doc.id, 'Memory').clips.map((c) => c.name)).toEqual(['doorsTwin1', 'door3']);
  });

  it('a model.cfg that does not parse is one Problem naming its file and line; the model still opens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-modelcfg-'));
    dirs.push(dir);
    await copyFile(join(house, 'sample_building.p3d'), join(dir, 'sample_building.p3d'));
    await writeFile(join(dir, 'model.cfg'), 'class CfgModels {\n  class sample_building { x = 1 };\n};\n');
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'sample_building.p3d'));
    expect(doc.problems.some((p) => /model\.cfg:2:\d+: expected ;/.test(p.message))).toBe(true);
    expect(svc.scene(doc.id).clips).toEqual([]);
  });

  it('an ODOL model plays its compiled animations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-modelcfg-'));
    dirs.push(dir);
    await copyFile(trap, join(dir, 'bear_trap.p3d'));
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'bear_trap.p3d'));
    expect(svc.scene(doc.id).clips.map((c) => c.name)).toEqual(['user']);
  });
});
