/**
 * glTF import: `.gltf` / `.glb` -> a document of any format whose codec declares an import writer
 * (`gltf` in capabilities.ts), encoded by that format's own codec. `read.ts` reads (glTF
 * Transform, bounded by the decoding memory budget), `model.ts` builds the neutral model, and the
 * format's folder (`import.ts`) builds the document. Nothing here names a format.
 */
import type { Document } from '@gltf-transform/core';
import { MemoryBudget, withBudget } from '../binary/budget.ts';
import { FORMAT_CATALOG } from '../formats/catalog.ts';
import type { GltfImporter } from '../formats/capabilities.ts';
import { formatById, type FormatCodec, type FormatId } from '../formats/registry.ts';
import { encodableNames, type WriterOptions } from './common.ts';
import { ImportError } from './errors.ts';
import { gltfToModel, type ImportModel } from './model.ts';
import { readGltf, type GltfInput } from './read.ts';

export { ImportError, isImportError } from './errors.ts';
export { externalUris, type GltfInput } from './read.ts';
export type { WriterOptions } from './common.ts';
export { replaceMeshCommand } from './replace.ts';

export interface ImportResult {
  format: FormatId;
  /** The encoded file (the editor opens it from these bytes, as any file). */
  bytes: Uint8Array;
  warnings: string[];
}

/** A format an import can write: its codec, and the extension and label it is offered under. */
export interface ImportTarget {
  format: FormatId;
  extension: string;
  label: string;
}

/** The import targets among the given codecs (the registered ones by default), in their order. */
export function importTargetsOf(codecs: readonly FormatCodec[]): ImportTarget[] {
  return codecs.flatMap((c) => (c.gltf ? [{ format: c.id, extension: c.gltf.extension, label: c.gltf.label }] : []));
}

/**
 * Every import target, loading the codecs of the catalog (the CLI, which loads codecs only when
 * it needs them).
 */
export async function loadImportTargets(): Promise<ImportTarget[]> {
  const codecs: FormatCodec[] = [];
  for (const entry of FORMAT_CATALOG) codecs.push(await entry.load());
  return importTargetsOf(codecs);
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

/** The import writer of a registered format, or an ImportError saying the format has none. */
export async function importerOf(codec: FormatCodec): Promise<GltfImporter> {
  if (!codec.gltf) throw new ImportError(`LodSmith cannot write ${codec.label} files from glTF`, '');
  return codec.gltf.load();
}

/**
 * glTF -> encoded file of `format` (a registered format id). `budget` bounds what reading and
 * converting allocate (default: the decoding budget for the input's size).
 */
export async function importGltf(input: GltfInput, format: FormatId, opts: WriterOptions = {}, budget?: MemoryBudget): Promise<ImportResult> {
  const codec = formatById(format);
  const importer = await importerOf(codec);
  const size = input.kind === 'glb' ? input.bytes.length : input.text.length + Object.values(input.resources).reduce((s, b) => s + b.length, 0);
  const b = budget ?? MemoryBudget.forInput(size);
  const readWarnings: string[] = [];
  // Accessors are read as views of the input's bytes where they can be (no copies; the model and
  // writers only read them): what a large import holds is then the input, the document and the output.
  const holder: { document?: Document } = { document: await readGltf(input, b, readWarnings, { views: true }) };
  return withBudget(b, () => {
    // The model holds what it needs: glTF Transform's document can go before the writer
    // allocates, and the model (out of scope below) before the encoder does: peak memory of large imports.
    const written = ((): { doc: object; warnings: string[] } => {
      const model = gltfToModel(holder.document!, importer.modelOptions ?? {});
      delete holder.document;
      model.warnings.unshift(...readWarnings);
      encodableNames(model, importer.nameEncoding);
      return importer.write(model, opts);
    })();
    return { format, bytes: codec.encode(written.doc), warnings: written.warnings };
  });
}
