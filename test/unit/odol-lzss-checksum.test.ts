/**
 * Arma ODOL v40..v43 arrays are LZSS with a 4-byte checksum. The compression document says Arma
 * sums signed bytes; the real v40 files sum unsigned bytes. An edited array must be recompressed
 * with the checksum the real files carry, or the game may reject it.
 */
import { describe, expect, it } from 'vitest';
import { deflate, inflate } from '../../shared/formats/p3d/odol/compression.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { scanCompressedArrays } from './lzss-lzo-samples.ts';

describe('ODOL LZSS checksum when recompressing', () => {
  it('writes the unsigned sum for Arma LZSS arrays (bytes >= 0x80 make the two sums differ)', () => {
    const data = Uint8Array.from({ length: 2000 }, (_, i) => (i * 37 + 200) & 0xff);
    const stream = deflate('lzss-arma', data);
    let unsigned = 0;
    for (const b of data) unsigned = (unsigned + b) >>> 0;
    const stored = new DataView(stream.buffer, stream.byteOffset).getUint32(stream.length - 4, true);
    expect(stored).toBe(unsigned);
    expect(Array.from(inflate('lzss-arma', stream, 0, data.length).data)).toEqual(Array.from(data));
  });

  it.skipIf(!hasCorpus)('reproduces the checksum stored in every LZSS array of the real v40 files', () => {
    let checked = 0;
    for (const file of corpusFiles('p3d_odol')) {
      const bytes = readBytes(file);
      if (bytes[4] !== 40) continue;
      for (const s of scanCompressedArrays(bytes, 'lzss')) {
        const size = s.count * s.elementSize;
        const start = s.at + 4;
        const consumed = inflate('lzss-arma', bytes, start, size).consumed;
        const realSum = bytes.subarray(start + consumed - 4, start + consumed);
        const ours = deflate('lzss-arma', s.data);
        expect(Array.from(ours.subarray(ours.length - 4))).toEqual(Array.from(realSum));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
