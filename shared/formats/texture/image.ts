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
 *
 * `sums`, when given (7 numbers) and both sides are even (so every texel is in exactly one 2x2
 * quad), receives what AVGC needs of the source, in the same pass: the alpha-weighted linear sums
 * of R, G, B, their plain sums, and the sum of alpha (see {@link averageFromSums}). Otherwise
 * `sums[6]` is set to -1.
 */
export function downsample(src: RgbaImage, sums?: Float64Array): RgbaImage {
  const w = Math.max(1, src.width >> 1);
  const h = Math.max(1, src.height >> 1);
  const out = new Uint8Array(w * h * 4);
  // Whole texels as one 32-bit load / store each (R the low byte: little-endian, as everywhere the
  // codecs run); a picture that is not 4-byte aligned is copied first.
  const s = src.data.byteOffset % 4 !== 0 ? src.data.slice() : src.data;
  const s32 = new Int32Array(s.buffer, s.byteOffset, src.width * src.height);
  const o32 = new Int32Array(out.buffer, 0, w * h);
  const sw = src.width;
  const lin = SRGB_TO_LINEAR;
  const lin16 = LINEAR_16;
  const tab = LINEAR_TO_SRGB_TABLE;
  const tab4 = quadTable();
  let wr = 0, wg = 0, wb = 0, pr = 0, pg = 0, pb = 0, pa = 0;
  for (let y = 0; y < h; y++) {
    const r0 = Math.min(src.height - 1, y * 2) * sw;
    const r1 = Math.min(src.height - 1, y * 2 + 1) * sw;
    let o = y * w * 4;
    // Equal-alpha quads' linear sums (units of 1/16384; weighted by alpha, and plain), per row.
    let ir = 0, ig = 0, ib = 0, jr = 0, jg = 0, jb = 0;
    for (let x = 0; x < w; x++, o += 4) {
      const x0 = x * 2 < sw ? x * 2 : sw - 1;
      const x1 = x * 2 + 1 < sw ? x * 2 + 1 : sw - 1;
      const t0 = s32[r0 + x0]!, t1 = s32[r0 + x1]!, t2 = s32[r1 + x0]!, t3 = s32[r1 + x1]!;
      if (((t0 ^ t1) | (t0 ^ t2) | (t0 ^ t3)) >>> 24 === 0) {
        // Equal weights (opaque or equally transparent texels, most quads): the mean of the four
        // linear values, in integers of 16384 steps a unit.
        const a0 = t0 >>> 24;
        const qr = lin16[t0 & 255]! + lin16[t1 & 255]! + lin16[t2 & 255]! + lin16[t3 & 255]!;
        const qg = lin16[(t0 >> 8) & 255]! + lin16[(t1 >> 8) & 255]! + lin16[(t2 >> 8) & 255]! + lin16[(t3 >> 8) & 255]!;
        const qb = lin16[(t0 >> 16) & 255]! + lin16[(t1 >> 16) & 255]! + lin16[(t2 >> 16) & 255]! + lin16[(t3 >> 16) & 255]!;
        o32[o >> 2] = tab4[qr]! | (tab4[qg]! << 8) | (tab4[qb]! << 16) | (t0 & 0xff000000);
        ir += qr * a0; ig += qg * a0; ib += qb * a0;
        jr += qr; jg += qg; jb += qb;
        pa += a0 * 4;
        continue;
      }
      const p0 = (r0 + x0) * 4, p1 = (r0 + x1) * 4, p2 = (r1 + x0) * 4, p3 = (r1 + x1) * 4;
      const a0 = t0 >>> 24, a1 = t1 >>> 24, a2 = t2 >>> 24, a3 = t3 >>> 24;
      // Weight alpha + 1 keeps the colour defined for fully transparent quads.
      const w0 = a0 + 1, w1 = a1 + 1, w2 = a2 + 1, w3 = a3 + 1;
      const inv = 1 / (w0 + w1 + w2 + w3);
      const l0 = lin[s[p0]!]!, l1 = lin[s[p1]!]!, l2 = lin[s[p2]!]!, l3 = lin[s[p3]!]!;
      const m0 = lin[s[p0 + 1]!]!, m1 = lin[s[p1 + 1]!]!, m2 = lin[s[p2 + 1]!]!, m3 = lin[s[p3 + 1]!]!;
      const n0 = lin[s[p0 + 2]!]!, n1 = lin[s[p1 + 2]!]!, n2 = lin[s[p2 + 2]!]!, n3 = lin[s[p3 + 2]!]!;
      const vr = (l0 * w0 + l1 * w1 + l2 * w2 + l3 * w3) * inv;
      const vg = (m0 * w0 + m1 * w1 + m2 * w2 + m3 * w3) * inv;
      const vb = (n0 * w0 + n1 * w1 + n2 * w2 + n3 * w3) * inv;
      out[o] = tab[vr <= 0 ? 0 : vr >= 1 ? LIN_STEPS : Math.round(vr * LIN_STEPS)]!;
      out[o + 1] = tab[vg <= 0 ? 0 : vg >= 1 ? LIN_STEPS : Math.round(vg * LIN_STEPS)]!;
      out[o + 2] = tab[vb <= 0 ? 0 : vb >= 1 ? LIN_STEPS : Math.round(vb * LIN_STEPS)]!;
      out[o + 3] = (a0 + a1 + a2 + a3 + 2) >> 2;
      if (sums) {
        wr += l0 * a0 + l1 * a1 + l2 * a2 + l3 * a3; wg += m0 * a0 + m1 * a1 + m2 * a2 + m3 * a3; wb += n0 * a0 + n1 * a1 + n2 * a2 + n3 * a3;
        pr += l0 + l1 + l2 + l3; pg += m0 + m1 + m2 + m3; pb += n0 + n1 + n2 + n3;
        pa += a0 + a1 + a2 + a3;
      }
    }
    const k = 1 / 16384;
    wr += ir * k; wg += ig * k; wb += ib * k;
    pr += jr * k; pg += jg * k; pb += jb * k;
  }
  if (sums) {
    sums[0] = wr; sums[1] = wg; sums[2] = wb; sums[3] = pr; sums[4] = pg; sums[5] = pb;
    sums[6] = src.width % 2 === 0 && src.height % 2 === 0 ? pa : -1;
  }
  return { width: w, height: h, data: out };
}

/** sRGB byte -> linear in 16384 steps (integer sums of four fit easily). */
const LINEAR_16: Uint16Array = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = Math.round((c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)) * 16384);
  }
  return t;
})();

let QUAD_TABLE: Uint8Array | undefined;
/** The sum of four LINEAR_16 values (0..65536) -> the sRGB byte of their mean, made on first use. */
function quadTable(): Uint8Array {
  if (QUAD_TABLE) return QUAD_TABLE;
  const t = new Uint8Array(65537);
  // The mean is sum / 65536 in linear light: the 4096-step table at sum / 16.
  for (let q = 0; q <= 65536; q++) t[q] = LINEAR_TO_SRGB_TABLE[(q + 8) >> 4]!;
  return (QUAD_TABLE = t);
}

/**
 * AVGC from the sums {@link downsample} gathered (see colour.ts averageColour, which it matches
 * to within rounding), or undefined when it gathered none.
 */
export function averageFromSums(sums: Float64Array, texels: number): { r: number; g: number; b: number; a: number } | undefined {
  const a = sums[6]!;
  if (a < 0) return undefined;
  if (a === 0) return { r: linearToSrgb(sums[3]! / texels), g: linearToSrgb(sums[4]! / texels), b: linearToSrgb(sums[5]! / texels), a: 0 };
  return { r: linearToSrgb(sums[0]! / a), g: linearToSrgb(sums[1]! / a), b: linearToSrgb(sums[2]! / a), a: Math.round(a / texels) };
}

/** Linear 0..1 -> sRGB byte through a 4096-step table (within 1 of the exact conversion). */
const LIN_STEPS = 4096;
const LINEAR_TO_SRGB_TABLE: Uint8Array = (() => {
  const t = new Uint8Array(LIN_STEPS + 1);
  for (let i = 0; i <= LIN_STEPS; i++) t[i] = linearToSrgb(i / LIN_STEPS);
  return t;
})();

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
