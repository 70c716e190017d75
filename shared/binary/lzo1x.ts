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
/** Literal runs from this length are copied with one native `set`; shorter ones 4 bytes per step. */
const LITERAL_NATIVE_MIN = 32;
/**
 * Matches from this length are copied natively (`copyWithin` when they do not overlap, `fill` for
 * distance 1); shorter ones, and overlapping ones, 4 bytes per step.
 */
const MATCH_NATIVE_MIN = 16;

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
    throw new DecodeError(`LZO stream of at most ${remaining} bytes cannot produce ${expectedSize} bytes`, offset, '');
  }
  const out = new Uint8Array(expectedSize);
  // 4-byte views for the short copies that make up most of a stream (TurboFan compiles an
  // unaligned little-endian get/set into one load or store); see the copy code for the bounds.
  const sv = new DataView(src.buffer, src.byteOffset, src.length);
  const ov = new DataView(out.buffer, out.byteOffset, out.length);
  const end = src.length;
  const limit = expectedSize;
  let ip = offset;
  let op = 0;
  let state = 0;
  let at = ip;
  // One flat loop with integer locals (no closures, no per-instruction allocations): this is the
  // hot path of opening every ODOL model. Errors leave through corrupt(), off the fast path.
  if (ip < end && src[ip]! > 17) {
    const n = src[ip++]! - 17;
    if (ip + n > end) throw corrupt('literal run runs past the input', at, op, limit);
    if (n > limit) throw corrupt('literal run overflows the output', at, op, limit);
    for (let k = 0; k < n; k++) out[op++] = src[ip++]!;
    state = n < 4 ? n : 4;
  }
  for (;;) {
    at = ip;
    if (ip >= end) throw corrupt('stream ends without an end marker', ip, op, limit);
    let t = src[ip++]!;
    let dist: number;
    let len: number;
    if (t >= 64) {
      // M2: 3..8 bytes within 2 KiB.
      if (ip >= end) throw corrupt('instruction runs past the input', at, op, limit);
      len = (t >> 5) + 1;
      dist = 1 + ((t >> 2) & 7) + (src[ip++]! << 3);
    } else if (t >= 32) {
      // M3: within 16 KiB.
      len = t & 31;
      if (len === 0) {
        len = 31;
        for (;;) {
          if (ip >= end) throw corrupt('length extension runs past the input', at, op, limit);
          const b = src[ip++]!;
          if (b !== 0) { len += b; break; }
          len += 255;
          if (len > limit) throw corrupt('length extension exceeds the expected size', at, op, limit);
        }
      }
      len += 2;
      if (ip + 2 > end) throw corrupt('instruction runs past the input', at, op, limit);
      dist = ((src[ip]! | (src[ip + 1]! << 8)) >> 2) + 1;
      ip += 2;
    } else if (t >= 16) {
      // M4: 16..48 KiB, or the end marker.
      len = t & 7;
      if (len === 0) {
        len = 7;
        for (;;) {
          if (ip >= end) throw corrupt('length extension runs past the input', at, op, limit);
          const b = src[ip++]!;
          if (b !== 0) { len += b; break; }
          len += 255;
          if (len > limit) throw corrupt('length extension exceeds the expected size', at, op, limit);
        }
      }
      len += 2;
      if (ip + 2 > end) throw corrupt('instruction runs past the input', at, op, limit);
      const far = ((t & 8) << 11) + ((src[ip]! | (src[ip + 1]! << 8)) >> 2);
      ip += 2;
      if (far === 0) {
        if (op !== limit) throw corrupt(`end marker after ${op} bytes; ${limit} were expected`, at, op, limit);
        return { data: out, consumed: ip - offset };
      }
      dist = far + M3_MAX_OFFSET;
    } else if (state === 0) {
      // Literal run of 4 or more bytes.
      if (t === 0) {
        t = 15;
        for (;;) {
          if (ip >= end) throw corrupt('length extension runs past the input', at, op, limit);
          const b = src[ip++]!;
          if (b !== 0) { t += b; break; }
          t += 255;
          if (t > limit) throw corrupt('length extension exceeds the expected size', at, op, limit);
        }
      }
      const n = t + 3;
      if (ip + n > end) throw corrupt(`literal run of ${n} bytes runs past the input`, at, op, limit);
      if (op + n > limit) throw corrupt(`literal run of ${n} bytes overflows the output`, at, op, limit);
      if (n < LITERAL_NATIVE_MIN) {
        const stop = op + n;
        if (ip + n + 3 <= end && stop + 3 <= limit) {
          // 4 bytes per step; the last step may copy up to 3 bytes more, still inside both
          // buffers (checked just above), and later instructions overwrite those output bytes.
          const delta = ip - op;
          do {
            ov.setUint32(op, sv.getUint32(op + delta, true), true);
            op += 4;
          } while (op < stop);
          op = stop;
          ip = stop + delta;
        } else {
          while (op < stop) out[op++] = src[ip++]!;
        }
      } else {
        out.set(src.subarray(ip, ip + n), op);
        ip += n;
        op += n;
      }
      state = 4;
      continue;
    } else {
      if (ip >= end) throw corrupt('instruction runs past the input', at, op, limit);
      if (state === 4) {
        // 3 bytes at 2049..3072 after a long literal run.
        dist = 1 + M2_MAX_OFFSET + (t >> 2) + (src[ip++]! << 2);
        len = 3;
      } else {
        // M1: 2 bytes within 1 KiB after 1..3 literals.
        dist = 1 + (t >> 2) + (src[ip++]! << 2);
        len = 2;
      }
    }
    if (dist > op) throw corrupt(`match distance ${dist} reaches before the start of the output`, at, op, limit);
    if (op + len > limit) throw corrupt(`match of ${len} bytes overflows the output`, at, op, limit);
    // Both bounds are checked above, once per instruction; the copies below stay inside them.
    let from = op - dist;
    const stop = op + len;
    if (len >= MATCH_NATIVE_MIN && dist >= len) {
      // Long, and source and destination do not overlap: one memmove.
      out.copyWithin(op, from, stop - dist);
      op = stop;
    } else if (dist >= 4 && stop + 3 <= limit) {
      // Most matches are a few bytes, where a call into a native copy costs more than the bytes:
      // 4 bytes per step instead. With dist >= 4 each step reads only bytes already written, so
      // an overlapping match repeats its pattern exactly as byte by byte. The last step may write
      // up to 3 bytes past the match, still inside the output (checked just above); the next
      // instructions overwrite them.
      do {
        ov.setUint32(op, ov.getUint32(from, true), true);
        op += 4;
        from += 4;
      } while (op < stop);
      op = stop;
    } else if (dist === 1 && len >= MATCH_NATIVE_MIN) {
      // A long run of one byte.
      out.fill(out[from]!, op, stop);
      op = stop;
    } else {
      // Distance 1 to 3 (the pattern is shorter than a step), or the last bytes of the output.
      while (op < stop) out[op++] = out[from++]!;
    }
    // S: 0..3 literals that follow the match directly.
    const s = src[ip - 2]! & 3;
    if (s !== 0) {
      if (ip + s > end) throw corrupt('trailing literals run past the input', at, op, limit);
      if (op + s > limit) throw corrupt('trailing literals overflow the output', at, op, limit);
      if (ip + 4 <= end && op + 4 <= limit) {
        // One 4-byte copy; the bytes past `s` are overwritten by the next instructions.
        ov.setUint32(op, sv.getUint32(ip, true), true);
        ip += s;
        op += s;
      } else {
        out[op++] = src[ip++]!;
        if (s > 1) {
          out[op++] = src[ip++]!;
          if (s > 2) out[op++] = src[ip++]!;
        }
      }
    }
    state = s;
  }
}

function corrupt(msg: string, at: number, op: number, expected: number): DecodeError {
  return new DecodeError(`LZO ${msg} (output ${op} of ${expected})`, at, '');
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
