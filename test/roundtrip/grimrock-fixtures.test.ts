import { describe, expect, it } from 'vitest';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { encodeFixture, grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { grimrockAnimationCodec, grimrockModelCodec } from '../../shared/formats/grimrock/index.ts';
import type { GrimrockModel } from '../../shared/formats/grimrock/schema.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

describe('Grimrock generated fixtures', () => {
  for (const fx of grimrockFixtures()) {
    it(`${fx.name} round-trips byte for byte (${fx.covers})`, () => {
      const bytes = encodeFixture(fx);
      const codec: FormatCodec = fx.kind === 'model' ? grimrockModelCodec : grimrockAnimationCodec;
      expect(codec.probe(bytes)).toBe(true);
      expectRoundTrip(codec, bytes, fx.name);
      expect(codec.validate(codec.decode(bytes)).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }

  it('covers every vertex data type, typed when packed and raw bytes when the stride has padding', () => {
    const seen = new Map<number, Set<string>>();
    for (const fx of grimrockFixtures().filter((x) => x.kind === 'model')) {
      const doc = grimrockModelCodec.decode(encodeFixture(fx)) as GrimrockModel;
      for (const n of doc.nodes) {
        for (const a of n.mesh?.meshData.vertexArrays ?? []) {
          if (a.stride === 0) continue;
          const set = seen.get(a.dataType) ?? new Set<string>();
          set.add(a.data.constructor.name);
          seen.set(a.dataType, set);
        }
      }
    }
    expect([...seen.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect(seen.get(1)).toEqual(new Set(['Int16Array', 'Uint8Array']));
    expect(seen.get(2)).toEqual(new Set(['Int32Array', 'Uint8Array']));
    expect(seen.get(3)).toEqual(new Set(['Float32Array', 'Uint8Array']));
  });

  it('keeps the padding bytes of a wide stride', () => {
    const fx = grimrockFixtures().find((x) => x.name === 'integers.model')!;
    const doc = grimrockModelCodec.decode(encodeFixture(fx)) as GrimrockModel;
    const normals = doc.nodes[1]!.mesh!.meshData.vertexArrays[1]!;
    expect(normals.stride).toBe(8);
    expect(normals.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(normals.data.subarray(6, 8))).toEqual([0xa5, 0xa5]);
  });
});
