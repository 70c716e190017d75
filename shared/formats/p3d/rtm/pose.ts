/**
 * RTM poses: what a frame's numbers mean, and turning BMTR's parent-relative transforms into the
 * plain RTM's model-space matrices through a skeleton.
 *
 * A plain RTM matrix (12 floats) is a 4x3 P3D matrix in row-vector convention: rows 0..2 are the
 * 3x3 part, row 3 the translation; it moves a point of the model from its rest pose (the identity
 * is the rest pose). In the scene's column-major, right-handed axes it is transposed and mirrored
 * in z like every P3D position ({@link rtmToScene}).
 *
 * A BMTR transform is a quaternion (4 x i16 / 16384, x y z w) and a position (3 half floats),
 * relative to the bone's parent and in axes turned half a turn about y (x and z negated); the
 * model-space matrix is the bone's own times its parent's, parents first (what A3OB/armaio's
 * BMTR -> RTM conversion does, checked against the armaio twin files in the corpus).
 */
import { decompose } from '../../../export/math.ts';
import type { Mat4 } from '../../../scene/scene.ts';
import { BMTR_WORDS, type BmtrDocument, type PlainRtmDocument } from './types.ts';

/** A bone of a skeleton and its parent's name ('' for a root). */
export interface SkeletonBone {
  name: string;
  parent: string;
}

/** IEEE 754 half float bits to a number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** A number to the nearest half float's bits (round to nearest even). */
export function floatToHalf(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const s = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return s | 0x7c00;
  if (a < 2 ** -24 / 2) return s;
  if (a < 2 ** -14) return s | Math.round(a / 2 ** -24);
  let e = Math.floor(Math.log2(a));
  let m = Math.round((a / 2 ** e - 1) * 1024);
  if (m === 1024) { m = 0; e++; }
  if (e > 15) return s | 0x7c00;
  return s | ((e + 15) << 10) | m;
}

/** The 12 floats (row convention) of BMTR transform `i` of a frame, relative to the bone's parent. */
export function bmtrLocalMatrix(t: Int16Array, i: number): number[] {
  const o = i * BMTR_WORDS;
  // The 16-bit words hold a unit quaternion to about 1e-4; normalised, the matrix is a rotation
  // (armaio does not normalise: a sheared matrix then compounds down the hierarchy).
  const l = Math.hypot(t[o]!, t[o + 1]!, t[o + 2]!, t[o + 3]!) || 1;
  const x = t[o]! / l, y = t[o + 1]! / l, z = t[o + 2]! / l, w = t[o + 3]! / l;
  const px = halfToFloat(t[o + 4]! & 0xffff), py = halfToFloat(t[o + 5]! & 0xffff), pz = halfToFloat(t[o + 6]! & 0xffff);
  const m00 = 1 - 2 * y * y - 2 * z * z, m01 = 2 * x * y - 2 * z * w, m02 = 2 * x * z + 2 * y * w;
  const m10 = 2 * x * y + 2 * z * w, m11 = 1 - 2 * x * x - 2 * z * z, m12 = 2 * y * z - 2 * x * w;
  const m20 = 2 * x * z - 2 * y * w, m21 = 2 * y * z + 2 * x * w, m22 = 1 - 2 * x * x - 2 * y * y;
  return [m00, -m01, m02, -m10, m11, -m12, m20, -m21, m22, -px, py, -pz];
}

/** Row-convention product of two 4x3 matrices: `a` then `b`. */
export function mul43(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(12);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 3; c++) {
      out[r * 3 + c] = a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]! + (r === 3 ? b[9 + c]! : 0);
    }
  }
  return out;
}

/** Parent index (into `bones`) of each RTM bone through `skeleton`, names compared case-insensitively; -1 for none. */
export function rtmParents(bones: readonly string[], skeleton: readonly SkeletonBone[]): number[] {
  const index = new Map<string, number>();
  bones.forEach((b, i) => index.has(b.toLowerCase()) || index.set(b.toLowerCase(), i));
  const parentOf = new Map<string, string>();
  for (const b of skeleton) parentOf.set(b.name.toLowerCase(), b.parent.toLowerCase());
  return bones.map((b) => {
    // The nearest ancestor the RTM animates (a skipped bone of the skeleton stays at rest).
    let p = parentOf.get(b.toLowerCase());
    const seen = new Set<string>();
    while (p && !seen.has(p)) {
      seen.add(p);
      const i = index.get(p);
      if (i !== undefined) return i;
      p = parentOf.get(p);
    }
    return -1;
  });
}

/**
 * The model-space matrices (12 floats per bone, plain RTM layout) of BMTR frame `k`, composed
 * through `parents` (from {@link rtmParents}). A parent loop leaves the bones in it unparented.
 */
export function bmtrFrameMatrices(doc: BmtrDocument, k: number, parents: readonly number[]): Float32Array {
  const f = doc.frames[k]!;
  const n = Math.min(doc.bones.length, f.transforms.length / BMTR_WORDS);
  const local: number[][] = [];
  for (let i = 0; i < n; i++) local.push(bmtrLocalMatrix(f.transforms, i));
  const world: (number[] | undefined)[] = new Array(n);
  const visiting = new Uint8Array(n);
  const solve = (i: number): number[] => {
    const done = world[i];
    if (done) return done;
    const p = parents[i] ?? -1;
    let m = local[i]!;
    if (p >= 0 && p < n && !visiting[p]) {
      visiting[i] = 1;
      m = mul43(m, solve(p));
      visiting[i] = 0;
    }
    world[i] = m;
    return m;
  };
  const out = new Float32Array(doc.bones.length * 12);
  for (let i = 0; i < doc.bones.length; i++) {
    if (i < n) out.set(solve(i), i * 12);
    else out.set(IDENTITY43, i * 12);
  }
  return out;
}

export const IDENTITY43: readonly number[] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

/** Plain RTM matrix (12 floats at `o`) to a scene matrix: column-major, right-handed (z mirrored). */
export function rtmToScene(m: ArrayLike<number>, o = 0): Mat4 {
  const out: Mat4 = [
    m[o]!, m[o + 1]!, m[o + 2]!, 0,
    m[o + 3]!, m[o + 4]!, m[o + 5]!, 0,
    m[o + 6]!, m[o + 7]!, m[o + 8]!, 0,
    m[o + 9]!, m[o + 10]!, m[o + 11]!, 1,
  ];
  return mirrorZ(out);
}

/** A scene matrix back to the 12 floats of a plain RTM matrix. */
export function sceneToRtm(s: readonly number[]): number[] {
  const m = mirrorZ([...s]);
  return [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!, m[12]!, m[13]!, m[14]!];
}

/** S·M·S with S = diag(1, 1, -1, 1), in place on a column-major matrix. */
function mirrorZ(m: Mat4): Mat4 {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) if ((r === 2) !== (c === 2)) m[c * 4 + r] = -m[c * 4 + r]!;
  }
  return m;
}

/** BMTR -> plain RTM through a skeleton: bones, phases, properties and motion kept (A3OB's conversion). */
export function bmtrToPlain(doc: BmtrDocument, skeleton: readonly SkeletonBone[]): PlainRtmDocument {
  const parents = rtmParents(doc.bones, skeleton);
  const nb = doc.bones.length;
  const frames = doc.frames.map((_, k) => ({
    phase: doc.phases[k] ?? (doc.frames.length > 1 ? k / (doc.frames.length - 1) : 0),
    names: new Uint8Array(0),
    matrices: bmtrFrameMatrices(doc, k, parents),
  }));
  return {
    kind: 'rtm', mdat: doc.properties.length > 0, mdatReserved: 0,
    properties: doc.properties.map((p) => ({ phase: p.phase, name: p.name, value: p.value })),
    motion: [...doc.motion], frameCount: frames.length, boneCount: nb, bones: [...doc.bones],
    boneFields: new Uint8Array(0), frames,
  };
}

/** Translation, rotation and scale of a scene matrix (scene axes), for animation channels. */
export function sceneTrs(m: Mat4): ReturnType<typeof decompose> {
  return decompose(m);
}
