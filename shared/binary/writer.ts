import { encodeText, type TextEncoding } from './text.ts';

/** Growable little-endian writer with typed-array fast paths and back-patching for sizes. */
export class BinaryWriter {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;

  constructor(initialCapacity = 4096) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
  }
  i8(v: number): void {
    this.ensure(1);
    this.view.setInt8(this.pos++, v);
  }
  u16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  i16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.pos, v, true);
    this.pos += 2;
  }
  u24(v: number): void {
    this.ensure(3);
    this.buf[this.pos] = v & 0xff;
    this.buf[this.pos + 1] = (v >>> 8) & 0xff;
    this.buf[this.pos + 2] = (v >>> 16) & 0xff;
    this.pos += 3;
  }
  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }
  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }
  u64(v: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, true);
    this.pos += 8;
  }
  f32(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }
  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }
  f32s(values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) this.f32(values[i]!);
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  zeros(n: number): void {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
  }
  /** Any typed array, copied as its raw little-endian bytes. */
  typed(a: ArrayBufferView): void {
    this.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  /** Indices written 1, 2 or 4 bytes wide. */
  indexArray(a: ArrayLike<number>, width: 1 | 2 | 4): void {
    if (width === 4) return this.typed(a instanceof Uint32Array ? a : Uint32Array.from(a));
    if (width === 2) return this.typed(a instanceof Uint16Array ? a : Uint16Array.from(a));
    return this.typed(a instanceof Uint8Array ? a : Uint8Array.from(a));
  }

  string(s: string, enc: TextEncoding = 'latin1'): void {
    this.bytes(encodeText(s, enc));
  }
  lenString(s: string, enc: TextEncoding = 'latin1'): void {
    const b = encodeText(s, enc);
    this.i32(b.length);
    this.bytes(b);
  }
  cstring(s: string, enc: TextEncoding = 'latin1'): void {
    this.bytes(encodeText(s, enc));
    this.u8(0);
  }

  /** Reserves a u32/i32 slot to fill in later with {@link patchI32}. Returns its offset. */
  reserve32(): number {
    const at = this.pos;
    this.i32(0);
    return at;
  }
  patchI32(at: number, v: number): void {
    this.view.setInt32(at, v, true);
  }
  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, true);
  }

  /** The written bytes (a copy sized exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
