import { describe, expect, it } from 'vitest';
import { lz4Compress, lz4Decompress } from '../../shared/formats/unigine/lz4.ts';

// The LZ4 decoder takes whole sequences in a fast loop (16-byte literal copies, 8-byte match
// steps, a distance under 8 widened to its smallest multiple of 8 or more, one bounds check per
// sequence away from the ends of both buffers) and leaves the rest to a checked loop. The blocks
// here are written sequence by sequence with every length class (no literals, 1..14, 15 and
// extended; matches of 4..18, 19 and extended, up to a few hundred bytes) and every distance
// from 1 to 20 besides far ones, so most sequences run through the fast loop and the last ones,
// near the ends, through the checked loop. Each is compared with a byte-at-a-time decoder
// written here from the format description: a fast path that copied a byte too few, too many or
// from the wrong place shows as different bytes or a rejected block, and a damaged block must
// give the same verdict (error, or the same bytes) from both.

class Rng {
  private x: number;
  constructor(seed: number) {
    this.x = seed >>> 0 || 1;
  }
  next(): number {
    this.x ^= this.x << 13;
    this.x ^= this.x >>> 17;
    this.x ^= this.x << 5;
    return this.x >>> 0;
  }
  int(lo: number, hi: number): number {
    return lo + (this.next() % (hi - lo + 1));
  }
}

/** The LZ4 block format, one byte at a time: null for a block that is not exactly `size` bytes of output. */
function reference(src: Uint8Array, size: number): Uint8Array | null {
  const out = new Uint8Array(size);
  let ip = 0;
  let op = 0;
  const length = (n: number): number | null => {
    if (n !== 15) return n;
    for (;;) {
      if (ip >= src.length) return null;
      const b = src[ip++]!;
      n += b;
      if (b !== 255) return n;
    }
  };
  while (ip < src.length) {
    const token = src[ip++]!;
    const lit = length(token >> 4);
    if (lit === null) return null;
    for (let k = 0; k < lit; k++) {
      if (ip >= src.length || op >= size) return null;
      out[op++] = src[ip++]!;
    }
    if (ip === src.length) break;
    if (ip + 2 > src.length) return null;
    const dist = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (dist === 0 || dist > op) return null;
    const m = length(token & 15);
    if (m === null) return null;
    for (let k = 0; k < m + 4; k++) {
      if (op >= size) return null;
      out[op] = out[op - dist]!;
      op++;
    }
  }
  return op === size ? out : null;
}

/** A block written sequence by sequence: literals, then a match (none for the last sequence). */
class BlockBuilder {
  readonly bytes: number[] = [];
  outLength = 0;
  private ext(n: number): void {
    while (n >= 255) {
      this.bytes.push(255);
      n -= 255;
    }
    this.bytes.push(n);
  }
  seq(literals: number[], dist: number, len: number): void {
    const l = literals.length;
    const m = len - 4;
    this.bytes.push(((l >= 15 ? 15 : l) << 4) | (m >= 15 ? 15 : m));
    if (l >= 15) this.ext(l - 15);
    this.bytes.push(...literals);
    this.bytes.push(dist & 255, dist >> 8);
    if (m >= 15) this.ext(m - 15);
    this.outLength += l + len;
  }
  last(literals: number[]): void {
    const l = literals.length;
    this.bytes.push((l >= 15 ? 15 : l) << 4);
    if (l >= 15) this.ext(l - 15);
    this.bytes.push(...literals);
    this.outLength += l;
  }
}

function bytes(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.next() & 255);
}

function randomBlock(seed: number, sequences: number): { block: Uint8Array; size: number } {
  const rng = new Rng(seed);
  const b = new BlockBuilder();
  b.seq(bytes(rng, 24), 1, 4); // something to point back to
  for (let i = 0; i < sequences; i++) {
    const litKind = rng.int(0, 9);
    const lit = litKind < 2 ? 0 : litKind < 7 ? rng.int(1, 14) : litKind < 8 ? 15 : rng.int(16, 400);
    const lenKind = rng.int(0, 9);
    const len = lenKind < 6 ? rng.int(4, 18) : lenKind < 7 ? 19 : rng.int(20, 600);
    const distKind = rng.int(0, 3);
    const written = b.outLength + lit;
    const dist = Math.min(written, distKind < 2 ? rng.int(1, 20) : distKind < 3 ? rng.int(21, 200) : rng.int(200, 65535));
    b.seq(bytes(rng, lit), dist, len);
  }
  b.last(bytes(rng, rng.int(0, 40)));
  return { block: Uint8Array.from(b.bytes), size: b.outLength };
}

function same(a: Uint8Array | string | null, b: Uint8Array | string | null): boolean {
  if (typeof a === 'string' || typeof b === 'string' || a === null || b === null) return false;
  return a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

describe('LZ4 fast loop', () => {
  it('decodes every distance from 1 to 20 and every length class as a byte-at-a-time decoder does', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { block, size } = randomBlock(seed, seed % 3 === 0 ? 20 : 400);
      const want = reference(block, size);
      expect(want, `seed ${seed}: the test's own block is valid`).not.toBeNull();
      const got = lz4Decompress(block, size);
      expect(same(got, want), `seed ${seed}`).toBe(true);
      // One byte more or less declared is an error, never a cut or padded output.
      expect(typeof lz4Decompress(block, size - 1)).toBe('string');
      expect(typeof lz4Decompress(block, size + 1)).toBe('string');
    }
  });

  it('repeats short periods exactly: a match at distance 1..8 of every length from 4 to 80', () => {
    for (let dist = 1; dist <= 8; dist++) {
      for (let len = 4; len <= 80; len++) {
        // The match sits in the middle of a long block (fast loop) and again near its end (checked loop).
        const rng = new Rng(dist * 1000 + len);
        const b = new BlockBuilder();
        b.seq(bytes(rng, 100), dist, len);
        b.seq(bytes(rng, 3), dist, len);
        for (let i = 0; i < 4; i++) b.seq(bytes(rng, 9), 50, 20);
        b.seq(bytes(rng, 2), dist, len);
        b.last(bytes(rng, 5));
        const block = Uint8Array.from(b.bytes);
        expect(same(lz4Decompress(block, b.outLength), reference(block, b.outLength)), `distance ${dist}, length ${len}`).toBe(true);
      }
    }
  });

  it('takes sequences that end exactly at, just before and just after the fast loop margins', () => {
    // Blocks of every size from a few bytes to past both margins, so the hand-over from the fast
    // loop to the checked one falls on every kind of sequence.
    for (let n = 0; n < 140; n++) {
      const rng = new Rng(n + 7);
      const b = new BlockBuilder();
      b.seq(bytes(rng, 8), 8, 4);
      while (b.bytes.length < n) b.seq(bytes(rng, rng.int(0, 16)), rng.int(1, 12), rng.int(4, 24));
      b.last(bytes(rng, n % 7));
      const block = Uint8Array.from(b.bytes);
      expect(same(lz4Decompress(block, b.outLength), reference(block, b.outLength)), `block of ${block.length} bytes`).toBe(true);
    }
  });

  it('gives the same verdict as the byte-at-a-time decoder on damaged and cut blocks', () => {
    const rng = new Rng(99);
    for (let seed = 200; seed < 230; seed++) {
      const { block, size } = randomBlock(seed, 120);
      for (let k = 0; k < 40; k++) {
        const bad = block.slice();
        for (let f = rng.int(1, 3); f > 0; f--) bad[rng.int(0, bad.length - 1)] = rng.next() & 255;
        const want = reference(bad, size);
        const got = lz4Decompress(bad, size);
        if (want === null) expect(typeof got, `seed ${seed} damage ${k}`).toBe('string');
        else expect(same(got, want), `seed ${seed} damage ${k}`).toBe(true);
      }
      for (let cut = 0; cut < block.length; cut += cut < 40 || cut > block.length - 40 ? 1 : 37) {
        // (A cut that drops only an empty last sequence still decodes; the reference says so too.)
        const cutBlock = block.subarray(0, cut);
        const want = reference(cutBlock, size);
        const got = lz4Decompress(cutBlock, size);
        if (want === null) expect(typeof got, `seed ${seed} cut at ${cut}`).toBe('string');
        else expect(same(got, want), `seed ${seed} cut at ${cut}`).toBe(true);
      }
    }
  });

  it('reports a bad offset or overlong match inside the fast region, not only at the ends', () => {
    const rng = new Rng(3);
    const b = new BlockBuilder();
    b.seq(bytes(rng, 64), 8, 40);
    const at = b.bytes.length;
    b.seq(bytes(rng, 5), 6, 30);
    for (let i = 0; i < 20; i++) b.seq(bytes(rng, 5), 30, 30);
    b.last(bytes(rng, 8));
    const good = Uint8Array.from(b.bytes);
    expect(same(lz4Decompress(good, b.outLength), reference(good, b.outLength))).toBe(true);
    const zero = good.slice();
    zero[at + 1 + 5] = 0; // offset 0
    zero[at + 1 + 6] = 0;
    expect(lz4Decompress(zero, b.outLength)).toMatch(/match offset 0 points before the output/);
    const far = good.slice();
    far[at + 1 + 5] = 0xff; // offset 0xffff: before the start
    far[at + 1 + 6] = 0xff;
    expect(lz4Decompress(far, b.outLength)).toMatch(/points before the output/);
    // A match length extension that runs far past the declared size.
    const long = good.slice(0, at);
    const tail = [0x5f, ...bytes(rng, 5), 6, 0, 255, 255, 255, 255, 10, 0x10, 1];
    const block = Uint8Array.from([...long, ...tail, ...good.slice(at)]);
    expect(lz4Decompress(block, b.outLength)).toMatch(/overflows the declared size/);
  });

  it('reports a length extension longer than 2^31 as an error (the sum must not wrap to a negative int32)', () => {
    // 8.5 million 0xFF bytes add up to more than 2^31: a wrapped length once passed the margin
    // check and sent the copy outside the arrays (a RangeError instead of a message).
    const n = 8_500_000;
    const literals = new Uint8Array(n + 100);
    literals[0] = 0xf0;
    literals.fill(255, 1, n + 1);
    literals[n + 1] = 1;
    expect(lz4Decompress(literals, 1000)).toMatch(/literals run past the block/);
    const match = new Uint8Array(n + 100);
    match.set([0x4f, 1, 2, 3, 4, 1, 0]);
    match.fill(255, 7, n + 7);
    match[n + 7] = 1;
    expect(lz4Decompress(match, 1000)).toMatch(/match overflows the declared size/);
  });

  it('copies 8-byte windows that read as NaN bit for bit, also once the decoder is optimised', () => {
    const patterns = [
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0xff, 0xff, 0xf7, 0xff, 0xff, 0xff, 0xf7, 0xff],
      [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f],
      [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xff],
      [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f],
      [0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xf4, 0x7f],
    ];
    const rng = new Rng(5);
    const data: number[] = [];
    while (data.length < 40000) {
      if (rng.int(0, 3) === 0) data.push(...bytes(rng, rng.int(1, 6)));
      const p = patterns[rng.int(0, patterns.length - 1)]!;
      data.push(...p);
      if (rng.int(0, 1)) data.push(...p.slice(0, rng.int(0, 8)));
    }
    const raw = Uint8Array.from(data);
    const block = lz4Compress(raw);
    let wrong = 0;
    for (let i = 0; i < 300; i++) if (!same(lz4Decompress(block, raw.length), raw)) wrong++;
    expect(wrong).toBe(0);
  });
});
