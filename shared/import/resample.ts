/**
 * Animation resampling: the formats store one pose per frame at a fixed rate, glTF stores keys at
 * any times. A clip is sampled at `frames` evenly spaced times from 0 to its duration; each node's
 * local translation, rotation and scale start from its rest pose and take the channel values
 * (linear, spherical-linear for rotations, or step).
 */
import { chargeAllocation } from '../binary/budget.ts';
import type { ImportChannel, ImportClip, ImportModel } from './model.ts';
import { slerp } from './math.ts';

/** Samples one channel at time t into out[oo...]. */
export function sampleChannel(ch: ImportChannel, t: number, out: Float32Array, oo: number): void {
  const dim = ch.path === 'rotation' ? 4 : 3;
  const T = ch.times, V = ch.values;
  const n = T.length;
  if (n === 0) return;
  if (t <= T[0]!) { for (let k = 0; k < dim; k++) out[oo + k] = V[k]!; return; }
  if (t >= T[n - 1]!) { for (let k = 0; k < dim; k++) out[oo + k] = V[(n - 1) * dim + k]!; return; }
  // Binary search for the key interval.
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (T[mid]! <= t) lo = mid; else hi = mid;
  }
  const span = T[hi]! - T[lo]!;
  const u = ch.interpolation === 'STEP' || !(span > 0) ? 0 : (t - T[lo]!) / span;
  if (dim === 4) slerp(V, lo * 4, V, hi * 4, u, out, oo);
  else for (let k = 0; k < 3; k++) out[oo + k] = V[lo * 3 + k]! * (1 - u) + V[hi * 3 + k]! * u;
}

export interface SampledClip {
  name: string;
  frames: number;
  /** Seconds per frame. */
  step: number;
  /** Nodes the clip drives (model node indices). */
  nodes: number[];
  /** Per frame, per node (in `nodes` order): xyz. */
  translations: Float32Array;
  /** Per frame, per node: xyzw. */
  rotations: Float32Array;
  /** Per frame, per node: xyz. */
  scales: Float32Array;
}

/**
 * The frame step a clip's keys already use, when every channel has evenly spaced keys on one
 * common grid (so a file made at that rate comes back at that rate); undefined otherwise.
 */
export function detectStep(clip: ImportClip): number | undefined {
  let step: number | undefined;
  for (const ch of clip.channels) {
    const T = ch.times;
    if (T.length < 2) continue;
    const d = (T[T.length - 1]! - T[0]!) / (T.length - 1);
    if (!(d > 0)) return undefined;
    for (let k = 1; k < T.length; k++) if (Math.abs(T[k]! - T[k - 1]! - d) > 1e-4 * Math.max(1, d)) return undefined;
    if (Math.abs(T[0]! / d - Math.round(T[0]! / d)) > 1e-3) return undefined;
    if (step === undefined) step = d;
    else if (Math.abs(step - d) > 1e-5 * step) {
      const ratio = Math.max(step, d) / Math.min(step, d);
      if (Math.abs(ratio - Math.round(ratio)) > 1e-3) return undefined;
      step = Math.min(step, d);
    }
  }
  return step;
}

/**
 * Samples `clip` every `step` seconds for the given nodes (default: every node a channel drives).
 * The frame count is the duration in steps, rounded, plus one.
 */
export function resample(model: ImportModel, clip: ImportClip, step: number, nodes?: number[]): SampledClip {
  const driven = nodes ?? [...new Set(clip.channels.map((c) => c.node))].sort((a, b) => a - b);
  const frames = Math.max(1, Math.round(clip.duration / step) + 1);
  const nb = driven.length;
  chargeAllocation(frames * nb * 40, 'resampled animation', 0, `animation "${clip.name}"`);
  const T = new Float32Array(frames * nb * 3);
  const R = new Float32Array(frames * nb * 4);
  const S = new Float32Array(frames * nb * 3);
  const byNode = new Map<number, ImportChannel[]>();
  for (const c of clip.channels) {
    const list = byNode.get(c.node) ?? [];
    list.push(c);
    byNode.set(c.node, list);
  }
  driven.forEach((n, b) => {
    const node = model.nodes[n]!;
    const chans = byNode.get(n) ?? [];
    for (let f = 0; f < frames; f++) {
      const o = f * nb + b;
      T.set(node.t, o * 3);
      R.set(node.r, o * 4);
      S.set(node.s, o * 3);
      const t = Math.min(f * step, clip.duration);
      for (const ch of chans) {
        if (ch.path === 'translation') sampleChannel(ch, t, T, o * 3);
        else if (ch.path === 'rotation') sampleChannel(ch, t, R, o * 4);
        else sampleChannel(ch, t, S, o * 3);
      }
    }
  });
  return { name: clip.name, frames, step, nodes: driven, translations: T, rotations: R, scales: S };
}

/** The clip `--anim` names (by name or index); the first when none is named. */
export function pickClip(model: ImportModel, anim: string | undefined): ImportClip | undefined {
  if (anim === undefined) return model.clips[0];
  const byName = model.clips.find((c) => c.name === anim);
  if (byName) return byName;
  if (/^\d+$/.test(anim)) return model.clips[Number(anim)];
  return undefined;
}
