/**
 * How a DXT texture crosses from main to the renderer without being decoded: the file's own
 * block data, level by level, in a small container the viewport uploads as a compressed texture
 * (the GPU decodes it; the file's mips are the ones drawn). Other textures cross as PNG.
 *
 * Layout (little-endian): "LSTX", u8 format (1 = BC1, 2 = BC2, 3 = BC3), u8 levels, u8 alpha
 * (what the file says of its alpha: 0 nothing, 1 blended, 2 cut-out; a PAA's FLAG tag), u8 0,
 * u32 width, u32 height, then per level u32 byte length + the blocks. Rows are stored top first,
 * as in the file.
 *
 * Textures that cross as PNG (the other PAA types) carry the same word about their alpha in a
 * `tEXt` chunk whose keyword is {@link ALPHA_KEYWORD} and whose text is `blend` or `test`.
 */
import { DecodeError } from '../../errors.ts';
import { blockDataSize, type BlockFormat } from './dxt.ts';

export interface BlockTexture {
  format: 'bc1' | 'bc2' | 'bc3';
  width: number;
  height: number;
  /** Largest first; each level half the one before (at least 1). */
  levels: Uint8Array[];
  /** How the file says its alpha is drawn (a PAA's FLAG tag); absent when it says nothing. */
  alpha?: 'blend' | 'test';
}

const MAGIC = [0x4c, 0x53, 0x54, 0x58];
const CODE: Record<BlockTexture['format'], number> = { bc1: 1, bc2: 2, bc3: 3 };
const FORMAT = ['', 'bc1', 'bc2', 'bc3'] as const;

export function isBlockTexture(bytes: Uint8Array): boolean {
  return bytes.length >= 16 && MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Packs levels, completing the chain down to 1x1 (GPUs want every level; a PAA stops at 4x4):
 * levels below one block reuse the smallest block, which is what they would average to anyway.
 */
export function packBlockTexture(t: BlockTexture): Uint8Array {
  const levels = [...t.levels];
  let w = Math.max(1, t.width >> (levels.length - 1));
  let h = Math.max(1, t.height >> (levels.length - 1));
  const last = levels[levels.length - 1]!;
  const bb = t.format === 'bc1' ? 8 : 16;
  while (w > 1 || h > 1) {
    w = Math.max(1, w >> 1);
    h = Math.max(1, h >> 1);
    const n = blockDataSize(t.format as BlockFormat, w, h);
    const lvl = new Uint8Array(n);
    for (let o = 0; o < n; o += bb) lvl.set(last.subarray(0, bb), o);
    levels.push(lvl);
  }
  const size = 16 + levels.reduce((a, l) => a + 4 + l.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(MAGIC);
  out[4] = CODE[t.format];
  out[5] = levels.length;
  out[6] = t.alpha === 'blend' ? 1 : t.alpha === 'test' ? 2 : 0;
  dv.setUint32(8, t.width, true);
  dv.setUint32(12, t.height, true);
  let p = 16;
  for (const l of levels) {
    dv.setUint32(p, l.length, true);
    out.set(l, p + 4);
    p += 4 + l.length;
  }
  return out;
}

export function unpackBlockTexture(bytes: Uint8Array): BlockTexture {
  if (!isBlockTexture(bytes)) throw new DecodeError('not a packed block texture', 0, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = FORMAT[bytes[4]!];
  if (!format) throw new DecodeError(`block format ${bytes[4]} is not 1..3`, 4, 'format');
  const count = bytes[5]!;
  const width = dv.getUint32(8, true);
  const height = dv.getUint32(12, true);
  const levels: Uint8Array[] = [];
  let p = 16;
  for (let i = 0; i < count; i++) {
    if (p + 4 > bytes.length) throw new DecodeError(`level ${i} is missing`, p, `levels[${i}]`);
    const n = dv.getUint32(p, true);
    const w = Math.max(1, width >> i);
    const h = Math.max(1, height >> i);
    if (n !== blockDataSize(format, w, h) || p + 4 + n > bytes.length) throw new DecodeError(`level ${i} (${w}x${h}) has ${n} bytes`, p, `levels[${i}]`);
    levels.push(bytes.subarray(p + 4, p + 4 + n));
    p += 4 + n;
  }
  const alpha = bytes[6] === 1 ? 'blend' as const : bytes[6] === 2 ? 'test' as const : undefined;
  return { format, width, height, levels, ...(alpha ? { alpha } : {}) };
}

/** The PNG `tEXt` keyword that says how a converted texture's alpha is drawn (a PAA's FLAG tag). */
export const ALPHA_KEYWORD = 'LodSmith alpha';

/** What a PAA's FLAG tag says of its alpha: 1 blended, 2 cut-out (as the game reads it). */
export function flagAlpha(flag: number | undefined): BlockTexture['alpha'] {
  return flag === 1 ? 'blend' : flag === 2 ? 'test' : undefined;
}

/**
 * The alpha word of a PNG written with {@link ALPHA_KEYWORD}, undefined when there is none (or
 * the bytes are not a PNG). Hops from chunk header to chunk header (tEXt may come after the
 * image data), bounded by the bytes.
 */
export function pngAlphaNote(bytes: Uint8Array): BlockTexture['alpha'] {
  if (bytes.length < 8 || bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return undefined;
  const key = ALPHA_KEYWORD;
  let at = 8;
  while (at + 12 <= bytes.length) {
    const len = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    if (type === 'IEND' || len > bytes.length - at - 12) return undefined;
    if (type === 'tEXt' && (len === key.length + 1 + 4 || len === key.length + 1 + 5)) {
      const data = bytes.subarray(at + 8, at + 8 + len);
      let matches = data[key.length] === 0;
      for (let i = 0; matches && i < key.length; i++) matches = data[i] === key.charCodeAt(i);
      if (matches) {
        const word = String.fromCharCode(...data.subarray(key.length + 1));
        if (word === 'blend' || word === 'test') return word;
      }
    }
    at += 12 + len;
  }
  return undefined;
}
