/**
 * PNG in and out through fast-png (pure TypeScript, so it runs in main, the renderer, workers and
 * the CLI alike). The size in IHDR is checked and charged to the decoding budget before fast-png
 * inflates anything.
 */
import { decode as fastPngDecode, encode as fastPngEncode, convertIndexedToRgb } from 'fast-png';
import { chargeAllocation } from '../../binary/budget.ts';
import { DecodeError } from '../../errors.ts';
import { checkSize, type RgbaImage } from './image.ts';

const SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function probePng(bytes: Uint8Array): boolean {
  return bytes.length >= 24 && SIG.every((b, i) => bytes[i] === b);
}

export function decodePng(bytes: Uint8Array): RgbaImage {
  if (!probePng(bytes)) throw new DecodeError('not a PNG file (no PNG signature)', 0, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = dv.getUint32(16, false);
  const height = dv.getUint32(20, false);
  checkSize(width, height, 16, 'IHDR');
  // fast-png holds the inflated rows (up to 8 bytes a pixel at 16-bit RGBA) and we the RGBA copy.
  chargeAllocation(width * height * 12, `PNG ${width}x${height} picture`, 16, 'IHDR');
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
