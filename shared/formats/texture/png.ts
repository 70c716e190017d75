/**
 * PNG in and out. The common pictures (8-bit grey, grey + alpha, RGB or RGBA, not interlaced, no
 * palette or tRNS) are read here: the IDAT stream is inflated once into a buffer of exactly the
 * size IHDR gives and unfiltered straight into the RGBA picture. Everything else goes through
 * fast-png, which also writes PNGs (both pure TypeScript, so they run in main, the renderer,
 * workers and the CLI alike). The size in IHDR is checked and charged to the decoding budget
 * before anything is inflated.
 *
 * The common path needs an inflater (`PngDecodeOptions.inflate`): main passes Node's zlib
 * (main/documents/png-inflate.ts), ~4x faster than the TypeScript inflater fast-png uses on a
 * 2048x2048 picture; shared code cannot import Node. Without one, every PNG goes through fast-png.
 */
import { decode as fastPngDecode, encode as fastPngEncode, convertIndexedToRgb } from 'fast-png';
import { chargeAllocation } from '../../binary/budget.ts';
import { DecodeError } from '../../errors.ts';
import { checkSize, type RgbaImage } from './image.ts';

const SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function probePng(bytes: Uint8Array): boolean {
  return bytes.length >= 24 && SIG.every((b, i) => bytes[i] === b);
}

/**
 * A zlib stream (RFC 1950) -> exactly `size` bytes. Returns fewer when the stream ends early (the
 * decoder then says so); must not return or allocate more than `size` bytes.
 */
export type PngInflate = (zlib: Uint8Array, size: number) => Uint8Array;

export interface PngDecodeOptions {
  /** A zlib inflater; without one the picture is decoded by fast-png. */
  inflate?: PngInflate;
}

export function decodePng(bytes: Uint8Array, opts: PngDecodeOptions = {}): RgbaImage {
  if (!probePng(bytes)) throw new DecodeError('not a PNG file (no PNG signature)', 0, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = dv.getUint32(16, false);
  const height = dv.getUint32(20, false);
  checkSize(width, height, 16, 'IHDR');
  // fast-png holds the inflated rows (up to 8 bytes a pixel at 16-bit RGBA) and we the RGBA copy.
  chargeAllocation(width * height * 12, `PNG ${width}x${height} picture`, 16, 'IHDR');
  const fast = opts.inflate ? decodeCommonPng(bytes, dv, width, height, opts.inflate) : undefined;
  if (fast) return fast;
  let png;
  try {
    png = fastPngDecode(bytes);
  } catch (e) {
    throw new DecodeError(`PNG data is corrupt: ${(e as Error).message}`, 33, 'IDAT');
  }
  const n = width * height;
  const out = new Uint8Array(n * 4);
  let data = png.data;
  let channels = png.channels;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length ?? 3;
  }
  if (png.depth === 8 && !png.palette && (channels === 4 || channels === 3)) {
    const src = data as Uint8Array;
    if (channels === 4) out.set(src.subarray(0, n * 4));
    else for (let i = 0, j = 0; i < n * 4; i += 4, j += 3) { out[i] = src[j]!; out[i + 1] = src[j + 1]!; out[i + 2] = src[j + 2]!; out[i + 3] = 255; }
    return { width, height, data: out };
  }
  const shift = png.depth === 16 && !png.palette ? 8 : 0;
  const scale = png.depth < 8 && !png.palette ? 255 / ((1 << png.depth) - 1) : 1;
  for (let i = 0; i < n; i++) {
    const s = i * channels;
    const o = i * 4;
    const v = (k: number): number => (shift ? data[s + k]! >> shift : Math.round(data[s + k]! * scale));
    if (channels <= 2) {
      out[o] = out[o + 1] = out[o + 2] = v(0);
      out[o + 3] = channels === 2 ? v(1) : 255;
    } else {
      out[o] = v(0); out[o + 1] = v(1); out[o + 2] = v(2);
      out[o + 3] = channels === 4 ? v(3) : 255;
    }
  }
  return { width, height, data: out };
}

/** Channels of the 8-bit colour types read by {@link decodeCommonPng}: grey, RGB, grey + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * The common PNG (8-bit, colour type 0/2/4/6, not interlaced, no palette or tRNS chunk), or
 * undefined for anything else or anything wrong (fast-png then decodes it, and words the error).
 */
function decodeCommonPng(bytes: Uint8Array, dv: DataView, width: number, height: number, inflate: PngInflate): RgbaImage | undefined {
  if (bytes.length < 33 || dv.getUint32(8, false) !== 13 || dv.getUint32(12, false) !== 0x49484452) return undefined;
  const depth = bytes[24]!, colourType = bytes[25]!;
  const channels = CHANNELS[colourType];
  if (depth !== 8 || channels === undefined || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28] !== 0) return undefined;
  // The IDAT chunks, in order (one stream split anywhere).
  const idat: Uint8Array[] = [];
  let total = 0;
  for (let p = 33; ; ) {
    if (p + 12 > bytes.length) return undefined;
    const len = dv.getUint32(p, false);
    const type = dv.getUint32(p + 4, false);
    if (len > bytes.length - p - 12) return undefined;
    if (type === 0x49444154) { idat.push(bytes.subarray(p + 8, p + 8 + len)); total += len; }
    else if (type === 0x49454e44) break; // IEND
    else if (type === 0x504c5445 || type === 0x74524e53) return undefined; // PLTE, tRNS
    p += 12 + len;
  }
  if (total === 0) return undefined;
  let zlib = idat[0]!;
  if (idat.length > 1) {
    zlib = new Uint8Array(total);
    let o = 0;
    for (const c of idat) { zlib.set(c, o); o += c.length; }
  }
  const stride = width * channels;
  const size = height * (stride + 1);
  let raw: Uint8Array;
  try {
    raw = inflate(zlib, size);
  } catch {
    return undefined;
  }
  if (raw.length < size) return undefined;
  const out = new Uint8Array(width * height * 4);
  // Whole texels as one store each (little-endian: R is the low byte).
  const out32 = LITTLE_ENDIAN ? new Uint32Array(out.buffer, 0, width * height) : undefined;
  // Rows are unfiltered in place (each filter reads the row above as unfiltered), then widened.
  for (let y = 0; y < height; y++) {
    const f = y * (stride + 1);
    const row = f + 1;
    const up = y === 0 ? -1 : row - stride - 1;
    if (!unfilter(raw, raw[f]!, row, up, stride, channels)) return undefined;
    if (out32 && channels === 3) {
      for (let x = 0, i = row, o = y * width; x < width; x++, i += 3, o++) out32[o] = raw[i]! | (raw[i + 1]! << 8) | (raw[i + 2]! << 16) | 0xff000000;
    } else expandRow(raw, row, out, y * width * 4, width, channels);
  }
  return { width, height, data: out };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Reverses one row's filter in place (`up` < 0: the first row, whose row above is zeros). */
function unfilter(d: Uint8Array, type: number, row: number, up: number, stride: number, bpp: number): boolean {
  const end = row + stride;
  switch (type) {
    case 0:
      return true;
    case 1:
      for (let i = row + bpp; i < end; i++) d[i] = (d[i]! + d[i - bpp]!) & 255;
      return true;
    case 2:
      if (up >= 0) for (let i = row, j = up; i < end; i++, j++) d[i] = (d[i]! + d[j]!) & 255;
      return true;
    case 3:
      if (up < 0) {
        for (let i = row + bpp; i < end; i++) d[i] = (d[i]! + (d[i - bpp]! >> 1)) & 255;
      } else {
        for (let i = row, j = up; i < row + bpp; i++, j++) d[i] = (d[i]! + (d[j]! >> 1)) & 255;
        for (let i = row + bpp, j = up + bpp; i < end; i++, j++) d[i] = (d[i]! + ((d[i - bpp]! + d[j]!) >> 1)) & 255;
      }
      return true;
    case 4:
      if (up < 0) {
        // Paeth with no row above is Sub.
        for (let i = row + bpp; i < end; i++) d[i] = (d[i]! + d[i - bpp]!) & 255;
      } else {
        for (let i = row, j = up; i < row + bpp; i++, j++) d[i] = (d[i]! + d[j]!) & 255;
        for (let i = row + bpp, j = up + bpp; i < end; i++, j++) {
          const a = d[i - bpp]!, b = d[j]!, c = d[j - bpp]!;
          const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
          d[i] = (d[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
        }
      }
      return true;
    default:
      return false;
  }
}

/** One unfiltered row of `channels` 8-bit samples a pixel -> RGBA. */
function expandRow(d: Uint8Array, row: number, out: Uint8Array, o: number, width: number, channels: number): void {
  switch (channels) {
    case 4:
      out.set(d.subarray(row, row + width * 4), o);
      return;
    case 3:
      for (let x = 0, i = row; x < width; x++, i += 3, o += 4) { out[o] = d[i]!; out[o + 1] = d[i + 1]!; out[o + 2] = d[i + 2]!; out[o + 3] = 255; }
      return;
    case 2:
      for (let x = 0, i = row; x < width; x++, i += 2, o += 4) { const v = d[i]!; out[o] = v; out[o + 1] = v; out[o + 2] = v; out[o + 3] = d[i + 1]!; }
      return;
    default:
      for (let x = 0, i = row; x < width; x++, i++, o += 4) { const v = d[i]!; out[o] = v; out[o + 1] = v; out[o + 2] = v; out[o + 3] = 255; }
  }
}

/**
 * RGBA8 -> PNG (RGB when every pixel is opaque, to keep files small). `fast` stores the rows
 * uncompressed (deflate level 0): for pictures that only cross a local connection to be shown,
 * where compressing a 2048x2048 picture would cost most of a second.
 */
export function encodePng(img: RgbaImage, opts: { fast?: boolean; text?: Record<string, string> } = {}): Uint8Array {
  const zlib = { ...(opts.fast ? { zlib: { level: 0 as const } } : {}) };
  let opaque = true;
  for (let i = 3; i < img.data.length; i += 4) if (img.data[i] !== 255) { opaque = false; break; }
  if (!opaque) return fastPngEncode({ width: img.width, height: img.height, data: img.data, channels: 4, depth: 8, ...(opts.text ? { text: opts.text } : {}) }, zlib);
  const rgb = new Uint8Array(img.width * img.height * 3);
  for (let i = 0, j = 0; i < img.data.length; i += 4, j += 3) {
    rgb[j] = img.data[i]!; rgb[j + 1] = img.data[i + 1]!; rgb[j + 2] = img.data[i + 2]!;
  }
  return fastPngEncode({ width: img.width, height: img.height, data: rgb, channels: 3, depth: 8, ...(opts.text ? { text: opts.text } : {}) }, zlib);
}
