/**
 * The importer's model and writers on glTF built in code: strips and fans, computed normals,
 * node transforms applied, the P3D LOD naming convention, named selections, memory points and
 * point masses, and the LODka up-axis statement.
 */
import { Document, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import type { MassTag, SelectionTag } from '../../shared/formats/p3d/mlod/types.ts';
import { resolutionName } from '../../shared/formats/p3d/resolution.ts';
import { formatById } from '../../shared/formats/registry.ts';
import { importGltf } from '../../shared/import/index.ts';
import { lodResolution } from '../../shared/formats/p3d/mlod/import.ts';
import { bothMlodPaths } from '../helpers/mlod-paths.ts';

type Build = (doc: Document, buffer: ReturnType<Document['createBuffer']>) => void;

async function glb(build: Build): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  build(doc, buffer);
  return new WebIO().writeBinary(doc);
}

/** A unit quad (two triangles) as a mesh with the given mode and index order. */
function quadMesh(doc: Document, buffer: ReturnType<Document['createBuffer']>, name: string, mode: 4 | 5 | 6, offset: number[] = [0, 0, 0]): ReturnType<Document['createMesh']> {
  const p = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0].map((v, i) => v + offset[i % 3]!));
  // CCW seen from +Z in every mode: list 0 1 2 / 0 2 3, strip 1 2 0 3 (= 1 2 0, 0 2 3 after the flip), fan 0 1 2 3.
  const idx = mode === 4 ? [0, 1, 2, 0, 2, 3] : mode === 5 ? [1, 2, 0, 3] : [0, 1, 2, 3];
  const prim = doc.createPrimitive().setMode(mode)
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(p).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(idx)).setBuffer(buffer))
    .setMaterial(doc.createMaterial(`${name}_mat`));
  return doc.createMesh(name).addPrimitive(prim);
}

describe('strips, fans and normals', () => {
  for (const mode of [4, 5, 6] as const) {
    it(`mode ${mode}: two triangles facing +Z, normals computed`, async () => {
      const bytes = await glb((doc, buf) => doc.createScene().addChild(doc.createNode('q').setMesh(quadMesh(doc, buf, 'q', mode))));
      const r = await importGltf({ kind: 'glb', bytes }, 'grimrock-model');
      const scene = formatById('grimrock-model').toScene(formatById('grimrock-model').decode(r.bytes));
      const m = scene.meshes[0]!;
      expect(m.indices.length).toBe(6);
      for (let t = 0; t < 6; t += 3) {
        const [a, b, c] = [m.indices[t]!, m.indices[t + 1]!, m.indices[t + 2]!].map((i) => [m.positions[i * 3]!, m.positions[i * 3 + 1]!, m.positions[i * 3 + 2]!]);
        const cz = (b![0]! - a![0]!) * (c![1]! - a![1]!) - (b![1]! - a![1]!) * (c![0]! - a![0]!);
        expect(cz, 'counter-clockwise seen from +Z').toBeGreaterThan(0);
      }
      for (let v = 0; v < m.positions.length / 3; v++) expect(m.normals![v * 3 + 2]).toBeCloseTo(1, 5);
      expect(r.warnings).toContain('mesh "q": normals computed (the file has none)');
    });
  }
});

it('applies node transforms (a mirroring scale flips the winding back)', async () => {
  const bytes = await glb((doc, buf) => {
    const s = doc.createScene();
    s.addChild(doc.createNode('moved').setTranslation([10, 0, 0]).setMesh(quadMesh(doc, buf, 'a', 4)));
    s.addChild(doc.createNode('mirrored').setScale([-1, 1, 1]).setMesh(quadMesh(doc, buf, 'b', 4)));
  });
  const r = await importGltf({ kind: 'glb', bytes }, 'unigine-mesh', { version: 'ms11' });
  const scene = formatById('unigine-mesh').toScene(formatById('unigine-mesh').decode(r.bytes));
  const xs = (k: number): number[] => Array.from(scene.meshes[k]!.positions.filter((_, i) => i % 3 === 0));
  expect(Math.min(...xs(0))).toBeCloseTo(10, 5);
  expect(Math.max(...xs(1))).toBeCloseTo(0, 5);
  expect(Math.min(...xs(1))).toBeCloseTo(-1, 5);
  // Still facing +Z after the mirror: the normal of the first triangle.
  const m = scene.meshes[1]!;
  const [a, b, c] = [0, 1, 2].map((k) => m.indices[k]!).map((i) => [m.positions[i * 3]!, m.positions[i * 3 + 1]!]);
  expect((b![0]! - a![0]!) * (c![1]! - a![1]!) - (b![1]! - a![1]!) * (c![0]! - a![0]!)).toBeGreaterThan(0);
});

describe('P3D LOD convention', () => {
  it('parses LOD names', () => {
    expect(lodResolution('LOD 2')).toBe(2);
    expect(lodResolution('1.000')).toBe(1);
    expect(resolutionName(lodResolution('Geometry')!)).toBe('Geometry');
    expect(resolutionName(lodResolution('Fire Geometry')!)).toBe('FireGeometry');
    expect(resolutionName(lodResolution('View Geometry')!)).toBe('ViewGeometry');
    expect(resolutionName(lodResolution('Shadow Volume 0')!)).toBe('ShadowVolume 0');
    expect(lodResolution('Armature')).toBeUndefined();
  });

  it('top-level nodes become LODs; selections, memory points and mass come across', async () => {
    const bytes = await glb((doc, buf) => {
      const s = doc.createScene();
      const lod1 = doc.createNode('LOD 1');
      lod1.addChild(doc.createNode('door').setMesh(quadMesh(doc, buf, 'door', 4)).setExtras({ selections: ['damage'] }));
      lod1.addChild(doc.createNode('wall').setMesh(quadMesh(doc, buf, 'wall', 4, [1, 0, 0])));
      const lod2 = doc.createNode('2.000').addChild(doc.createNode('door').setMesh(quadMesh(doc, buf, 'door2', 5)));
      const geo = doc.createNode('Geometry').addChild(doc.createNode('Component01').setMesh(quadMesh(doc, buf, 'box', 6)).setExtras({ mass: 40 }));
      const mem = doc.createNode('Memory');
      mem.addChild(doc.createNode('lights_pos').setTranslation([0, 2, 3]));
      s.addChild(lod2).addChild(lod1).addChild(geo).addChild(mem);
    });
    const r = await importGltf({ kind: 'glb', bytes }, 'p3d-mlod');
    const doc = decodeMlod(r.bytes);
    expect(doc.lods.map((l) => resolutionName(l.resolution))).toEqual(['1.000', '2.000', 'Geometry', 'Memory']);
    const [l1, l2, g, mem] = doc.lods;
    expect(l1!.faces.vertexCount.length).toBe(4);
    expect(l2!.faces.vertexCount.length).toBe(2);
    const sel = (l: typeof l1, name: string): SelectionTag | undefined => l!.tags.find((t): t is SelectionTag => t.type === 'selection' && t.name === name);
    expect(Array.from(sel(l1, 'door')!.faces)).toEqual([1, 1, 0, 0]);
    expect(Array.from(sel(l1, 'damage')!.faces)).toEqual([1, 1, 0, 0]);
    expect(Array.from(sel(l1, 'wall')!.faces)).toEqual([0, 0, 1, 1]);
    expect(sel(l1, 'LOD 1')).toBeUndefined();
    // The two quads share the edge x = 1 (points welded): 6 points.
    expect(l1!.points.length / 3).toBe(6);
    const mass = g!.tags.find((t): t is MassTag => t.type === 'mass')!;
    expect(Array.from(mass.masses).reduce((a, b) => a + b, 0)).toBeCloseTo(40, 4);
    expect(mem!.points.length / 3).toBe(1);
    // P3D is left-handed: z is negated.
    expect(Array.from(mem!.points)).toEqual([0, 2, -3]);
    expect(Array.from(sel(mem, 'lights_pos')!.points)).toEqual([1]);
    // Convert picks LOD 1.000, the first visual one, with its 4 triangles.
    const scene = formatById('p3d-mlod').toScene(doc);
    expect(scene.meshes[0]!.indices.length / 3).toBe(4);
  });

  it('the P3D written straight from the model is the file the codec encodes from the document', async () => {
    const bytes = await glb((doc, buf) => {
      const s = doc.createScene();
      const lod1 = doc.createNode('LOD 1');
      const door = quadMesh(doc, buf, 'door', 4);
      // A second UV set (a #UVSet# tag) and textured paths on one part.
      door.listPrimitives()[0]!.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])).setBuffer(buf))
        .setAttribute('TEXCOORD_1', doc.createAccessor().setType('VEC2').setArray(new Float32Array([0.5, 0, 1, 0.25, 1, 1, -0, 1])).setBuffer(buf));
      door.listPrimitives()[0]!.getMaterial()!.setExtras({ texture: 'data\\door_co.paa', rvmat: 'data\\door.rvmat' });
      lod1.addChild(doc.createNode('door').setMesh(door).setExtras({ selections: ['damage'] }));
      lod1.addChild(doc.createNode('mirror').setScale([-1, 1, 1]).setMesh(quadMesh(doc, buf, 'wall', 4, [1, 0, 0])));
      const geo = doc.createNode('Geometry').setExtras({ mass: 7 });
      geo.addChild(doc.createNode('Component01').setMesh(quadMesh(doc, buf, 'box', 6)).setExtras({ mass: 40 }));
      geo.addChild(doc.createNode('Component02').setMesh(quadMesh(doc, buf, 'box2', 5, [0, 0, 2])));
      const fire = doc.createNode('Fire Geometry').setExtras({ mass: 3 }).addChild(doc.createNode('hull').setMesh(quadMesh(doc, buf, 'hull', 4)));
      const mem = doc.createNode('Memory');
      mem.addChild(doc.createNode('lights_pos').setTranslation([0, 2, 3]));
      mem.addChild(doc.createNode('axis').setTranslation([0, 0, 0]));
      const pts = doc.createPrimitive().setMode(0).setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([1, 2, 3, 4, 5, 6])).setBuffer(buf));
      mem.addChild(doc.createNode('points').setMesh(doc.createMesh('points').addPrimitive(pts)));
      s.addChild(lod1).addChild(geo).addChild(fire).addChild(mem).addChild(doc.createNode('stray').setMesh(quadMesh(doc, buf, 'stray', 4)));
    });
    const both = await bothMlodPaths({ kind: 'glb', bytes });
    const doc = decodeMlod(both.direct);
    // The case holds what the writers must agree on: several LODs, a UV set tag, masses, memory points.
    expect(doc.lods.map((l) => resolutionName(l.resolution))).toEqual(['1.000', 'Geometry', 'Memory', 'FireGeometry']);
    expect(doc.lods[0]!.tags.some((t) => t.type === 'uvset')).toBe(true);
    expect(doc.lods[1]!.tags.some((t) => t.type === 'mass')).toBe(true);
    expect(doc.lods[2]!.points.length / 3).toBe(4);
    expect(Buffer.from(both.direct).equals(Buffer.from(both.viaDoc))).toBe(true);
    expect(both.directWarnings).toEqual(both.docWarnings);
    expect(both.directWarnings.join('\n')).toMatch(/outside any LOD/);
  });

  it('without any LOD name the scene is one visual LOD', async () => {
    const bytes = await glb((doc, buf) => doc.createScene().addChild(doc.createNode('thing').setMesh(quadMesh(doc, buf, 'thing', 4))));
    const doc = decodeMlod((await importGltf({ kind: 'glb', bytes }, 'p3d-mlod')).bytes);
    expect(doc.lods.map((l) => resolutionName(l.resolution))).toEqual(['1.000']);
    expect(doc.lods[0]!.faces.textures).toEqual(['']);
  });

  it('texture and rvmat paths come from material extras', async () => {
    const bytes = await glb((doc, buf) => {
      const mesh = quadMesh(doc, buf, 'crate', 4);
      mesh.listPrimitives()[0]!.getMaterial()!.setName('crate').setExtras({ texture: 'data\\crate_co.paa', rvmat: 'data\\crate.rvmat' });
      doc.createScene().addChild(doc.createNode('crate').setMesh(mesh));
    });
    const doc = decodeMlod((await importGltf({ kind: 'glb', bytes }, 'p3d-mlod')).bytes);
    expect(doc.lods[0]!.faces.textures).toEqual(['data\\crate_co.paa']);
    expect(doc.lods[0]!.faces.materials).toEqual(['data\\crate.rvmat']);
  });
});

it('LODka: the import states its up axis, so a model long along Z is not turned upright', async () => {
  const bytes = await glb((doc, buf) => {
    const p = new Float32Array([0, 0, 0, 0.1, 0, 0, 0, 0.1, 10]);
    const prim = doc.createPrimitive().setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(p).setBuffer(buf));
    doc.createScene().addChild(doc.createNode('spear').setMesh(doc.createMesh('spear').addPrimitive(prim)));
  });
  const r = await importGltf({ kind: 'glb', bytes }, 'lodka-lod');
  const codec = formatById('lodka-lod');
  expect(codec.toScene(codec.decode(r.bytes)).upAxis).toBeUndefined();
  // Without the statement, the shape alone says Z-up.
  const doc = codec.decode(r.bytes) as { chunks: { children: { id: string; text?: string }[] }[] };
  doc.chunks[0]!.children.find((c) => c.id === 'INF1')!.text = 'no statement';
  expect(codec.toScene(doc).upAxis).toBe('z');
});

it('names a format cannot spell are replaced with a warning, not a failed write', async () => {
  const bytes = await glb((doc, buf) => doc.createScene().addChild(doc.createNode('Меч剣').setMesh(quadMesh(doc, buf, 'Меч剣', 4))));
  // LODka writes Windows-1251: the Cyrillic stays, the CJK character does not.
  const lod = await importGltf({ kind: 'glb', bytes }, 'lodka-lod');
  expect(formatById('lodka-lod').info(formatById('lodka-lod').decode(lod.bytes), lod.bytes.length).meshes[0]!.name).toBe('Меч_');
  const model = await importGltf({ kind: 'glb', bytes }, 'grimrock-model');
  expect(formatById('grimrock-model').info(formatById('grimrock-model').decode(model.bytes), model.bytes.length).meshes[0]!.name).toBe('____');
  expect(model.warnings).toContain('node name "Меч剣" has characters latin1 cannot hold; written as "____"');
});

it('Grimrock: tangents follow +u and bitangents +v (in the file\'s mirrored space), orthogonal to the normal', async () => {
  const bytes = await glb((doc, buf) => {
    const mesh = quadMesh(doc, buf, 'tile', 4);
    mesh.listPrimitives()[0]!.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])).setBuffer(buf));
    doc.createScene().addChild(doc.createNode('tile').setMesh(mesh));
  });
  const r = await importGltf({ kind: 'glb', bytes }, 'grimrock-model');
  const doc = formatById('grimrock-model').decode(r.bytes) as { nodes: { mesh?: { meshData: { vertexArrays: { dim: number; data: Float32Array }[] } } }[] };
  const va = doc.nodes.find((n) => n.mesh)!.mesh!.meshData.vertexArrays;
  expect(va[2]!.dim).toBe(3);
  expect(va[3]!.dim).toBe(3);
  // u runs along +x, v along +y in glTF; the file mirrors z only, so the same in the file.
  for (let v = 0; v < 4; v++) {
    expect(Array.from(va[2]!.data.subarray(v * 3, v * 3 + 3)).map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 0, 0]);
    expect(Array.from(va[3]!.data.subarray(v * 3, v * 3 + 3)).map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0, 1, 0]);
  }
});

it('a mesh placed by two nodes, and an accessor two meshes share, each come out where they are placed', async () => {
  const bytes = await glb((doc, buf) => {
    const s = doc.createScene();
    const quad = quadMesh(doc, buf, 'quad', 4);
    s.addChild(doc.createNode('first').setMesh(quad));
    s.addChild(doc.createNode('second').setTranslation([5, 0, 0]).setMesh(quad));
    // A second mesh reading the same POSITION accessor.
    const prim = quad.listPrimitives()[0]!;
    const twin = doc.createMesh('twin').addPrimitive(doc.createPrimitive().setAttribute('POSITION', prim.getAttribute('POSITION')!).setIndices(prim.getIndices()!));
    s.addChild(doc.createNode('third').setTranslation([0, 5, 0]).setMesh(twin));
  });
  const r = await importGltf({ kind: 'glb', bytes }, 'unigine-mesh', { version: 'ms11' });
  const scene = formatById('unigine-mesh').toScene(formatById('unigine-mesh').decode(r.bytes));
  const min = (k: number, axis: number): number => Math.min(...Array.from(scene.meshes[k]!.positions.filter((_, i) => i % 3 === axis)));
  expect([min(0, 0), min(1, 0), min(2, 0)].map((x) => Math.round(x * 1e5) / 1e5)).toEqual([0, 5, 0]);
  expect([min(0, 1), min(1, 1), min(2, 1)].map((x) => Math.round(x * 1e5) / 1e5)).toEqual([0, 0, 5]);
});
