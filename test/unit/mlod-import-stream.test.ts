/**
 * An import into P3D writes its faces from the model a chunk at a time (encode.ts,
 * MlodFaceSource): the document's face columns stay deferred through the encode, so a large
 * import holds the glTF and the file but not 80 bytes a face of columns (the "glTF import peak
 * memory" bench row). The bytes are those the same document writes once its columns are made, on
 * a model of several parts and materials whose faces cross the chunk boundaries.
 */
import { Document, WebIO } from '@gltf-transform/core';
import { expect, it } from 'vitest';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import '../../shared/formats/index.ts';
import { encodeMlod, FACE_CHUNK } from '../../shared/formats/p3d/mlod/encode.ts';
import { mlodLodOf, modelToMlod } from '../../shared/formats/p3d/mlod/import.ts';
import { isDeferred } from '../../shared/model/deferred.ts';
import { gltfToModel } from '../../shared/import/model.ts';
import { readGltf } from '../../shared/import/read.ts';

/** Two meshes (one with two materials), one of them mirrored (flipped winding), ~2.6 chunks of faces. */
async function glb(): Promise<Uint8Array> {
  const doc = new Document();
  const buf = doc.createBuffer();
  const grid = (n: number, z: number): { pos: Float32Array; uv: Float32Array; idx: Uint32Array } => {
    const pos = new Float32Array((n + 1) * (n + 1) * 3), uv = new Float32Array((n + 1) * (n + 1) * 2);
    for (let y = 0, v = 0; y <= n; y++) for (let x = 0; x <= n; x++, v++) { pos.set([x, y, z + ((x * y) % 3)], v * 3); uv.set([x / n, y / n], v * 2); }
    const idx = new Uint32Array(n * n * 6);
    for (let y = 0, k = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x;
      idx.set([a, a + 1, a + n + 1, a + 1, a + n + 2, a + n + 1], k);
      k += 6;
    }
    return { pos, uv, idx };
  };
  const prim = (g: ReturnType<typeof grid>, from: number, to: number, material: ReturnType<Document['createMaterial']>) => doc.createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(g.pos).setBuffer(buf))
    .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(g.uv).setBuffer(buf))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(g.idx.slice(from, to)).setBuffer(buf))
    .setMaterial(material);
  const wood = doc.createMaterial('wood').setExtras({ texture: 'a\\wood_co.paa', rvmat: 'a\\wood.rvmat' });
  const metal = doc.createMaterial('metal').setExtras({ texture: 'a\\metal_co.paa' });
  const g1 = grid(60, 0), g2 = grid(50, 5);
  const m1 = doc.createMesh('body').addPrimitive(prim(g1, 0, 9000, wood)).addPrimitive(prim(g1, 9000, g1.idx.length, metal));
  const m2 = doc.createMesh('lid').addPrimitive(prim(g2, 0, g2.idx.length, metal));
  doc.createScene().addChild(doc.createNode('body').setMesh(m1)).addChild(doc.createNode('lid').setMesh(m2).setScale([-1, 1, 1]));
  return new WebIO().writeBinary(doc);
}

async function model() {
  const bytes = await glb();
  const budget = new MemoryBudget(1 << 28);
  const gltf = await readGltf({ kind: 'glb', bytes }, budget, [], { views: true });
  return { budget, model: withBudget(budget, () => gltfToModel(gltf, { allScenes: true, keepPoints: true })) };
}

async function document() {
  const { budget, model: m } = await model();
  return withBudget(budget, () => modelToMlod(m).doc);
}

it('writes the faces from the model without making the columns, the same bytes as from the columns', async () => {
  const streamed = await document();
  const faces = streamed.lods[0]!.faces;
  const bytes = encodeMlod(streamed);
  for (const k of ['vertexCount', 'pointIndex', 'normalIndex', 'uv', 'flags', 'textureIndex', 'materialIndex']) expect(isDeferred(faces, k), k).toBe(true);

  const whole = await document();
  const f = whole.lods[0]!.faces;
  // Once a column is read the encoder writes from the columns (read as any reader gets them).
  expect(f.pointIndex.length).toBe(f.vertexCount.length * 4);
  expect(f.vertexCount.length).toBeGreaterThan(2 * FACE_CHUNK);
  expect(isDeferred(f, 'pointIndex')).toBe(false);
  expect(new Set(f.textureIndex).size).toBe(2);
  expect(encodeMlod(whole)).toEqual(bytes);

  // The same LOD with its columns made face by face as it is walked (the LOD a "replace mesh"
  // puts into an open document): a second way to the same faces.
  const { budget, model: m } = await model();
  const eager = withBudget(budget, () => mlodLodOf(m, whole.lods[0]!.resolution, []));
  expect(isDeferred(eager.faces, 'pointIndex')).toBe(false);
  expect(encodeMlod({ ...whole, lods: [eager] })).toEqual(bytes);
});

it('a column set before the encode is written as set (the source is not used)', async () => {
  const doc = await document();
  const faces = doc.lods[0]!.faces;
  const n = faces.vertexCount.length;
  faces.flags = new Uint32Array(n).fill(0x20);
  const back = encodeMlod(doc);
  const plain = await document();
  // The flags word is the last of each 72-byte record; a streamed encode would leave it 0.
  expect(back.length).toBe(encodeMlod(plain).length);
  expect(back).not.toEqual(encodeMlod(plain));
});
