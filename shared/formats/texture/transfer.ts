/**
 * How a DXT texture crosses from main to the renderer without being decoded: the file's own
 * block data, level by level, in a small container the viewport uploads as a compressed texture
 * (the GPU decodes it; the file's mips are the ones drawn). Other textures cross as PNG.
 *
 * Layout (little-endian): "LSTX", u8 format (1 = BC1, 2 = BC2, 3 = BC3), u8 levels, u8 alpha
 * (what the file says of its alpha: 0 nothing, 1 blended, 2 cut-out; a PAA's FLAG tag), u8 0,
 * u32 width, u32 height, then per level u32 byte length + the blocks. Rows are stored top first,
 * as in the file.
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
