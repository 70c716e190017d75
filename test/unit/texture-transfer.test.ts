/** The block-texture container main sends the viewport (DXT levels as stored, chain completed to 1x1). */
import { describe, expect, it } from 'vitest';
import { createPaa, decodePaa, encodePaa, mipPixels } from '../../shared/formats/texture/paa.ts';
import { ALPHA_KEYWORD, isBlockTexture, packBlockTexture, pngAlphaNote, unpackBlockTexture } from '../../shared/formats/texture/transfer.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
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

  it('a PAA that crosses as PNG (not DXT) carries its FLAG word in a tEXt chunk the viewport reads', () => {
    const data = new Uint8Array(8 * 8 * 4).map((_, i) => (i % 4 === 3 ? (i * 5) & 255 : 90));
    const cache = new TexturePictureCache();
    const doc = createPaa({ width: 8, height: 8, data }, { format: 'argb8888' });
    const flag = doc.tags.find((t) => t.name === 'FLAG')!;
    const cases: Array<[number | null, 'blend' | 'test' | undefined]> = [[1, 'blend'], [2, 'test'], [null, undefined]];
    for (const [value, want] of cases) {
      doc.tags = doc.tags.filter((t) => t.name !== 'FLAG');
      if (value !== null) doc.tags.push({ ...flag, data: new Uint8Array([value, 0, 0, 0]) });
      const png = cache.browserImage(encodePaa(doc), 'x.paa')!;
      expect(isBlockTexture(png)).toBe(false);
      expect(pngAlphaNote(png)).toBe(want);
      // Still the picture itself.
      expect(decodePng(png).data).toEqual(data);
    }
  });

  it('the PNG alpha note is read only from its own keyword, and bad PNG bytes give nothing', () => {
    const img = { width: 2, height: 1, data: new Uint8Array([1, 2, 3, 100, 4, 5, 6, 255]) };
    expect(pngAlphaNote(encodePng(img, { text: { [ALPHA_KEYWORD]: 'test' } }))).toBe('test');
    expect(pngAlphaNote(encodePng(img, { text: { Comment: 'test' } }))).toBeUndefined();
    expect(pngAlphaNote(encodePng(img, { text: { [ALPHA_KEYWORD]: 'other' } }))).toBeUndefined();
    expect(pngAlphaNote(encodePng(img))).toBeUndefined();
    const cut = encodePng(img, { text: { [ALPHA_KEYWORD]: 'blend' } });
    expect(pngAlphaNote(cut.subarray(0, 40))).toBeUndefined();
    expect(pngAlphaNote(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x74, 0x45, 0x58, 0x74]))).toBeUndefined();
  });
});
