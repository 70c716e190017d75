/**
 * P3D faces name texture files. A glTF whose picture is stored inside it (a .glb's embedded
 * image, named "duck") has no file to name: the importer writes no texture path and says so,
 * instead of writing "duck" as if it were a path; a path given in the material's extras is kept.
 */
import { Document, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { importGltf } from '../../shared/import/index.ts';
import { encodePng } from '../../shared/formats/texture/png.ts';

async function texturedQuad(extrasTexture?: string): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const image = doc.createTexture('duck').setImage(encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(200) })).setMimeType('image/png');
  const mat = doc.createMaterial('duck_mat').setBaseColorTexture(image);
  if (extrasTexture) mat.setExtras({ texture: extrasTexture });
  const prim = doc.createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0])).setBuffer(buffer))
    .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array([0, 0, 1, 0, 1, 1])).setBuffer(buffer))
    .setMaterial(mat);
  doc.createScene().addChild(doc.createNode('quad').setMesh(doc.createMesh('quad').addPrimitive(prim)));
  return new WebIO().writeBinary(doc);
}

const faceTextures = (bytes: Uint8Array): string[] => {
  const doc = decodeMlod(bytes);
  return [...new Set(doc.lods.flatMap((l) => [...l.faces.textureIndex].map((i) => l.faces.textures[i] ?? '')))];
};

describe('P3D import: texture paths, not image names', () => {
  it('an image stored inside the .glb gives no texture path, with a warning that names it', async () => {
    const r = await importGltf({ kind: 'glb', bytes: await texturedQuad() }, 'p3d-mlod');
    expect(faceTextures(r.bytes)).toEqual(['']);
    expect(r.warnings.join('\n')).toMatch(/"duck" is stored inside the glTF/);
  });

  it('a path in the material extras is written as it is', async () => {
    const r = await importGltf({ kind: 'glb', bytes: await texturedQuad('mymod\\data\\duck_co.paa') }, 'p3d-mlod');
    expect(faceTextures(r.bytes)).toEqual(['mymod\\data\\duck_co.paa']);
  });
});
