/**
 * P3D proxies in the neutral scene (MLOD and ODOL alike). A proxy is a place where the game draws
 * another model; the file marks it with a placeholder triangle that the game never draws
 * (MLOD: the faces of a `proxy:path.NNN` named selection; ODOL: the section the binarizer flags
 * hidden, which each proxy names by its section index). See the format NOTES.
 *
 * Everything here is in P3D's left-handed axes on the way in and the scene's right-handed axes
 * (z negated) on the way out.
 */
import type { Mat4, SceneProxy } from '../../scene/scene.ts';
import type { NodePath } from '../../model/path.ts';

/**
 * ODOL section `special` bit the binarizer sets on the proxy placeholder section (and on no other
 * section in any corpus file): the engine's "hidden" face flag.
 */
export const ODOL_SECTION_HIDDEN = 0x10000000;

/** `proxy:\ca\weapons\ak74.001` -> name and number; undefined for other selection names. */
export function parseProxySelection(selection: string): { name: string; index?: number } | undefined {
  const m = /^proxy:(.*?)(?:\.(\d+))?$/i.exec(selection);
  if (!m) return undefined;
  return { name: m[1]!, ...(m[2] !== undefined ? { index: Number(m[2]) } : {}) };
}

/** An ODOL proxy transform (three basis vectors, then the position) -> a scene matrix. */
export function p3dTransformToScene(raw: ArrayLike<number>): Mat4 {
  // A NaN or an infinity in a stored transform places the marker as if it were 0.
  const m = Array.from(raw, Number);
  // S M S with S = diag(1, 1, -1), as for every other P3D position.
  return [
    m[0]!, m[1]!, -m[2]!, 0,
    m[3]!, m[4]!, -m[5]!, 0,
    -m[6]!, -m[7]!, m[8]!, 0,
    m[9]!, m[10]!, -m[11]!, 1,
  ].map((x) => (Number.isFinite(x) ? x + 0 : 0)); // + 0: no -0 from the negations
}

/**
 * The frame a placeholder triangle stands for, from its three corners in scene axes: the origin
 * is the corner nearest a right angle, y runs along the longer leg, z along the shorter one
 * (Object Builder's proxy triangle, read as the proxies editor reads it: `../editor.ts`).
 */
export function triangleFrame(t: ArrayLike<number>): Mat4 {
  const p = [0, 1, 2].map((k) => [t[k * 3]!, t[k * 3 + 1]!, t[k * 3 + 2]!] as [number, number, number]);
  const sub = (a: number[], b: number[]) => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
  const len = (a: number[]) => Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  let best = 0;
  let bestCos = Infinity;
  for (let k = 0; k < 3; k++) {
    const u = sub(p[(k + 1) % 3]!, p[k]!);
    const v = sub(p[(k + 2) % 3]!, p[k]!);
    const c = Math.abs((u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!) / (len(u) * len(v)));
    if (c < bestCos) {
      bestCos = c;
      best = k;
    }
  }
  const o = p[best]!;
  let a = sub(p[(best + 1) % 3]!, o);
  let b = sub(p[(best + 2) % 3]!, o);
  if (len(a) < len(b)) [a, b] = [b, a];
  const y = a.map((x) => x / len(a));
  const z = b.map((x) => x / len(b));
  const x = [y[1]! * z[2]! - y[2]! * z[1]!, y[2]! * z[0]! - y[0]! * z[2]!, y[0]! * z[1]! - y[1]! * z[0]!];
  return [x[0]!, x[1]!, x[2]!, 0, y[0]!, y[1]!, y[2]!, 0, z[0]!, z[1]!, z[2]!, 0, o[0], o[1], o[2], 1];
}

/**
 * Hands each placeholder triangle (9 floats, scene axes) to the proxy whose position is nearest
 * one of its corners; the ODOL placeholder section holds every proxy's triangle at once.
 */
export function assignPlaceholders(proxies: SceneProxy[], triangles: Float32Array): void {
  if (!proxies.length) return;
  const parts: number[][] = proxies.map(() => []);
  for (let t = 0; t + 9 <= triangles.length; t += 9) {
    let best = 0;
    let bestD = Infinity;
    proxies.forEach((px, i) => {
      for (let k = 0; k < 3; k++) {
        const d = Math.hypot(triangles[t + k * 3]! - px.matrix[12]!, triangles[t + k * 3 + 1]! - px.matrix[13]!, triangles[t + k * 3 + 2]! - px.matrix[14]!);
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
    });
    for (let k = 0; k < 9; k++) parts[best]!.push(triangles[t + k]!);
  }
  proxies.forEach((px, i) => {
    if (parts[i]!.length) px.placeholder = Float32Array.from(parts[i]!);
  });
}

/** A proxy record for the scene. */
export function sceneProxy(name: string, matrix: Mat4, source: NodePath, index?: number): SceneProxy {
  return { name, matrix, source, ...(index !== undefined ? { index } : {}) };
}
