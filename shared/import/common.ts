/** Pieces every format writer of the importer uses. */
import { encodeText, type TextEncoding } from '../binary/text.ts';
import type { Mat4 } from '../scene/scene.ts';
import { ImportError } from './errors.ts';
import { composeTRS, multiply } from './math.ts';
import type { SampledClip } from './resample.ts';
import type { ImportMesh, ImportModel } from './model.ts';
import { warnOnce } from './model.ts';

export interface WriterOptions {
  /** Format version to write (`.mesh`: ms10, ms11, ms14, mr02; `.animation`: 1 or 2). */
  version?: string;
  /** The animation to import (name or index), for animation files and clip-holding formats. */
  anim?: string;
  /** Keep the strongest influences when a vertex has more than the format holds (else refuse). */
  limitInfluences?: boolean;
  /** Animations with relative timing (RTM phases): seconds that phase 1 is (default: the clip's duration). */
  duration?: number;
}

/**
 * A mesh's skin with at most `max` influences per vertex (strongest kept, renormalised). More
 * than `max` non-zero weights is refused unless `limit` is set; then it is a warning.
 */
export function cappedSkin(mesh: ImportMesh, max: number, limit: boolean | undefined, format: string, warnings: string[]): { joints: Uint16Array; weights: Float32Array } | undefined {
  const sk = mesh.skin;
  if (!sk) return undefined;
  const n = mesh.positions.length / 3;
  const joints = new Uint16Array(n * max);
  const weights = new Float32Array(n * max);
  let capped = 0;
  for (let v = 0; v < n; v++) {
    const o = v * sk.influences;
    let used = 0;
    for (let k = 0; k < sk.influences; k++) if (sk.weights[o + k]! > 0) used++;
    if (used > max) {
      if (!limit) throw new ImportError(`vertex ${v} has ${used} joint influences; a ${format} holds ${max} (--limit-influences keeps the strongest ${max})`, mesh.path);
      capped++;
    }
    let sum = 0;
    const k2 = Math.min(max, sk.influences);
    for (let k = 0; k < k2; k++) sum += sk.weights[o + k]!;
    for (let k = 0; k < k2; k++) {
      joints[v * max + k] = sk.joints[o + k]!;
      weights[v * max + k] = sum > 0 ? sk.weights[o + k]! / sum : k === 0 ? 1 : 0;
    }
  }
  if (capped) warnOnce(warnings, `mesh "${mesh.name}": ${capped} vertex(es) had more than ${max} influences; the strongest ${max} kept`);
  return { joints, weights };
}

/** Bounds of xyz points. */
export function boundsOf(p: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = p[i + k]!;
      if (x < min[k]!) min[k] = x;
      if (x > max[k]!) max[k] = x;
    }
  }
  if (min[0] === Infinity) return { min: [0, 0, 0], max: [0, 0, 0] };
  return { min, max };
}

/** Names made unique by a numeric suffix (formats that bind by name need that). */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = seen.get(n) ?? 0;
    seen.set(n, k + 1);
    return k === 0 ? n : `${n}.${k}`;
  });
}

export function requireMeshes(model: ImportModel): void {
  if (!model.meshes.some((m) => m.indices.length > 0 || (m.points?.length ?? 0) > 0)) throw new ImportError('the file has no meshes with triangles to import', 'meshes');
}

/**
 * The bones an animation file carries: the skin joints when the file has a skin, else every node
 * the clip drives plus their ancestors (a standalone animation exported without its model).
 */
export function animationBones(model: ImportModel, driven: readonly number[]): number[] {
  if (model.joints.length) return model.joints;
  const set = new Set<number>();
  for (const n of driven) {
    let p = n;
    while (p >= 0 && !set.has(p)) {
      set.add(p);
      p = model.nodes[p]!.parent;
    }
  }
  return [...set].sort((a, b) => a - b);
}

/** Parent of each bone within `bones` (nearest ancestor that is a bone), -1 for a root. */
export function boneParents(model: ImportModel, bones: readonly number[]): number[] {
  const index = new Map(bones.map((n, i) => [n, i]));
  return bones.map((n) => {
    let p = model.nodes[n]!.parent;
    while (p >= 0) {
      const i = index.get(p);
      if (i !== undefined) return i;
      p = model.nodes[p]!.parent;
    }
    return -1;
  });
}

/**
 * For each bone: the rest transform of the nodes between it and its parent bone (exclusive of
 * both), so a bone's transform relative to its parent bone is `between * local`. Roots get the
 * world transform of their ancestors, pre-multiplied by `rootAxes` (a format's axis change).
 */
export function boneBetween(model: ImportModel, bones: readonly number[], rootAxes: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]): Mat4[] {
  const parents = boneParents(model, bones);
  return bones.map((n, i) => {
    const stop = parents[i]! >= 0 ? bones[parents[i]!]! : -1;
    let m: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    let p = model.nodes[n]!.parent;
    while (p >= 0 && p !== stop) {
      m = multiply(model.nodes[p]!.local, m);
      p = model.nodes[p]!.parent;
    }
    return stop < 0 ? multiply(rootAxes, m) : m;
  });
}

/** Bone transforms relative to the parent bone, at rest. */
export function boneRest(model: ImportModel, bones: readonly number[], between: readonly Mat4[]): Mat4[] {
  return bones.map((n, i) => multiply(between[i]!, model.nodes[n]!.local));
}

/** Bone transforms relative to the parent bone, per frame (frame-major) from a sampled clip over `bones`. */
export function boneFrames(s: SampledClip, between: readonly Mat4[]): Mat4[] {
  const nb = s.nodes.length;
  const out: Mat4[] = [];
  for (let f = 0; f < s.frames; f++) {
    for (let b = 0; b < nb; b++) {
      const o = f * nb + b;
      out.push(multiply(between[b]!, composeTRS(s.translations.subarray(o * 3, o * 3 + 3), s.rotations.subarray(o * 4, o * 4 + 4), s.scales.subarray(o * 3, o * 3 + 3))));
    }
  }
  return out;
}

/** `s` with every character `enc` cannot hold (and NUL) replaced by `_`. */
export function encodableText(s: string, enc: TextEncoding): string {
  let out = '';
  for (const ch of s) {
    let ok = ch !== '\u0000';
    if (ok) {
      try {
        encodeText(ch, enc);
      } catch {
        ok = false;
      }
    }
    out += ok ? ch : '_';
  }
  return out;
}

/**
 * Makes every name and path of the model writable in the format's text encoding (LODka: cp1251,
 * the others: latin1); each name changed is one warning.
 */
export function encodableNames(model: ImportModel, enc: TextEncoding): void {
  const fix = (s: string, what: string): string => {
    const t = encodableText(s, enc);
    if (t !== s) warnOnce(model.warnings, `${what} "${s}" has characters ${enc} cannot hold; written as "${t}"`);
    return t;
  };
  for (const n of model.nodes) {
    n.name = fix(n.name, 'node name');
    if (Array.isArray(n.extras.selections)) n.extras.selections = n.extras.selections.map((x) => (typeof x === 'string' ? fix(x, 'selection name') : x));
  }
  for (const m of model.meshes) m.name = fix(m.name, 'mesh name');
  for (const m of model.materials) {
    m.name = fix(m.name, 'material name');
    if (m.texture) m.texture = fix(m.texture, 'texture path');
    for (const k of ['texture', 'rvmat', 'material'] as const) if (typeof m.extras[k] === 'string') m.extras[k] = fix(m.extras[k] as string, `material ${k}`);
  }
  for (const c of model.clips) c.name = fix(c.name, 'animation name');
  for (const s of model.scenes) s.name = fix(s.name, 'scene name');
}
