/**
 * LZ4 block format (no frame header), as UNIGINE 2.x writes the geometry blocks of ms14 meshes.
 * The decoder checks every length against its input and the declared output size; the encoder
 * is a small greedy matcher (any valid block decodes the same, so it need not match the bytes the
 * engine wrote: untouched blocks are written back as they came).
 */

import { chargeAllocation } from '../../binary/budget.ts';
import { PRIMING_TAIL, primingData, warmUpOnce } from '../../binary/priming.ts';

/**
 * Most bytes an LZ4 block of `blockBytes` can decode to: a match length extends by 255 per byte,
 * so the real worst case is about 255 output bytes per input byte.
 */
export function lz4MaxOutput(blockBytes: number): number {
  return Math.max(0, blockBytes) * 255 + 16;
}

/**
 * The fast loop takes a sequence only while more than FAST_IN input bytes and FAST_OUT output
 * bytes are left, which covers its reads and writes without checking them one by one: a literal
 * run of at most 14 bytes is copied as 8 or 16 (token + 16 bytes read, 16 written), its match offset
 * lies at most 17 bytes past the token, and a match of at most 18 bytes is copied in 8-byte steps
 * (at most 24 bytes written from at most 14 past the sequence's output start: 38 in all). Longer
 * runs and matches check their own end against the margins. Bytes written past a sequence's end
 * are overwritten by the sequences after it, and the block must fill the declared size exactly,
 * so none survive.
 */
const FAST_IN = 32;
const FAST_OUT = 48;
/** Positions are int32 in the fast loop; larger blocks take the checked loop only. */
const FAST_MAX = 0x7fff_ff00;
/** Literal runs and non-overlapping matches from this length are one native copy. */
const NATIVE_COPY = 64;

/**
 * Decodes one block into exactly `size` bytes, or returns an error message. A size the block
 * cannot produce is refused before allocating; the allocation is charged to the decoding budget
 * (a BudgetError, which the caller places, when it would pass it).
 *
 * Away from the ends of the block and the output a fast loop decodes whole sequences with one
 * bounds check each and 8-byte copies (see FAST_IN); it leaves a sequence it cannot take whole
 * (a bad offset, a length reaching the margins) to the checked loop, which starts again at that
 * sequence's token, checks every length and reports what is wrong.
 */
export function lz4Decompress(src: Uint8Array, size: number, offset = 0, path = ''): Uint8Array | string {
  warmUp();
  if (!Number.isInteger(size) || size < 0) return `declared size ${size} is invalid`;
  if (size > lz4MaxOutput(src.length)) return `a block of ${src.length} bytes cannot decode to the declared ${size} bytes`;
  chargeAllocation(size, 'LZ4 block', offset, path, src.length);
  const out = new Uint8Array(size);
  const end = src.length;
  let ip = 0, op = 0;
  if (end <= FAST_MAX && size <= FAST_MAX) {
    // DataViews give one unaligned load or store per 8 bytes once optimised; Float64 moves the
    // bytes as they are (V8 neither canonicalises nor quiets a NaN it only loads and stores).
    const sv = new DataView(src.buffer, src.byteOffset, end);
    const ov = new DataView(out.buffer, out.byteOffset, size);
    const ipFast = (end - FAST_IN) | 0;
    const opFast = (size - FAST_OUT) | 0;
    fast: while (ip < ipFast && op < opFast) {
      const t = src[ip]!;
      let q = (ip + 1) | 0;
      let o = op;
      let lit = t >>> 4;
      if (lit !== 15) {
        // 0..14 literals as 8 or 16 bytes (reads before writes: a store through a DataView makes
        // the engine re-check both views at their next access).
        if (lit <= 8) {
          ov.setFloat64(o, sv.getFloat64(q, true), true);
        } else {
          const a = sv.getFloat64(q, true);
          const b = sv.getFloat64((q + 8) | 0, true);
          ov.setFloat64(o, a, true);
          ov.setFloat64((o + 8) | 0, b, true);
        }
      } else {
        // Lengths add up as plain numbers: a run of 0xFF bytes (8.4 MB of them) would wrap an
        // int32 and pass the check below.
        let x: number;
        do {
          if (q >= ipFast) break fast;
          x = src[q]!;
          q = (q + 1) | 0;
          lit += x;
        } while (x === 255);
        if (q + lit >= ipFast || o + lit >= opFast) break;
        if (lit >= NATIVE_COPY) {
          out.set(src.subarray(q, q + lit), o);
        } else {
          for (let k = 0; k < lit; k = (k + 8) | 0) ov.setFloat64((o + k) | 0, sv.getFloat64((q + k) | 0, true), true);
        }
      }
      q = (q + lit) | 0;
      o = (o + lit) | 0;
      const dist = sv.getUint16(q, true);
      q = (q + 2) | 0;
      if (dist === 0 || dist > o) break;
      let len = t & 15;
      if (len === 15) {
        let x: number;
        do {
          if (q >= ipFast) break fast;
          x = src[q]!;
          q = (q + 1) | 0;
          len += x;
        } while (x === 255);
      }
      len += 4;
      if (o + len > opFast) break;
      const stop = (o + len) | 0;
      let from = (o - dist) | 0;
      if (dist >= 8) {
        if (len >= NATIVE_COPY && dist >= len) {
          out.copyWithin(o, from, from + len);
        } else {
          // Each step reads 8 bytes that are already written (the distance is at least 8).
          do {
            ov.setFloat64(o, ov.getFloat64(from, true), true);
            o = (o + 8) | 0;
            from = (from + 8) | 0;
          } while (o < stop);
        }
      } else {
        // Distance 1..7: the output repeats with that period, so also with the smallest multiple
        // of it that is at least 8. Byte by byte up to that multiple, then 8 bytes per step.
        const period = dist * (((7 + dist) / dist) | 0);
        const head = len < period ? stop : (o + period) | 0;
        while (o < head) {
          out[o] = out[(o - dist) | 0]!;
          o = (o + 1) | 0;
        }
        from = (o - period) | 0;
        while (o < stop) {
          ov.setFloat64(o, ov.getFloat64(from, true), true);
          o = (o + 8) | 0;
          from = (from + 8) | 0;
        }
      }
      ip = q;
      op = stop;
    }
  }
  // The checked loop: the last sequences of a block, and any the fast loop left.
  const done = checkedLoop(src, ip, out, op, size);
  if (typeof done === 'string') return done;
  op = done;
  if (op !== size) return `block decodes to ${op} bytes, not the declared ${size}`;
  return out;
}

/**
 * Decodes sequences of `src` from `ip` to its end into `out` from `op`, checking every length,
 * never writing at or past `size`. Matches may reach back to `out[0]`: what lies before `op` is
 * the history (a chained stream's earlier blocks). Returns the output position reached, or what
 * is wrong.
 */
function checkedLoop(src: Uint8Array, ip: number, out: Uint8Array, op: number, size: number): number | string {
  const end = src.length;
  while (ip < end) {
    const token = src[ip++]!;
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (ip >= end) return 'literal length runs past the block';
        b = src[ip++]!;
        lit += b;
      } while (b === 255);
    }
    if (ip + lit > end) return 'literals run past the block';
    if (op + lit > size) return 'literals overflow the declared size';
    if (lit < 32) {
      for (const e = ip + lit; ip < e; ) out[op++] = src[ip++]!;
    } else {
      out.set(src.subarray(ip, ip + lit), op);
      ip += lit;
      op += lit;
    }
    if (ip >= end) break;
    if (ip + 2 > end) return 'match offset runs past the block';
    const dist = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (dist === 0 || dist > op) return `match offset ${dist} points before the output`;
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        if (ip >= end) return 'match length runs past the block';
        b = src[ip++]!;
        len += b;
      } while (b === 255);
    }
    len += 4;
    if (op + len > size) return 'match overflows the declared size';
    if (dist >= len && len >= 32) {
      out.copyWithin(op, op - dist, op - dist + len);
      op += len;
    } else {
      for (const e = op + len; op < e; op++) out[op] = out[op - dist]!;
    }
  }
  return op;
}

/**
 * Decodes one block of a chained stream (LZ4_decompress_safe_continue with the blocks' outputs
 * laid end to end, as EDDS's mip blocks are): the whole of `src` into `out` from `start`, with
 * `out[0..start)` as the history its matches may reach into, never past `limit`. Returns where
 * the block's output ends, or what is wrong. Nothing is allocated: the caller has charged `out`.
 */
export function lz4DecompressInto(src: Uint8Array, out: Uint8Array, start: number, limit = out.length): number | string {
  if (!Number.isInteger(start) || start < 0 || limit > out.length || start > limit) return `output range ${start}..${limit} is invalid`;
  return checkedLoop(src, 0, out, start, limit);
}

/** Blocks for warming the decoder up: {@link primingData} whole and its short tail (the checked loop alone). */
export function lz4PrimingBlocks(): { block: Uint8Array; data: Uint8Array }[] {
  const data = primingData();
  return [data, data.subarray(data.length - PRIMING_TAIL)].map((d) => ({ block: lz4Compress(d), data: d }));
}

/**
 * Decodes {@link lz4PrimingBlocks} before the first real block, so the engine optimises the
 * decoder once with every branch seen: without it, over the corpus, it left its optimised code
 * 36 times.
 */
const warmUp = warmUpOnce(() => {
  for (const p of lz4PrimingBlocks()) lz4Decompress(p.block, p.data.length);
});

/** Greedy LZ4 block compressor (4-byte hash, last 5 bytes always literals as the format asks). */
export function lz4Compress(src: Uint8Array): Uint8Array {
  return lz4CompressPieces([src]);
}

/** Bytes of input brought into the compressor's window at a time. */
const WINDOW_STEP = 1 << 20;
/** How far back an LZ4 match may point. */
const MAX_OFFSET = 65535;

/**
 * {@link lz4Compress} of the pieces' concatenation, without making it: the input is read through
 * a window that holds the last 64 KiB (what a match may point back to), the literals not yet
 * written and the next MiB. The output is byte for byte what `lz4Compress` gives the joined bytes.
 * A geometry block is mostly typed arrays the document already holds: compressing their views
 * saves allocating the whole block once more. `step` (how much input the window takes in at a
 * time) is for tests, which move the window often on small inputs.
 */
export function lz4CompressPieces(pieces: readonly Uint8Array[], step = WINDOW_STEP): Uint8Array {
  let n = 0;
  for (const p of pieces) n += p.length;
  // Written into one buffer of the worst case (all literals: n + n/255 + a token), not a number
  // array: that was most of the time and memory of writing a large ms14 mesh.
  const out = new Uint8Array(n + Math.ceil(n / 255) + 16);
  let op = 0;
  // The window holds input bytes [ws, ws + wl) at win[0..wl). A single piece is its own window
  // (read only, never moved): nothing is copied.
  const single = pieces.length === 1;
  let win: Uint8Array = single ? pieces[0]! : new Uint8Array(Math.min(n, step + MAX_OFFSET + 1));
  let ws = 0, wl = single ? n : 0;
  let dv = new DataView(win.buffer, win.byteOffset, win.byteLength);
  let piece = 0, pieceAt = 0;
  /** Makes input [keep, upTo) readable (upTo capped at n), dropping what lies before `keep`. */
  const fill = (upTo: number, keep: number): void => {
    if (single) return;
    const drop = keep - ws;
    if (drop > 0 && drop >= wl / 2) {
      win.copyWithin(0, drop, wl);
      ws += drop;
      wl -= drop;
    }
    const want = Math.min(n, Math.max(upTo, ws + wl + step)) - ws;
    if (want > win.length) {
      const grown = new Uint8Array(Math.min(n - ws, Math.max(want, win.length * 2)));
      grown.set(win.subarray(0, wl));
      win = grown;
      dv = new DataView(win.buffer);
    }
    while (wl < want) {
      const p = pieces[piece]!;
      const take = Math.min(p.length - pieceAt, want - wl);
      win.set(p.subarray(pieceAt, pieceAt + take), wl);
      wl += take;
      pieceAt += take;
      if (pieceAt === p.length) { piece++; pieceAt = 0; }
    }
  };
  const writeLength = (v: number): void => {
    while (v >= 255) {
      out[op++] = 255;
      v -= 255;
    }
    out[op++] = v;
  };
  const table = new Int32Array(1 << 16).fill(-1);
  let anchor = 0;
  let i = 0;
  const limit = n - 12;
  /** A sequence's token and literals [anchor, litEnd); returns where the token is (its match nibble is added later). */
  const literals = (litEnd: number): number => {
    const lit = litEnd - anchor;
    const tokenAt = op;
    out[op++] = (lit >= 15 ? 15 : lit) << 4;
    if (lit >= 15) writeLength(lit - 15);
    // Short runs byte by byte (a subarray + set per run cost more than the copy itself).
    if (lit < 32) {
      for (let k = anchor - ws, e = litEnd - ws; k < e; ) out[op++] = win[k++]!;
    } else {
      out.set(win.subarray(anchor - ws, litEnd - ws), op);
      op += lit;
    }
    return tokenAt;
  };
  while (i < limit) {
    if (i + 4 > ws + wl) fill(i + 4, Math.min(anchor, i - MAX_OFFSET));
    const at = i - ws;
    const word = dv.getInt32(at, true);
    const h = (Math.imul(word, 2654435761) >>> 16) & 0xffff;
    const cand = table[h]!;
    table[h] = i;
    if (cand >= 0 && i - cand < 65536 && dv.getInt32(cand - ws, true) === word) {
      // The literals and the offset go out first, so a long match needs no window reaching back
      // to them: only its own last 64 KiB.
      const tokenAt = literals(i);
      const offset = i - cand;
      out[op++] = offset & 0xff;
      out[op++] = offset >>> 8;
      let len = 4;
      // Four bytes at a time while the window holds them, then byte by byte (same length found).
      while (i + len + 4 < n - 5 && i + len + 4 <= ws + wl && dv.getInt32(cand - ws + len, true) === dv.getInt32(i - ws + len, true)) len += 4;
      for (;;) {
        if (!(i + len < n - 5)) break;
        if (i + len >= ws + wl) fill(i + len + 1, i + len - MAX_OFFSET);
        if (win[cand - ws + len] !== win[i - ws + len]) break;
        len++;
      }
      const ml = len - 4;
      out[tokenAt] = out[tokenAt]! | (ml >= 15 ? 15 : ml);
      if (ml >= 15) writeLength(ml - 15);
      i += len;
      anchor = i;
    } else {
      i++;
    }
  }
  fill(n, anchor);
  literals(n);
  // A view, not a copy: the block is written out once and dropped.
  return out.subarray(0, op);
}
