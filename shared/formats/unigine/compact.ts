/**
 * Unigine's compact signed integer (the `int` of the mesh and anim documents, read by
 * `readInt2`), worked out from real files: the first byte holds 6 value bits, a sign bit (0x40)
 * and a continuation bit (0x80); each further byte holds 7 value bits and a continuation bit.
 * 24 is `18`, 88 is `98 01`, 15384 is `98 f0 01`.
 */
import type { BinaryReader } from '../../binary/reader.ts';
import type { BinaryWriter } from '../../binary/writer.ts';
import { decodeText, encodeText } from '../../binary/text.ts';

/** Byte length of the canonical encoding of `v`. */
export function compactSize(v: number): number {
  let m = Math.abs(v);
  let n = 1;
  m = Math.floor(m / 64);
  while (m > 0) {
    n++;
    m = Math.floor(m / 128);
  }
  return n;
}

export function readCompact(r: BinaryReader, what = 'compact integer'): number {
  const at = r.pos;
  let c = r.u8();
  const negative = (c & 0x40) !== 0;
  let v = c & 0x3f;
  let scale = 64;
  let bytes = 1;
  while (c & 0x80) {
    if (bytes >= 5) r.fail(`${what} is longer than 5 bytes`, at);
    c = r.u8();
    v += (c & 0x7f) * scale;
    scale *= 128;
    bytes++;
  }
  if (v > 0x7fffffff) r.fail(`${what} ${v} is out of range`, at);
  // Only the shortest form is known from real files; anything else could not be written back.
  if (bytes !== compactSize(v) || (negative && v === 0)) r.fail(`${what} is not in its shortest form`, at);
  return negative ? -v : v;
}

/** A compact count validated against the bytes left (see BinaryReader.count). */
export function readCompactCount(r: BinaryReader, minElementSize: number, what: string, recordBytes?: number): number {
  const at = r.pos;
  const n = r.count(readCompact(r, `${what} count`), minElementSize, what, at);
  // A list of decoded records: charged once, before it is built (see chargeRecords).
  if (recordBytes !== undefined) r.chargeRecords(n, recordBytes, what, at);
  return n;
}

export function writeCompact(w: BinaryWriter, v: number): void {
  let m = Math.abs(v);
  let first = (m & 0x3f) | (v < 0 ? 0x40 : 0);
  m = Math.floor(m / 64);
  if (m > 0) first |= 0x80;
  w.u8(first);
  while (m > 0) {
    let b = m & 0x7f;
    m = Math.floor(m / 128);
    if (m > 0) b |= 0x80;
    w.u8(b);
  }
}

/** A string: compact length including the NUL terminator, then the bytes and the NUL. */
export function readUString(r: BinaryReader, what = 'name'): string {
  const at = r.pos;
  const n = readCompactCount(r, 1, `${what} length`);
  if (n < 1) r.fail(`${what} length ${n} leaves no room for the NUL terminator`, at);
  const bytes = r.bytesView(n, what);
  if (bytes[n - 1] !== 0) r.fail(`${what} is not NUL-terminated`, at);
  return decodeText(bytes.subarray(0, n - 1), 'latin1');
}

export function writeUString(w: BinaryWriter, s: string): void {
  const b = encodeText(s, 'latin1');
  writeCompact(w, b.length + 1);
  w.bytes(b);
  w.u8(0);
}

export function uStringSize(s: string): number {
  return compactSize(s.length + 1) + s.length + 1;
}
