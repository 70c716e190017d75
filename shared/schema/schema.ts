/**
 * The field-schema toolkit. One declaration per record gives:
 * - `read(reader)`  decode,
 * - `write(writer, value)`  encode,
 * - `size(value)`  byte size,
 * - `fields`  a field list (name, kind, enum labels, unit, range, spec note, offset) that the
 *   inspector, `lodsmith dump` and validation are generated from.
 *
 * ```ts
 * const Light = struct('LIG1.light', {
 *   enabled: bool.note('Enabled: light on/off'),
 *   style: enumU8(['spot', 'omni', 'parallel']).note('LigthStyle'),
 *   position: vec3.note('Position X, Y, Z'),
 * });
 * type Light = Infer<typeof Light>;
 * ```
 * Field order is the declaration order (object key order), which is the byte order.
 */
import type { BinaryReader, Span } from '../binary/reader.ts';
import { BinaryWriter } from '../binary/writer.ts';
import { decodeText, latin1At, textByteLength, type TextEncoding } from '../binary/text.ts';

export type FieldKind =
  | 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'f64'
  | 'bool' | 'enum' | 'flags'
  | 'vec2' | 'vec3' | 'vec4' | 'quat' | 'rgba' | 'mat3' | 'mat4x3' | 'mat4'
  | 'string' | 'bytes' | 'array' | 'struct';

/** Inspector metadata of one field. */
export interface FieldMeta {
  /** Human label; defaults to the field name. */
  label?: string;
  /** What the spec says the field means (shown as a tooltip). */
  note?: string;
  unit?: string;
  min?: number;
  max?: number;
  /** Enum labels: value i is labels[i] (or a sparse map). */
  enumLabels?: readonly string[] | Readonly<Record<number, string>>;
  /** Flag bit labels for `flags` fields: bit i is labels[i]. */
  flagLabels?: readonly string[];
  /** Derived fields (sizes, counts) are recomputed by the encoder and not edited by hand. */
  readonly?: boolean;
}

/** A field of a struct as listed for the inspector. */
export interface FieldInfo extends FieldMeta {
  name: string;
  kind: FieldKind;
  /** Offset inside the record when every field before it has a fixed size. */
  offset?: number;
  /** Size in bytes when fixed. */
  size?: number;
}

export abstract class BinType<T> {
  abstract readonly kind: FieldKind;
  /** Byte size when it does not depend on the value. */
  abstract readonly fixedSize: number | undefined;
  meta: FieldMeta = {};
  abstract read(r: BinaryReader): T;
  abstract write(w: BinaryWriter, v: T): void;
  size(_v: T): number {
    if (this.fixedSize !== undefined) return this.fixedSize;
    throw new Error(`${this.kind} has no size function`);
  }
  /** Checks a value before it is written; returns a message when it is refused. */
  check(_v: unknown): string | undefined {
    return undefined;
  }
  /**
   * Whether the value can be stored at all (type and width), ignoring the spec's advisory range
   * (`min`/`max`). Encoders use this: a file that was read with an out-of-spec value must write
   * back as it came; the advisory range is for `validate` and for refusing new edits.
   */
  checkStorable(v: unknown): string | undefined {
    return this.check(v);
  }
  with(meta: FieldMeta): this {
    const c = Object.create(Object.getPrototypeOf(this)) as this;
    Object.assign(c, this);
    c.meta = { ...this.meta, ...meta };
    return c;
  }
  note(note: string): this {
    return this.with({ note });
  }
  label(label: string): this {
    return this.with({ label });
  }
  unit(unit: string): this {
    return this.with({ unit });
  }
  range(min: number, max: number): this {
    return this.with({ min, max });
  }
  derived(): this {
    return this.with({ readonly: true });
  }
}

type NumKind = 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'f64';
const NUM_LIMITS: Record<NumKind, [number, number, number, boolean]> = {
  u8: [0, 255, 1, true], i8: [-128, 127, 1, true], u16: [0, 65535, 2, true], i16: [-32768, 32767, 2, true],
  u32: [0, 4294967295, 4, true], i32: [-2147483648, 2147483647, 4, true], f32: [-3.4028234663852886e38, 3.4028234663852886e38, 4, false],
  f64: [-Number.MAX_VALUE, Number.MAX_VALUE, 8, false],
};

export class NumType extends BinType<number> {
  readonly fixedSize: number;
  readonly kind: NumKind | 'bool' | 'enum' | 'flags';
  readonly base: NumKind;
  constructor(kind: NumKind | 'bool' | 'enum' | 'flags', base: NumKind) {
    super();
    this.kind = kind;
    this.base = base;
    this.fixedSize = NUM_LIMITS[base][2];
  }
  read(r: BinaryReader): number {
    return r[this.base]();
  }
  write(w: BinaryWriter, v: number): void {
    w[this.base](v);
  }
  override checkStorable(v: unknown): string | undefined {
    if (typeof v !== 'number' || Number.isNaN(v) && this.base !== 'f32' && this.base !== 'f64') return 'must be a number';
    const [lo, hi, , integer] = NUM_LIMITS[this.base];
    if (integer && !Number.isInteger(v)) return 'must be a whole number';
    if (Number.isFinite(v) && (v < lo || v > hi)) return `must be between ${lo} and ${hi}`;
    return undefined;
  }
  override check(v: unknown): string | undefined {
    const storable = this.checkStorable(v);
    if (storable) return storable;
    const n = v as number;
    const { min, max } = this.meta;
    if (min !== undefined && n < min) return `must be at least ${min}`;
    if (max !== undefined && n > max) return `must be at most ${max}`;
    return undefined;
  }
}

export const u8 = new NumType('u8', 'u8');
export const i8 = new NumType('i8', 'i8');
export const u16 = new NumType('u16', 'u16');
export const i16 = new NumType('i16', 'i16');
export const u32 = new NumType('u32', 'u32');
export const i32 = new NumType('i32', 'i32');
export const f32 = new NumType('f32', 'f32');
export const f64 = new NumType('f64', 'f64');
/** A byte meant as a boolean. Stored as the number read (0/1, or whatever odd value the file holds) so it round-trips. */
export const bool = new NumType('bool', 'u8');
export function enumOf(base: NumKind, labels: readonly string[] | Readonly<Record<number, string>>): NumType {
  return new NumType('enum', base).with({ enumLabels: labels });
}
export const enumU8 = (labels: readonly string[] | Readonly<Record<number, string>>): NumType => enumOf('u8', labels);
export function flagsOf(base: NumKind, labels: readonly string[]): NumType {
  return new NumType('flags', base).with({ flagLabels: labels });
}

/** A fixed number of f32 values as a plain array (vectors, quaternions, colours, matrices). */
export class FloatTuple extends BinType<number[]> {
  readonly fixedSize: number;
  readonly kind: FieldKind;
  readonly n: number;
  constructor(kind: FieldKind, n: number) {
    super();
    this.kind = kind;
    this.n = n;
    this.fixedSize = n * 4;
  }
  read(r: BinaryReader): number[] {
    return r.f32s(this.n);
  }
  write(w: BinaryWriter, v: number[]): void {
    for (let i = 0; i < this.n; i++) w.f32(v[i] ?? 0);
  }
  override check(v: unknown): string | undefined {
    if (!Array.isArray(v) || v.length !== this.n) return `must be ${this.n} numbers`;
    if (v.some((x) => typeof x !== 'number')) return 'must contain only numbers';
    return undefined;
  }
}
export const vec2 = new FloatTuple('vec2', 2);
export const vec3 = new FloatTuple('vec3', 3);
export const vec4 = new FloatTuple('vec4', 4);
/** Quaternion stored X, Y, Z, W. */
export const quat = new FloatTuple('quat', 4);
/** Colour stored R, G, B, A as floats. */
export const rgba = new FloatTuple('rgba', 4);
export const mat3 = new FloatTuple('mat3', 9);
export const mat4x3 = new FloatTuple('mat4x3', 12);
export const mat4 = new FloatTuple('mat4', 16);
export const floats = (n: number): FloatTuple => new FloatTuple('array', n);

/** Fixed-size opaque bytes (reserved areas, padding): kept exactly. */
export class FixedBytes extends BinType<Uint8Array> {
  readonly kind = 'bytes' as const;
  readonly fixedSize: number;
  constructor(fixedSize: number) {
    super();
    this.fixedSize = fixedSize;
  }
  read(r: BinaryReader): Uint8Array {
    return r.bytesCopy(this.fixedSize, 'reserved bytes');
  }
  write(w: BinaryWriter, v: Uint8Array): void {
    if (v.length !== this.fixedSize) throw new RangeError(`expected ${this.fixedSize} bytes, got ${v.length}`);
    w.bytes(v);
  }
}
export const fixedBytes = (n: number): FixedBytes => new FixedBytes(n);

/** Text with a length prefix (i32 by default). */
export class LenString extends BinType<string> {
  readonly kind = 'string' as const;
  readonly fixedSize = undefined;
  readonly lenKind: 'i32' | 'u32' | 'u16' | 'u8';
  readonly enc: TextEncoding;
  constructor(lenKind: 'i32' | 'u32' | 'u16' | 'u8', enc: TextEncoding) {
    super();
    this.lenKind = lenKind;
    this.enc = enc;
  }
  read(r: BinaryReader): string {
    const at = r.pos;
    const n = r[this.lenKind]();
    r.count(n, 1, 'string length', at);
    return r.string(n, this.enc);
  }
  write(w: BinaryWriter, v: string): void {
    const n = textByteLength(v, this.enc);
    w[this.lenKind](n);
    w.string(v, this.enc);
  }
  override size(v: string): number {
    const p = this.lenKind === 'u8' ? 1 : this.lenKind === 'u16' ? 2 : 4;
    return p + textByteLength(v, this.enc);
  }
  override check(v: unknown): string | undefined {
    return typeof v === 'string' ? undefined : 'must be text';
  }
}
export const lenString = (enc: TextEncoding = 'latin1', lenKind: 'i32' | 'u32' | 'u16' | 'u8' = 'i32'): LenString =>
  new LenString(lenKind, enc);

/** NUL-terminated text. */
export class CString extends BinType<string> {
  readonly kind = 'string' as const;
  readonly fixedSize = undefined;
  readonly enc: TextEncoding;
  constructor(enc: TextEncoding) {
    super();
    this.enc = enc;
  }
  read(r: BinaryReader): string {
    return r.cstring(this.enc);
  }
  write(w: BinaryWriter, v: string): void {
    w.cstring(v, this.enc);
  }
  override size(v: string): number {
    return textByteLength(v, this.enc) + 1;
  }
  override check(v: unknown): string | undefined {
    if (typeof v !== 'string') return 'must be text';
    return v.includes('\0') ? 'must not contain a NUL character' : undefined;
  }
}
export const cstring = (enc: TextEncoding = 'latin1'): CString => new CString(enc);

/** A fixed count of elements of one type. */
export class FixedArray<T> extends BinType<T[]> {
  readonly kind = 'array' as const;
  readonly fixedSize: number | undefined;
  readonly item: BinType<T>;
  readonly n: number;
  constructor(item: BinType<T>, n: number) {
    super();
    this.item = item;
    this.n = n;
    this.fixedSize = item.fixedSize === undefined ? undefined : item.fixedSize * n;
  }
  read(r: BinaryReader): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.n; i++) out.push(r.within(`[${i}]`, () => this.item.read(r)));
    return out;
  }
  write(w: BinaryWriter, v: T[]): void {
    if (v.length !== this.n) throw new RangeError(`expected ${this.n} elements, got ${v.length}`);
    for (const x of v) this.item.write(w, x);
  }
  override size(v: T[]): number {
    return this.fixedSize ?? v.reduce((s, x) => s + this.item.size(x), 0);
  }
}
export const arrayOf = <T>(item: BinType<T>, n: number): FixedArray<T> => new FixedArray(item, n);

export type FieldMap = Record<string, BinType<any>>;
export type Infer<S> = S extends BinType<infer T> ? T : never;
export type InferFields<F extends FieldMap> = { [K in keyof F]: Infer<F[K]> };

/** Keys every decoded record may carry next to its fields. */
export interface NodeMeta {
  /** Byte range this record was decoded from. */
  $span?: Span;
}

/**
 * The stored bytes of a record's NaN floats, by field name (a tuple: by element). A JS number
 * keeps one NaN, so a signalling NaN (0x7fa00123) would come back quieted (0x7fe00123); with its
 * bytes kept per field, an edit to any other field, or to another element of the same tuple,
 * leaves it bit for bit as stored. A field whose value is no longer NaN is written from its value.
 * Enumerable, so spreads (`{ ...record, field: v }`, the way codecs and edits copy records) carry
 * it along; JSON and structured clones leave symbols out.
 */
const NAN_BITS = Symbol('NaN bits');
export type NanBits = Record<string, Uint8Array | (Uint8Array | undefined)[]>;

/** The kept NaN bytes of a decoded record, if it had NaN floats. */
export function nanBitsOf(v: unknown): NanBits | undefined {
  return v && typeof v === 'object' ? (v as { [NAN_BITS]?: NanBits })[NAN_BITS] : undefined;
}

/** `v` with kept NaN bytes attached (for codecs that copy a record's fields into another node). */
export function withNanBits<T>(v: T, bits: NanBits | undefined): T {
  if (!bits || !v || typeof v !== 'object' || Array.isArray(v)) return v;
  return { ...v, [NAN_BITS]: bits };
}

/** Adds one field's NaN bytes to a record's kept bits (made when it has none). */
function keepNanBits(holder: object, name: string, bits: Uint8Array | (Uint8Array | undefined)[]): void {
  const h = holder as { [NAN_BITS]?: NanBits };
  (h[NAN_BITS] ??= {})[name] = bits;
}

/**
 * One f32 a codec reads by hand into a record (not through a Struct): a NaN keeps its stored
 * bytes in the record's NaN bits under `name`, as a Struct field would, so
 * {@link writeFloatKept} writes it back bit for bit while the value is still NaN.
 */
export function readFloatKept(r: BinaryReader, holder: object, name: string): number {
  const at = r.pos;
  const v = r.f32();
  if (v !== v) keepNanBits(holder, name, r.viewAt(at, at + 4).slice());
  return v;
}

/** `n` f32 values read by hand into `holder[name]` (see {@link readFloatKept}; bits by element). */
export function readFloatsKept(r: BinaryReader, n: number, holder: object, name: string): number[] {
  const at = r.pos;
  const out = r.f32s(n);
  const bits = nanBytesOf(r.bytes, at, out);
  if (bits) keepNanBits(holder, name, bits);
  return out;
}

/**
 * The stored bytes of each NaN among `values`, f32s read from `bytes` at `at` (undefined for the
 * others), or undefined when none is NaN: a tuple's NaN bits.
 */
function nanBytesOf(bytes: Uint8Array, at: number, values: readonly number[]): (Uint8Array | undefined)[] | undefined {
  let bits: (Uint8Array | undefined)[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x === x) continue;
    bits ??= new Array<Uint8Array | undefined>(values.length).fill(undefined);
    bits[i] = bytes.slice(at + 4 * i, at + 4 * i + 4);
  }
  return bits;
}

export function writeFloatKept(w: BinaryWriter, v: number | undefined, holder: object, name: string): void {
  const b = nanBitsOf(holder)?.[name];
  if (b instanceof Uint8Array && b.length === 4 && typeof v === 'number' && Number.isNaN(v)) w.bytes(b);
  else w.f32(v ?? 0);
}

/** Writes `n` floats of `vs` (0 for a missing one), NaNs with their kept bytes (see {@link readFloatsKept}). */
export function writeFloatsKept(w: BinaryWriter, vs: readonly number[] | undefined, holder: object, name: string, n = vs?.length ?? 0): void {
  const b = nanBitsOf(holder)?.[name];
  const kept = Array.isArray(b) ? b : undefined;
  for (let i = 0; i < n; i++) {
    const x = vs?.[i];
    const eb = kept?.[i];
    if (eb && typeof x === 'number' && Number.isNaN(x)) w.bytes(eb);
    else w.f32(x ?? 0);
  }
}

// Field codes of a record's read plan: plain numbers by base type; a positive code n is a tuple
// of n f32 values.
const P_U8 = -1, P_I8 = -2, P_U16 = -3, P_I16 = -4, P_U32 = -5, P_I32 = -6, P_F32 = -7, P_F64 = -8, P_CSTR = -9;
const PLAN_CODE: Partial<Record<NumKind, number>> = { u8: P_U8, i8: P_I8, u16: P_U16, i16: P_I16, u32: P_U32, i32: P_I32, f32: P_F32, f64: P_F64 };

interface ReadPlan {
  codes: Int8Array;
  /** The encoding of each string field. */
  encodings: TextEncoding[];
  /** What each float tuple's budget charge says (as BinaryReader.f32s says it). */
  whats: string[];
  /** Fewest bytes the fields after each field take (a string at least its terminator). */
  after: Int32Array;
  /** Fewest bytes of the whole record. */
  minSize: number;
}

/** The read plan of a record whose fields are all plain numbers, float tuples or C strings, else undefined. */
function planOf(entries: ReadonlyArray<[string, BinType<any>]>): ReadPlan | undefined {
  if (entries.length === 0) return undefined;
  const codes = new Int8Array(entries.length);
  const encodings: TextEncoding[] = [];
  const whats: string[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const t = entries[i]![1];
    if (t instanceof NumType && t.read === NumType.prototype.read && PLAN_CODE[t.base] !== undefined) {
      codes[i] = PLAN_CODE[t.base]!;
      sizes.push(t.fixedSize);
    } else if (t instanceof FloatTuple && t.read === FloatTuple.prototype.read && t.n > 0 && t.n <= 127) {
      codes[i] = t.n;
      whats[i] = `${t.n} floats`;
      sizes.push(t.fixedSize);
    } else if (t instanceof CString && t.read === CString.prototype.read) {
      codes[i] = P_CSTR;
      encodings[i] = t.enc;
      sizes.push(1);
    } else return undefined;
  }
  const after = new Int32Array(entries.length);
  for (let i = entries.length - 2; i >= 0; i--) after[i] = after[i + 1]! + sizes[i + 1]!;
  return { codes, encodings, whats, after, minSize: after[0]! + sizes[0]! };
}

/** A record: named fields in byte order. */
export class Struct<F extends FieldMap> extends BinType<InferFields<F> & NodeMeta> {
  readonly kind = 'struct' as const;
  readonly fixedSize: number | undefined;
  readonly fields: readonly FieldInfo[];
  readonly entries: ReadonlyArray<[string, BinType<any>]>;
  readonly name: string;
  readonly shape: F;

  constructor(name: string, shape: F) {
    super();
    this.name = name;
    this.shape = shape;
    this.entries = Object.entries(shape);
    let offset: number | undefined = 0;
    const fields: FieldInfo[] = [];
    for (const [name, t] of this.entries) {
      const info: FieldInfo = { name, kind: t.kind, ...t.meta };
      if (offset !== undefined) info.offset = offset;
      if (t.fixedSize !== undefined) info.size = t.fixedSize;
      fields.push(info);
      offset = offset !== undefined && t.fixedSize !== undefined ? offset + t.fixedSize : undefined;
    }
    this.fields = fields;
    this.fixedSize = offset;
    this.plan = planOf(this.entries);
  }

  /**
   * For a record of plain numbers, float tuples and C strings only: one code per field (see
   * planOf), so {@link read} can read it with one bounds check and no node path bookkeeping when
   * its fixed part is in the window. The field-by-field read costs a path push and pop, a method
   * looked up by name and two instanceof tests per field (the ODOL corpus reads ~3,200 records a
   * pass, a 2M-triangle LODka far fewer: the bulk of a file is arrays, not records).
   */
  private readonly plan: ReadPlan | undefined;

  read(r: BinaryReader): InferFields<F> & NodeMeta {
    if (this.plan !== undefined && r.pos + this.plan.minSize <= r.end) return this.readPlanned(r, this.plan);
    return this.readFields(r);
  }

  /**
   * The record read by its plan, with the same result as {@link readFields} (fields, kept NaN
   * bytes, span, errors). A float tuple's budget charge names the field only if it fails; a string
   * without its terminator in the window, or one that leaves too few bytes for the fields after
   * it, hands the rest of the record to readFields, which fails where the bytes run out.
   */
  private readPlanned(r: BinaryReader, planned: ReadPlan): InferFields<F> & NodeMeta {
    const start = r.pos;
    const plan = planned.codes;
    const view = r.view;
    const bytes = r.bytes;
    const entries = this.entries;
    const out: Record<string | symbol, unknown> = {};
    let bits: NanBits | undefined;
    let p = start;
    for (let i = 0; i < plan.length; i++) {
      const code = plan[i]!;
      const name = entries[i]![0];
      let v: number | number[] | string;
      switch (code) {
        case P_U8: v = bytes[p]!; p += 1; break;
        case P_I8: v = view.getInt8(p); p += 1; break;
        case P_U16: v = view.getUint16(p, true); p += 2; break;
        case P_I16: v = view.getInt16(p, true); p += 2; break;
        case P_U32: v = view.getUint32(p, true); p += 4; break;
        case P_I32: v = view.getInt32(p, true); p += 4; break;
        case P_F32:
          v = view.getFloat32(p, true);
          if (v !== v) (bits ??= {})[name] = bytes.slice(p, p + 4);
          p += 4;
          break;
        case P_F64:
          v = view.getFloat64(p, true);
          if (v !== v) (bits ??= {})[name] = bytes.slice(p, p + 8);
          p += 8;
          break;
        case P_CSTR: {
          // A string without its terminator in the window, or one that leaves too few bytes for
          // the fields after it: readFields fails where and as it should.
          const z = bytes.indexOf(0, p);
          if (z < 0 || z + 1 + planned.after[i]! > r.end) {
            r.pos = p;
            return this.readFields(r, i, out, bits, start);
          }
          const enc = planned.encodings[i]!;
          v = enc === 'latin1' ? latin1At(bytes, p, z) : decodeText(bytes.subarray(p, z), enc);
          p = z + 1;
          break;
        }
        default: {
          // A tuple of `code` floats, charged as BinaryReader.f32s charges it (the same text).
          const n = code;
          r.pos = p;
          r.chargeIn(name, n * 8, planned.whats[i]!);
          const a = new Array<number>(n);
          for (let k = 0; k < n; k++) a[k] = view.getFloat32(p + 4 * k, true);
          const nan = nanBytesOf(bytes, p, a);
          if (nan) (bits ??= {})[name] = nan;
          v = a;
          p += 4 * n;
        }
      }
      out[name] = v;
    }
    r.pos = p;
    if (bits) out[NAN_BITS] = bits;
    out.$span = [start, p];
    return out as InferFields<F> & NodeMeta;
  }

  /**
   * The record read field by field from field `from` on (readPlanned hands over the fields it has
   * read, and the record's start, where it cannot go on: nothing is read or charged twice).
   */
  private readFields(r: BinaryReader, from = 0, out: Record<string | symbol, unknown> = {}, bits?: NanBits, start = r.pos): InferFields<F> & NodeMeta {
    const entries = this.entries;
    for (let i = from; i < entries.length; i++) {
      const [name, t] = entries[i]!;
      const at = r.pos;
      r.enter(name);
      const v = t.read(r);
      r.leave();
      out[name] = v;
      if (t instanceof NumType && (t.base === 'f32' || t.base === 'f64') && Number.isNaN(v)) {
        (bits ??= {})[name] = r.viewAt(at, r.pos).slice();
      } else if (t instanceof FloatTuple) {
        const nan = nanBytesOf(r.bytes, at, v as number[]);
        if (nan) (bits ??= {})[name] = nan;
      }
    }
    if (bits) out[NAN_BITS] = bits;
    out.$span = [start, r.pos];
    return out as InferFields<F> & NodeMeta;
  }

  write(w: BinaryWriter, v: InferFields<F>): void {
    this.writeFields(w, v);
  }

  private writeFields(w: BinaryWriter, v: InferFields<F>): void {
    const bits = (v as { [NAN_BITS]?: NanBits })[NAN_BITS];
    for (const [name, t] of this.entries) {
      const x = (v as Record<string, unknown>)[name];
      const b = bits?.[name];
      if (b instanceof Uint8Array && typeof x === 'number' && Number.isNaN(x) && b.length === t.fixedSize) {
        w.bytes(b);
      } else if (Array.isArray(b) && t instanceof FloatTuple && Array.isArray(x)) {
        for (let i = 0; i < t.n; i++) {
          const e = x[i] as number | undefined;
          const eb = b[i];
          if (eb && typeof e === 'number' && Number.isNaN(e)) w.bytes(eb);
          else w.f32(e ?? 0);
        }
      } else t.write(w, x);
    }
  }

  override size(v: InferFields<F>): number {
    if (this.fixedSize !== undefined) return this.fixedSize;
    let n = 0;
    for (const [name, t] of this.entries) n += t.size((v as Record<string, unknown>)[name]);
    return n;
  }

  /** Field list with absolute byte ranges for one decoded value (for the inspector and hex view). */
  layout(v: InferFields<F>, base: number): Array<FieldInfo & { span: Span }> {
    let at = base;
    return this.entries.map(([name, t], i) => {
      const size = t.size((v as Record<string, unknown>)[name]);
      const info = { ...this.fields[i]!, span: [at, at + size] as Span };
      at += size;
      return info;
    });
  }

  /** Whether a value can be stored in one field (see {@link BinType.checkStorable}). */
  checkFieldStorable(name: string, value: unknown): string | undefined {
    const t = this.shape[name];
    return t ? t.checkStorable(value) : `unknown field ${name}`;
  }

  /** Checks a new value for one field; returns a message when it must be refused. */
  checkField(name: string, value: unknown): string | undefined {
    const t = this.shape[name];
    if (!t) return `unknown field ${name}`;
    if (t.meta.readonly) return `${name} is computed when saving`;
    return t.check(value);
  }

  /** A value with every field zero / empty (a starting point for "add"). */
  blank(): InferFields<F> {
    const out: Record<string, unknown> = {};
    for (const [name, t] of this.entries) out[name] = blankOf(t);
    return out as InferFields<F>;
  }
}

function blankOf(t: BinType<any>): unknown {
  if (t instanceof NumType) return 0;
  if (t instanceof FloatTuple) return new Array<number>(t.n).fill(0);
  if (t instanceof FixedBytes) return new Uint8Array(t.fixedSize);
  if (t instanceof LenString || t instanceof CString) return '';
  if (t instanceof FixedArray) return Array.from({ length: t.n }, () => blankOf(t.item));
  if (t instanceof Struct) return t.blank();
  return undefined;
}

export function struct<F extends FieldMap>(name: string, shape: F): Struct<F> {
  return new Struct(name, shape);
}
