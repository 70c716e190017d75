/**
 * The decoding memory budget of a texture. A model's budget follows its file size (64 MiB + 16 x
 * the size), but a texture's output does not: a 280 KB PAA of 4096x4096 with LZO mips decodes to
 * 64 MiB of RGBA, and a PNG of one colour compresses a thousandfold. What a texture may allocate
 * is bounded by the size its header declares instead, which the formats cap: every legitimate
 * texture up to {@link TEXTURE_BUDGET_SIDE} x {@link TEXTURE_BUDGET_SIDE} decodes, while a header
 * declaring more gets only the default budget, so its decode is refused before it allocates.
 *
 * The declared size is read from the header alone (PAA's and DDS's structure parse allocates
 * nothing large); no pixel is decoded to find it.
 */
import { BUDGET_BASE_BYTES, defaultBudgetBytes, MemoryBudget, withBudget } from '../../binary/budget.ts';
import { decodeDds } from './dds.ts';
import { decodePaa } from './paa.ts';
import type { TextureKind } from './index.ts';

/**
 * Largest side the budget grows for: 8192, the largest texture Arma's PAA tools and the other
 * formats' games use (and the issue's "8192x8192 RGBA"); the readers accept up to 32768 for damaged
 * files, but a larger declared size no longer earns a larger budget.
 */
export const TEXTURE_BUDGET_SIDE = 8192;

/**
 * Bytes per texel a decode of one kind may charge: the stored level decompressed (at most 4 a
 * texel), the RGBA picture (4), and the decoder's own working buffers (PNG's 12 a texel for its
 * filtered rows and 16-bit samples, JPEG's 8 for its component planes), with the smaller mips.
 */
const PER_TEXEL: Record<TextureKind, number> = { paa: 10, dds: 10, tga: 10, bmp: 10, png: 18, jpeg: 14 };

/** The width and height a texture's header declares, or undefined when the header does not say (or is damaged). */
export function declaredTextureSize(bytes: Uint8Array, kind: TextureKind | undefined): { width: number; height: number } | undefined {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fits = (n: number): boolean => bytes.length >= n;
  try {
    switch (kind) {
      case 'paa': {
        // The structure parse charges only tag records; a small budget of its own keeps it so.
        const m = withBudget(MemoryBudget.forInput(bytes.length), () => decodePaa(bytes)).mips[0]!;
        return { width: m.width, height: m.height };
      }
      case 'dds': {
        const d = withBudget(MemoryBudget.forInput(bytes.length), () => decodeDds(bytes)).mips[0];
        return d ? { width: d.width, height: d.height } : undefined;
      }
      case 'png': return fits(24) ? { width: dv.getUint32(16), height: dv.getUint32(20) } : undefined;
      case 'bmp': return fits(26) ? { width: Math.abs(dv.getInt32(18, true)), height: Math.abs(dv.getInt32(22, true)) } : undefined;
      case 'tga': return fits(18) ? { width: dv.getUint16(12, true), height: dv.getUint16(14, true) } : undefined;
      case 'jpeg': return jpegSize(bytes, dv);
      default: return undefined;
    }
  } catch {
    return undefined;
  }
}

/** Width and height from a JPEG's first start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array, dv: DataView): { width: number; height: number } | undefined {
  let p = 2;
  while (p + 9 <= bytes.length) {
    if (bytes[p] !== 0xff) return undefined;
    const marker = bytes[p + 1]!;
    if (marker === 0xff) { p++; continue; }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { p += 2; continue; }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: dv.getUint16(p + 7), height: dv.getUint16(p + 5) };
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    p += 2 + dv.getUint16(p + 2);
  }
  return undefined;
}

/**
 * The most decoding a texture of `kind` declared as `width` x `height` may allocate: the fixed
 * part of the default budget plus {@link PER_TEXEL} bytes a texel; 0 when the size is past
 * {@link TEXTURE_BUDGET_SIDE} on either side (such a header earns nothing beyond the default).
 */
export function textureDecodeBound(kind: TextureKind, width: number, height: number): number {
  if (!(width >= 1 && height >= 1 && width <= TEXTURE_BUDGET_SIDE && height <= TEXTURE_BUDGET_SIDE)) return 0;
  return BUDGET_BASE_BYTES + width * height * PER_TEXEL[kind];
}

/**
 * The budget to decode (and convert one mip of) the texture in `bytes` under: `maxMemory` when the
 * user set one (the CLI's --max-memory, the editor's Memory limit), else the larger of the default
 * for the file's size and the bound of its declared size.
 */
export function textureBudget(bytes: Uint8Array, kind: TextureKind | undefined, maxMemory?: number): MemoryBudget {
  if (maxMemory !== undefined) return new MemoryBudget(maxMemory);
  const size = declaredTextureSize(bytes, kind);
  const bound = size && kind ? textureDecodeBound(kind, size.width, size.height) : 0;
  return new MemoryBudget(Math.max(defaultBudgetBytes(bytes.length), bound));
}
