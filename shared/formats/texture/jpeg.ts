/** JPEG decoding (LODka TXTR images) through jpeg-js, with its own limits set from the budget. */
import jpeg from 'jpeg-js';
import { activeBudget, chargeAllocation, MiB } from '../../binary/budget.ts';
import { DecodeError } from '../../errors.ts';
import { checkSize, type RgbaImage } from './image.ts';

export function probeJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** Size from the first SOFn marker, so the budget is charged before decoding. */
function jpegSize(bytes: Uint8Array): { width: number; height: number; at: number } {
  let p = 2;
  while (p + 9 < bytes.length) {
    if (bytes[p] !== 0xff) { p++; continue; }
    const marker = bytes[p + 1]!;
    if (marker === 0xff) { p++; continue; }
    const len = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[p + 5]! << 8) | bytes[p + 6]!, width: (bytes[p + 7]! << 8) | bytes[p + 8]!, at: p };
    }
    p += 2 + len;
  }
  throw new DecodeError('JPEG has no frame header (SOF marker)', 2, '');
}

export function decodeJpeg(bytes: Uint8Array): RgbaImage {
  const { width, height, at } = jpegSize(bytes);
  checkSize(width, height, at, 'SOF');
  chargeAllocation(width * height * 8, `JPEG ${width}x${height} picture`, at, 'SOF');
  const budget = activeBudget();
  try {
    const r = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: Math.ceil((width * height) / 1e6) + 1,
      maxMemoryUsageInMB: Math.max(64, Math.ceil((budget?.remaining ?? 256 * MiB) / MiB)),
    });
    return { width: r.width, height: r.height, data: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength) };
  } catch (e) {
    throw new DecodeError(`JPEG data is corrupt: ${(e as Error).message}`, at, '');
  }
}
