/** Vector, quaternion and matrix helpers the importers share (column-major 4x4, xyzw quaternions). */
import { composeTRS, invert, multiply } from '../scene/mat4.ts';
import { decompose } from '../export/math.ts';
import type { Mat4 } from '../scene/scene.ts';

export { composeTRS, decompose, invert, multiply };

export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function isIdentity(m: readonly number[], eps = 1e-9): boolean {
  for (let i = 0; i < 16; i++) if (Math.abs(m[i]! - IDENTITY[i]!) > eps) return false;
  return true;
}

export function invertSafe(m: readonly number[]): Mat4 {
  return invert(m) ?? [...IDENTITY];
}

/** Determinant of the upper 3x3 (negative: the matrix mirrors). */
export function det3(m: readonly number[]): number {
  return m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) + m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
}

/** Transforms xyz points in place by `m`. */
export function transformPoints(p: Float32Array, m: readonly number[]): void {
  const [a, b, c, , e, f, g, , i, j, k, , x, y, z] = m as number[];
  for (let o = 0; o + 2 < p.length; o += 3) {
    const px = p[o]!, py = p[o + 1]!, pz = p[o + 2]!;
    p[o] = a! * px + e! * py + i! * pz + x!;
    p[o + 1] = b! * px + f! * py + j! * pz + y!;
    p[o + 2] = c! * px + g! * py + k! * pz + z!;
  }
}

/** The matrix normals transform by: inverse transpose of the upper 3x3 (as a 4x4 without translation). */
export function normalMatrix(m: readonly number[]): Mat4 {
  const inv = invertSafe(m);
  return [inv[0]!, inv[4]!, inv[8]!, 0, inv[1]!, inv[5]!, inv[9]!, 0, inv[2]!, inv[6]!, inv[10]!, 0, 0, 0, 0, 1];
}

/** Transforms xyz directions in place by `m` (no translation) and normalises them. */
export function transformNormals(n: Float32Array, m: readonly number[]): void {
  const [a, b, c, , e, f, g, , i, j, k] = m as number[];
  for (let o = 0; o + 2 < n.length; o += 3) {
    const px = n[o]!, py = n[o + 1]!, pz = n[o + 2]!;
    const x = a! * px + e! * py + i! * pz, y = b! * px + f! * py + j! * pz, z = c! * px + g! * py + k! * pz;
    const l = Math.hypot(x, y, z) || 1;
    n[o] = x / l; n[o + 1] = y / l; n[o + 2] = z / l;
  }
}

export function slerp(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, t: number, out: Float32Array | number[], oo: number): void {
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) { cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw; }
  let k0: number, k1: number;
  if (cos > 0.9995) { k0 = 1 - t; k1 = t; } else {
    const th = Math.acos(cos), s = Math.sin(th);
    k0 = Math.sin((1 - t) * th) / s; k1 = Math.sin(t * th) / s;
  }
  const x = k0 * ax + k1 * bx, y = k0 * ay + k1 * by, z = k0 * az + k1 * bz, w = k0 * aw + k1 * bw;
  const l = Math.hypot(x, y, z, w) || 1;
  out[oo] = x / l; out[oo + 1] = y / l; out[oo + 2] = z / l; out[oo + 3] = w / l;
}

/** q = a * b (Hamilton product, xyzw). */
export function quatMul(a: ArrayLike<number>, b: ArrayLike<number>): [number, number, number, number] {
  const [ax, ay, az, aw] = [a[0]!, a[1]!, a[2]!, a[3]!];
  const [bx, by, bz, bw] = [b[0]!, b[1]!, b[2]!, b[3]!];
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** Quaternion of a pure rotation matrix (upper 3x3 of a column-major 4x4, assumed orthonormal). */
export function matrixToQuat(m: readonly number[]): [number, number, number, number] {
  return decompose([...m.slice(0, 12), 0, 0, 0, 1]).r;
}
