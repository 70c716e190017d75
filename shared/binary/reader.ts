import { DecodeError } from '../errors.ts';
import { activeBudget, chargeAllocation, defaultBudgetBytes } from './budget.ts';
import { keepIntact, placeBelow, placed, sharingBuffer } from './share.ts';
import { decodeText, latin1At, type TextEncoding } from './text.ts';

// Span lives in its own module so modules the reader imports can name it without a cycle.
export type { Span } from './span.ts';

export interface ReaderOptions {
  /**
   * Bulk reads return views of `bytes` where the element alignment allows, instead of copies
   * (see share.ts); 'in-situ' places unaligned arrays below their bytes too, to be moved there when
   * the decode ends (only inside `withSharedInput(..., 'in-situ')`). Default: the mode of
   * `withSharedInput` for that input's buffer, else false.
   */
  share?: boolean | 'in-situ';
}

type TypedCtor<T> = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;

/** Fewest indices {@link BinaryReader.lazyIndexArray} defers (smaller arrays cost less than the deferral). */
export const LAZY_INDICES = 4096;

/**
 * Indices of 1 or 2 bytes each as a new Uint32Array: constructed from a typed array (a native
 * conversion that does not zero-fill first), straight from the bytes, except 2-byte indices at an
 * odd offset, which cannot be viewed as a Uint16Array in place and are copied first.
 */
function widenIndices(src: Uint8Array, width: 1 | 2): Uint32Array {
  if (width === 1) return new Uint32Array(src);
  const n = src.length >> 1;
  if (src.byteOffset % 2 === 0) return new Uint32Array(new Uint16Array(src.buffer, src.byteOffset, n));
  return new Uint32Array(new Uint16Array(new Uint8Array(src).buffer, 0, n));
}

/**
 * Little-endian reader over a Uint8Array with bounds checks on every read, a node-path stack for
 * error messages, and typed-array fast paths for bulk arrays.
 *
 * Every count read from a file must pass through {@link BinaryReader.count} (or a bulk read, which
 * checks itself) before anything is allocated: no input can make the reader allocate more than a
 * small multiple of its own size, and every read consumes bytes, so no input can loop forever.
 *
 * Bulk reads copy by default, so the document owns its memory. A sharing reader (`share`, see
 * share.ts) returns views of `bytes` for them instead wherever the offset is a multiple of the
 * element size; unaligned and converted arrays are still copied (and charged).
 */
export class BinaryReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Bulk reads hand out views of `bytes` where aligned (sub-readers inherit it). */
  readonly share: boolean;
  /** Unaligned bulk reads are placed in situ (see share.ts). */
  readonly inSitu: boolean;
  /** Set by sharedAt when the offset it returned is an in-situ placement awaiting its array. */
  private placing = false;
  /** Absolute position in `bytes`. */
  pos: number;
  /** Absolute end (exclusive) of the window this reader may read. */
  readonly end: number;
  /** Path segments; a number is a list index, printed `[n]` (formatted only when a path is asked for). */
  private readonly stack: (string | number)[];

  constructor(bytes: Uint8Array, start = 0, end = bytes.length, path: readonly string[] = [], opts: ReaderOptions = {}) {
    this.bytes = bytes;
    const mode = opts.share === undefined ? sharingBuffer(bytes.buffer) : opts.share === true ? 'share' : opts.share || undefined;
    this.share = mode !== undefined;
    this.inSitu = mode === 'in-situ';
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
    this.stack = [...path];
  }

  get remaining(): number {
    return this.end - this.pos;
  }
  get atEnd(): boolean {
    return this.pos >= this.end;
  }
  /** The current node path as printed in errors. */
  get path(): string {
    return this.pathSegments.join('/');
  }
  get pathSegments(): readonly string[] {
    return this.stack.map((s) => (typeof s === 'number' ? `[${s}]` : s));
  }

  enter(segment: string): void {
    this.stack.push(segment);
  }
  /** Enters list element `i` (the path shows `[i]`); leave() as for enter. */
  enterIndex(i: number): void {
    this.stack.push(i);
  }
  leave(): void {
    this.stack.pop();
  }
  /** Runs `fn` with `segment` pushed on the node path. */
  within<T>(segment: string, fn: () => T): T {
    this.stack.push(segment);
    try {
      return fn();
    } finally {
      this.stack.pop();
    }
  }

  /**
   * chargeAllocation at `offset` (the current position unless given), building the node path
   * only when the charge fails (joining it for every small array was 2% of decoding a real ODOL
   * file).
   */
  charge(bytes: number, what: string, offset = this.pos): void {
    if (!this.chargeIfFits(bytes, what)) chargeAllocation(bytes, what, offset, this.path);
  }

  /**
   * {@link charge} for a field `segment` of the node being read: the segment joins the node path
   * only when the charge fails (a record reader then needs no path bookkeeping per field).
   */
  chargeIn(segment: string, bytes: number, what: string): void {
    if (this.chargeIfFits(bytes, what)) return;
    this.stack.push(segment);
    try {
      chargeAllocation(bytes, what, this.pos, this.path);
    } finally {
      this.stack.pop();
    }
  }

  /** Charges `bytes` and says true when they fit; false (nothing charged) when the charge must fail. */
  private chargeIfFits(bytes: number, what: string): boolean {
    const budget = activeBudget();
    if (budget !== undefined ? !budget.fits(bytes) : !(bytes >= 0 && bytes <= defaultBudgetBytes(0))) return false;
    budget?.charge(bytes, what);
    return true;
  }

  /**
   * Charges a list of `n` decoded records before it is built: once per list, never per record, so
   * it costs nothing per record. A record of a few bytes in the file is a JS object of tens or
   * hundreds of bytes (more when it holds typed arrays), so a count the file's size allows could
   * still fill the heap under the limit; `recordBytes` is the caller's estimate of one record.
   */
  chargeRecords(n: number, recordBytes: number, what: string, offset = this.pos): void {
    this.charge(n * recordBytes, `${n} ${what} record(s)`, offset);
  }

  fail(message: string, offset: number = this.pos): never {
    throw new DecodeError(message, offset, this.path);
  }

  /** Throws unless `n` more bytes can be read. */
  need(n: number, what = 'data'): void {
    if (!(n >= 0) || this.pos + n > this.end) {
      this.fail(`${what} needs ${n} bytes but only ${this.remaining} remain`);
    }
  }

  /**
   * Validates a count read from the file: a non-negative integer whose elements (of at least
   * `minElementSize` bytes each) fit in the bytes left. Call it before allocating anything.
   */
  count(n: number, minElementSize: number, what: string, at: number = this.pos): number {
    if (!Number.isInteger(n) || n < 0) this.fail(`${what} count ${n} is invalid`, at);
    if (minElementSize > 0 && n * minElementSize > this.remaining) {
      this.fail(`${what} count ${n} needs at least ${n * minElementSize} bytes but only ${this.remaining} remain`, at);
    }
    return n;
  }

  /** Reads an i32 count and validates it (see {@link count}). */
  i32Count(minElementSize: number, what: string): number {
    const at = this.pos;
    return this.count(this.i32(), minElementSize, what, at);
  }
  u32Count(minElementSize: number, what: string): number {
    const at = this.pos;
    return this.count(this.u32(), minElementSize, what, at);
  }

  seek(pos: number): void {
    if (pos < 0 || pos > this.end) this.fail(`seek to ${pos} is outside the data (end ${this.end})`);
    this.pos = pos;
  }
  skip(n: number, what = 'skipped data'): void {
    this.need(n, what);
    this.pos += n;
  }

  u8(): number {
    if (this.pos + 1 > this.end) this.need(1, 'u8');
    return this.bytes[this.pos++]!;
  }
  i8(): number {
    if (this.pos + 1 > this.end) this.need(1, 'i8');
    return this.view.getInt8(this.pos++);
  }
  u16(): number {
    if (this.pos + 2 > this.end) this.need(2, 'u16');
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  i16(): number {
    if (this.pos + 2 > this.end) this.need(2, 'i16');
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u24(): number {
    if (this.pos + 3 > this.end) this.need(3, 'u24');
    const b = this.bytes;
    const v = b[this.pos]! | (b[this.pos + 1]! << 8) | (b[this.pos + 2]! << 16);
    this.pos += 3;
    return v;
  }
  u32(): number {
    if (this.pos + 4 > this.end) this.need(4, 'u32');
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(): number {
    if (this.pos + 4 > this.end) this.need(4, 'i32');
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64(): bigint {
    this.need(8, 'u64');
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  f32(): number {
    if (this.pos + 4 > this.end) this.need(4, 'f32');
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8, 'f64');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** n floats as a plain array (for small vectors and matrices). */
  f32s(n: number): number[] {
    this.need(n * 4, `${n} floats`);
    // A plain array costs 8 bytes per number.
    this.charge(n * 8, `${n} floats`);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.f32();
    return out;
  }

  /** A zero-copy view of the next n bytes. */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  /**
   * A copy of the next n bytes (safe to keep after the input buffer is released or mutated), or,
   * in a sharing reader, a view of them (the caller promised not to change the input).
   */
  bytesCopy(n: number, what = 'bytes'): Uint8Array {
    if (this.share) return this.bytesView(n, what);
    // Constructing from a typed array allocates without zero-filling and copies once; `slice()`
    // and `new ArrayBuffer` + `set` zero the memory first (1.4-1.6x slower on 12 MB arrays).
    this.need(n, what);
    this.charge(n, what);
    return new Uint8Array(this.bytesView(n, what));
  }
  /** The bytes between two absolute offsets as a view, without moving. */
  viewAt(start: number, end: number): Uint8Array {
    return this.bytes.subarray(start, end);
  }

  /** n bytes decoded as text (no terminator handling). */
  string(n: number, enc: TextEncoding = 'latin1', what = 'string'): string {
    return decodeText(this.bytesView(n, what), enc);
  }
  /** An i32 length followed by that many bytes of text. */
  lenString(enc: TextEncoding = 'latin1', what = 'string'): string {
    const at = this.pos;
    const n = this.i32();
    this.count(n, 1, `${what} length`, at);
    return this.string(n, enc, what);
  }
  /** A NUL-terminated string; the terminator is consumed. Fails if none is found in the window. */
  cstring(enc: TextEncoding = 'latin1', what = 'string'): string {
    const start = this.pos;
    const z = this.bytes.indexOf(0, start);
    if (z < 0 || z >= this.end) this.fail(`${what} has no NUL terminator`);
    this.pos = z + 1;
    return enc === 'latin1' ? latin1At(this.bytes, start, z) : decodeText(this.bytes.subarray(start, z), enc);
  }

  // Bulk arrays: one bounds check and one memcpy into an aligned typed array, or in a sharing
  // reader a view when the offset is aligned. The host is assumed little-endian (every platform
  // Electron and Node ship for is).
  u8Array(n: number, what = 'u8 array'): Uint8Array {
    return this.bytesCopy(n, what);
  }
  i8Array(n: number, what = 'i8 array'): Int8Array {
    const b = this.bytesCopy(n, what);
    return new Int8Array(b.buffer, b.byteOffset, n);
  }
  u16Array(n: number, what = 'u16 array'): Uint16Array {
    return this.bulk(n, 2, Uint16Array, what);
  }
  i16Array(n: number, what = 'i16 array'): Int16Array {
    return this.bulk(n, 2, Int16Array, what);
  }
  u32Array(n: number, what = 'u32 array'): Uint32Array {
    return this.bulk(n, 4, Uint32Array, what);
  }
  i32Array(n: number, what = 'i32 array'): Int32Array {
    return this.bulk(n, 4, Int32Array, what);
  }
  f32Array(n: number, what = 'f32 array'): Float32Array {
    return this.bulk(n, 4, Float32Array, what);
  }
  f64Array(n: number, what = 'f64 array'): Float64Array {
    return this.bulk(n, 8, Float64Array, what);
  }

  /** n elements of `size` bytes: a view where sharing allows it, else an aligned copy. */
  private bulk<T extends ArrayBufferView>(n: number, size: number, C: TypedCtor<T>, what: string): T {
    const at = this.sharedAt(n * size, size, what);
    if (at < 0) return new C(this.alignedCopy(n * size, what), 0, n);
    const a = new C(this.bytes.buffer, at, n);
    if (!this.placing) return a;
    this.placing = false;
    return placed(a);
  }

  /** Unsigned indices of 1, 2 or 4 bytes each, widened to a Uint32Array. */
  indexArray(n: number, width: 1 | 2 | 4, what = 'indices'): Uint32Array {
    if (width === 4) return this.u32Array(n, what);
    return widenIndices(this.narrowIndices(n, width, what), width);
  }

  /**
   * Indices stored 1 or 2 bytes wide, as a function that widens them when first called, for a
   * deferred field (shared/model/deferred.ts): in a sharing reader only (the input stays
   * unchanged while the document lives; in situ its bytes are kept where they are, see share.ts's
   * keepIntact), for at least {@link LAZY_INDICES} of them. `info`, `roundtrip` and an untouched
   * save never read them, and widening them into a new Uint32Array was most of an in-situ
   * decode's time and of `info`'s memory beyond the file itself. The budget is charged now, as
   * for {@link indexArray}. Undefined where the caller reads them with indexArray instead.
   */
  lazyIndexArray(n: number, width: 1 | 2 | 4, what = 'indices'): (() => Uint32Array) | undefined {
    if (!this.share || width === 4 || n < LAZY_INDICES) return undefined;
    const src = keepIntact(this.narrowIndices(n, width, what));
    return () => widenIndices(src, width);
  }

  /**
   * The bytes of n indices 1 or 2 bytes wide (a view), moving past them, with the budget charged
   * for what widening them costs: the Uint32Array, and for 2-byte indices at an odd offset the
   * aligned copy made first (see widenIndices).
   */
  private narrowIndices(n: number, width: 1 | 2, what: string): Uint8Array {
    if (!Number.isInteger(n)) this.fail(`${what} has a non-integer size`);
    this.need(n * width, what);
    const src = this.bytes.subarray(this.pos, this.pos + n * width);
    this.charge(n * (width === 2 && src.byteOffset % 2 !== 0 ? 6 : 4), what);
    this.pos += n * width;
    return src;
  }

  /** u8 values widened to a Uint16Array (one native conversion, no temporary copy). */
  u8ToU16Array(n: number, what = 'u8 array'): Uint16Array {
    this.need(n, what);
    this.charge(n * 2, what);
    return new Uint16Array(this.bytesView(n, what));
  }

  /**
   * In a sharing reader, when the next `byteLength` bytes start at a multiple of `align` in the
   * underlying ArrayBuffer: checks them, moves past them and returns that absolute offset (the
   * caller makes a view there, which charges nothing). Otherwise -1 and nothing moves.
   */
  private sharedAt(byteLength: number, align: number, what: string): number {
    if (!this.share) return -1;
    const at = this.bytes.byteOffset + this.pos;
    if (at % align !== 0 && !this.inSitu) return -1;
    if (!Number.isInteger(byteLength)) this.fail(`${what} has a non-integer size`);
    this.need(byteLength, what);
    if (at % align !== 0) {
      // In situ: a view at the aligned offset below, filled when the decode ends (share.ts).
      const to = placeBelow(this.bytes.buffer, at, byteLength, align);
      if (to < 0) return -1;
      this.placing = true;
      this.pos += byteLength;
      return to;
    }
    this.pos += byteLength;
    return at;
  }

  private alignedCopy(byteLength: number, what: string): ArrayBuffer {
    // Empty arrays are common (ODOL lists an i32 array per bone): nothing to check or copy.
    if (byteLength === 0) return new ArrayBuffer(0);
    if (!Number.isInteger(byteLength)) this.fail(`${what} has a non-integer size`);
    this.need(byteLength, what);
    this.charge(byteLength, what);
    // One allocation (not zero-filled) and one copy; see bytesCopy.
    const buf = new Uint8Array(this.bytes.subarray(this.pos, this.pos + byteLength)).buffer;
    this.pos += byteLength;
    return buf;
  }

  /**
   * A reader limited to the next `length` bytes (same buffer, absolute offsets), with `segment`
   * pushed on its path. This reader moves past those bytes.
   */
  sub(length: number, segment?: string, what = 'block'): BinaryReader {
    this.need(length, what);
    const r = new BinaryReader(this.bytes, this.pos, this.pos + length, segment ? [...this.pathSegments, segment] : this.pathSegments, { share: this.inSitu ? 'in-situ' : this.share });
    this.pos += length;
    return r;
  }

  /** Throws unless the reader consumed its window exactly. */
  expectEnd(what = 'block'): void {
    if (this.pos !== this.end) this.fail(`${what} has ${this.end - this.pos} unread bytes`);
  }
}
