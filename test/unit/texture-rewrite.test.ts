/**
 * Replace from PNG for DDS and TGA: the new file has the original's pixel format, header, mip
 * layout, bit depth and origin, and decodes back to the picture (exactly where the format is
 * lossless, within block-compression error otherwise); what cannot be kept is refused.
 */
import { describe, expect, it } from 'vitest';
import { decodeDds, decodeDdsMip } from '../../shared/formats/texture/dds.ts';
import { decodeTga, decodeTgaImage } from '../../shared/formats/texture/tga.ts';
import { replaceDds, replaceTga } from '../../shared/formats/texture/rewrite.ts';
import type { RgbaImage } from '../../shared/formats/texture/image.ts';
import { corpusFiles, readBytes } from '../helpers/corpus.ts';

class Bytes {
  parts: number[] = [];
  u8(...v: number[]): this { this.parts.push(...v.map((x) => x & 255)); return this; }
  u16(v: number): this { return this.u8(v, v >> 8); }
  u32(v: number): this { return this.u8(v, v >> 8, v >> 16, v >>> 24); }
  str(s: string): this { return this.u8(...[...s].map((c) => c.charCodeAt(0))); }
  raw(b: Uint8Array): this { this.parts.push(...b); return this; }
  get bytes(): Uint8Array { return new Uint8Array(this.parts); }
}

function dds(opts: { w: number; h: number; mips?: number; fourCC?: string; bits?: number; masks?: number[]; flags?: number; caps2?: number; dx10?: number }, data: Uint8Array): Uint8Array {
  const b = new Bytes().str('DDS ').u32(124).u32(0x1007 | (opts.mips ? 0x20000 : 0)).u32(opts.h).u32(opts.w).u32(0).u32(0).u32(opts.mips ?? 0);
  for (let i = 0; i < 11; i++) b.u32(0);
  b.u32(32).u32(opts.fourCC ? 4 : opts.flags ?? 0x41).str(opts.fourCC ?? '\0\0\0\0').u32(opts.bits ?? 0);
  for (const m of opts.masks ?? [0, 0, 0, 0]) b.u32(m);
  b.u32(0x1000 | (opts.mips ? 0x400008 : 0)).u32(opts.caps2 ?? 0).u32(0).u32(0).u32(0);
  if (opts.fourCC === 'DX10') b.u32(opts.dx10!).u32(3).u32(0).u32(1).u32(0);
  return b.raw(data).bytes;
}

function tga(type: number, w: number, h: number, bpp: number, desc: number, pixels: Uint8Array, id = ''): Uint8Array {
  return new Bytes().u8(id.length, 0, type).u16(0).u16(0).u8(0).u16(0).u16(0).u16(w).u16(h).u8(bpp, desc).str(id).raw(pixels).bytes;
}

/** A picture with gradients, a flat area and (optionally) varying alpha. */
function picture(w: number, h: number, alpha: boolean): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const flat = x < w / 4;
      data[o] = flat ? 200 : (x * 255) / w;
      data[o + 1] = flat ? 60 : (y * 255) / h;
      data[o + 2] = flat ? 30 : ((x + y) * 127) / (w + h);
      data[o + 3] = alpha ? (x * 8 + y * 3) & 255 : 255;
    }
  }
  return { width: w, height: h, data };
}

/** Largest per-channel difference (RGB, and alpha if asked). */
function worst(a: RgbaImage, b: RgbaImage, channels = 4): number {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let m = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let k = 0; k < channels; k++) m = Math.max(m, Math.abs(a.data[i + k]! - b.data[i + k]!));
  return m;
}

/** Mean absolute difference per channel. */
function meanDiff(a: RgbaImage, b: RgbaImage, channels: number[], opaqueOnly = false): number {
  let s = 0, n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (opaqueOnly && b.data[i + 3]! < 128) continue;
    for (const k of channels) s += Math.abs(a.data[i + k]! - b.data[i + k]!);
    n += channels.length;
  }
  return s / n;
}

describe('DDS replace', () => {
  it('uncompressed masks (BGRA32, RGB24, L8) keep the format and come back exactly (L8 as grey)', () => {
    const img = picture(16, 8, true);
    const bgra = dds({ w: 4, h: 4, bits: 32, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }, new Uint8Array(64));
    const back = decodeDds(replaceDds(decodeDds(bgra), img));
    expect([back.format, back.width, back.height, back.mips.length]).toEqual(['BGRA32', 16, 8, 1]);
    expect(worst(decodeDdsMip(back), img)).toBe(0);
    const rgb = dds({ w: 2, h: 2, bits: 24, flags: 0x40, masks: [0xff, 0xff00, 0xff0000, 0] }, new Uint8Array(12));
    const rgbBack = decodeDds(replaceDds(decodeDds(rgb), img));
    expect(rgbBack.format).toBe('RGB24');
    expect(worst(decodeDdsMip(rgbBack), img, 3)).toBe(0);
    expect(decodeDdsMip(rgbBack).data[3]).toBe(255);
    const lum = dds({ w: 2, h: 2, bits: 8, flags: 0x20000, masks: [0xff, 0, 0, 0] }, new Uint8Array(4));
    const lumBack = decodeDdsMip(decodeDds(replaceDds(decodeDds(lum), img)));
    const o = (3 * 16 + 9) * 4;
    expect(lumBack.data[o]).toBe(Math.round(img.data[o]! * 0.299 + img.data[o + 1]! * 0.587 + img.data[o + 2]! * 0.114));
  });

  // Alpha tolerances: DXT3 stores 4 bits (255 / 30 = 8.5), DXT5 8 steps between a block's extremes
  // (at most (max - min) / 14: 18 for a block whose alpha wraps from 255 to 0).
  it('DXT1/3/5 and BC4/5 keep their block format; a file with mips gets the full chain, header fields updated', () => {
    const img = picture(64, 32, true);
    for (const [fourCC, bytes, alphaTol] of [['DXT1', 8, 255], ['DXT3', 16, 9], ['DXT5', 16, 19], ['ATI1', 8, -1], ['ATI2', 16, -1]] as const) {
      const orig = decodeDds(dds({ w: 8, h: 8, mips: 4, fourCC }, new Uint8Array(bytes * (4 + 1 + 1 + 1))));
      expect(orig.mips.length).toBe(4);
      const file = replaceDds(orig, img);
      const back = decodeDds(file);
      expect(back.format).toBe(orig.format);
      expect(back.mips.map((m) => `${m.width}x${m.height}`)).toEqual(['64x32', '32x16', '16x8', '8x4', '4x2', '2x1', '1x1']);
      const dv = new DataView(file.buffer);
      expect(dv.getUint32(28, true)).toBe(7);
      expect(dv.getUint32(20, true)).toBe(16 * 8 * bytes); // linear size of the top level
      expect(dv.getUint32(8, true) & 0x80000).toBe(0x80000);
      expect(file.length).toBe(back.mips[6]!.offset + back.mips[6]!.size);
      const top = decodeDdsMip(back);
      if (fourCC === 'ATI1') expect(meanDiff(top, { ...img, data: img.data.map((v, i) => (i % 4 === 3 ? 255 : img.data[i - (i % 4)]!)) }, [0])).toBeLessThan(2);
      else if (fourCC === 'ATI2') expect(meanDiff(top, img, [0, 1])).toBeLessThan(2);
      // DXT1 draws texels under half alpha transparent black (1-bit alpha): their colour is gone.
      else expect(meanDiff(top, img, [0, 1, 2], fourCC === 'DXT1')).toBeLessThan(4);
      if (alphaTol > 0 && alphaTol < 255) {
        let a = 0;
        for (let i = 3; i < img.data.length; i += 4) a = Math.max(a, Math.abs(top.data[i]! - img.data[i]!));
        expect(a, fourCC).toBeLessThanOrEqual(alphaTol);
      }
    }
  });

  it('one level stays one level; DX10 headers are kept; a cube map is refused', () => {
    const img = picture(8, 8, false);
    const one = decodeDds(dds({ w: 4, h: 4, fourCC: 'DXT1' }, new Uint8Array(8)));
    const back = decodeDds(replaceDds(one, img));
    expect(back.mips.length).toBe(1);
    expect(new DataView(replaceDds(one, img).buffer).getUint32(8, true) & 0x20000).toBe(0);
    const dx10 = decodeDds(dds({ w: 4, h: 4, fourCC: 'DX10', dx10: 71 }, new Uint8Array(8)));
    const dxBack = decodeDds(replaceDds(dx10, img));
    expect([dxBack.format, dxBack.mips[0]!.offset]).toEqual(['BC1', 148]);
    const cube = decodeDds(dds({ w: 4, h: 4, fourCC: 'DXT1', caps2: 0xfe00 }, new Uint8Array(48)));
    expect(() => replaceDds(cube, img)).toThrow(/cube map/);
  });

  it('every DDS of the corpus takes its own picture back: same format and mip count, within block error', () => {
    const files = corpusFiles('dds');
    if (!files.length) return;
    for (const f of files) {
      const orig = decodeDds(readBytes(f));
      if (orig.cube) continue;
      const img = decodeDdsMip(orig);
      const back = decodeDds(replaceDds(orig, img));
      expect(back.format, f).toBe(orig.format);
      expect(back.mips.length > 1, f).toBe(orig.mips.length > 1);
      expect(meanDiff(decodeDdsMip(back), img, [0, 1, 2]), f).toBeLessThan(orig.decode.kind === 'block' ? 3 : 0.01);
    }
  });
});

describe('TGA replace', () => {
  it('24/32-bit, raw and RLE, both origins, right-to-left: the same header and the picture exactly', () => {
    const img = picture(20, 6, true);
    for (const [type, bpp, desc] of [[2, 24, 0], [2, 32, 0x28], [10, 32, 0x08], [10, 24, 0x30], [2, 32, 0x18]] as const) {
      const pb = bpp / 8;
      const orig = decodeTga(tga(type, 1, 1, bpp, desc, new Uint8Array(pb), 'id!'));
      const file = replaceTga(orig, img);
      const back = decodeTga(file);
      expect([back.imageType, back.bitsPerPixel, back.topDown, back.rightToLeft, back.alphaBits, back.width, back.height]).toEqual([type, bpp, orig.topDown, orig.rightToLeft, orig.alphaBits, 20, 6]);
      expect(new TextDecoder().decode(file.subarray(18, 21))).toBe('id!');
      expect(worst(decodeTgaImage(back), img, bpp === 32 ? 4 : 3), `${type}/${bpp}/${desc}`).toBe(0);
    }
  });

  it('RLE packs runs (a flat picture is small) and never crosses a row', () => {
    const flat = { width: 300, height: 3, data: new Uint8Array(300 * 3 * 4).fill(77) };
    const orig = decodeTga(tga(10, 1, 1, 24, 0, new Uint8Array([0x00, 1, 2, 3])));
    const file = replaceTga(orig, flat);
    // Per row: 300 = 128 + 128 + 44, three run packets of 1 + 3 bytes.
    expect(file.length).toBe(18 + 3 * 3 * 4);
    expect(worst(decodeTgaImage(decodeTga(file)), flat, 3)).toBe(0);
  });

  it('16-bit keeps its alpha bit, grey keeps grey, colour-mapped is refused, a footer is kept with zero offsets', () => {
    const img = picture(8, 4, true);
    const s16 = decodeTgaImage(decodeTga(replaceTga(decodeTga(tga(2, 1, 1, 16, 0x21, new Uint8Array(2))), img)));
    for (let i = 0; i < img.data.length; i += 4) {
      expect(s16.data[i + 3]).toBe(img.data[i + 3]! >= 128 ? 255 : 0);
      expect(Math.abs(s16.data[i]! - img.data[i]!)).toBeLessThanOrEqual(7);
    }
    const grey = decodeTgaImage(decodeTga(replaceTga(decodeTga(tga(3, 1, 1, 8, 0, new Uint8Array(1))), img)));
    expect(grey.data[0]).toBe(grey.data[1]);
    const mapped = decodeTga(new Bytes().u8(0, 1, 1).u16(0).u16(1).u8(24).u16(0).u16(0).u16(1).u16(1).u8(8, 0).u8(1, 2, 3, 0).bytes);
    expect(() => replaceTga(mapped, img)).toThrow(/colour-mapped/);
    const footer = new Bytes().u32(1234).u32(0).str('TRUEVISION-XFILE.\0').bytes;
    const withFooter = decodeTga(new Uint8Array([...tga(2, 1, 1, 24, 0, new Uint8Array(3)), ...new Uint8Array(495), ...footer]));
    const out = replaceTga(withFooter, img);
    expect(new TextDecoder('latin1').decode(out.subarray(out.length - 18))).toBe('TRUEVISION-XFILE.\0');
    expect(new DataView(out.buffer).getUint32(out.length - 26, true)).toBe(0);
    expect(out.length).toBe(18 + 8 * 4 * 3 + 26);
  });

  it('every TGA of the corpus takes its own picture back exactly, in its own type', () => {
    for (const f of corpusFiles('tga')) {
      const orig = decodeTga(readBytes(f));
      const img = decodeTgaImage(orig);
      const file = replaceTga(orig, img);
      const back = decodeTga(file);
      expect([back.imageType, back.bitsPerPixel, back.topDown], f).toEqual([orig.imageType, orig.bitsPerPixel, orig.topDown]);
      expect(worst(decodeTgaImage(back), img), f).toBe(0);
    }
  });
});
