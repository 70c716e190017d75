/**
 * Friendlier views of stored transforms: quaternions as Euler angles in degrees, 4x4 matrices as
 * position / rotation / scale. The stored form stays what the file holds; these only convert
 * what the user types into it.
 */
import { Euler, MathUtils, Matrix4, Quaternion, Vector3 } from 'three';

export type Vec3 = [number, number, number];

const round = (v: number, digits = 5) => Number(v.toFixed(digits)) + 0;

/** Quaternion (x, y, z, w) to XYZ Euler angles in degrees. */
export function quatToEulerDeg(q: readonly number[]): Vec3 {
  const e = new Euler().setFromQuaternion(new Quaternion(q[0] ?? 0, q[1] ?? 0, q[2] ?? 0, q[3] ?? 1).normalize(), 'XYZ');
  return [round(MathUtils.radToDeg(e.x), 3), round(MathUtils.radToDeg(e.y), 3), round(MathUtils.radToDeg(e.z), 3)];
}

/** XYZ Euler angles in degrees to a quaternion (x, y, z, w). */
export function eulerDegToQuat(e: readonly number[]): number[] {
  const q = new Quaternion().setFromEuler(new Euler(MathUtils.degToRad(e[0] ?? 0), MathUtils.degToRad(e[1] ?? 0), MathUtils.degToRad(e[2] ?? 0), 'XYZ'));
  return [round(q.x, 7), round(q.y, 7), round(q.z, 7), round(q.w, 7)];
}

/** A proxy's x, y, z axes (nine numbers) as XYZ Euler angles in degrees. */
export function axesToEulerDeg(axes: readonly number[]): Vec3 {
  const v = (k: number) => new Vector3(axes[k] ?? 0, axes[k + 1] ?? 0, axes[k + 2] ?? 0);
  const e = new Euler().setFromRotationMatrix(new Matrix4().makeBasis(v(0), v(3), v(6)), 'XYZ');
  return [round(MathUtils.radToDeg(e.x), 3), round(MathUtils.radToDeg(e.y), 3), round(MathUtils.radToDeg(e.z), 3)];
}

/** XYZ Euler angles in degrees to x, y, z axes (nine numbers). */
export function eulerDegToAxes(e: readonly number[]): number[] {
  const m = new Matrix4().makeRotationFromEuler(new Euler(MathUtils.degToRad(e[0] ?? 0), MathUtils.degToRad(e[1] ?? 0), MathUtils.degToRad(e[2] ?? 0), 'XYZ'));
  const x = new Vector3();
  const y = new Vector3();
  const z = new Vector3();
  m.extractBasis(x, y, z);
  return [...x.toArray(), ...y.toArray(), ...z.toArray()].map((n) => round(n, 7));
}

export interface Trs {
  position: Vec3;
  rotation: Vec3;
  scale: Vec3;
}

/** A 4x4 matrix (16 numbers, translation in 12..14) as position, Euler degrees and scale. */
export function decompose(m: readonly number[]): Trs {
  const p = new Vector3();
  const q = new Quaternion();
  const s = new Vector3();
  new Matrix4().fromArray(m as number[]).decompose(p, q, s);
  return {
    position: [round(p.x), round(p.y), round(p.z)],
    rotation: quatToEulerDeg([q.x, q.y, q.z, q.w]),
    scale: [round(s.x), round(s.y), round(s.z)],
  };
}

/** Position, Euler degrees and scale back to 16 numbers in the same layout. */
export function compose(t: Trs): number[] {
  const q = eulerDegToQuat(t.rotation);
  const m = new Matrix4().compose(new Vector3(...t.position), new Quaternion(q[0], q[1], q[2], q[3]), new Vector3(...t.scale));
  return m.toArray().map((v) => round(v, 7));
}
