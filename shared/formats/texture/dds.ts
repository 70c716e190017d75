/**
 * DirectDraw Surface (.dds), the texture container of Grimrock and Unigine: DXT1/3/5 (and the
 * premultiplied DXT2/4, shown as stored), BC4/BC5 (ATI1/ATI2 and their DX10 names), uncompressed
 * RGB/RGBA/BGRA/luminance of any bit masks, mip chains, and cube maps (shown as their first face,
 * which is stored first). Volume textures and other DX10 formats are refused with a clear error.
 *
 * DayZ's EDDS (the same header, then LZ4 or raw blocks per level) is read here too (edds.ts).
 *
 * Layout: "DDS " + a 124-byte DDS_HEADER (+ a 20-byte DDS_HEADER_DXT10 when the FourCC is
 * "DX10"), then every face's mip chain, largest level first.
 */
import { DecodeError } from '../../errors.ts';
import { blockDataSize, decodeBlocks, type BlockFormat } from './dxt.ts';
import { expandEdds, isEddsTable, type EddsBlock } from './edds.ts';
import { allocRgba, checkSize, type RgbaImage } from './image.ts';

export interface DdsMip {
  width: number;
  height: number;
  offset: number;
  size: number;
}

export interface DdsDocument {
  kind: 'dds';
  /** Human name of the pixel format: `DXT1`, `BC5`, `RGB24`, `BGRA32`... */
  format: string;
  width: number;
  height: number;
  /** Levels of the first face. */
  mips: DdsMip[];
  cube: boolean;
  /** How the pixels are decoded. */
  decode: { kind: 'block'; block: BlockFormat } | { kind: 'masks'; bytes: number; r: number; g: number; b: number; a: number; luminance: boolean };
  /**
   * The DDS the levels are read from: the file itself, or for an EDDS the plain DDS its blocks
   * expand to (mip offsets are into this).
   */
  bytes: Uint8Array;
  /** Present for a DayZ EDDS (edds.ts): the file's own bytes and its blocks, smallest level first. */
  edds?: { source: Uint8Array; blocks: EddsBlock[] };
}

const FOURCC = (s: string): number => s.charCodeAt(0) | (s.charCodeAt(1) << 8) | (s.charCodeAt(2) << 16) | (s.charCodeAt(3) << 24);
const FOURCC_BLOCKS = new Map<number, [BlockFormat, string]>([
  [FOURCC('DXT1'), ['bc1', 'DXT1']], [FOURCC('DXT2'), ['bc2', 'DXT2']], [FOURCC('DXT3'), ['bc2', 'DXT3']],
  [FOURCC('DXT4'), ['bc3', 'DXT4']], [FOURCC('DXT5'), ['bc3', 'DXT5']],
  [FOURCC('ATI1'), ['bc4', 'BC4']], [FOURCC('BC4U'), ['bc4', 'BC4']], [FOURCC('BC4S'), ['bc4', 'BC4 (signed, shown as unsigned)']],
  [FOURCC('ATI2'), ['bc5', 'BC5']], [FOURCC('BC5U'), ['bc5', 'BC5']], [FOURCC('BC5S'), ['bc5', 'BC5 (signed, shown as unsigned)']],
]);
/** DXGI formats of the DX10 header that we decode. */
const DXGI_BLOCKS = new Map<number, [BlockFormat, string]>([
  [70, ['bc1', 'BC1']], [71, ['bc1', 'BC1']], [72, ['bc1', 'BC1 sRGB']],
  [73, ['bc2', 'BC2']], [74, ['bc2', 'BC2']], [75, ['bc2', 'BC2 sRGB']],
  [76, ['bc3', 'BC3']], [77, ['bc3', 'BC3']], [78, ['bc3', 'BC3 sRGB']],
  [79, ['bc4', 'BC4']], [80, ['bc4', 'BC4']], [81, ['bc4', 'BC4 (signed)']],
  [82, ['bc5', 'BC5']], [83, ['bc5', 'BC5']], [84, ['bc5', 'BC5 (signed)']],
]);
const DXGI_MASKS = new Map<number, [string, number, number, number, number]>([
  [27, ['RGBA32', 0xff, 0xff00, 0xff0000, 0xff000000]], [28, ['RGBA32', 0xff, 0xff00, 0xff0000, 0xff000000]], [29, ['RGBA32 sRGB', 0xff, 0xff00, 0xff0000, 0xff000000]],
  [87, ['BGRA32', 0xff0000, 0xff00, 0xff, 0xff000000]], [91, ['BGRA32 sRGB', 0xff0000, 0xff00, 0xff, 0xff000000]],
  [88, ['BGRX32', 0xff0000, 0xff00, 0xff, 0]], [93, ['BGRX32 sRGB', 0xff0000, 0xff00, 0xff, 0]],
]);

export function probeDds(bytes: Uint8Array): boolean {
  return bytes.length >= 128 && bytes[0] === 0x44 && bytes[1] === 0x44 && bytes[2] === 0x53 && bytes[3] === 0x20;
}

export function decodeDds(bytes: Uint8Array): DdsDocument {
  if (!probeDds(bytes)) throw new DecodeError('not a DDS file (no "DDS " signature and 124-byte header)', 0, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (p: number): number => dv.getUint32(p, true);
  if (u32(4) !== 124) throw new DecodeError(`DDS header size is ${u32(4)}, not 124`, 4, 'header/size');
  const height = u32(12);
  const width = u32(16);
  checkSize(width, height, 12, 'header');
  const depthFlag = (u32(8) & 0x800000) !== 0;
  const caps2 = u32(112);
  if (depthFlag && caps2 & 0x200000) throw new DecodeError('volume DDS textures are not supported', 112, 'header/caps2');
  const cube = (caps2 & 0x200) !== 0;
  const mipCount = Math.max(1, u32(28));
  if (mipCount > 32) throw new DecodeError(`DDS mip count ${mipCount} is more than a 32-bit size can have`, 28, 'header/mipMapCount');
  const pfFlags = u32(80);
  const fourCC = u32(84);
  let dataStart = 128;
  let decode: DdsDocument['decode'];
  let format: string;
  if (pfFlags & 0x4) {
    if (fourCC === FOURCC('DX10')) {
      if (bytes.length < 148) throw new DecodeError('DX10 header runs past the end of the file', 128, 'dx10');
      dataStart = 148;
      const dxgi = u32(128);
      const blocks = DXGI_BLOCKS.get(dxgi);
      const masks = DXGI_MASKS.get(dxgi);
      if (u32(132) === 4) throw new DecodeError('3D (volume) DDS textures are not supported', 132, 'dx10/resourceDimension');
      if (blocks) {
        decode = { kind: 'block', block: blocks[0] };
        format = blocks[1];
      } else if (masks) {
        decode = { kind: 'masks', bytes: 4, r: masks[1], g: masks[2], b: masks[3], a: masks[4], luminance: false };
        format = masks[0];
      } else {
        throw new DecodeError(`DXGI format ${dxgi} is not supported (BC1-5 and 8-bit RGBA/BGRA are)`, 128, 'dx10/dxgiFormat');
      }
    } else {
      const b = FOURCC_BLOCKS.get(fourCC);
      if (!b) {
        const txt = String.fromCharCode(fourCC & 255, (fourCC >> 8) & 255, (fourCC >> 16) & 255, fourCC >>> 24).replace(/[^\x20-\x7e]/g, '?');
        throw new DecodeError(`DDS FourCC "${txt}" is not supported`, 84, 'header/pixelFormat/fourCC');
      }
      decode = { kind: 'block', block: b[0] };
      format = b[1];
    }
  } else {
    const bits = u32(88);
    if (bits !== 8 && bits !== 16 && bits !== 24 && bits !== 32) throw new DecodeError(`DDS bit count ${bits} is not 8, 16, 24 or 32`, 88, 'header/pixelFormat/rgbBitCount');
    const luminance = (pfFlags & 0x20000) !== 0;
    const alphaOnly = (pfFlags & 0x2) !== 0 && !(pfFlags & 0x40) && !luminance;
    const hasAlpha = (pfFlags & 0x1) !== 0 || alphaOnly;
    decode = { kind: 'masks', bytes: bits / 8, r: u32(92), g: u32(96), b: u32(100), a: hasAlpha ? u32(104) : 0, luminance };
    if (alphaOnly) decode = { ...decode, r: 0, g: 0, b: 0 };
    format = luminance ? `L${bits}${hasAlpha ? 'A' : ''}` : alphaOnly ? `A${bits}` : `${decode.r === 0xff ? 'RGB' : 'BGR'}${hasAlpha ? 'A' : ''}${bits}`;
  }
  const levelSize = (w: number, h: number): number => (decode.kind === 'block' ? blockDataSize(decode.block, w, h) : w * h * decode.bytes);
  if (isEddsTable(bytes, dataStart)) {
    if (cube) throw new DecodeError('EDDS cube maps are not supported', 112, 'header/caps2');
    const sizes: number[] = [];
    const dims: [number, number][] = [];
    for (let i = 0; i < mipCount; i++) {
      const lw = Math.max(1, width >>> i), lh = Math.max(1, height >>> i);
      dims.push([lw, lh]);
      sizes.push(levelSize(lw, lh));
    }
    const x = expandEdds(bytes, dataStart, sizes);
    const mips = dims.map(([mw, mh], i) => ({ width: mw, height: mh, offset: x.levelOffsets[i]!, size: sizes[i]! }));
    return { kind: 'dds', format, width, height, mips, cube, decode, bytes: x.dds, edds: { source: bytes, blocks: x.blocks } };
  }
  const mips: DdsMip[] = [];
  let p = dataStart;
  let w = width;
  let h = height;
  for (let i = 0; i < mipCount; i++) {
    const size = levelSize(w, h);
    if (p + size > bytes.length) {
      if (i === 0) throw new DecodeError(`mip ${w}x${h} needs ${size} bytes but the file ends ${bytes.length - p} bytes later`, p, `mips[${i}]`);
      break; // a chain cut short: keep the levels that are whole
    }
    mips.push({ width: w, height: h, offset: p, size });
    p += size;
    if (w === 1 && h === 1) break;
    w = Math.max(1, w >> 1);
    h = Math.max(1, h >> 1);
  }
  return { kind: 'dds', format: cube ? `${format} cube map` : format, width, height, mips, cube, decode, bytes };
}

/** Decodes one level of the first face. */
export function decodeDdsMip(doc: DdsDocument, index = 0): RgbaImage {
  const m = doc.mips[index];
  const path = `mips[${index}]`;
  if (!m) throw new DecodeError(`no mip ${index} (the file has ${doc.mips.length})`, 0, path);
  const img = allocRgba(m.width, m.height, `mip ${m.width}x${m.height} picture`, m.offset, path);
  const d = doc.decode;
  if (d.kind === 'block') {
    decodeBlocks(d.block, doc.bytes, m.offset, m.width, m.height, img.data);
    return img;
  }
  const chan = (mask: number): [shift: number, max: number] => {
    if (mask === 0) return [0, 0];
    let shift = 0;
    while (((mask >>> shift) & 1) === 0) shift++;
    return [shift, (mask >>> shift) >>> 0];
  };
  const [rs, rm] = chan(d.r), [gs, gm] = chan(d.g), [bs, bm] = chan(d.b), [as, am] = chan(d.a);
  const src = doc.bytes;
  const out = img.data;
  const n = m.width * m.height;
  for (let i = 0, p = m.offset; i < n; i++, p += d.bytes) {
    let v = src[p]!;
    if (d.bytes > 1) v |= src[p + 1]! << 8;
    if (d.bytes > 2) v |= src[p + 2]! << 16;
    if (d.bytes > 3) v = (v | (src[p + 3]! << 24)) >>> 0;
    const r = rm ? Math.round((((v >>> rs) & rm) * 255) / rm) : 0;
    const o = i * 4;
    if (d.luminance) {
      out[o] = out[o + 1] = out[o + 2] = r;
    } else {
      out[o] = r;
      out[o + 1] = gm ? Math.round((((v >>> gs) & gm) * 255) / gm) : 0;
      out[o + 2] = bm ? Math.round((((v >>> bs) & bm) * 255) / bm) : 0;
    }
    out[o + 3] = am ? Math.round((((v >>> as) & am) * 255) / am) : 255;
  }
  return img;
}
