/**
 * The two ways the importer makes a P3D: the document the editor's LOD replacement uses
 * (`modelToMlod`, encoded by the MLOD codec) and the bytes written straight from the model
 * (`modelToMlodBytes`, what `lodsmith import` writes). They must be the same file.
 */
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { encodableNames } from '../../shared/import/common.ts';
import { gltfToModel } from '../../shared/import/model.ts';
import { modelToMlod, modelToMlodBytes } from '../../shared/import/mlod.ts';
import { readGltf, type GltfInput } from '../../shared/import/read.ts';

async function model(input: GltfInput, views: boolean) {
  const budget = new MemoryBudget(1 << 30);
  const doc = await readGltf(input, budget, [], { views });
  return withBudget(budget, () => {
    const m = gltfToModel(doc, { allScenes: true, keepPoints: true });
    encodableNames(m, 'latin1');
    return m;
  });
}

/** Both P3D files of one glTF (each from a model of its own), and their warnings. */
export async function bothMlodPaths(input: GltfInput): Promise<{ viaDoc: Uint8Array; direct: Uint8Array; docWarnings: string[]; directWarnings: string[] }> {
  const a = modelToMlod(await model(input, false));
  const b = modelToMlodBytes(await model(input, true));
  return { viaDoc: encodeMlod(a.doc), direct: b.bytes, docWarnings: a.warnings, directWarnings: b.warnings };
}
