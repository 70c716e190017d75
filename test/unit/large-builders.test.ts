/**
 * The benchmark's large-file builders (scripts/fixtures/*.ts), run at a small size: each must give
 * a valid file of at least the size asked for that round-trips byte for byte, so the benchmark's
 * figures are for real, well-formed models.
 */
import { describe, expect, it } from 'vitest';
import { buildLargeGrimrockModel } from '../../scripts/fixtures/grimrock.ts';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';
import { buildLargeMlod } from '../../scripts/fixtures/mlod.ts';
import { buildLargeOdol } from '../../scripts/fixtures/odol.ts';
import { buildLargeUnigineMesh } from '../../scripts/fixtures/unigine.ts';
import { formatById, type FormatId } from '../../shared/formats/index.ts';
import { GENERATED, loadBuilder } from '../../bench/lib/inputs.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

function check(id: FormatId, bytes: Uint8Array): { vertices: number; triangles: number } {
  const codec = formatById(id);
  const doc = expectRoundTrip(codec, bytes);
  const problems = codec.validate(doc as never);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  const info = codec.info(doc as never, bytes.length);
  return {
    vertices: info.meshes.reduce((s, m) => s + m.vertices, 0),
    triangles: info.meshes.reduce((s, m) => s + m.triangles, 0),
  };
}

describe('large benchmark inputs, built small', () => {
  it('Grimrock: at least the vertices asked for, in one mesh', () => {
    const got = check('grimrock-model', buildLargeGrimrockModel(5_000));
    expect(got.vertices).toBeGreaterThanOrEqual(5_000);
    expect(got.triangles).toBeGreaterThan(got.vertices);
  });

  it('Unigine: at least the vertices asked for, past the 2-byte index limit too', () => {
    expect(check('unigine-mesh', buildLargeUnigineMesh(5_000)).vertices).toBeGreaterThanOrEqual(5_000);
    expect(check('unigine-mesh', buildLargeUnigineMesh(70_000)).vertices).toBeGreaterThanOrEqual(70_000);
  });

  it('LODka: at least the triangles asked for', () => {
    expect(check('lodka-lod', buildLargeLodka({ triangles: 20_000, textureSets: 2, boneWeights: true })).triangles).toBeGreaterThanOrEqual(20_000);
  });

  it('MLOD and ODOL builders decode and round-trip', () => {
    check('p3d-mlod', buildLargeMlod(2_000));
    check('p3d-odol', buildLargeOdol({ version: 73, lods: 1, size: 40 }));
  });

  it('every benchmark input names a builder its module exports', async () => {
    for (const spec of GENERATED) {
      const builder = await loadBuilder(spec);
      expect(builder.ok ? '' : builder.reason, spec.label).toBe('');
    }
  });
});
