/**
 * glTF export of every sample of every registered format must pass the Khronos validator with no
 * errors; animation files are converted alone and bound to their model where the corpus pairs them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/program.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { sceneToGltf, writeGlb } from '../../shared/export/gltf.ts';
import { readBytes } from '../helpers/corpus.ts';
import { ANIMATION_FORMATS, samples, type Sample } from './helpers/formats.ts';
import { memoryIO } from './helpers/memory-io.ts';
import { gltfErrors } from './helpers/validate-gltf.ts';

const all = samples();
const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-convert-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const stem = (f: string): string => basename(f).replace(/\.[^.]+$/, '');

/** Animation samples whose name starts with a model's name (`ogre.model` + `ogre_walk.animation`). */
function pairs(): { model: Sample; anims: Sample[] }[] {
  const anims = all.filter((s) => ANIMATION_FORMATS.includes(s.codec.id));
  return all
    .filter((s) => !ANIMATION_FORMATS.includes(s.codec.id))
    .map((model) => ({ model, anims: anims.filter((a) => stem(a.file).startsWith(`${stem(model.file)}_`)) }))
    .filter((p) => p.anims.length > 0);
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

describe.skipIf(all.length === 0)('glTF export of every sample passes the Khronos validator', () => {
  for (const s of all) {
    it(`${s.codec.id}: ${basename(s.file)}`, async (ctx) => {
      const codec = s.codec;
      let doc: object;
      try {
        doc = codec.decode(readBytes(s.file), { fileName: basename(s.file) });
      } catch (e) {
        // A file its codec cannot decode yet is that codec's round-trip test failure; here it
        // is reported as skipped so the export result stays about the export.
        if (isDecodeError(e)) return ctx.skip(`does not decode: ${e.message}`);
        throw e;
      }
      const scene = codec.toScene(doc);
      const { document, warnings } = sceneToGltf(scene);
      const { errors, report } = await gltfErrors(await writeGlb(document));
      expect(errors).toEqual([]);
      expect(report.issues.numErrors).toBe(0);
      // What the source holds must arrive: one glTF mesh per scene mesh with geometry, names kept.
      const names = document.getRoot().listMeshes().map((m) => m.getName());
      const expected = scene.meshes.filter((m) => m.positions.length >= 3).map((m, i) => m.name || `mesh ${i}`);
      expect(names).toEqual(expected);
      // Every vertex arrives, and every triangle of every material group unless a repair says otherwise.
      const withGeometry = scene.meshes.filter((m) => m.positions.length >= 3);
      document.getRoot().listMeshes().forEach((gm, i) => {
        const src = withGeometry[i]!;
        for (const p of gm.listPrimitives()) expect(p.getAttribute('POSITION')!.getCount()).toBe(Math.floor(src.positions.length / 3));
        if (warnings.some((w) => w.includes(`"${src.name}"`) && w.includes('past the last vertex'))) return;
        const groups = src.groups.length ? src.groups : [{ start: 0, count: src.indices.length }];
        const expectedTris = groups.reduce((a, g) => a + Math.floor(Math.max(0, Math.min(g.count, src.indices.length - g.start)) / 3), 0);
        const tris = gm.listPrimitives().reduce((a, p) => a + (p.getMode() === 4 ? p.getIndices()!.getCount() / 3 : 0), 0);
        expect(tris).toBe(expectedTris);
      });
      if (scene.skeleton?.bones.length && scene.meshes.some((m) => m.skin)) expect(document.getRoot().listSkins().length).toBeGreaterThan(0);
      if (scene.clips.some((c) => c.tracks.length > 0)) expect(document.getRoot().listAnimations().length).toBeGreaterThan(0);
    });
  }
});

describe.skipIf(pairs().length === 0)('convert binds standalone animation files to their model', () => {
  for (const { model, anims } of pairs()) {
    it(`${basename(model.file)} + ${anims.length} animation file(s)`, async () => {
      const out = join(tmp, `${stem(model.file)}.glb`);
      const r = await cli(['convert', model.file, out, '--anim', ...anims.map((a) => a.file)]);
      expect(r.err.split('\n').filter((l) => l && !l.startsWith('warning: '))).toEqual([]);
      expect(r.code).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      const { errors, report } = await gltfErrors(bytes);
      expect(errors).toEqual([]);
      const info = report.info as { animationCount?: number };
      expect(info.animationCount).toBeGreaterThanOrEqual(anims.length);
      expect(r.out).toMatch(new RegExp(`(\\d+) animations?`));
      expect(r.err).not.toMatch(/name no bone or node/);
    });
  }
});

describe.skipIf(all.length === 0)('convert to .gltf', () => {
  const model = all.filter((s) => !ANIMATION_FORMATS.includes(s.codec.id)).sort((a, b) => a.size - b.size)[0];
  it.skipIf(!model)('writes one self-contained JSON file the validator accepts', async () => {
    const out = join(tmp, 'model.gltf');
    const r = await cli(['convert', model!.file, out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const json = JSON.parse(text);
    expect(json.asset.version).toBe('2.0');
    for (const b of json.buffers ?? []) expect(b.uri).toMatch(/^data:/);
    expect((await gltfErrors(new TextEncoder().encode(text))).errors).toEqual([]);
  });

  it('names the output when it cannot be written', async () => {
    const model = all.find((s) => !ANIMATION_FORMATS.includes(s.codec.id));
    if (!model) return;
    const r = await cli(['convert', model.file, 'missing-folder/x.glb']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('lodsmith: missing-folder/x.glb: no such file or directory');
  });

  it('refuses an animation file that does not decode, naming it', async () => {
    const model = all.find((s) => !ANIMATION_FORMATS.includes(s.codec.id));
    if (!model) return;
    const r = await cli(['convert', model.file, join(tmp, 'x.glb'), '--anim', 'no-such.animation']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^lodsmith: no-such\.animation: no such file or directory$/);
  });
});

describe('convert --lod picks the LOD a multi-LOD model exports', () => {
  /** LODs with faces to draw: a LOD holding only proxy placeholder faces draws nothing (the game never draws them). */
  const drawn = (s: (typeof all)[number]) => {
    const doc = s.codec.decode(readBytes(s.file));
    return s.codec.info(doc, s.size).meshes.filter((m) => m.triangles > 0 && s.codec.toScene(doc, { lod: m.name }).meshes.some((x) => x.indices.length > 0));
  };
  // P3D models list their LODs as meshes named by resolution (1.000, Geometry, ...).
  const multi = all
    .filter((s) => s.codec.id.startsWith('p3d-'))
    .filter((s) => {
      try {
        return drawn(s).length > 1;
      } catch {
        return false;
      }
    })
    .sort((a, b) => a.size - b.size)
    .slice(0, 2);
  for (const s of multi) {
    it(`${s.codec.id}: ${basename(s.file)}`, async () => {
      const meshes = drawn(s);
      const lod = meshes[meshes.length - 1]!.name;
      const out = join(tmp, 'lod.gltf');
      const r = await cli(['convert', s.file, out, '--lod', lod]);
      expect(r.code).toBe(0);
      const json = JSON.parse(readFileSync(out, 'utf8'));
      expect(json.meshes.map((m: { name: string }) => m.name)).toEqual([lod]);
      expect((await gltfErrors(new Uint8Array(readFileSync(out)))).errors).toEqual([]);
      const bad = await cli(['convert', s.file, out, '--lod', 'no such lod']);
      expect(bad.code).toBe(2);
      expect(bad.err.trim().split('\n')).toHaveLength(1);
    });
  }
});
