import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import type { LodSignature, MlodTag } from '../../shared/formats/p3d/mlod/types.ts';
import { dropRaw } from '../../shared/model/lossless.ts';
import { buildLod, buildMlod } from '../../scripts/fixtures/mlod.ts';

/** Float32 values from arbitrary bits (NaN payloads included): the codec must keep them exactly. */
const floatBits = (n: number): fc.Arbitrary<Float32Array> =>
  fc.uint32Array({ minLength: n, maxLength: n }).map((u) => new Float32Array(u.buffer, u.byteOffset, n));

const text = (max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'abcXYZ019_\\.-# '.split('')), maxLength: max });
const selectionName = fc.string({ unit: fc.constantFrom(...'abcdefgh_01'.split('')), minLength: 1, maxLength: 12 });
const resolution = fc.oneof(
  fc.integer({ min: 0, max: 999 }),
  fc.constantFrom(1000, 1100, 1200, 10000, 10010, 20000, 1e13, 2e13, 1e15, 2e15, 3e15, 4e15, 5e15, 6e15, 7e15, 2.1e16),
);

const lodArb = fc
  .record({
    signature: fc.constantFrom<LodSignature>('P3DM', 'SP3X'),
    nPoints: fc.integer({ min: 0, max: 12 }),
    resolution,
  })
  .chain(({ signature, nPoints, resolution }) =>
    fc
      .record({
        points: floatBits(nPoints * 3),
        pointFlags: fc.array(fc.nat(), { minLength: nPoints, maxLength: nPoints }),
        faces: nPoints === 0 ? fc.constant([] as number[][]) : fc.array(fc.array(fc.integer({ min: 0, max: nPoints - 1 }), { minLength: 3, maxLength: 4 }), { maxLength: 10 }),
        texturePool: fc.array(text(signature === 'SP3X' ? 31 : 60), { minLength: 1, maxLength: 3 }),
        materialPool: fc.array(text(40), { minLength: 1, maxLength: 2 }),
        picks: fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
        faceFlags: fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
        uvs: floatBits(80),
        tagPicks: fc.array(fc.constantFrom('selection', 'property', 'mass', 'uvset', 'sharpEdges', 'animation', 'raw'), { maxLength: 6 }),
        names: fc.array(selectionName, { minLength: 6, maxLength: 6 }),
        keys: fc.array(text(63), { minLength: 12, maxLength: 12 }),
        bytes: fc.uint8Array({ maxLength: 40 }),
        masses: floatBits(nPoints),
        anim: floatBits(nPoints * 3 + 1),
      })
      .map((r) => {
        const a = signature === 'P3DM' ? { active: 1 } : {};
        const nFaces = r.faces.length;
        const vertexTotal = r.faces.reduce((s, f) => s + f.length, 0);
        const tags: MlodTag[] = r.tagPicks.map((kind, i): MlodTag => {
          switch (kind) {
            case 'selection':
              return { type: 'selection', name: r.names[i]!, ...a, points: r.bytes.slice(0, nPoints).length === nPoints ? r.bytes.slice(0, nPoints) : new Uint8Array(nPoints).fill(1), faces: new Uint8Array(nFaces).fill(i & 1) };
            case 'property':
              return { type: 'property', name: '#Property#', ...a, key: r.keys[i * 2]!, value: r.keys[i * 2 + 1]! };
            case 'mass':
              return { type: 'mass', name: '#Mass#', ...a, masses: r.masses };
            case 'uvset':
              return { type: 'uvset', name: '#UVSet#', ...a, setId: i, uv: new Float32Array(vertexTotal * 2).fill(0.25 * i) };
            case 'sharpEdges':
              return { type: 'sharpEdges', name: '#SharpEdges#', ...a, edges: Uint32Array.of(0, i) };
            case 'animation':
              return { type: 'animation', name: '#Animation#', ...a, time: i * 0.5, points: r.anim.slice(1) };
            default:
              return { type: 'raw', name: `#Custom${i}#`, ...a, data: r.bytes };
          }
        });
        return buildLod({
          signature, resolution, points: r.points, pointFlags: r.pointFlags, faces: r.faces,
          uvs: r.faces.map((_, i) => Array.from(r.uvs.subarray(i * 8, i * 8 + 8))),
          textures: r.faces.map((_, i) => r.texturePool[r.picks[i]! % r.texturePool.length]!),
          materials: r.faces.map((_, i) => r.materialPool[r.picks[i]! % r.materialPool.length]!),
          faceFlags: r.faceFlags, tags,
        });
      }),
  );

describe('MLOD properties', () => {
  it('random valid documents encode, decode and re-encode to the same bytes', () => {
    fc.assert(
      fc.property(fc.array(lodArb, { minLength: 1, maxLength: 4 }), (lods) => {
        const doc = buildMlod(lods);
        const bytes = encodeMlod(doc);
        const back = decodeMlod(bytes);
        expect(back.lods.length).toBe(lods.length);
        back.lods.forEach((l, i) => {
          const src = lods[i]!;
          expect(l.signature).toBe(src.signature);
          expect(l.resolution).toBe(Math.fround(src.resolution));
          expect(Buffer.from(l.points.buffer).equals(Buffer.from(src.points.buffer))).toBe(true);
          expect(l.faces.textures).toEqual(src.faces.textures);
          expect(Array.from(l.faces.pointIndex)).toEqual(Array.from(src.faces.pointIndex));
          expect(l.tags.map((t) => [t.type, t.name])).toEqual(src.tags.map((t) => [t.type, t.name]));
        });
        expect(Buffer.from(encodeMlod(back)).equals(Buffer.from(bytes))).toBe(true);
        dropRaw(back);
        expect(Buffer.from(encodeMlod(back, { reuseRaw: false })).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
