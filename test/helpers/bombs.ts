/**
 * Decompression bombs built the way an attacker would (issue: "Hostile files"): a valid ODOL whose
 * one compressed array is replaced by a tiny stream that expands far past the file, with the
 * vertex table's size and the LOD's end offset moved to cover it. Generated here, never stored.
 */
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { buildOdolDocument } from '../../scripts/fixtures/odol.ts';

/**
 * An LZO1X stream that expands to exactly `n` (>= 4) zero bytes: one literal, then one M3 match
 * at distance 1 whose length is extended by zero bytes (255 each: LZO's real worst case, ~255x),
 * then the end marker.
 */
export function lzoZeroBomb(n: number): Uint8Array {
  if (n < 36) throw new RangeError('lzoZeroBomb needs n >= 36');
  const m = n - 1;
  const x = m - 33;
  const k = Math.floor((x - 1) / 255);
  const last = x - 255 * k;
  const out = new Uint8Array(2 + 1 + k + 1 + 2 + 3);
  let o = 0;
  out[o++] = 18; // first byte > 17: 1 literal
  out[o++] = 0;
  out[o++] = 0x20; // M3, length extended
  o += k; // k zero bytes, 255 each
  out[o++] = last;
  out[o++] = 0; // distance 1, no trailing literals
  out[o++] = 0;
  out[o++] = 0x11; // end of stream
  out[o++] = 0;
  out[o++] = 0;
  return out.subarray(0, o);
}

/** An LZSS stream of `n` zero bytes that is as short as LZSS allows (all 18-byte references). */
export function lzssZeroBomb(n: number): Uint8Array {
  const first = Math.min(n, 1);
  const refs = Math.ceil((n - first) / 18);
  const tokens = first + refs;
  const out = new Uint8Array(Math.ceil(tokens / 8) + first + 2 * refs + 4);
  let o = 0;
  let t = 0;
  let flagAt = 0;
  const token = (literal: boolean): void => {
    if (t % 8 === 0) flagAt = o++;
    if (literal) out[flagAt]! |= 1 << t % 8;
    t++;
  };
  if (first) {
    token(true);
    out[o++] = 0;
  }
  for (let i = 0; i < refs; i++) {
    token(false);
    out[o++] = 1; // distance 1
    out[o++] = 0x0f; // length 18
  }
  // The checksum: zero bytes sum to 0.
  return out.subarray(0, o + 4);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}
function setU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = (v >>> 24) & 0xff;
}

/**
 * An Arma ODOL (v73, one LOD, LZO) of about `fileBytes` bytes whose vertex array claims
 * `expandTo` bytes (a multiple of 12) from an LZO bomb; the vertex table's size and the LOD's end
 * offset are moved to cover it, so only the expansion itself is wrong.
 * When `fileBytes` is more than that takes, zero bytes after the LOD (trailing data) make it up.
 */
export function odolLzoBomb(expandTo: number, fileBytes = 0): Uint8Array {
  const doc = buildOdolDocument({ version: 73, lods: 1, size: 8 });
  const bytes = odolCodec.encode(doc);
  const back = odolCodec.decode(bytes) as OdolV4xDocument;
  const lod = back.lods[0]!;
  const [vs, ve] = lod.vertices.$span!;
  const restAt = lod.clip!.$span![0] - 4;
  // lodStarts then lodEnds (one LOD): the 8 bytes holding (start, end).
  const [lodStart, lodEnd] = lod.$span!;
  let lodPair = -1;
  for (let i = 0; i + 8 <= lodStart; i++) {
    if (u32(bytes, i) === lodStart && u32(bytes, i + 4) === lodEnd) {
      lodPair = i;
      break;
    }
  }
  if (lodPair < 0) throw new Error('LOD offsets not found');
  if (expandTo % 12 !== 0) throw new RangeError('expandTo must be a multiple of 12 (VEC3 elements)');
  const bomb = lzoZeroBomb(expandTo);
  const head = new Uint8Array(5);
  setU32(head, 0, expandTo / 12);
  head[4] = 2; // v64+: compressed
  const tail = bytes.subarray(ve);
  const pad = Math.max(0, fileBytes - (vs + head.length + bomb.length + tail.length));
  const out = new Uint8Array(vs + head.length + bomb.length + tail.length + pad);
  out.set(bytes.subarray(0, vs), 0);
  out.set(head, vs);
  out.set(bomb, vs + head.length);
  out.set(tail, vs + head.length + bomb.length);
  const delta = head.length + bomb.length - (ve - vs);
  setU32(out, restAt, u32(bytes, restAt) + delta);
  setU32(out, lodPair + 4, lodEnd + delta);
  return out;
}
