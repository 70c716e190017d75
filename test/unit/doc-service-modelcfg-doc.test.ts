/**
 * model.cfg through the editor's document service: opened as a document of its own (its
 * `#include`s read beside it), edited in place and saved byte-exact; the config a model uses can
 * be chosen in the editor (and found again); saving the config re-animates the open model at once.
 */
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { buildModelCfgSample } from '../../scripts/fixtures/modelcfg.ts';

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lodsmith-cfgdoc-'));
  dirs.push(dir);
  return dir;
}

function find(n: OutlineNode, ...names: string[]): OutlineNode {
  let cur = n;
  for (const name of names) cur = cur.children!.find((c) => c.name === name)!;
  return cur;
}

describe('document service: model.cfg as a document', () => {
  it('opens a config with an include, edits a value in place and saves every other byte as it was', async () => {
    const dir = await tempDir();
    const text = new TextDecoder().decode(buildModelCfgSample()).replace('class CfgSkeletons', '#include "skeletons.hpp"\nclass CfgSkeletonsOld');
    await writeFile(join(dir, 'model.cfg'), text);
    await writeFile(join(dir, 'skeletons.hpp'), 'class CfgSkeletons { class inc_sk { skeletonBones[] = {"a", ""}; }; };\n');
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'model.cfg'));
    expect(doc.format).toBe('p3d-modelcfg');
    expect(doc.outline.children!.map((c) => c.name)).toEqual(['CfgSkeletons', 'CfgSkeletonsOld', 'CfgModels']);
    const hatch = find(doc.outline, 'CfgModels', 'house', 'Animations', 'hatch');
    const offset1 = svc.inspect(doc.id, hatch.path)!.fields.find((f) => f.name === 'offset1')!;
    const edited = await svc.edit(doc.id, { op: 'set', path: offset1.path, value: 0.75 });
    expect(edited.dirty).toBe(true);
    await svc.save(doc.id);
    expect(await readFile(join(dir, 'model.cfg'), 'utf8')).toBe(text.replace('offset1 = 0.5;', 'offset1 = 0.75;'));
    // The saved document is read again (with its include) and edits on: undo restores the file.
    await svc.undo(doc.id);
    await svc.save(doc.id);
    expect(await readFile(join(dir, 'model.cfg'), 'utf8')).toBe(text);
    // A value a macro wrote is refused with where to edit it.
    const door1 = find(doc.outline, 'CfgModels', 'house', 'Animations', 'door_1');
    const axis = svc.inspect(doc.id, door1.path)!.fields.find((f) => f.name === 'axis')!;
    expect(axis.readonly).toBe(true);
    await expect(svc.edit(doc.id, { op: 'set', path: axis.path, value: 'x' })).rejects.toThrow(/macro \(or __EVAL\) used at model\.cfg:\d+/);
  });
});

describe.skipIf(!existsSync(join(house, 'model.cfg')))('document service: which model.cfg animates a model (corpus house)', () => {
  it('a chosen config animates a model that has none beside it; Find goes back to the search', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'model'));
    await mkdir(join(dir, 'configs'));
    await copyFile(join(house, 'sample_building.p3d'), join(dir, 'model', 'sample_building.p3d'));
    await copyFile(join(house, 'model.cfg'), join(dir, 'configs', 'house.cfg'));
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'model', 'sample_building.p3d'));
    expect(svc.sourcePose(doc.id, undefined, undefined)).toEqual({ sources: [], config: { name: 'model.cfg', file: null, chosen: false } });
    expect(svc.scene(doc.id).clips).toEqual([]);
    await svc.sourceConfig(doc.id, join(dir, 'configs', 'house.cfg'));
    const chosen = svc.sourcePose(doc.id, undefined, undefined);
    expect(chosen.config).toEqual({ name: 'model.cfg', file: join(dir, 'configs', 'house.cfg'), chosen: true });
    expect(chosen.sources.map((s) => s.name)).toEqual(['doorsTwin1', 'door3']);
    expect(svc.scene(doc.id).clips.map((c) => c.name)).toEqual(['doorsTwin1', 'door3']);
    await svc.sourceConfig(doc.id, null);
    expect(svc.sourcePose(doc.id, undefined, undefined)).toEqual({ sources: [], config: { name: 'model.cfg', file: null, chosen: false } });
    expect(svc.scene(doc.id).clips).toEqual([]);
  });

  it('a chosen config is remembered for the model across sessions until Find; a remembered file that is gone is left unused', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'model'));
    await mkdir(join(dir, 'configs'));
    const model = join(dir, 'model', 'sample_building.p3d');
    await copyFile(join(house, 'sample_building.p3d'), model);
    await copyFile(join(house, 'model.cfg'), join(dir, 'configs', 'house.cfg'));
    const configDir = join(dir, 'cfg');
    const first = new DocumentService({ configDir });
    const doc = await first.open(model);
    await first.sourceConfig(doc.id, join(dir, 'configs', 'house.cfg'));

    // The next session opens the model with the chosen config at once.
    const second = new DocumentService({ configDir });
    const again = await second.open(model);
    expect(second.sourcePose(again.id, undefined, undefined).config).toEqual({ name: 'model.cfg', file: join(dir, 'configs', 'house.cfg'), chosen: true });
    expect(second.scene(again.id).clips.map((c) => c.name)).toEqual(['doorsTwin1', 'door3']);

    // A config that is gone: the game's search applies (none here), and the choice is kept.
    await rename(join(dir, 'configs', 'house.cfg'), join(dir, 'configs', 'moved.cfg'));
    const third = new DocumentService({ configDir });
    const gone = await third.open(model);
    expect(third.sourcePose(gone.id, undefined, undefined).config).toEqual({ name: 'model.cfg', file: null, chosen: false });
    await rename(join(dir, 'configs', 'moved.cfg'), join(dir, 'configs', 'house.cfg'));

    // Find goes back to the search, and so does the next session.
    const fourth = new DocumentService({ configDir });
    const back = await fourth.open(model);
    expect(fourth.sourcePose(back.id, undefined, undefined).config?.chosen).toBe(true);
    await fourth.sourceConfig(back.id, null);
    const fifth = new DocumentService({ configDir });
    const plain = await fifth.open(model);
    expect(fifth.sourcePose(plain.id, undefined, undefined)).toEqual({ sources: [], config: { name: 'model.cfg', file: null, chosen: false } });
  });

  it('saving the model.cfg in the editor re-animates the open model that uses it', async () => {
    const dir = await tempDir();
    await copyFile(join(house, 'sample_building.p3d'), join(dir, 'sample_building.p3d'));
    await copyFile(join(house, 'model.cfg'), join(dir, 'model.cfg'));
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const model = await svc.open(join(dir, 'sample_building.p3d'));
    const before = svc.sourcePose(model.id, undefined, undefined).sources;
    const cfg = await svc.open(join(dir, 'model.cfg'));
    // Find the door3 animation's maxValue and widen it.
    let target: { path: readonly (string | number)[]; value: unknown } | undefined;
    const walk = (n: OutlineNode): void => {
      for (const f of svc.inspect(cfg.id, n.path)?.fields ?? []) if (n.name.toLowerCase() === 'door3' && f.name === 'maxValue' && !f.readonly) target = f;
      n.children?.forEach(walk);
    };
    walk(cfg.outline);
    expect(target, 'door3 maxValue in the corpus model.cfg').toBeDefined();
    const revision = (await svc.getSnapshot(model.id)).revision;
    await svc.edit(cfg.id, { op: 'set', path: target!.path, value: 4 });
    await svc.save(cfg.id);
    const after = svc.sourcePose(model.id, undefined, undefined).sources;
    expect(after.find((s) => s.name === 'door3')!.max).toBe(4);
    expect(before.find((s) => s.name === 'door3')!.max).not.toBe(4);
    expect((await svc.getSnapshot(model.id)).revision).toBeGreaterThan(revision);
    expect(readFileSync(join(dir, 'model.cfg'), 'latin1')).toContain('4');
  });
});
