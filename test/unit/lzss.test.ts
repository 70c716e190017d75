import { describe, expect, it } from 'vitest';
import { lzssChecksums, lzssCompress, lzssDecompress } from '../../shared/binary/lzss.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { sampleInputs, scanCompressedArrays } from './lzss-lzo-samples.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';


function withSum(stream: number[], data: Uint8Array, signed = false): Uint8Array {
  const s = signed ? lzssChecksums(data).signed : lzssChecksums(data).unsigned;
  return Uint8Array.from([...stream, s & 255, (s >>> 8) & 255, (s >>> 16) & 255, s >>> 24]);
}

describe('LZSS decompression, hand-assembled streams', () => {
  it('reads literals and back-references as the ODOL v7 decoder does', () => {
    // flags 0b00000111: three literals "abc", then a reference distance 3, length (0x0)+3 = 3.
    const data = new TextEncoder().encode('abcabc');
    const src = withSum([0x07, 0x61, 0x62, 0x63, 0x03, 0x00], data);
    const r = lzssDecompress(src, 0, 6);
    expect(new TextDecoder().decode(r.data)).toBe('abcabc');
    expect(r.consumed).toBe(src.length);
  });

  it('repeats overlapping references and fills before-the-start references with spaces', () => {
    // literal 'x', then distance 1 length 18 (x repeated), then distance 0x123 (before the start).
    const expected = new Uint8Array(1 + 18 + 4);
    expected.fill(0x78, 0, 19);
    expected.fill(0x20, 19);
    const src = withSum([0x01, 0x78, 0x01, 0x0f, 0x23, 0x11], expected);
    const r = lzssDecompress(src, 0, expected.length);
    expect(Array.from(r.data)).toEqual(Array.from(expected));
  });

  it('truncates a reference that runs past the expected size, like the game', () => {
    const data = new TextEncoder().encode('abab');
    const src = withSum([0x03, 0x61, 0x62, 0x02, 0x0f], data);
    expect(new TextDecoder().decode(lzssDecompress(src, 0, 4).data)).toBe('abab');
  });

  it('checks the checksum flavour asked for, and accepts either when not told', () => {
    const data = Uint8Array.of(0x90, 0x91, 0x92);
    const unsignedStream = withSum([0x07, 0x90, 0x91, 0x92], data, false);
    const signedStream = withSum([0x07, 0x90, 0x91, 0x92], data, true);
    expect(lzssDecompress(unsignedStream, 0, 3, { signedChecksum: false }).data.length).toBe(3);
    expect(lzssDecompress(signedStream, 0, 3, { signedChecksum: true }).data.length).toBe(3);
    expect(lzssDecompress(signedStream, 0, 3).data.length).toBe(3);
    expect(lzssDecompress(unsignedStream, 0, 3).data.length).toBe(3);
    const e = expectDecodeError(() => lzssDecompress(unsignedStream, 0, 3, { signedChecksum: true }));
    expect(e.detail).toMatch(/checksum/);
    expect(e.offset).toBe(4);
    expectDecodeError(() => lzssDecompress(signedStream, 0, 3, { signedChecksum: false }));
  });
});

/** The format as written down, one byte at a time: the yardstick for the decoder's fast paths. */
function referenceDecode(stream: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let ip = 0;
  let op = 0;
  while (op < size) {
    const flags = stream[ip++]!;
    for (let bit = 0; bit < 8 && op < size; bit++) {
      if (flags & (1 << bit)) {
        out[op++] = stream[ip++]!;
        continue;
      }
      const b0 = stream[ip++]!;
      const b1 = stream[ip++]!;
      const dist = b0 | ((b1 & 0xf0) << 4) || 4096;
      const len = (b1 & 0x0f) + 3;
      for (let k = 0; k < len && op < size; k++, op++) out[op] = op - dist < 0 ? 0x20 : out[op - dist]!;
    }
  }
  return out;
}

describe('LZSS decompression, random token streams', () => {
  it('agrees with the byte-at-a-time reading: all distances (0 = 4096, 1-3 overlapping), lengths, and ends', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let trial = 0; trial < 40; trial++) {
      const size = 4096 + rnd(20000);
      const stream: number[] = [];
      let produced = 0;
      while (produced < size) {
        let flags = 0;
        const tokens: number[] = [];
        for (let bit = 0; bit < 8 && produced < size; bit++) {
          // Every other trial is mostly literals, so whole flag bytes of literals (0xff) occur.
          if (trial % 2 ? rnd(16) !== 0 : rnd(3) === 0) {
            flags |= 1 << bit;
            tokens.push(rnd(256));
            produced++;
          } else {
            // Short distances often, so overlapping copies and the first-4-KiB spaces both occur.
            const dist = rnd(4) === 0 ? rnd(4) : rnd(4096);
            const len = rnd(16);
            tokens.push(dist & 0xff, ((dist >> 4) & 0xf0) | len);
            produced += len + 3;
          }
        }
        stream.push(flags, ...tokens);
      }
      const expected = referenceDecode(Uint8Array.from(stream), size);
      const got = lzssDecompress(withSum(stream, expected), 0, size);
      expect(Buffer.from(got.data).equals(Buffer.from(expected)), `trial ${trial}, ${size} bytes`).toBe(true);
      expect(got.consumed).toBe(stream.length + 4);
    }
  });
});

describe('LZSS compression', () => {
  it.each(sampleInputs().map((s) => [s.name, s.data] as const))('round-trips %s', (_name, data) => {
    for (const signedChecksum of [false, true]) {
      const c = lzssCompress(data, { signedChecksum });
      const r = lzssDecompress(c, 0, data.length, { signedChecksum });
      expect(r.consumed).toBe(c.length);
      expect(Buffer.from(r.data).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('compresses repetitive data and never grows more than a flag byte per 8 bytes', () => {
    expect(lzssCompress(new Uint8Array(1 << 20)).length).toBeLessThan((1 << 20) / 8);
    const noise = sampleInputs().find((s) => s.name === 'random 1 MiB')!.data;
    expect(lzssCompress(noise).length).toBeLessThanOrEqual(noise.length + noise.length / 8 + 4);
  });

  it('reads from the middle of a buffer', () => {
    const data = new TextEncoder().encode('Geometry Geometry Geometry Memory Memory');
    const c = lzssCompress(data);
    const buf = new Uint8Array(c.length + 9);
    buf.set(c, 5);
    const r = lzssDecompress(buf, 5, data.length);
    expect(new TextDecoder().decode(r.data)).toBe('Geometry Geometry Geometry Memory Memory');
    expect(r.consumed).toBe(c.length);
  });
});

describe('LZSS corrupt input', () => {
  const data = sampleInputs().find((s) => s.name === 'structured 64 KiB')!.data;
  const good = lzssCompress(data);

  it('rejects every truncation with a DecodeError', () => {
    for (let cut = 0; cut < good.length; cut += Math.max(1, Math.floor(good.length / 300))) {
      const e = expectDecodeError(() => lzssDecompress(good.subarray(0, cut), 0, data.length));
      expect(e.offset).toBeLessThanOrEqual(cut);
    }
  });

  it('turns bit flips into DecodeErrors (the checksum catches changed data)', () => {
    let seed = 777;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let k = 0; k < 300; k++) {
      const bad = good.slice();
      bad[next() % (bad.length - 4)]! ^= 1 << (next() % 8);
      try {
        const r = lzssDecompress(bad, 0, data.length);
        // A flip can only pass if the data still sums the same; then it must be full size.
        expect(r.data.length).toBe(data.length);
      } catch (e) {
        expect(isDecodeError(e)).toBe(true);
      }
    }
  });

  it('refuses a tiny stream claiming a huge output before allocating it', () => {
    const e = expectDecodeError(() => lzssDecompress(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0), 0, 2 ** 31));
    expect(e.detail).toMatch(/needs at least/);
  });

  it('rejects invalid sizes and offsets', () => {
    expectDecodeError(() => lzssDecompress(good, 0, -1));
    expectDecodeError(() => lzssDecompress(good, good.length + 1, 10));
  });
});

describe.skipIf(!hasCorpus)('LZSS arrays in real ODOL v40 files', () => {
  it('decodes the vertex array of a v40 model; its checksum is the unsigned sum', () => {
    const file = corpusFiles('p3d_odol').find((f) => f.includes('clutter_stone_small'));
    expect(file).toBeDefined();
    const bytes = readBytes(file!);
    expect(bytes[4]).toBe(40);
    const found = scanCompressedArrays(bytes, 'lzss');
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) {
      const start = s.at + 4;
      const size = s.count * s.elementSize;
      // The real file sums unsigned bytes although it is an Arma (v40) file.
      expect(lzssDecompress(bytes, start, size, { signedChecksum: false }).data.length).toBe(size);
      expectDecodeError(() => lzssDecompress(bytes, start, size, { signedChecksum: true }));
      const again = lzssCompress(s.data);
      expect(Buffer.from(lzssDecompress(again, 0, size).data).equals(Buffer.from(s.data))).toBe(true);
    }
    // The 156 vertex positions: finite floats of a small clutter model (within a few metres).
    const positions = found.find((s) => s.elementSize === 12)!;
    const xyz = new Float32Array(positions.data.buffer, positions.data.byteOffset, positions.count * 3);
    expect(xyz.every((v) => Number.isFinite(v) && Math.abs(v) < 10)).toBe(true);
  });
});

describe('LZSS checksums', () => {
  it('both sums agree with a byte-by-byte sum of unsigned and of signed bytes', () => {
    let seed = 7;
    const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (const n of [0, 1, 255, 4096, 100_003]) {
      const data = Uint8Array.from({ length: n }, rnd);
      let u = 0;
      let s = 0;
      for (const b of data) {
        u += b;
        s += b >= 128 ? b - 256 : b;
      }
      expect(lzssChecksums(data)).toEqual({ unsigned: u >>> 0, signed: s >>> 0 });
    }
    // Every alignment of the buffer and every length near the word steps and the lanes' flushes
    // (128 words); runs of 0xff load the lanes most.
    const pool = Uint8Array.from({ length: 1200 }, (_, i) => (i % 3 ? 0xff : rnd()));
    for (let off = 0; off < 8; off++) {
      for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 511, 512, 513, 515, 1024, 1031]) {
        const data = pool.subarray(off, off + n);
        let u = 0;
        let s = 0;
        for (const b of data) {
          u += b;
          s += b >= 128 ? b - 256 : b;
        }
        expect(lzssChecksums(data), `offset ${off}, ${n} bytes`).toEqual({ unsigned: u >>> 0, signed: s >>> 0 });
      }
    }
    // Past 2^32 in both directions: 17 M bytes of 0xff.
    const big = new Uint8Array(17_000_000).fill(0xff);
    expect(lzssChecksums(big)).toEqual({ unsigned: (17_000_000 * 255) % 2 ** 32, signed: (2 ** 32 - 17_000_000) >>> 0 });
  });
});
