/**
 * model.cfg animations in the neutral scene: the LOD's mesh skinned to the skeleton's bones (a root
 * joint holds every point no bone moves), and one clip per animation source sweeping its range, so
 * a glTF viewer (and the preview's clip player) opens the doors. Joints rest at the identity, so a
 * joint's transform is the bone's model-space motion itself; a hidden bone scales to zero.
 */
import { decompose } from '../../../export/math.ts';
import { invert, multiply } from '../../../scene/mat4.ts';
import type { AnimationClip, AnimationTrack, Scene } from '../../../scene/scene.ts';
import { IDENTITY } from '../../../scene/scene.ts';
import type { SceneOptions } from '../../registry.ts';
import { bindProxies, mlodToScene, pickLod, proxyPoints } from '../mlod/scene.ts';
import { selectionWeight, type MlodDocument } from '../mlod/types.ts';
import { poseForLod, selectionOf } from './pose-mlod.ts';
import { animationSources, type CfgModel, type CfgSkeleton } from './model.ts';
import type { Mat } from './animate.ts';

/** Keys per source clip, and the clip's length in seconds. */
const FRAMES = 31;
const SECONDS = 2;

/** P3D (left-handed) -> scene axes: z negated on both sides. */
function toSceneAxes(m: Mat): Mat {
  const f = [...m];
  f[2] = -f[2]!; f[6] = -f[6]!; f[14] = -f[14]!;
  f[8] = -f[8]!; f[9] = -f[9]!; f[11] = -f[11]!;
  return f;
}

/** The scene of one LOD (as `mlodToScene` builds it) with a skin and one clip per source. */
export function riggedMlodScene(doc: MlodDocument, model: CfgModel, skeleton: CfgSkeleton | undefined, opts: SceneOptions = {}): Scene {
  const scene = mlodToScene(doc, opts);
  const li = pickLod(doc, opts.lod);
  const mesh = scene.meshes[0];
  const bones = skeleton?.bones ?? [];
  if (li < 0 || !mesh || bones.length === 0) return scene;
  const lod = doc.lods[li]!;
  const n = lod.pointFlags.length;
  // Which point each scene vertex came from: the same scene built from points numbered 0..n-1.
  const numbered = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) numbered[i * 3] = i;
  const idx = mlodToScene({ ...doc, lods: doc.lods.map((l, k) => (k === li ? { ...l, points: numbered } : l)) }, opts).meshes[0]!.positions;
  // Per point: up to four (joint, weight); joint 0 is the root.
  const discrete = skeleton?.isDiscrete ?? true;
  const pj: number[][] = Array.from({ length: n }, () => []);
  const pw: number[][] = Array.from({ length: n }, () => []);
  bones.forEach((b, bi) => {
    const s = selectionOf(lod, b.name);
    if (!s) return;
    for (let i = 0; i < Math.min(n, s.points.length); i++) {
      const w = selectionWeight(s.points[i]!);
      if (w > 0) {
        pj[i]!.push(bi + 1);
        pw[i]!.push(w);
      }
    }
  });
  const vc = mesh.positions.length / 3;
  const joints = new Uint16Array(vc * 4);
  const weights = new Float32Array(vc * 4);
  for (let v = 0; v < vc; v++) {
    const p = Math.round(idx[v * 3]!);
    let js = pj[p] ?? [];
    let ws = pw[p] ?? [];
    if (discrete && js.length > 1) {
      const best = ws.indexOf(Math.max(...ws));
      js = [js[best]!];
      ws = [1];
    }
    const order = ws.map((_, k) => k).sort((a, b) => ws[b]! - ws[a]!).slice(0, 4);
    let sum = order.reduce((s, k) => s + ws[k]!, 0);
    let slot = 0;
    if (sum > 1) for (const k of order) ws[k] = ws[k]! / sum;
    if (sum > 1) sum = 1;
    for (const k of order) {
      joints[v * 4 + slot] = js[k]!;
      weights[v * 4 + slot] = ws[k]!;
      slot++;
    }
    if (sum < 1 && slot < 4) {
      joints[v * 4 + slot] = 0;
      weights[v * 4 + slot] = 1 - sum;
    }
  }
  mesh.skin = { joints, weights };
  // A proxy moves with the strongest joint at its triangle's first corner.
  bindProxies(scene.proxies, proxyPoints(lod, li), (p) => {
    const ws = pw[p];
    return ws?.length ? pj[p]![ws.indexOf(Math.max(...ws))] : undefined;
  });
  const index = new Map(bones.map((b, i) => [b.name.toLowerCase(), i] as const));
  const parentOf = bones.map((b, i) => {
    const p = b.parent ? index.get(b.parent.toLowerCase()) : undefined;
    return p !== undefined && p < i ? p : -1;
  });
  scene.skeleton = {
    bones: [{ name: `${model.name} root`, parent: -1, matrix: [...IDENTITY] }, ...bones.map((b, i) => ({ name: b.name, parent: parentOf[i]! + 1, matrix: [...IDENTITY] }))],
  };
  scene.clips = animationSources(model).map((src): AnimationClip => {
    const times = new Float32Array(FRAMES);
    const locals: { t: number[]; r: number[]; s: number[] }[] = bones.map(() => ({ t: [], r: [], s: [] }));
    for (let k = 0; k < FRAMES; k++) {
      const f = k / (FRAMES - 1);
      times[k] = f * SECONDS;
      const poses = poseForLod(doc, lod, model, skeleton, new Map([[src.name.toLowerCase(), src.min + (src.max - src.min) * f]]));
      const world = poses.map((p) => toSceneAxes(p.matrix));
      poses.forEach((p, bi) => {
        const pi = parentOf[bi]!;
        const local = pi >= 0 ? multiply(invert(world[pi]!) ?? [...IDENTITY], world[bi]!) : world[bi]!;
        const d = decompose(local);
        locals[bi]!.t.push(...d.t);
        locals[bi]!.r.push(...d.r);
        locals[bi]!.s.push(...(p.hidden ? [0, 0, 0] : d.s));
      });
    }
    const tracks: AnimationTrack[] = [];
    locals.forEach((l, bi) => {
      const still = (a: number[], size: number): boolean => a.every((x, i) => Math.abs(x - a[i % size]!) < 1e-7);
      if (still(l.t, 3) && still(l.r, 4) && still(l.s, 3)) return;
      tracks.push({ bone: bi + 1, targetName: bones[bi]!.name, target: 'bone', times, translations: Float32Array.from(l.t), rotations: Float32Array.from(l.r), scales: Float32Array.from(l.s) });
    });
    return { name: src.name, duration: SECONDS, frames: FRAMES, tracks };
  });
  return scene;
}
