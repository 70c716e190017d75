import { describe, expect, it } from 'vitest';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { encodeFixture, unigineFixtures } from '../../scripts/fixtures/unigine.ts';
import { unigineAnimCodec, unigineMeshCodec, type UnigineMesh } from '../../shared/formats/unigine/index.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

describe('Unigine generated fixtures', () => {
  for (const fx of unigineFixtures()) {
    it(`${fx.name} round-trips byte for byte (${fx.covers})`, () => {
      const bytes = encodeFixture(fx);
      const codec: FormatCodec = fx.doc.magic === 'an10' ? unigineAnimCodec : unigineMeshCodec;
      expect(codec.probe(bytes)).toBe(true);
      expectRoundTrip(codec, bytes, fx.name);
      expect(codec.validate(codec.decode(bytes)).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }

  it('writes 2-byte indices over 255 vertices and 4-byte indices over 65535', () => {
    const size = (name: string): { bytes: number; vertices: number; indices: number } => {
      const fx = unigineFixtures().find((x) => x.name === name)!;
      const doc = fx.doc as UnigineMesh;
      if (doc.magic === 'mr02') throw new Error('unexpected');
      const s = doc.surfaces[0]!;
      return { bytes: encodeFixture(fx).length, vertices: s.morphTargets[0]!.vertices.length / 3, indices: s.coordIndices.length };
    };
    const small = size('over-255.mesh');
    expect(small.vertices).toBeGreaterThan(255);
    expect(small.vertices).toBeLessThan(65536);
    const big = size('over-65535.mesh');
    expect(big.vertices).toBeGreaterThan(65535);
    // Header, vertices, tangents and UVs aside, the two index arrays take 2 or 4 bytes per entry.
    const rest = (s: { vertices: number }): number => s.vertices * (12 + 8 + 8);
    expect(small.bytes - rest(small)).toBeGreaterThanOrEqual(small.indices * 2 * 2);
    expect(small.bytes - rest(small)).toBeLessThan(small.indices * 2 * 4);
    expect(big.bytes - rest(big)).toBeGreaterThanOrEqual(big.indices * 2 * 4);
    const decoded = unigineMeshCodec.decode(encodeFixture(unigineFixtures().find((x) => x.name === 'over-65535.mesh')!)) as UnigineMesh;
    if (decoded.magic === 'mr02') throw new Error('unexpected');
    expect(decoded.surfaces[0]!.coordIndices.reduce((m, x) => Math.max(m, x), 0)).toBeGreaterThan(65535);
  });
});
