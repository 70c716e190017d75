/**
 * The two ways a glTF becomes a P3D: the importer as `lodsmith import` and "New from glTF" run it
 * (`importGltf`: accessors read as views of the input, the MLOD writer's document encoded by the
 * MLOD codec), and the same writer on a model read with copies, encoded here. There is one MLOD
 * writer (the codec's encoder), so they must be the same file with the same warnings.
 */
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import '../../shared/formats/index.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { modelToMlod } from '../../shared/formats/p3d/mlod/import.ts';
import { encodableNames } from '../../shared/import/common.ts';
import { importGltf } from '../../shared/import/index.ts';
import { gltfToModel } from '../../shared/import/model.ts';
import { readGltf, type GltfInput } from '../../shared/import/read.ts';

async function model(input: GltfInput) {
  const budget = new MemoryBudget(1 << 30);
  const doc = await readGltf(input, budget, [], { views: false });
  return withBudget(budget, () => {
    const m = gltfToModel(doc, { allScenes: true, keepPoints: true });
    encodableNames(m, 'latin1');
    return m;
  });
}

/** Both P3D files of one glTF (each from a model of its own), and their warnings. */
export async function bothMlodPaths(input: GltfInput): Promise<{ viaDoc: Uint8Array; direct: Uint8Array; docWarnings: string[]; directWarnings: string[] }> {
  const a = modelToMlod(await model(input));
  const b = await importGltf(input, 'p3d-mlod');
  return { viaDoc: encodeMlod(a.doc), direct: b.bytes, docWarnings: a.warnings, directWarnings: b.warnings };
}
