/**
 * Texture thumbnails (the Materials tabs) from what main sends for a texture: a picture the
 * browser reads (PNG, JPEG, BMP, or a PAA/DDS/TGA main re-encoded as PNG), or DXT block data with
 * its mips (transfer.ts), which the viewport hands to the GPU and the browser cannot show as an
 * image. A thumbnail decodes one small level of those blocks itself, so every texture the viewport
 * draws has a thumbnail too (a "?" said "in a format the preview cannot show" for DXT PAAs).
 */
import { decodeBlocks } from '../../shared/formats/texture/dxt.ts';
import { isBlockTexture, unpackBlockTexture, type BlockTexture } from '../../shared/formats/texture/transfer.ts';

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The level a thumbnail of at most ~`want` pixels is made from: the smallest one still that big. */
export function thumbLevel(t: BlockTexture, want = 64): number {
  let best = 0;
  for (let i = 0; i < t.levels.length; i++) {
    if (Math.max(t.width >> i, t.height >> i) < want) break;
    best = i;
  }
  return best;
}

/** One level of block data as RGBA (what the GPU would draw). */
export function blockLevelRgba(t: BlockTexture, level: number): Rgba {
  const width = Math.max(1, t.width >> level);
  const height = Math.max(1, t.height >> level);
  const data = new Uint8Array(width * height * 4);
  decodeBlocks(t.format, t.levels[level]!, 0, width, height, data);
  return { width, height, data };
}

export interface ThumbImage {
  /** A blob: address of the picture; the caller revokes it. */
  url: string;
  /** The texture's own size (not the level shown). */
  width: number;
  height: number;
}

/** A thumbnail of a texture as main sent it, or null when the bytes are no picture at all. */
export async function thumbImage(bytes: Uint8Array): Promise<ThumbImage | null> {
  if (isBlockTexture(bytes)) {
    let t: BlockTexture;
    let rgba: Rgba;
    try {
      t = unpackBlockTexture(bytes);
      rgba = blockLevelRgba(t, thumbLevel(t));
    } catch {
      return null;
    }
    const c = document.createElement('canvas');
    c.width = rgba.width;
    c.height = rgba.height;
    c.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba.data.buffer as ArrayBuffer, rgba.data.byteOffset, rgba.data.length), rgba.width, rgba.height), 0, 0);
    const blob = await new Promise<Blob | null>((r) => c.toBlob(r, 'image/png'));
    return blob ? { url: URL.createObjectURL(blob), width: t.width, height: t.height } : null;
  }
  try {
    const img = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    const out = { url: URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>])), width: img.width, height: img.height };
    img.close();
    return out;
  } catch {
    return null;
  }
}
