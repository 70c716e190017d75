/**
 * Texture files as images the renderer shows: PNG, JPEG and BMP pass through; DXT PAA and DDS
 * go as their own block data and mips (shared/formats/texture/transfer.ts), for the GPU to
 * decode; the other PAA, DDS and TGA types are decoded (top mip, under the memory budget) and
 * re-encoded as PNG. Cached by path, size and
 * modification time, so reopening a model or rebuilding its preview decodes nothing twice.
 */
import { readFile, stat } from 'node:fs/promises';
import { withBudget } from '../../shared/binary/budget.ts';
import { textureBudget } from '../../shared/formats/texture/budget.ts';
import { decodeTexture, decodeTextureMip, probeTexture } from '../../shared/formats/texture/index.ts';
import { encodePng } from '../../shared/formats/texture/png.ts';
import { decodeDds } from '../../shared/formats/texture/dds.ts';
import { decodePaa, findTag, mipPixels } from '../../shared/formats/texture/paa.ts';
import { ALPHA_KEYWORD, flagAlpha, packBlockTexture, type BlockTexture } from '../../shared/formats/texture/transfer.ts';

const PAA_BLOCKS: Record<string, BlockTexture['format']> = { dxt1: 'bc1', dxt2: 'bc2', dxt3: 'bc2', dxt4: 'bc3', dxt5: 'bc3' };

/**
 * A DXT texture's levels as stored (LZO undone), for the GPU to decode; undefined for other
 * types. Levels are kept while each is half the one before.
 */
function blockLevels(bytes: Uint8Array, name: string): BlockTexture | undefined {
  const kind = probeTexture(bytes, name);
  if (kind === 'paa') {
    const doc = decodePaa(bytes);
    const format = PAA_BLOCKS[doc.type];
    if (!format) return undefined;
    const top = doc.mips[0]!;
    const levels: Uint8Array[] = [];
    for (let i = 0; i < doc.mips.length; i++) {
      const m = doc.mips[i]!;
      if (m.width !== Math.max(1, top.width >> i) || m.height !== Math.max(1, top.height >> i)) break;
      levels.push(mipPixels(doc, i));
    }
    // FLAG: 1 = alpha blended, 2 = alpha tested (cut-out), as the game reads it.
    const alpha = flagAlpha(findTag(doc, 'FLAG')?.data[0]);
    return { format, width: top.width, height: top.height, levels, ...(alpha ? { alpha } : {}) };
  }
  if (kind === 'dds') {
    const doc = decodeDds(bytes);
    if (doc.decode.kind !== 'block' || (doc.decode.block !== 'bc1' && doc.decode.block !== 'bc2' && doc.decode.block !== 'bc3')) return undefined;
    const top = doc.mips[0]!;
    return { format: doc.decode.block, width: top.width, height: top.height, levels: doc.mips.map((m) => doc.bytes.subarray(m.offset, m.offset + m.size)) };
  }
  return undefined;
}

/** Largest texture file the preview reads. */
const MAX_FILE = 256 * 1024 * 1024;
/** Most decoded pictures kept. */
const MAX_ENTRIES = 64;

export class TexturePictureCache {
  private readonly entries = new Map<string, Promise<Uint8Array | null>>();

  /**
   * Image bytes for a texture file, or null when it is not a texture that decodes. `maxMemory`
   * is the document's Memory limit (default: the texture's own budget, shared/formats/texture/budget.ts).
   */
  file(abs: string, maxMemory?: number): Promise<Uint8Array | null> {
    return stat(abs).then((st) => {
      if (!st.isFile() || st.size > MAX_FILE) return null;
      const key = `${abs}\u0000${st.size}\u0000${st.mtimeMs}\u0000${maxMemory ?? ''}`;
      let p = this.entries.get(key);
      if (!p) {
        p = readFile(abs).then((b) => this.browserImage(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), abs, maxMemory)).catch(() => null);
        this.entries.set(key, p);
        if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      }
      return p;
    });
  }

  /** The bytes themselves when a browser shows them, DXT blocks, else the top mip as PNG (null when undecodable). */
  browserImage(bytes: Uint8Array, name: string, maxMemory?: number): Uint8Array | null {
    const kind = probeTexture(bytes, name);
    // Pictures the browser reads, and anything unrecognised (the browser has the last word on
    // those), go as they are.
    if (!kind || kind === 'png' || kind === 'jpeg' || kind === 'bmp') return bytes;
    try {
      const blocks = withBudget(textureBudget(bytes, kind, maxMemory), () => blockLevels(bytes, name));
      if (blocks) return packBlockTexture(blocks);
    } catch {
      return null;
    }
    try {
      return withBudget(textureBudget(bytes, kind, maxMemory), () => {
        const doc = decodeTexture(bytes, name);
        // The PAA's word on its alpha crosses with the picture, as it does with DXT blocks.
        const alpha = doc.kind === 'paa' ? flagAlpha(findTag(doc, 'FLAG')?.data[0]) : undefined;
        return encodePng(decodeTextureMip(doc, 0), { fast: true, ...(alpha ? { text: { [ALPHA_KEYWORD]: alpha } } : {}) });
      });
    } catch {
      return null;
    }
  }
}
