/**
 * Pins every spec-versus-file finding listed in shared/formats/lodka/NOTES.md against the real
 * files, so a change that breaks one of them fails here with the note's number.
 */
import { describe, expect, it } from 'vitest';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { bindPoseWorld } from '../../shared/formats/lodka/scene.ts';
import type { Anm1Chunk, LodDocument, Mat1Chunk, Msh1Chunk, Skl1Chunk } from '../../shared/formats/lodka/schema.ts';
import { chunksOf } from '../../shared/formats/lodka/views.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { lodkaFixtures } from '../../scripts/fixtures/lodka.ts';
import { MaterialOptions, type Col1Chunk, type ShdrChunk, type TxtrChunk } from '../../shared/formats/lodka/schema.ts';

const files = corpusFiles('lodka');
const trinity = files.find((f) => f.includes('TRINITYrage'));
const model = files.find((f) => f.endsWith('__model.lod'));

function load(file: string): { doc: LodDocument; bytes: Uint8Array } {
  const bytes = readBytes(file);
  return { doc: lodkaCodec.decode(bytes), bytes };
}

describe.skipIf(!hasCorpus || !trinity || !model)('LODka notes pinned on the real files', () => {
  it('1: ANM1 header is 10 bytes (the size column), not 13 (the offsets column)', () => {
    const { doc, bytes } = load(trinity!);
    const anims = chunksOf<Anm1Chunk>(doc, 'ANM1');
    const skl = chunksOf<Skl1Chunk>(doc, 'SKL1')[0]!;
    expect(anims.length).toBe(5);
    for (const a of anims) {
      const nameLen = a.animName.length;
      expect(a.size).toBe(10 + nameLen + 24 * skl.bones.length * a.count);
      // The name really starts 10 bytes into the data.
      const start = a.$span![0] + 12 + 10;
      expect(String.fromCharCode(...bytes.subarray(start, start + nameLen))).toBe(a.animName);
    }
  });

  it('2-3: frame 0 of the first ANM1 is the bind pose, local = T * Rz * Ry * Rx', () => {
    const { doc } = load(trinity!);
    const mesh = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
    const world = bindPoseWorld(doc);
    expect(world.length).toBe(40);
    let sum = 0;
    const nv = mesh.meshPointsPos.length / 3;
    for (let v = 0; v < nv; v++) {
      const w = world[mesh.pntBnAssoc[v]!]!;
      sum += Math.hypot(mesh.meshPointsPos[v * 3]! - w[12]!, mesh.meshPointsPos[v * 3 + 1]! - w[13]!, mesh.meshPointsPos[v * 3 + 2]! - w[14]!);
    }
    // Mean distance from a vertex to its bone (model height 74): 5.3 with this convention.
    expect(sum / nv).toBeLessThan(8);
    // Root bone of the bind pose: position (0.23, 0.37, 39.5), Z-up model.
    expect(world[0]![14]).toBeCloseTo(39.526, 2);
  });

  it('4-5: MeshMode 2 with FaceType 1 (no normal indices) and MeshMode 3 with FaceType 2', () => {
    const t = chunksOf<Msh1Chunk>(load(trinity!).doc, 'MSH1')[0]!;
    expect(t.meshMode).toBe(2);
    expect(t.meshTxCrd.length).toBe(1);
    expect(t.faceGroups.map((g) => g.faceType)).toEqual([1, 1, 1, 1]);
    expect(t.faceGroups.every((g) => g.normalIndex === undefined)).toBe(true);
    const m = chunksOf<Msh1Chunk>(load(model!).doc, 'MSH1')[0]!;
    expect(m.meshMode).toBe(3);
    expect(m.faceGroups.every((g) => g.faceType === 2 && g.normalIndex !== undefined)).toBe(true);
  });

  it('6-7: no normals and isSkeletonExists 0 although every vertex has a bone', () => {
    const { doc } = load(trinity!);
    const t = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
    expect(t.meshNormals.length).toBe(0);
    expect(t.isSkeletonExists).toBe(0);
    expect(t.pntBnAssoc.length).toBe(t.meshPointsPos.length / 3);
    const scene = lodkaCodec.toScene(doc);
    const n = scene.meshes[0]!.normals!;
    // Computed normals are unit length.
    for (let i = 0; i < n.length; i += 3) expect(Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!)).toBeCloseTo(1, 3);
    expect(scene.meshes[0]!.skin).toBeDefined();
  });

  it('8: empty face groups exist', () => {
    const m = chunksOf<Msh1Chunk>(load(model!).doc, 'MSH1')[0]!;
    const empty = m.faceGroups.find((g) => g.faceName === 'Group1')!;
    expect(empty.vertexIndex.length).toBe(0);
    expect(empty.normalIndex!.length).toBe(0);
    expect(empty.txCrdsInd[0]!.length).toBe(0);
  });

  it('9: face material names are MAT1 names (texture file names in TRINITYrage)', () => {
    const { doc } = load(trinity!);
    const names = chunksOf<Mat1Chunk>(doc, 'MAT1')[0]!.materials.map((m) => m.matName);
    const t = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
    for (const g of t.faceGroups) expect(names).toContain(g.faceMatNames[0]);
    expect(names[0]).toBe('trinitypantsF.bmp');
    expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('10: 569 vertices and 427 texture coordinates use 2-byte indices', () => {
    const { doc } = load(trinity!);
    const t = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
    expect(t.meshPointsPos.length / 3).toBe(569);
    expect(t.meshTxCrd[0]!.length / 2).toBe(427);
    const g = t.faceGroups[0]!;
    // type 4 + mode 1 + name 4+6 + visible 1 + matname 4+17 + count 4 + indices 2 each + smooth 4 + count 4 + tex 2 each
    const expected = 4 + 1 + 4 + g.faceName.length + 1 + 4 + g.faceMatNames[0]!.length + 4 + 2 * g.vertexIndex.length + 4 + 4 + 2 * g.txCrdsInd[0]!.length;
    expect(g.$span![1] - g.$span![0]).toBe(expected);
  });
});

describe.skipIf(!hasCorpus || !model)('LODka notes pinned on the real files (2)', () => {
  it('11: SmoothDataCnt is the triangle count (model.lod) or 0 (TRINITYrage.lod)', () => {
    const m = chunksOf<Msh1Chunk>(load(model!).doc, 'MSH1')[0]!;
    for (const g of m.faceGroups) expect(g.smoothData.length).toBe(g.vertexIndex.length / 3);
    expect(Array.from(m.faceGroups[0]!.smoothData.subarray(0, 4))).toEqual([1, 1, 2, 2]);
    const t = chunksOf<Msh1Chunk>(load(trinity!).doc, 'MSH1')[0]!;
    for (const g of t.faceGroups) expect(g.smoothData.length).toBe(0);
  });
});

describe.skipIf(!hasCorpus || !model)('LODka winding', () => {
  it('21: triangles are counter-clockwise around their stored normals (no flip in toScene)', () => {
    const scene = lodkaCodec.toScene(load(model!).doc);
    const m = scene.meshes[0]!;
    let ccw = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [m.indices[t]!, m.indices[t + 1]!, m.indices[t + 2]!];
      const p = (i: number, k: number): number => m.positions[i * 3 + k]!;
      const u = [0, 1, 2].map((k) => p(b, k) - p(a, k));
      const w = [0, 1, 2].map((k) => p(c, k) - p(a, k));
      const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
      let d = 0;
      for (const i of [a, b, c]) for (let k = 0; k < 3; k++) d += n[k]! * m.normals![i * 3 + k]!;
      if (d > 0) ccw++;
    }
    expect(m.indices.length / 3).toBe(24);
    expect(ccw).toBe(24);
  });
});

describe('LODka notes pinned on written bytes', () => {
  const every = lodkaFixtures().find((f) => f.name === 'every-chunk.lod')!;
  const bytes = lodkaCodec.encode(every.doc);
  const doc = lodkaCodec.decode(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  it('12: TextureWrap carries GLScene labels the text leaves out', () => {
    expect(MaterialOptions.fields.find((f) => f.name === 'textureWrap')!.enumLabels).toEqual(['twBoth', 'twNone', 'twVertical', 'twHorizontal']);
    expect(MaterialOptions.fixedSize).toBe(101);
  });

  it('14: COL1 ColListName is length-prefixed', () => {
    const c = chunksOf<Col1Chunk>(doc, 'COL1')[1]!;
    const at = c.$span![0] + 12;
    expect(dv.getInt32(at, true)).toBe(c.colListName.length);
    expect(String.fromCharCode(...bytes.subarray(at + 4, at + 4 + c.colListName.length))).toBe('near');
  });

  it('18: ShaderSize counts bytes after itself; TextureOptionSize counts from the record start', () => {
    const s = chunksOf<ShdrChunk>(doc, 'SHDR')[0]!;
    for (const sh of s.shaders) {
      expect(dv.getInt32(sh.$span![0], true)).toBe(sh.$span![1] - sh.$span![0] - 4);
      // 21 fixed bytes after ShaderSize (type 1 + three lengths 12 + two floats 8) plus names and reserve.
      expect(sh.$span![1] - sh.$span![0] - 4).toBe(21 + sh.bumpName!.length + sh.bumpNormalName!.length + sh.bumpSpecularName!.length + sh.reserve.length);
    }
    expect(Array.from(s.shaders[1]!.reserve)).toEqual([9, 9]);
    const t = chunksOf<TxtrChunk>(doc, 'TXTR')[0]!;
    for (const x of t.textures) {
      const optionSize = dv.getInt32(x.$span![0], true);
      expect(optionSize).toBe(20 + x.textureMaterialName.length + x.textureName.length + x.textureOptionReserve.length);
      expect(x.$span![0] + optionSize + x.textureData.length).toBe(x.$span![1]);
    }
    expect(Array.from(t.textures[1]!.textureOptionReserve)).toEqual([1, 2, 3]);
  });

  it('20: TXTL and IMG1 after LOD1 stay where they were', () => {
    expect(doc.chunks.map((c) => c.id)).toEqual(['LOD1', 'TXTL', 'IMG1']);
    expect(lodkaCodec.outline(doc).children!.map((c) => c.name)).toEqual(['LOD1', 'TXTL', 'IMG1']);
  });
});
