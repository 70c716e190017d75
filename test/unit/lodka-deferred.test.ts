/**
 * LODka's sharing decodes (`info` in situ, `roundtrip`/`check` shared) leave the 1- and 2-byte
 * index arrays and the (BoneID, weight) records unconverted until something reads them
 * (shared/model/deferred.ts): `info` and an untouched save never do. What is made on demand must
 * equal what the copying decode makes, and the file must save back byte for byte either way.
 */
import { describe, expect, it } from 'vitest';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import '../../shared/formats/index.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { FaceGroup, LodDocument, Msh1Chunk } from '../../shared/formats/lodka/schema.ts';
import { isDeferred } from '../../shared/model/deferred.ts';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

function meshes(doc: LodDocument): Msh1Chunk[] {
  const out: Msh1Chunk[] = [];
  const walk = (chunks: readonly { id: string; children?: unknown[] }[]): void => {
    for (const c of chunks) {
      if (c.id === 'MSH1') out.push(c as unknown as Msh1Chunk);
      if (c.children) walk(c.children as { id: string; children?: unknown[] }[]);
    }
  };
  walk(doc.chunks as unknown as { id: string; children?: unknown[] }[]);
  return out;
}

describe('LODka deferred indices and weights', () => {
  // ~20,000 triangles: 10,201 vertices (2-byte vertex indices), one shared normal (1-byte normal
  // indices), 64 bones (5-byte weight records).
  const file = buildLargeLodka({ triangles: 20_000, textureSets: 2, boneWeights: true });

  for (const share of [true, 'in-situ'] as const) {
    it(`share: ${String(share)}: deferred after decode and after info, equal to the copying decode once read, saved byte for byte`, () => {
      const copied = lodkaCodec.decode(file);
      const input = file.slice();
      const budget = new MemoryBudget(1 << 30);
      const doc = withBudget(budget, () => lodkaCodec.decode(input, { share }));
      const [m] = meshes(doc);
      const [cm] = meshes(copied);
      const g = m!.faceGroups[0]! as FaceGroup;
      const deferred = (): boolean[] => [isDeferred(g, 'vertexIndex'), isDeferred(g, 'normalIndex'), isDeferred(m!, 'weightBoneIds'), isDeferred(m!, 'weights')];
      expect(deferred()).toEqual([true, true, true, true]);
      // Charged as if made: 4 bytes an index, 6 a weight record.
      const cg = cm!.faceGroups[0]!;
      expect(budget.used).toBeGreaterThanOrEqual((cg.vertexIndex.length + cg.normalIndex!.length) * 4 + cm!.weights!.length * 6);
      const info = lodkaCodec.info(doc, input.length);
      expect(info).toEqual(lodkaCodec.info(copied, file.length));
      expect(info.meshes[0]!.triangles).toBeGreaterThanOrEqual(20_000);
      expect(deferred()).toEqual([true, true, true, true]);
      if (share === true) {
        // Untouched, as roundtrip compares it: the raw pieces, nothing made.
        expect(joinBytes(lodkaCodec.encodePieces!(doc))).toEqual(file);
        expect(deferred()).toEqual([true, true, true, true]);
      }
      // Read: the same values as the copying decode, and (in situ) moved arrays do not disturb them.
      expect(g.vertexIndex).toEqual(cm!.faceGroups[0]!.vertexIndex);
      expect(g.normalIndex).toEqual(cm!.faceGroups[0]!.normalIndex);
      expect(m!.weightBoneIds).toEqual(cm!.weightBoneIds);
      expect(m!.weights).toEqual(cm!.weights);
      expect(deferred()).toEqual([false, false, false, false]);
      expect(lodkaCodec.encode(doc, { reuseRaw: false })).toEqual(file);
    });
  }

  it('the copying decode (editor, host) makes them at once', () => {
    const doc = lodkaCodec.decode(file);
    const [m] = meshes(doc);
    expect(isDeferred(m!.faceGroups[0]!, 'vertexIndex')).toBe(false);
    expect(isDeferred(m!, 'weights')).toBe(false);
  });

  it('an edit of a deferred array makes it, changes the copy and never the input', () => {
    const input = file.slice();
    const doc = lodkaCodec.decode(input, { share: true });
    const [m] = meshes(doc);
    m!.faceGroups[0]!.vertexIndex[0] = 7;
    m!.weights![0] = 0.25;
    expect(input).toEqual(file);
    const out = lodkaCodec.encode(doc, { reuseRaw: false });
    expect(out).not.toEqual(file);
    const again = lodkaCodec.decode(out);
    expect(meshes(again)[0]!.faceGroups[0]!.vertexIndex[0]).toBe(7);
    expect(meshes(again)[0]!.weights![0]).toBe(0.25);
  });
});
