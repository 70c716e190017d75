/**
 * Arma / OFP PAA and PAC textures ("paX"): decoding of every pixel type, lossless re-save and
 * writing new files.
 *
 * Layout (Bohemia community wiki "PAA File Format", checked against real files):
 * ```
 * u16     type        0xFF01..0xFF05 DXT1..5, 0x4444 ARGB4444, 0x1555 ARGB1555, 0x8888 ARGB8888,
 *                     0x8080 AI88; absent in OFP index-palette files, which start with a TAGG
 * TAGG[]  "GGAT" + 4-char name written backwards ("CGVA" = AVGC) + u32 length + data, while the
 *                     next 4 bytes read "GGAT"
 * u16     palette colours, then that many B G R triplets (0 for every type but the palette one)
 * MIP[]   u16 width, u16 height, u24 data length, data; a width of 0 ends the list
 *         - DXT: width bit 15 set = data is LZO1X-compressed
 *         - ARGB4444/1555/8888, AI88: data not exactly width*height*bpp = Bohemia LZSS (checksum)
 *         - palette: width 1234 height 8765 = LZSS, real width and height follow; else RLE
 * u16[3]  zero (real files end with 6 zero bytes; kept verbatim as the trailer)
 * ```
 * Tags the game reads: AVGC (average colour, ARGB u32), MAXC (max colour), FLAG (1 = alpha
 * blended, 2 = alpha tested), SWIZ (channel swizzle of _nohq/_smdi maps), OFFS (16 u32 offsets
 * of each mip header, 0 after the last), PROC (procedural text).
 *
 * A decoded document keeps every tag's and mip's bytes as stored, so an untouched file is written
 * back byte for byte; mips are decompressed only when a picture of them is asked for.
 */
import { chargeAllocation } from '../../binary/budget.ts';
import { lzo1xCompress, lzo1xDecompress } from '../../binary/lzo1x.ts';
import { lzssDecompress } from '../../binary/lzss.ts';
import { DecodeError, EncodeError, isDecodeError } from '../../errors.ts';
import type { Problem } from '../../model/problems.ts';
import { blockDataSize, decodeBlocks, encodeBlocks, type BlockFormat } from './dxt.ts';
import { allocRgba, averageFromSums, downsample, isOpaque, type RgbaImage } from './image.ts';
import { averageColour, type Rgba8 } from './colour.ts';

export type PaaType = 'dxt1' | 'dxt2' | 'dxt3' | 'dxt4' | 'dxt5' | 'argb4444' | 'argb1555' | 'argb8888' | 'ai88' | 'palette';

const TYPE_BY_CODE = new Map<number, PaaType>([
  [0xff01, 'dxt1'], [0xff02, 'dxt2'], [0xff03, 'dxt3'], [0xff04, 'dxt4'], [0xff05, 'dxt5'],
  [0x4444, 'argb4444'], [0x1555, 'argb1555'], [0x8888, 'argb8888'], [0x8080, 'ai88'],
]);
const CODE_BY_TYPE = new Map<PaaType, number>([...TYPE_BY_CODE].map(([c, t]) => [t, c]));

/** Block format of each DXT type (DXT2/4 are the premultiplied twins of 3/5; shown as stored). */
const BLOCK: Partial<Record<PaaType, BlockFormat>> = { dxt1: 'bc1', dxt2: 'bc2', dxt3: 'bc2', dxt4: 'bc3', dxt5: 'bc3' };
/** Bytes per pixel of the uncompressed types. */
const BPP: Partial<Record<PaaType, number>> = { argb4444: 2, argb1555: 2, ai88: 2, argb8888: 4, palette: 1 };

export const PAA_TYPE_LABEL: Record<PaaType, string> = {
  dxt1: 'DXT1', dxt2: 'DXT2', dxt3: 'DXT3', dxt4: 'DXT4', dxt5: 'DXT5',
  argb4444: 'ARGB4444', argb1555: 'ARGB1555', argb8888: 'ARGB8888', ai88: 'AI88', palette: 'index palette',
};

export interface PaaTag {
  /** The tag's name read forwards: `AVGC`, `MAXC`, `FLAG`, `SWIZ`, `OFFS`, `PROC`, or anything else as found. */
  name: string;
  /** Offset of the tag's "GGAT" signature. */
  offset: number;
  data: Uint8Array;
}

export type PaaCompression = 'none' | 'lzo' | 'lzss' | 'rle';

export interface PaaMip {
  width: number;
  height: number;
  compression: PaaCompression;
  /** Palette files: the header carried the 1234 x 8765 LZSS marker before the real size. */
  lzssMarker: boolean;
  /** Offset of the mip header (what OFFS points at). */
  offset: number;
  /** Offset of the first data byte. */
  dataOffset: number;
  /** The data as stored (compressed or not). */
  stored: Uint8Array;
}

export interface PaaDocument {
  kind: 'paa';
  type: PaaType;
  /** The type word as read; null for an OFP index-palette file (no type word). */
  typeCode: number | null;
  tags: PaaTag[];
  /** B G R triplets. */
  palette: Uint8Array;
  mips: PaaMip[];
  /** Everything after the last mip (the end marker), kept verbatim. */
  trailer: Uint8Array;
  byteLength: number;
}

const GGAT = 0x54414747; // "GGAT" little-endian
const PALETTE_LZSS_W = 1234;
const PALETTE_LZSS_H = 8765;

/** True when the bytes start like a paX file. */
export function probePaa(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  const code = bytes[0]! | (bytes[1]! << 8);
  if (TYPE_BY_CODE.has(code)) return true;
  // Index-palette file: starts with a GGAT tag.
  return bytes[0] === 0x47 && bytes[1] === 0x47 && bytes[2] === 0x41 && bytes[3] === 0x54;
}

const u16 = (b: Uint8Array, p: number): number => b[p]! | (b[p + 1]! << 8);
const u32 = (b: Uint8Array, p: number): number => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;

/** Parses the structure (tags, palette, mip headers); no mip is decompressed here. */
export function decodePaa(bytes: Uint8Array): PaaDocument {
  const end = bytes.length;
  const need = (p: number, n: number, what: string, path: string): void => {
    if (p + n > end) throw new DecodeError(`${what} needs ${n} bytes but the file ends ${end - p} bytes later`, p, path);
  };
  need(0, 2, 'type word', '');
  let p = 0;
  const code = u16(bytes, 0);
  let type = TYPE_BY_CODE.get(code);
  let typeCode: number | null = code;
  if (!type) {
    if (code === 0x4747) {
      type = 'palette';
      typeCode = null;
    } else {
      throw new DecodeError(`unknown PAA type 0x${code.toString(16).padStart(4, '0')}`, 0, 'type');
    }
  } else {
    p = 2;
  }
  const tags: PaaTag[] = [];
  while (p + 4 <= end && u32(bytes, p) === GGAT) {
    const path = `tags[${tags.length}]`;
    // No count: charged 64 tag records at a time, before they are built.
    if (tags.length % 64 === 0) chargeAllocation(64 * 256, '64 tag records', p, path);
    need(p, 12, 'tag header', path);
    const name = String.fromCharCode(bytes[p + 7]!, bytes[p + 6]!, bytes[p + 5]!, bytes[p + 4]!);
    const len = u32(bytes, p + 8);
    need(p + 12, len, `tag ${name}`, `${path}(${name})`);
    tags.push({ name, offset: p, data: bytes.subarray(p + 12, p + 12 + len) });
    p += 12 + len;
  }
  need(p, 2, 'palette size', 'palette');
  const colours = u16(bytes, p);
  need(p + 2, colours * 3, 'palette', 'palette');
  const palette = bytes.subarray(p + 2, p + 2 + colours * 3);
  p += 2 + colours * 3;
  const mips: PaaMip[] = [];
  for (;;) {
    const path = `mips[${mips.length}]`;
    if (p + 2 > end) break; // no end marker: tolerated, nothing to keep
    let w = u16(bytes, p);
    if (w === 0) break;
    if (mips.length >= 16) throw new DecodeError('more than 16 mip levels', p, path);
    need(p, 7, 'mip header', path);
    const offset = p;
    let h = u16(bytes, p + 2);
    let lzssMarker = false;
    let hp = p + 4;
    if (type === 'palette' && w === PALETTE_LZSS_W && h === PALETTE_LZSS_H) {
      need(p, 11, 'mip header', path);
      lzssMarker = true;
      w = u16(bytes, p + 4);
      h = u16(bytes, p + 6);
      hp = p + 8;
    }
    let compression: PaaCompression = 'none';
    const block = BLOCK[type];
    if (block && w & 0x8000) {
      compression = 'lzo';
      w &= 0x7fff;
    }
    if (w === 0 || h === 0) throw new DecodeError(`mip size ${w}x${h} is empty`, offset, path);
    const len = bytes[hp]! | (bytes[hp + 1]! << 8) | (bytes[hp + 2]! << 16);
    const dataOffset = hp + 3;
    need(dataOffset, len, `mip ${w}x${h} data`, path);
    const expected = mipDataSize(type, w, h);
    if (!block) {
      if (type === 'palette') compression = lzssMarker ? 'lzss' : 'rle';
      // Real files LZSS-compress every level of these types, even 1x1 ones that grow by it
      // (7 bytes for a 2-byte texel); only data of exactly the raw size is taken as raw.
      else if (len !== expected) compression = 'lzss';
    } else if (compression === 'none' && len !== expected) {
      throw new DecodeError(`mip ${w}x${h} stores ${len} bytes; ${PAA_TYPE_LABEL[type]} needs ${expected}`, offset, path);
    }
    mips.push({ width: w, height: h, compression, lzssMarker, offset, dataOffset, stored: bytes.subarray(dataOffset, dataOffset + len) });
    p = dataOffset + len;
  }
  if (mips.length === 0) throw new DecodeError('the file has no mip levels', p, 'mips');
  return { kind: 'paa', type, typeCode, tags, palette, mips, trailer: bytes.subarray(Math.min(p, end)), byteLength: end };
}

/** Uncompressed byte size of one level. */
export function mipDataSize(type: PaaType, w: number, h: number): number {
  const block = BLOCK[type];
  return block ? blockDataSize(block, w, h) : w * h * BPP[type]!;
}

/** Writes the document back: the stored bytes of every part, so an untouched file comes back identical. */
export function encodePaa(doc: PaaDocument): Uint8Array {
  let size = doc.typeCode === null ? 0 : 2;
  for (const t of doc.tags) size += 12 + t.data.length;
  size += 2 + doc.palette.length;
  for (const m of doc.mips) size += (m.lzssMarker ? 11 : 7) + m.stored.length;
  size += doc.trailer.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let p = 0;
  if (doc.typeCode !== null) { dv.setUint16(0, doc.typeCode, true); p = 2; }
  for (const t of doc.tags) {
    if (t.name.length !== 4) throw new EncodeError(`tag name "${t.name}" is not 4 characters`, 'tags');
    dv.setUint32(p, GGAT, true);
    for (let i = 0; i < 4; i++) out[p + 4 + i] = t.name.charCodeAt(3 - i) & 0xff;
    dv.setUint32(p + 8, t.data.length, true);
    out.set(t.data, p + 12);
    p += 12 + t.data.length;
  }
  if (doc.palette.length % 3 !== 0 || doc.palette.length / 3 > 0xffff) throw new EncodeError('palette is not a list of at most 65535 BGR triplets', 'palette');
  dv.setUint16(p, doc.palette.length / 3, true);
  out.set(doc.palette, p + 2);
  p += 2 + doc.palette.length;
  doc.mips.forEach((m, i) => {
    if (m.stored.length > 0xffffff) throw new EncodeError(`mip data of ${m.stored.length} bytes does not fit 24 bits`, `mips[${i}]`);
    if (m.lzssMarker) {
      dv.setUint16(p, PALETTE_LZSS_W, true);
      dv.setUint16(p + 2, PALETTE_LZSS_H, true);
      p += 4;
    }
    dv.setUint16(p, m.width | (m.compression === 'lzo' ? 0x8000 : 0), true);
    dv.setUint16(p + 2, m.height, true);
    out[p + 4] = m.stored.length & 0xff;
    out[p + 5] = (m.stored.length >> 8) & 0xff;
    out[p + 6] = (m.stored.length >> 16) & 0xff;
    out.set(m.stored, p + 7);
    p += 7 + m.stored.length;
  });
  out.set(doc.trailer, p);
  return out;
}

/** Rethrows a decompressor's error with the file offset and the mip's path. */
function atMip<T>(m: PaaMip, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isDecodeError(e)) throw new DecodeError(e.detail, m.dataOffset + e.offset, e.path ? `${path}/${e.path}` : path);
    throw e;
  }
}

/** The level's uncompressed pixel data (in the type's own encoding). */
export function mipPixels(doc: PaaDocument, index: number): Uint8Array {
  const m = doc.mips[index];
  const path = `mips[${index}]`;
  if (!m) throw new DecodeError(`no mip ${index} (the file has ${doc.mips.length})`, 0, path);
  const size = mipDataSize(doc.type, m.width, m.height);
  switch (m.compression) {
    case 'none':
      return m.stored;
    case 'lzo':
      chargeAllocation(size, `mip ${m.width}x${m.height} (LZO)`, m.dataOffset, path);
      return atMip(m, path, () => lzo1xDecompress(m.stored, 0, size).data);
    case 'lzss':
      chargeAllocation(size, `mip ${m.width}x${m.height} (LZSS)`, m.dataOffset, path);
      return atMip(m, path, () => lzssDecompress(m.stored, 0, size).data);
    case 'rle':
      chargeAllocation(size, `mip ${m.width}x${m.height} (RLE)`, m.dataOffset, path);
      return rleDecompress(m.stored, size, m.dataOffset, path);
  }
}

/**
 * OFP palette RLE: a byte with bit 7 set repeats the next byte (low 7 bits + 1) times, otherwise
 * (byte + 1) literal bytes follow. Bounded: a run past the image is an error.
 */
function rleDecompress(src: Uint8Array, size: number, base: number, path: string): Uint8Array {
  const out = new Uint8Array(size);
  let ip = 0;
  let op = 0;
  while (op < size) {
    if (ip >= src.length) throw new DecodeError(`RLE data ends after ${op} of ${size} bytes`, base + ip, path);
    const flag = src[ip++]!;
    const n = (flag & 0x7f) + 1;
    if (op + n > size) throw new DecodeError(`RLE run of ${n} bytes passes the end of the ${size}-byte image`, base + ip - 1, path);
    if (flag & 0x80) {
      if (ip >= src.length) throw new DecodeError('RLE run has no value byte', base + ip, path);
      out.fill(src[ip++]!, op, op + n);
    } else {
      if (ip + n > src.length) throw new DecodeError(`RLE literal run of ${n} bytes passes the end of the data`, base + ip, path);
      out.set(src.subarray(ip, ip + n), op);
      ip += n;
    }
    op += n;
  }
  return out;
}

/** Decodes one level to RGBA (as stored: swizzled maps are not un-swizzled). */
export function decodePaaMip(doc: PaaDocument, index = 0): RgbaImage {
  const m = doc.mips[index];
  if (!m) throw new DecodeError(`no mip ${index} (the file has ${doc.mips.length})`, 0, `mips[${index}]`);
  const path = `mips[${index}]`;
  const img = allocRgba(m.width, m.height, `mip ${m.width}x${m.height} picture`, m.offset, path);
  const px = mipPixels(doc, index);
  const out = img.data;
  const n = m.width * m.height;
  const block = BLOCK[doc.type];
  if (block) {
    decodeBlocks(block, px, 0, m.width, m.height, out);
    return img;
  }
  switch (doc.type) {
    case 'argb4444':
      for (let i = 0; i < n; i++) {
        const v = px[i * 2]! | (px[i * 2 + 1]! << 8);
        out[i * 4] = ((v >> 8) & 15) * 17;
        out[i * 4 + 1] = ((v >> 4) & 15) * 17;
        out[i * 4 + 2] = (v & 15) * 17;
        out[i * 4 + 3] = (v >> 12) * 17;
      }
      break;
    case 'argb1555':
      for (let i = 0; i < n; i++) {
        const v = px[i * 2]! | (px[i * 2 + 1]! << 8);
        const r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
        out[i * 4] = (r << 3) | (r >> 2);
        out[i * 4 + 1] = (g << 3) | (g >> 2);
        out[i * 4 + 2] = (b << 3) | (b >> 2);
        out[i * 4 + 3] = v & 0x8000 ? 255 : 0;
      }
      break;
    case 'argb8888':
      for (let i = 0; i < n; i++) {
        out[i * 4] = px[i * 4 + 2]!;
        out[i * 4 + 1] = px[i * 4 + 1]!;
        out[i * 4 + 2] = px[i * 4]!;
        out[i * 4 + 3] = px[i * 4 + 3]!;
      }
      break;
    case 'ai88':
      for (let i = 0; i < n; i++) {
        const v = px[i * 2]!;
        out[i * 4] = v;
        out[i * 4 + 1] = v;
        out[i * 4 + 2] = v;
        out[i * 4 + 3] = px[i * 2 + 1]!;
      }
      break;
    case 'palette': {
      const pal = doc.palette;
      const count = pal.length / 3;
      for (let i = 0; i < n; i++) {
        const k = px[i]!;
        if (k < count) {
          out[i * 4] = pal[k * 3 + 2]!;
          out[i * 4 + 1] = pal[k * 3 + 1]!;
          out[i * 4 + 2] = pal[k * 3]!;
        }
        out[i * 4 + 3] = 255;
      }
      break;
    }
    default:
      throw new DecodeError(`no decoder for ${doc.type}`, 0, path);
  }
  return img;
}

// ---------------------------------------------------------------------------------------------
// Tags

export function findTag(doc: PaaDocument, name: string): PaaTag | undefined {
  return doc.tags.find((t) => t.name === name);
}

/** AVGC / MAXC value: a u32 ARGB, stored B G R A. */
export function tagColour(tag: PaaTag | undefined): Rgba8 | undefined {
  if (!tag || tag.data.length < 4) return undefined;
  return { r: tag.data[2]!, g: tag.data[1]!, b: tag.data[0]!, a: tag.data[3]! };
}

export function tagOffsets(doc: PaaDocument): number[] | undefined {
  const t = findTag(doc, 'OFFS');
  if (!t) return undefined;
  const out: number[] = [];
  for (let i = 0; i + 4 <= t.data.length; i += 4) out.push(u32(t.data, i));
  return out;
}

const SWIZ_SOURCE = ['A', 'R', 'G', 'B', '1-A', '1-R', '1-G', '1-B', '1', '0'];

/** SWIZ as text: which source channel each stored channel (A R G B) carries. */
export function swizzleText(tag: PaaTag | undefined): string | undefined {
  if (!tag || tag.data.length < 4) return undefined;
  const names = ['A', 'R', 'G', 'B'];
  return names.map((n, i) => `${n}=${SWIZ_SOURCE[tag.data[i]!] ?? `?${tag.data[i]}`}`).join(' ');
}

/** What the inspector and `lodsmith info` show. */
export interface PaaInfo {
  type: string;
  width: number;
  height: number;
  mips: { width: number; height: number; compression: PaaCompression; bytes: number; offset: number }[];
  tags: Record<string, unknown>;
  paletteColours: number;
}

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');
export const colourHex = (c: Rgba8): string => `#${hex2(c.r)}${hex2(c.g)}${hex2(c.b)}${hex2(c.a)}`;

export function paaInfo(doc: PaaDocument): PaaInfo {
  const tags: Record<string, unknown> = {};
  for (const t of doc.tags) {
    switch (t.name) {
      case 'AVGC': case 'MAXC': tags[t.name] = colourHex(tagColour(t)!); break;
      case 'FLAG': tags.FLAG = t.data.length >= 4 ? u32(t.data, 0) : null; break;
      case 'SWIZ': tags.SWIZ = `${swizzleText(t)} (shown as stored)`; break;
      case 'OFFS': tags.OFFS = (tagOffsets(doc) ?? []).filter((o) => o !== 0); break;
      case 'PROC': tags.PROC = new TextDecoder('latin1').decode(t.data); break;
      default: tags[t.name] = `${t.data.length} bytes`;
    }
  }
  const top = doc.mips[0]!;
  return {
    type: PAA_TYPE_LABEL[doc.type],
    width: top.width,
    height: top.height,
    mips: doc.mips.map((m) => ({ width: m.width, height: m.height, compression: m.compression, bytes: m.stored.length, offset: m.offset })),
    tags,
    paletteColours: doc.palette.length / 3,
  };
}

/** Structural findings: OFFS disagreeing with the mips, sizes that do not halve. */
export function validatePaa(doc: PaaDocument): Problem[] {
  const problems: Problem[] = [];
  const offs = tagOffsets(doc);
  if (offs && offs.some((o) => o !== 0)) {
    doc.mips.forEach((m, i) => {
      if (offs[i] !== m.offset) {
        problems.push({ severity: 'error', message: `OFFS tag puts mip ${i} at ${offs[i] ?? 'nothing'}, but it starts at ${m.offset}`, where: `tags/OFFS[${i}]`, offset: m.offset });
      }
    });
    for (let i = doc.mips.length; i < offs.length; i++) {
      if (offs[i] !== 0) problems.push({ severity: 'error', message: `OFFS tag lists mip ${i} at ${offs[i]}, but the file has ${doc.mips.length} mips`, where: `tags/OFFS[${i}]` });
    }
  }
  for (let i = 1; i < doc.mips.length; i++) {
    const a = doc.mips[i - 1]!, b = doc.mips[i]!;
    if (b.width > a.width || b.height > a.height) problems.push({ severity: 'warning', message: `mip ${i} (${b.width}x${b.height}) is larger than mip ${i - 1}`, where: `mips[${i}]`, offset: b.offset });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Writing new files

export type PaaWriteFormat = 'dxt1' | 'dxt5' | 'argb8888';

export interface PaaWriteOptions {
  /** Default: DXT1 when every pixel is opaque, DXT5 otherwise. */
  format?: PaaWriteFormat;
}

/**
 * A new PAA from an RGBA picture the way TexView and ImageToPAA write one: DXT1 when opaque,
 * DXT5 with alpha; the full mip chain down to a 4-texel side; DXT mips wider than 128 LZO-
 * compressed; AVGC (linear-light, alpha-weighted mean colour; alpha = mean alpha), MAXC (white,
 * as every TexView-written file has it: the picture is not range-normalised), FLAG
 * (1, blended alpha) when the picture has alpha, OFFS; 6 zero bytes at the end.
 */
export function createPaa(img: RgbaImage, opts: PaaWriteOptions = {}): PaaDocument {
  if (img.width < 1 || img.height < 1 || img.width > 0x7fff || img.height > 0x7fff) {
    throw new EncodeError(`a PAA side must be 1..32767 pixels, got ${img.width}x${img.height}`, '');
  }
  const opaque = isOpaque(img);
  const format = opts.format ?? (opaque ? 'dxt1' : 'dxt5');
  const type: PaaType = format;
  const levels: RgbaImage[] = [img];
  // DXT chains stop at a 4-texel side (a block); ARGB8888 goes on to 1x1 like AI88 files do.
  const minSide = format === 'argb8888' ? 1 : 4;
  // The first halving also sums what AVGC needs (one pass over the picture fewer).
  const sums = new Float64Array(7).fill(-1);
  while (levels.length < 16) {
    const last = levels[levels.length - 1]!;
    if (minSide > 1 ? Math.min(last.width, last.height) <= minSide : last.width === 1 && last.height === 1) break;
    levels.push(downsample(last, levels.length === 1 ? sums : undefined));
  }
  const mips: PaaMip[] = levels.map((l) => {
    let stored: Uint8Array;
    let compression: PaaCompression = 'none';
    if (format === 'argb8888') {
      stored = new Uint8Array(l.width * l.height * 4);
      for (let i = 0; i < l.width * l.height; i++) {
        stored[i * 4] = l.data[i * 4 + 2]!;
        stored[i * 4 + 1] = l.data[i * 4 + 1]!;
        stored[i * 4 + 2] = l.data[i * 4]!;
        stored[i * 4 + 3] = l.data[i * 4 + 3]!;
      }
    } else {
      stored = encodeBlocks(format === 'dxt1' ? 'bc1' : 'bc3', l.data, l.width, l.height);
      if (l.width > 128) {
        const packed = lzo1xCompress(stored);
        if (packed.length < stored.length) { stored = packed; compression = 'lzo'; }
      }
    }
    return { width: l.width, height: l.height, compression, lzssMarker: false, offset: 0, dataOffset: 0, stored };
  });
  const colourTag = (name: string, c: Rgba8): PaaTag => ({ name, offset: 0, data: new Uint8Array([c.b, c.g, c.r, c.a]) });
  const tags: PaaTag[] = [colourTag('AVGC', averageFromSums(sums, img.width * img.height) ?? averageColour(img)), colourTag('MAXC', { r: 255, g: 255, b: 255, a: 255 })];
  if (!opaque) tags.push({ name: 'FLAG', offset: 0, data: new Uint8Array([1, 0, 0, 0]) });
  tags.push({ name: 'OFFS', offset: 0, data: new Uint8Array(64) });
  const doc: PaaDocument = { kind: 'paa', type, typeCode: CODE_BY_TYPE.get(type)!, tags, palette: new Uint8Array(0), mips, trailer: new Uint8Array(6), byteLength: 0 };
  layoutPaa(doc);
  return doc;
}

/** Recomputes mip offsets and the OFFS tag from the current parts (for new or edited documents). */
export function layoutPaa(doc: PaaDocument): void {
  let p = doc.typeCode === null ? 0 : 2;
  for (const t of doc.tags) { t.offset = p; p += 12 + t.data.length; }
  p += 2 + doc.palette.length;
  for (const m of doc.mips) {
    m.offset = p;
    const head = m.lzssMarker ? 11 : 7;
    m.dataOffset = p + head;
    p += head + m.stored.length;
  }
  doc.byteLength = p + doc.trailer.length;
  const offs = doc.tags.find((t) => t.name === 'OFFS');
  if (offs) {
    const data = new Uint8Array(Math.max(64, offs.data.length));
    const dv = new DataView(data.buffer);
    doc.mips.forEach((m, i) => { if (i * 4 + 4 <= data.length) dv.setUint32(i * 4, m.offset, true); });
    offs.data = data;
  }
}
