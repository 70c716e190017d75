/**
 * Truevision TGA (.tga): image types 1/2/3 (colour-mapped, true-colour, grey) and their RLE forms
 * 9/10/11; 8, 15/16, 24 and 32 bits per pixel; either origin (descriptor bit 5 = top row first,
 * bit 4 = right to left). 32-bit pixels keep their alpha; a 16-bit pixel's top bit is alpha only
 * when the descriptor declares one alpha bit. The image ID, colour map and footer are kept as
 * bytes (TGA is read-only here: a re-save writes the file back unchanged).
 *
 * An RLE packet that would run past the image is an error, never a write past the buffer.
 */
import { DecodeError } from '../../errors.ts';
import { allocRgba, checkSize, type RgbaImage } from './image.ts';

export interface TgaDocument {
  kind: 'tga';
  imageType: number;
  width: number;
  height: number;
  bitsPerPixel: number;
  rle: boolean;
  /** Top row first in the file (descriptor bit 5). */
  topDown: boolean;
  rightToLeft: boolean;
  alphaBits: number;
  colourMap: { first: number; length: number; entryBits: number; offset: number } | null;
  /** First pixel byte. */
  dataOffset: number;
  bytes: Uint8Array;
}

const TYPES = new Set([1, 2, 3, 9, 10, 11]);

/** TGA has no magic; the header must make sense. */
export function probeTga(bytes: Uint8Array): boolean {
  if (bytes.length < 18) return false;
  const cmType = bytes[1]!;
  const type = bytes[2]!;
  const bpp = bytes[16]!;
  const w = bytes[12]! | (bytes[13]! << 8);
  const h = bytes[14]! | (bytes[15]! << 8);
  if (!TYPES.has(type) || cmType > 1 || w === 0 || h === 0) return false;
  if ((type & 7) === 1) return cmType === 1 && (bpp === 8 || bpp === 16);
  return [8, 15, 16, 24, 32].includes(bpp);
}

export function decodeTga(bytes: Uint8Array): TgaDocument {
  if (bytes.length < 18) throw new DecodeError(`a TGA header is 18 bytes; the file has ${bytes.length}`, 0, 'header');
  const u16 = (p: number): number => bytes[p]! | (bytes[p + 1]! << 8);
  const idLength = bytes[0]!;
  const cmType = bytes[1]!;
  const imageType = bytes[2]!;
  if (!TYPES.has(imageType)) throw new DecodeError(`TGA image type ${imageType} is not 1, 2, 3, 9, 10 or 11`, 2, 'header/imageType');
  if (cmType > 1) throw new DecodeError(`TGA colour map type ${cmType} is not 0 or 1`, 1, 'header/colourMapType');
  const width = u16(12);
  const height = u16(14);
  checkSize(width, height, 12, 'header');
  const bpp = bytes[16]!;
  const desc = bytes[17]!;
  const colourMapped = (imageType & 7) === 1;
  if (colourMapped ? bpp !== 8 && bpp !== 16 : ![8, 15, 16, 24, 32].includes(bpp)) {
    throw new DecodeError(`TGA type ${imageType} with ${bpp} bits per pixel is not supported`, 16, 'header/pixelDepth');
  }
  let p = 18 + idLength;
  let colourMap: TgaDocument['colourMap'] = null;
  if (cmType === 1) {
    const first = u16(3);
    const length = u16(5);
    const entryBits = bytes[7]!;
    if (![15, 16, 24, 32].includes(entryBits)) throw new DecodeError(`TGA colour map entries of ${entryBits} bits are not supported`, 7, 'header/colourMapEntrySize');
    const size = length * Math.ceil(entryBits / 8);
    if (p + size > bytes.length) throw new DecodeError('TGA colour map runs past the end of the file', p, 'colourMap');
    colourMap = { first, length, entryBits, offset: p };
    p += size;
  } else if (colourMapped) {
    throw new DecodeError('colour-mapped TGA without a colour map', 1, 'header/colourMapType');
  }
  if (p > bytes.length) throw new DecodeError('TGA image ID runs past the end of the file', 18, 'imageId');
  return {
    kind: 'tga', imageType, width, height, bitsPerPixel: bpp, rle: imageType >= 9, topDown: (desc & 0x20) !== 0,
    rightToLeft: (desc & 0x10) !== 0, alphaBits: desc & 15, colourMap, dataOffset: p, bytes,
  };
}

/** Reads one colour (`bits` wide, little-endian BGR(A)) at `p` into out[o..o+3]. */
function readColour(src: Uint8Array, p: number, bits: number, alphaBits: number, grey: boolean, out: Uint8Array, o: number): void {
  if (grey) {
    out[o] = out[o + 1] = out[o + 2] = src[p]!;
    out[o + 3] = bits === 16 ? src[p + 1]! : 255;
    return;
  }
  switch (bits) {
    case 15:
    case 16: {
      const v = src[p]! | (src[p + 1]! << 8);
      const r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
      out[o] = (r << 3) | (r >> 2);
      out[o + 1] = (g << 3) | (g >> 2);
      out[o + 2] = (b << 3) | (b >> 2);
      out[o + 3] = bits === 16 && alphaBits === 1 ? (v & 0x8000 ? 255 : 0) : 255;
      return;
    }
    case 24:
      out[o] = src[p + 2]!; out[o + 1] = src[p + 1]!; out[o + 2] = src[p]!; out[o + 3] = 255;
      return;
    default:
      out[o] = src[p + 2]!; out[o + 1] = src[p + 1]!; out[o + 2] = src[p]!; out[o + 3] = src[p + 3]!;
  }
}

export function decodeTgaImage(doc: TgaDocument): RgbaImage {
  const { width, height, bitsPerPixel: bpp, bytes: src } = doc;
  const img = allocRgba(width, height, `TGA ${width}x${height} picture`, 12, 'header');
  const out = img.data;
  const n = width * height;
  const pixelBytes = Math.ceil(bpp / 8);
  const grey = (doc.imageType & 7) === 3;
  const cm = doc.colourMap;
  const cmBytes = cm ? Math.ceil(cm.entryBits / 8) : 0;
  const put = (p: number, i: number): void => {
    if (cm && (doc.imageType & 7) === 1) {
      const idx = (bpp === 8 ? src[p]! : src[p]! | (src[p + 1]! << 8)) - cm.first;
      if (idx < 0 || idx >= cm.length) throw new DecodeError(`colour index ${idx + cm.first} is outside the colour map`, p, `pixels[${i}]`);
      readColour(src, cm.offset + idx * cmBytes, cm.entryBits, doc.alphaBits, false, out, i * 4);
    } else {
      readColour(src, p, bpp, doc.alphaBits, grey, out, i * 4);
    }
  };
  let p = doc.dataOffset;
  if (!doc.rle) {
    if (p + n * pixelBytes > src.length) throw new DecodeError(`TGA pixels need ${n * pixelBytes} bytes but the file ends ${src.length - p} bytes later`, p, 'pixels');
    for (let i = 0; i < n; i++, p += pixelBytes) put(p, i);
  } else {
    let i = 0;
    while (i < n) {
      if (p >= src.length) throw new DecodeError(`RLE data ends after ${i} of ${n} pixels`, p, 'pixels');
      const head = src[p]!;
      const count = (head & 0x7f) + 1;
      if (i + count > n) throw new DecodeError(`RLE packet of ${count} pixels runs past the end of the ${width}x${height} image`, p, `pixels[${i}]`);
      p++;
      if (head & 0x80) {
        if (p + pixelBytes > src.length) throw new DecodeError('RLE run has no pixel value', p, `pixels[${i}]`);
        put(p, i);
        const first = out.subarray(i * 4, i * 4 + 4);
        for (let k = 1; k < count; k++) out.set(first, (i + k) * 4);
        p += pixelBytes;
      } else {
        if (p + count * pixelBytes > src.length) throw new DecodeError(`RLE raw packet of ${count} pixels runs past the end of the file`, p, `pixels[${i}]`);
        for (let k = 0; k < count; k++, p += pixelBytes) put(p, i + k);
      }
      i += count;
    }
  }
  // To top-down, left-to-right.
  if (!doc.topDown) {
    const row = width * 4;
    const tmp = new Uint8Array(row);
    for (let a = 0, b = height - 1; a < b; a++, b--) {
      tmp.set(out.subarray(a * row, a * row + row));
      out.copyWithin(a * row, b * row, b * row + row);
      out.set(tmp, b * row);
    }
  }
  if (doc.rightToLeft) {
    const px = new Uint32Array(out.buffer, out.byteOffset, n);
    for (let y = 0; y < height; y++) px.subarray(y * width, y * width + width).reverse();
  }
  return img;
}
