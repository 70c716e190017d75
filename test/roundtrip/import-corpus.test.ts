/**
 * The import proof on real files: every corpus model is exported to glTF, imported back into its
 * own format (ODOL, which LodSmith cannot write, into MLOD), and exported again. Both glTFs must
 * draw the same number of triangles inside the same world-space box (1e-4 relative), with the
 * same joints and animation durations; the imported file must decode and re-encode byte for byte
 * from its fields alone (what `lodsmith roundtrip --strict` checks).
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { sceneToGltf, writeGlb } from '../../shared/export/gltf.ts';
import { detectFormat, formatById, type FormatId } from '../../shared/formats/registry.ts';
import { importGltf } from '../../shared/import/index.ts';
import { CORPUS_FOLDER, corpusFiles, readBytes } from '../helpers/corpus.ts';
import { expectSameStats, gltfStats, readDoc } from '../helpers/gltf-stats.ts';
import { bothMlodPaths } from '../helpers/mlod-paths.ts';

async function exportGlb(bytes: Uint8Array, name: string): Promise<Uint8Array> {
  const codec = detectFormat(bytes, name)!;
  const scene = codec.toScene(codec.decode(bytes, { fileName: name }));
  return writeGlb(sceneToGltf(scene, { upAxis: scene.upAxis ?? 'y' }).document);
}

const TARGET: Record<FormatId, FormatId> = {
  'lodka-lod': 'lodka-lod', 'p3d-odol': 'p3d-mlod', 'p3d-mlod': 'p3d-mlod', 'grimrock-model': 'grimrock-model',
  'grimrock-animation': 'grimrock-animation', 'unigine-mesh': 'unigine-mesh', 'unigine-anim': 'unigine-anim', 'p3d-rtm': 'p3d-rtm',
};

// rtm/ also holds the model.cfg of its skeleton: a config, not a model or animation to import.
const cases = (Object.keys(CORPUS_FOLDER) as FormatId[]).flatMap((id) => corpusFiles(CORPUS_FOLDER[id]).filter((f) => !f.endsWith('.cfg')).map((file) => ({ id, file })));

describe.skipIf(cases.length === 0)('corpus: export -> import -> export keeps the model', () => {
  it.each(cases.map((c) => [`${c.id} ${basename(c.file)}`, c] as const))('%s', async (_label, { id, file }) => {
    const bytes = readBytes(file);
    const name = basename(file);
    const source = detectFormat(bytes, name)!;
    const first = await exportGlb(bytes, name);
    const target = (TARGET[source.id] ?? TARGET[id])!;
    const version = source.id === 'unigine-mesh' ? String((source.decode(bytes) as { magic: string }).magic) : undefined;
    // An RTM exports phase p at p seconds (convert's default duration): imported with that duration it keeps its phases.
    const opts = version ? { version } : target === 'p3d-rtm' ? { duration: 1 } : {};
    const a = gltfStats(await readDoc(first));
    if (a.triangles === 0 && target !== 'grimrock-animation' && target !== 'unigine-anim' && target !== 'p3d-rtm') {
      await expect(importGltf({ kind: 'glb', bytes: first }, target, opts)).rejects.toThrow(/no meshes/);
      return;
    }
    const imported = await importGltf({ kind: 'glb', bytes: first }, target, opts);
    // Strict round trip: decoded and encoded from its fields alone, byte for byte.
    const codec = formatById(target);
    const doc = codec.decode(imported.bytes);
    expect(Buffer.from(codec.encode(doc, { reuseRaw: false })).equals(Buffer.from(imported.bytes))).toBe(true);
    if (target === 'p3d-mlod') {
      // The bytes written straight from the model are the file the codec encodes from the document.
      const both = await bothMlodPaths({ kind: 'glb', bytes: first });
      expect(Buffer.from(both.direct).equals(Buffer.from(both.viaDoc)), `${name}: P3D written directly = P3D encoded from the document`).toBe(true);
      expect(Buffer.from(both.direct).equals(Buffer.from(imported.bytes))).toBe(true);
      expect(both.directWarnings).toEqual(both.docWarnings);
    }
    const second = await exportGlb(imported.bytes, `x${codec.extensions[0]}`);
    const b = gltfStats(await readDoc(second));
    // P3D keeps skeletons in model.cfg, not in the model: an import into MLOD drops them (and says so).
    if (target === 'p3d-mlod' && a.joints > 0) {
      expect(imported.warnings.join('\n')).toMatch(/joints and weights are left out/);
      expectSameStats({ ...a, joints: 0 }, b, name);
    } else expectSameStats(a, b, name);
    if (target === 'grimrock-animation' || target === 'unigine-anim' || target === 'p3d-rtm') {
      expect(b.nodes).toBe(a.nodes);
      const [clip] = [...a.animations.values()];
      expect([...b.animations.values()][0]).toBeCloseTo(clip!, 4);
    } else {
      for (const [n, d] of a.animations) {
        if (!b.animations.has(n)) continue;
        expect(b.animations.get(n), `${name}: animation ${n}`).toBeCloseTo(d, 4);
      }
    }
  });
});
