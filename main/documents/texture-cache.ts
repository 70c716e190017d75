/**
 * Texture files as images the renderer shows: PNG, JPEG and BMP pass through; PAA, DDS and TGA
 * are decoded (top mip, under the memory budget) and re-encoded as PNG. Cached by path, size and
 * modification time, so reopening a model or rebuilding its preview decodes nothing twice.
 */
import { readFile, stat } from 'node:fs/promises';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { decodeTexture, decodeTextureMip, probeTexture } from '../../shared/formats/texture/index.ts';
import { encodePng } from '../../shared/formats/texture/png.ts';

/** Largest texture file the preview reads. */
const MAX_FILE = 256 * 1024 * 1024;
/** Most decoded pictures kept. */
const MAX_ENTRIES = 64;

export class TexturePictureCache {
  private readonly entries = new Map<string, Promise<Uint8Array | null>>();

  /** Image bytes for a texture file, or null when it is not a texture that decodes. */
  file(abs: string): Promise<Uint8Array | null> {
    return stat(abs).then((st) => {
      if (!st.isFile() || st.size > MAX_FILE) return null;
      const key = `${abs}\u0000${st.size}\u0000${st.mtimeMs}`;
      let p = this.entries.get(key);
      if (!p) {
        p = readFile(abs).then((b) => this.browserImage(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), abs)).catch(() => null);
        this.entries.set(key, p);
        if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      }
      return p;
    });
  }

  /** The bytes themselves when a browser shows them, else the top mip as PNG (null when undecodable). */
  browserImage(bytes: Uint8Array, name: string): Uint8Array | null {
    const kind = probeTexture(bytes, name);
    if (kind === 'png' || kind === 'jpeg' || kind === 'bmp') return bytes;
    if (!kind) return null;
    try {
      return withBudget(MemoryBudget.forInput(bytes.length), () => encodePng(decodeTextureMip(decodeTexture(bytes, name), 0)));
    } catch {
      return null;
    }
  }
}
