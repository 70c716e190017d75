/**
 * Small helpers the Grimrock and Unigine codecs share for their inspector and outline views:
 * turning a schema record into inspector rows, summarising typed arrays so they stay JSON-safe,
 * and the column-major matrix maths the scene mappings need.
 */
import type { BinaryReader, Span } from '../../binary/reader.ts';
import { BinaryWriter } from '../../binary/writer.ts';
import type { InspectField } from '../../model/outline.ts';
import type { NodePath } from '../../model/path.ts';
import type { FieldInfo, FieldKind, Struct } from '../../schema/schema.ts';

/** A JSON-safe stand-in for an inspector value (typed arrays become a short summary). */
export function jsonSafe(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const a = v as unknown as ArrayLike<number> & { constructor: { name: string } };
    const head = Array.from({ length: Math.min(8, a.length) }, (_, i) => a[i]);
    return { type: a.constructor.name, length: a.length, head };
  }
  if (Array.isArray(v)) return v.map(jsonSafe);
  return v;
}

/** Inspector rows for a record decoded with a schema struct (spans when the record has one). */
export function structFields(s: Struct<any>, value: Record<string, unknown>, path: NodePath, span?: Span): InspectField[] {
  const base = span?.[0];
  const layout = base !== undefined ? s.layout(value as never, base) : undefined;
  return s.fields.map((f, i) => ({
    ...f,
    path: [...path, f.name],
    value: jsonSafe(value[f.name]),
    ...(layout ? { span: layout[i]!.span } : {}),
  }));
}

/** One hand-described inspector row (for fields outside a schema record). */
export function field(
  name: string,
  kind: FieldKind,
  path: NodePath,
  value: unknown,
  meta: Partial<FieldInfo> & { span?: Span } = {},
): InspectField {
  return { name, kind, path, value: jsonSafe(value), ...meta };
}

/** Column-major 4x4 product a * b. */
export function mul4(a: readonly number[], b: readonly number[]): number[] {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      o[c * 4 + r] = s;
    }
  }
  return o;
}

/** Column-major matrix from translation, rotation quaternion (x, y, z, w) and scale. */
export function composeTRS(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  const [sx, sy, sz] = [s[0]!, s[1]!, s[2]!];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  return [
    (1 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx, 0,
    (xy - wz) * sy, (1 - (xx + zz)) * sy, (yz + wx) * sy, 0,
    (xz + wy) * sz, (yz - wx) * sz, (1 - (xx + yy)) * sz, 0,
    t[0]!, t[1]!, t[2]!, 1,
  ];
}

/** Inverse of a column-major 4x4 matrix (general; returns identity for a singular one). */
export function invert4(m: readonly number[]): number[] {
  const a = m;
  const inv = new Array<number>(16);
  inv[0] = a[5]! * a[10]! * a[15]! - a[5]! * a[11]! * a[14]! - a[9]! * a[6]! * a[15]! + a[9]! * a[7]! * a[14]! + a[13]! * a[6]! * a[11]! - a[13]! * a[7]! * a[10]!;
  inv[4] = -a[4]! * a[10]! * a[15]! + a[4]! * a[11]! * a[14]! + a[8]! * a[6]! * a[15]! - a[8]! * a[7]! * a[14]! - a[12]! * a[6]! * a[11]! + a[12]! * a[7]! * a[10]!;
  inv[8] = a[4]! * a[9]! * a[15]! - a[4]! * a[11]! * a[13]! - a[8]! * a[5]! * a[15]! + a[8]! * a[7]! * a[13]! + a[12]! * a[5]! * a[11]! - a[12]! * a[7]! * a[9]!;
  inv[12] = -a[4]! * a[9]! * a[14]! + a[4]! * a[10]! * a[13]! + a[8]! * a[5]! * a[14]! - a[8]! * a[6]! * a[13]! - a[12]! * a[5]! * a[10]! + a[12]! * a[6]! * a[9]!;
  inv[1] = -a[1]! * a[10]! * a[15]! + a[1]! * a[11]! * a[14]! + a[9]! * a[2]! * a[15]! - a[9]! * a[3]! * a[14]! - a[13]! * a[2]! * a[11]! + a[13]! * a[3]! * a[10]!;
  inv[5] = a[0]! * a[10]! * a[15]! - a[0]! * a[11]! * a[14]! - a[8]! * a[2]! * a[15]! + a[8]! * a[3]! * a[14]! + a[12]! * a[2]! * a[11]! - a[12]! * a[3]! * a[10]!;
  inv[9] = -a[0]! * a[9]! * a[15]! + a[0]! * a[11]! * a[13]! + a[8]! * a[1]! * a[15]! - a[8]! * a[3]! * a[13]! - a[12]! * a[1]! * a[11]! + a[12]! * a[3]! * a[9]!;
  inv[13] = a[0]! * a[9]! * a[14]! - a[0]! * a[10]! * a[13]! - a[8]! * a[1]! * a[14]! + a[8]! * a[2]! * a[13]! + a[12]! * a[1]! * a[10]! - a[12]! * a[2]! * a[9]!;
  inv[2] = a[1]! * a[6]! * a[15]! - a[1]! * a[7]! * a[14]! - a[5]! * a[2]! * a[15]! + a[5]! * a[3]! * a[14]! + a[13]! * a[2]! * a[7]! - a[13]! * a[3]! * a[6]!;
  inv[6] = -a[0]! * a[6]! * a[15]! + a[0]! * a[7]! * a[14]! + a[4]! * a[2]! * a[15]! - a[4]! * a[3]! * a[14]! - a[12]! * a[2]! * a[7]! + a[12]! * a[3]! * a[6]!;
  inv[10] = a[0]! * a[5]! * a[15]! - a[0]! * a[7]! * a[13]! - a[4]! * a[1]! * a[15]! + a[4]! * a[3]! * a[13]! + a[12]! * a[1]! * a[7]! - a[12]! * a[3]! * a[5]!;
  inv[14] = -a[0]! * a[5]! * a[14]! + a[0]! * a[6]! * a[13]! + a[4]! * a[1]! * a[14]! - a[4]! * a[2]! * a[13]! - a[12]! * a[1]! * a[6]! + a[12]! * a[2]! * a[5]!;
  inv[3] = -a[1]! * a[6]! * a[11]! + a[1]! * a[7]! * a[10]! + a[5]! * a[2]! * a[11]! - a[5]! * a[3]! * a[10]! - a[9]! * a[2]! * a[7]! + a[9]! * a[3]! * a[6]!;
  inv[7] = a[0]! * a[6]! * a[11]! - a[0]! * a[7]! * a[10]! - a[4]! * a[2]! * a[11]! + a[4]! * a[3]! * a[10]! + a[8]! * a[2]! * a[7]! - a[8]! * a[3]! * a[6]!;
  inv[11] = -a[0]! * a[5]! * a[11]! + a[0]! * a[7]! * a[9]! + a[4]! * a[1]! * a[11]! - a[4]! * a[3]! * a[9]! - a[8]! * a[1]! * a[7]! + a[8]! * a[3]! * a[5]!;
  inv[15] = a[0]! * a[5]! * a[10]! - a[0]! * a[6]! * a[9]! - a[4]! * a[1]! * a[10]! + a[4]! * a[2]! * a[9]! + a[8]! * a[1]! * a[6]! - a[8]! * a[2]! * a[5]!;
  const det = a[0]! * inv[0]! + a[1]! * inv[4]! + a[2]! * inv[8]! + a[3]! * inv[12]!;
  if (!det || !Number.isFinite(det)) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return inv.map((x) => x / det);
}

/**
 * Float fields read into plain numbers lose NaN payloads (JavaScript keeps one NaN). For the rare
 * record whose bytes do not survive that, the original bytes are kept next to the canonical
 * encoding of the values read; while the values still encode to that, the original is written.
 */
export interface ExactKeeping {
  $exact?: Record<string, { orig: Uint8Array; canon: Uint8Array }>;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads a record and remembers its bytes in `holder` when the values alone cannot reproduce them. */
export function readExact<T>(s: { read(r: BinaryReader): T; write(w: BinaryWriter, v: NoInfer<T>): void }, r: BinaryReader, holder: ExactKeeping, key: string): T {
  const start = r.pos;
  const v = s.read(r);
  const orig = r.viewAt(start, r.pos);
  const w = new BinaryWriter(orig.length);
  s.write(w, v);
  const canon = w.finish();
  if (!sameBytes(canon, orig)) (holder.$exact ??= {})[key] = { orig: orig.slice(), canon };
  return v;
}

export function writeExact<T>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T, holder: ExactKeeping, key: string): void {
  const e = holder.$exact?.[key];
  if (!e) return s.write(w, v);
  const tmp = new BinaryWriter(e.canon.length);
  s.write(tmp, v);
  const now = tmp.finish();
  w.bytes(sameBytes(now, e.canon) ? e.orig : now);
}

/** {@link readExact} for a record stored as its own node (bones, segments): `$exact` goes on the value. */
export function readSelf<T extends object>(s: { read(r: BinaryReader): T; write(w: BinaryWriter, v: NoInfer<T>): void }, r: BinaryReader): T & ExactKeeping {
  const holder: ExactKeeping = {};
  const v = readExact(s, r, holder, 'self') as T & ExactKeeping;
  if (holder.$exact) v.$exact = holder.$exact;
  return v;
}

export function writeSelf<T extends object>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T & ExactKeeping): void {
  writeExact(s, w, v, v, 'self');
}
