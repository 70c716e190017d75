/**
 * The little matrix arithmetic the glTF exporter needs. Column-major 4x4 like the Scene and glTF.
 * Kept here (not a math library) because the exporter only multiplies, inverts and decomposes,
 * and must survive garbage matrices from damaged files without producing NaN.
 */
import type { Mat4 } from '../scene/scene.ts';
import { invert, multiply } from '../scene/mat4.ts';

export { invert, multiply };

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

export const IDENTITY4: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A 16-number matrix with only finite values, else identity. */
export function finiteMatrix(m: Mat4 | undefined): Mat4 {
  if (!m || m.length !== 16) return [...IDENTITY4];
  for (const v of m) if (!Number.isFinite(v)) return [...IDENTITY4];
  return [...m];
}

/** Unit quaternion, or identity when the input has no direction. */
export function normalizeQuat(x: number, y: number, z: number, w: number): Quat {
  const l = Math.hypot(x, y, z, w);
  if (!(l > 1e-12) || !Number.isFinite(l)) return [0, 0, 0, 1];
  return [x / l, y / l, z / l, w / l];
}

/**
 * Translation, rotation, scale of an affine matrix. glTF nodes must hold a decomposable
 * transform, so shear is dropped and a mirroring matrix becomes a negative X scale.
 */
export function decompose(m: Mat4): { t: Vec3; r: Quat; s: Vec3 } {
  const f = finiteMatrix(m);
  const t: Vec3 = [f[12]!, f[13]!, f[14]!];
  let sx = Math.hypot(f[0]!, f[1]!, f[2]!);
  const sy = Math.hypot(f[4]!, f[5]!, f[6]!);
  const sz = Math.hypot(f[8]!, f[9]!, f[10]!);
  const det =
    f[0]! * (f[5]! * f[10]! - f[6]! * f[9]!) - f[4]! * (f[1]! * f[10]! - f[2]! * f[9]!) + f[8]! * (f[1]! * f[6]! - f[2]! * f[5]!);
  if (det < 0) sx = -sx;
  if (!(Math.abs(sx) > 1e-12) || !(sy > 1e-12) || !(sz > 1e-12)) {
    // A collapsed axis has no rotation to recover: keep the scale, drop the rotation.
    return { t, r: [0, 0, 0, 1], s: [sx || 0, sy || 0, sz || 0] };
  }
  const m00 = f[0]! / sx, m01 = f[4]! / sy, m02 = f[8]! / sz;
  const m10 = f[1]! / sx, m11 = f[5]! / sy, m12 = f[9]! / sz;
  const m20 = f[2]! / sx, m21 = f[6]! / sy, m22 = f[10]! / sz;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return { t, r: normalizeQuat(...q), s: [sx, sy, sz] };
}

/**
 * Parent indices with every broken link (out of range, self, cycle) turned into a root, so a
 * damaged hierarchy still exports as a tree.
 */
export function saneParents(parents: readonly number[]): number[] {
  const n = parents.length;
  const out = parents.map((p) => (Number.isInteger(p) && p >= 0 && p < n ? p : -1));
  for (let i = 0; i < n; i++) {
    let cur = out[i]!;
    let steps = 0;
    while (cur >= 0 && steps <= n) {
      if (cur === i) break;
      cur = out[cur]!;
      steps++;
    }
    if (cur === i || steps > n) out[i] = -1;
  }
  return out;
}

/** World matrices of a hierarchy from local ones (parents must be sane). */
export function worldMatrices(locals: readonly Mat4[], parents: readonly number[]): Mat4[] {
  const world: (Mat4 | undefined)[] = new Array(locals.length);
  const get = (i: number): Mat4 => {
    const done = world[i];
    if (done) return done;
    // Iterative walk up so deep chains cannot overflow the stack.
    const chain: number[] = [];
    let cur = i;
    while (cur >= 0 && !world[cur]) {
      chain.push(cur);
      cur = parents[cur]!;
    }
    let acc = cur >= 0 ? world[cur]! : IDENTITY4;
    for (let k = chain.length - 1; k >= 0; k--) {
      const idx = chain[k]!;
      acc = multiply(acc, finiteMatrix(locals[idx]));
      world[idx] = acc;
    }
    return world[i]!;
  };
  return locals.map((_, i) => get(i));
}
