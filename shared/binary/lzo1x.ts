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
import { chargeAllocation } from './budget.ts';
import { warmUpOnce } from './priming.ts';

export interface Lzo1xResult {
  data: Uint8Array;
  /** Compressed bytes used, the end-of-stream marker included. */
  consumed: number;
}

const M2_MAX_LEN = 8;
const M2_MAX_OFFSET = 0x0800;
const M3_MAX_OFFSET = 0x4000;
const M4_MAX_OFFSET = 0xbfff;
/** Literal runs from this length are copied with one native `set` (checked path). */
const LITERAL_NATIVE_MIN = 32;
/**
 * Matches from this length are copied natively on the checked path (`copyWithin` when they do not
 * overlap, `fill` for distance 1).
 */
const MATCH_NATIVE_MIN = 16;

/**
 * The fast loop takes an instruction only while more than FAST_IN input bytes and more than
 * FAST_OUT output bytes are left, which covers every read and write of the instructions it
 * handles without checking them one by one: 4 instruction bytes read at once; literal runs of at
 * most 18 bytes copied in 8-byte steps (at most 24 bytes read and written); matches of at most 33
 * bytes copied in 8-byte steps (at most 40 bytes written); then the trailing literals as one
 * 4-byte copy (at most 7 bytes past the instruction's start read, 37 past the match's start
 * written). An M2 match taken together with the literal run before it stays inside the run's
 * margins: its 4 instruction bytes start at most 19 bytes past the run's start and the 4 bytes of
 * its trailing literals at most 21 (25 read in all), and it writes 8 + 4 bytes from at most 18
 * past the run's start (30 written in all).
 * Bytes written past an instruction's end are overwritten by the instructions after it, and the
 * end marker is only accepted at exactly the expected size, so none survive.
 */
const FAST_IN = 32;
const FAST_OUT = 48;
/** Positions are int32 in the fast loop; larger streams (never seen in practice) take the checked path only. */
const FAST_MAX = 0x7fff_ff00;

/** Output bytes per input byte an LZO1X stream can reach at most (255 per length-extension byte, rounded up). */
export const LZO_RATIO = 256;

/** Most bytes `streamBytes` bytes of LZO1X stream can expand to. */
export function lzo1xMaxOutput(streamBytes: number): number {
  return Math.max(0, streamBytes) * LZO_RATIO + 3;
}

/** Literal runs from this length are copied with one native `set` in the fast loop. */
const NATIVE_RUN = 128;

/**
 * A match of `len` bytes at distance `dist` (at least 4) to `op`, for the fast loop: the caller
 * has checked that `op + len` is at most FAST_OUT bytes short of the output's end (the copy may
 * write up to 7 bytes past the match, which later instructions overwrite). A long match whose
 * source does not overlap it is one native memmove; others go 8 bytes a step (distance 8 or
 * more) or twice 4 bytes a step (4..7), each step reading only bytes already written, so an
 * overlapping match repeats its pattern as the format wants. Returns the new output position.
 */
function longMatch(out: Uint8Array, ov: DataView, op: number, dist: number, len: number): number {
  let from = (op - dist) | 0;
  const stop = (op + len) | 0;
  if (len >= NATIVE_RUN && dist >= len) {
    out.copyWithin(op, from, from + len);
  } else if (dist >= 8) {
    for (let at = op; at < stop; at = (at + 8) | 0, from = (from + 8) | 0) ov.setFloat64(at, ov.getFloat64(from, true), true);
  } else {
    for (let at = op; at < stop; at = (at + 8) | 0, from = (from + 8) | 0) {
      ov.setInt32(at, ov.getInt32(from, true), true);
      ov.setInt32((at + 4) | 0, ov.getInt32((from + 4) | 0, true), true);
    }
  }
  return stop;
}

/** Writes LZO1X instructions by kind and adds up the output they make (for the priming streams). */
function lzoAssembler() {
  const s: number[] = [];
  let op = 0;
  const data = (n: number): void => {
    for (let i = 0; i < n; i++) s.push((i * 37 + 11) & 255);
    op += n;
  };
  const extend = (rem: number): void => {
    for (; rem > 255; rem -= 255) s.push(0);
    s.push(rem);
  };
  // The LE16 of M3/M4, then the trailing literals it announces.
  const tail = (d: number, lits: number): void => {
    s.push(d & 255, d >> 8);
    data(lits);
  };
  return {
    /** The stream's first literal run, in its short form. */
    firstRun(n: number): void {
      s.push(17 + n);
      data(n);
    },
    /** A literal run (where the state is 0): 4..18 bytes in the short form, else extended. */
    run(n: number): void {
      if (n <= 18) s.push(n - 3);
      else {
        s.push(0);
        extend(n - 18);
      }
      data(n);
    },
    m2(len: number, dist: number, lits = 0): void {
      s.push(((len - 1) << 5) | (((dist - 1) & 7) << 2) | lits, (dist - 1) >> 3);
      op += len;
      data(lits);
    },
    m3(len: number, dist: number, lits = 0): void {
      if (len <= 33) s.push(32 | (len - 2));
      else {
        s.push(32);
        extend(len - 33);
      }
      op += len;
      tail(((dist - 1) << 2) | lits, lits);
    },
    m4(len: number, dist: number, lits = 0): void {
      const far = dist - M3_MAX_OFFSET;
      const hi = (far >> 14) << 3;
      if (len <= 9) s.push(16 | hi | (len - 2));
      else {
        s.push(16 | hi);
        extend(len - 9);
      }
      op += len;
      tail(((far & 0x3fff) << 2) | lits, lits);
    },
    /** 3 bytes at 2049..3072 (after a literal run) or 2 bytes at 1..1024 (after 1..3 literals). */
    m1(afterRun: boolean, dist: number, lits = 0): void {
      const x = dist - (afterRun ? 1 + M2_MAX_OFFSET : 1);
      s.push(((x & 3) << 2) | lits, x >> 2);
      op += afterRun ? 3 : 2;
      data(lits);
    },
    end(): { stream: Uint8Array; size: number } {
      s.push(0x11, 0, 0);
      return { stream: Uint8Array.from(s), size: op };
    },
  };
}

/**
 * Two short streams (~1 kB in all for ~54 kB of output) with every kind of instruction the
 * decoder takes apart. The first runs through the fast loop: the first literal run, literal runs
 * short, long, longer than NATIVE_RUN and with a zero extension byte, each short run length class
 * followed by an M2 at both distance classes and by other matches, M1 after a run and after
 * trailing literals, M2/M3/M4 short and extended at every distance class of longMatch, distances
 * under 4; its last 39 bytes of output go through the checked path. The second is short enough
 * (142 bytes) for every instruction to take the checked path, the end of every real array's
 * stream: extended M3 and M4, a long literal run, M1 after a run, a native match copy, a
 * distance-1 fill. A test holds both to {@link lzo1xMatches}.
 */
export function lzo1xPrimingStreams(): { stream: Uint8Array; size: number }[] {
  const a = lzoAssembler();
  a.firstRun(40);
  a.m2(8, 16);
  a.m2(5, 5, 2);
  a.m1(false, 9);
  a.run(6);
  a.m2(4, 20);
  a.run(12);
  a.m2(6, 6, 1);
  a.m1(false, 3);
  a.run(17);
  a.m3(20, 30);
  a.m3(10, 5);
  a.run(50);
  a.m3(200, 8);
  a.run(200);
  // Output grows by native copies as long as their distance (the decoder's copyWithin), cheap
  // for the engine's interpreter, which runs all of this.
  a.m3(500, 500);
  a.m3(1000, 1000);
  a.m3(2000, 2000);
  a.run(5);
  a.m1(true, 2500);
  a.m3(4000, 4000);
  a.m3(8000, 8000);
  a.m3(16000, 16000);
  a.m3(1000, 1000);
  a.m3(100, 6);
  a.m4(5, 20000);
  a.m4(9, 21000, 3);
  a.m1(false, 100);
  a.run(4);
  a.m4(400, 17000);
  a.m4(50, 32769);
  a.m2(3, 2);
  a.m3(6, 1);
  a.run(300);
  a.m3(12, 700, 1);
  // The last 39 bytes of output: the checked path (a literal run, M3, M4, M2, the end marker).
  a.m1(false, 40);
  a.run(20);
  a.m3(8, 10, 1);
  a.m4(6, 20000);
  a.m2(4, 12);
  const b = lzoAssembler();
  b.firstRun(4);
  b.m3(20000, 1);
  b.run(40);
  b.m1(true, 2100);
  b.m3(40, 50);
  b.m4(100, 20000);
  return [a.end(), b.end()];
}

/**
 * Decodes {@link lzo1xPrimingStreams} before the first real stream, so the engine has seen every
 * branch of the decoder by the time it optimises it. Otherwise it optimises what the first files
 * happened to use, meets a new instruction kind later, throws the code away and compiles it
 * again: over the corpus the decoder was compiled 4-6 times (45-70 ms of compiler time each, on
 * another core while the file is decoded, so a second worker competed with it for CPU).
 */
const warmUp = warmUpOnce(() => {
  for (const p of lzo1xPrimingStreams()) {
    lzo1xDecompress(p.stream, 0, p.size, new Uint8Array(p.size));
    lzo1xDecompress(p.stream, 0, p.size);
  }
});

/** Where {@link checkedStep} leaves the decoder (one object per call, off the fast path). */
interface Cursor {
  ip: number;
  op: number;
  state: number;
}

/**
 * Decompresses an LZO1X stream starting at `offset` that must yield exactly `expectedSize` bytes
 * and end with the end-of-stream marker. Bounded: never reads outside `src`, never writes past
 * `expectedSize`, never references before the start of the output; corrupt input throws
 * {@link DecodeError} with the absolute offset of the offending instruction.
 */
export function lzo1xDecompress(src: Uint8Array, offset: number, expectedSize: number, into?: Uint8Array, path = ''): Lzo1xResult {
  warmUp();
  checkStream(src, offset, expectedSize);
  if (into && into.length !== expectedSize) throw new RangeError(`LZO output buffer holds ${into.length} bytes, not ${expectedSize}`);
  // A caller's buffer was charged by the caller (the ODOL slab); a new one is charged here.
  if (!into) chargeAllocation(expectedSize, 'LZO stream', offset, path, src.length);
  const out = into ?? new Uint8Array(expectedSize);
  const end = src.length;
  const limit = expectedSize;
  const cur = firstRun(src, offset, out, limit);
  if (end > FAST_MAX || limit > FAST_MAX) {
    while (!checkedStep(src, out, cur, limit)) {
      // one instruction at a time
    }
    return { data: out, consumed: cur.ip - offset };
  }
  // DataViews give one unaligned load or store per 4 or 8 bytes once optimised. Int32 (not
  // Uint32) keeps the values in integer registers; Float64 moves 8 bytes as they are (V8 neither
  // canonicalises nor quiets a NaN it only loads and stores; the tests copy NaN patterns through
  // every tier). Positions are `| 0` so the engine keeps them as int32 without overflow checks.
  const sv = new DataView(src.buffer, src.byteOffset, src.length);
  const ov = new DataView(out.buffer, out.byteOffset, out.length);
  const ipFast = end - FAST_IN;
  const opFast = limit - FAST_OUT;
  let ip = cur.ip | 0;
  let op = cur.op | 0;
  let state = cur.state | 0;
  for (;;) {
    // The fast loop: the common short instructions, no calls (so the engine keeps the arrays'
    // fields in registers), no per-byte checks (see FAST_IN/FAST_OUT). Anything else, and the
    // last instructions of a stream, leave it for one checked step.
    fast: for (;;) {
      if (ip >= ipFast || op >= opFast) break;
      const w = sv.getInt32(ip, true);
      const t = w & 255;
      let s: number;
      // Most frequent first on model data: M2, then literal runs, then M3.
      if (t >= 64) {
        // M2: 3..8 bytes within 2 KiB, as one 8-byte copy (distance >= 8) or two 4-byte ones
        // (distance 4..7: each step reads only bytes already written, so an overlapping match
        // repeats its pattern exactly as byte by byte); distances 1..3 take the checked path.
        const dist = (1 + ((t >> 2) & 7) + ((w >> 5) & 0x7f8)) | 0;
        if (dist > op || dist < 4) break;
        const from = (op - dist) | 0;
        if (dist >= 8) {
          ov.setFloat64(op, ov.getFloat64(from, true), true);
        } else {
          ov.setInt32(op, ov.getInt32(from, true), true);
          ov.setInt32((op + 4) | 0, ov.getInt32((from + 4) | 0, true), true);
        }
        op = (op + (t >> 5) + 1) | 0;
        ip = (ip + 2) | 0;
        s = t & 3;
      } else if (t < 16) {
        if (state === 0) {
          if (t === 0) {
            // A long literal run (its length extends: each zero byte adds 255, then a final
            // byte + 18). Decoded here while the run and what may follow it stay inside the
            // margins; otherwise, and for an extension reaching the margin, the checked path.
            // Lengths add up as plain numbers: 8.4 MB of zero bytes would wrap an int32 and pass
            // the margin check.
            let q = (ip + 1) | 0;
            let n = 18;
            while (src[q] === 0) {
              n += 255;
              q = (q + 1) | 0;
              if (q >= ipFast) break fast;
            }
            n += src[q]!;
            q = (q + 1) | 0;
            if (q + n > ipFast || op + n > opFast) break;
            if (n >= NATIVE_RUN) {
              out.set(src.subarray(q, q + n), op);
            } else {
              for (let k = 0; k < n; k = (k + 8) | 0) ov.setFloat64((op + k) | 0, sv.getFloat64((q + k) | 0, true), true);
            }
            op = (op + n) | 0;
            ip = (q + n) | 0;
            state = 4;
            continue fast;
          }
          // Literal run of 4..18 bytes, 8 bytes per step.
          // Reads first: after a store through a DataView the engine re-checks both views (map,
          // length, buffer) at their next access, while a read after a read is cheap.
          const p = (ip + 1) | 0;
          const a = sv.getFloat64(p, true);
          // The next instruction's first 4 bytes (starting at most 19 bytes past this run's start).
          const w2 = sv.getInt32((p + t + 3) | 0, true);
          if (t <= 5) {
            ov.setFloat64(op, a, true);
          } else {
            const b = sv.getFloat64((p + 8) | 0, true);
            if (t <= 13) {
              ov.setFloat64(op, a, true);
              ov.setFloat64((op + 8) | 0, b, true);
            } else {
              const c = sv.getFloat64((p + 16) | 0, true);
              ov.setFloat64(op, a, true);
              ov.setFloat64((op + 8) | 0, b, true);
              ov.setFloat64((op + 16) | 0, c, true);
            }
          }
          op = (op + t + 3) | 0;
          ip = (p + t + 3) | 0;
          // An M2 match straight after the run, the most common pair on model data: decoded from
          // the bytes read above, its reads and writes (at most 8 + 3 past the run) are still
          // inside the margins checked for the run.
          const t2 = w2 & 255;
          const dist2 = (1 + ((t2 >> 2) & 7) + ((w2 >> 5) & 0x7f8)) | 0;
          if (t2 < 64 || dist2 > op || dist2 < 4) {
            state = 4;
            continue fast;
          }
          const from2 = (op - dist2) | 0;
          if (dist2 >= 8) {
            ov.setFloat64(op, ov.getFloat64(from2, true), true);
          } else {
            ov.setInt32(op, ov.getInt32(from2, true), true);
            ov.setInt32((op + 4) | 0, ov.getInt32((from2 + 4) | 0, true), true);
          }
          op = (op + (t2 >> 5) + 1) | 0;
          ip = (ip + 2) | 0;
          s = t2 & 3;
        } else {
          // After literals: 3 bytes at 2049..3072 (after a run of 4 or more), else M1: 2 bytes.
          const dist = ((state === 4 ? 1 + M2_MAX_OFFSET : 1) + (t >> 2) + ((w >> 6) & 0x3fc)) | 0;
          if (dist > op || dist < 4) break;
          ov.setInt32(op, ov.getInt32((op - dist) | 0, true), true);
          op = (op + (state === 4 ? 3 : 2)) | 0;
          ip = (ip + 2) | 0;
          s = t & 3;
        }
      } else if (t >= 32 && (t & 31) === 0) {
        // M3 with an extended length (34 bytes or more) within 16 KiB.
        let q = (ip + 1) | 0;
        let len = 33;
        while (src[q] === 0) {
          len += 255;
          q = (q + 1) | 0;
          if (q >= ipFast) break fast;
        }
        len += src[q]!;
        q = (q + 1) | 0;
        const d = src[q]! | (src[(q + 1) | 0]! << 8);
        const dist = ((d >> 2) + 1) | 0;
        if (dist > op || dist < 4 || op + len > opFast) break;
        op = longMatch(out, ov, op, dist, len);
        ip = (q + 2) | 0;
        s = d & 3;
      } else if (t >= 32) {
        // M3: 3..33 bytes within 16 KiB, 8 bytes per step.
        const dist = (((w >>> 10) & 0x3fff) + 1) | 0;
        if (dist > op || dist < 4) break;
        let from = (op - dist) | 0;
        const stop = (op + (t & 31) + 2) | 0;
        if (dist >= 8) {
          do {
            ov.setFloat64(op, ov.getFloat64(from, true), true);
            op = (op + 8) | 0;
            from = (from + 8) | 0;
          } while (op < stop);
        } else {
          do {
            ov.setInt32(op, ov.getInt32(from, true), true);
            ov.setInt32((op + 4) | 0, ov.getInt32((from + 4) | 0, true), true);
            op = (op + 8) | 0;
            from = (from + 8) | 0;
          } while (op < stop);
        }
        op = stop;
        ip = (ip + 3) | 0;
        s = (w >> 8) & 3;
      } else if ((t & 7) === 0) {
        // M4 with an extended length (10 bytes or more) at 16385..49151 (far 0, the end marker,
        // is left to the checked path).
        let q = (ip + 1) | 0;
        let len = 9;
        while (src[q] === 0) {
          len += 255;
          q = (q + 1) | 0;
          if (q >= ipFast) break fast;
        }
        len += src[q]!;
        q = (q + 1) | 0;
        const d = src[q]! | (src[(q + 1) | 0]! << 8);
        const far = (((t & 8) << 11) + (d >> 2)) | 0;
        const dist = (far + M3_MAX_OFFSET) | 0;
        if (far === 0 || dist > op || op + len > opFast) break;
        op = longMatch(out, ov, op, dist, len);
        ip = (q + 2) | 0;
        s = d & 3;
      } else {
        // M4: 3..9 bytes at 16385..49151, at most two 8-byte steps (longer ones extend, and far 0
        // is the end marker: checked path).
        const far = (((t & 8) << 11) + ((w >>> 10) & 0x3fff)) | 0;
        const dist = (far + M3_MAX_OFFSET) | 0;
        if ((t & 7) === 0 || far === 0 || dist > op) break;
        const from = (op - dist) | 0;
        const stop = (op + (t & 7) + 2) | 0;
        ov.setFloat64(op, ov.getFloat64(from, true), true);
        if ((t & 7) > 6) ov.setFloat64((op + 8) | 0, ov.getFloat64((from + 8) | 0, true), true);
        op = stop;
        ip = (ip + 3) | 0;
        s = (w >> 8) & 3;
      }
      if (s !== 0) {
        // 1..3 literals follow the match: one 4-byte copy.
        ov.setInt32(op, sv.getInt32(ip, true), true);
        ip = (ip + s) | 0;
        op = (op + s) | 0;
      }
      state = s;
    }
    cur.ip = ip;
    cur.op = op;
    cur.state = state;
    if (checkedStep(src, out, cur, limit)) return { data: out, consumed: cur.ip - offset };
    ip = cur.ip | 0;
    op = cur.op | 0;
    state = cur.state | 0;
  }
}

/**
 * Checks an LZO1X stream at `offset` as {@link lzo1xDecompress} does (every bound, the end marker,
 * exactly `expectedSize` bytes out) without writing its output anywhere, and returns the bytes it
 * takes. For a decoder that defers expanding a large array to its first read
 * (shared/model/deferred.ts): the file's errors are still found while decoding, with their
 * offsets, and the later expansion of the same stream cannot fail. Allocates nothing.
 */
export function lzo1xScan(src: Uint8Array, offset: number, expectedSize: number): number {
  checkStream(src, offset, expectedSize);
  const cur = firstRun(src, offset, null, expectedSize);
  while (!checkedStep(src, null, cur, expectedSize)) {
    // one instruction at a time
  }
  return cur.ip - offset;
}

/** The checks of a stream's arguments made before any output exists. */
function checkStream(src: Uint8Array, offset: number, expectedSize: number): void {
  if (!Number.isInteger(expectedSize) || expectedSize < 0) {
    throw new DecodeError(`LZO expected size ${expectedSize} is invalid`, offset, '');
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > src.length) {
    throw new DecodeError('LZO stream starts outside the data', Math.max(0, offset | 0), '');
  }
  // The stream's real worst case: a match length extends by 255 per zero byte, so an LZO1X
  // stream yields at most about 255 bytes per input byte (LZO_RATIO with the end marker's slack):
  // a stream this short cannot produce the claimed size, refuse before allocating.
  const remaining = src.length - offset;
  if (expectedSize > lzo1xMaxOutput(remaining)) {
    throw new DecodeError(`LZO stream of at most ${remaining} bytes cannot produce ${expectedSize} bytes`, offset, '');
  }
}

/** The cursor after the stream's first literal run in the short form (a first byte over 17), if any; `out` null only checks. */
function firstRun(src: Uint8Array, offset: number, out: Uint8Array | null, limit: number): Cursor {
  const cur: Cursor = { ip: offset, op: 0, state: 0 };
  if (offset < src.length && src[offset]! > 17) {
    const n = src[offset]! - 17;
    if (offset + 1 + n > src.length) throw corrupt('literal run runs past the input', offset, 0, limit);
    if (n > limit) throw corrupt('literal run overflows the output', offset, 0, limit);
    if (out) out.set(src.subarray(offset + 1, offset + 1 + n));
    cur.ip = offset + 1 + n;
    cur.op = n;
    cur.state = n < 4 ? n : 4;
  }
  return cur;
}

/**
 * Decodes one instruction at `c.ip` with every bound checked, byte by byte or with native copies:
 * the instructions the fast loop leaves (extended lengths, distances under 4, the end marker,
 * everything near the end of the input or of the output). Returns true after the end marker.
 */
function checkedStep(src: Uint8Array, out: Uint8Array | null, c: Cursor, limit: number): boolean {
  const end = src.length;
  let ip = c.ip;
  let op = c.op;
  const at = ip;
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
      c.ip = ip;
      len = lengthExtension(src, c, 31, at, op, limit);
      ip = c.ip;
    }
    len += 2;
    if (ip + 2 > end) throw corrupt('instruction runs past the input', at, op, limit);
    dist = ((src[ip]! | (src[ip + 1]! << 8)) >> 2) + 1;
    ip += 2;
  } else if (t >= 16) {
    // M4: 16..48 KiB, or the end marker.
    len = t & 7;
    if (len === 0) {
      c.ip = ip;
      len = lengthExtension(src, c, 7, at, op, limit);
      ip = c.ip;
    }
    len += 2;
    if (ip + 2 > end) throw corrupt('instruction runs past the input', at, op, limit);
    const far = ((t & 8) << 11) + ((src[ip]! | (src[ip + 1]! << 8)) >> 2);
    ip += 2;
    if (far === 0) {
      if (op !== limit) throw corrupt(`end marker after ${op} bytes; ${limit} were expected`, at, op, limit);
      c.ip = ip;
      return true;
    }
    dist = far + M3_MAX_OFFSET;
  } else if (c.state === 0) {
    // Literal run of 4 or more bytes.
    if (t === 0) {
      c.ip = ip;
      t = lengthExtension(src, c, 15, at, op, limit);
      ip = c.ip;
    }
    const n = t + 3;
    if (ip + n > end) throw corrupt(`literal run of ${n} bytes runs past the input`, at, op, limit);
    if (op + n > limit) throw corrupt(`literal run of ${n} bytes overflows the output`, at, op, limit);
    if (!out) {
      // Only checking (lzo1xScan).
    } else if (n < LITERAL_NATIVE_MIN) {
      for (let k = 0; k < n; k++) out[op + k] = src[ip + k]!;
    } else {
      out.set(src.subarray(ip, ip + n), op);
    }
    c.ip = ip + n;
    c.op = op + n;
    c.state = 4;
    return false;
  } else {
    if (ip >= end) throw corrupt('instruction runs past the input', at, op, limit);
    if (c.state === 4) {
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
  let from = op - dist;
  const stop = op + len;
  if (!out) {
    // Only checking (lzo1xScan).
  } else if (len >= MATCH_NATIVE_MIN && dist >= len) {
    // Long, and source and destination do not overlap: one memmove.
    out.copyWithin(op, from, stop - dist);
  } else if (dist === 1 && len >= MATCH_NATIVE_MIN) {
    // A long run of one byte.
    out.fill(out[from]!, op, stop);
  } else {
    // Byte by byte: an overlapping copy repeats its pattern as the format wants.
    for (let k = op; k < stop; k++) out[k] = out[from++]!;
  }
  op = stop;
  // S: 0..3 literals that follow the match directly.
  const s = src[ip - 2]! & 3;
  if (s !== 0) {
    if (ip + s > end) throw corrupt('trailing literals run past the input', at, op, limit);
    if (op + s > limit) throw corrupt('trailing literals overflow the output', at, op, limit);
    if (out) for (let k = 0; k < s; k++) out[op + k] = src[ip + k]!;
    op += s;
    ip += s;
  }
  c.ip = ip;
  c.op = op;
  c.state = s;
  return false;
}

/**
 * A length extension at `c.ip` (of the instruction at `at`): each zero byte adds 255, the first
 * non-zero byte ends it and is added. Returns `base` plus the extension; `c.ip` is left after it.
 */
function lengthExtension(src: Uint8Array, c: Cursor, base: number, at: number, op: number, limit: number): number {
  const end = src.length;
  let ip = c.ip;
  let len = base;
  for (;;) {
    if (ip >= end) throw corrupt('length extension runs past the input', at, op, limit);
    const b = src[ip++]!;
    if (b !== 0) {
      c.ip = ip;
      return len + b;
    }
    len += 255;
    if (len > limit) throw corrupt('length extension exceeds the expected size', at, op, limit);
  }
}

function corrupt(msg: string, at: number, op: number, expected: number): DecodeError {
  return new DecodeError(`LZO ${msg} (output ${op} of ${expected})`, at, '');
}

const HASH_BITS = 14;

/**
 * Compresses `data` into a valid LZO1X stream (greedy, one hash probe per position in the manner
 * of LZO1X-1, and like it stepping faster through long literal runs) ending with the standard end
 * marker; liblzo2's lzo1x_decompress(_safe) accepts it. The steps cost ~0.2% of size on the
 * corpus's DXT mips and pass over data that does not compress ~30x faster (a noisy 2048x2048
 * DXT1 level: ~45 ms to ~1.5 ms of CPU).
 */
export function lzo1xCompress(data: Uint8Array): Uint8Array {
  const n = data.length;
  // liblzo2's documented worst case for LZO1X-1 output (grown if ever exceeded). The output and
  // its position are locals passed to the writers below, not variables shared with closures:
  // V8 keeps locals in registers, closure-shared ones in a heap context read on every access.
  let out = new Uint8Array(n + (n >> 4) + 64 + 3);
  let op = 0;
  const dict = new Int32Array(1 << HASH_BITS);
  /** Where the previous match stored its S bits (-1: no match yet). */
  let sPos = -1;
  let lit = 0;
  let i = 0;
  // Positions closer than 4 bytes to the end cannot start a 4-byte hash match.
  const limit = n - 4;
  // The 4 bytes at i, rolled along a byte at a time through literals (one byte read a step).
  let v = limit >= 0 ? data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24) : 0;
  while (i <= limit) {
    const h = Math.imul(v, 0x1e35a7bd) >>> (32 - HASH_BITS);
    const cand = dict[h]! - 1;
    dict[h] = i + 1;
    const dist = i - cand;
    if (
      cand >= 0 &&
      dist <= M4_MAX_OFFSET &&
      data[cand] === (v & 255) &&
      data[cand + 1] === ((v >>> 8) & 255) &&
      data[cand + 2] === ((v >>> 16) & 255) &&
      data[cand + 3] === v >>> 24
    ) {
      let len = 4;
      while (i + len < n && data[cand + len] === data[i + len]) len++;
      const run = i - lit;
      const need = run + 3 + Math.ceil(run / 255) + 8 + Math.ceil(len / 255);
      if (op + need > out.length) out = grown(out, op, need);
      op = putLiterals(out, op, data, lit, i, sPos);
      op = putMatch(out, op, dist, len);
      sPos = op - 2;
      // Seed the dictionary inside the match sparsely: cheap, and it helps the next probes.
      const stop = Math.min(i + len, limit + 1);
      for (let k = i + 1; k < stop; k += 2) {
        const w = data[k]! | (data[k + 1]! << 8) | (data[k + 2]! << 16) | (data[k + 3]! << 24);
        dict[Math.imul(w, 0x1e35a7bd) >>> (32 - HASH_BITS)] = k + 1;
      }
      i += len;
      lit = i;
      if (i <= limit) v = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    } else {
      // As LZO1X-1 does: the longer the run of literals, the larger the step (1 more every 32
      // bytes), so data that does not compress is passed over quickly.
      const step = 1 + ((i - lit) >> 5);
      i += step;
      if (i > limit) break;
      v = step === 1 ? (v >>> 8) | (data[i + 3]! << 24) : data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    }
  }
  const run = n - lit;
  const need = run + 3 + Math.ceil(run / 255) + 3;
  if (op + need > out.length) out = grown(out, op, need);
  op = putLiterals(out, op, data, lit, n, sPos);
  out[op++] = 0x11;
  out[op++] = 0;
  out[op++] = 0;
  return out.slice(0, op);
}

/** `out` with room for `need` more bytes after `op`. */
function grown(out: Uint8Array, op: number, need: number): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(Math.max(out.length * 2, op + need));
  next.set(out.subarray(0, op));
  return next;
}

/**
 * Writes the literal run `data[from..to)` at `out[op]` (the caller has made room); a run of 1-3
 * bytes after a match rides in that match's S bits at `sPos`. Returns the new output position.
 */
function putLiterals(out: Uint8Array, op: number, data: Uint8Array, from: number, to: number, sPos: number): number {
  const len = to - from;
  if (len === 0) return op;
  if (op === 0 && len <= 238) {
    out[op++] = 17 + len;
  } else if (len <= 3) {
    // Only reachable after a match: the count rides in its S bits.
    out[sPos] = out[sPos]! | len;
  } else if (len <= 18) {
    out[op++] = len - 3;
  } else {
    out[op++] = 0;
    op = putLength(out, op, len - 18);
  }
  // Short runs byte by byte: a subarray view for each would cost more than the copy.
  if (len < 32) for (let k = from; k < to; k++) out[op++] = data[k]!;
  else {
    out.set(data.subarray(from, to), op);
    op += len;
  }
  return op;
}

/** A length extension: zero bytes for 255 each, then the rest. Returns the new output position. */
function putLength(out: Uint8Array, op: number, rem: number): number {
  while (rem > 255) {
    out[op++] = 0;
    rem -= 255;
  }
  out[op++] = rem;
  return op;
}

/** Writes a match of `len` bytes at distance `dist` (M2, M3 or M4); returns the new output position. */
function putMatch(out: Uint8Array, op: number, dist: number, len: number): number {
  if (len <= M2_MAX_LEN && dist <= M2_MAX_OFFSET) {
    const d = dist - 1;
    out[op++] = ((len - 1) << 5) | ((d & 7) << 2);
    out[op++] = d >> 3;
  } else if (dist <= M3_MAX_OFFSET) {
    const d = dist - 1;
    if (len <= 33) out[op++] = 32 | (len - 2);
    else {
      out[op++] = 32;
      op = putLength(out, op, len - 33);
    }
    out[op++] = (d & 0x3f) << 2;
    out[op++] = d >> 6;
  } else {
    const d = dist - M3_MAX_OFFSET;
    const h = (d & 0x4000) >> 11;
    if (len <= 9) out[op++] = 16 | h | (len - 2);
    else {
      out[op++] = 16 | h;
      op = putLength(out, op, len - 9);
    }
    out[op++] = (d & 0x3f) << 2;
    out[op++] = (d >> 6) & 0xff;
  }
  return op;
}

/**
 * Whether the LZO1X stream `src` (the whole of it, end marker included) decodes to exactly `data`,
 * found without decompressing: the stream's instructions are checked against `data` itself. A
 * literal run must equal its bytes in `data`; a match of length `len` at distance `dist` must find
 * `data[p] === data[p - dist]` for each of its positions `p`. By induction over `p` (in increasing
 * order, `p - dist < p` is then already known to hold the decoded byte) that is the same as `data`
 * holding what the stream decodes to, whatever the order the comparisons run in, so each run and
 * match is compared 4 bytes at a time. Never throws: a corrupt, truncated or longer stream is
 * simply not a match. Lets an encoder keep a stored stream for unchanged data without allocating
 * and filling a second copy of it.
 */
export function lzo1xMatches(src: Uint8Array, data: Uint8Array): boolean {
  const end = src.length;
  const limit = data.length;
  const sv = new DataView(src.buffer, src.byteOffset, src.length);
  const dv = new DataView(data.buffer, data.byteOffset, data.length);
  let ip = 0;
  let op = 0;
  let state = 0;
  if (end > 0 && src[0]! > 17) {
    const n = src[0]! - 17;
    ip = 1;
    if (ip + n > end || n > limit || !rangesEqual(sv, ip, dv, 0, n)) return false;
    ip += n;
    op = n;
    state = n < 4 ? n : 4;
  }
  for (;;) {
    if (ip >= end) return false;
    const t = src[ip++]!;
    let dist: number;
    let len: number;
    if (t >= 64) {
      if (ip >= end) return false;
      len = (t >> 5) + 1;
      dist = 1 + ((t >> 2) & 7) + (src[ip++]! << 3);
    } else if (t >= 16 || state === 0) {
      // M3, M4 and literal runs: a length with extension bytes when its field is zero.
      const mask = t >= 32 ? 31 : t >= 16 ? 7 : 15;
      len = t & mask;
      if (len === 0) {
        len = mask;
        for (;;) {
          if (ip >= end) return false;
          const b = src[ip++]!;
          if (b !== 0) {
            len += b;
            break;
          }
          len += 255;
          if (len > limit) return false;
        }
      }
      if (t < 16) {
        // Literal run of len + 3 bytes.
        const n = len + 3;
        if (ip + n > end || op + n > limit || !rangesEqual(sv, ip, dv, op, n)) return false;
        ip += n;
        op += n;
        state = 4;
        continue;
      }
      len += 2;
      if (ip + 2 > end) return false;
      const d = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      if (t >= 32) {
        dist = (d >> 2) + 1;
      } else {
        const far = ((t & 8) << 11) + (d >> 2);
        if (far === 0) return op === limit && ip === end;
        dist = far + M3_MAX_OFFSET;
      }
    } else {
      if (ip >= end) return false;
      dist = (state === 4 ? 1 + M2_MAX_OFFSET : 1) + (t >> 2) + (src[ip++]! << 2);
      len = state === 4 ? 3 : 2;
    }
    if (dist > op || op + len > limit || !rangesEqual(dv, op - dist, dv, op, len)) return false;
    op += len;
    const s = src[ip - 2]! & 3;
    if (s !== 0) {
      if (ip + s > end || op + s > limit || !rangesEqual(sv, ip, dv, op, s)) return false;
      ip += s;
      op += s;
    }
    state = s;
  }
}

/** Whether `n` bytes at `ai` in `a` equal those at `bi` in `b` (both ranges inside their views). */
function rangesEqual(a: DataView, ai: number, b: DataView, bi: number, n: number): boolean {
  let k = 0;
  for (; k + 4 <= n; k += 4) if (a.getInt32(ai + k) !== b.getInt32(bi + k)) return false;
  for (; k < n; k++) if (a.getUint8(ai + k) !== b.getUint8(bi + k)) return false;
  return true;
}
