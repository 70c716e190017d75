/**
 * The one in-memory picture every texture codec decodes to and encodes from: 8-bit RGBA, rows top
 * to bottom, no padding. Allocations go through the decoding memory budget first.
 */
import { chargeAllocation } from '../../binary/budget.ts';
import { DecodeError } from '../../errors.ts';

export interface RgbaImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, R G B A per pixel, the top row first. */
  data: Uint8Array;
}

/** Largest side any texture codec accepts (PAA and DDS store 15/16-bit sizes; 32768 is beyond any GPU). */
export const MAX_TEXTURE_SIDE = 32768;

/**
 * Checks a width and height read from a file and allocates an RGBA buffer for them, charging the
 * budget before allocating. `offset`/`path` name where the size was read.
 */
export function allocRgba(width: number, height: number, what: string, offset: number, path: string): RgbaImage {
  checkSize(width, height, offset, path);
  const bytes = width * height * 4;
  chargeAllocation(bytes, what, offset, path);
  return { width, height, data: new Uint8Array(bytes) };
}

/** Throws a DecodeError for a zero, negative, fractional or over-large size. */
export function checkSize(width: number, height: number, offset: number, path: string): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE) {
    throw new DecodeError(`image size ${width}x${height} is not between 1x1 and ${MAX_TEXTURE_SIDE}x${MAX_TEXTURE_SIDE}`, offset, path);
  }
}

/** True when every pixel's alpha is 255. */
export function isOpaque(img: RgbaImage): boolean {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return false;
  return true;
}

/** A copy with the rows in the opposite order (for bottom-up formats). */
export function flipRows(img: RgbaImage): void {
  const row = img.width * 4;
  const tmp = new Uint8Array(row);
  for (let top = 0, bottom = img.height - 1; top < bottom; top++, bottom--) {
    const a = top * row;
    const b = bottom * row;
    tmp.set(img.data.subarray(a, a + row));
    img.data.copyWithin(a, b, b + row);
    img.data.set(tmp, b);
  }
}

/**
 * Halves an image with a 2x2 box filter in linear light, alpha-weighted (so transparent texels do
 * not bleed their colour), as the mip chain of a new PAA needs. Odd sides round down (min 1).
 */
export function downsample(src: RgbaImage): RgbaImage {
  const w = Math.max(1, src.width >> 1);
  const h = Math.max(1, src.height >> 1);
  const out = new Uint8Array(w * h * 4);
  const s = src.data;
  const sw = src.width;
  for (let y = 0; y < h; y++) {
    const y0 = Math.min(src.height - 1, y * 2);
    const y1 = Math.min(src.height - 1, y * 2 + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.min(sw - 1, x * 2);
      const x1 = Math.min(sw - 1, x * 2 + 1);
      let r = 0, g = 0, b = 0, a = 0;
      for (const p of [(y0 * sw + x0) * 4, (y0 * sw + x1) * 4, (y1 * sw + x0) * 4, (y1 * sw + x1) * 4]) {
        const pa = s[p + 3]!;
        const wgt = pa + 1; // keep colour defined for fully transparent quads
        r += SRGB_TO_LINEAR[s[p]!]! * wgt;
        g += SRGB_TO_LINEAR[s[p + 1]!]! * wgt;
        b += SRGB_TO_LINEAR[s[p + 2]!]! * wgt;
        a += pa;
      }
      let wsum = 0;
      for (const p of [(y0 * sw + x0) * 4, (y0 * sw + x1) * 4, (y1 * sw + x0) * 4, (y1 * sw + x1) * 4]) wsum += s[p + 3]! + 1;
      const o = (y * w + x) * 4;
      out[o] = linearToSrgb(r / wsum);
      out[o + 1] = linearToSrgb(g / wsum);
      out[o + 2] = linearToSrgb(b / wsum);
      out[o + 3] = Math.round(a / 4);
    }
  }
  return { width: w, height: h, data: out };
}

/** sRGB byte -> linear 0..1. */
export const SRGB_TO_LINEAR: Float64Array = (() => {
  const t = new Float64Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }
  return t;
})();

/** Linear 0..1 -> sRGB byte. */
export function linearToSrgb(v: number): number {
  const c = v <= 0 ? 0 : v >= 1 ? 1 : v;
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
  return Math.round(s * 255);
}
