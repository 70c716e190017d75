/**
 * Reference geometry for the animation tests, written apart from the code under test: Rodrigues'
 * rotation of a point about a line.
 */
export type V3 = [number, number, number];

/** `p` rotated about the line through `c` along `k` by `angle` radians, right-handed in the given coordinates. */
export function rotateAbout(p: V3, c: V3, k: V3, angle: number): V3 {
  const l = Math.hypot(...k);
  const u: V3 = [k[0] / l, k[1] / l, k[2] / l];
  const v: V3 = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
  const cross: V3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const cs = Math.cos(angle), sn = Math.sin(angle);
  return [0, 1, 2].map((a) => c[a]! + v[a]! * cs + cross[a]! * sn + u[a]! * dot * (1 - cs)) as V3;
}
