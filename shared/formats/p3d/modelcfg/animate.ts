/**
 * The animation evaluator: source values -> one transform per skeleton bone (and whether the bone
 * is hidden), as the game computes it from model.cfg. Works in P3D model space (left-handed,
 * x right, y up, z forward: the coordinates the files store); the scene's z flip comes after.
 *
 * Per animation: the source value goes through `sourceAddress` over [minPhase, maxPhase]
 * (clamp / loop / mirror), then is mapped linearly from [minValue, maxValue] to [0, 1] (clamped),
 * then to [angle0, angle1] or [offset0, offset1]. A bone's own animations apply in config order;
 * a child bone's points also move with every ancestor (world = parent world x own).
 * See NOTES.md for the choices the wiki leaves open (rotation sign, hide threshold).
 *
 * The same evaluator plays an ODOL model's compiled animations (`odol-animations.ts` turns them
 * into the `PoseAnimation` records below).
 */
import type { AnimationParams, AnimationType } from './model.ts';

export type Vec3 = [number, number, number];
/** 4x4 column-major (glTF / three.js order). */
export type Mat = number[];

/** What the evaluator needs of one animation; model.cfg's CfgAnimation and ODOL's compiled records both give it. */
export interface PoseAnimation extends AnimationParams {
  name: string;
  type: AnimationType;
  source: string;
  /** The bone (selection) it moves. */
  selection: string;
}

/** The axis of an animation: a point it turns about or moves from, and the far point (or a direction). */
export interface Axis {
  begin: Vec3;
  /** Absent for a one-point axis (rotationX/Y/Z centre). */
  end?: Vec3;
}

/**
 * A positive angle turns right-handed about the axis (begin -> end) in the file's own coordinates
 * (the Rodrigues formula on the stored, left-handed numbers). Settled on the corpus bear trap, whose
 * jaws must close upwards (NOTES.md, "Sign of rotation"); test/unit/modelcfg-odol.test.ts holds it.
 */
export const ROTATION_SIGN = 1;

export const IDENTITY_MAT: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function mul(a: Mat, b: Mat): Mat {
  const o = new Array<number>(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      o[c * 4 + r] = s;
    }
  return o;
}

export function transformPoint(m: Mat, x: number, y: number, z: number): Vec3 {
  return [m[0]! * x + m[4]! * y + m[8]! * z + m[12]!, m[1]! * x + m[5]! * y + m[9]! * z + m[13]!, m[2]! * x + m[6]! * y + m[10]! * z + m[14]!];
}

/** Rotation by `angle` (radians, right-handed) about the unit axis `d` through point `p`. */
export function rotationAbout(p: Vec3, d: Vec3, angle: number): Mat {
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 0) || !Number.isFinite(angle)) return [...IDENTITY_MAT];
  const [x, y, z] = [d[0] / len, d[1] / len, d[2] / len];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  // Rodrigues, column-major.
  const r = [
    t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
    t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0,
    t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0,
    0, 0, 0, 1,
  ];
  // p + R (q - p)
  const [px, py, pz] = p;
  r[12] = px - (r[0]! * px + r[4]! * py + r[8]! * pz);
  r[13] = py - (r[1]! * px + r[5]! * py + r[9]! * pz);
  r[14] = pz - (r[2]! * px + r[6]! * py + r[10]! * pz);
  return r;
}

export function translationBy(v: Vec3): Mat {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, v[0], v[1], v[2], 1];
}

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/**
 * The animation's position in its range, 0..1: `sourceAddress` applied over [minPhase, maxPhase],
 * then [minValue, maxValue] -> [0, 1], clamped.
 */
export function animationPhase(a: PoseAnimation, value: number): number {
  let v = Number.isFinite(value) ? value : 0;
  const lo = Math.min(a.minPhase, a.maxPhase);
  const hi = Math.max(a.minPhase, a.maxPhase);
  const span = hi - lo;
  if (a.sourceAddress === 'loop' && span > 0) v = lo + mod(v - lo, span);
  else if (a.sourceAddress === 'mirror' && span > 0) {
    const t = mod(v - lo, 2 * span);
    v = lo + (t <= span ? t : 2 * span - t);
  } else v = Math.min(hi, Math.max(lo, v));
  const range = a.maxValue - a.minValue;
  if (range === 0) return v >= a.maxValue ? 1 : 0;
  const t = (v - a.minValue) / range;
  return Math.min(1, Math.max(0, t));
}

const UNIT: Record<string, Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** One animation at a source value: its transform, or hidden. */
export function animationTransform(a: PoseAnimation, value: number, axis: Axis | undefined): { matrix: Mat; hidden: boolean } {
  const t = animationPhase(a, value);
  const lerp = (x0: number, x1: number): number => x0 + (x1 - x0) * t;
  const centre: Vec3 = axis ? (axis.end ? axis.begin : axis.begin) : [0, 0, 0];
  switch (a.type) {
    case 'rotation': {
      if (!axis?.end) return { matrix: [...IDENTITY_MAT], hidden: false };
      const d: Vec3 = [axis.end[0] - axis.begin[0], axis.end[1] - axis.begin[1], axis.end[2] - axis.begin[2]];
      return { matrix: rotationAbout(axis.begin, d, ROTATION_SIGN * lerp(a.angle0, a.angle1)), hidden: false };
    }
    case 'rotationX':
    case 'rotationY':
    case 'rotationZ': {
      const c: Vec3 = axis?.end ? [(axis.begin[0] + axis.end[0]) / 2, (axis.begin[1] + axis.end[1]) / 2, (axis.begin[2] + axis.end[2]) / 2] : centre;
      return { matrix: rotationAbout(c, UNIT[a.type.slice(-1).toLowerCase()]!, ROTATION_SIGN * lerp(a.angle0, a.angle1)), hidden: false };
    }
    case 'translation': {
      if (!axis?.end) return { matrix: [...IDENTITY_MAT], hidden: false };
      const o = lerp(a.offset0, a.offset1);
      // Offsets of `translation` are in lengths of the axis (the distance begin -> end).
      return { matrix: translationBy([(axis.end[0] - axis.begin[0]) * o, (axis.end[1] - axis.begin[1]) * o, (axis.end[2] - axis.begin[2]) * o]), hidden: false };
    }
    case 'translationX':
    case 'translationY':
    case 'translationZ': {
      const o = lerp(a.offset0, a.offset1);
      const u = UNIT[a.type.slice(-1).toLowerCase()]!;
      return { matrix: translationBy([u[0] * o, u[1] * o, u[2] * o]), hidden: false };
    }
    case 'direct': {
      const pos = a.axisPos ?? [0, 0, 0];
      const dir = a.axisDir ?? [0, 1, 0];
      const len = Math.hypot(dir[0], dir[1], dir[2]) || 1;
      const off = (a.axisOffset ?? 0) * t;
      const rot = rotationAbout(pos, dir, ROTATION_SIGN * (a.angle ?? 0) * t);
      return { matrix: mul(translationBy([(dir[0] / len) * off, (dir[1] / len) * off, (dir[2] / len) * off]), rot), hidden: false };
    }
    case 'hide': {
      const hidden = t >= a.hideValue && (a.unHideValue === undefined || a.unHideValue < 0 || t < a.unHideValue);
      return { matrix: [...IDENTITY_MAT], hidden };
    }
  }
}

export interface BonePose {
  name: string;
  /** Index of the parent bone, -1 for a root. */
  parent: number;
  /** Model-space transform of the bone's points (ancestors included). */
  matrix: Mat;
  hidden: boolean;
}

/**
 * Every bone's pose. `values` holds source values by lower-case source name (a source not given
 * stays at 0, the game's start value for most sources). `axisOf(animation)` finds the axis points
 * (Memory LOD or the animated LOD); an animation whose selection is no bone moves nothing.
 */
export function poseBones(
  bones: readonly { name: string; parent: string }[],
  animations: readonly PoseAnimation[],
  values: ReadonlyMap<string, number>,
  axisOf: (a: PoseAnimation) => Axis | undefined,
): BonePose[] {
  const index = new Map<string, number>();
  bones.forEach((b, i) => {
    if (!index.has(b.name.toLowerCase())) index.set(b.name.toLowerCase(), i);
  });
  const own: { matrix: Mat; hidden: boolean }[] = bones.map(() => ({ matrix: [...IDENTITY_MAT], hidden: false }));
  for (const a of animations) {
    const bi = index.get(a.selection.toLowerCase());
    if (bi === undefined) continue;
    const r = animationTransform(a, values.get(a.source.toLowerCase()) ?? 0, axisOf(a));
    own[bi]!.matrix = mul(r.matrix, own[bi]!.matrix);
    own[bi]!.hidden ||= r.hidden;
  }
  // A parent declared after its child is an error the checks report; here it is a root.
  const out: BonePose[] = [];
  bones.forEach((b, i) => {
    const pi = b.parent ? index.get(b.parent.toLowerCase()) : undefined;
    const parent = pi !== undefined && pi < i ? pi : -1;
    const p = parent >= 0 ? out[parent]! : undefined;
    out.push({ name: b.name, parent, matrix: p ? mul(p.matrix, own[i]!.matrix) : own[i]!.matrix, hidden: (p?.hidden ?? false) || own[i]!.hidden });
  });
  return out;
}
