/**
 * Poses an editable (MLOD) model: the bones of model.cfg bind to the named selections of the same
 * name in every LOD (Memory LOD points and proxies included), axes come from the Memory LOD (or the
 * LOD itself for `memory = 0`), and the result is a copy of the document whose points are moved and
 * whose hidden faces are left out, ready for the ordinary scene builder.
 */
import { resolutionKind } from '../resolution.ts';
import { selectionWeight, type MlodDocument, type MlodLod, type SelectionTag } from '../mlod/types.ts';
import { poseBones, transformPoint, type Axis, type BonePose, type PoseAnimation, type Vec3 } from './animate.ts';
import type { CfgAnimation, CfgModel, CfgSkeleton } from './model.ts';
import type { ModelShape } from './checks.ts';
import { resolutionName } from '../resolution.ts';

/** The LODs and Memory LOD points of an MLOD model, for the model.cfg checks. */
export function mlodShape(doc: MlodDocument): ModelShape {
  const mem = memoryLod(doc);
  return {
    lods: doc.lods.map((l) => ({ name: resolutionName(l.resolution), visual: resolutionKind(l.resolution) === 'visual', selections: l.tags.filter((t) => t.type === 'selection').map((t) => t.name) })),
    memoryPoints: (name) => (mem ? selectionPoints(mem, name) : []),
  };
}

/** A named selection of a LOD by name (case-insensitive), or undefined. */
export function selectionOf(lod: MlodLod, name: string): SelectionTag | undefined {
  const lower = name.toLowerCase();
  for (const t of lod.tags) if (t.type === 'selection' && t.name.toLowerCase() === lower) return t;
  return undefined;
}

/** The points of a selection, in point order. */
export function selectionPoints(lod: MlodLod, name: string): Vec3[] {
  const s = selectionOf(lod, name);
  if (!s) return [];
  const out: Vec3[] = [];
  const n = Math.min(s.points.length, lod.pointFlags.length);
  for (let i = 0; i < n; i++) if (s.points[i]) out.push([lod.points[i * 3]!, lod.points[i * 3 + 1]!, lod.points[i * 3 + 2]!]);
  return out;
}

export function memoryLod(doc: MlodDocument): MlodLod | undefined {
  return doc.lods.find((l) => resolutionKind(l.resolution) === 'memory');
}

/** The axis of a model.cfg animation in `lod` (its own LOD when `memory = 0`), or undefined. */
export function animationAxis(doc: MlodDocument, a: CfgAnimation, lod?: MlodLod): Axis | undefined {
  const where = a.memory ? memoryLod(doc) : lod ?? memoryLod(doc);
  if (!where) return undefined;
  if (a.begin && a.end) {
    const b = selectionPoints(where, a.begin)[0];
    const e = selectionPoints(where, a.end)[0];
    return b && e ? { begin: b, end: e } : undefined;
  }
  if (!a.axis) return undefined;
  const pts = selectionPoints(where, a.axis);
  if (pts.length === 0) return undefined;
  return pts.length >= 2 ? { begin: pts[0]!, end: pts[1]! } : { begin: pts[0]! };
}

/** The animations the evaluator can play (known type). */
export function playable(model: CfgModel): (CfgAnimation & PoseAnimation)[] {
  return model.animations.filter((a): a is CfgAnimation & PoseAnimation => a.type !== undefined);
}

/** Bone poses for one LOD (axes of `memory = 0` animations differ per LOD). */
export function poseForLod(doc: MlodDocument, lod: MlodLod, model: CfgModel, skeleton: CfgSkeleton | undefined, values: ReadonlyMap<string, number>): BonePose[] {
  const anims = playable(model);
  return poseBones(skeleton?.bones ?? [], anims, values, (a) => animationAxis(doc, a as CfgAnimation, lod));
}

/**
 * Moves one LOD's points. Returns the new points and, per face, whether a hidden bone holds it.
 * Weighted points (non-discrete skeletons) blend their bones' transforms; weights that sum to less
 * than 1 keep the rest at the rest position. A discrete skeleton takes the heaviest bone alone.
 */
export function poseLodPoints(lod: MlodLod, poses: readonly BonePose[], discrete: boolean): { points: Float32Array; hiddenFaces: Uint8Array; moved: number } {
  const n = lod.pointFlags.length;
  const P = lod.points;
  const points = new Float32Array(P);
  const hiddenPoint = new Uint8Array(n);
  const bound = poses.map((p) => (p.hidden || !isIdentity(p.matrix) ? selectionOf(lod, p.name) : undefined));
  
  const weightSum = new Float32Array(n);
  const acc = new Float64Array(n * 3);
  const best = new Float32Array(n);
  const bestBone = new Int32Array(n).fill(-1);
  // Every bone's selection is weighed (not only moving ones) so a discrete point held by a still bone stays.
  const all = poses.map((p) => selectionOf(lod, p.name));
  all.forEach((s, bi) => {
    if (!s) return;
    const m = Math.min(n, s.points.length);
    for (let i = 0; i < m; i++) {
      const w = selectionWeight(s.points[i]!);
      if (w > best[i]!) {
        best[i] = w;
        bestBone[i] = bi;
      }
    }
  });
  let moved = 0;
  if (bound.every((b) => b === undefined)) return { points, hiddenFaces: new Uint8Array(lod.faces.vertexCount.length), moved };
  // Still bones weigh too: a point half in a still bone and half in a moving one moves half way.
  all.forEach((s, bi) => {
    if (!s) return;
    const pose = poses[bi]!;
    const m = Math.min(n, s.points.length);
    for (let i = 0; i < m; i++) {
      let w = selectionWeight(s.points[i]!);
      if (w === 0) continue;
      if (discrete) {
        if (bestBone[i] !== bi) continue;
        w = 1;
      }
      if (pose.hidden) hiddenPoint[i] = 1;
      const [x, y, z] = transformPoint(pose.matrix, P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!);
      acc[i * 3] = acc[i * 3]! + w * x;
      acc[i * 3 + 1] = acc[i * 3 + 1]! + w * y;
      acc[i * 3 + 2] = acc[i * 3 + 2]! + w * z;
      weightSum[i] = weightSum[i]! + w;
    }
  });
  for (let i = 0; i < n; i++) {
    const w = weightSum[i]!;
    if (w === 0) continue;
    // Any weight left over keeps the rest position; weights over 1 are normalised.
    const rest = Math.max(0, 1 - w);
    const k = w > 1 ? 1 / w : 1;
    for (let a = 0; a < 3; a++) points[i * 3 + a] = (acc[i * 3 + a]! * k) + rest * P[i * 3 + a]!;
    moved++;
  }
  const f = lod.faces;
  const hiddenFaces = new Uint8Array(f.vertexCount.length);
  for (let i = 0; i < f.vertexCount.length; i++) {
    const vc = Math.min(4, f.vertexCount[i]!);
    for (let k = 0; k < vc; k++) {
      const p = f.pointIndex[i * 4 + k]!;
      if (p < n && hiddenPoint[p]) hiddenFaces[i] = 1;
    }
  }
  return { points, hiddenFaces, moved };
}

function isIdentity(m: readonly number[]): boolean {
  for (let i = 0; i < 16; i++) if (Math.abs(m[i]! - (i % 5 === 0 ? 1 : 0)) > 0) return false;
  return true;
}

/**
 * A copy of `doc` posed at `values` (source name -> value): every LOD's points moved, hidden faces
 * given a vertex count of 0 (which the scene builder skips). The original is not touched; arrays
 * not changed are shared.
 */
export function poseMlod(doc: MlodDocument, model: CfgModel, skeleton: CfgSkeleton | undefined, values: ReadonlyMap<string, number>): MlodDocument {
  const discrete = skeleton?.isDiscrete ?? true;
  const lods = doc.lods.map((lod) => {
    const poses = poseForLod(doc, lod, model, skeleton, values);
    const { points, hiddenFaces } = poseLodPoints(lod, poses, discrete);
    let vertexCount = lod.faces.vertexCount;
    if (hiddenFaces.some((h) => h)) {
      vertexCount = new Uint32Array(vertexCount);
      for (let i = 0; i < vertexCount.length; i++) if (hiddenFaces[i]) vertexCount[i] = 0;
    }
    return { ...lod, points, faces: { ...lod.faces, vertexCount } } as MlodLod;
  });
  return { ...doc, lods };
}
