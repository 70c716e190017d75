/**
 * glTF -> plain RTM (`lodsmith import IN.glb OUT.rtm [--anim NAME|INDEX]`): one bone per skin
 * joint (named as the joint), one frame per key time of the clip (phase = time / duration: the
 * clip's own, or the one given, so that an RTM exported with `--duration D` comes back with its
 * phases when imported with the same D),
 * each bone's matrix the joint's skinning matrix (world x inverse bind) in P3D axes. Without a
 * skin the bones are the nodes the clip drives and their matrix is their world transform.
 */
import { encodeText } from '../../../binary/text.ts';
import type { WriterOptions } from '../../../import/common.ts';
import type { GltfImporter } from '../../capabilities.ts';
import { ImportError } from '../../../import/errors.ts';
import { composeTRS, invertSafe, multiply } from '../../../import/math.ts';
import type { ImportModel } from '../../../import/model.ts';
import { pickClip, sampleChannel } from '../../../import/resample.ts';
import { chargeAllocation } from '../../../binary/budget.ts';
import type { Mat4 } from '../../../scene/scene.ts';
import { sceneToRtm } from './pose.ts';
import { NAME_FIELD, type PlainRtmDocument } from './types.ts';

export function modelToRtm(model: ImportModel, opts: WriterOptions = {}): { doc: PlainRtmDocument; warnings: string[] } {
  const warnings = [...model.warnings];
  const clip = pickClip(model, opts.anim);
  if (!clip) {
    if (opts.anim !== undefined) throw new ImportError(`no animation named or numbered "${opts.anim}" (the file has ${model.clips.map((c) => `"${c.name}"`).join(', ') || 'none'})`, 'animations');
    throw new ImportError('the file has no animation', 'animations');
  }
  const driven = [...new Set(clip.channels.map((c) => c.node))].sort((a, b) => a - b);
  const skinned = model.joints.length > 0;
  const boneNodes = skinned ? model.joints : driven;
  if (boneNodes.length === 0) throw new ImportError('the animation drives no node', 'animations');
  const inverseBind: Mat4[] = skinned ? model.jointWorld.map((w) => invertSafe(w)) : boneNodes.map(() => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const bones = boneNodes.map((n) => model.nodes[n]!.name);
  bones.forEach((b, i) => {
    const len = encodeText(b, 'latin1').length;
    if (len === 0 || len > NAME_FIELD - 1) throw new ImportError(`joint name "${b}" does not fit an RTM bone name (1 to ${NAME_FIELD - 1} bytes)`, `nodes/${boneNodes[i]}`);
  });
  const lower = new Set<string>();
  for (const b of bones) {
    if (lower.has(b.toLowerCase())) throw new ImportError(`two joints are named "${b}" (RTM bones are told apart without case)`, 'nodes');
    lower.add(b.toLowerCase());
  }
  // One frame per distinct key time of the clip.
  const keyTimes = new Set<number>();
  for (const ch of clip.channels) for (const t of ch.times) keyTimes.add(Math.fround(t));
  const times = [...keyTimes].filter((t) => t >= 0).sort((a, b) => a - b);
  if (times.length === 0) times.push(0);
  const nn = model.nodes.length;
  chargeAllocation(times.length * (bones.length * 60 + nn * 40), 'sampled animation', 0, `animation "${clip.name}"`);
  const duration = opts.duration !== undefined && opts.duration > 0 ? opts.duration : clip.duration;
  const byNode = new Map<number, typeof clip.channels>();
  for (const c of clip.channels) byNode.set(c.node, [...(byNode.get(c.node) ?? []), c]);
  const T = new Float32Array(3), R = new Float32Array(4), S = new Float32Array(3);
  const frames: PlainRtmDocument['frames'] = [];
  for (const t of times) {
    // Every node is posed: a bone's world transform goes through ancestors that may move too.
    const world: (Mat4 | undefined)[] = new Array(nn);
    const worldOf = (n: number, depth = 0): Mat4 => {
      const done = world[n];
      if (done) return done;
      const node = model.nodes[n]!;
      T.set(node.t); R.set(node.r); S.set(node.s);
      for (const ch of byNode.get(n) ?? []) sampleChannel(ch, t, ch.path === 'translation' ? T : ch.path === 'rotation' ? R : S, 0);
      const local = composeTRS(T, R, S);
      const p = node.parent;
      const w = p >= 0 && depth < nn ? multiply(worldOf(p, depth + 1), local) : local;
      world[n] = w;
      return w;
    };
    const matrices = new Float32Array(bones.length * 12);
    boneNodes.forEach((n, i) => matrices.set(sceneToRtm(multiply(worldOf(n), inverseBind[i]!)), i * 12));
    frames.push({ phase: Math.fround(duration > 0 ? Math.min(1, t / duration) : 0), names: new Uint8Array(0), matrices });
  }
  if (frames.length === 1) warnings.push('the animation has one pose: the RTM has one frame');
  return {
    doc: {
      kind: 'rtm', mdat: false, mdatReserved: 0, properties: [], motion: [0, 0, 0],
      frameCount: frames.length, boneCount: bones.length, bones, boneFields: new Uint8Array(0), frames,
    },
    warnings,
  };
}

/** The RTM import writer (capabilities.ts). */
export const rtmImporter: GltfImporter = {
  nameEncoding: 'latin1',
  write: (model, opts) => modelToRtm(model, opts),
};
