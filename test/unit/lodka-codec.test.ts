import { describe, expect, it } from 'vitest';
import { buildSampleLod, box, colouredMaterial, container, lodDocument, materialLibrary, meshChunk, skeleton } from '../../scripts/fixtures/lodka.ts';
import { DecodeError, isDecodeError, type EncodeError } from '../../shared/errors.ts';
import { detectFormat } from '../../shared/formats/index.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { Col1Chunk, LodDocument, Mat1Chunk, Msh1Chunk, Pxi1Chunk, Skl1Chunk } from '../../shared/formats/lodka/schema.ts';
import { MaterialOptions } from '../../shared/formats/lodka/schema.ts';
import { chunksOf, walkChunks } from '../../shared/formats/lodka/views.ts';
import { newCollider, newProxyItem } from '../../shared/formats/lodka/edit.ts';
import { locateOffset } from '../../shared/model/compare.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { getAt } from '../../shared/model/path.ts';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { mutationSweep } from '../helpers/bad-input.ts';

const sampleBytes = lodkaCodec.encode(buildSampleLod());
const fresh = (): LodDocument => lodkaCodec.decode(sampleBytes);
const pathOf = (doc: LodDocument, id: string, n = 0) => [...walkChunks(doc)].filter((c) => c.chunk.id === id)[n]!.path;

function decodeError(bytes: Uint8Array): DecodeError {
  try {
    lodkaCodec.decode(bytes);
  } catch (e) {
    expect(isDecodeError(e)).toBe(true);
    return e as DecodeError;
  }
  throw new Error('decoded without error');
}

describe('LODka probe and registry', () => {
  it('probes the signature and is found by detectFormat', () => {
    expect(lodkaCodec.probe(sampleBytes)).toBe(true);
    expect(lodkaCodec.probe(new TextEncoder().encode('LODka3D2xxxx'))).toBe(false);
    expect(lodkaCodec.probe(new Uint8Array(3))).toBe(false);
    expect(detectFormat(sampleBytes, 'x.lod')?.id).toBe('lodka-lod');
  });
});

describe('LODka bad input', () => {
  it('rejects a wrong signature at offset 0', () => {
    const b = sampleBytes.slice();
    b[7] = 0x32;
    const e = decodeError(b);
    expect(e.offset).toBe(0);
  });

  it('names offset and node path when a chunk Size runs past its parent', () => {
    const doc = fresh();
    const msl = getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk;
    const b = sampleBytes.slice();
    new DataView(b.buffer).setInt32(msl.$span![0] + 4, 1 << 30, true);
    const e = decodeError(b);
    expect(e.path).toBe('LOD1/MSL1/MSH1[0]');
    expect(e.offset).toBe(msl.$span![0] + 4);
  });

  it('refuses a huge count before allocating, with the path of the array', () => {
    const doc = fresh();
    const mesh = getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk;
    const g = mesh.faceGroups[0]!;
    // VertexIndCnt sits after type 4, mode 1, name, visible 1, material name length and name.
    const at = g.$span![0] + 4 + 1 + 4 + g.faceName.length + 1 + 4 + g.faceMatNames[0]!.length;
    const b = sampleBytes.slice();
    expect(new DataView(b.buffer).getInt32(at, true)).toBe(g.vertexIndex.length);
    new DataView(b.buffer).setInt32(at, 0x7fffffff, true);
    const e = decodeError(b);
    expect(e.path).toBe('LOD1/MSL1/MSH1[0]/faceGroups[0]/vertexIndex');
    expect(e.offset).toBe(at);
    expect(e.message).toMatch(/VertexIndCnt/);
  });

  it('reports a leaf chunk that does not use its Size exactly', () => {
    const w = lodkaCodec.encode(lodDocument([{ id: 'IMG1', size: 0, count: 1, screenshotType: 0, screenshotName: 'a', screenshotData: new Uint8Array(4) } as never]));
    const b = new Uint8Array(w.length + 2);
    b.set(w);
    const dv = new DataView(b.buffer);
    dv.setInt32(12, dv.getInt32(12, true) + 2, true);
    const e = decodeError(b);
    expect(e.path).toBe('IMG1');
    expect(e.message).toMatch(/2 unread bytes/);
  });

  it('refuses containers nested deeper than the limit instead of exhausting the stack', () => {
    const depth = 5000;
    const b = new Uint8Array(8 + depth * 12);
    b.set(new TextEncoder().encode('LODka3D1'));
    const dv = new DataView(b.buffer);
    for (let i = 0; i < depth; i++) {
      b.set(new TextEncoder().encode('MSL1'), 8 + i * 12);
      dv.setInt32(8 + i * 12 + 4, (depth - i - 1) * 12, true);
    }
    const e = decodeError(b);
    expect(e.message).toMatch(/nested deeper than 64/);
    expect(e.offset).toBe(8 + 64 * 12);
  });

  it('never throws anything but DecodeError on truncated or corrupted input', () => {
    // Fewer than 12 bytes after the signature are kept as trailing bytes, and validate says so.
    const short = lodkaCodec.decode(sampleBytes.subarray(0, 9));
    expect(short.trailing.length).toBe(1);
    expect(lodkaCodec.validate(short).map((p) => p.message)).toEqual(['no LOD1 chunk', '1 bytes after the last chunk']);
    const cuts = [20, 21, 100, 777, sampleBytes.length - 1];
    for (const n of cuts) expect(() => lodkaCodec.decode(sampleBytes.subarray(0, n))).toThrow(DecodeError);
    // Corruption over the whole file: a DecodeError inside the input, or a document that validates,
    // builds a scene and re-encodes to the same bytes.
    const refused = mutationSweep(lodkaCodec, sampleBytes, 'sample', 150, (doc) => {
      lodkaCodec.validate(doc as never);
      lodkaCodec.toScene(doc as never);
    });
    expect(refused).toBeGreaterThan(0);
  });
});

describe('LODka views', () => {
  it('info lists meshes, materials, bones and animations', () => {
    const info = lodkaCodec.info(fresh(), sampleBytes.length);
    expect(info.format).toBe('lodka-lod');
    expect(info.version).toBe('LODka3D1');
    expect(info.bytes).toBe(sampleBytes.length);
    expect(info.meshes.map((m) => m.name)).toEqual(['Robot', 'Ground', 'Arm', 'Arms']);
    expect(info.meshes[1]).toEqual({ name: 'Ground', vertices: 81, triangles: 128 });
    expect(info.materials).toEqual(['steel', 'paint', 'visor', 'arm', 'ground']);
    expect(info.bones).toEqual(['Hips', 'Spine', 'Head']);
    expect(info.animations.map((a) => [a.name, a.frames])).toEqual([['Bind', 1], ['Idle', 20], ['Wave', 24]]);
    expect(info.lightSchemes).toEqual(['Day', 'Night']);
    expect(info.colliderSets).toEqual(['Far', 'Near']);
  });

  it('outline names match error paths and spans locate offsets', () => {
    const doc = fresh();
    const root = lodkaCodec.outline(doc);
    const mesh = getAt(doc, pathOf(doc, 'MSH1', 1)) as Msh1Chunk;
    const g = mesh.faceGroups[0]!;
    expect(locateOffset(root, g.$span![0] + 3)).toBe('LOD1/MSL1/MSH1[1]/faceGroups[0]');
    const lod = root.children![0]!;
    expect(lod.name).toBe('LOD1');
    expect(lod.span).toEqual([8, sampleBytes.length]);
    const msl = lod.children!.find((c) => c.name === 'MSL1')!;
    expect(msl.count).toBe(4);
    expect(msl.actions?.add).toEqual(['MSH1']);
    expect(msl.children!.map((c) => c.label)).toEqual(['Robot', 'Ground', 'Arm', 'Arms']);
    // Every child span lies inside its parent.
    const check = (n: typeof root): void => {
      for (const c of n.children ?? []) {
        if (n.span && c.span) expect(c.span[0] >= n.span[0] && c.span[1] <= n.span[1]).toBe(true);
        check(c);
      }
    };
    check(root);
  });

  it('inspect gives schema fields whose spans hold the bytes of the value', () => {
    const doc = fresh();
    const matPath = [...pathOf(doc, 'MAT1'), 'materials', 2];
    const ins = lodkaCodec.inspect(doc, matPath)!;
    expect(ins.title).toBe('Material visor');
    const names = ins.fields.map((f) => f.name);
    expect(names).toEqual(['matName', 'textrName', ...MaterialOptions.fields.map((f) => f.name)]);
    const blend = ins.fields.find((f) => f.name === 'blendingMode')!;
    expect(blend.enumLabels?.[1]).toBe('bmTransparency');
    expect(sampleBytes[blend.span![0]]).toBe(1);
    const diffuse = ins.fields.find((f) => f.name === 'diffuse')!;
    const r = new BinaryReader(sampleBytes, diffuse.span![0], diffuse.span![1]);
    expect(r.f32s(4)).toEqual(diffuse.value);
    // Variable records: typed rows with byte ranges at fixed offsets.
    const bone = lodkaCodec.inspect(doc, [...pathOf(doc, 'SKL1'), 'bones', 2])!;
    const parent = bone.fields.find((f) => f.name === 'boneParentId')!;
    expect(parent.kind).toBe('i16');
    expect(new DataView(sampleBytes.buffer).getInt16(parent.span![0], true)).toBe(1);
    const boneName = bone.fields.find((f) => f.name === 'boneName')!;
    expect(String.fromCharCode(...sampleBytes.subarray(boneName.span![0] + 4, boneName.span![1]))).toBe('Head');
    const fg = lodkaCodec.inspect(doc, [...pathOf(doc, 'MSH1'), 'faceGroups', 1])!;
    const faceName = fg.fields.find((f) => f.name === 'faceName')!;
    expect(String.fromCharCode(...sampleBytes.subarray(faceName.span![0] + 4, faceName.span![1]))).toBe('Head');
    expect(fg.fields.find((f) => f.name === 'isFaceVisible')!.kind).toBe('bool');
    expect(fg.fields.find((f) => f.name === 'vertexIndex')!.value).toBe('Uint32Array(960)');
    // Chunk header rows.
    const chunk = lodkaCodec.inspect(doc, pathOf(doc, 'PXI1'))!;
    const count = chunk.fields.find((f) => f.name === 'count')!;
    expect(count.readonly).toBe(false);
    expect(new DataView(sampleBytes.buffer).getInt32(count.span![0], true)).toBe(3);
  });
});

describe('LODka encode errors', () => {
  it('names the chunk when a value cannot be written', () => {
    const doc = fresh();
    (getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk).meshName = '石';
    delete doc.chunks[0]!.$raw;
    delete (getAt(doc, pathOf(doc, 'MSL1')) as Msh1Chunk).$raw;
    delete (getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk).$raw;
    expect(() => lodkaCodec.encode(doc)).toThrow(/Windows-1251|cannot be written as cp1251/);
    try {
      lodkaCodec.encode(doc);
    } catch (e) {
      expect((e as EncodeError).name).toBe('EncodeError');
      expect((e as EncodeError).path).toBe('LOD1/MSL1/MSH1[0]');
    }
  });

  it('writes unknown-chunk bytes even when the global Uint8Array was swapped for a subclass', () => {
    // An allocation meter replaces the typed-array globals; views of the input keep the original
    // class, so the encoder must not rely on instanceof for them.
    const bytes = lodkaCodec.encode(lodDocument([{ id: 'USR1', size: 0, count: 3, data: Uint8Array.from([7, 8, 9]) } as never]));
    const g = globalThis as { Uint8Array: typeof Uint8Array };
    const Original = g.Uint8Array;
    g.Uint8Array = class Uint8Array extends Original {} as typeof Uint8Array;
    try {
      const doc = lodkaCodec.decode(bytes);
      expect(Array.from(lodkaCodec.encode(doc, { reuseRaw: false }))).toEqual(Array.from(bytes));
    } finally {
      g.Uint8Array = Original;
    }
  });

  it('refuses an index too wide for the width its array count implies', () => {
    const doc = fresh();
    const cmd = { op: 'set' as const, path: [...pathOf(doc, 'MSH1', 1), 'faceGroups', 0, 'vertexIndex'], value: Uint32Array.from([0, 1, 300]) };
    applyCommand(doc, cmd);
    // 81 vertices: one byte per index, so 300 cannot be stored.
    expect(() => lodkaCodec.encode(doc)).toThrow(/vertexIndex\[2\] = 300 does not fit in 1 byte/);
  });

  it('refuses a texture-coordinate index too wide for its width instead of truncating it', () => {
    const doc = fresh();
    const mesh = getAt(doc, pathOf(doc, 'MSH1', 1)) as Msh1Chunk;
    const g = mesh.faceGroups[0]!;
    const cmd = { op: 'set' as const, path: [...pathOf(doc, 'MSH1', 1), 'faceGroups', 0, 'txCrdsInd', 0], value: Uint32Array.from(g.txCrdsInd[0]!, (v, i) => (i === 1 ? 70000 : v)) };
    applyCommand(doc, cmd);
    expect(() => lodkaCodec.encode(doc)).toThrow(/txCrdsInd\[0\]\[1\] = 70000 does not fit in [12] byte/);
  });

  it('writes 5-byte weight records bit for bit and refuses a bone id they cannot hold', () => {
    const doc = fresh();
    const mesh = getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk;
    const skl = getAt(doc, pathOf(doc, 'SKL1')) as Skl1Chunk;
    const n = 1000;
    const weights = Float32Array.from({ length: n }, (_, i) => i / 7);
    // A NaN with a payload survives as its bits.
    new Uint32Array(weights.buffer)[3] = 0x7fc01234;
    const ids = Uint16Array.from({ length: n }, (_, i) => i % skl.bones.length);
    Object.assign(mesh, { pntBnWeightType: 1, bonesPerVertix: 1, weightBoneIds: ids, weights });
    const back = lodkaCodec.decode(lodkaCodec.encode(doc, { reuseRaw: false }));
    const m2 = getAt(back, pathOf(back, 'MSH1')) as Msh1Chunk;
    expect(Array.from(m2.weightBoneIds!)).toEqual(Array.from(ids));
    expect(Array.from(new Uint32Array(m2.weights!.buffer, m2.weights!.byteOffset, n))).toEqual(Array.from(new Uint32Array(weights.buffer)));
    ids[5] = 300;
    expect(() => lodkaCodec.encode(doc, { reuseRaw: false })).toThrow(/weight record 5 bone id 300 needs 6-byte records/);
  });
});

describe('LODka validate', () => {
  it('finds no errors in the sample and reports broken references', () => {
    const doc = fresh();
    expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    const pxi = getAt(doc, pathOf(doc, 'PXI1')) as Pxi1Chunk;
    pxi.items[1]!.sourceMeshIndex = 9;
    const col = getAt(doc, pathOf(doc, 'COL1', 1)) as Col1Chunk;
    col.colliders[0]!.colBoneId = 42;
    const mesh = getAt(doc, pathOf(doc, 'MSH1')) as Msh1Chunk;
    mesh.faceGroups[0]!.faceMatNames[0] = 'nope';
    mesh.faceGroups[1]!.vertexIndex = Uint32Array.from([0, 1, 9999, 2]);
    const skl = getAt(doc, pathOf(doc, 'SKL1')) as Skl1Chunk;
    skl.bones[1]!.boneParentId = 2;
    const msgs = lodkaCodec.validate(doc).filter((p) => p.severity === 'error').map((p) => `${p.where}: ${p.message}`);
    expect(msgs).toEqual(expect.arrayContaining([
      'LOD1/PXL1/PXI1[0]/items[1]: SourceMeshIndex 9: no such mesh in MSL1',
      'LOD1/CLL1/COL1[1]/colliders[0]: ColBoneID 42: no bone with that BoneID in SKL1',
      'LOD1/MSL1/MSH1[0]/faceGroups[0]: material "nope" is not in MAT1',
      'LOD1/MSL1/MSH1[0]/faceGroups[1]: VertexIndCnt 4 is not a multiple of 3',
      'LOD1/MSL1/MSH1[0]/faceGroups[1]: VertexIndex[2] = 9999 is out of range (235 elements)',
      'LOD1/SKL1/bones[1]: BoneParentID 2 is not the ID of an earlier bone (parents must come first)',
    ]));
    const p = lodkaCodec.validate(doc).find((x) => x.message.startsWith('SourceMeshIndex'))!;
    expect(p.path).toEqual([...pathOf(doc, 'PXI1'), 'items', 1, 'sourceMeshIndex']);
    // The offset is the record's own start, not the chunk's.
    expect(p.offset).toBe(pxi.items[1]!.$span![0]);
    expect(p.offset).toBeGreaterThan(pxi.$span![0]);
  });
});

describe('LODka toScene', () => {
  it('unwelds corners: every scene corner has the position, normal and uv its indices name', () => {
    const doc = fresh();
    const scene = lodkaCodec.toScene(doc);
    const mesh = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
    const sm = scene.meshes[0]!;
    // Groups are per material, in material order, covering every triangle.
    expect(sm.groups.map((g) => scene.materials[g.material]!.name)).toEqual(['steel', 'paint', 'visor']);
    expect(sm.indices.length).toBe(mesh.faceGroups.reduce((s, g) => s + g.vertexIndex.length, 0));
    let c = 0;
    for (const g of mesh.faceGroups) {
      for (let k = 0; k < g.vertexIndex.length; k++, c++) {
        const v = sm.indices[c]!;
        const src = g.vertexIndex[k]!;
        expect([sm.positions[v * 3], sm.positions[v * 3 + 1], sm.positions[v * 3 + 2]]).toEqual([mesh.meshPointsPos[src * 3], mesh.meshPointsPos[src * 3 + 1], mesh.meshPointsPos[src * 3 + 2]]);
        const n = g.normalIndex![k]!;
        expect(sm.normals![v * 3 + 1]).toBe(mesh.meshNormals[n * 3 + 1]);
        const t = g.txCrdsInd[0]![k]!;
        expect(sm.uvs[0]![v * 2]).toBe(mesh.meshTxCrd[0]![t * 2]);
      }
    }
    // Skin: torso vertices on Spine (1), head on Head (2), weight 1.
    expect(sm.skin!.joints[0]).toBe(1);
    expect(sm.skin!.weights[0]).toBe(1);
  });

  it('builds skeleton, clips, proxies, colliders, light schemes and textures', () => {
    const scene = lodkaCodec.toScene(fresh());
    expect(scene.skeleton!.bones.map((b) => [b.name, b.parent])).toEqual([['Hips', -1], ['Spine', 0], ['Head', 1]]);
    // Bind pose from frame 0 of "Bind": Spine is 0.4 above Hips.
    expect(scene.skeleton!.bones[1]!.matrix[13]).toBeCloseTo(0.4, 6);
    expect(scene.skeleton!.bones[2]!.inverseBind![13]).toBeCloseTo(-1.9, 5);
    const wave = scene.clips.find((c) => c.name === 'Wave')!;
    expect(wave.frames).toBe(24);
    expect(wave.duration).toBeCloseTo(23 * 0.06, 6);
    expect(wave.tracks[2]!.times[1]).toBeCloseTo(0.06, 6);
    const q = wave.tracks[2]!.rotations!.subarray(6 * 4, 6 * 4 + 4);
    // Frame 6 of 24: head yaw 0.6 * sin(pi/2) = 0.6 rad about Y.
    expect(q[1]).toBeCloseTo(Math.sin(0.3), 5);
    expect(q[3]).toBeCloseTo(Math.cos(0.3), 5);
    const left = scene.nodes.find((n) => n.name === 'Left arm')!;
    expect(left.mesh).toBe(2);
    expect(scene.nodes[left.parent]!.name).toBe('Shoulders');
    expect(scene.nodes.find((n) => n.name === 'Arm')!.visible).toBe(false);
    // A parent cycle among proxy items is broken at the proxy root, never followed.
    const doc = fresh();
    const pxi = getAt(doc, pathOf(doc, 'PXI1')) as Pxi1Chunk;
    pxi.items[0]!.proxyParentIndex = 2;
    const cyc = lodkaCodec.toScene(doc).nodes;
    const root = cyc.findIndex((n) => n.name === 'proxy for mesh 3');
    expect(cyc.filter((n) => ['Shoulders', 'Left arm', 'Right arm'].includes(n.name)).map((n) => n.parent)).toEqual([root, root, root]);
    expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error').map((p) => p.where)).toEqual([
      'LOD1/PXL1/PXI1[0]/items[0]', 'LOD1/PXL1/PXI1[0]/items[1]', 'LOD1/PXL1/PXI1[0]/items[2]',
    ]);
    expect(scene.colliders!.map((c) => [c.set, c.name, c.shape, c.bone])).toEqual([['Far', 'Body', 'capsule', 0], ['Near', 'Torso', 'box', 1], ['Near', 'Head', 'sphere', 2]]);
    expect(scene.lightSchemes!.map((s) => [s.name, s.lights.length, s.lights[0]!.type])).toEqual([['Day', 8, 'directional'], ['Night', 8, 'point']]);
    expect(scene.materials.find((m) => m.name === 'visor')!.blending).toBe('blend');
    expect(scene.bounds!.max[1]).toBeGreaterThan(2);
  });

  it('turns weight records into four joints per vertex, normalised', () => {
    const g = box(1, 1, 1);
    const nv = g.positions.length / 3;
    const ids: number[] = [];
    const ws: number[] = [];
    for (let v = 0; v < nv; v++) {
      ids.push(0, 1, 2 | 0x80);
      ws.push(0.5, 0.25, 0.25);
    }
    const doc = lodDocument([container('LOD1', [
      container('MAL1', [materialLibrary([colouredMaterial('m', [1, 1, 1])])]),
      skeleton([{ name: 'a', parent: -1 }, { name: 'b', parent: 0 }, { name: 'c', parent: 1 }]),
      container('MSL1', [meshChunk({ name: 'w', geometry: g, weights: { bonesPerVertix: 3, boneIds: ids, weights: ws }, groups: [{ name: 'g', materials: ['m'], indices: g.indices }] })]),
    ])]);
    const scene = lodkaCodec.toScene(lodkaCodec.decode(lodkaCodec.encode(doc)));
    const skin = scene.meshes[0]!.skin!;
    expect(Array.from(skin.joints.subarray(0, 4))).toEqual([0, 1, 2, 0]);
    expect(Array.from(skin.weights.subarray(0, 4))).toEqual([0.5, 0.25, 0.25, 0]);
    expect(Array.from(skin.joints.subarray(skin.joints.length - 4))).toEqual([0, 1, 2, 0]);
  });
});

describe('LODka checkEdit and create', () => {
  it('refuses values a field cannot hold', () => {
    const doc = fresh();
    const mat = [...pathOf(doc, 'MAT1'), 'materials', 0];
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'options', 'shininess'], value: 300 })).toMatch(/between 0 and 255|at most 128/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'options', 'shininess'], value: 129 })).toMatch(/at most 128/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'options', 'shininess'], value: 100 })).toBeUndefined();
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'options', 'diffuse'], value: [1, 2] })).toMatch(/4 numbers/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'matName'], value: 'камень' })).toBeUndefined();
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...mat, 'matName'], value: '石' })).toMatch(/Windows-1251/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'MSH1'), 'size'], value: 3 })).toMatch(/computed/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'MSH1'), 'count'], value: 3 })).toMatch(/computed/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'PXI1'), 'count'], value: 2 })).toBeUndefined();
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'LIG1'), 'count'], value: 7 })).toMatch(/8/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'PXI1'), 'items', 0, 'sourceMeshIndex'], value: 40000 })).toMatch(/-32768 and 32767/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'SKL1'), 'bones', 0, 'boneId'], value: 1.5 })).toMatch(/whole/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'set', path: [...pathOf(doc, 'MSH1'), 'meshMode'], value: 4 })).toMatch(/2 or 3/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'insert', path: [...pathOf(doc, 'LIG1'), 'lights'], index: 0, value: {} })).toMatch(/8 lights/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'remove', path: [...pathOf(doc, 'LIG1'), 'lights', 3] })).toMatch(/8 lights/);
    expect(lodkaCodec.checkEdit!(doc, { op: 'remove', path: [...pathOf(doc, 'MAT1'), 'materials', 3] })).toBeUndefined();
  });

  it('creates every template kind, and each encodes and decodes', () => {
    const doc = fresh();
    const cases: [string, string, (d: LodDocument) => unknown][] = [
      ['LOD1', 'INF1', (d) => chunksOf(d, 'INF1').length === 2],
      ['MSL1', 'MSH1', (d) => chunksOf<Msh1Chunk>(d, 'MSH1')[4]?.meshName === 'mesh'],
      ['MAT1', 'material', (d) => chunksOf<Mat1Chunk>(d, 'MAT1')[0]!.materials[5]?.matName === 'material6'],
      ['PXI1', 'proxy item', (d) => chunksOf<Pxi1Chunk>(d, 'PXI1')[0]!.items[3]?.name === 'item4'],
      ['COL1', 'collider', (d) => chunksOf<Col1Chunk>(d, 'COL1')[0]!.colliders[1]?.colBoneId === 0],
      ['LGS1', 'light scheme', (d) => chunksOf(d, 'LIG1').length === 3],
      ['LOD1', 'screenshot', (d) => chunksOf(d, 'IMG1').length === 2],
      ['PXL1', 'PXI1', (d) => chunksOf(d, 'PXI1').length === 2],
      ['CLL1', 'COL1', (d) => chunksOf(d, 'COL1').length === 3],
      ['SKL1', 'bone', (d) => chunksOf<Skl1Chunk>(d, 'SKL1')[0]!.bones[3]?.boneId === 3],
      ['LOD1', 'chunk', (d) => chunksOf(d, 'USR1').length === 1],
      ['MSH1', 'face group', (d) => chunksOf<Msh1Chunk>(d, 'MSH1')[0]!.faceGroups[3]?.faceName === 'Group3'],
    ];
    let d = doc;
    for (const [parentId, kind, check] of cases) {
      const parent = parentId === 'LOD1' ? ['chunks', 0] : pathOf(d, parentId);
      const cmd = lodkaCodec.create!(d, parent, kind);
      expect(cmd, `${parentId} ${kind}`).toBeDefined();
      expect(lodkaCodec.checkEdit!(d, cmd!)).toBeUndefined();
      applyCommand(d, cmd!);
      d = lodkaCodec.decode(lodkaCodec.encode(d));
      expect(check(d), `${parentId} ${kind}`).toBe(true);
    }
    expect(newCollider('x', 3).colBoneId).toBe(3);
    expect(newProxyItem('p').proxyRotation).toEqual([0, 0, 0, 1]);
  });
});

describe.skipIf(!hasCorpus || corpusFiles('lodka').length === 0)('LODka scene on the corpus', () => {
  it('model.lod: groups per material and per-corner unwelding', () => {
    const file = corpusFiles('lodka').find((f) => f.endsWith('__model.lod'))!;
    const scene = lodkaCodec.toScene(lodkaCodec.decode(readBytes(file)));
    const m = scene.meshes[0]!;
    expect(m.indices.length).toBe(72);
    // Material order: material1 (Group2) then material2 (Group3); Group1 is empty.
    expect(m.groups.map((g) => [scene.materials[g.material]!.name, g.count])).toEqual([['material1', 36], ['material2', 36]]);
    expect(scene.materials[0]!.texture).toBe('marble.jpg');
    expect(scene.materials[1]!.texture).toBeUndefined();
  });
});
