import { crc32, deflateSync } from 'node:zlib';
import { WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { base64, imageMime, sceneToGltf, writeGlb, writeGltfEmbedded } from '../../shared/export/gltf.ts';
import { decompose, invert, multiply, saneParents } from '../../shared/export/math.ts';
import { IDENTITY, type AnimationClip, type Scene } from '../../shared/scene/scene.ts';
import { gltfErrors } from '../cli/helpers/validate-gltf.ts';

/** A real 2x2 RGBA PNG, built here so no image file is needed. */
function makePng(): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; ihdr[9] = 6; // 8-bit RGBA
  const raw = Buffer.from([0, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255]);
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0)),
  ]));
}

const translate = (x: number, y: number, z: number): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];

function quadScene(): Scene {
  return {
    nodes: [
      { name: 'root', parent: -1, matrix: translate(0, 1, 0) },
      { name: 'quad', parent: 0, matrix: [...IDENTITY], mesh: 0 },
    ],
    meshes: [{
      name: 'Quad',
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
      normals: new Float32Array([0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0]),
      uvs: [new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])],
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
      groups: [{ start: 0, count: 3, material: 0 }, { start: 3, count: 3, material: 1 }],
    }],
    materials: [
      { name: 'red', color: [1, 0, 0, 1], textureData: makePng(), texture: 'textures\\red.png' },
      { name: 'glass', color: [0.5, 0.5, 1, 0.4], blending: 'blend', doubleSided: true },
    ],
    clips: [],
  };
}

function skinnedScene(): Scene {
  const bones = [
    { name: 'hip', parent: -1, matrix: translate(0, 1, 0) },
    { name: 'knee', parent: 0, matrix: translate(0, -0.5, 0) },
    { name: 'other_root', parent: 7, matrix: translate(1, 0, 0) }, // broken parent link
  ];
  return {
    nodes: [],
    meshes: [{
      name: 'Leg',
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, Number.NaN, 1, 0]),
      uvs: [],
      indices: new Uint32Array([0, 1, 2, 1, 2, 3, 0, 1, 99]),
      groups: [{ start: 0, count: 9, material: 5 }],
      skin: {
        joints: new Uint16Array([0, 1, 0, 0, 1, 1, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0]),
        weights: new Float32Array([0.3, 0.3, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]),
      },
      morphs: [{ name: 'bend', positions: new Float32Array([0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1]) }],
    }],
    materials: [],
    skeleton: { bones },
    clips: [{
      name: 'walk',
      duration: 1,
      frames: 3,
      tracks: [
        { bone: 1, times: new Float32Array([0, 0.5, 0.5, 1]), rotations: new Float32Array([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0.7, 0, 0.7]) },
        { bone: 0, times: new Float32Array([0, 1]), translations: new Float32Array([0, 1, 0, 0, 1.2, 0]), scales: new Float32Array([1, 1, 1, Number.NaN, 1, 1]) },
      ],
    }],
  };
}

function apply(m: number[], p: number[]): number[] {
  return [0, 1, 2].map((r) => m[r]! * p[0]! + m[4 + r]! * p[1]! + m[8 + r]! * p[2]! + m[12 + r]! * p[3]!);
}

/** Local matrix of a glTF node from its TRS. */
function localMatrix(n: { getMatrix(): ArrayLike<number> }): number[] {
  return Array.from(n.getMatrix());
}

async function validGlb(scene: Scene, extraClips?: AnimationClip[]): Promise<{ json: any; warnings: string[] }> {
  const { document, warnings } = sceneToGltf(scene, { extraClips });
  const glb = await writeGlb(document);
  const { errors } = await gltfErrors(glb);
  expect(errors).toEqual([]);
  const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
  return { json, warnings };
}

describe('glTF export', () => {
  it('keeps mesh names, groups, hierarchy and materials with an embedded PNG', async () => {
    const { json } = await validGlb(quadScene());
    expect(json.meshes.map((m: any) => m.name)).toEqual(['Quad']);
    expect(json.meshes[0].primitives).toHaveLength(2);
    expect(json.meshes[0].primitives.map((p: any) => p.material)).toEqual([0, 1]);
    expect(json.nodes.map((n: any) => n.name)).toEqual(['root', 'quad']);
    expect(json.nodes[0].children).toEqual([1]);
    expect(json.nodes[0].translation).toEqual([0, 1, 0]);
    expect(json.materials[0].pbrMetallicRoughness.baseColorTexture).toBeDefined();
    expect(json.materials[0].extras.texture).toBe('textures\\red.png');
    expect(json.images[0].mimeType).toBe('image/png');
    expect(json.materials[1].alphaMode).toBe('BLEND');
    expect(json.materials[1].doubleSided).toBe(true);
  });

  it('exports skin, inverse binds, morphs and animation from damaged data without validator errors', async () => {
    const { json, warnings } = await validGlb(skinnedScene());
    expect(json.skins).toHaveLength(1);
    expect(json.skins[0].joints).toHaveLength(3);
    expect(json.accessors[json.skins[0].inverseBindMatrices].count).toBe(3);
    const prim = json.meshes[0].primitives[0];
    expect(prim.attributes.JOINTS_0).toBeDefined();
    expect(prim.targets).toHaveLength(1);
    expect(json.accessors[prim.indices].count).toBe(6); // the triangle naming vertex 99 is dropped
    expect(json.animations[0].name).toBe('walk');
    expect(json.animations[0].channels.map((c: any) => c.target.path).sort()).toEqual(['rotation', 'scale', 'translation']);
    expect(warnings.join('\n')).toMatch(/point past the last vertex/);
    expect(warnings.join('\n')).toMatch(/renormalised/);
    expect(warnings.join('\n')).toMatch(/non-increasing/);
  });

  it('binds standalone clips to bones by target name and reports the rest', async () => {
    const clip: AnimationClip = {
      name: 'wave', duration: 1, frames: 2,
      tracks: [
        { bone: -1, targetName: 'knee', times: new Float32Array([0, 1]), rotations: new Float32Array([0, 0, 0, 1, 0, 0, 0.38, 0.92]) },
        { bone: -1, targetName: 'tail', times: new Float32Array([0, 1]), translations: new Float32Array(6) },
      ],
    };
    const scene = skinnedScene();
    scene.clips = [];
    const { json, warnings } = await validGlb(scene, [clip]);
    const ch = json.animations[0].channels;
    expect(ch).toHaveLength(1);
    expect(json.nodes[ch[0].target.node].name).toBe('knee');
    expect(warnings.join('\n')).toMatch(/1 track\(s\) name no bone or node/);
  });

  it('gives a standalone animation its own target nodes', async () => {
    const clip: AnimationClip = {
      name: 'idle', duration: 1, frames: 2,
      tracks: [{ bone: 0, targetName: 'head', times: new Float32Array([0, 1]), translations: new Float32Array([0, 0, 0, 0, 1, 0]) }],
    };
    const { json } = await validGlb({ nodes: [], meshes: [], materials: [], clips: [clip] });
    expect(json.nodes.map((n: any) => n.name)).toEqual(['head']);
    expect(json.animations).toHaveLength(1);
  });

  it('a bind matrix that overflows 32-bit floats once placed becomes identity with a warning, not an invalid accessor', async () => {
    // Found by the fuzz campaign: 0x7f bytes over a LODka skeleton made bind matrices near 3.4e38,
    // finite as doubles, which the mesh's transform pushed past the largest float.
    const scene = skinnedScene();
    scene.skeleton!.bones[1]!.inverseBind = [3e38, 0, 0, 0, 0, 3e38, 0, 0, 0, 0, 3e38, 0, -3e38, 3e38, 0, 1];
    scene.nodes = [{ name: 'leg', parent: -1, matrix: [4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1], mesh: 0 }];
    const { json, warnings } = await validGlb(scene);
    expect(json.skins).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/bone "knee": inverse bind matrix does not fit 32-bit floats; identity used/);
  });

  it('writes a model with textured materials and no mesh (the image still needs a buffer)', async () => {
    // A fuzzed LODka file whose mesh chunks were damaged kept its TXTR images: glTF Transform
    // refused to write a GLB with an image and no buffer.
    const { json } = await validGlb({ nodes: [], meshes: [], materials: [{ name: 'red', color: [1, 0, 0, 1], textureData: makePng() }], clips: [] });
    expect(json.images).toHaveLength(1);
    expect(json.buffers).toHaveLength(1);
  });

  it('reads back with the same positions, UVs, indices and texture bytes', async () => {
    const scene = quadScene();
    const back = await new WebIO().readBinary(await writeGlb(sceneToGltf(scene).document));
    const mesh = back.getRoot().listMeshes()[0]!;
    const [p0, p1] = mesh.listPrimitives();
    expect(Array.from(p0!.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(scene.meshes[0]!.positions));
    expect(Array.from(p0!.getAttribute('TEXCOORD_0')!.getArray()!)).toEqual(Array.from(scene.meshes[0]!.uvs[0]!));
    expect([...Array.from(p0!.getIndices()!.getArray()!), ...Array.from(p1!.getIndices()!.getArray()!)]).toEqual(Array.from(scene.meshes[0]!.indices));
    // A zero normal gets a direction; the others are unit length.
    expect(Array.from(p0!.getAttribute('NORMAL')!.getArray()!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0]);
    expect(Array.from(back.getRoot().listTextures()[0]!.getImage()!)).toEqual(Array.from(scene.materials[0]!.textureData!));
  });

  it('skins a mesh placed under a transformed node the way the preview does (IBM x node world)', async () => {
    // Z-up source turned Y-up by a root node, as some codecs do: rotate -90 degrees about X.
    const zToY = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];
    const scene = skinnedScene();
    scene.meshes[0]!.positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    scene.meshes[0]!.skin = { joints: new Uint16Array(16).fill(1), weights: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]) };
    scene.nodes = [{ name: 'Z-up to Y-up', parent: -1, matrix: zToY }, { name: 'leg', parent: 0, matrix: translate(0, 0, 2), mesh: 0 }];
    scene.skeleton!.bones[2]!.parent = -1;
    const { document } = sceneToGltf(scene);
    expect((await gltfErrors(await writeGlb(document))).errors).toEqual([]);
    const skin = document.getRoot().listSkins()[0]!;
    const ibm = skin.getInverseBindMatrices()!.getArray()!;
    const knee = skin.listJoints()[1]!;
    // Pose the knee as an animation would, in the exporter's output and in the preview's terms.
    knee.setRotation([0, 0, Math.SQRT1_2, Math.SQRT1_2]);
    const kneeWorld = knee.getWorldMatrix() as number[];
    const meshWorld = multiply(zToY, translate(0, 0, 2));
    const bones = scene.skeleton!.bones;
    const boneWorld = multiply(bones[0]!.matrix, localMatrix(knee));
    const kneeIbm = invert(multiply(bones[0]!.matrix, bones[1]!.matrix))!;
    for (const v of [[0, 0, 0], [1, 0, 0], [0, 0, 1]]) {
      const p = [...v, 1];
      const gltf = apply(multiply(kneeWorld, Array.from(ibm.subarray(16, 32))), p);
      const preview = apply(multiply(multiply(boneWorld, kneeIbm), meshWorld), p);
      gltf.forEach((x, i) => expect(x).toBeCloseTo(preview[i]!, 5));
    }
  });

  it('writes a self-contained .gltf with data URIs', async () => {
    const { document } = sceneToGltf(quadScene());
    const bytes = await writeGltfEmbedded(document);
    const json = JSON.parse(new TextDecoder().decode(bytes));
    expect(json.buffers[0].uri).toMatch(/^data:application\/octet-stream;base64,/);
    expect(json.images[0].uri).toMatch(/^data:image\/png;base64,/);
    expect((await gltfErrors(bytes)).errors).toEqual([]);
  });

  it('survives an empty scene and cyclic hierarchies', async () => {
    await validGlb({ nodes: [], meshes: [], materials: [], clips: [] });
    const s = quadScene();
    s.nodes[0]!.parent = 1; // root <-> quad cycle
    const { json } = await validGlb(s);
    expect(json.scenes[0].nodes.length).toBeGreaterThan(0);
  });
});

describe('export helpers', () => {
  it('base64 matches Buffer for every tail length', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 37) & 255);
      expect(base64(b)).toBe(Buffer.from(b).toString('base64'));
    }
  });
  it('recognises PNG and JPEG only', () => {
    expect(imageMime(makePng())).toBe('image/png');
    expect(imageMime(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0]))).toBe('image/jpeg');
    expect(imageMime(new Uint8Array([0x42, 0x4d, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
  });
  it('decomposes and inverts matrices', () => {
    const m = multiply(translate(1, 2, 3), [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]);
    const { t, r, s } = decompose(m);
    expect(t).toEqual([1, 2, 3]);
    expect(s.map((v) => +v.toFixed(6))).toEqual([1, 1, 2]);
    expect(Math.abs(r[2])).toBeCloseTo(Math.SQRT1_2);
    const inv = invert(m)!;
    multiply(m, inv).forEach((v, i) => expect(v).toBeCloseTo(IDENTITY[i]!));
    expect(invert([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBeUndefined();
    expect(saneParents([1, 0, -1, 9, 3])).toEqual([-1, 0, -1, -1, 3]);
  });
});
