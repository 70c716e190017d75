/** The import benchmark's input: a GLB of one grid mesh (positions, normals, one UV set, uint32 indices). */
import { Document, WebIO } from '@gltf-transform/core';

/** A GLB with at least `triangles` triangles (a square grid, two per cell). */
export async function buildGridGlb(triangles: number): Promise<Uint8Array> {
  const cells = Math.ceil(Math.sqrt(triangles / 2));
  const side = cells + 1;
  const n = side * side;
  const pos = new Float32Array(n * 3), nor = new Float32Array(n * 3), uv = new Float32Array(n * 2);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = y * side + x;
      pos[v * 3] = x * 0.01; pos[v * 3 + 1] = Math.sin(v * 0.001) * 0.1; pos[v * 3 + 2] = y * 0.01;
      nor[v * 3 + 1] = 1;
      uv[v * 2] = x / cells; uv[v * 2 + 1] = y / cells;
    }
  }
  const idx = new Uint32Array(cells * cells * 6);
  let k = 0;
  for (let y = 0; y < cells; y++) {
    for (let x = 0; x < cells; x++) {
      const a = y * side + x;
      idx[k++] = a; idx[k++] = a + side; idx[k++] = a + 1;
      idx[k++] = a + 1; idx[k++] = a + side; idx[k++] = a + side + 1;
    }
  }
  const doc = new Document();
  const buf = doc.createBuffer();
  const acc = (type: 'VEC3' | 'VEC2' | 'SCALAR', a: Float32Array | Uint32Array) => doc.createAccessor().setType(type).setArray(a).setBuffer(buf);
  const prim = doc.createPrimitive()
    .setAttribute('POSITION', acc('VEC3', pos)).setAttribute('NORMAL', acc('VEC3', nor)).setAttribute('TEXCOORD_0', acc('VEC2', uv))
    .setIndices(acc('SCALAR', idx)).setMaterial(doc.createMaterial('grid'));
  doc.createScene().addChild(doc.createNode('grid').setMesh(doc.createMesh('grid').addPrimitive(prim)));
  return new WebIO().writeBinary(doc);
}
