/**
 * A writer over one buffer of a size known in advance (the MLOD encoder measures the file
 * first). The output is allocated once and returned as is: no growing, no final copy, which on
 * an 85 MB file is most of what encoding costs. Writing past the size throws a RangeError (a
 * measuring bug, never silent truncation); {@link SizedWriter.done} checks the size was exact.
 */
import { encodeText } from '../../../binary/text.ts';

export class SizedWriter {
  readonly buf: Uint8Array;
  readonly view: DataView;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  u8(v: number): void {
    this.view.setUint8(this.pos, v & 0xff);
    this.pos += 1;
  }
  u32(v: number): void {
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }
  f32(v: number): void {
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }
  bytes(b: Uint8Array): void {
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  /** Any typed array, copied as its raw little-endian bytes. */
  typed(a: ArrayBufferView): void {
    this.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  zeros(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError('write past the measured size');
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
  }
  /** Latin-1 text (RangeError for a character that has no byte). */
  string(s: string): void {
    this.bytes(encodeText(s));
  }
  cstring(s: string): void {
    this.string(s);
    this.u8(0);
  }

  /** The output, once every measured byte has been written. */
  done(): Uint8Array {
    if (this.pos !== this.buf.length) throw new Error(`MLOD encoder measured ${this.buf.length} bytes but wrote ${this.pos}`);
    return this.buf;
  }
}
