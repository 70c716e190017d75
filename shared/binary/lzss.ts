/**
 * Bohemia Interactive's LZSS flavour (ODOL v7 and v40..43 arrays, PBO entries), both directions.
 *
 * Stream layout (Bohemia wiki "Compressed LZSS File Format"; the decoder in the ODOL v7 text):
 * - a flag byte governs the next eight tokens, least significant bit first;
 * - bit 1: one literal byte follows;
 * - bit 0: a two-byte back-reference `b0 b1`: distance = b0 | (b1 & 0xF0) << 4 (0..4095),
 *   length = (b1 & 0x0F) + 3 (3..18). The decoder keeps a 4096-byte ring initialised with spaces
 *   (0x20), so a reference before the start of the output yields spaces and distance 0 means
 *   4096 back;
 * - the stream carries no end marker: the reader knows the decompressed size and stops there;
 * - a 4-byte little-endian checksum follows: the 32-bit sum of the output bytes. Descriptions
 *   differ on signed or unsigned bytes; real ODOL v40 files sum unsigned bytes (docs/compression.md).
 */
import { DecodeError } from '../errors.ts';
import { chargeAllocation } from './budget.ts';
import { PRIMING_TAIL, primingData, warmUpOnce } from './priming.ts';

export interface LzssOptions {
  /**
   * Checksum flavour: true = sum of signed bytes, false = sum of unsigned bytes (what real ODOL v40 files use).
   * When decompressing with the option left out, either sum is accepted; compressing without it
   * writes the unsigned sum.
   */
  signedChecksum?: boolean;
}

export interface LzssResult {
  data: Uint8Array;
  /** Compressed bytes used, the 4-byte checksum included. */
  consumed: number;
}

const RING = 4096;
const RING_MASK = RING - 1;
const MIN_MATCH = 3;
const MAX_MATCH = 18;

/** Both checksum flavours of a buffer, as unsigned 32-bit values. */
export function lzssChecksums(data: Uint8Array): { unsigned: number; signed: number } {
  const s = checksumBits(data);
  return { unsigned: s.unsigned >>> 0, signed: s.signed >>> 0 };
}

/**
 * {@link lzssChecksums} as int32 bit patterns, what the decoder compares. Handing out uint32
 * values of 2^31 or more from the optimised loop made V8 give up its code ("lost precision")
 * on every such file and compile it again: the decoder was compiled 4-5 times over the corpus.
 */
function checksumBits(data: Uint8Array): { unsigned: number; signed: number } {
  // The signed sum is the unsigned one less 256 for every byte of 128 or more (all mod 2^32).
  const n = data.length;
  let u = 0;
  let high = 0;
  let i = 0;
  // Bytes one at a time up to a 4-byte boundary of the buffer, then four at a time (a byte loop
  // was as slow as the decompression itself): the bytes of a word summed in two 16-bit lanes and
  // their top bits counted in four 8-bit lanes, each lane emptied before it can overflow (128
  // words: at most 2 x 255 x 128 < 65536, and 128 < 256), then the rest one at a time.
  const head = Math.min(n, (4 - (data.byteOffset & 3)) & 3);
  for (; i < head; i++) {
    const b = data[i]!;
    u = (u + b) | 0;
    high = (high + (b >> 7)) | 0;
  }
  const words = (n - i) >> 2;
  if (words > 0) {
    // Int32 words: the lane arithmetic only looks at bit patterns, and a Uint32Array element of
    // 2^31 or more does not fit the int32 the optimised loop assumes ("lost precision": the
    // decoder was thrown back to the interpreter and recompiled again and again on real files).
    const w32 = new Int32Array(data.buffer, data.byteOffset + i, words);
    for (let k = 0; k < words; ) {
      const stop = Math.min(words, k + 128);
      let lanes = 0;
      let tops = 0;
      for (; k < stop; k++) {
        const w = w32[k]!;
        lanes = (lanes + (w & 0x00ff00ff) + ((w >>> 8) & 0x00ff00ff)) | 0;
        tops = (tops + ((w >>> 7) & 0x01010101)) | 0;
      }
      u = (u + (lanes & 0xffff) + (lanes >>> 16)) | 0;
      high = (high + (tops & 0xff) + ((tops >>> 8) & 0xff) + ((tops >>> 16) & 0xff) + (tops >>> 24)) | 0;
    }
    i += words * 4;
  }
  for (; i < n; i++) {
    const b = data[i]!;
    u = (u + b) | 0;
    high = (high + (b >> 7)) | 0;
  }
  return { unsigned: u | 0, signed: (u - (high << 8)) | 0 };
}

/**
 * Decompresses exactly `expectedSize` bytes from `src` starting at `offset`, then reads and
 * checks the checksum. Never reads outside `src`, never writes more than `expectedSize` bytes,
 * and throws {@link DecodeError} (with the absolute offset) for truncated or corrupt input.
 */
export function lzssDecompress(src: Uint8Array, offset: number, expectedSize: number, opts: LzssOptions = {}, into?: Uint8Array, path = ''): LzssResult {
  warmUp();
  if (!Number.isInteger(expectedSize) || expectedSize < 0) {
    throw new DecodeError(`LZSS expected size ${expectedSize} is invalid`, offset, '');
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > src.length) {
    throw new DecodeError('LZSS stream starts outside the data', Math.max(0, offset | 0), '');
  }
  // The stream's real worst case: a token yields at most 18 bytes and a reference costs two
  // bytes plus its flag bit, so eight references (17 bytes) make at most 144 bytes (8.5x).
  // Refuse a size no stream of the bytes left can produce before allocating anything.
  const minInput = lzssMinInput(expectedSize);
  if (src.length - offset < minInput) {
    throw new DecodeError(
      `LZSS stream for ${expectedSize} bytes needs at least ${minInput} bytes but only ${src.length - offset} remain`,
      offset,
      '',
    );
  }
  if (into && into.length !== expectedSize) throw new RangeError(`LZSS output buffer holds ${into.length} bytes, not ${expectedSize}`);
  // A caller's buffer was charged by the caller (the ODOL slab); a new one is charged here.
  if (!into) chargeAllocation(expectedSize, 'LZSS stream', offset, path, src.length);
  const out = into ?? new Uint8Array(expectedSize);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const end = src.length;
  let ip = offset;
  let op = 0;
  while (op < expectedSize) {
    if (ip >= end) throw truncated(ip, op, expectedSize);
    const flags = src[ip++]!;
    // Fast path: a flag byte's eight tokens need at most 16 more input bytes and make at most
    // 8 * 18 output bytes (+7 for the 8-byte copies below); when both fit, nothing needs checking.
    if (ip + 16 <= end && op + 8 * MAX_MATCH + 8 <= expectedSize) {
      if (flags === 0xff) {
        // Eight literals (common in float data): one 8-byte copy.
        dv.setFloat64(op, sv.getFloat64(ip, true), true);
        op += 8;
        ip += 8;
        continue;
      }
      for (let bit = 1; bit < 0x100; bit <<= 1) {
        if (flags & bit) {
          out[op++] = src[ip++]!;
        } else {
          const b0 = src[ip++]!;
          const b1 = src[ip++]!;
          const dist = b0 | ((b1 & 0xf0) << 4);
          const back = dist === 0 ? RING : dist;
          const stop = op + (b1 & 0x0f) + MIN_MATCH;
          let from = op - back;
          if (back >= 8 && from >= 0) {
            // Eight bytes per step; the last step may write up to 7 bytes past `stop`, inside
            // the output (the fast path leaves room) and overwritten by the tokens that follow.
            do {
              dv.setFloat64(op, dv.getFloat64(from, true), true);
              op += 8;
              from += 8;
            } while (op < stop);
            op = stop;
          } else if (back >= 4 && from >= 0) {
            do {
              dv.setUint32(op, dv.getUint32(from, true), true);
              op += 4;
              from += 4;
            } while (op < stop);
            op = stop;
          } else {
            // Before the start of the output the ring still holds its initial spaces (the first
            // 4 KiB only); a short distance repeats its pattern byte by byte.
            while (from < 0 && op < stop) {
              out[op++] = 0x20;
              from++;
            }
            while (op < stop) out[op++] = out[from++]!;
          }
        }
      }
      continue;
    }
    for (let bit = 1; bit < 0x100 && op < expectedSize; bit <<= 1) {
      if (flags & bit) {
        if (ip >= end) throw truncated(ip, op, expectedSize);
        out[op++] = src[ip++]!;
        continue;
      }
      if (ip + 1 >= end) throw truncated(ip, op, expectedSize);
      const b0 = src[ip++]!;
      const b1 = src[ip++]!;
      const dist = b0 | ((b1 & 0xf0) << 4);
      let len = (b1 & 0x0f) + MIN_MATCH;
      // The game truncates a reference that runs past the expected size; do the same.
      if (len > expectedSize - op) len = expectedSize - op;
      // The ring buffer's distance 0 is a full turn back.
      let from = op - (dist === 0 ? RING : dist);
      const stop = op + len;
      // Before the start of the output the ring still holds its initial spaces.
      while (from < 0 && op < stop) {
        out[op++] = 0x20;
        from++;
      }
      while (op < stop) out[op++] = out[from++]!;
    }
  }
  if (ip + 4 > end) {
    throw new DecodeError(`LZSS checksum needs 4 bytes but only ${end - ip} remain`, ip, '');
  }
  const stored = src[ip]! | (src[ip + 1]! << 8) | (src[ip + 2]! << 16) | (src[ip + 3]! << 24);
  const sums = checksumBits(out);
  const ok =
    opts.signedChecksum === true
      ? stored === sums.signed
      : opts.signedChecksum === false
        ? stored === sums.unsigned
        : stored === sums.signed || stored === sums.unsigned;
  if (!ok) {
    const want = (opts.signedChecksum === true ? sums.signed : sums.unsigned) >>> 0;
    throw new DecodeError(
      `LZSS checksum mismatch: stored 0x${(stored >>> 0).toString(16)}, data sums to 0x${want.toString(16)}`,
      ip,
      '',
    );
  }
  return { data: out, consumed: ip + 4 - offset };
}

/**
 * Streams for warming the decoder up: {@link primingData} whole and its short tail (the checked
 * path alone), and two groups of eight 18-byte references before the start of the output, which
 * the encoder never makes and real streams do (the ring's initial spaces, distance 0 = a full
 * turn), the first group on the fast path, the second on the checked one.
 */
export function lzssPrimingStreams(): { stream: Uint8Array; data: Uint8Array }[] {
  const data = primingData();
  const out = [data, data.subarray(data.length - PRIMING_TAIL)].map((d) => ({ stream: lzssCompress(d), data: d }));
  const group = [0x00, ...new Array<number>(8).fill(0).flatMap(() => [0x00, 0x0f])];
  const sum = 288 * 0x20;
  out.push({ stream: Uint8Array.from([...group, ...group, sum & 255, sum >> 8, 0, 0]), data: new Uint8Array(288).fill(0x20) });
  return out;
}

/**
 * Decodes {@link lzssPrimingStreams} before the first real stream, so the engine optimises the
 * decoder once with every branch seen (over the corpus it was compiled 3-5 times without).
 */
const warmUp = warmUpOnce(() => {
  for (const p of lzssPrimingStreams()) {
    lzssDecompress(p.stream, 0, p.data.length, {}, new Uint8Array(p.data.length));
    lzssDecompress(p.stream, 0, p.data.length);
  }
});

/**
 * The fewest stream bytes (checksum included) that can expand to `size` bytes: longest
 * references (2 bytes for 18 out) for all but a remainder, which costs one literal (1 byte for
 * 1) or one more reference cut at the end (2 bytes), one flag byte per 8 tokens, the checksum.
 */
export function lzssMinInput(size: number): number {
  const q = Math.floor(size / MAX_MATCH);
  const rest = size - q * MAX_MATCH;
  const tokens = q + (rest > 0 ? 1 : 0);
  return 2 * q + Math.min(rest, 2) + Math.ceil(tokens / 8) + 4;
}

/** Most bytes `streamBytes` bytes of LZSS stream (checksum included) can expand to (~8.5x). */
export function lzssMaxOutput(streamBytes: number): number {
  const body = Math.max(0, streamBytes - 4);
  const groups = Math.floor(body / 17);
  const rest = body - groups * 17;
  const tail = rest > 0 ? Math.floor((rest - 1) / 2) * MAX_MATCH + ((rest - 1) % 2) : 0;
  return groups * 8 * MAX_MATCH + tail;
}

function truncated(ip: number, op: number, expected: number): DecodeError {
  return new DecodeError(`LZSS stream ends after ${op} of ${expected} bytes`, ip, '');
}

const HASH_BITS = 13;
const HASH_SIZE = 1 << HASH_BITS;
/** How many earlier positions to try per byte: enough for a good ratio, bounded for speed. */
const CHAIN_DEPTH = 16;

/**
 * Compresses `data` into a stream plus checksum that the game's decoder (and
 * {@link lzssDecompress}) accepts. References only reach back into the data itself (distance
 * 1..4095), so decoders that treat the start of the output differently still agree.
 */
export function lzssCompress(data: Uint8Array, opts: LzssOptions = {}): Uint8Array {
  const n = data.length;
  // Worst case: every byte a literal, one flag byte per 8, plus the checksum.
  const out = new Uint8Array(n + Math.ceil(n / 8) + 4);
  let op = 0;
  // head[h] = last position + 1 with hash h; prev[i & mask] = previous position + 1 in the chain.
  const head = new Int32Array(HASH_SIZE);
  const prev = new Int32Array(RING);
  let flagPos = 0;
  let flagBit = 8;
  const lastHash = n - MIN_MATCH;
  let i = 0;
  while (i < n) {
    let bestLen = 0;
    let bestDist = 0;
    if (i <= lastHash) {
      const maxLen = n - i < MAX_MATCH ? n - i : MAX_MATCH;
      const h = Math.imul((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS);
      let cand = head[h]! - 1;
      let depth = CHAIN_DEPTH;
      while (cand >= 0 && depth-- > 0) {
        const dist = i - cand;
        if (dist >= RING) break;
        if (data[cand + bestLen] === data[i + bestLen]) {
          let l = 0;
          while (l < maxLen && data[cand + l] === data[i + l]) l++;
          if (l > bestLen) {
            bestLen = l;
            bestDist = dist;
            if (l === maxLen) break;
          }
        }
        const next = prev[cand & RING_MASK]! - 1;
        // Chains only go backwards; a slot overwritten by a newer position ends the walk.
        if (next >= cand) break;
        cand = next;
      }
    }
    if (flagBit === 8) {
      flagPos = op++;
      out[flagPos] = 0;
      flagBit = 0;
    }
    let step = 1;
    if (bestLen >= MIN_MATCH) {
      out[op++] = bestDist & 0xff;
      out[op++] = ((bestDist >> 4) & 0xf0) | (bestLen - MIN_MATCH);
      step = bestLen;
    } else {
      out[flagPos] = out[flagPos]! | (1 << flagBit);
      out[op++] = data[i]!;
    }
    flagBit++;
    // Every position enters the hash chains, inside matches too, so later matches can start there.
    const stop = i + step;
    for (; i < stop; i++) {
      if (i > lastHash) continue;
      const h = Math.imul((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS);
      prev[i & RING_MASK] = head[h]!;
      head[h] = i + 1;
    }
  }
  const sums = lzssChecksums(data);
  const sum = opts.signedChecksum ? sums.signed : sums.unsigned;
  out[op++] = sum & 0xff;
  out[op++] = (sum >>> 8) & 0xff;
  out[op++] = (sum >>> 16) & 0xff;
  out[op++] = (sum >>> 24) & 0xff;
  return out.slice(0, op);
}
