import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { mlodToScene } from '../../shared/formats/p3d/mlod/scene.ts';
import type { MlodDocument, MlodLod, SelectionTag } from '../../shared/formats/p3d/mlod/types.ts';
import { decodeModelCfg, parseModelCfg } from '../../shared/formats/p3d/modelcfg/document.ts';
import { findModelClass, readModelCfg, skeletonOf, type CfgModel, type CfgSkeleton } from '../../shared/formats/p3d/modelcfg/model.ts';
import { animationPhase, type PoseAnimation } from '../../shared/formats/p3d/modelcfg/animate.ts';
import { memoryLod, poseMlod, selectionOf, selectionPoints } from '../../shared/formats/p3d/modelcfg/pose-mlod.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';
import { rotateAbout, type V3 as V } from '../helpers/rotate.ts';


function lodSize(lod: MlodLod): number {
  const P = lod.points;
  let s = 0;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = a; i < P.length; i += 3) {
      lo = Math.min(lo, P[i]!);
      hi = Math.max(hi, P[i]!);
    }
    s = Math.max(s, hi - lo);
  }
  return s;
}

function load(folder: string, p3d: string): { doc: MlodDocument; model: CfgModel; skeleton: CfgSkeleton | undefined } {
  const dir = join(corpusDir, 'modelcfg', folder);
  const doc = mlodCodec.decode(new Uint8Array(readFileSync(join(dir, p3d)))) as MlodDocument;
  const cfg = readModelCfg(decodeModelCfg(new Uint8Array(readFileSync(join(dir, 'model.cfg')))));
  const model = findModelClass(cfg, p3d)!;
  return { doc, model, skeleton: skeletonOf(cfg, model) };
}

const hasPairs = hasCorpus && existsSync(join(corpusDir, 'modelcfg', 'dayz_test_building', 'model.cfg'));

describe.skipIf(!hasPairs)('model.cfg animations on the corpus pairs', () => {
  it('opens the building doors about their Memory LOD axes, in every LOD, and moves nothing else', () => {
    const { doc, model, skeleton } = load('dayz_test_building', 'sample_building.p3d');
    const mem = memoryLod(doc)!;
    const value = 0.6;
    const posed = poseMlod(doc, model, skeleton, new Map([['doorstwin1', value]]));
    let movedDoorPoints = 0;
    doc.lods.forEach((lod, li) => {
      const tol = 1e-5 * lodSize(lod) + 1e-6;
      const P = lod.points;
      const Q = posed.lods[li]!.points;
      const inDoor = new Map<number, string>();
      for (const d of ['door1', 'door2', 'door3']) {
        const s = selectionOf(lod, d);
        if (s) for (let i = 0; i < lod.pointFlags.length; i++) if (s.points[i]) inDoor.set(i, d);
      }
      for (let i = 0; i < lod.pointFlags.length; i++) {
        const p: V = [P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!];
        const q: V = [Q[i * 3]!, Q[i * 3 + 1]!, Q[i * 3 + 2]!];
        const door = inDoor.get(i);
        let want = p;
        if (door === 'door1' || door === 'door2') {
          const [b, e] = selectionPoints(mem, `${door}_axis`);
          const angle1 = door === 'door1' ? 1.4 : -1.4;
          want = rotateAbout(p, b!, [e![0] - b![0], e![1] - b![1], e![2] - b![2]], angle1 * value);
          movedDoorPoints++;
        }
        for (let a = 0; a < 3; a++) expect(Math.abs(q[a]! - want[a]!)).toBeLessThanOrEqual(tol);
      }
    });
    expect(movedDoorPoints).toBeGreaterThan(100);
    // The Memory LOD's own door points (action positions) turn with their doors.
    const mi = doc.lods.indexOf(mem);
    const before = selectionPoints(mem, 'door1')[0]!;
    const after = selectionPoints(posed.lods[mi]!, 'door1')[0]!;
    expect(Math.hypot(after[0] - before[0], after[2] - before[2])).toBeGreaterThan(0.1);
  });

  it('settles the sign: positive angle1 turns right-handed about begin -> end in the stored coordinates', () => {
    // door1: hinge near x = 1.96, the leaf reaches to x = 0.7 along the front wall (z = 3.43), axis
    // drawn upwards; with the sign the bear trap settles (modelcfg-odol.test.ts), angle1 = +1.4
    // swings the free edge out to +z (NOTES.md, "Sign of rotation").
    const { doc, model, skeleton } = load('dayz_test_building', 'sample_building.p3d');
    const lod = doc.lods[0]!;
    const posed = poseMlod(doc, model, skeleton, new Map([['doorstwin1', 1]])).lods[0]!;
    const s = selectionOf(lod, 'door1')!;
    let far = -1;
    for (let i = 0; i < lod.pointFlags.length; i++) if (s.points[i] && (far < 0 || lod.points[i * 3]! < lod.points[far * 3]!)) far = i;
    expect(posed.points[far * 3 + 2]! - lod.points[far * 3 + 2]!).toBeGreaterThan(1);
  });

  it('raises the trench floor by translationY: offset0..1 over minValue..maxValue', () => {
    const { doc, model, skeleton } = load('grad_trenches_assets', 'trench_short.p3d');
    for (const value of [-1.2, -0.6, 0, 5]) {
      const posed = poseMlod(doc, model, skeleton, new Map([['rise', value]]));
      const t = Math.min(1, Math.max(0, (value + 1.2) / 1.2));
      doc.lods.forEach((lod, li) => {
        const s = selectionOf(lod, 'rise');
        const tol = 1e-5 * lodSize(lod) + 1e-6;
        for (let i = 0; i < lod.pointFlags.length; i++) {
          const dy = s?.points[i] ? t : 0;
          expect(Math.abs(posed.lods[li]!.points[i * 3 + 1]! - (lod.points[i * 3 + 1]! + dy))).toBeLessThanOrEqual(tol);
          expect(posed.lods[li]!.points[i * 3]).toBe(lod.points[i * 3]);
        }
      });
    }
  });

  it('an unused source changes nothing', () => {
    const { doc, model, skeleton } = load('dayz_test_building', 'sample_building.p3d');
    const posed = poseMlod(doc, model, skeleton, new Map([['nosuchsource', 1]]));
    posed.lods.forEach((l, li) => expect(l.points).toEqual(doc.lods[li]!.points));
  });
});

/** A generated model: a unit quad per bone, stacked along x, with one named selection each. */
function generated(bones: string[], weights?: Record<string, number[]>): MlodDocument {
  const n = bones.length;
  const points = new Float32Array(n * 4 * 3);
  const vertexCount = new Uint32Array(n).fill(4);
  const pointIndex = new Uint32Array(n * 4);
  for (let b = 0; b < n; b++) {
    const quad = [[b, 0, 0], [b, 1, 0], [b + 1, 1, 0], [b + 1, 0, 0]];
    quad.forEach((p, k) => points.set(p, (b * 4 + k) * 3));
    for (let k = 0; k < 4; k++) pointIndex[b * 4 + k] = b * 4 + k;
  }
  const tags: SelectionTag[] = bones.map((name, b) => {
    const pts = new Uint8Array(n * 4);
    const faces = new Uint8Array(n);
    for (let k = 0; k < 4; k++) pts[b * 4 + k] = 1;
    faces[b] = 1;
    for (const [i, w] of (weights?.[name] ?? []).entries()) if (w) pts[i] = w;
    return { type: 'selection', name, points: pts, faces };
  });
  const memPoints = new Float32Array([0, 0, 0, 0, 1, 0, 2, 0, 0, 2, 0, 1]);
  const memTags: SelectionTag[] = [
    { type: 'selection', name: 'axis_a', points: Uint8Array.from([1, 1, 0, 0]), faces: new Uint8Array(0) },
    { type: 'selection', name: 'axis_b', points: Uint8Array.from([0, 0, 1, 1]), faces: new Uint8Array(0) },
  ];
  const lod = (resolution: number, P: Float32Array, t: SelectionTag[], faceN: number): MlodLod => ({
    signature: 'P3DM', headerSize: 28, version: 0x100, flags: 0, headerExtra: new Uint8Array(0), points: P, pointFlags: new Uint32Array(P.length / 3), normals: new Float32Array(0),
    faces: { vertexCount: faceN ? vertexCount : new Uint32Array(0), pointIndex: faceN ? pointIndex : new Uint32Array(0), normalIndex: new Uint32Array(faceN * 4).fill(0xffffffff), uv: new Float32Array(faceN * 8), flags: new Uint32Array(faceN), textures: [''], textureIndex: new Uint32Array(faceN), materials: [''], materialIndex: new Uint32Array(faceN) },
    tags: t, resolution,
  } as MlodLod);
  return { signature: 'MLOD', version: 0x101, lods: [lod(1, points, tags, n), lod(1e15, memPoints, memTags, 0)], trailing: new Uint8Array(0) };
}

function cfgFor(body: string, skeleton: string, discrete = 1): { model: CfgModel; skeleton: CfgSkeleton } {
  const cfg = readModelCfg(parseModelCfg(`class CfgSkeletons { class S { isDiscrete = ${discrete}; skeletonBones[] = {${skeleton}}; }; };
class CfgModels { class gen { skeletonName = "S"; class Animations { ${body} }; }; };`));
  expect(cfg.problems).toEqual([]);
  const model = findModelClass(cfg, 'gen.p3d')!;
  return { model, skeleton: skeletonOf(cfg, model)! };
}

const pt = (d: MlodDocument, i: number): V => [d.lods[0]!.points[i * 3]!, d.lods[0]!.points[i * 3 + 1]!, d.lods[0]!.points[i * 3 + 2]!];

describe('model.cfg animations on generated models', () => {
  it('moves a child bone with its parent', () => {
    const doc = generated(['arm', 'hand']);
    const { model, skeleton } = cfgFor(
      'class turn { type = "rotation"; source = "s"; selection = "arm"; axis = "axis_a"; angle1 = "rad 90"; }; class slide { type = "translationX"; source = "t"; selection = "hand"; offset1 = 2; };',
      '"arm", "", "hand", "arm"',
    );
    const posed = poseMlod(doc, model, skeleton, new Map([['s', 1], ['t', 0.5]]));
    for (let i = 0; i < 8; i++) {
      const p = pt(doc, i);
      let want = i >= 4 ? ([p[0] + 1, p[1], p[2]] as V) : p; // the hand slides first (own), then turns with the arm
      want = rotateAbout(want, [0, 0, 0], [0, 1, 0], Math.PI / 2);
      pt(posed, i).forEach((x, a) => expect(x).toBeCloseTo(want[a]!, 5));
    }
  });

  it('hides a selection at hideValue and shows it again at unHideValue; hidden faces draw nothing', () => {
    const doc = generated(['a', 'b']);
    const { model, skeleton } = cfgFor('class h { type = "hide"; source = "s"; selection = "b"; hideValue = 0.4; unHideValue = 0.8; };', '"a", "", "b", ""');
    const tris = (v: number): number => mlodToScene(poseMlod(doc, model, skeleton, new Map([['s', v]]))).meshes[0]!.indices.length / 3;
    expect(tris(0)).toBe(4);
    expect(tris(0.5)).toBe(2);
    expect(tris(0.9)).toBe(4);
  });

  it('applies sourceAddress clamp, loop and mirror over min/maxPhase', () => {
    const a = (sourceAddress: PoseAnimation['sourceAddress']): PoseAnimation => ({ name: 'x', type: 'rotationX', source: 's', selection: 'a', minValue: 0, maxValue: 2, minPhase: 0, maxPhase: 2, sourceAddress, angle0: 0, angle1: 1, offset0: 0, offset1: 0, hideValue: 0.5 });
    expect(animationPhase(a('clamp'), 3)).toBe(1);
    expect(animationPhase(a('clamp'), -1)).toBe(0);
    expect(animationPhase(a('loop'), 3)).toBeCloseTo(0.5, 9);
    expect(animationPhase(a('loop'), -0.5)).toBeCloseTo(0.75, 9);
    expect(animationPhase(a('mirror'), 3)).toBeCloseTo(0.5, 9);
    expect(animationPhase(a('mirror'), 1.5)).toBeCloseTo(0.75, 9);
    expect(animationPhase({ ...a('clamp'), minValue: 2, maxValue: 0 }, 0.5)).toBeCloseTo(0.75, 9);
  });

  it('rotates rotationY about the axis centre, translation along the axis in axis lengths, and angle0 at minValue', () => {
    const doc = generated(['a']);
    const { model, skeleton } = cfgFor(
      'class r { type = "rotationY"; source = "s"; selection = "a"; axis = "axis_b"; minValue = -1; maxValue = 1; angle0 = 0.2; angle1 = 1.2; }; class m { type = "translation"; source = "t"; selection = "a"; axis = "axis_b"; offset1 = 3; };',
      '"a", ""',
    );
    const posed = poseMlod(doc, model, skeleton, new Map([['s', 0], ['t', 0.5]]));
    for (let i = 0; i < 4; i++) {
      // rotationY about the centre of axis_b ((2,0,0)..(2,0,1)), angle 0.7; then +1.5 axis lengths along +z.
      const r = rotateAbout(pt(doc, i), [2, 0, 0.5], [0, 1, 0], 0.7);
      const want: V = [r[0], r[1], r[2] + 1.5];
      pt(posed, i).forEach((x, k) => expect(x).toBeCloseTo(want[k]!, 5));
    }
  });

  it('blends weighted points of a non-discrete skeleton and keeps the rest of the weight at rest', () => {
    // Point 0 of bone a is also half in bone b (byte 129 = weight (256-129)/255 ~ 0.498).
    const doc = generated(['a', 'b'], { b: [129] });
    const { model, skeleton } = cfgFor('class m { type = "translationY"; source = "s"; selection = "b"; offset1 = 1; };', '"a", "", "b", ""', 0);
    const posed = poseMlod(doc, model, skeleton, new Map([['s', 1]]));
    const w = (256 - 129) / 255;
    // a does not move, b moves by 1: point 0 has a at weight 1 and b at w; normalised: b's share w / (1 + w).
    expect(pt(posed, 0)[1]).toBeCloseTo(w / (1 + w), 5);
    expect(pt(posed, 4)[1]).toBeCloseTo(1, 5);
    expect(pt(posed, 1)[1]).toBeCloseTo(1, 5);
  });
});
