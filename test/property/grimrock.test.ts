import fc from 'fast-check';
import { describe, it } from 'vitest';
import { assertEncodeDecode } from '../helpers/property.ts';
import { decodeAnimation, encodeAnimation } from '../../shared/formats/grimrock/animation-io.ts';
import { decodeModel, encodeModel, packedKind } from '../../shared/formats/grimrock/model-io.ts';
import type { GrimrockAnimation, GrimrockModel, GrimrockNode, VertexArray, VertexData } from '../../shared/formats/grimrock/schema.ts';


const name = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 }).map((c) => String.fromCharCode(...c));
const f32 = fc.float({ noNaN: true });
const floats = (n: number): fc.Arbitrary<number[]> => fc.array(f32, { minLength: n, maxLength: n });

function vertexArray(n: number): fc.Arbitrary<VertexArray> {
  return fc.oneof(
    fc.constant<VertexArray>({ dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) }),
    fc.record({ dataType: fc.integer({ min: 0, max: 3 }), dim: fc.integer({ min: 1, max: 4 }), pad: fc.integer({ min: 0, max: 3 }) }).chain(({ dataType, dim, pad }) => {
      const stride = dim * [1, 2, 4, 4][dataType]! + pad;
      return fc.uint8Array({ minLength: n * stride, maxLength: n * stride }).map((bytes): VertexArray => {
        const copy = new Uint8Array(bytes);
        let data: VertexData = copy;
        const kind = packedKind(dataType, dim, stride);
        if (kind === 'i16') data = new Int16Array(copy.buffer);
        if (kind === 'i32') data = new Int32Array(copy.buffer);
        if (kind === 'f32') data = new Float32Array(copy.buffer);
        return { dataType, dim, stride, data };
      });
    }),
  );
}

const meshEntity = fc.integer({ min: 0, max: 6 }).chain((n) =>
  fc.record({
    arrays: fc.tuple(...Array.from({ length: 15 }, () => vertexArray(n))),
    indices: fc.array(fc.integer({ min: -5, max: 50 }), { maxLength: 12 }),
    segments: fc.array(fc.record({ material: name, primitiveType: fc.integer({ min: 0, max: 3 }), firstIndex: fc.integer({ min: 0, max: 20 }), count: fc.integer({ min: 0, max: 4 }) }), { maxLength: 3 }),
    bounds: floats(10),
    bones: fc.array(fc.record({ boneNodeIndex: fc.integer({ min: -1, max: 10 }), invRestMatrix: floats(12) }), { maxLength: 3 }),
    emissive: floats(3),
    castShadow: fc.integer({ min: 0, max: 255 }),
  }).map((m) => ({
    meshData: {
      magic: 'MESH', version: 2, numVertices: n, vertexArrays: m.arrays, numIndices: m.indices.length, indices: Int32Array.from(m.indices),
      numSegments: m.segments.length, segments: m.segments,
      boundCenter: m.bounds.slice(0, 3), boundRadius: m.bounds[3]!, boundMin: m.bounds.slice(4, 7), boundMax: m.bounds.slice(7, 10),
    },
    numBones: m.bones.length, bones: m.bones, emissiveColor: m.emissive, castShadow: m.castShadow,
  })),
);

const modelArb: fc.Arbitrary<GrimrockModel> = fc.integer({ min: 1, max: 4 }).chain((count) =>
  fc.tuple(...Array.from({ length: count }, (_, i) =>
    fc.record({ name, localToParent: floats(12), parent: i === 0 ? fc.constant(-1) : fc.integer({ min: 0, max: i - 1 }), mesh: fc.option(meshEntity, { nil: undefined }) })
      .map((r): GrimrockNode => ({ name: r.name, localToParent: r.localToParent, parent: r.parent, type: r.mesh ? 0 : -1, ...(r.mesh ? { mesh: r.mesh } : {}) })),
  )).map((nodes) => ({ magic: 'MDL1', version: 2, numNodes: nodes.length, nodes })),
);

const animationArb: fc.Arbitrary<GrimrockAnimation> = fc.record({
  version: fc.constantFrom(1, 2),
  name,
  fps: f32,
  frames: fc.integer({ min: 0, max: 100 }),
  items: fc.array(fc.record({ node: name, np: fc.integer({ min: 0, max: 5 }), nr: fc.integer({ min: 0, max: 5 }), ns: fc.integer({ min: 0, max: 5 }), seed: floats(60) }), { maxLength: 4 }),
}).map((a) => ({
  magic: 'ANIM', version: a.version, name: a.name, framesPerSecond: a.fps, numFrames: a.frames, numItems: a.items.length,
  items: a.items.map((it) => {
    // Version 1 shares one key count across the three channels.
    const [np, nr, ns] = a.version === 1 ? [it.np, it.np, it.np] : [it.np, it.nr, it.ns];
    return { node: it.node, positions: Float32Array.from(it.seed.slice(0, np * 3)), rotations: Float32Array.from(it.seed.slice(15, 15 + nr * 4)), scales: Float32Array.from(it.seed.slice(40, 40 + ns * 3)) };
  }),
}));

describe('Grimrock property: random valid documents survive encode -> decode', () => {
  it('models', () => {
    assertEncodeDecode(modelArb, encodeModel, decodeModel, 60);
  });

  it('animations (versions 1 and 2)', () => {
    assertEncodeDecode(animationArb, encodeAnimation, decodeAnimation, 60);
  });
});
