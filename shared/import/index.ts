/**
 * glTF import: `.gltf` / `.glb` -> a document of any writable format, encoded by that format's
 * own codec. `read.ts` reads (glTF Transform, bounded by the decoding memory budget), `model.ts`
 * builds the neutral model, one writer per format builds the document.
 */
import type { Document } from '@gltf-transform/core';
import { MemoryBudget, withBudget } from '../binary/budget.ts';
import { formatById, type FormatId } from '../formats/registry.ts';
import { encodableNames, type WriterOptions } from './common.ts';
import { ImportError } from './errors.ts';
import { modelToGrimrock, modelToGrimrockAnimation } from './grimrock.ts';
import { modelToLodka } from './lodka.ts';
import { modelToMlod, modelToMlodBytes } from './mlod.ts';
import { gltfToModel, type ImportModel } from './model.ts';
import { readGltf, type GltfInput } from './read.ts';
import { modelToUnigineAnim, modelToUnigineMesh } from './unigine.ts';
import { modelToRtm } from '../formats/p3d/rtm/import.ts';

export { ImportError, isImportError } from './errors.ts';
export { externalUris, type GltfInput } from './read.ts';
export type { WriterOptions } from './common.ts';
export { replaceMeshCommand } from './replace.ts';

/** Output extension -> the format an import writes. */
export const IMPORT_TARGETS: Readonly<Record<string, FormatId>> = {
  '.lod': 'lodka-lod',
  '.p3d': 'p3d-mlod',
  '.model': 'grimrock-model',
  '.animation': 'grimrock-animation',
  '.mesh': 'unigine-mesh',
  '.anim': 'unigine-anim',
  '.rtm': 'p3d-rtm',
};

export interface ImportResult {
  format: FormatId;
  /** The encoded file (the editor opens it from these bytes, as any file). */
  bytes: Uint8Array;
  warnings: string[];
}

/** Reads glTF bytes into the neutral model (for edits such as replacing one mesh). */
export async function readModel(input: GltfInput, budget?: MemoryBudget): Promise<ImportModel> {
  const size = input.kind === 'glb' ? input.bytes.length : input.text.length;
  const b = budget ?? MemoryBudget.forInput(size);
  const readWarnings: string[] = [];
  const document = await readGltf(input, b, readWarnings);
  return withBudget(b, () => {
    const model = gltfToModel(document);
    model.warnings.unshift(...readWarnings);
    return model;
  });
}

/** A `.glb` or a self-contained `.gltf` (embedded data) from its bytes, told apart by the GLB magic. */
export function gltfInputOf(bytes: Uint8Array): GltfInput {
  const glb = bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
  return glb ? { kind: 'glb', bytes } : { kind: 'gltf', text: bytes, resources: {} };
}

/** Builds the document for `format` from an already-read model. */
export function writeModel(model: ImportModel, format: FormatId, opts: WriterOptions = {}): { doc: object; warnings: string[] } {
  encodableNames(model, format === 'lodka-lod' ? 'cp1251' : 'latin1');
  switch (format) {
    case 'lodka-lod': return modelToLodka(model, opts);
    case 'p3d-mlod': return modelToMlod(model, opts);
    case 'grimrock-model': return modelToGrimrock(model, opts);
    case 'grimrock-animation': return modelToGrimrockAnimation(model, opts);
    case 'unigine-mesh': return modelToUnigineMesh(model, opts);
    case 'unigine-anim': return modelToUnigineAnim(model, opts);
    case 'p3d-rtm': return modelToRtm(model, opts);
    default: throw new ImportError(`LodSmith cannot write ${format} files`, '');
  }
}

/**
 * glTF -> encoded file of `format`. `budget` bounds what reading and converting allocate
 * (default: the decoding budget for the input's size).
 */
export async function importGltf(input: GltfInput, format: FormatId, opts: WriterOptions = {}, budget?: MemoryBudget): Promise<ImportResult> {
  const size = input.kind === 'glb' ? input.bytes.length : input.text.length + Object.values(input.resources).reduce((s, b) => s + b.length, 0);
  const b = budget ?? MemoryBudget.forInput(size);
  const readWarnings: string[] = [];
  // Accessors are read as views of the input's bytes where they can be (no copies; the model and
  // writers only read them): what a large import holds is then the input, the document and the output.
  const holder: { document?: Document } = { document: await readGltf(input, b, readWarnings, { views: true }) };
  return withBudget(b, () => {
    // The model holds what it needs: glTF Transform's document can go before the writer
    // allocates, and the model (out of scope below) before the encoder does: peak memory of large imports.
    const written = ((): { doc: object; warnings: string[] } | { bytes: Uint8Array; warnings: string[] } => {
      const model = gltfToModel(holder.document!, { allScenes: format === 'p3d-mlod', keepPoints: format === 'p3d-mlod' });
      delete holder.document;
      model.warnings.unshift(...readWarnings);
      if (format === 'p3d-mlod') {
        // Written straight to bytes: a P3D's face columns are larger than the file itself.
        encodableNames(model, 'latin1');
        return modelToMlodBytes(model, opts);
      }
      return writeModel(model, format, opts);
    })();
    const bytes = 'bytes' in written ? written.bytes : formatById(format).encode(written.doc);
    return { format, bytes, warnings: written.warnings };
  });
}
