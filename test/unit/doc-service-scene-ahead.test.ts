/**
 * The texture prefetch after an open builds the model's scene; the preview's first scene request
 * takes that scene instead of building it again (for a 2M-triangle model each build took ~0.7 s,
 * and the request waited behind the prefetch's). Only once, only for the revision it was built
 * for, and never for another level of detail.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentService } from '../../main/documents/document-service.ts';
import { formatById } from '../../shared/formats/index.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-scene-ahead-')));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function writeBox(): Promise<string> {
  const c = cube(1);
  const lods = [1, 2].map((resolution) =>
    buildLod({ resolution, ...c, normals: c.points.map((v) => -v), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => 'P:\\box\\body_co.paa') }),
  );
  const file = join(dir, 'box.p3d');
  await writeFile(file, encodeMlod(buildMlod(lods)));
  return file;
}

async function openBox(svc: DocumentService): Promise<string> {
  const snap = await svc.open(await writeBox());
  // The prefetch runs on the next turn of the event loop after the open.
  await new Promise((r) => setImmediate(r));
  return snap.id;
}

describe('the scene built ahead by the texture prefetch', () => {
  it("is the preview's first scene, once", async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined, prefetchTextures: true });
    const id = await openBox(svc);
    const toScene = vi.spyOn(formatById('p3d-mlod'), 'toScene');
    const first = svc.scene(id);
    expect(toScene).not.toHaveBeenCalled();
    const again = svc.scene(id);
    expect(toScene).toHaveBeenCalledTimes(1);
    expect(again).toEqual(first);
    expect(first.meshes.length).toBeGreaterThan(0);
  });

  it('is not used for another level of detail, nor after an edit', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined, prefetchTextures: true });
    const id = await openBox(svc);
    const toScene = vi.spyOn(formatById('p3d-mlod'), 'toScene');
    svc.scene(id, '1');
    expect(toScene).toHaveBeenCalledTimes(1);
    // The request for another LOD dropped it: the next plain request builds its own.
    svc.scene(id);
    expect(toScene).toHaveBeenCalledTimes(2);

    // Built ahead, then the model is edited before the preview asks: the edited model is drawn.
    const svc2 = new DocumentService({ configDir: join(dir, 'config2'), emit: () => undefined, prefetchTextures: true });
    const id2 = await openBox(svc2);
    toScene.mockClear();
    await svc2.edit(id2, { op: 'set', path: ['lods', 0, 'points', 1], value: 0.75, label: 'Set y of row 0' });
    const scene = svc2.scene(id2);
    expect(toScene).toHaveBeenCalled();
    expect(Array.from(scene.meshes[0]!.positions).includes(0.75)).toBe(true);
  });

  it('is left to the preview by the other users of the model scene, which build their own', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined, prefetchTextures: true });
    const id = await openBox(svc);
    const toScene = vi.spyOn(formatById('p3d-mlod'), 'toScene');
    // Listing the animations that fit the model builds its scene without .rvmat stages.
    expect(await svc.animationCandidates(id)).toEqual([]);
    expect(toScene).toHaveBeenCalledTimes(1);
    svc.scene(id);
    expect(toScene).toHaveBeenCalledTimes(1);
  });

  it('is not built without the prefetch', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });
    const id = await openBox(svc);
    const toScene = vi.spyOn(formatById('p3d-mlod'), 'toScene');
    svc.scene(id);
    expect(toScene).toHaveBeenCalledTimes(1);
  });
});

describe('the scene sent with the open (doc:open with scene: true)', () => {
  it("is the scene doc:scene gives, built once: the prefetch takes its texture names from it and keeps nothing", async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined, prefetchTextures: true });
    const file = await writeBox();
    const toScene = vi.spyOn(formatById('p3d-mlod'), 'toScene');
    const opened = await svc.openWithScene(file);
    expect(toScene).toHaveBeenCalledTimes(1);
    expect(opened.scene?.meshes.length).toBeGreaterThan(0);
    // The prefetch runs after the answer and builds no second scene.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(toScene).toHaveBeenCalledTimes(1);
    const held = (svc as unknown as { s: { docs: Map<string, { sceneSent?: unknown; sceneAhead?: unknown }> } }).s.docs.get(opened.id)!;
    expect(held.sceneSent).toBeUndefined();
    expect(held.sceneAhead).toBeUndefined();
    // A later request (the user's LOD switch back, a reload) builds the same scene afresh.
    const again = svc.scene(opened.id);
    expect(toScene).toHaveBeenCalledTimes(2);
    expect(again).toEqual(opened.scene);
    // The plain open answers without a scene.
    const plain = new DocumentService({ configDir: join(dir, 'config2'), emit: () => undefined, prefetchTextures: true });
    expect('scene' in (await plain.open(file))).toBe(false);
  });

  it('is left out when the scene cannot be built, so the preview meets the error itself', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });
    const file = await writeBox();
    vi.spyOn(formatById('p3d-mlod'), 'toScene').mockImplementation(() => {
      throw new Error('no scene');
    });
    const opened = await svc.openWithScene(file);
    expect(opened.fileName).toBe('box.p3d');
    expect('scene' in opened).toBe(false);
    expect(() => svc.scene(opened.id)).toThrow(/no scene/);
  });
});
