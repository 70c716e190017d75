/**
 * The per-face parts of the P3D modding rules and the face groups they read, at the places a
 * faster version could go wrong: findings itemised up to five per rule and LOD then counted, in
 * face order; a quad whose first triangle is flat but whose second is not; the number of open
 * edges (a Shadow Volume or a Geometry component with faces missing); face groups counted when
 * the texture and material tables hold one path twice or a face's index is past the table.
 */
import { describe, expect, it } from 'vitest';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { p3dGroups } from '../../shared/formats/p3d/editor.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { p3dRuleSet } from '../../shared/formats/p3d/rules.ts';
import { runRules, type RuleEnvironment } from '../../shared/model/rules.ts';

const env: RuleEnvironment = { exists: () => true, textureSize: () => ({ width: 256, height: 256 }) };
const a = { active: 1 };

/** A cube's triangles (12), closed. */
const triangles = (faces: readonly (readonly number[])[]): number[][] => faces.flatMap((f) => [[f[0]!, f[1]!, f[2]!], [f[0]!, f[2]!, f[3]!]]);

function model(visualFaces: number[][], extra: { shadow?: number[][]; geometry?: number[][] } = {}): MlodDocument {
  const c = cube(1);
  // Points 8 and 9 lie on the edge from point 0 to point 1.
  const points = [...c.points, 0, -0.5, -0.5, 0.25, -0.5, -0.5];
  const gf = extra.geometry ?? c.faces;
  const lods = [
    buildLod({ resolution: 1, points, faces: visualFaces, uvs: visualFaces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: visualFaces.map(() => 'm\\box_co.paa'), materials: visualFaces.map(() => 'm\\box.rvmat') }),
    buildLod({
      resolution: 1e13, points: c.points, faces: gf,
      tags: [
        { type: 'mass', name: '#Mass#', ...a, masses: new Float32Array(8).fill(10) },
        { type: 'selection', name: 'Component01', ...a, points: new Uint8Array(8).fill(1), faces: new Uint8Array(gf.length).fill(1) },
      ],
    }),
    buildLod({ resolution: 10000, points: c.points, faces: extra.shadow ?? triangles(c.faces) }),
  ];
  return decodeMlod(encodeMlod(buildMlod(lods)));
}

/** One rule's findings, messages without the `[rule]` runRules appends. */
const found = (doc: MlodDocument, rule: string) => runRules(p3dRuleSet, doc, env).filter((p) => p.rule === rule).map((p) => ({ ...p, message: p.message.replace(` [${rule}]`, '') }));

describe('modding rules per face', () => {
  it('five findings of a rule in a LOD are itemised in face order, the rest counted in one more', () => {
    const c = cube(1);
    // Faces 6..13: eight that repeat a point; 14 and 15: no area.
    const bad = [...Array.from({ length: 8 }, (_, k) => [k % 8, (k + 1) % 8, (k + 1) % 8]), [0, 8, 1, 9], [0, 8, 1]];
    const got = found(model([...c.faces, ...bad]), 'face-degenerate');
    expect(got.map((p) => p.message)).toEqual([
      'face 6 uses a point twice',
      'face 7 uses a point twice',
      'face 8 uses a point twice',
      'face 9 uses a point twice',
      'face 10 uses a point twice',
      '5 more like it in this LOD',
    ]);
    expect(got.slice(0, 5).map((p) => p.where.replace(/^.*, /, ''))).toEqual(['face 6', 'face 7', 'face 8', 'face 9', 'face 10']);
    expect(got[0]!.path).toEqual(['lods', 0, 'faces', 'vertexCount', 6]);
    expect(got[5]!.path).toEqual(['lods', 0, 'faces']);
  });

  it('a face has no area only when all its triangles are flat (a quad with one flat half has area)', () => {
    const c = cube(1);
    const got = found(model([...c.faces, [0, 8, 1, 9], [0, 8, 1, 2], [0, 8, 1], [8, 1, 2]]), 'face-degenerate');
    expect(got.map((p) => p.message)).toEqual(['face 6 has no area (its points lie on a line)', 'face 8 has no area (its points lie on a line)']);
  });

  it('counts the open edges of a Shadow Volume and of a Geometry component', () => {
    const c = cube(1);
    const closed = triangles(c.faces);
    // One triangle gone: its three edges are open. Both of a quad's: its four sides (the diagonal went with both).
    expect(found(model(c.faces, { shadow: closed.slice(0, 11) }), 'shadow-open').map((p) => p.message)).toEqual(['3 edges belong to one face only: the Shadow Volume is not closed, so its shadow leaks']);
    expect(found(model(c.faces, { shadow: closed.slice(0, 10) }), 'shadow-open').map((p) => p.message)).toEqual(['4 edges belong to one face only: the Shadow Volume is not closed, so its shadow leaks']);
    expect(found(model(c.faces, { shadow: closed }), 'shadow-open')).toEqual([]);
    expect(found(model(c.faces, { geometry: c.faces.slice(0, 5) }), 'geometry-component-open').map((p) => p.message)).toEqual(['Component01 is not closed (4 edges belong to one face): collisions with it are unreliable']);
    expect(found(model(c.faces, { geometry: c.faces.slice(0, 4) }), 'geometry-component-open').map((p) => p.message)).toEqual(['Component01 is not closed (8 edges belong to one face): collisions with it are unreliable']);
  });

  it('face groups: one per (texture, material) path pair in first-use order, a path listed twice in a table counted as one', () => {
    const c = cube(1);
    const doc = buildMlod([buildLod({ resolution: 1, points: c.points, faces: c.faces })]);
    const f = doc.lods[0]!.faces;
    f.textures = ['a.paa', 'b.paa', 'a.paa'];
    f.materials = ['m.rvmat', ''];
    // Face 4's texture index is past the table: no texture.
    f.textureIndex = Uint32Array.of(0, 1, 2, 0, 7, 1);
    f.materialIndex = Uint32Array.of(0, 0, 0, 1, 0, 1);
    expect(p3dGroups(doc, 0).map((g) => [g.texture, g.material, g.faces])).toEqual([
      ['a.paa', 'm.rvmat', 2],
      ['b.paa', 'm.rvmat', 1],
      ['a.paa', '', 1],
      ['', 'm.rvmat', 1],
      ['b.paa', '', 1],
    ]);
    // Runs and returns: a pair seen again after others adds to its group.
    f.textureIndex = Uint32Array.of(1, 1, 0, 1, 2, 0);
    f.materialIndex = Uint32Array.of(0, 0, 0, 0, 0, 0);
    expect(p3dGroups(doc, 0).map((g) => [g.texture, g.faces])).toEqual([['b.paa', 3], ['a.paa', 3]]);
  });
});
