/**
 * Third-party glTF: the Khronos-style samples of the corpus (static, textured, skinned, animated)
 * import into every format that can hold them; each result converts back to a glTF that the
 * Khronos validator accepts with no errors, drawing the source's triangles inside its bounds.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { sceneToGltf, writeGlb } from '../../shared/export/gltf.ts';
import { formatById, type FormatId } from '../../shared/formats/registry.ts';
import { importGltf, type GltfInput } from '../../shared/import/index.ts';
import { corpusDir, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectSameStats, gltfStats, readDoc } from '../helpers/gltf-stats.ts';
import { gltfErrors } from '../cli/helpers/validate-gltf.ts';
import { bothMlodPaths } from '../helpers/mlod-paths.ts';

const dir = join(corpusDir, 'gltf');
const files = hasCorpus ? readdirSync(dir).filter((f) => /\.(gltf|glb)$/i.test(f)).map((f) => join(dir, f)) : [];

function input(file: string): GltfInput {
  const bytes = readBytes(file);
  return file.endsWith('.glb') ? { kind: 'glb', bytes } : { kind: 'gltf', text: bytes, resources: {} };
}

const MODEL_TARGETS: { format: FormatId; version?: string }[] = [
  { format: 'lodka-lod' }, { format: 'p3d-mlod' }, { format: 'grimrock-model' },
  { format: 'unigine-mesh', version: 'ms14' }, { format: 'unigine-mesh', version: 'ms11' }, { format: 'unigine-mesh', version: 'ms10' }, { format: 'unigine-mesh', version: 'mr02' },
];

async function back(bytes: Uint8Array, format: FormatId): Promise<Uint8Array> {
  const codec = formatById(format);
  const scene = codec.toScene(codec.decode(bytes));
  return writeGlb(sceneToGltf(scene, { upAxis: scene.upAxis ?? 'y' }).document);
}

describe.skipIf(files.length === 0)('Khronos samples import into every format', () => {
  for (const file of files) {
    for (const t of MODEL_TARGETS) {
      it(`${basename(file)} -> ${t.format}${t.version ? ` ${t.version}` : ''}`, async () => {
        const source = await importGltf(input(file), t.format, t.version ? { version: t.version } : {});
        const glb = await back(source.bytes, t.format);
        expect((await gltfErrors(glb)).errors).toEqual([]);
        const src = gltfStats(await readGltfDoc(file));
        const out = gltfStats(await readDoc(glb));
        // Skeletons come across where the format holds them (not P3D: model.cfg holds those;
        // not Unigine mr02, a plain triangle list).
        const joints = t.format === 'p3d-mlod' || t.version === 'mr02' ? 0 : src.joints;
        expectSameStats({ ...src, joints }, out, basename(file));
        if (t.format === 'p3d-mlod') {
          // Written straight from the model, the P3D is the file the codec encodes from the document.
          const both = await bothMlodPaths(input(file));
          expect(Buffer.from(both.direct).equals(Buffer.from(both.viaDoc))).toBe(true);
          expect(Buffer.from(both.direct).equals(Buffer.from(source.bytes))).toBe(true);
        }
      });
    }
    it(`${basename(file)} -> animations`, async () => {
      const src = gltfStats(await readGltfDoc(file));
      const first = [...src.animations.values()][0];
      for (const format of ['grimrock-animation', 'unigine-anim'] as FormatId[]) {
        if (first === undefined) {
          await expect(importGltf(input(file), format)).rejects.toThrow(/no animation/);
          continue;
        }
        const r = await importGltf(input(file), format);
        const glb = await back(r.bytes, format);
        expect((await gltfErrors(glb)).errors).toEqual([]);
        const out = gltfStats(await readDoc(glb));
        // Resampled to whole frames: the duration moves by less than one frame (1/30 s).
        expect(Math.abs([...out.animations.values()][0]! - first)).toBeLessThan(1 / 30 + 1e-6);
      }
    });
  }
});

async function readGltfDoc(file: string): Promise<import('@gltf-transform/core').Document> {
  const { WebIO } = await import('@gltf-transform/core');
  const bytes = readBytes(file);
  if (file.endsWith('.glb')) return readDoc(bytes);
  return new WebIO().readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} });
}
