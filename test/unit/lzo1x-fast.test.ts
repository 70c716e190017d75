import { describe, expect, it } from 'vitest';
import { lzo1xCompress, lzo1xDecompress, lzo1xMatches } from '../../shared/binary/lzo1x.ts';
import { isDecodeError } from '../../shared/errors.ts';

// The decoder takes short instructions in a fast loop (whole 4- and 8-byte copies, bounds checked
// once by the distance to the ends of both buffers) and everything else one checked step at a
// time. The streams here are long, so most of their instructions go through the fast loop, and
// built instruction by instruction with every kind LZO1X has (first literal run, literal runs,
// M1 after 1..3 literals, the 3-byte match after a literal run, M2, M3, M4, extended lengths,
// 0..3 trailing literals, distances 1..7 that overlap), each with the output a byte-at-a-time
// expansion gives. A fast path that copied a byte too few, too many or from the wrong place
// would show here as a wrong output or a rejected stream.

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
  pick<T>(items: readonly T[]): T {
    return items[this.next() % items.length]!;
  }
}

/** An LZO1X stream written instruction by instruction, with the output it stands for. */
class StreamBuilder {
  readonly bytes: number[] = [];
  readonly out: number[] = [];
  /** The decoder's state after the last instruction: 0 (a literal run may follow), 1..3, 4. */
  state = 0;

  private ext(rem: number): void {
    while (rem > 255) {
      this.bytes.push(0);
      rem -= 255;
    }
    this.bytes.push(rem);
  }

  /** A literal run (4 bytes or more, or the short first-run form at the very start). */
  lit(data: number[], shortFirst = false): void {
    const n = data.length;
    if (shortFirst) {
      if (this.bytes.length !== 0 || n < 1 || n > 238) throw new Error('not a short first run');
      this.bytes.push(17 + n);
      this.state = n < 4 ? n : 4;
    } else {
      if (this.state !== 0 || n < 4) throw new Error('a literal run needs state 0 and 4 bytes or more');
      if (n <= 18) this.bytes.push(n - 3);
      else {
        this.bytes.push(0);
        this.ext(n - 18);
      }
      this.state = 4;
    }
    this.bytes.push(...data);
    this.out.push(...data);
  }

  private copy(len: number, dist: number, trailing: number[]): void {
    if (dist < 1 || dist > this.out.length) throw new Error(`distance ${dist} reaches before the output`);
    for (let k = 0; k < len; k++) this.out.push(this.out[this.out.length - dist]!);
    this.bytes.push(...trailing);
    this.out.push(...trailing);
    this.state = trailing.length;
  }

  /** M2: 3..8 bytes within 2 KiB. */
  m2(len: number, dist: number, trailing: number[] = []): void {
    if (len < 3 || len > 8 || dist > 2048) throw new Error('not an M2 match');
    const d = dist - 1;
    this.bytes.push(((len - 1) << 5) | ((d & 7) << 2) | trailing.length, d >> 3);
    this.copy(len, dist, trailing);
  }

  /** M3: 3 bytes or more within 16 KiB. */
  m3(len: number, dist: number, trailing: number[] = []): void {
    if (len < 3 || dist > 16384) throw new Error('not an M3 match');
    if (len <= 33) this.bytes.push(32 | (len - 2));
    else {
      this.bytes.push(32);
      this.ext(len - 33);
    }
    const d = dist - 1;
    this.bytes.push(((d & 0x3f) << 2) | trailing.length, d >> 6);
    this.copy(len, dist, trailing);
  }

  /** M4: 3 bytes or more at 16385..49151. */
  m4(len: number, dist: number, trailing: number[] = []): void {
    if (len < 3 || dist <= 16384 || dist > 49151) throw new Error('not an M4 match');
    const d = dist - 16384;
    const h = (d & 0x4000) >> 11;
    if (len <= 9) this.bytes.push(16 | h | (len - 2));
    else {
      this.bytes.push(16 | h);
      this.ext(len - 9);
    }
    this.bytes.push(((d & 0x3f) << 2) | trailing.length, (d >> 6) & 0xff);
    this.copy(len, dist, trailing);
  }

  /** After 1..3 literals: M1, 2 bytes within 1 KiB. After a literal run: 3 bytes at 2049..3072. */
  short(dist: number, trailing: number[] = []): void {
    if (this.state === 0) throw new Error('a short match needs literals just before');
    const base = this.state === 4 ? 2049 : 1;
    const d = dist - base;
    if (d < 0 || d > 1023) throw new Error(`distance ${dist} does not fit this short match`);
    this.bytes.push(((d & 3) << 2) | trailing.length, d >> 2);
    this.copy(this.state === 4 ? 3 : 2, dist, trailing);
  }

  done(): { stream: Uint8Array; expected: Uint8Array } {
    return { stream: Uint8Array.from([...this.bytes, 0x11, 0, 0]), expected: Uint8Array.from(this.out) };
  }
}

function bytes(rng: Rng, n: number): number[] {
  const a: number[] = [];
  for (let i = 0; i < n; i++) a.push(rng.next() & 255);
  return a;
}

/** A random stream of every instruction kind, about `size` bytes of output. */
function randomStream(seed: number, size: number): { stream: Uint8Array; expected: Uint8Array } {
  const rng = new Rng(seed);
  const b = new StreamBuilder();
  if (rng.int(0, 1)) b.lit(bytes(rng, rng.int(1, 40)), true);
  else b.lit(bytes(rng, rng.int(4, 40)));
  // Extended lengths up to several zero bytes (the fast loop takes them too, and copies matches
  // of 128 bytes or more whose source does not overlap natively).
  const lens = [3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 24, 31, 32, 33, 34, 40, 100, 127, 128, 300, 800, 1500];
  const smallDists = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16];
  while (b.out.length < size) {
    const have = b.out.length;
    const trailing = bytes(rng, rng.pick([0, 0, 0, 1, 2, 3]));
    const dist = (max: number): number => Math.min(have, rng.int(0, 2) === 0 ? rng.pick(smallDists) : rng.int(1, max));
    const k = rng.int(0, 9);
    if (b.state === 0 && k <= 2) {
      b.lit(bytes(rng, rng.int(0, 4) === 0 ? rng.pick([rng.int(19, 300), rng.int(120, 140), rng.int(300, 1500)]) : rng.int(4, 18)));
    } else if (b.state !== 0 && k <= 1 && (b.state !== 4 || have >= 2049)) {
      b.short(b.state === 4 ? rng.int(2049, Math.min(3072, have)) : dist(1024), trailing);
    } else if (k <= 5) {
      b.m2(rng.int(3, 8), dist(2048), trailing);
    } else if (k <= 8 || have <= 16384) {
      b.m3(rng.pick(lens), dist(16384), trailing);
    } else {
      b.m4(rng.pick(lens), rng.int(16385, Math.min(49151, have)), trailing);
    }
  }
  return b.done();
}

function decodeErrorOrExact(src: Uint8Array, size: number): void {
  try {
    expect(lzo1xDecompress(src, 0, size).data.length).toBe(size);
  } catch (e) {
    expect(isDecodeError(e)).toBe(true);
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/**
 * Decodes the stream alone and followed by more data (as in a file, where the input does not end
 * with the stream, so only the output's end limits the last instructions).
 */
function expectDecodesPadded({ stream, expected }: { stream: Uint8Array; expected: Uint8Array }): void {
  for (const pad of [0, 3, 100]) {
    const src = new Uint8Array(stream.length + pad).fill(0xee);
    src.set(stream);
    const r = lzo1xDecompress(src, 0, expected.length);
    expect(r.consumed).toBe(stream.length);
    expect(same(r.data, expected)).toBe(true);
  }
}

describe('LZO1X fast loop', () => {
  it('decodes long streams of every instruction kind exactly as byte-by-byte expansion', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { stream, expected } = randomStream(seed, seed % 3 === 0 ? 60000 : 6000);
      const r = lzo1xDecompress(stream, 0, expected.length);
      expect(r.consumed).toBe(stream.length);
      expect(same(r.data, expected)).toBe(true);
    }
  });

  it('the same streams inside a larger buffer, at an odd offset of a view with a byte offset', () => {
    for (let seed = 100; seed < 110; seed++) {
      const { stream, expected } = randomStream(seed, 5000);
      const backing = new Uint8Array(stream.length + 64).fill(0xee);
      backing.set(stream, 21);
      const view = backing.subarray(5, 5 + stream.length + 40);
      const r = lzo1xDecompress(view, 16, expected.length);
      expect(r.consumed).toBe(stream.length);
      expect(same(r.data, expected)).toBe(true);
    }
  });

  it('overlapping matches of distance 1..9 in the middle of a long stream', () => {
    const rng = new Rng(7);
    const b = new StreamBuilder();
    b.lit(bytes(rng, 200));
    for (let round = 0; round < 3; round++) {
      for (let dist = 1; dist <= 9; dist++) {
        for (let len = 3; len <= 8; len++) {
          b.m2(len, dist, bytes(rng, round));
          b.m3(len + 2, dist, bytes(rng, round));
          if (b.state === 0) b.lit(bytes(rng, 5));
          else b.short(dist + 3);
        }
      }
    }
    b.m3(60, 1);
    b.lit(bytes(rng, 100));
    const { stream, expected } = b.done();
    expect(same(lzo1xDecompress(stream, 0, expected.length).data, expected)).toBe(true);
  });

  it('literal runs of 4..18 bytes each followed by an M2 match, and short M4 matches', () => {
    // The fast loop decodes an M2 right after a literal run from bytes it read with the run, and
    // M4 matches of 3..9 bytes in one or two 8-byte steps: every run length, M2 length, distance
    // class (1..3 left to the checked path, 4..7 overlapping, 8 and more) and 0..3 trailing
    // literals, then M4 of every short length at both ends of its distance range.
    const rng = new Rng(11);
    const b = new StreamBuilder();
    b.lit(bytes(rng, 3000));
    const dists = [1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 100, 2047, 2048];
    for (let n = 4; n <= 18; n++) {
      for (const dist of dists) {
        for (let len = 3; len <= 8; len++) {
          if (b.state !== 0) b.m3(3, 5);
          b.lit(bytes(rng, n));
          b.m2(len, dist, bytes(rng, (n + len + dist) % 4));
        }
      }
    }
    b.m3(200, 1);
    b.lit(bytes(rng, 20000));
    for (let len = 3; len <= 10; len++) {
      for (const dist of [16385, 16386, 16391, 32768, 32769, 49151]) {
        b.m4(len, dist, bytes(rng, (len + dist) % 4));
        if (b.state === 0) b.lit(bytes(rng, 4 + (len % 15)));
        else b.short(3);
      }
    }
    b.lit(bytes(rng, 100));
    const { stream, expected } = b.done();
    const r = lzo1xDecompress(stream, 0, expected.length);
    expect(r.consumed).toBe(stream.length);
    expect(same(r.data, expected)).toBe(true);
  });

  it('long last instructions that end exactly at the expected size and just before the end marker', () => {
    // The fast loop's margins must cover the longest instruction it takes (an M3 of 33 bytes and
    // 3 trailing literals, a literal run of 18): here every such instruction ends the output.
    const rng = new Rng(11);
    for (let len = 3; len <= 40; len++) {
      for (let tr = 0; tr <= 3; tr++) {
        for (const dist of [5, 8, 9, 150]) {
          const kinds = len <= 8 ? ['m2', 'm3'] : ['m3'];
          for (const kind of kinds) {
            const b = new StreamBuilder();
            b.lit(bytes(rng, 200));
            if (kind === 'm2') b.m2(len, dist, bytes(rng, tr));
            else b.m3(len, dist, bytes(rng, tr));
            expectDecodesPadded(b.done());
          }
        }
      }
    }
    for (let n = 4; n <= 40; n++) {
      const b = new StreamBuilder();
      b.lit(bytes(rng, 100));
      b.m3(5, 50);
      b.lit(bytes(rng, n));
      expectDecodesPadded(b.done());
    }
  });

  it('rejects every truncation and every wrong expected size of a long stream', () => {
    for (let seed = 200; seed < 206; seed++) {
      const { stream, expected } = randomStream(seed, 3000);
      for (let cut = stream.length - 1; cut >= 0; cut -= cut > stream.length - 120 ? 1 : 37) {
        expect(() => lzo1xDecompress(stream.subarray(0, cut), 0, expected.length)).toThrow(/LZO/);
      }
      for (const delta of [-64, -9, -8, -7, -4, -3, -2, -1, 1, 2, 3, 4, 7, 8, 9, 64]) {
        const size = expected.length + delta;
        let err: unknown;
        try {
          lzo1xDecompress(stream, 0, size);
        } catch (e) {
          err = e;
        }
        expect(isDecodeError(err)).toBe(true);
      }
    }
  });

  it('a match reaching before the output, in the middle of a long stream, is a DecodeError at the match', () => {
    for (const kind of ['m2', 'm3', 'short'] as const) {
      const rng = new Rng(9);
      const b = new StreamBuilder();
      b.lit(bytes(rng, 100), true);
      b.m3(4, 1, [1]);
      const at = b.bytes.length;
      // Forge a match of distance 106..120 when only 105 bytes exist.
      b.out.push(...new Array<number>(100).fill(0));
      if (kind === 'm2') b.m2(5, 115);
      else if (kind === 'm3') b.m3(5, 120);
      else b.short(106);
      b.out.length = 105;
      b.lit(bytes(rng, 200));
      const { stream } = b.done();
      let err: unknown;
      try {
        lzo1xDecompress(stream, 0, 50000);
      } catch (e) {
        err = e;
      }
      expect(isDecodeError(err)).toBe(true);
      expect((err as { offset: number }).offset).toBe(at);
      expect(String((err as Error).message)).toMatch(/reaches before the start of the output/);
    }
  });

  it('random corruption of long streams: a DecodeError or exactly the expected size, nothing else', () => {
    const rng = new Rng(31);
    for (let seed = 300; seed < 310; seed++) {
      const { stream, expected } = randomStream(seed, 8000);
      for (let k = 0; k < 40; k++) {
        const bad = stream.slice();
        for (let f = rng.int(1, 4); f > 0; f--) bad[rng.int(0, bad.length - 1)] = rng.next() & 255;
        decodeErrorOrExact(bad, expected.length);
      }
    }
  });

  it('reports a length extension longer than 2^31 as a decode error (the sum must not wrap to a negative int32)', () => {
    // 8.5 million zero bytes extend a length by 255 each, past 2^31: a wrapped length once passed
    // the fast loop's margin check and sent the copy outside the arrays (a RangeError).
    const n = 8_500_000;
    const run = new Uint8Array(n + 100); // a long literal run: 0, the zero bytes, the last length byte
    run[n + 1] = 5;
    const m3 = new Uint8Array(n + 100); // a first literal run of 4, then M3 with its extension
    m3.set([21, 65, 65, 65, 65, 0x20]);
    m3[n + 6] = 5;
    m3[n + 7] = 4;
    const m4 = m3.slice();
    m4[5] = 0x10;
    for (const stream of [run, m3, m4]) {
      let caught: unknown;
      try {
        lzo1xDecompress(stream, 0, 100_000);
      } catch (e) {
        caught = e;
      }
      expect(isDecodeError(caught), String(caught)).toBe(true);
    }
  });

  it('copies 8-byte windows that read as NaN or infinity bit for bit, also once the decoder is optimised', () => {
    // 8-byte steps move the bytes as one double: every NaN payload (signalling, the engine's hole
    // pattern, negative) must come out unchanged. Repeating the decode lets the engine optimise
    // the function as it would in an application.
    const patterns = [
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0xff, 0xff, 0xf7, 0xff, 0xff, 0xff, 0xf7, 0xff],
      [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f],
      [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xff],
      [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f],
      [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfe, 0xff],
      [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f],
      [0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xf4, 0x7f],
    ];
    const rng = new Rng(5);
    const data: number[] = [];
    while (data.length < 40000) {
      if (rng.int(0, 3) === 0) data.push(...bytes(rng, rng.int(1, 6)));
      const p = rng.pick(patterns);
      data.push(...p);
      if (rng.int(0, 1)) data.push(...p.slice(0, rng.int(0, 8)));
    }
    const raw = Uint8Array.from(data);
    const stream = lzo1xCompress(raw);
    let wrong = 0;
    for (let i = 0; i < 400; i++) {
      if (!same(lzo1xDecompress(stream, 0, raw.length).data, raw)) wrong++;
    }
    expect(wrong).toBe(0);
  });
});

describe('LZO1X stream-against-data check', () => {
  it('holds for the data a stream decodes to, and for nothing else', () => {
    for (let seed = 400; seed < 420; seed++) {
      const { stream, expected } = randomStream(seed, seed % 2 ? 5000 : 300);
      expect(lzo1xMatches(stream, expected)).toBe(true);
      const rng = new Rng(seed);
      for (let k = 0; k < 60; k++) {
        const edited = expected.slice();
        const i = k < 8 ? (k < 4 ? k : expected.length - 1 - (k - 4)) : rng.int(0, expected.length - 1);
        edited[i] = edited[i]! ^ (1 << rng.int(0, 7));
        expect(lzo1xMatches(stream, edited)).toBe(false);
      }
      expect(lzo1xMatches(stream, expected.subarray(0, expected.length - 1))).toBe(false);
      const longer = new Uint8Array(expected.length + 1);
      longer.set(expected);
      expect(lzo1xMatches(stream, longer)).toBe(false);
      const padded = new Uint8Array(stream.length + 1);
      padded.set(stream);
      expect(lzo1xMatches(padded, expected)).toBe(false);
      for (let cut = 0; cut < stream.length; cut += cut < 40 || cut > stream.length - 40 ? 1 : 53) {
        expect(lzo1xMatches(stream.subarray(0, cut), expected)).toBe(false);
      }
    }
  });

  it('agrees with decompression on corrupted streams and never throws', () => {
    const rng = new Rng(77);
    for (let seed = 500; seed < 510; seed++) {
      const { stream, expected } = randomStream(seed, 2000);
      for (let k = 0; k < 100; k++) {
        const bad = stream.slice();
        for (let f = rng.int(1, 3); f > 0; f--) bad[rng.int(0, bad.length - 1)] = rng.next() & 255;
        let decodes = false;
        try {
          const r = lzo1xDecompress(bad, 0, expected.length);
          decodes = r.consumed === bad.length && same(r.data, expected);
        } catch (e) {
          expect(isDecodeError(e)).toBe(true);
        }
        expect(lzo1xMatches(bad, expected)).toBe(decodes);
      }
    }
  });

  it('holds for streams of our compressor and liblzo2-style first literal runs', () => {
    const rng = new Rng(3);
    for (const n of [0, 1, 3, 4, 17, 238, 239, 1000, 70000]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i % 7 === 0 ? rng.next() & 255 : i & 15));
      const stream = lzo1xCompress(data);
      expect(lzo1xMatches(stream, data)).toBe(true);
      if (n > 0) {
        const edited = data.slice();
        edited[n >> 1] = edited[n >> 1]! ^ 0x80;
        expect(lzo1xMatches(stream, edited)).toBe(false);
      }
    }
  });
});
