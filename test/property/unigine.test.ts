import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertEncodeDecode } from '../helpers/property.ts';
import { decodeAnim, encodeAnim } from '../../shared/formats/unigine/anim-io.ts';
import { frameCounts } from '../../shared/formats/unigine/frames.ts';
import { decodeMesh, encodeMesh, type UnigineMesh } from '../../shared/formats/unigine/mesh-codec.ts';
import { lz4Compress, lz4CompressPieces, lz4Decompress } from '../../shared/formats/unigine/lz4.ts';
import type { AnimClip, UnigineAnim, UnigineBone, UnigineClip, UnigineSurface } from '../../shared/formats/unigine/schema.ts';


const name = fc.array(fc.integer({ min: 1, max: 255 }), { maxLength: 10 }).map((c) => String.fromCharCode(...c));
const f32 = fc.float({ noNaN: true });
const floats = (n: number): fc.Arbitrary<number[]> => fc.array(f32, { minLength: n, maxLength: n });
const f32Array = (n: number): fc.Arbitrary<Float32Array> => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
const i16Array = (n: number): fc.Arbitrary<Int16Array> => fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: n, maxLength: n }).map((a) => Int16Array.from(a));
const u16Array = (n: number): fc.Arbitrary<Uint16Array> => fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: n, maxLength: n }).map((a) => Uint16Array.from(a));

function clipArb<Q extends boolean>(quantised: Q, numBones: number): fc.Arbitrary<Q extends true ? AnimClip : UnigineClip<Float32Array>> {
  return fc.record({ name, nb: fc.integer({ min: 0, max: 3 }), frames: fc.integer({ min: 0, max: 4 }), flag: fc.integer({ min: 0, max: 255 }), box: floats(12) }).chain((c) =>
    fc.array(fc.integer({ min: 0, max: 0x7f }), { minLength: c.nb * c.frames, maxLength: c.nb * c.frames }).chain((flags) => {
      const n = frameCounts(Uint8Array.from(flags));
      return fc.record({
        bones: fc.array(fc.integer({ min: 0, max: Math.max(0, numBones - 1) }), { minLength: c.nb, maxLength: c.nb }),
        t: quantised ? u16Array(n.t) : f32Array(n.t),
        r: i16Array(n.r * 4),
        s: quantised ? u16Array(n.s) : f32Array(n.s),
      }).map((d) => {
        // With no bones the frame count cannot be derived from the flags; the file keeps it as stored.
        const clip: UnigineClip = {
          name: c.name, bones: Int16Array.from(d.bones), flag: c.flag, numFrames: c.frames, frameFlags: Uint8Array.from(flags),
          translations: d.t, rotations: d.r, scales: d.s,
        };
        if (!quantised) return clip as never;
        return { ...clip, translationMin: c.box.slice(0, 3), translationSize: c.box.slice(3, 6), scaleMin: c.box.slice(6, 9), scaleSize: c.box.slice(9, 12) } as never;
      });
    }));
}

const bonesArb = fc.integer({ min: 0, max: 3 }).chain((n) =>
  fc.record({
    bones: fc.tuple(...Array.from({ length: n }, () => fc.record({ name, parent: fc.integer({ min: -1, max: n - 1 }) }))) as fc.Arbitrary<UnigineBone[]>,
    bindPose: f32Array(n * 10),
  }));

function surfaceArb(magic: 'ms10' | 'ms11' | 'ms14', numBones: number): fc.Arbitrary<UnigineSurface> {
  const tanDim = magic === 'ms10' ? 3 : 4;
  return fc.record({ nv: fc.integer({ min: 0, max: 8 }), nt: fc.integer({ min: 0, max: 8 }), morphs: fc.integer({ min: magic === 'ms14' ? 1 : 0, max: 2 }), tris: fc.integer({ min: 0, max: 5 }) }).chain((p) =>
    fc.record({
      name, bounds: floats(10),
      morphs: fc.tuple(...Array.from({ length: p.morphs }, () => fc.record({ name, vertices: f32Array(p.nv * 3), tangents: i16Array(p.nt * tanDim), signs: fc.array(fc.integer({ min: -128, max: 127 }), { minLength: p.nt, maxLength: p.nt }) }))),
      weightCounts: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 5 }),
      uv0: f32Array(p.nt * 2), uv1: fc.oneof(fc.constant(new Float32Array(0)), f32Array(p.nt * 2)),
      colors: fc.uint8Array({ maxLength: 12 }).map((c) => c.slice(0, c.length - (c.length % 4))),
      coord: fc.array(fc.integer({ min: 0, max: Math.max(0, p.nv - 1) }), { minLength: p.nv > 0 ? p.tris * 3 : 0, maxLength: p.nv > 0 ? p.tris * 3 : 0 }),
      tri: fc.array(fc.integer({ min: 0, max: Math.max(0, p.nt - 1) }), { minLength: p.nt > 0 ? p.tris * 3 : 0, maxLength: p.nt > 0 ? p.tris * 3 : 0 }),
      params: fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })),
      tree: fc.uint8Array({ maxLength: 40 }),
    }).chain((s) => {
      const total = s.weightCounts.reduce((a, b) => a + b, 0);
      return fc.record({ wb: fc.array(fc.integer({ min: 0, max: Math.max(0, numBones - 1) }), { minLength: total, maxLength: total }), wv: u16Array(total) }).map((w): UnigineSurface => {
        const surface: UnigineSurface = {
          name: s.name, boundMin: s.bounds.slice(0, 3), boundMax: s.bounds.slice(3, 6), boundCenter: s.bounds.slice(6, 9), boundRadius: s.bounds[9]!,
          morphTargets: s.morphs.map((m) => ({ name: m.name, vertices: m.vertices, tangents: m.tangents, ...(magic === 'ms10' ? { tangentSigns: Int8Array.from(m.signs) } : {}) })),
          weightCounts: Uint8Array.from(s.weightCounts), weightBones: Int16Array.from(w.wb), weightValues: w.wv,
          uv0: s.uv0, uv1: s.uv1, colors: s.colors,
          // Indices need a vertex array to point into (morph target 0).
          coordIndices: Uint32Array.from(p.morphs > 0 ? s.coord : []), triangleIndices: Uint32Array.from(p.morphs > 0 ? s.tri : []),
        };
        if (magic === 'ms14') Object.assign(surface, { param0: s.params[0], param1: s.params[1], spatialTree: s.tree });
        return surface;
      });
    }));
}

const meshArb: fc.Arbitrary<UnigineMesh> = fc.constantFrom('ms10' as const, 'ms11' as const, 'ms14' as const, 'mr02' as const).chain((magic) => {
  if (magic === 'mr02') {
    return fc.array(fc.record({ name: fc.array(fc.integer({ min: 1, max: 255 }), { maxLength: 20 }).map((c) => String.fromCharCode(...c)), n: fc.integer({ min: 0, max: 6 }) }).chain((s) =>
      fc.record({ p: f32Array(s.n * 3), nn: f32Array(s.n * 3), t: f32Array(s.n * 2) }).map((d) => ({ name: s.name, positions: d.p, normals: d.nn, uvs: d.t }))), { maxLength: 3 })
      .map((surfaces): UnigineMesh => ({ magic: 'mr02', surfaces }));
  }
  return bonesArb.chain(({ bones, bindPose }) =>
    fc.record({
      bounds: floats(10),
      surfaces: fc.array(surfaceArb(magic, bones.length), { maxLength: 3 }),
      clips: magic === 'ms14' ? fc.constant<UnigineClip<Float32Array>[]>([]) : fc.array(clipArb(false, bones.length), { maxLength: 2 }),
      version: fc.integer({ min: 0, max: 255 }),
      tail: fc.uint8Array({ minLength: 8, maxLength: 8 }),
    }).map((m): UnigineMesh => {
      const base = { boundMin: m.bounds.slice(0, 3), boundMax: m.bounds.slice(3, 6), boundCenter: m.bounds.slice(6, 9), boundRadius: m.bounds[9]!, bones, bindPose, surfaces: m.surfaces };
      if (magic === 'ms14') return { magic, version: m.version, ...base, animations: [], headerTail: m.tail };
      return { magic, ...base, animations: m.clips };
    }));
});

const animArb: fc.Arbitrary<UnigineAnim> = bonesArb.chain(({ bones, bindPose }) =>
  fc.record({ bounds: floats(10), clips: fc.array(clipArb(true, bones.length), { maxLength: 2 }) }).map((a) => ({
    magic: 'an10' as const, boundMin: a.bounds.slice(0, 3), boundMax: a.bounds.slice(3, 6), boundCenter: a.bounds.slice(6, 9), boundRadius: a.bounds[9]!,
    bones, bindPose, animations: a.clips,
  })));

describe('Unigine property: random valid documents survive encode -> decode', () => {
  it('meshes (ms10, ms11, ms14, mr02)', () => {
    assertEncodeDecode(meshArb, encodeMesh, decodeMesh, 80);
  });

  it('anims (an10)', () => {
    assertEncodeDecode(animArb, encodeAnim, decodeAnim, 60);
  });

  it('our LZ4 blocks decompress to their input (ms14 blocks we write)', () => {
    // Runs of repeated chunks exercise matches, long literal runs and overlapping copies.
    const data = fc.array(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 30 })), { maxLength: 30 })
      .map((parts) => Uint8Array.from(parts.flatMap(([chunk, times]) => Array.from({ length: times }, () => Array.from(chunk)).flat())));
    fc.assert(fc.property(data, (bytes) => {
      expect(lz4Decompress(lz4Compress(bytes), bytes.length)).toEqual(bytes);
    }), { numRuns: 100 });
  });

  it('LZ4 of pieces is LZ4 of their concatenation, byte for byte, however they are cut', () => {
    // Past 64 KiB the window drops what no match can reach; a small step moves it often. Long
    // runs (matches across many steps) and random stretches (long literal runs) both occur.
    const stretch = fc.oneof(
      fc.tuple(fc.constant('run' as const), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 40_000 })),
      fc.tuple(fc.constant('noise' as const), fc.integer(), fc.integer({ min: 1, max: 40_000 })),
      fc.tuple(fc.constant('repeat' as const), fc.integer({ min: 1, max: 70_000 }), fc.integer({ min: 1, max: 20_000 })),
    );
    const input = fc.array(stretch, { minLength: 1, maxLength: 8 }).map((parts) => {
      const out: number[] = [];
      for (const [kind, a, len] of parts) {
        if (kind === 'run') for (let i = 0; i < len; i++) out.push(a);
        else if (kind === 'noise') { let x = a | 1; for (let i = 0; i < len; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; out.push(x & 0xff); } }
        else for (let i = 0; i < len; i++) out.push(out.length >= a ? out[out.length - a]! : i & 0xff);
      }
      return Uint8Array.from(out);
    });
    const arb = input.chain((bytes) => fc.tuple(fc.constant(bytes), fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 6 }), fc.integer({ min: 1, max: 5000 })));
    fc.assert(fc.property(arb, ([bytes, cutAt, step]) => {
      const cuts = [0, ...cutAt.sort((a, b) => a - b), bytes.length];
      const pieces = cuts.slice(1).map((c, k) => bytes.subarray(cuts[k]!, c));
      const packed = lz4CompressPieces(pieces, step);
      expect(Buffer.from(packed).equals(Buffer.from(lz4Compress(bytes)))).toBe(true);
      expect(lz4Decompress(packed, bytes.length)).toEqual(bytes);
    }), { numRuns: 40 });
  });
});
