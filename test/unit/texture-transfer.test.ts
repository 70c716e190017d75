/** The block-texture container main sends the viewport (DXT levels as stored, chain completed to 1x1). */
import { describe, expect, it } from 'vitest';
import { createPaa, decodePaa, encodePaa, mipPixels } from '../../shared/formats/texture/paa.ts';
import { isBlockTexture, packBlockTexture, unpackBlockTexture } from '../../shared/formats/texture/transfer.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';
import { TexturePictureCache } from '../../main/documents/texture-cache.ts';

describe('block texture transfer', () => {
  it('a PAA\'s DXT levels cross as stored and the chain is completed down to 1x1', () => {
    const data = new Uint8Array(32 * 16 * 4).map((_, i) => (i * 7) & 255);
    const doc = decodePaa(encodePaa(createPaa({ width: 32, height: 16, data }, { format: 'dxt5' })));
    const levels = doc.mips.map((_, i) => mipPixels(doc, i));
    expect(doc.mips.map((m) => `${m.width}x${m.height}`)).toEqual(['32x16', '16x8', '8x4']);
    const packed = packBlockTexture({ format: 'bc3', width: 32, height: 16, levels });
    expect(isBlockTexture(packed)).toBe(true);
    const back = unpackBlockTexture(packed);
    expect(back).toMatchObject({ format: 'bc3', width: 32, height: 16 });
    expect(back.levels.length).toBe(6); // 32x16 .. 1x1
    back.levels.slice(0, 3).forEach((l, i) => expect(l).toEqual(levels[i]));
    expect(back.levels[5]).toEqual(levels[2]!.subarray(0, 16));
  });

  it('a level of the wrong size is refused', () => {
    const packed = packBlockTexture({ format: 'bc1', width: 4, height: 4, levels: [new Uint8Array(8)] });
    packed[16] = 9;
    expect(expectDecodeError(() => unpackBlockTexture(packed)).message).toMatch(/level 0 \(4x4\) has 9 bytes/);
  });

  it('the alpha a PAA\'s FLAG tag states crosses with the blocks (1 blended, 2 cut-out, none: not said)', () => {
    const data = new Uint8Array(8 * 8 * 4).map((_, i) => (i % 4 === 3 ? (i * 5) & 255 : 90));
    const cache = new TexturePictureCache();
    const doc = createPaa({ width: 8, height: 8, data });
    expect(doc.tags.find((t) => t.name === 'FLAG')?.data[0]).toBe(1);
    const blended = unpackBlockTexture(cache.browserImage(encodePaa(doc), 'x_ca.paa')!);
    expect(blended.alpha).toBe('blend');
    doc.tags.find((t) => t.name === 'FLAG')!.data[0] = 2;
    expect(unpackBlockTexture(cache.browserImage(encodePaa(doc), 'x_ca.paa')!).alpha).toBe('test');
    doc.tags = doc.tags.filter((t) => t.name !== 'FLAG');
    expect(unpackBlockTexture(cache.browserImage(encodePaa(doc), 'x_ca.paa')!).alpha).toBeUndefined();
  });
});
