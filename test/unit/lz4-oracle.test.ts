/**
 * Our LZ4 block decoder against lz4js (a well-kept independent implementation) on blocks lz4js
 * writes: literal runs and matches of every length class, overlapping matches (distance shorter
 * than the length) and long copies, which take the decoder's native-copy paths.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lz4Decompress } from '../../shared/formats/unigine/lz4.ts';

const lz4js = createRequire(import.meta.url)('lz4js') as {
  compressBound(n: number): number;
  compressBlock(src: Uint8Array, dst: Uint8Array, s: number, n: number, hash: Uint32Array): number;
};

function lz4jsBlock(src: Uint8Array): Uint8Array {
  const dst = new Uint8Array(lz4js.compressBound(src.length));
  const n = lz4js.compressBlock(src, dst, 0, src.length, new Uint32Array(1 << 16));
  return dst.subarray(0, n);
}

function sample(seed: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let s = seed;
  let i = 0;
  while (i < size) {
    s = (s * 1103515245 + 12345) >>> 0;
    const kind = s % 4;
    const len = 1 + ((s >>> 8) % (kind === 3 ? 700 : 40));
    for (let k = 0; k < len && i < size; k++, i++) {
      if (kind === 0) out[i] = (s >>> 16) & 0xff; // a run: overlapping match at distance 1
      else if (kind === 1 && i >= 3) out[i] = out[i - 3]!; // short-period repeat
      else if (kind === 3 && i >= 4096) out[i] = out[i - 4096]!; // long copy from far back
      else out[i] = (Math.imul(i, 2654435761) >>> 13) & 0xff; // noise: literals
    }
  }
  return out;
}

describe('lz4Decompress matches lz4js blocks', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}`, () => {
      const raw = sample(seed, 200_000 + seed * 7919);
      const block = lz4jsBlock(raw);
      expect(block.length).toBeLessThan(raw.length);
      const back = lz4Decompress(block, raw.length);
      expect(typeof back).not.toBe('string');
      expect(Buffer.compare(Buffer.from(back as Uint8Array), Buffer.from(raw))).toBe(0);
      // A declared size one short or one long is an error, not a silent cut.
      expect(typeof lz4Decompress(block, raw.length - 1)).toBe('string');
      expect(typeof lz4Decompress(block, raw.length + 1)).toBe('string');
    });
  }
});
