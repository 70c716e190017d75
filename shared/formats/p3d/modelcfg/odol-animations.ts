/**
 * A binarized (ODOL v30+) model's compiled animations, played by the same evaluator as model.cfg:
 * each class becomes a PoseAnimation, its bone comes from the per-LOD `animsToBones` table and its
 * axis from the axis record stored there (a position and a direction; for `translation` the
 * direction is the whole begin -> end vector, so offsets stay in axis lengths as in model.cfg).
 * Type numbers: 0 rotation, 1-3 rotationX/Y/Z, 4 translation, 5-7 translationX/Y/Z, 8 direct,
 * 9 hide; source address 0 clamp, 1 loop, 2 mirror (odol/NOTES.md, "Animations").
 */
import { decompose } from '../../../export/math.ts';
import { invert, multiply } from '../../../scene/mat4.ts';
import type { AnimationClip, AnimationTrack, Scene } from '../../../scene/scene.ts';
import { IDENTITY } from '../../../scene/scene.ts';
import type { OdolV4xDocument } from '../odol/model.ts';
import { poseBones, type Axis, type BonePose, type Mat, type PoseAnimation, type Vec3 } from './animate.ts';
import { ANIMATION_TYPES, type SourceAddress } from './model.ts';

const ADDRESS: SourceAddress[] = ['clamp', 'loop', 'mirror'];

interface Compiled {
  anim: PoseAnimation;
  axis?: Axis;
}

/** The model's animation classes as the evaluator takes them, for one LOD (bones and axes are per LOD). */
export function odolAnimations(doc: OdolV4xDocument, lod: number): Compiled[] {
  const a = doc.animations;
  if (!doc.hasAnimations || !a) return [];
  const bones = doc.modelInfo?.skeleton?.bones ?? [];
  const row = a.animsToBones[lod] ?? [];
  const out: Compiled[] = [];
  a.classes.forEach((c, ci) => {
    const type = ANIMATION_TYPES[c.type];
    const link = row[ci];
    const bone = link && link.bone >= 0 ? bones[link.bone] : undefined;
    if (!type || !bone) return;
    const p = c.params.map((x) => Number(x));
    const anim: PoseAnimation = {
      name: c.name,
      type,
      source: c.source || c.name,
      selection: bone.name,
      minValue: Number(c.minValue),
      maxValue: Number(c.maxValue),
      minPhase: Number(c.minPhase),
      maxPhase: Number(c.maxPhase),
      sourceAddress: ADDRESS[c.sourceAddress] ?? 'clamp',
      angle0: p[0] ?? 0,
      angle1: p[1] ?? 0,
      offset0: p[0] ?? 0,
      offset1: p[1] ?? 0,
      hideValue: p[0] ?? 0.5,
      ...(type === 'hide' && p.length > 1 ? { unHideValue: p[1]! } : {}),
    };
    if (type === 'direct') {
      anim.axisPos = [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];
      anim.axisDir = [p[3] ?? 0, p[4] ?? 1, p[5] ?? 0];
      anim.angle = p[6] ?? 0;
      anim.axisOffset = p[7] ?? 0;
    }
    const ax = link?.axis as { axisPos?: ArrayLike<number>; axisDir?: ArrayLike<number> } | undefined;
    let axis: Axis | undefined;
    if (ax?.axisPos && ax.axisDir) {
      const pos: Vec3 = [Number(ax.axisPos[0]), Number(ax.axisPos[1]), Number(ax.axisPos[2])];
      const dir: Vec3 = [Number(ax.axisDir[0]), Number(ax.axisDir[1]), Number(ax.axisDir[2])];
      // rotationX/Y/Z turn about the stored centre; the evaluator takes a one-point axis as that centre.
      axis = type.startsWith('rotation') && type !== 'rotation' ? { begin: pos } : { begin: pos, end: [pos[0] + dir[0], pos[1] + dir[1], pos[2] + dir[2]] };
    }
    out.push({ anim, ...(axis ? { axis } : {}) });
  });
  return out;
}

/** Bone poses of one LOD at `values` (lower-case source -> value). */
export function odolBonePoses(doc: OdolV4xDocument, lod: number, values: ReadonlyMap<string, number>): BonePose[] {
  const compiled = odolAnimations(doc, lod);
  const axes = new Map(compiled.map((c) => [c.anim, c.axis] as const));
  return poseBones(doc.modelInfo?.skeleton?.bones ?? [], compiled.map((c) => c.anim), values, (a) => axes.get(a));
}

/** The sources the compiled animations read, with their value range. */
export function odolSources(doc: OdolV4xDocument): { name: string; min: number; max: number; animations: string[] }[] {
  const out = new Map<string, { name: string; min: number; max: number; animations: string[] }>();
  for (const c of doc.animations?.classes ?? []) {
    const name = c.source || c.name;
    const lo = Math.min(Number(c.minValue), Number(c.maxValue));
    const hi = Math.max(Number(c.minValue), Number(c.maxValue));
    const s = out.get(name.toLowerCase());
    if (!s) out.set(name.toLowerCase(), { name, min: lo, max: hi, animations: [c.name] });
    else {
      s.min = Math.min(s.min, lo);
      s.max = Math.max(s.max, hi);
      s.animations.push(c.name);
    }
  }
  return [...out.values()];
}

function toSceneAxes(m: Mat): Mat {
  const f = [...m];
  f[2] = -f[2]!; f[6] = -f[6]!; f[14] = -f[14]!;
  f[8] = -f[8]!; f[9] = -f[9]!; f[11] = -f[11]!;
  return f;
}

/** Local (parent-relative) scene-axis transforms of the poses; a hidden bone scales to zero. */
function locals(poses: readonly BonePose[]): { t: Vec3; r: [number, number, number, number]; s: Vec3 }[] {
  const world = poses.map((p) => toSceneAxes(p.matrix));
  return poses.map((p, i) => {
    const local = p.parent >= 0 ? multiply(invert(world[p.parent]!) ?? [...IDENTITY], world[i]!) : world[i]!;
    const d = decompose(local);
    return { t: d.t as Vec3, r: d.r as [number, number, number, number], s: p.hidden ? [0, 0, 0] : (d.s as Vec3) };
  });
}

/**
 * The ODOL scene (its skeleton has identity binds and its mesh the stored vertex weights) posed at
 * `values`: bone matrices become the pose, inverse binds the identity.
 */
export function poseOdolScene(scene: Scene, doc: OdolV4xDocument, lod: number, values: ReadonlyMap<string, number>): Scene {
  if (!scene.skeleton || !doc.animations) return scene;
  const poses = odolBonePoses(doc, lod, values);
  if (poses.length !== scene.skeleton.bones.length) return scene;
  const world = poses.map((p) => toSceneAxes(p.matrix));
  const bones = scene.skeleton.bones.map((b, i) => {
    const parent = poses[i]!.parent;
    const local = parent >= 0 && world[parent] ? multiply(invert(world[parent]!) ?? [...IDENTITY], world[i]!) : world[i]!;
    const scaled = poses[i]!.hidden ? multiply(local, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]) : local;
    return { ...b, parent, matrix: scaled, inverseBind: [...IDENTITY] };
  });
  return { ...scene, skeleton: { bones } };
}

/** One clip per source of the compiled animations, sweeping its range (for the scene of LOD `lod`). */
export function odolClips(scene: Scene, doc: OdolV4xDocument, lod: number, frames = 31, seconds = 2): AnimationClip[] {
  const skeleton = scene.skeleton;
  if (!skeleton || !doc.animations) return [];
  const n = skeleton.bones.length;
  return odolSources(doc).map((src) => {
    const times = new Float32Array(frames);
    const keys: ReturnType<typeof locals>[] = [];
    for (let k = 0; k < frames; k++) {
      const f = k / (frames - 1);
      times[k] = f * seconds;
      keys.push(locals(odolBonePoses(doc, lod, new Map([[src.name.toLowerCase(), src.min + (src.max - src.min) * f]]))));
    }
    const tracks: AnimationTrack[] = [];
    for (let b = 0; b < n && b < (keys[0]?.length ?? 0); b++) {
      const t = keys.flatMap((k) => k[b]!.t);
      const r = keys.flatMap((k) => k[b]!.r);
      const s = keys.flatMap((k) => k[b]!.s);
      const still = (a: number[], size: number): boolean => a.every((x, i) => Math.abs(x - a[i % size]!) < 1e-7);
      if (still(t, 3) && still(r, 4) && still(s, 3)) continue;
      tracks.push({ bone: b, targetName: skeleton.bones[b]!.name, target: 'bone', times, translations: Float32Array.from(t), rotations: Float32Array.from(r), scales: Float32Array.from(s) });
    }
    return { name: src.name, duration: seconds, frames, tracks };
  });
}

/** The scene's skeleton with the parents the evaluator uses (declared before the child; case-insensitive). */
export function odolSceneParents(scene: Scene, doc: OdolV4xDocument): Scene {
  if (!scene.skeleton) return scene;
  const poses = odolBonePoses(doc, 0, new Map());
  if (poses.length !== scene.skeleton.bones.length) return scene;
  return { ...scene, skeleton: { bones: scene.skeleton.bones.map((b, i) => ({ ...b, parent: poses[i]!.parent })) } };
}

/**
 * The ODOL scene of LOD `lod` made ready to play: parents as the evaluator takes them, and the
 * vertices that no bone holds (the file stores zero bone references for them; the plain scene
 * binds them to bone 0) bound to an extra still root bone, so they stay where they are while bone 0
 * moves. Then posed at `pose`, or given one clip per source.
 */
export function odolAnimatedScene(scene: Scene, doc: OdolV4xDocument, lod: number, pose?: ReadonlyMap<string, number>): Scene {
  if (!scene.skeleton || !doc.animations || !doc.hasAnimations) return scene;
  let out = odolSceneParents(scene, doc);
  const mesh = out.meshes[0];
  const refs = (doc.lods[lod] as { vertexBoneRef?: { data: Uint8Array } } | undefined)?.vertexBoneRef?.data;
  const n = mesh ? mesh.positions.length / 3 : 0;
  if (mesh?.skin && refs && refs.length === n * 12) {
    const view = new DataView(refs.buffer, refs.byteOffset, refs.byteLength);
    const root = out.skeleton!.bones.length;
    const joints = new Uint16Array(mesh.skin.joints);
    const weights = new Float32Array(mesh.skin.weights);
    let unbound = 0;
    for (let i = 0; i < n; i++) {
      if (view.getInt32(i * 12, true) > 0) continue;
      joints.fill(0, i * 4, i * 4 + 4);
      weights.fill(0, i * 4, i * 4 + 4);
      joints[i * 4] = root;
      weights[i * 4] = 1;
      unbound++;
    }
    if (unbound) {
      out = {
        ...out,
        meshes: [{ ...mesh, skin: { joints, weights } }, ...out.meshes.slice(1)],
        skeleton: { bones: [...out.skeleton!.bones, { name: '(no bone)', parent: -1, matrix: [...IDENTITY] }] },
      };
    }
  }
  const extra = out.skeleton!.bones.length - (doc.modelInfo.skeleton.bones.length);
  if (pose) {
    const posed = poseOdolScene({ ...out, skeleton: { bones: out.skeleton!.bones.slice(0, out.skeleton!.bones.length - extra) } }, doc, lod, pose);
    // The bones added here (the unbound points' root) keep their rest place: their inverse bind
    // is given too, so the renderer skins with the posed matrices instead of taking them as the bind.
    const added = out.skeleton!.bones.slice(out.skeleton!.bones.length - extra).map((b) => (b.inverseBind || b.parent >= 0 ? b : { ...b, inverseBind: invert(b.matrix) ?? [...IDENTITY] }));
    return { ...posed, skeleton: { bones: [...posed.skeleton!.bones, ...added] } };
  }
  return { ...out, clips: [...out.clips, ...odolClips(out, doc, lod)] };
}
