/**
 * Thumbnails of DXT textures: main sends DXT PAAs as block data with their mips (for the GPU);
 * the thumbnail decodes one small level of it, so a texture the viewport draws has a picture in
 * the Materials tab instead of "in a format the preview cannot show".
 */
import { describe, expect, it } from 'vitest';
import { encodeBlocks } from '../../shared/formats/texture/dxt.ts';
import { isBlockTexture, packBlockTexture, unpackBlockTexture, type BlockTexture } from '../../shared/formats/texture/transfer.ts';
import { blockLevelRgba, thumbLevel } from '../../renderer/lib/texture-thumb.ts';

/** A BC1 texture of `side` px with its mips: red on the left half, green on the right. */
function redGreen(side: number): BlockTexture {
  const levels: Uint8Array[] = [];
  for (let s = side; s >= 1; s >>= 1) {
    const w = Math.max(4, s);
    const rgba = new Uint8Array(w * w * 4);
    for (let i = 0; i < w * w; i++) rgba.set(i % w < w / 2 ? [255, 0, 0, 255] : [0, 255, 0, 255], i * 4);
    levels.push(encodeBlocks('bc1', rgba, w, w));
  }
  return { format: 'bc1', width: side, height: side, levels };
}

describe('texture thumbnails of DXT block data', () => {
  it('picks the smallest level still as big as the thumbnail wants', () => {
    const t = redGreen(512);
    expect(thumbLevel(t, 64)).toBe(3); // 512, 256, 128, 64
    expect(thumbLevel(redGreen(32), 64)).toBe(0);
  });

  it('decodes that level of what main sends to the picture it holds', () => {
    const sent = packBlockTexture(redGreen(256));
    expect(isBlockTexture(sent)).toBe(true);
    const t = unpackBlockTexture(sent);
    const level = thumbLevel(t);
    const { width, height, data } = blockLevelRgba(t, level);
    expect([width, height]).toEqual([64, 64]);
    const at = (x: number, y: number) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];
    expect(at(2, 10)).toEqual([255, 0, 0, 255]);
    expect(at(60, 50)).toEqual([0, 255, 0, 255]);
  });
});
