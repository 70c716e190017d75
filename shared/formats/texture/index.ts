/**
 * Textures: one entry point over the PAA/PAC, DDS, TGA codecs and the plain image files (PNG,
 * JPEG, BMP) that LODka embeds. Texture documents are not models, so they have their own small
 * registry instead of the model FormatCodec one: probe, decode, the picture of each mip, info,
 * validate and (for PAA) lossless encode.
 */
import { DecodeError } from '../../errors.ts';
import type { Problem } from '../../model/problems.ts';
import { decodeBmp, probeBmp } from './bmp.ts';
import { decodeDds, decodeDdsMip, probeDds, type DdsDocument } from './dds.ts';
import { checkSize, type RgbaImage } from './image.ts';
import { decodeJpeg, probeJpeg } from './jpeg.ts';
import { decodePaa, decodePaaMip, encodePaa, mipPixels, paaInfo, probePaa, validatePaa, type PaaDocument } from './paa.ts';
import { decodePng, probePng, type PngDecodeOptions } from './png.ts';
import { decodeTga, decodeTgaImage, probeTga, type TgaDocument } from './tga.ts';

export type { RgbaImage } from './image.ts';
export type TextureKind = 'paa' | 'dds' | 'tga' | 'png' | 'jpeg' | 'bmp';

/** A plain image file: decoded whole, written back as its bytes. */
export interface ImageDocument {
  kind: 'png' | 'jpeg' | 'bmp';
  image: RgbaImage;
  bytes: Uint8Array;
}

export type TextureDocument = PaaDocument | DdsDocument | TgaDocument | ImageDocument;

import { extensionOf } from './extensions.ts';

export { extensionOf, GAME_TEXTURE_EXTENSIONS, isTextureName, TEXTURE_EXTENSIONS } from './extensions.ts';

/**
 * What the bytes are, by magic first (PNG, JPEG, BMP, DDS, PAA), then by the name's extension for
 * TGA (no magic) and PAA (whose type word is only two bytes).
 */
export function probeTexture(bytes: Uint8Array, name = ''): TextureKind | undefined {
  if (probePng(bytes)) return 'png';
  if (probeJpeg(bytes)) return 'jpeg';
  if (probeDds(bytes)) return 'dds';
  if (probeBmp(bytes) && !['.paa', '.pac', '.tga'].includes(extensionOf(name))) return 'bmp';
  const ext = extensionOf(name);
  if (ext === '.tga' && probeTga(bytes)) return 'tga';
  if (probePaa(bytes)) return 'paa';
  if (probeTga(bytes)) return 'tga';
  return undefined;
}

/** `opts.inflate`: a faster zlib inflater for PNG pictures (main passes Node's). */
export function decodeTexture(bytes: Uint8Array, name = '', opts: PngDecodeOptions = {}): TextureDocument {
  const kind = probeTexture(bytes, name);
  switch (kind) {
    case 'paa': return decodePaa(bytes);
    case 'dds': return decodeDds(bytes);
    case 'tga': return decodeTga(bytes);
    case 'png': return { kind, image: decodePng(bytes, opts), bytes };
    case 'jpeg': return { kind, image: decodeJpeg(bytes), bytes };
    case 'bmp': return { kind, image: decodeBmp(bytes), bytes };
    default: throw new DecodeError('not a texture this tool reads (PAA/PAC, DDS/EDDS, TGA, PNG, JPEG or BMP)', 0, '');
  }
}

export function textureMipCount(doc: TextureDocument): number {
  return doc.kind === 'paa' || doc.kind === 'dds' ? doc.mips.length : 1;
}

export function textureSize(doc: TextureDocument, mip = 0): { width: number; height: number } {
  switch (doc.kind) {
    case 'paa': case 'dds': { const m = doc.mips[mip] ?? doc.mips[0]!; return { width: m.width, height: m.height }; }
    case 'tga': return { width: doc.width, height: doc.height };
    default: return { width: doc.image.width, height: doc.image.height };
  }
}

/** The RGBA picture of one mip level (0 = the largest). */
export function decodeTextureMip(doc: TextureDocument, mip = 0): RgbaImage {
  switch (doc.kind) {
    case 'paa': return decodePaaMip(doc, mip);
    case 'dds': return decodeDdsMip(doc, mip);
    case 'tga': if (mip !== 0) throw new DecodeError('a TGA has one level', 0, `mips[${mip}]`); return decodeTgaImage(doc);
    default: if (mip !== 0) throw new DecodeError(`a ${doc.kind.toUpperCase()} has one level`, 0, `mips[${mip}]`); return doc.image;
  }
}

/** Writes the document back; untouched documents come back byte for byte. */
export function encodeTexture(doc: TextureDocument): Uint8Array {
  if (doc.kind === 'dds' && doc.edds) return doc.edds.source;
  return doc.kind === 'paa' ? encodePaa(doc) : doc.bytes;
}

export const TEXTURE_LABEL: Record<TextureKind, string> = {
  paa: 'Arma PAA/PAC texture', dds: 'DirectDraw Surface texture', tga: 'TGA image', png: 'PNG image', jpeg: 'JPEG image', bmp: 'BMP image',
};

/** What `lodsmith info --json` prints for a texture. */
export interface TextureInfo {
  format: 'texture';
  kind: TextureKind;
  label: string;
  /** Pixel type: `DXT5`, `ARGB4444`, `RGB24`, `TGA type 10 (RLE) 24-bit`... */
  type: string;
  width: number;
  height: number;
  bytes: number;
  mips: { width: number; height: number; compression?: string; bytes?: number; offset?: number }[];
  tags?: Record<string, unknown>;
  notes: string[];
  [extra: string]: unknown;
}

export function textureInfo(doc: TextureDocument, byteLength: number): TextureInfo {
  const { width, height } = textureSize(doc);
  const base = { format: 'texture' as const, kind: doc.kind, label: TEXTURE_LABEL[doc.kind], width, height, bytes: byteLength, notes: [] as string[] };
  switch (doc.kind) {
    case 'paa': {
      const i = paaInfo(doc);
      if (i.tags.SWIZ) base.notes.push('channels are swizzled (SWIZ tag): pictures show them as stored');
      return { ...base, type: i.type, mips: i.mips, tags: i.tags, paletteColours: i.paletteColours };
    }
    case 'dds': {
      if (doc.edds) {
        const blocks = doc.edds.blocks;
        const mips = doc.mips.map((m, i) => {
          const b = blocks.find((x) => x.level === i)!;
          return { width: m.width, height: m.height, compression: b.tag === 'COPY' ? 'COPY' : 'LZ4', bytes: b.size, offset: b.offset };
        });
        return { ...base, label: 'DayZ EDDS texture', type: doc.format, container: 'EDDS', mips };
      }
      return { ...base, type: doc.format, mips: doc.mips.map((m) => ({ width: m.width, height: m.height, bytes: m.size, offset: m.offset })), ...(doc.cube ? { notes: ['cube map: the first face is shown'] } : {}) };
    }
    case 'tga':
      return { ...base, type: `TGA type ${doc.imageType}${doc.rle ? ' (RLE)' : ''} ${doc.bitsPerPixel}-bit, ${doc.topDown ? 'top' : 'bottom'}-left origin`, mips: [{ width, height }] };
    default:
      return { ...base, type: doc.kind.toUpperCase(), mips: [{ width, height }] };
  }
}

/**
 * Structural findings plus a decode of every mip (what `lodsmith check` needs to say a texture
 * is whole): a mip that does not decode becomes an error naming it.
 */
export interface ValidateTextureOptions {
  /**
   * Convert every mip to RGBA (default true). With false, each mip's stored data is checked as
   * the conversion would first check it (PAA: decompressed to its exact size; TGA: decoded, since
   * its RLE can fail; every level's size), but DXT blocks and packed pixels are not turned into
   * pictures: for data of the right size that conversion cannot fail, and it was a quarter of
   * `lodsmith check`'s CPU time on the corpus (an RGBA picture of a 2048x2048 mip is 16 MB of new
   * memory). The one report it leaves out is a picture too large for the memory budget, which
   * says nothing about the file.
   */
  pixels?: boolean;
}

export function validateTexture(doc: TextureDocument, opts: ValidateTextureOptions = {}): Problem[] {
  const problems: Problem[] = doc.kind === 'paa' ? validatePaa(doc) : [];
  const n = textureMipCount(doc);
  const check = opts.pixels === false ? checkMipData : decodeTextureMip;
  for (let i = 0; i < n; i++) {
    try {
      check(doc, i);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      problems.push({ severity: 'error', message: e.detail, where: e.path || `mips[${i}]`, offset: e.offset });
    }
  }
  return problems;
}

/** What {@link decodeTextureMip} checks of one level before it converts pixels (see validateTexture). */
function checkMipData(doc: TextureDocument, mip: number): void {
  switch (doc.kind) {
    case 'paa': {
      const m = doc.mips[mip]!;
      checkSize(m.width, m.height, m.offset, `mips[${mip}]`);
      mipPixels(doc, mip);
      return;
    }
    case 'dds': {
      // Every level's place and size in the file were checked when it was read.
      const m = doc.mips[mip]!;
      checkSize(m.width, m.height, m.offset, `mips[${mip}]`);
      return;
    }
    case 'tga':
      decodeTgaImage(doc);
      return;
    default:
      // PNG, JPEG and BMP were decoded whole when read.
      return;
  }
}
