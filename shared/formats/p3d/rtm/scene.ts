/**
 * An RTM as a neutral scene: one bone per RTM bone and one clip with one key per frame (time =
 * phase x duration). A key's bone transform is built so that the bone's world matrix equals the
 * frame's RTM matrix in scene axes (the identity is the rest pose): with no parents that is the
 * matrix itself; with parents (a skeleton), local = inverse(parent world) x world.
 *
 * Plain RTMs need nothing else. A BMTR's transforms are parent-relative, so its scene needs a
 * skeleton; without one each transform is shown as if its bone had no parent, with a warning.
 *
 * The matrices are in the model's own space. A model whose scene has its origin elsewhere (an
 * auto-centred ODOL keeps its positions relative to its bounding centre, Scene.modelOrigin) gives
 * `origin`, and each world matrix W becomes T(origin) x W x T(-origin): the same motion about the
 * model's own origin. Without it a character's parts turned about the wrong point and tore apart
 * at every joint whose two bones the frame turns differently (0.7 m at the elbow of the corpus's
 * man_bandit.p3d playing map_in.rtm, whose bounding centre is 0.97 m from its origin).
 */
import { aboutPoint, composeTRS, invertOrIdentity, multiply } from '../../../scene/mat4.ts';
import type { AnimationClip, AnimationTrack, Mat4, Scene } from '../../../scene/scene.ts';
import { IDENTITY } from '../../../scene/scene.ts';
import { bmtrToPlain, rtmParents, rtmToScene, sceneTrs, type SkeletonBone } from './pose.ts';
import type { PlainRtmDocument, RtmDocument } from './types.ts';

export interface RtmSceneOptions {
  /** Seconds of phase 0..1 (default 1). */
  duration?: number;
  /** The skeleton that orders the bones (needed to compose a BMTR; optional for plain RTM). */
  skeleton?: readonly SkeletonBone[];
  /** Clip name (default ''). */
  name?: string;
  /** Where the model's own origin lies in the scene the animation plays on (Scene.modelOrigin). */
  origin?: readonly [number, number, number];
}

/**
 * World matrices in scene axes of every bone at every frame: [frame][bone], about `origin` (the
 * model's own origin in the scene) when given.
 */
export function rtmWorlds(doc: PlainRtmDocument, origin?: readonly [number, number, number]): Mat4[][] {
  return doc.frames.map((f) => doc.bones.map((_, i) => {
    const w = f.matrices.length >= (i + 1) * 12 ? rtmToScene(f.matrices, i * 12) : [...IDENTITY];
    return origin ? aboutPoint(w, origin) : w;
  }));
}


export function rtmToSceneGraph(doc: RtmDocument, opts: RtmSceneOptions = {}): Scene {
  const warnings: string[] = [];
  let plain: PlainRtmDocument;
  if (doc.kind === 'bmtr') {
    if (!opts.skeleton) warnings.push('a binarized RTM stores transforms relative to parent bones; without a skeleton (model.cfg or a P3D) each is shown unparented');
    plain = bmtrToPlain(doc, opts.skeleton ?? []);
  } else plain = doc;
  const parents = opts.skeleton ? rtmParents(plain.bones, opts.skeleton) : plain.bones.map(() => -1);
  const scene = plainScene(plain, parents, opts.duration ?? 1, opts.name ?? '', opts.origin);
  if (warnings.length) scene.warnings = [...(scene.warnings ?? []), ...warnings];
  return scene;
}

/** The scene of a plain RTM whose bones have `parents` (indices into its bones, -1 for none). */
export function plainScene(doc: PlainRtmDocument, parents: readonly number[], duration: number, name: string, origin?: readonly [number, number, number]): Scene {
  const bones = doc.bones.map((b, i) => ({ name: b, parent: parents[i] ?? -1, matrix: [...IDENTITY] }));
  const worlds = rtmWorlds(doc, origin);
  const nf = doc.frames.length;
  const times = Float32Array.from(doc.frames, (f) => f.phase * duration);
  let sheared = 0, worst = 0;
  const tracks: AnimationTrack[] = doc.bones.map((b, i) => {
    const translations = new Float32Array(nf * 3), rotations = new Float32Array(nf * 4), scales = new Float32Array(nf * 3);
    for (let k = 0; k < nf; k++) {
      const w = worlds[k]![i]!;
      const p = parents[i] ?? -1;
      const local = p >= 0 ? multiply(invertOrIdentity(worlds[k]![p]!), w) : w;
      const { t, r, s } = sceneTrs(local);
      translations.set(t, k * 3); rotations.set(r, k * 4); scales.set(s, k * 3);
      // A bone transform is translation, rotation and scale; what else a matrix holds (shear) is lost.
      const back = composeTRS(t, r, s);
      let d = 0;
      for (let j = 0; j < 12; j++) d = Math.max(d, Math.abs(back[j]! - local[j]!));
      if (d > 1e-5) sheared++;
      worst = Math.max(worst, d);
    }
    return { bone: i, targetName: b, target: 'bone', times, translations, rotations, scales };
  });
  const clip: AnimationClip = { name, duration, frames: nf, tracks, source: ['frames'] };
  const scene: Scene = { nodes: [], meshes: [], materials: [], skeleton: { bones }, clips: nf ? [clip] : [] };
  if (sheared) scene.warnings = [`${sheared} bone pose(s) are not rotation, scale and translation alone (shear up to ${worst.toExponential(1)}); the bone transforms hold the nearest ones`];
  return scene;
}
