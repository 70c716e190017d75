import { describe, expect, it } from 'vitest';
import { buildLargeLodka, lodkaFixtures, normalizeLod } from '../../scripts/fixtures/lodka.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { LodDocument, Msh1Chunk, Skl1Chunk } from '../../shared/formats/lodka/schema.ts';
import { chunksOf } from '../../shared/formats/lodka/views.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

/**
 * MSH1 data size computed independently of the codec from the spec's width rules, so a wrong
 * width in the writer (or a reader that agrees with a wrong writer) shows up as a size mismatch.
 */
function expectedMeshSize(m: Msh1Chunk, bones: number): number {
  const w = (n: number): number => (n <= 256 ? 1 : n <= 65536 ? 2 : 4);
  const nv = m.meshPointsPos.length / 3;
  const nn = m.meshNormals.length / 3;
  let s = 4 + m.meshName.length + 3 + 4 + nv * 12 + 4 + nn * 12;
  if (m.meshMode !== 2) s += 1;
  for (const t of m.meshTxCrd) s += 4 + t.length * 4;
  s += 4 + m.pntBnAssoc.length * (bones < 255 ? 1 : 2) + 4;
  if (m.pntBnWeightType === 1) s += 8 + m.weights!.length * (bones <= 127 ? 5 : 6);
  s += 4;
  for (const g of m.faceGroups) {
    s += 4 + 1 + 4 + g.faceName.length + 1;
    for (const n of g.faceMatNames) s += 4 + n.length;
    s += 4 + g.vertexIndex.length * w(nv) + 4 + g.smoothData.length * 4;
    if (g.faceType !== 1) s += 4 + g.normalIndex!.length * w(nn);
    g.txCrdsInd.forEach((a, t) => (s += 4 + a.length * w(m.meshTxCrd[t]!.length / 2)));
  }
  return s;
}

describe('LODka fixtures built from code', () => {
  for (const fx of lodkaFixtures()) {
    it(`${fx.name} (${fx.covers}) round-trips byte for byte and decodes to what was built`, () => {
      const bytes = lodkaCodec.encode(fx.doc);
      const doc = expectRoundTrip(lodkaCodec, bytes, fx.name) as LodDocument;
      expect(normalizeLod(doc)).toEqual(normalizeLod(fx.doc));
      expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
      const bones = chunksOf<Skl1Chunk>(doc, 'SKL1')[0]?.bones.length ?? 0;
      for (const m of chunksOf<Msh1Chunk>(doc, 'MSH1')) expect(m.size).toBe(expectedMeshSize(m, bones));
    });
  }

  it('covers the variants it claims', () => {
    const all = lodkaFixtures().map((fx) => lodkaCodec.decode(lodkaCodec.encode(fx.doc)));
    const meshes = all.flatMap((d) => chunksOf<Msh1Chunk>(d, 'MSH1'));
    const vertexCounts = meshes.map((m) => m.meshPointsPos.length / 3);
    expect(vertexCounts.some((n) => n > 256 && n <= 65536)).toBe(true);
    expect(vertexCounts.some((n) => n > 65536)).toBe(true);
    expect(vertexCounts).toContain(256);
    expect(meshes.some((m) => m.meshMode === 2 && m.faceGroups.some((g) => g.faceType === 1))).toBe(true);
    expect(meshes.some((m) => m.meshMode === 3 && m.meshTxCrd.length === 2)).toBe(true);
    const boneCounts = all.map((d) => chunksOf<Skl1Chunk>(d, 'SKL1')[0]?.bones.length ?? 0);
    expect(boneCounts.some((n) => n >= 255)).toBe(true);
    const weighted = all.filter((d) => chunksOf<Msh1Chunk>(d, 'MSH1').some((m) => m.pntBnWeightType === 1));
    const weightBones = weighted.map((d) => chunksOf<Skl1Chunk>(d, 'SKL1')[0]!.bones.length);
    expect(weightBones.some((n) => n <= 127)).toBe(true);
    expect(weightBones.some((n) => n > 127)).toBe(true);
    const pxi = all.flatMap((d) => chunksOf<{ itemSize: number } & Msh1Chunk>(d, 'PXI1').map((p) => p.itemSize));
    expect(new Set(pxi)).toEqual(new Set([54, 56]));
    const man = all.flatMap((d) => chunksOf<{ collectionRecordSize: number } & Msh1Chunk>(d, 'MAN1').map((p) => p.collectionRecordSize));
    expect(new Set(man)).toEqual(new Set([28, 32]));
    const ids = new Set(all.flatMap((d) => [...JSON.stringify(d.chunks, (k, v) => (k === '$raw' || ArrayBuffer.isView(v) ? undefined : v)).matchAll(/"id":"(\w{4})"/g)].map((m) => m[1])));
    for (const id of ['LOD1', 'INF1', 'MAL1', 'MAT1', 'TXTL', 'TXTR', 'SHDL', 'SHDR', 'SKL1', 'MSL1', 'MSH1', 'ANS1', 'ANM1', 'MAN1', 'MMD1', 'PHS1', 'LGS1', 'LIG1', 'PXL1', 'PXI1', 'CLL1', 'COL1', 'IMG1', 'USR1']) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  it('embeds a real PNG in IMG1 and TXTR', () => {
    const sample = lodkaFixtures().find((f) => f.name === 'sample.lod')!.doc;
    const doc = lodkaCodec.decode(lodkaCodec.encode(sample));
    const img = chunksOf<{ screenshotData: Uint8Array } & Msh1Chunk>(doc, 'IMG1')[0]!.screenshotData;
    expect(Array.from(img.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const scene = lodkaCodec.toScene(doc);
    const ground = scene.materials.find((m) => m.name === 'ground')!;
    expect(ground.textureData && Array.from(ground.textureData.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]);
  });

  it('builds the large benchmark file at any size (checked small here)', () => {
    for (const [sets, boneWeights] of [[2, true], [1, false]] as const) {
      const bytes = buildLargeLodka({ triangles: 5000, textureSets: sets, boneWeights });
      const doc = expectRoundTrip(lodkaCodec, bytes, 'large.lod') as LodDocument;
      const info = lodkaCodec.info(doc, bytes.length);
      expect(info.meshes[0]!.triangles).toBeGreaterThanOrEqual(5000);
      const m = chunksOf<Msh1Chunk>(doc, 'MSH1')[0]!;
      expect(m.meshTxCrd.length).toBe(sets);
      expect(m.pntBnWeightType).toBe(boneWeights ? 1 : 0);
      expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
      const scene = lodkaCodec.toScene(doc);
      expect(scene.meshes[0]!.indices.length).toBe(info.meshes[0]!.triangles * 3);
      expect(scene.meshes[0]!.skin).toBeDefined();
    }
  });
});
