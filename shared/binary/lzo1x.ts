/**
 * LZO1X (the bitstream of liblzo2's lzo1x_* functions, used by ODOL v44+ arrays), both directions.
 *
 * The format (Bohemia wiki "Compressed LZO File Format"; the LZO1X description that ships with
 * liblzo2 and the Linux kernel): a sequence of instructions; what an opcode below 16 means depends
 * on the number of literals the previous instruction copied (the "state"):
 *
 * | opcode | meaning |
 * | --- | --- |
 * | first byte > 17 | copy `byte - 17` literals (state = that count, 4 if 4 or more) |
 * | 0..15, state 0 | literal run: `L + 3` bytes, L = 0 extends (zero bytes add 255, then a final byte + 15) |
 * | 0..15, state 1..3 | M1: 2 bytes at distance `1 + (op >> 2) + (next << 2)` (<= 1 KiB) |
 * | 0..15, state 4 | 3 bytes at distance `2049 + (op >> 2) + (next << 2)` |
 * | 16..31 | M4: length `2 + (op & 7)` (0 extends from 7), LE16 `d`, distance `16384 + ((op & 8) << 11) + (d >> 2)`; distance 16384 ends the stream |
 * | 32..63 | M3: length `2 + (op & 31)` (0 extends from 31), LE16 `d`, distance `1 + (d >> 2)` |
 * | 64..255 | M2: length `(op >> 5) + 1` (3..8), distance `1 + ((op >> 2) & 7) + (next << 3)` |
 *
 * Every match carries S = the low 2 bits of the byte two before the instruction's end: that many
 * literals follow the match directly, and S becomes the new state. The stream ends with the
 * M4 instruction of distance 16384: bytes `0x11 0x00 0x00`.
 */
import { DecodeError } from '../errors.ts';

export interface Lzo1xResult {
  data: Uint8Array;
  /** Compressed bytes used, the end-of-stream marker included. */
  consumed: number;
}

const M2_MAX_LEN = 8;
const M2_MAX_OFFSET = 0x0800;
const M3_MAX_OFFSET = 0x4000;
const M4_MAX_OFFSET = 0xbfff;

/**
 * Decompresses an LZO1X stream starting at `offset` that must yield exactly `expectedSize` bytes
 * and end with the end-of-stream marker. Bounded: never reads outside `src`, never writes past
 * `expectedSize`, never references before the start of the output; corrupt input throws
 * {@link DecodeError} with the absolute offset of the offending instruction.
 */
export function lzo1xDecompress(src: Uint8Array, offset: number, expectedSize: number): Lzo1xResult {
  if (!Number.isInteger(expectedSize) || expectedSize < 0) {
    throw new DecodeError(`LZO expected size ${expectedSize} is invalid`, offset, '');
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > src.length) {
    throw new DecodeError('LZO stream starts outside the data', Math.max(0, offset | 0), '');
  }
  // The best an instruction can do is about 255 output bytes per input byte (extended match
  // lengths), so a stream this short cannot produce the claimed size: refuse before allocating.
  const remaining = src.length - offset;
  if (expectedSize > remaining * 256 + 3) {
    throw new DecodeError(
      `LZO stream of at most ${remaining} bytes cannot produce ${expectedSize} bytes`,
      offset,
      '',
    );
  }
  const out = new Uint8Array(expectedSize);
  const end = src.length;
  let ip = offset;
  let op = 0;
  let state = 0;
  let at = ip;

  const fail = (msg: string, where: number): never => {
    throw new DecodeError(`LZO ${msg} (output ${op} of ${expectedSize})`, where, '');
  };
  const copyLiterals = (n: number): void => {
    if (ip + n > end) fail(`literal run of ${n} bytes runs past the input`, at);
    if (op + n > expectedSize) fail(`literal run of ${n} bytes overflows the output`, at);
    if (n < 8) {
      for (let k = 0; k < n; k++) out[op + k] = src[ip + k]!;
    } else {
      out.set(src.subarray(ip, ip + n), op);
    }
    ip += n;
    op += n;
  };
  /** Extended length: zero bytes add 255 each, then a non-zero byte adds itself. */
  const extend = (base: number): number => {
    let t = base;
    for (;;) {
      if (ip >= end) fail('length extension runs past the input', at);
      const b = src[ip++]!;
      if (b !== 0) return t + b;
      t += 255;
      // A length beyond the output is corrupt however it continues: stop before looping on.
      if (t > expectedSize + 255) fail('length extension exceeds the expected size', at);
    }
  };
  const copyMatch = (dist: number, len: number): void => {
    if (dist > op) fail(`match distance ${dist} reaches before the start of the output`, at);
    if (op + len > expectedSize) fail(`match of ${len} bytes overflows the output`, at);
    let from = op - dist;
    if (dist >= len && len >= 32) {
      out.copyWithin(op, from, from + len);
      op += len;
    } else {
      // Overlapping copies repeat the pattern, so they must go byte by byte.
      const stop = op + len;
      while (op < stop) out[op++] = out[from++]!;
    }
  };
  const need = (n: number): void => {
    if (ip + n > end) fail('instruction runs past the input', at);
  };

  if (ip < end && src[ip]! > 17) {
    at = ip;
    const t = src[ip++]! - 17;
    copyLiterals(t);
    state = t < 4 ? t : 4;
  }
  for (;;) {
    at = ip;
    if (ip >= end) fail('stream ends without an end marker', ip);
    const t = src[ip++]!;
    let dist: number;
    let len: number;
    if (t < 16) {
      if (state === 0) {
        const n = t === 0 ? extend(15) + 3 : t + 3;
        copyLiterals(n);
        state = 4;
        continue;
      }
      need(1);
      if (state === 4) {
        dist = 1 + M2_MAX_OFFSET + (t >> 2) + (src[ip++]! << 2);
        len = 3;
      } else {
        dist = 1 + (t >> 2) + (src[ip++]! << 2);
        len = 2;
      }
    } else if (t < 32) {
      len = (t & 7) === 0 ? extend(7) + 2 : (t & 7) + 2;
      need(2);
      const d = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      const far = ((t & 8) << 11) + (d >> 2);
      if (far === 0) {
        if (op !== expectedSize) fail(`end marker after ${op} bytes; ${expectedSize} were expected`, at);
        return { data: out, consumed: ip - offset };
      }
      dist = far + M3_MAX_OFFSET;
    } else if (t < 64) {
      len = (t & 31) === 0 ? extend(31) + 2 : (t & 31) + 2;
      need(2);
      const d = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      dist = (d >> 2) + 1;
    } else {
      need(1);
      len = (t >> 5) + 1;
      dist = 1 + ((t >> 2) & 7) + (src[ip++]! << 3);
    }
    copyMatch(dist, len);
    const s = src[ip - 2]! & 3;
    if (s > 0) copyLiterals(s);
    state = s;
  }
}

const HASH_BITS = 14;

/**
 * Compresses `data` into a valid LZO1X stream (greedy, one hash probe per position in the manner
 * of LZO1X-1) ending with the standard end marker; liblzo2's lzo1x_decompress(_safe) accepts it.
 */
export function lzo1xCompress(data: Uint8Array): Uint8Array {
  const n = data.length;
  // liblzo2's documented worst case for LZO1X-1 output.
  let out = new Uint8Array(n + (n >> 4) + 64 + 3);
  let op = 0;
  const ensure = (k: number): void => {
    if (op + k <= out.length) return;
    const next = new Uint8Array(Math.max(out.length * 2, op + k));
    next.set(out.subarray(0, op));
    out = next;
  };
  const dict = new Int32Array(1 << HASH_BITS);
  /** Where the previous match stored its S bits (-1: no match yet). */
  let sPos = -1;

  const emitLiterals = (from: number, to: number): void => {
    const len = to - from;
    if (len === 0) return;
    ensure(len + 3 + Math.ceil(len / 255));
    if (op === 0 && len <= 238) {
      out[op++] = 17 + len;
    } else if (len <= 3) {
      // Only reachable after a match: the count rides in its S bits.
      out[sPos] = out[sPos]! | len;
    } else if (len <= 18) {
      out[op++] = len - 3;
    } else {
      out[op++] = 0;
      let rem = len - 18;
      while (rem > 255) {
        out[op++] = 0;
        rem -= 255;
      }
      out[op++] = rem;
    }
    out.set(data.subarray(from, to), op);
    op += len;
  };
  const emitLength = (rem: number): void => {
    while (rem > 255) {
      out[op++] = 0;
      rem -= 255;
    }
    out[op++] = rem;
  };
  const emitMatch = (dist: number, len: number): void => {
    ensure(8 + Math.ceil(len / 255));
    if (len <= M2_MAX_LEN && dist <= M2_MAX_OFFSET) {
      const d = dist - 1;
      out[op++] = ((len - 1) << 5) | ((d & 7) << 2);
      out[op++] = d >> 3;
    } else if (dist <= M3_MAX_OFFSET) {
      const d = dist - 1;
      if (len <= 33) out[op++] = 32 | (len - 2);
      else {
        out[op++] = 32;
        emitLength(len - 33);
      }
      out[op++] = (d & 0x3f) << 2;
      out[op++] = d >> 6;
    } else {
      const d = dist - M3_MAX_OFFSET;
      const h = (d & 0x4000) >> 11;
      if (len <= 9) out[op++] = 16 | h | (len - 2);
      else {
        out[op++] = 16 | h;
        emitLength(len - 9);
      }
      out[op++] = (d & 0x3f) << 2;
      out[op++] = (d >> 6) & 0xff;
    }
    sPos = op - 2;
  };

  let lit = 0;
  let i = 0;
  // Positions closer than 4 bytes to the end cannot start a 4-byte hash match.
  const limit = n - 4;
  while (i <= limit) {
    const v = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    const h = Math.imul(v, 0x1e35a7bd) >>> (32 - HASH_BITS);
    const cand = dict[h]! - 1;
    dict[h] = i + 1;
    const dist = i - cand;
    if (
      cand >= 0 &&
      dist <= M4_MAX_OFFSET &&
      data[cand] === data[i] &&
      data[cand + 1] === data[i + 1] &&
      data[cand + 2] === data[i + 2] &&
      data[cand + 3] === data[i + 3]
    ) {
      let len = 4;
      while (i + len < n && data[cand + len] === data[i + len]) len++;
      emitLiterals(lit, i);
      emitMatch(dist, len);
      // Seed the dictionary inside the match sparsely: cheap, and it helps the next probes.
      const stop = Math.min(i + len, limit + 1);
      for (let k = i + 1; k < stop; k += 2) {
        const w = data[k]! | (data[k + 1]! << 8) | (data[k + 2]! << 16) | (data[k + 3]! << 24);
        dict[Math.imul(w, 0x1e35a7bd) >>> (32 - HASH_BITS)] = k + 1;
      }
      i += len;
      lit = i;
    } else {
      i++;
    }
  }
  emitLiterals(lit, n);
  ensure(3);
  out[op++] = 0x11;
  out[op++] = 0;
  out[op++] = 0;
  return out.slice(0, op);
}
