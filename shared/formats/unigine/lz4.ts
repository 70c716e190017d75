/**
 * LZ4 block format (no frame header), as UNIGINE 2.x writes the geometry blocks of ms14 meshes.
 * The decoder checks every length against its input and the declared output size; the encoder
 * is a small greedy matcher (any valid block decodes the same, so it need not match the bytes the
 * engine wrote: untouched blocks are written back as they came).
 */

import { chargeAllocation } from '../../binary/budget.ts';

/**
 * Most bytes an LZ4 block of `blockBytes` can decode to: a match length extends by 255 per byte,
 * so the real worst case is about 255 output bytes per input byte.
 */
export function lz4MaxOutput(blockBytes: number): number {
  return Math.max(0, blockBytes) * 255 + 16;
}

/**
 * Decodes one block into exactly `size` bytes, or returns an error message. A size the block
 * cannot produce is refused before allocating; the allocation is charged to the decoding budget
 * (a BudgetError, which the caller places, when it would pass it).
 */
export function lz4Decompress(src: Uint8Array, size: number, offset = 0, path = ''): Uint8Array | string {
  if (!Number.isInteger(size) || size < 0) return `declared size ${size} is invalid`;
  if (size > lz4MaxOutput(src.length)) return `a block of ${src.length} bytes cannot decode to the declared ${size} bytes`;
  chargeAllocation(size, 'LZ4 block', offset, path, src.length);
  const out = new Uint8Array(size);
  let ip = 0, op = 0;
  while (ip < src.length) {
    const token = src[ip++]!;
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (ip >= src.length) return 'literal length runs past the block';
        b = src[ip++]!;
        lit += b;
      } while (b === 255);
    }
    if (ip + lit > src.length) return 'literals run past the block';
    if (op + lit > size) return 'literals overflow the declared size';
    // Short runs byte by byte (a subarray + set per run cost more than the copy itself).
    if (lit < 32) {
      for (const e = ip + lit; ip < e; ) out[op++] = src[ip++]!;
    } else {
      out.set(src.subarray(ip, ip + lit), op);
      ip += lit;
      op += lit;
    }
    if (ip >= src.length) break;
    if (ip + 2 > src.length) return 'match offset runs past the block';
    const offset = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (offset === 0 || offset > op) return `match offset ${offset} points before the output`;
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        if (ip >= src.length) return 'match length runs past the block';
        b = src[ip++]!;
        len += b;
      } while (b === 255);
    }
    len += 4;
    if (op + len > size) return 'match overflows the declared size';
    if (offset >= len && len >= 32) {
      // Source and destination do not overlap: one native copy.
      out.copyWithin(op, op - offset, op - offset + len);
      op += len;
    } else {
      for (const e = op + len; op < e; op++) out[op] = out[op - offset]!;
    }
  }
  if (op !== size) return `block decodes to ${op} bytes, not the declared ${size}`;
  return out;
}

/** Greedy LZ4 block compressor (4-byte hash, last 5 bytes always literals as the format asks). */
export function lz4Compress(src: Uint8Array): Uint8Array {
  // Written into one buffer of the worst case (all literals: n + n/255 + a token), not a number
  // array: that was most of the time and memory of writing a large ms14 mesh.
  const out = new Uint8Array(src.length + Math.ceil(src.length / 255) + 16);
  let op = 0;
  const writeLength = (n: number): void => {
    while (n >= 255) {
      out[op++] = 255;
      n -= 255;
    }
    out[op++] = n;
  };
  const table = new Int32Array(1 << 16).fill(-1);
  const hash = (i: number): number => (Math.imul(src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24), 2654435761) >>> 16) & 0xffff;
  let anchor = 0;
  let i = 0;
  const limit = src.length - 12;
  const emit = (litEnd: number, matchLen: number, offset: number): void => {
    const lit = litEnd - anchor;
    const ml = matchLen - 4;
    out[op++] = ((lit >= 15 ? 15 : lit) << 4) | (matchLen === 0 ? 0 : ml >= 15 ? 15 : ml);
    if (lit >= 15) writeLength(lit - 15);
    out.set(src.subarray(anchor, litEnd), op);
    op += lit;
    if (matchLen === 0) return;
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
    if (ml >= 15) writeLength(ml - 15);
  };
  while (i < limit) {
    const h = hash(i);
    const cand = table[h]!;
    table[h] = i;
    if (cand >= 0 && i - cand < 65536 && src[cand] === src[i] && src[cand + 1] === src[i + 1] && src[cand + 2] === src[i + 2] && src[cand + 3] === src[i + 3]) {
      let len = 4;
      while (i + len < src.length - 5 && src[cand + len] === src[i + len]) len++;
      emit(i, len, i - cand);
      i += len;
      anchor = i;
    } else {
      i++;
    }
  }
  emit(src.length, 0, 0);
  // A view, not a copy: the block is written out once and dropped.
  return out.subarray(0, op);
}
