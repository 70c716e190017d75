/**
 * Linear-blend skinning of a mesh, for tests that hold a posed model to what it should look like:
 * the largest amount by which any triangle edge grows from the rest pose. A part turned about the
 * wrong point tears away from its neighbour (the edges across the joint grow by the gap); a model
 * posed as its animation means keeps its edges within what the skinning's blend bends them.
 */
import { saneParents, worldMatrices } from '../../shared/export/math.ts';
import { composeTRS } from '../../shared/scene/mat4.ts';
import type { AnimationClip, Skeleton } from '../../shared/scene/scene.ts';

/**
 * The bones' world matrices at key `k` of `clip` (one key per frame in every track, as the
 * scenes of Arma animations have them); a bone without a track keeps its rest transform.
 */
export function boneWorldsAtKey(skeleton: Skeleton, clip: AnimationClip, k: number): number[][] {
  const local = skeleton.bones.map((b) => b.matrix);
  for (const t of clip.tracks) {
    if (t.target !== 'bone') continue;
    local[t.bone] = composeTRS(t.translations!.subarray(k * 3, k * 3 + 3), t.rotations!.subarray(k * 4, k * 4 + 4), t.scales!.subarray(k * 3, k * 3 + 3));
  }
  return worldMatrices(local, saneParents(skeleton.bones.map((b) => b.parent)));
}
export function worstEdgeStretch(
  positions: ArrayLike<number>, indices: ArrayLike<number>,
  joints: ArrayLike<number>, weights: ArrayLike<number>,
  /** The skinning matrix (column-major: joint world x inverse bind) of a joint. */
  skinning: (joint: number) => ArrayLike<number>,
): number {
  const n = positions.length / 3;
  const posed = new Float64Array(n * 3);
  for (let v = 0; v < n; v++) {
    const x = positions[v * 3]!, y = positions[v * 3 + 1]!, z = positions[v * 3 + 2]!;
    let total = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[v * 4 + k]!;
      if (!w) continue;
      const m = skinning(joints[v * 4 + k]!);
      for (let r = 0; r < 3; r++) posed[v * 3 + r]! += w * (m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!);
      total += w;
    }
    if (total === 0) posed.set([x, y, z], v * 3);
  }
  const len = (p: ArrayLike<number>, a: number, b: number): number => Math.hypot(p[a * 3]! - p[b * 3]!, p[a * 3 + 1]! - p[b * 3 + 1]!, p[a * 3 + 2]! - p[b * 3 + 2]!);
  let worst = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (const [a, b] of [[indices[t]!, indices[t + 1]!], [indices[t + 1]!, indices[t + 2]!], [indices[t + 2]!, indices[t]!]] as const) {
      worst = Math.max(worst, len(posed, a, b) - len(positions, a, b));
    }
  }
  return worst;
}
