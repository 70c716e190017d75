/**
 * Texture files on their own (the texture view): facts and one mip as PNG, replacing a texture
 * from a PNG, and undoing the last replaces of a few files.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { TextureView } from '../../shared/ipc/contract.ts';
import { BUDGET_FACTOR, defaultBudgetBytes, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { textureBudget } from '../../shared/formats/texture/budget.ts';
import { decodeTexture, decodeTextureMip, isTextureName, probeTexture, textureInfo, textureMipCount } from '../../shared/formats/texture/index.ts';
import { createPaa, encodePaa, type PaaWriteFormat } from '../../shared/formats/texture/paa.ts';
import { decodeDds } from '../../shared/formats/texture/dds.ts';
import { decodeTga } from '../../shared/formats/texture/tga.ts';
import { replaceDds, replaceTga } from '../../shared/formats/texture/rewrite.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
import { nodeInflate } from './png-inflate.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import { atomicWriteFile } from './atomic-save.ts';
import type { DocumentStore } from './doc-store.ts';

export class TextureFiles {
  private readonly s: DocumentStore;

  constructor(s: DocumentStore) {
    this.s = s;
  }

  /**
   * A texture file on its own: info and one mip as PNG (the texture view). `maxMemory` is the
   * editor's Memory limit, which the view's error banner points to (default: the texture's own
   * budget, bounded by its declared size: shared/formats/texture/budget.ts).
   */
  async readTexture(userPath: string, mip: number, maxMemory?: number): Promise<TextureView> {
    const abs = await this.s.paths.resolve(userPath, 'read');
    if (!isTextureName(abs)) fail('invalid', `${basename(abs)} is not a texture (.paa, .pac, .dds, .tga)`);
    const st = await stat(abs);
    if (st.size > (this.s.opts.maxFileBytes ?? 1024 ** 3)) fail('invalid', `${basename(abs)} is too large`);
    const bytes = new Uint8Array(await readFile(abs));
    const v = this.textureView(abs, bytes, mip, maxMemory);
    return this.textureUndo.get(abs)?.length ? { ...v, undo: `Replace ${basename(abs)} from PNG` } : v;
  }

  private textureView(abs: string, bytes: Uint8Array, mip: number, maxMemory?: number): TextureView {
    try {
      return withBudget(textureBudget(bytes, probeTexture(bytes, basename(abs)), maxMemory), () => {
        const doc = decodeTexture(bytes, basename(abs), { inflate: nodeInflate });
        const info = textureInfo(doc, bytes.length);
        const m = Math.min(mip, textureMipCount(doc) - 1);
        return {
          path: this.s.paths.display(abs), fileName: basename(abs), mip: m, png: encodePng(decodeTextureMip(doc, m), { fast: true }),
          info: { kind: info.kind, type: info.type, width: info.width, height: info.height, bytes: info.bytes, mips: info.mips, tags: info.tags ?? {}, notes: info.notes },
        };
      });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'decode', message: `Could not read ${basename(abs)}: ${toAppError(e).message}` });
    }
  }

  /** The bytes each replaced texture file had, newest last (undo of "Replace from PNG"). */
  private readonly textureUndo = new Map<string, { before: Uint8Array; after: Uint8Array }[]>();

  /**
   * Replaces a texture file with one made from a PNG, written atomically: PAA/PAC as a new PAA
   * (`format` or DXT1/DXT5 by alpha), DDS and TGA in the original's own format (rewrite.ts). The
   * bytes the file had are kept so the replace can be undone (one step per replace).
   */
  async replaceTexture(userPath: string, png: Uint8Array, format?: PaaWriteFormat, maxMemory?: number): Promise<TextureView> {
    const abs = await this.s.paths.resolve(userPath, 'write');
    const ext = extname(abs).toLowerCase();
    if (!['.paa', '.pac', '.dds', '.tga'].includes(ext)) fail('invalid', 'only .paa, .pac, .dds and .tga textures can be replaced from a PNG');
    let before: Uint8Array;
    try {
      if ((await stat(abs)).size > (this.s.opts.maxFileBytes ?? 1024 ** 3)) fail('invalid', `${basename(abs)} is too large`);
      before = new Uint8Array(await readFile(abs));
    } catch (e) {
      throw new AppErrorException(toAppError(e, this.s.paths.display(abs)));
    }
    let out: Uint8Array;
    try {
      // The PNG's declared size bounds the work, as for any texture; the Memory limit when set.
      const budget = maxMemory !== undefined
        ? new MemoryBudget(maxMemory)
        : new MemoryBudget(Math.max(defaultBudgetBytes(png.length + before.length), textureBudget(png, 'png').limit + before.length * BUDGET_FACTOR));
      out = withBudget(budget, () => {
        const img = decodePng(png, { inflate: nodeInflate });
        if (ext === '.dds') return replaceDds(decodeDds(before), img);
        if (ext === '.tga') return replaceTga(decodeTga(before), img);
        return encodePaa(createPaa(img, format ? { format } : {}));
      });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'decode', message: `Could not replace ${basename(abs)} from that PNG: ${toAppError(e).message}` });
    }
    await atomicWriteFile(abs, out, { io: this.s.opts.io });
    const stack = this.textureUndo.get(abs) ?? [];
    stack.push({ before, after: out });
    // A few steps per file, and a few files: the bytes of big textures are held in memory.
    if (stack.length > 4) stack.shift();
    this.textureUndo.delete(abs);
    this.textureUndo.set(abs, stack);
    if (this.textureUndo.size > 8) this.textureUndo.delete(this.textureUndo.keys().next().value!);
    return this.textureViewWithUndo(abs, out, maxMemory);
  }

  /** Writes back the bytes a texture file had before its last replace, if it still holds what that replace wrote. */
  async undoTextureReplace(userPath: string, maxMemory?: number): Promise<TextureView> {
    const abs = await this.s.paths.resolve(userPath, 'write');
    const stack = this.textureUndo.get(abs);
    const top = stack?.[stack.length - 1];
    if (!stack || !top) fail('invalid', `${basename(abs)} has no replace to undo`);
    let now: Uint8Array;
    try {
      now = new Uint8Array(await readFile(abs));
    } catch (e) {
      throw new AppErrorException(toAppError(e, this.s.paths.display(abs)));
    }
    if (!Buffer.from(now).equals(Buffer.from(top.after))) {
      this.textureUndo.delete(abs);
      fail('conflict', `${basename(abs)} changed on disk since it was replaced; nothing was undone`);
    }
    await atomicWriteFile(abs, top.before, { io: this.s.opts.io });
    stack.pop();
    if (!stack.length) this.textureUndo.delete(abs);
    return this.textureViewWithUndo(abs, top.before, maxMemory);
  }

  private textureViewWithUndo(abs: string, bytes: Uint8Array, maxMemory?: number): TextureView {
    const v = this.textureView(abs, bytes, 0, maxMemory);
    return this.textureUndo.get(abs)?.length ? { ...v, undo: `Replace ${basename(abs)} from PNG` } : v;
  }
}
