import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropRaw } from '../../shared/model/lossless.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import type { OdolV7Document } from '../../shared/formats/p3d/odol/v7.ts';
import { buildOdolDocument, buildOdolV7Document } from '../../scripts/fixtures/odol.ts';

const VERSIONS = [40, 43, 45, 48, 50, 52, 53, 54, 56, 58, 60, 64, 67, 68, 69, 70, 73, 75];
const text = fc.string({ unit: fc.constantFrom(...'abcXYZ_\\.019 #'.split('')), maxLength: 24 });
const finite = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

const model = fc.record({
  version: fc.constantFrom(...VERSIONS),
  lods: fc.integer({ min: 1, max: 3 }),
  size: fc.integer({ min: 1, max: 14 }),
  resolutions: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: 0, max: 900 }), { minLength: 3, maxLength: 3 }),
  textures: fc.array(text, { minLength: 1, maxLength: 3 }),
  props: fc.array(fc.tuple(text, text), { maxLength: 4 }),
  jitter: fc.array(finite, { minLength: 1, maxLength: 8 }),
  proxyName: text,
  animated: fc.boolean(),
});

describe('ODOL property: generated documents survive encode -> decode', () => {
  it('Arma-family documents of any version keep every edited value and re-encode identically', () => {
    fc.assert(
      fc.property(model, (m) => {
        const doc = buildOdolDocument({ version: m.version, lods: m.lods, size: m.size, animated: m.animated });
        doc.lods.forEach((l, i) => {
          l.resolution = Math.fround(m.resolutions[i]!);
          l.textures = [...m.textures];
          l.namedProperties = m.props.map(([name, value]) => ({ name, value }));
          l.proxies[0]!.name = m.proxyName;
          const v = l.vertices.data;
          for (let k = 0; k < v.length; k++) v[k] = Math.fround(v[k]! + m.jitter[k % m.jitter.length]!);
        });
        const bytes = odolCodec.encode(doc);
        const back = odolCodec.decode(bytes) as OdolV4xDocument;
        expect(back.version).toBe(m.version);
        expect(back.hasAnimations).toBe(m.animated ? 1 : 0);
        back.lods.forEach((l, i) => {
          const src = doc.lods[i]!;
          expect(l.resolution).toBe(src.resolution);
          expect(l.textures).toEqual(src.textures);
          expect(l.namedProperties).toEqual(src.namedProperties);
          expect(l.proxies[0]!.name).toBe(m.proxyName);
          expect(l.vertices.data).toEqual(src.vertices.data);
          expect(Array.from(l.faces.indices)).toEqual(Array.from(src.faces.indices));
        });
        expect(odolCodec.encode(back)).toEqual(bytes);
        dropRaw(back);
        expect(odolCodec.encode(back, { reuseRaw: false })).toEqual(bytes);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('v7 documents keep their values and re-encode identically', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 14 }), fc.array(fc.tuple(text, text), { maxLength: 3 }), finite, (lods, size, props, shift) => {
        const doc = buildOdolV7Document({ lods, size });
        doc.lods[0]!.namedProperties = props.map(([name, value]) => ({ name, value }));
        const p = doc.lods[0]!.positions.data;
        for (let k = 0; k < p.length; k += 3) p[k] = Math.fround(p[k]! + shift);
        const bytes = odolCodec.encode(doc);
        const back = odolCodec.decode(bytes) as OdolV7Document;
        expect(back.lods).toHaveLength(lods);
        expect(back.lods[0]!.namedProperties).toEqual(doc.lods[0]!.namedProperties);
        expect(back.lods[0]!.positions.data).toEqual(p);
        expect(odolCodec.encode(back)).toEqual(bytes);
      }),
      { numRuns: 40, seed: 11 },
    );
  });
});
