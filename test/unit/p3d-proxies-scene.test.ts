/**
 * P3D proxies in the preview scene: the placeholder triangles the game never draws leave the mesh
 * (ODOL: the section flagged hidden that the proxies name; MLOD: the faces of `proxy:` named
 * selections) and come back as proxies with a position, a name and their placeholder faces.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import { mlodToScene } from '../../shared/formats/p3d/mlod/scene.ts';
import { parseModelCfg } from '../../shared/formats/p3d/modelcfg/document.ts';
import { findModelClass, readModelCfg, skeletonOf } from '../../shared/formats/p3d/modelcfg/model.ts';
import { riggedMlodScene } from '../../shared/formats/p3d/modelcfg/scene-clips.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { odolScene } from '../../shared/formats/p3d/odol/scene.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { parseProxySelection, triangleFrame } from '../../shared/formats/p3d/proxy.ts';
import { resolutionName } from '../../shared/formats/p3d/resolution.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { buildLod, buildMlod } from '../../scripts/fixtures/mlod.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

/** Longest edge of any drawn triangle. */
function longestEdge(s: Scene): number {
  let best = 0;
  for (const m of s.meshes) {
    const P = m.positions;
    for (let t = 0; t + 2 < m.indices.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const a = m.indices[t + k]! * 3, b = m.indices[t + ((k + 1) % 3)]! * 3;
        best = Math.max(best, Math.hypot(P[a]! - P[b]!, P[a + 1]! - P[b + 1]!, P[a + 2]! - P[b + 2]!));
      }
    }
  }
  return best;
}
const triangles = (s: Scene) => s.meshes.reduce((n, m) => n + m.indices.length / 3, 0);

describe('MLOD proxies', () => {
  it('parses proxy selection names', () => {
    expect(parseProxySelection('proxy:\\ca\\weapons\\ak74.001')).toEqual({ name: '\\ca\\weapons\\ak74', index: 1 });
    expect(parseProxySelection('Proxy:driver')).toEqual({ name: 'driver' });
    expect(parseProxySelection('head')).toBeUndefined();
  });

  it('leaves proxy faces out of the mesh and places the proxy at its right-angle corner', () => {
    // A 1x1 quad (two triangles) and a proxy triangle with its right angle at (5, 0, 2).
    const points = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 0, 2, 5, 1, 2, 5, 0, 4];
    const lod = buildLod({ resolution: 1, points, faces: [[0, 1, 2, 3], [4, 5, 6]] });
    lod.tags.splice(lod.tags.length - 1, 0, {
      type: 'selection', name: 'proxy:\\a\\gun.002', active: 1, points: Uint8Array.from([0, 0, 0, 0, 1, 1, 1]), faces: Uint8Array.from([0, 1]),
    } as never);
    const s = mlodToScene(buildMlod([lod]) as MlodDocument);
    expect(triangles(s)).toBe(2);
    expect(s.proxies).toHaveLength(1);
    const p = s.proxies![0]!;
    expect(p).toMatchObject({ name: '\\a\\gun', index: 2, source: ['lods', 0, 'tags', lod.tags.findIndex((t) => t.name.startsWith('proxy:'))] });
    // Scene axes: z negated.
    expect(p.matrix.slice(12, 15)).toEqual([5, 0, -2]);
    expect(Array.from(p.placeholder!)).toHaveLength(9);
  });

  it('a proxy moves with the bone whose selection holds its triangle (RTM bones and a model.cfg skeleton)', () => {
    const points = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 0, 2, 5, 1, 2, 5, 0, 4];
    const lod = buildLod({ resolution: 1, points, faces: [[0, 1, 2, 3], [4, 5, 6]] });
    const sel = (name: string, pts: number[], faces: number[]) => ({ type: 'selection', name, active: 1, points: Uint8Array.from(pts), faces: Uint8Array.from(faces) }) as never;
    lod.tags.splice(lod.tags.length - 1, 0,
      sel('proxy:\\a\\binocular.001', [0, 0, 0, 0, 1, 1, 1], [0, 1]),
      sel('body', [1, 1, 0, 0, 0, 0, 0], [1, 0]),
      // The arm holds the proxy's triangle fully and two quad corners.
      sel('arm', [0, 0, 1, 1, 1, 1, 1], [0, 1]));
    const doc = buildMlod([lod]) as MlodDocument;
    const boneName = (sc: Scene) => sc.skeleton!.bones[sc.proxies![0]!.bone!]?.name;
    // An RTM's bones, taken from the LOD's selections of those names.
    expect(boneName(mlodToScene(doc, { skinBones: ['body', 'arm'] }))).toBe('arm');
    // A model.cfg skeleton (joint 0 is the model's root).
    const cfg = readModelCfg(parseModelCfg('class CfgSkeletons { class S { isDiscrete = 1; skeletonBones[] = {"body", "", "arm", "body"}; }; }; class CfgModels { class gen { skeletonName = "S"; }; };'));
    const model = findModelClass(cfg, 'gen.p3d')!;
    expect(boneName(riggedMlodScene(doc, model, skeletonOf(cfg, model)))).toBe('arm');
    // Without a skeleton the proxy names no bone; nor when no bone's selection holds it.
    expect(mlodToScene(doc).proxies![0]!.bone).toBeUndefined();
    expect(mlodToScene(doc, { skinBones: ['body'] }).proxies![0]!.bone).toBeUndefined();
  });

  it('frames a triangle as Object Builder does: y along the longer leg, z along the shorter', () => {
    const m = triangleFrame([0, 0, 0, 0, 0, 1, 0, 2, 0]);
    expect(m.slice(4, 7)).toEqual([0, 1, 0]);
    expect(m.slice(8, 11)).toEqual([0, 0, 1]);
    expect(m.slice(0, 3)).toEqual([1, 0, 0]);
  });
});

const odol = corpusFiles('p3d_odol').filter((f) => /man_bandit|annie_original|snaretrap|blueCollar/.test(f));

describe.skipIf(!hasCorpus)('ODOL proxies (corpus characters)', () => {
  it.each(odol.map((f) => [basename(f), f]))('%s: no placeholder triangle in any LOD mesh', (_n, file) => {
    const doc = detectFormat(readBytes(file), basename(file))!.decode(readBytes(file)) as OdolV4xDocument;
    let checked = 0;
    doc.lods.forEach((lod) => {
      if (!lod.proxies.length) return;
      const name = resolutionName(lod.resolution);
      const s = odolScene(doc, { lod: name });
      expect(s.proxies!.map((p) => p.name)).toEqual(lod.proxies.map((p) => p.name));
      // Each proxy sits where its transform says (z negated) and carries its placeholder.
      s.proxies!.forEach((p, k) => {
        const t = lod.proxies[k]!.transform.map(Number);
        expect(p.matrix.slice(12, 15)).toEqual([t[9], t[10], -t[11]!]);
        expect(p.source).toEqual(['lods', doc.lods.indexOf(lod), 'proxies', k]);
      });
      const placeholderTris = s.proxies!.reduce((n, p) => n + (p.placeholder?.length ?? 0) / 9, 0);
      expect(placeholderTris, `${name}: placeholder triangles found`).toBeGreaterThan(0);
      // Every face is either drawn or a placeholder: nothing else went missing.
      let total = 0;
      for (let f = 0; f < lod.faces.sizes.length; f++) total += lod.faces.sizes[f]! - 2;
      expect(triangles(s) + placeholderTris, `${name}: drawn + placeholder triangles`).toBe(total);
      checked++;
    });
    expect(checked).toBeGreaterThan(0);
  });

  it.skipIf(!odol.some((f) => f.includes('man_bandit')))('man_bandit 1.000: the huge triangles are gone', () => {
    const file = odol.find((f) => f.includes('man_bandit'))!;
    const doc = detectFormat(readBytes(file), basename(file))!.decode(readBytes(file)) as OdolV4xDocument;
    const s = odolScene(doc, { lod: '1.000' });
    // The placeholder triangles have 1-2 m legs; no face of the character is longer than 0.5 m.
    expect(longestEdge(s)).toBeLessThan(0.5);
    expect(s.proxies).toHaveLength(6);
    expect(s.proxies!.every((p) => (p.placeholder?.length ?? 0) === 9)).toBe(true);
  });

  it.skipIf(!odol.some((f) => f.includes('man_bandit')))('man_bandit: each proxy names the skeleton bone it moves with', () => {
    const file = odol.find((f) => f.includes('man_bandit'))!;
    const doc = detectFormat(readBytes(file), basename(file))!.decode(readBytes(file)) as OdolV4xDocument;
    const s = odolScene(doc, { lod: '1.000' });
    const boneOf = Object.fromEntries(s.proxies!.map((p) => [p.name.split('\\').pop(), p.bone === undefined ? undefined : s.skeleton!.bones[p.bone]!.name]));
    // The helmet's night vision with the head, the pistol in the right hand, the binoculars in the
    // left, the rifle and launcher on their own bones, the flag on the back.
    expect(boneOf).toEqual({
      ak_47_v58_proxy: 'weapon', beretta: 'righthand', dalekohled_proxy: 'lefthand', flag_vojak: 'spine3', rpg7_proxy: 'launcher', nvg_head: 'head',
    });
  });
});

describe('ODOL v7 proxies', () => {
  it('become scene proxies placed by their translation (z negated)', async () => {
    const { buildOdolV7Document } = await import('../../scripts/fixtures/odol.ts');
    const doc = buildOdolV7Document({ lods: 1, size: 8 });
    const lod = doc.lods[0]!;
    lod.proxies = [{ name: 'gunner', rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [1, 2, 3] }];
    const s = odolScene(doc);
    expect(s.proxies).toEqual([{ name: 'gunner', matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, -3, 1], source: ['lods', 0, 'proxies', 0] }]);
  });
});
