/**
 * Windows BMP, as LODka 3D embeds it in TXTR chunks: BITMAPINFOHEADER and its V4/V5 extensions,
 * 1/4/8-bit palettes, 16-bit 555 and BITFIELDS, 24-bit, 32-bit (alpha taken only from a
 * BITFIELDS/V4+ alpha mask; plain 32-bit BI_RGB is opaque, as Windows shows it), bottom-up or
 * top-down. RLE4/RLE8 and embedded JPEG/PNG BMPs are refused with a clear error.
 */
import { DecodeError } from '../../errors.ts';
import { allocRgba, checkSize, type RgbaImage } from './image.ts';

export function probeBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  // "BM" alone also starts Arma's binarized animations (BMTR): the info header size must be one
  // a BMP has (BITMAPCOREHEADER 12, OS/2 16/64, BITMAPINFOHEADER 40 and its successors).
  const hs = (bytes[14]! | (bytes[15]! << 8) | (bytes[16]! << 16) | (bytes[17]! << 24)) >>> 0;
  return [12, 16, 40, 52, 56, 64, 108, 124].includes(hs);
}

export function decodeBmp(bytes: Uint8Array): RgbaImage {
  if (!probeBmp(bytes)) throw new DecodeError('not a BMP file (no "BM" signature)', 0, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (p: number, n: number, what: string): void => {
    if (p + n > bytes.length) throw new DecodeError(`${what} runs past the end of the file`, p, what);
  };
  const dataOffset = dv.getUint32(10, true);
  need(14, 4, 'info header');
  const hs = dv.getUint32(14, true);
  if (hs < 40) throw new DecodeError(`BMP info header of ${hs} bytes (OS/2 bitmaps) is not supported`, 14, 'header');
  need(14, Math.min(hs, 56), 'info header');
  const width = dv.getInt32(18, true);
  const rawH = dv.getInt32(22, true);
  const topDown = rawH < 0;
  const height = Math.abs(rawH);
  checkSize(width, height, 18, 'header');
  const bpp = dv.getUint16(28, true);
  const compression = dv.getUint32(30, true);
  if (compression !== 0 && compression !== 3 && compression !== 6) throw new DecodeError(`BMP compression ${compression} (RLE or embedded JPEG/PNG) is not supported`, 30, 'header/compression');
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new DecodeError(`BMP with ${bpp} bits per pixel is not supported`, 28, 'header/bitCount');
  let rMask = 0x7c00, gMask = 0x3e0, bMask = 0x1f, aMask = 0;
  if (bpp === 32) { rMask = 0xff0000; gMask = 0xff00; bMask = 0xff; }
  if (compression === 3 || compression === 6) {
    // Masks follow a 40-byte header, or sit inside a V2+ header.
    need(54, compression === 6 ? 16 : 12, 'bit masks');
    rMask = dv.getUint32(54, true); gMask = dv.getUint32(58, true); bMask = dv.getUint32(62, true);
    if (compression === 6 || hs >= 56) aMask = dv.getUint32(66, true);
  } else if (hs >= 56 && bpp === 32) {
    aMask = dv.getUint32(66, true);
  }
  let palette: Uint8Array | null = null;
  if (bpp <= 8) {
    const used = dv.getUint32(46, true) || 1 << bpp;
    const at = 14 + hs;
    const n = Math.min(used, 256);
    need(at, n * 4, 'palette');
    palette = bytes.subarray(at, at + n * 4);
  }
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  need(dataOffset, stride * height, 'pixels');
  const img = allocRgba(width, height, `BMP ${width}x${height} picture`, 18, 'header');
  const out = img.data;
  const chan = (mask: number): [number, number] => {
    if (!mask) return [0, 0];
    let s = 0;
    while (((mask >>> s) & 1) === 0) s++;
    return [s, mask >>> s];
  };
  const [rs, rm] = chan(rMask), [gs, gm] = chan(gMask), [bs, bm] = chan(bMask), [as, am] = chan(aMask);
  for (let y = 0; y < height; y++) {
    const srcRow = dataOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (palette) {
        const bit = x * bpp;
        const byte = bytes[srcRow + (bit >> 3)]!;
        const idx = bpp === 8 ? byte : (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        if (idx * 4 + 3 < palette.length) {
          out[o] = palette[idx * 4 + 2]!; out[o + 1] = palette[idx * 4 + 1]!; out[o + 2] = palette[idx * 4]!;
        }
        out[o + 3] = 255;
      } else if (bpp === 24) {
        const p = srcRow + x * 3;
        out[o] = bytes[p + 2]!; out[o + 1] = bytes[p + 1]!; out[o + 2] = bytes[p]!; out[o + 3] = 255;
      } else {
        const p = srcRow + x * (bpp / 8);
        const v = bpp === 16 ? bytes[p]! | (bytes[p + 1]! << 8) : dv.getUint32(p, true);
        out[o] = rm ? Math.round((((v >>> rs) & rm) * 255) / rm) : 0;
        out[o + 1] = gm ? Math.round((((v >>> gs) & gm) * 255) / gm) : 0;
        out[o + 2] = bm ? Math.round((((v >>> bs) & bm) * 255) / bm) : 0;
        out[o + 3] = am ? Math.round((((v >>> as) & am) * 255) / am) : 255;
      }
    }
  }
  return img;
}
