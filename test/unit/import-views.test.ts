/**
 * Accessors are read in place: tightly packed accessor data becomes typed-array views of the
 * input's bytes instead of copies (what keeps a large import within its memory goal), and
 * nothing the import does writes to them: the input comes out of an import unchanged, also
 * when a skinned mesh is posed.
 */
import { Document, VertexLayout, WebIO } from '@gltf-transform/core';
import { expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { formatById } from '../../shared/formats/registry.ts';
import { importGltf } from '../../shared/import/index.ts';
import { gltfToModel } from '../../shared/import/model.ts';
import { isInputView, readGltf } from '../../shared/import/read.ts';

/** One triangle skinned to a joint moved 5 along x: posing changes every position. */
async function skinnedGlb(layout: VertexLayout): Promise<Uint8Array> {
  const doc = new Document();
  const buf = doc.createBuffer();
  const acc = (type: 'VEC3' | 'VEC4' | 'SCALAR' | 'MAT4', a: Float32Array | Uint16Array | Uint32Array) => doc.createAccessor().setType(type).setArray(a).setBuffer(buf);
  const prim = doc.createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute('NORMAL', acc('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute('JOINTS_0', acc('VEC4', new Uint16Array(12)))
    .setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])))
    .setIndices(acc('SCALAR', new Uint32Array([0, 1, 2])));
  const joint = doc.createNode('bone').setTranslation([5, 0, 0]);
  const skin = doc.createSkin('skin').addJoint(joint).setInverseBindMatrices(acc('MAT4', new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])));
  doc.createScene().addChild(joint).addChild(doc.createNode('tri').setMesh(doc.createMesh('tri').addPrimitive(prim)).setSkin(skin));
  return new WebIO().setVertexLayout(layout).writeBinary(doc);
}

it('packed accessors become views of the input; interleaved ones are copied by glTF Transform', async () => {
  for (const layout of [VertexLayout.SEPARATE, VertexLayout.INTERLEAVED]) {
    const bytes = await skinnedGlb(layout);
    const budget = new MemoryBudget(1 << 24);
    const doc = await readGltf({ kind: 'glb', bytes }, budget, [], { views: true });
    const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    const pos = prim.getAttribute('POSITION')!.getArray()!;
    expect(isInputView(pos), `${layout}: POSITION read in place`).toBe(layout === VertexLayout.SEPARATE);
    if (layout === VertexLayout.SEPARATE) expect(pos.buffer).toBe(bytes.buffer);
    // Indices are never interleaved.
    expect(isInputView(prim.getIndices()!.getArray()!)).toBe(true);
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual([0, 1, 2]);
    expect(Array.from(pos)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    // Without asking for views, everything is glTF Transform's own copy.
    const copied = await readGltf({ kind: 'glb', bytes }, new MemoryBudget(1 << 24));
    expect(isInputView(copied.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getIndices()!.getArray()!)).toBe(false);
    // A skinned mesh is posed in copies: the model's arrays are no longer the input's.
    const model = withBudget(budget, () => gltfToModel(doc));
    expect(isInputView(model.meshes[0]!.positions)).toBe(false);
    expect(model.meshes[0]!.positions[0]).toBeCloseTo(5, 6);
  }
});

it('an import leaves its input bytes as they were', async () => {
  const bytes = await skinnedGlb(VertexLayout.SEPARATE);
  const before = bytes.slice();
  for (const [format, version] of [['grimrock-model'], ['unigine-mesh', 'ms11'], ['lodka-lod'], ['p3d-mlod']] as const) {
    const r = await importGltf({ kind: 'glb', bytes }, format, version ? { version } : {});
    expect(Buffer.from(bytes).equals(Buffer.from(before)), `${format}: input unchanged`).toBe(true);
    // And the posed triangle is where glTF draws it (x moved by the joint).
    const codec = formatById(format);
    const scene = codec.toScene(codec.decode(r.bytes));
    const xs = Array.from(scene.meshes[0]!.positions).filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs), format).toBeCloseTo(5, 4);
  }
});

it('an empty accessor far past its buffer view is no crash (nothing is read in place there)', async () => {
  const bin = new Uint8Array(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  const json = {
    asset: { version: '2.0' },
    buffers: [{ uri: 'b.bin', byteLength: bin.length }],
    bufferViews: [{ buffer: 0, byteLength: bin.length }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 0, byteOffset: 100_000_000, componentType: 5126, count: 0, type: 'VEC3' },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  const text = new TextEncoder().encode(JSON.stringify(json));
  const r = await importGltf({ kind: 'gltf', text, resources: { 'b.bin': bin } }, 'lodka-lod').catch((e: unknown) => e);
  if (r instanceof Error) expect(r.name, r.stack).not.toBe('RangeError');
  // The first accessor is still read in place.
  const doc = await readGltf({ kind: 'gltf', text, resources: { 'b.bin': bin } }, new MemoryBudget(1 << 24), [], { views: true });
  expect(isInputView(doc.getRoot().listAccessors()[0]!.getArray()!)).toBe(true);
});
