/**
 * "Replace from PNG" for the texture types that are otherwise kept as read: a new DDS or TGA in
 * the same shape as the file it replaces, so the game or tool that loads the original loads the
 * replacement the same way.
 *
 * - DDS: the same pixel format (DXT1-5 / BC1-5 blocks, or the same bit masks uncompressed), the
 *   same header (DX10 part included) with the new size, pitch and mip count; a full mip chain when
 *   the original had more than one level (each half the one above, linear-light alpha-weighted
 *   box filter, as for a new PAA), one level otherwise. Cube maps are refused (one picture cannot
 *   be six faces). DXT2/DXT4 store the picture as given (not premultiplied), as they are shown.
 * - TGA: the same image type (true-colour or grey, raw or RLE), bit depth, alpha bits and origin
 *   (bottom-up / right-to-left); the image ID is kept. Colour-mapped TGAs are refused (that would
 *   mean choosing a palette). The TGA 2.0 extension area is dropped; its footer is kept with both
 *   offsets 0 when the original had one.
 */
import { EncodeError } from '../../errors.ts';
import { chargeAllocation } from '../../binary/budget.ts';
import { encodeBlocks } from './dxt.ts';
import { downsample, type RgbaImage } from './image.ts';
import type { DdsDocument } from './dds.ts';
import type { TgaDocument } from './tga.ts';

const MAX_SIDE = 32768;

function checkPicture(img: RgbaImage, maxSide: number): void {
  if (img.width < 1 || img.height < 1 || img.width > maxSide || img.height > maxSide) {
    throw new EncodeError(`the picture is ${img.width}x${img.height}; this type takes 1..${maxSide} pixels a side`, '');
  }
}

/** The first `count` levels of the picture's mip chain (each half the one above, down to 1x1). */
function chain(img: RgbaImage, count: number): RgbaImage[] {
  const levels = [img];
  while (levels.length < count) {
    const last = levels[levels.length - 1]!;
    if (last.width === 1 && last.height === 1) break;
    levels.push(downsample(last));
  }
  return levels;
}

/** Value of an 8-bit channel scaled into a bit mask (0 when the mask is empty). */
function intoMask(v: number, mask: number): number {
  if (mask === 0) return 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (Math.round((v * max) / 255) * 2 ** shift) >>> 0;
}

/** A new DDS with the original's pixel format, header and mip layout, holding `img`. */
export function replaceDds(orig: DdsDocument, img: RgbaImage): Uint8Array {
  checkPicture(img, MAX_SIDE);
  if (orig.cube) throw new EncodeError('a cube map cannot be replaced from one picture (it has six faces)', '');
  const headerBytes = orig.mips[0]!.offset;
  const fullChain = Math.floor(Math.log2(Math.max(img.width, img.height))) + 1;
  const count = orig.mips.length > 1 ? fullChain : 1;
  const levels = chain(img, count);
  const d = orig.decode;
  const data: Uint8Array[] = levels.map((l) => {
    if (d.kind === 'block') return encodeBlocks(d.block, l.data, l.width, l.height);
    const n = l.width * l.height;
    const out = new Uint8Array(n * d.bytes);
    const px = l.data;
    for (let i = 0, p = 0; i < n; i++, p += d.bytes) {
      const o = i * 4;
      const r = d.luminance ? Math.round(px[o]! * 0.299 + px[o + 1]! * 0.587 + px[o + 2]! * 0.114) : px[o]!;
      const v = (intoMask(r, d.r) | (d.luminance ? 0 : intoMask(px[o + 1]!, d.g) | intoMask(px[o + 2]!, d.b)) | intoMask(px[o + 3]!, d.a)) >>> 0;
      out[p] = v & 255;
      if (d.bytes > 1) out[p + 1] = (v >>> 8) & 255;
      if (d.bytes > 2) out[p + 2] = (v >>> 16) & 255;
      if (d.bytes > 3) out[p + 3] = v >>> 24;
    }
    return out;
  });
  const size = headerBytes + data.reduce((a, b) => a + b.length, 0);
  chargeAllocation(size, `DDS of ${size} bytes`, 0, '');
  const out = new Uint8Array(size);
  out.set(orig.bytes.subarray(0, headerBytes));
  const dv = new DataView(out.buffer);
  const HEIGHT = 0x2, WIDTH = 0x4, PITCH = 0x8, MIPMAPCOUNT = 0x20000, LINEARSIZE = 0x80000;
  let flags = dv.getUint32(8, true) | HEIGHT | WIDTH;
  dv.setUint32(12, img.height, true);
  dv.setUint32(16, img.width, true);
  if (d.kind === 'block') {
    flags = (flags | LINEARSIZE) & ~PITCH;
    dv.setUint32(20, data[0]!.length, true);
  } else {
    flags = (flags | PITCH) & ~LINEARSIZE;
    dv.setUint32(20, img.width * d.bytes, true);
  }
  const COMPLEX = 0x8, MIPMAP = 0x400000;
  let caps = dv.getUint32(108, true);
  if (levels.length > 1) {
    flags |= MIPMAPCOUNT;
    caps |= COMPLEX | MIPMAP;
  } else {
    flags &= ~MIPMAPCOUNT;
    caps &= ~MIPMAP;
  }
  dv.setUint32(8, flags >>> 0, true);
  dv.setUint32(28, levels.length > 1 ? levels.length : 0, true);
  dv.setUint32(108, caps >>> 0, true);
  let p = headerBytes;
  for (const l of data) {
    out.set(l, p);
    p += l.length;
  }
  return out;
}

const TGA_FOOTER = 'TRUEVISION-XFILE.\0';

/** A new TGA with the original's type, depth, alpha bits, origin and image ID, holding `img`. */
export function replaceTga(orig: TgaDocument, img: RgbaImage): Uint8Array {
  checkPicture(img, 0xffff);
  if ((orig.imageType & 7) === 1) throw new EncodeError('a colour-mapped TGA cannot be replaced from a PNG (it would need a new palette)', '');
  const { width, height } = img;
  const grey = (orig.imageType & 7) === 3;
  const bpp = orig.bitsPerPixel;
  const pixelBytes = Math.ceil(bpp / 8);
  // Pixels in file order: rows bottom-up unless the original is top-down, right to left if it was.
  const n = width * height;
  const raw = new Uint8Array(n * pixelBytes);
  const src = img.data;
  let q = 0;
  for (let r = 0; r < height; r++) {
    const y = orig.topDown ? r : height - 1 - r;
    for (let c = 0; c < width; c++) {
      const x = orig.rightToLeft ? width - 1 - c : c;
      const o = (y * width + x) * 4;
      const R = src[o]!, G = src[o + 1]!, B = src[o + 2]!, A = src[o + 3]!;
      if (grey) {
        raw[q] = Math.round(R * 0.299 + G * 0.587 + B * 0.114);
        if (pixelBytes === 2) raw[q + 1] = A;
      } else if (bpp === 15 || bpp === 16) {
        const v = ((R >> 3) << 10) | ((G >> 3) << 5) | (B >> 3) | (bpp === 16 && orig.alphaBits === 1 && A >= 128 ? 0x8000 : 0);
        raw[q] = v & 255;
        raw[q + 1] = v >> 8;
      } else {
        raw[q] = B; raw[q + 1] = G; raw[q + 2] = R;
        if (bpp === 32) raw[q + 3] = A;
      }
      q += pixelBytes;
    }
  }
  const pixels = orig.rle ? rleEncode(raw, pixelBytes, width, height) : raw;
  const idLength = orig.bytes[0]!;
  const hadFooter = orig.bytes.length >= 44 && new TextDecoder('latin1').decode(orig.bytes.subarray(orig.bytes.length - 18)) === TGA_FOOTER;
  const size = 18 + idLength + pixels.length + (hadFooter ? 26 : 0);
  chargeAllocation(size, `TGA of ${size} bytes`, 0, '');
  const out = new Uint8Array(size);
  out.set(orig.bytes.subarray(0, 18 + idLength));
  // No colour map: its fields are zero.
  out[1] = 0;
  out.fill(0, 3, 8);
  out[12] = width & 255; out[13] = width >> 8;
  out[14] = height & 255; out[15] = height >> 8;
  out.set(pixels, 18 + idLength);
  if (hadFooter) {
    // Extension and developer areas are not carried over: both offsets 0.
    const f = 18 + idLength + pixels.length;
    for (let i = 0; i < TGA_FOOTER.length; i++) out[f + 8 + i] = TGA_FOOTER.charCodeAt(i);
  }
  return out;
}

/** TGA RLE, packets never crossing a row: runs of 2+ equal pixels, raw packets between them. */
function rleEncode(raw: Uint8Array, pb: number, width: number, height: number): Uint8Array {
  // Worst case: every pixel its own packet (a header byte each).
  const out = new Uint8Array(raw.length + width * height);
  let o = 0;
  const same = (a: number, b: number): boolean => {
    for (let k = 0; k < pb; k++) if (raw[a * pb + k] !== raw[b * pb + k]) return false;
    return true;
  };
  for (let y = 0; y < height; y++) {
    const end = (y + 1) * width;
    let i = y * width;
    while (i < end) {
      let run = 1;
      while (i + run < end && run < 128 && same(i, i + run)) run++;
      if (run >= 2) {
        out[o++] = 0x80 | (run - 1);
        out.set(raw.subarray(i * pb, i * pb + pb), o);
        o += pb;
        i += run;
        continue;
      }
      // Raw packet: up to 128 pixels, stopping where a run of two starts.
      let len = 1;
      while (i + len < end && len < 128 && !(i + len + 1 < end && same(i + len, i + len + 1))) len++;
      out[o++] = len - 1;
      out.set(raw.subarray(i * pb, (i + len) * pb), o);
      o += len * pb;
      i += len;
    }
  }
  return out.subarray(0, o);
}
