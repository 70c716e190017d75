/** Reading a texture file for the CLI: detection, decoding under the memory budget. */
import { basename } from 'node:path';
import { withBudget, type MemoryBudget } from '../../shared/binary/budget.ts';
import { textureBudget } from '../../shared/formats/texture/budget.ts';
import { decodeTexture, probeTexture, TEXTURE_EXTENSIONS, type TextureDocument, type TextureKind } from '../../shared/formats/texture/index.ts';
import { nodeInflate } from '../documents/png-inflate.ts';
import { CliFailure } from './fail.ts';
import { readInput } from './load.ts';

export interface LoadedTexture {
  file: string;
  bytes: Uint8Array;
  kind: TextureKind;
  doc: TextureDocument;
  /** The budget the file's decoding runs under (pictures of its mips are charged to it too). */
  budget: MemoryBudget;
}

/** True when the bytes (or, for TGA, the name) say texture. */
export function isTextureFile(bytes: Uint8Array, file: string): boolean {
  return probeTexture(bytes, basename(file)) !== undefined;
}

export async function loadTexture(file: string, cwd: string, maxMemory?: number): Promise<LoadedTexture> {
  const bytes = await readInput(file, cwd);
  return decodeTextureBytes(bytes, file, maxMemory);
}

/**
 * Decodes a texture under its budget: `maxMemory` (--max-memory) when given, else the bound of
 * the size its header declares (shared/formats/texture/budget.ts), never less than the default.
 */
export function decodeTextureBytes(bytes: Uint8Array, file: string, maxMemory?: number): LoadedTexture {
  const kind = probeTexture(bytes, basename(file));
  if (!kind) throw new CliFailure(`not a texture LodSmith reads (${TEXTURE_EXTENSIONS.join(', ')})`);
  const budget = textureBudget(bytes, kind, maxMemory);
  const doc = withBudget(budget, () => decodeTexture(bytes, basename(file), { inflate: nodeInflate }));
  return { file, bytes, kind, doc, budget };
}
