/**
 * Random LODka documents: encode -> decode gives the same document, and re-encoding the decoded
 * document (reusing raw bytes, and from fields alone) gives the same bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { container, lodDocument, normalizeLod } from '../../scripts/fixtures/lodka.ts';
import { decodeText } from '../../shared/binary/text.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { defaultMaterialOptions, newLightScheme } from '../../shared/formats/lodka/edit.ts';
import { PhysBody, PhysGeom, PhysJoint, type ColliderItem, type FaceGroup, type LodChunk, type Material, type Msh1Chunk, type ProxyItem } from '../../shared/formats/lodka/schema.ts';
import { FloatTuple, NumType, Struct, type BinType } from '../../shared/schema/schema.ts';
import { dropRaw } from '../../shared/model/lossless.ts';

const name = fc.uint8Array({ maxLength: 12 }).map((b) => decodeText(b, 'cp1251'));
const f32 = fc.float({ noNaN: true, noDefaultInfinity: true });
const vec = (n: number) => fc.array(f32, { minLength: n, maxLength: n });
const u8 = fc.integer({ min: 0, max: 255 });
const i16 = fc.integer({ min: -32768, max: 32767 });
const floats = (n: number) => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
const indices = (corners: number, max: number) => fc.array(fc.integer({ min: 0, max: Math.max(0, max - 1) }), { minLength: corners, maxLength: corners }).map((a) => Uint32Array.from(a));

const material: fc.Arbitrary<Material> = fc.record({ matName: name, textrName: name, diffuse: vec(4), shininess: fc.integer({ min: 0, max: 128 }), blend: u8, enabled: u8 })
  .map(({ matName, textrName, diffuse, shininess, blend, enabled }) => ({
    matName, textrName, options: { ...defaultMaterialOptions(), ambient: [0, 0, 0, 1], diffuse, shininess, blendingMode: blend, enabled, normalMapScale: 0.5 },
  }));

function mesh(bones: number): fc.Arbitrary<Msh1Chunk> {
  return fc.record({
    meshName: name,
    meshMode: fc.constantFrom(2, 3),
    sets: fc.integer({ min: 0, max: 2 }),
    nv: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 250, max: 300 })),
    nn: fc.integer({ min: 0, max: 10 }),
    nt: fc.integer({ min: 0, max: 12 }),
    assoc: fc.boolean(),
    weights: fc.boolean(),
    groups: fc.array(fc.record({ faceType: fc.constantFrom(1, 2), tris: fc.integer({ min: 0, max: 8 }), smooth: fc.boolean(), faceName: name, mat: name }), { maxLength: 3 }),
    seed: fc.integer(),
  }).chain((s) => {
    const sets = s.meshMode === 2 ? 1 : s.sets;
    const groupArbs = s.groups.map((g) => fc.record({
      vertexIndex: indices(g.tris * 3, s.nv),
      normalIndex: indices(g.tris * 3, s.nn),
      smoothData: fc.array(fc.nat(), { minLength: g.smooth ? g.tris : 0, maxLength: g.smooth ? g.tris : 0 }).map((a) => Uint32Array.from(a)),
      tx: fc.tuple(...Array.from({ length: sets }, () => indices(g.tris * 3, s.nt))),
    }).map((a): FaceGroup => {
      const fg: FaceGroup = {
        faceType: g.faceType, faceMode: 0, faceName: g.faceName, isFaceVisible: 1, faceMatNames: Array.from({ length: sets }, () => g.mat),
        vertexIndex: a.vertexIndex, smoothData: a.smoothData, txCrdsInd: a.tx,
      };
      if (g.faceType === 2) fg.normalIndex = a.normalIndex;
      return fg;
    }));
    const nrec = bones > 0 && s.weights ? s.nv : 0;
    return fc.record({
      pos: floats(s.nv * 3),
      nrm: floats(s.nn * 3),
      tex: fc.tuple(...Array.from({ length: sets }, () => floats(s.nt * 2))),
      assoc: fc.array(fc.integer({ min: 0, max: Math.max(0, bones - 1) }), { minLength: bones > 0 && s.assoc ? s.nv : 0, maxLength: bones > 0 && s.assoc ? s.nv : 0 }),
      ids: fc.array(fc.integer({ min: 0, max: Math.max(0, bones - 1) }), { minLength: nrec, maxLength: nrec }),
      next: fc.array(fc.boolean(), { minLength: nrec, maxLength: nrec }),
      w: floats(nrec),
      groups: fc.tuple(...groupArbs),
    }).map((d): Msh1Chunk => {
      const m: Msh1Chunk = {
        id: 'MSH1', size: 0, count: d.groups.length, meshName: s.meshName, isSkeletonExists: bones > 0 ? 1 : 0, meshMode: s.meshMode, isMeshVisible: 1,
        meshPointsPos: d.pos, meshNormals: d.nrm, meshTxCrd: d.tex, pntBnAssoc: Uint16Array.from(d.assoc), pntBnWeightType: nrec > 0 ? 1 : 0, faceGroups: d.groups,
      };
      if (nrec > 0) {
        const bit = bones <= 127 ? 0x80 : 0x8000;
        m.bonesPerVertix = 2;
        m.weightBoneIds = Uint16Array.from(d.ids, (id, i) => id | (d.next[i] ? bit : 0));
        m.weights = d.w;
      }
      return m;
    });
  });
}

/** Random values for any fixed record, straight from its schema (every field at its full range). */
function arbOf(t: BinType<any>): fc.Arbitrary<any> {
  if (t instanceof Struct) return fc.record(Object.fromEntries(t.entries.map(([k, ft]) => [k, arbOf(ft)])));
  if (t instanceof FloatTuple) return vec(t.n);
  if (t instanceof NumType) {
    switch (t.base) {
      case 'u8': return u8;
      case 'i16': return i16;
      case 'u16': return fc.integer({ min: 0, max: 65535 });
      case 'i32': return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
      case 'f32': return f32;
      default: throw new Error(`no arbitrary for ${t.base}`);
    }
  }
  throw new Error(`no arbitrary for ${t.kind}`);
}

const physics = fc.record({
  bodysNames: name, geomsNames: name, meshLinks: fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 3 }).map((a) => Int32Array.from(a)),
  bodies: fc.array(arbOf(PhysBody), { maxLength: 2 }), geoms: fc.array(arbOf(PhysGeom), { maxLength: 2 }), joints: fc.array(arbOf(PhysJoint), { maxLength: 2 }),
}).map((p): LodChunk => ({ id: 'PHS1', size: 0, count: 2, physType: 1, ...p } as LodChunk));

const textures = fc.array(fc.record({ textureOptionType: fc.integer(), textureMaterialName: name, textureName: name, textureOptionReserve: fc.uint8Array({ maxLength: 6 }), textureData: fc.uint8Array({ maxLength: 20 }) }), { maxLength: 3 })
  .map((ts): LodChunk => ({ id: 'TXTR', size: 0, count: ts.length, texturesType: 0, textures: ts.map((t) => ({ ...t, textureOptionSize: 0, textureDataSize: 0 })) } as LodChunk));

const shaders = fc.array(fc.oneof(
  fc.record({ shaderType: fc.constant(1), bumpName: name, bumpNormalName: name, bumpSpecularName: name, bumpLightPower: f32, bumpSpecularPower: f32, reserve: fc.uint8Array({ maxLength: 5 }) }),
  fc.record({ shaderType: fc.integer({ min: 2, max: 255 }), reserve: fc.uint8Array({ maxLength: 9 }) }),
), { maxLength: 3 }).map((ss): LodChunk => ({ id: 'SHDR', size: 0, count: ss.length, shaderLibType: 1, shaders: ss.map((x) => ({ ...x, shaderSize: 0 })) } as LodChunk));

const morphCollections = fc.record({
  wide: fc.boolean(),
  collections: fc.array(fc.record({
    mcName: name, mcCollName: name, mcUnknown16: fc.integer(), mcParentId: fc.integer(), mcParentBone: fc.integer(), mcProxyId: fc.integer(),
    bones: fc.array(fc.record({ mcBoneName: name, mcBoneParentId: fc.integer() }), { maxLength: 2 }),
    anims: fc.array(fc.record({ mcAnimName: name, mcAnimMode: u8, mcAnimInterval: fc.integer(), mcAnimFramesCount: fc.integer({ min: 0, max: 2 }) }), { maxLength: 2 }),
  }), { maxLength: 2 }),
}).chain(({ wide, collections }) => {
  const frames = collections.map((c) => c.anims.reduce((s, a) => s + a.mcAnimFramesCount, 0));
  const matrices = collections.reduce((s, c, i) => s + c.bones.length * frames[i]!, 0);
  const total = frames.reduce((a, b) => a + b, 0);
  // Without collections the two record sizes are the same bytes; the decoder then records 28.
  const recordSize = wide && collections.length ? 32 : 28;
  return fc.tuple(floats(matrices * 12), floats(total * 10)).map(([mcMatRotPos, mcColliders]): LodChunk => ({
    id: 'MAN1', size: 0, count: collections.length, morphCollType: 0, collectionRecordSize: recordSize,
    collections: collections.map((c) => {
      const { mcUnknown16, ...rest } = c;
      return recordSize === 32 ? { ...rest, mcUnknown16 } : rest;
    }),
    mcMatRotPos, mcColliders,
  } as LodChunk));
});

// Frame and vertex counts are never negative: a negative one is refused where it is decoded.
const morphFrames = fc.array(fc.record({ mmFramesCount: fc.integer({ min: 0, max: 0x7fffffff }), mmVertexCount: fc.integer({ min: 0, max: 0x7fffffff }), mmMeshIndex: fc.integer(), mmMeshName: name, mmMorphColName: name }), { maxLength: 2 })
  .chain((entries) => fc.integer({ min: 0, max: 4 }).chain((n) => floats(n * 3)).map((mmVertices): LodChunk => ({ id: 'MMD1', size: 0, count: entries.length, morphCollType: 0, entries, mmVertices } as LodChunk)));

const light = fc.record({ enabled: u8, ligthStyle: u8, position: vec(3), spotDirection: vec(3), ambient: vec(4), diffuse: vec(4), specular: vec(4), spotCutOff: f32, spotExponent: f32, constAtt: f32, linearAtt: f32, quadAtt: f32 });
const proxyItem: fc.Arbitrary<ProxyItem> = fc.record({
  name, proxyParentIndex: i16, sourceMeshIndex: i16, proxyReserved1: i16, proxyReserved2: i16, proxyReserved3: i16, proxyReserved4: i16,
  proxyPosition: vec(3), proxyRotation: vec(4), proxyScale: vec(3), proxyVisible: u8, proxyExpanded: u8,
});
const colliderItem: fc.Arbitrary<ColliderItem> = fc.record({
  name, colBoneId: i16, skelCollType: u8, collMatrix: vec(16), colTag: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), colTagFloat: f32, colVisible: u8,
  colJointAxis1: vec(4), colJointAxis1MinAngle: f32, colJointAxis1MaxAngle: f32, colJointAxis2: vec(4), colJointAxis2MinAngle: f32, colJointAxis2MaxAngle: f32,
});

const document = fc.constantFrom(0, 3, 130, 260).chain((bones) => fc.record({
  info: fc.option(name, { nil: undefined }),
  materials: fc.array(material, { maxLength: 3 }),
  boneNames: fc.array(name, { minLength: bones, maxLength: bones }),
  meshes: fc.array(mesh(bones), { maxLength: 2 }),
  anims: fc.array(fc.record({ animName: name, frames: fc.integer({ min: 0, max: 2 }), interval: fc.integer({ min: 1, max: 500 }), mode: u8 }).chain((a) =>
    floats(a.frames * bones * 6).map((data): LodChunk => ({ id: 'ANM1', size: 0, count: a.frames, animType: 1, animInterval: a.interval, animMode: a.mode, animName: a.animName, bonesRotPos: data }))), { maxLength: 2 }),
  lights: fc.array(fc.tuple(name, fc.array(light, { minLength: 8, maxLength: 8 })), { maxLength: 2 }),
  proxies: fc.array(fc.record({ target: fc.integer({ min: -1, max: 3 }), size: fc.constantFrom(54 as const, 56 as const), gap: fc.integer({ min: 0, max: 65535 }), items: fc.array(proxyItem, { maxLength: 3 }) }), { maxLength: 2 }),
  colliders: fc.array(fc.tuple(name, fc.array(colliderItem, { maxLength: 3 })), { maxLength: 2 }),
  image: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: undefined }),
  physics: fc.option(physics, { nil: undefined }),
  textures: fc.option(textures, { nil: undefined }),
  shaders: fc.option(shaders, { nil: undefined }),
  man1: fc.option(morphCollections, { nil: undefined }),
  mmd1: fc.option(morphFrames, { nil: undefined }),
  unknown: fc.option(fc.tuple(fc.stringMatching(/^X[A-Z0-9]{3}$/), fc.uint8Array({ maxLength: 16 }), fc.integer()), { nil: undefined }),
  trailing: fc.uint8Array({ maxLength: 11 }),
}).map((r) => {
  const kids: LodChunk[] = [];
  if (r.info !== undefined) kids.push({ id: 'INF1', size: 0, count: 1, text: r.info } as LodChunk);
  const library: LodChunk[] = [{ id: 'MAT1', size: 0, count: r.materials.length, materialsType: 3, materialsCount: r.materials.length, materials: r.materials } as LodChunk];
  if (r.textures) library.push(container('TXTL', [r.textures]));
  if (r.shaders) library.push(container('SHDL', [r.shaders]));
  kids.push(container('MAL1', library));
  if (bones > 0) kids.push({ id: 'SKL1', size: 0, count: bones, skelType: 1, bones: r.boneNames.map((boneName, i) => ({ boneId: i, boneParentId: i - 1, boneName })) } as LodChunk);
  kids.push(container('MSL1', r.meshes));
  if (bones > 0) kids.push(container('ANS1', r.anims));
  if (r.man1) kids.push(r.man1);
  if (r.mmd1) kids.push(r.mmd1);
  if (r.physics) kids.push(r.physics);
  kids.push(container('LGS1', r.lights.map(([n, ls]) => ({ ...newLightScheme(n), lights: ls }))));
  // Without items the two PXI1 layouts are the same bytes; the decoder then records 54.
  kids.push(container('PXL1', r.proxies.map((p) => ({ id: 'PXI1', size: 0, count: p.target, itemSize: p.items.length ? p.size : 54, items: p.size === 56 ? p.items.map((it) => ({ ...it, proxyGap: p.gap })) : p.items } as LodChunk))));
  kids.push(container('CLL1', r.colliders.map(([n, cs]) => ({ id: 'COL1', size: 0, count: cs.length, colListName: n, colliders: cs } as LodChunk))));
  if (r.image) kids.push({ id: 'IMG1', size: 0, count: 1, screenshotType: 0, screenshotName: 'shot', screenshotData: r.image } as LodChunk);
  if (r.unknown) kids.push({ id: r.unknown[0], size: 0, count: r.unknown[2], data: r.unknown[1] } as LodChunk);
  // Fewer than 12 trailing bytes cannot be a chunk header: they stay trailing.
  return lodDocument([container('LOD1', kids)], r.trailing);
}));

describe('LODka property: random documents survive encode -> decode -> encode', () => {
  it('decodes to the document that was encoded, and re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const bytes = lodkaCodec.encode(doc);
        const back = lodkaCodec.decode(bytes);
        expect(normalizeLod(back)).toEqual(normalizeLod(doc));
        expect(lodkaCodec.encode(back)).toEqual(bytes);
        dropRaw(back);
        expect(lodkaCodec.encode(back, { reuseRaw: false })).toEqual(bytes);
      }),
      { numRuns: 40, seed: 20261121 },
    );
  });
});
