/**
 * ODOL's "compressed arrays": an element count, then (v64+) a flag byte, then the elements either
 * as they are or as one compressed stream. Which of the two is decided by the 1024-byte rule before
 * v64 (an array whose expanded size is under 1024 bytes is stored raw) and by the flag from v64.
 * "Condensed" (fill) arrays add a default-fill byte: when set, a single element stands for all.
 *
 * Every array goes through {@link readPacked} / {@link writePacked}. A decoded array keeps the
 * compressed stream exactly as stored (`packed`), and the encoder writes it back as long as the
 * data still expands to the same bytes, so an untouched file keeps its compressed blocks even when
 * every `$raw` was dropped. Only arrays whose data changed are compressed again.
 */
import { BudgetError, chargeAllocation } from '../../../binary/budget.ts';
import { lzo1xMatches, lzo1xMaxOutput } from '../../../binary/lzo1x.ts';
import { lzssMaxOutput } from '../../../binary/lzss.ts';
import type { BinaryReader, Span } from '../../../binary/reader.ts';
import type { BinaryWriter } from '../../../binary/writer.ts';
import { DecodeError, EncodeError } from '../../../errors.ts';
import { deferField } from '../../../model/deferred.ts';
import { reusable } from '../../../model/lossless.ts';
import { deflate, inflate, scan, type Method } from './compression.ts';

export type TypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array;

/** The element type of a typed array as stored: its constructor and how many values make one element. */
export interface ElementType<T extends TypedArray = TypedArray> {
  /** A view of `length` values at `byteOffset` (a multiple of bytesPerValue) of `buffer`. */
  make: (buffer: ArrayBuffer, byteOffset: number, length: number) => T;
  /** A typed array from plain numbers (edits that arrive as JSON arrays). */
  from: (values: ArrayLike<number>) => T;
  /** The shared empty array of this class (see EMPTY). */
  empty: T;
  /** Bytes per value of the typed array. */
  bytesPerValue: number;
  /** Values per element (3 for an XYZ triplet). */
  components: number;
}

/**
 * The empty array of each typed-array class, shared by every empty array of every document (most
 * arrays of a real file are empty): a zero-length array holds nothing that can be written, and
 * edits replace an array's `data`, never write into it. A new zero-length typed array for each
 * was still ~10% of decoding the ODOL corpus (~200 ns apiece with its garbage collection).
 */
const EMPTY = new Map<unknown, TypedArray>(
  [Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array].map((C) => [C, new C(0)]),
);

const elem = <T extends TypedArray>(
  C: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number },
  components = 1,
): ElementType<T> => ({
  make: (b, o, n) => new C(b, o, n),
  empty: EMPTY.get(C) as T,
  from: (values) => {
    const out = new C(new ArrayBuffer(values.length * C.BYTES_PER_ELEMENT), 0, values.length);
    for (let i = 0; i < values.length; i++) out[i] = values[i]!;
    return out;
  },
  bytesPerValue: C.BYTES_PER_ELEMENT,
  components,
});

export const F32 = elem(Float32Array);
export const VEC3 = elem(Float32Array, 3);
export const VEC2 = elem(Float32Array, 2);
export const I32 = elem(Int32Array);
export const U32 = elem(Uint32Array);
export const U16 = elem(Uint16Array);
export const U8 = elem(Uint8Array);
/** Bulk elements kept as their bytes (bone weights: 12 bytes, neighbour records: 32 bytes, ...). */
export const bytesOf = (n: number): ElementType<Uint8Array> => elem(Uint8Array, n);
export const i16x = (n: number): ElementType<Int16Array> => elem(Int16Array, n);
export const i32x = (n: number): ElementType<Int32Array> => elem(Int32Array, n);
export const f32x = (n: number): ElementType<Float32Array> => elem(Float32Array, n);

/** How a file stores its arrays. */
export interface PackContext {
  method: Method;
  /** v64+: a flag byte says whether each non-empty array is compressed. */
  flagged: boolean;
  /** Decoding: where the arrays' memory comes from (one per file; without it, one buffer per array). */
  slab?: Slab;
  /**
   * Decoding (DecodeOptions.defer): a compressed array of at least {@link DEFER_BYTES} whose
   * method can be checked without its output (LZO: compression.ts `scan`) is checked where it
   * lies and charged, but expanded only when its `data` is first read.
   */
  defer?: boolean;
}

/** Smaller compressed arrays are expanded while decoding, deferred or not (a deferred field costs a closure). */
export const DEFER_BYTES = 64 << 10;

/**
 * The memory of one file's arrays, carved out of a few large buffers. A real ODOL file holds
 * thousands of small arrays (~8,000 in a 400 kB file); one ArrayBuffer each made allocation and
 * garbage collection about half of decoding. Regions are 8-byte aligned, so any element type can
 * view them; an array larger than a quarter of a chunk gets a buffer of its own. The arrays of
 * a document then share buffers: code that hands an array's `.buffer` elsewhere must use its
 * byteOffset and byteLength (typedBytes does).
 */
export class Slab {
  private buffer: ArrayBuffer | undefined;
  /** All of `buffer`, for copies into it without a view per region. */
  private view: Uint8Array | undefined;
  private pos = 0;
  /** The largest region a chunk holds; larger arrays get a buffer of their own. */
  private readonly chunkBytes: number;
  private readonly fileBytes: number;

  /**
   * The first chunk is 1.25x the file size, the size its arrays reach on the real corpus on
   * average (1.34x over all files: compressed arrays expand, the rest is copied as it is); a
   * chunk of twice the file size left 40% of the memory allocated (and zero-filled) unused. A
   * file whose arrays need more gets further chunks sized from the input still to read. A chunk
   * is at least 4 KiB (the corpus's smallest files have a few hundred bytes of arrays; a 64 KiB
   * floor made 0.9 MB of a 14 MB pass over it memory nothing used).
   */
  constructor(fileBytes: number) {
    this.fileBytes = fileBytes;
    this.chunkBytes = Math.min(4 << 20, Math.max(16 << 10, 2 * fileBytes));
  }

  /**
   * A region of `bytes` bytes nothing else uses, 8-byte aligned; a new buffer is charged to the
   * decoding budget (reporting the reader's place: its path is only built then).
   */
  take(bytes: number, what: string, at0: { pos: number; path: string }): Uint8Array {
    if (bytes > this.chunkBytes >> 2) {
      chargeAllocation(bytes, what, at0.pos, at0.path);
      return new Uint8Array(bytes);
    }
    const at = this.reserve(bytes, what, at0);
    return new Uint8Array(this.buffer!, at, bytes);
  }

  /** Whether a region of `bytes` comes out of a chunk (larger ones get a buffer of their own). */
  holds(bytes: number): boolean {
    return bytes <= this.chunkBytes >> 2;
  }

  /**
   * Gives back what follows the first `used` bytes of `region`, the last region taken from a
   * chunk (a reader that took room for the most it might need); does nothing for any other.
   */
  trim(region: Uint8Array, used: number): void {
    if (region.buffer === this.buffer && region.byteOffset + region.length === this.pos && used <= region.length) this.pos = region.byteOffset + used;
  }

  /** The 8-byte-aligned offset of `bytes` free bytes in the current buffer (a new one when full). */
  private reserve(bytes: number, what: string, at0: { pos: number; path: string }): number {
    let at = (this.pos + 7) & ~7;
    if (!this.buffer || at + bytes > this.buffer.byteLength) {
      const left = this.buffer ? Math.max(0, this.fileBytes - at0.pos) : this.fileBytes;
      const size = Math.min(this.chunkBytes, Math.max(4 << 10, bytes, Math.ceil(1.25 * left)));
      chargeAllocation(size, what, at0.pos, at0.path);
      this.buffer = new ArrayBuffer(size);
      this.view = new Uint8Array(this.buffer);
      at = 0;
    }
    this.pos = at + bytes;
    return at;
  }

  /**
   * Copies `bytes` bytes of `src` from `start` into a region as `take` would and returns the
   * region's offset in `current`, or -1 for an array too large for a chunk (the caller allocates
   * it). Makes no view of the region, nor of a short source: most arrays of a real file are a few
   * bytes, for which a subarray to copy from cost as much as the copy.
   */
  place(src: Uint8Array, start: number, bytes: number, what: string, at0: { pos: number; path: string }): number {
    if (bytes > this.chunkBytes >> 2) return -1;
    const at = this.reserve(bytes, what, at0);
    const view = this.view!;
    if (bytes <= 64) for (let i = 0; i < bytes; i++) view[at + i] = src[start + i]!;
    else view.set(src.subarray(start, start + bytes), at);
    return at;
  }

  /** The chunk `place` copied into last. */
  get current(): ArrayBuffer {
    return this.buffer!;
  }
}

export interface PackedArray<T extends TypedArray = TypedArray> {
  /** The values, `components` per element. */
  data: T;
  /** v64+: the compression flag as stored (0 = raw, 2 = compressed); absent for empty arrays. */
  flag?: number;
  /** Condensed arrays only: the default-fill byte; when non-zero `data` holds the one fill element. */
  fill?: number;
  /** Condensed arrays with a fill: the element count the fill stands for. */
  fillCount?: number;
  /** The compressed stream exactly as stored (when the array was stored compressed). */
  packed?: Uint8Array;
  $raw?: Uint8Array;
  $span?: Span;
}

/**
 * Most bytes a stream of `streamBytes` can expand to, by each compressor's real worst case: LZO
 * codes runs of 255 bytes per input byte (~255x), LZSS at best 18 bytes per 17 bits (~8.5x).
 */
export function maxExpansion(method: Method, streamBytes: number): number {
  return method === 'lzo' ? lzo1xMaxOutput(streamBytes) : lzssMaxOutput(streamBytes);
}

/**
 * The values of a block as a typed array. A decompressed block (`owned`: a fresh buffer nothing
 * else holds) becomes the array as it is; bytes of the file are copied, since they may sit at any
 * alignment and the document must not share memory with the input.
 */
function toTyped<T extends TypedArray>(r: BinaryReader, ctx: PackContext, bytes: Uint8Array, t: ElementType<T>, owned = false): T {
  const n = bytes.length / t.bytesPerValue;
  if (owned && bytes.byteOffset % t.bytesPerValue === 0) return t.make(bytes.buffer as ArrayBuffer, bytes.byteOffset, n);
  if (ctx.slab) {
    const at = ctx.slab.place(bytes, 0, bytes.length, 'array', r);
    if (at >= 0) return t.make(ctx.slab.current, at, n);
    const dst = ctx.slab.take(bytes.length, 'array', r);
    dst.set(bytes);
    return t.make(dst.buffer as ArrayBuffer, dst.byteOffset, n);
  }
  r.charge(bytes.length, 'array');
  // new Uint8Array(typedArray) copies without zero-filling first.
  return t.make(new Uint8Array(bytes).buffer, 0, n);
}

export function typedBytes(a: TypedArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * Whether a block of `size` expanded bytes is stored as it is: from v64 its flag byte says so (0),
 * before it the 1024-byte rule does.
 */
function storedRaw(ctx: PackContext, size: number, flag: number | undefined): boolean {
  return ctx.flagged ? flag === 0 : size < 1024;
}

/**
 * Reads one block of `size` expanded bytes in the file's storage rule. Returns the bytes and,
 * when stored compressed, the compressed stream.
 */
export function readBlock(
  r: BinaryReader,
  ctx: PackContext,
  size: number,
): { bytes: Uint8Array; flag?: number; packed?: Uint8Array; owned?: true; deferred?: true } {
  if (size === 0) return { bytes: new Uint8Array(0) };
  const flag = ctx.flagged ? r.u8() : undefined;
  if (storedRaw(ctx, size, flag)) {
    r.need(size, 'array data');
    const raw: { bytes: Uint8Array; flag?: number } = { bytes: r.bytesView(size) };
    if (flag !== undefined) raw.flag = flag;
    return raw;
  }
  if (size > maxExpansion(ctx.method, r.remaining)) {
    r.fail(`compressed array of ${size} bytes cannot come from the ${r.remaining} bytes left (${ctx.method === 'lzo' ? 'LZO' : 'LZSS'} expands at most ${ctx.method === 'lzo' ? '255' : '8.5'}x)`);
  }
  const start = r.pos;
  let res: { data: Uint8Array; consumed: number } | undefined;
  let checked: number | undefined;
  try {
    const src = r.end === r.bytes.length ? r.bytes : r.bytes.subarray(0, r.end);
    // Deferred (PackContext.defer): checked where it lies and charged now, expanded on the first
    // read of the array (readPacked); a method that cannot be checked without its output is not.
    checked = ctx.defer && size >= DEFER_BYTES ? scan(ctx.method, src, start, size) : undefined;
    if (checked !== undefined) chargeAllocation(size, 'compressed array', start, r.path);
    // The node path is text built from the reader's stack: only a stream decoder that charges its
    // own output (no slab) needs it; errors get it in the catch below.
    else {
      const into = ctx.slab?.take(size, 'compressed array', r);
      res = inflate(ctx.method, src, start, size, into, into ? '' : r.path);
    }
  } catch (e) {
    // The stream decoders do not know the node path: add it (a BudgetError already has it).
    if (e instanceof DecodeError && !(e instanceof BudgetError)) throw new DecodeError(e.detail, e.offset, r.path);
    throw e;
  }
  const consumed = res ? res.consumed : checked!;
  r.pos = start + consumed;
  const out: { bytes: Uint8Array; flag?: number; packed: Uint8Array; owned?: true; deferred?: true } = res
    ? { bytes: res.data, owned: true, packed: r.viewAt(start, r.pos) }
    : { bytes: EMPTY_BYTES, deferred: true, packed: r.viewAt(start, r.pos) };
  if (flag !== undefined) out.flag = flag;
  return out;
}

function checkCount(r: BinaryReader, ctx: PackContext, n: number, elementSize: number, at: number): number {
  if (!Number.isInteger(n) || n < 0) r.fail(`element count ${n} is invalid`, at);
  // Arrays under 1024 bytes may be stored raw whatever the method.
  if (n * elementSize > Math.max(1024, maxExpansion(ctx.method, r.remaining))) r.fail(`element count ${n} cannot fit in the ${r.remaining} bytes left`, at);
  return n;
}

const EMPTY_BYTES = new Uint8Array(0);

/**
 * `out.data` made on its first read: the stream `packed` (checked by readBlock) expanded into a
 * buffer of its own (shared/model/deferred.ts). Until then `lengthOf(out, 'data')` is `values`.
 */
function deferData<T extends TypedArray>(out: PackedArray<T>, ctx: PackContext, packed: Uint8Array, size: number, t: ElementType<T>): void {
  deferField(out, 'data', () => {
    const { data } = inflate(ctx.method, packed, 0, size);
    return t.make(data.buffer as ArrayBuffer, data.byteOffset, size / t.bytesPerValue);
  }, size / t.bytesPerValue);
}

/** The stored form of every empty array: a count of 0. Encoders only read `$raw`. */
const EMPTY_RAW = new Uint8Array(4);

/** count (i32), then the block. */
export function readPacked<T extends TypedArray>(r: BinaryReader, ctx: PackContext, t: ElementType<T>, what: string): PackedArray<T> {
  // Most arrays of a real file are empty (70% of the corpus's ~24,000 a pass: named selections
  // list no faces, sections or weights): a count of 0 has no flag byte and no block, and needs no
  // node path and no block. Their stored bytes are always the same four zeros, so they share one
  // copy of them as `$raw` (a view of the input for each was another object per array).
  const at = r.pos;
  if (at + 4 <= r.end && r.view.getInt32(at, true) === 0) {
    r.pos = at + 4;
    return { data: t.empty, $span: [at, at + 4], $raw: EMPTY_RAW };
  }
  r.enter(what);
  try {
    const start = r.pos;
    const elementSize = t.bytesPerValue * t.components;
    const n = checkCount(r, ctx, r.i32(), elementSize, start);
    const size = n * elementSize;
    // A block stored raw that fits the window, copied straight from the input into the slab
    // (readBlock and toTyped, without their views and objects).
    const rawAt = r.pos + (ctx.flagged ? 1 : 0);
    if (ctx.slab && rawAt + size <= r.end && storedRaw(ctx, size, ctx.flagged ? r.bytes[r.pos] : undefined)) {
      const at = ctx.slab.place(r.bytes, rawAt, size, 'array', r);
      if (at >= 0) {
        r.pos = rawAt + size;
        const out: PackedArray<T> = { data: t.make(ctx.slab.current, at, size / t.bytesPerValue) };
        if (ctx.flagged) out.flag = 0;
        out.$span = [start, r.pos];
        out.$raw = r.viewAt(start, r.pos);
        return out;
      }
    }
    const b = readBlock(r, ctx, size);
    const out: PackedArray<T> = { data: b.deferred ? t.empty : toTyped(r, ctx, b.bytes, t, b.owned) };
    if (b.flag !== undefined) out.flag = b.flag;
    if (b.packed) out.packed = b.packed;
    out.$span = [start, r.pos];
    out.$raw = r.viewAt(start, r.pos);
    if (b.deferred) deferData(out, ctx, b.packed!, size, t);
    return out;
  } finally {
    r.leave();
  }
}

/** count (i32), fill byte, then one element or the block. */
export function readCondensed<T extends TypedArray>(r: BinaryReader, ctx: PackContext, t: ElementType<T>, what: string): PackedArray<T> {
  return r.within(what, () => {
    const start = r.pos;
    const elementSize = t.bytesPerValue * t.components;
    const n = r.i32();
    if (!Number.isInteger(n) || n < 0) r.fail(`element count ${n} is invalid`, start);
    const fill = r.u8();
    let out: PackedArray<T>;
    // A filled array stores one element whatever its count: only a stored block is held to the
    // bytes left.
    if (fill === 0) checkCount(r, ctx, n, elementSize, start);
    if (fill !== 0) {
      out = { data: toTyped(r, ctx, r.bytesView(elementSize, 'fill value'), t), fill, fillCount: n };
    } else {
      const b = readBlock(r, ctx, n * elementSize);
      out = { data: b.deferred ? t.empty : toTyped(r, ctx, b.bytes, t, b.owned), fill };
      if (b.flag !== undefined) out.flag = b.flag;
      if (b.packed) out.packed = b.packed;
      if (b.deferred) deferData(out, ctx, b.packed!, n * elementSize, t);
    }
    out.$span = [start, r.pos];
    out.$raw = r.viewAt(start, r.pos);
    return out;
  });
}

/** A block whose size is stored separately (named-selection weights): size i32, then the block. */
export function readSizedBlock(r: BinaryReader, ctx: PackContext, what: string): PackedArray<Uint8Array> {
  return readPacked(r, ctx, U8, what);
}

/**
 * Whether the stored stream `packed` still stands for exactly `bytes`. LZO streams are checked
 * against the data instruction by instruction ({@link lzo1xMatches}: no second copy is expanded,
 * and a changed byte anywhere, an edit in place included, is found); LZSS (pre-v44 files) is
 * expanded and compared.
 */
function streamHolds(method: Method, packed: Uint8Array, bytes: Uint8Array): boolean {
  if (method === 'lzo') return lzo1xMatches(packed, bytes);
  try {
    const back = inflate(method, packed, 0, bytes.length);
    if (back.consumed !== packed.length) return false;
    const a = back.data;
    for (let i = 0; i < a.length; i++) if (a[i] !== bytes[i]) return false;
    return true;
  } catch {
    // The stored stream no longer matches the data.
    return false;
  }
}

/** Writes the block of `bytes` in the file's storage rule, reusing the stored stream when it still fits. */
export function writeBlock(w: BinaryWriter, ctx: PackContext, bytes: Uint8Array, flag: number | undefined, packed: Uint8Array | undefined): void {
  if (bytes.length === 0) return;
  let compressed = bytes.length >= 1024;
  if (ctx.flagged) {
    const f = flag ?? (compressed ? 2 : 0);
    w.u8(f);
    compressed = f !== 0;
  }
  if (!compressed) {
    w.bytes(bytes);
    return;
  }
  if (packed && streamHolds(ctx.method, packed, bytes)) {
    w.bytes(packed);
    return;
  }
  w.bytes(deflate(ctx.method, bytes));
}

/** The array's data as the element type's typed array (edits may hand in plain number arrays). */
function dataOf(a: PackedArray, t: ElementType): TypedArray {
  const d = a.data as unknown;
  if (ArrayBuffer.isView(d)) return a.data;
  if (Array.isArray(d)) return t.from(d as number[]);
  throw new EncodeError('array data must be a list of numbers', '');
}

function elementCount(a: PackedArray, t: ElementType): number {
  const n = dataOf(a, t).length / t.components;
  if (!Number.isInteger(n)) throw new EncodeError(`array of ${dataOf(a, t).length} values is not a whole number of ${t.components}-value elements`, '');
  return n;
}

export function writePacked(w: BinaryWriter, ctx: PackContext, a: PackedArray, t: ElementType, reuseRaw: boolean | undefined): void {
  if (reusable(a, reuseRaw)) {
    w.bytes(a.$raw);
    return;
  }
  w.i32(elementCount(a, t));
  writeBlock(w, ctx, typedBytes(dataOf(a, t)), a.flag, a.packed);
}

export function writeCondensed(w: BinaryWriter, ctx: PackContext, a: PackedArray, t: ElementType, reuseRaw: boolean | undefined): void {
  if (reusable(a, reuseRaw)) {
    w.bytes(a.$raw);
    return;
  }
  if (a.fill) {
    w.i32(a.fillCount ?? 0);
    w.u8(a.fill);
    const one = typedBytes(dataOf(a, t));
    if (one.length !== t.bytesPerValue * t.components) throw new EncodeError('a filled array holds exactly one element', '');
    w.bytes(one);
    return;
  }
  w.i32(elementCount(a, t));
  w.u8(0);
  writeBlock(w, ctx, typedBytes(dataOf(a, t)), a.flag, a.packed);
}

/** Element count of an array, counting a fill as the elements it stands for. */
export function lengthOf(a: PackedArray, t: ElementType): number {
  return a.fill ? (a.fillCount ?? 0) : elementCount(a, t);
}

/** A fresh array (for new documents and fixtures). */
export function packedOf<T extends TypedArray>(data: T): PackedArray<T> {
  return { data };
}
