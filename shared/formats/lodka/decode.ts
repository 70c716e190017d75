/**
 * LODka 3D `.lod` decoder: signature, then a tree of chunks (ID, Size, Count, data).
 *
 * Containers are read by Size, not Count (the Count is kept as stored). Every leaf chunk must
 * use its Size exactly, which is also how the layout variants the text leaves open are told apart
 * (see NOTES.md): ANM1's 10-byte header, PXI1 items of 54 or 56 bytes, MAN1 collection records of
 * 28 or 32 bytes, MSH1 MeshMode 2 / 3 and FaceType 1 / 2. Unknown chunk IDs keep their bytes.
 */
import { BinaryReader } from '../../binary/reader.ts';
import { keepIntact } from '../../binary/share.ts';
import { DecodeError } from '../../errors.ts';
import { deferField } from '../../model/deferred.ts';
import {
  CHUNK_HEADER_SIZE, CONTAINER_IDS, Collider, LEAF_IDS, LODKA_SIGNATURE, Light, MaterialOptions, PhysBody, PhysGeom,
  PhysJoint, ProxyItem54, ProxyItem56,
  type Anm1Chunk, type ChunkBase, type Col1Chunk, type ColliderItem, type ContainerChunk, type FaceGroup,
  type Img1Chunk, type Inf1Chunk, type LodChunk, type LodDocument, type Man1Chunk, type Mat1Chunk, type Material,
  type Mmd1Chunk, type MorphCollectionNode, type Msh1Chunk, type Phs1Chunk, type Lig1Chunk, type ProxyItem,
  type Pxi1Chunk, type Shader, type ShdrChunk, type Skl1Chunk, type SkeletonBone, type Texture, type TxtrChunk,
  type UnknownChunk,
} from './schema.ts';
import { assocWidth, indexWidth, weightRecordSize } from './layout.ts';

const ENC = 'cp1251' as const;

/** State carried through the tree: the bone count of the last SKL1 read decides MSH1 widths. */
interface Ctx {
  bones: number;
  /** Container nesting depth, bounded so hostile input cannot exhaust the stack. */
  depth: number;
}

/** Deeper than any real file (LOD1 > MAL1 > TXTL > TXTR is 4); hostile input beyond it is refused. */
export const MAX_CHUNK_DEPTH = 64;

export { probeLod } from './family.ts';

/** Decodes a whole `.lod` file or throws DecodeError (offset + node path). */
export function decodeLod(bytes: Uint8Array): LodDocument {
  try {
    return decodeInner(bytes);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    // Anything else here is a bug, but bad input must still surface as a DecodeError.
    throw new DecodeError(`internal error while decoding: ${e instanceof Error ? e.message : String(e)}`, 0, '');
  }
}

function decodeInner(bytes: Uint8Array): LodDocument {
  const r = new BinaryReader(bytes);
  r.need(8, 'signature');
  const signature = r.string(8, 'latin1', 'signature');
  if (signature !== LODKA_SIGNATURE) r.fail(`signature is "${signature}", expected "${LODKA_SIGNATURE}"`, 0);
  const ctx: Ctx = { bones: 0, depth: 0 };
  const chunks: LodChunk[] = [];
  const seen = new Map<string, number>();
  while (r.remaining >= CHUNK_HEADER_SIZE) chunks.push(readChunk(r, ctx, seen));
  const trailing = r.bytesCopy(r.remaining, 'trailing bytes');
  return { format: 'lodka-lod', signature, chunks, trailing, $span: [0, bytes.length] };
}

/** IDs that normally occur once in their parent: named without an index unless repeated. */
const SINGLETON_IDS = new Set(['LOD1', 'INF1', 'MAL1', 'TXTL', 'SHDL', 'SKL1', 'MSL1', 'ANS1', 'MAN1', 'MMD1', 'PHS1', 'LGS1', 'PXL1', 'CLL1', 'IMG1']);

/**
 * The node-path segment of a chunk among its siblings: `MSH1[2]` for list elements, `MSL1` for a
 * singleton (a second one becomes `MSL1[1]`). Outline names and error paths use the same rule.
 */
export function chunkSegment(id: string, indexAmongSameId: number): string {
  const safe = id.replace(/[^\x20-\x7e]/g, '?');
  if (SINGLETON_IDS.has(id) && indexAmongSameId === 0) return safe;
  return `${safe}[${indexAmongSameId}]`;
}

function readChunk(r: BinaryReader, ctx: Ctx, seen: Map<string, number>): LodChunk {
  const start = r.pos;
  const id = String.fromCharCode(r.bytes[start]!, r.bytes[start + 1]!, r.bytes[start + 2]!, r.bytes[start + 3]!);
  const k = seen.get(id) ?? 0;
  seen.set(id, k + 1);
  return r.within(chunkSegment(id, k), () => {
    r.skip(4, 'chunk ID');
    const size = r.i32();
    const count = r.i32();
    if (size < 0 || size > r.remaining) r.fail(`${id} Size ${size} does not fit in the ${r.remaining} bytes left`, start + 4);
    const body = r.sub(size, undefined, `${id} data`);
    const head: ChunkBase = { id, size, count };
    let node: LodChunk;
    if ((CONTAINER_IDS as readonly string[]).includes(id)) {
      if (ctx.depth >= MAX_CHUNK_DEPTH) r.fail(`containers nested deeper than ${MAX_CHUNK_DEPTH} levels`, start);
      ctx.depth++;
      const children: LodChunk[] = [];
      const childSeen = new Map<string, number>();
      while (!body.atEnd) {
        if (body.remaining < CHUNK_HEADER_SIZE) body.fail(`${body.remaining} bytes left in ${id}, too few for a chunk header`);
        children.push(readChunk(body, ctx, childSeen));
      }
      ctx.depth--;
      node = { ...head, children } as ContainerChunk;
      if (count !== children.length) node.keepCount = true;
    } else if ((LEAF_IDS as readonly string[]).includes(id)) {
      node = readLeaf(body, head, ctx);
      body.expectEnd(`${id} data`);
    } else {
      node = { ...head, data: body.bytesCopy(size, 'chunk data') } as UnknownChunk;
    }
    node.$span = [start, r.pos];
    node.$raw = r.bytes.subarray(start, r.pos);
    return node;
  });
}

function readLeaf(r: BinaryReader, head: ChunkBase, ctx: Ctx): LodChunk {
  switch (head.id) {
    case 'INF1':
      return { ...head, text: r.string(r.remaining, ENC, 'INF1 text') } as Inf1Chunk;
    case 'SKL1': {
      const node = readSkeleton(r, head);
      ctx.bones = node.bones.length;
      return node;
    }
    case 'ANM1':
      return readAnimation(r, head);
    case 'MAT1':
      return readMaterials(r, head);
    case 'TXTR':
      return readTextures(r, head);
    case 'SHDR':
      return readShaders(r, head);
    case 'MSH1':
      return readMesh(r, head, ctx);
    case 'MAN1':
      return readMorphCollections(r, head);
    case 'MMD1':
      return readMorphFrames(r, head);
    case 'PHS1':
      return readPhysics(r, head);
    case 'LIG1':
      return readLightScheme(r, head);
    case 'PXI1':
      return readProxy(r, head);
    case 'COL1':
      return readColliders(r, head);
    case 'IMG1':
      return readScreenshot(r, head);
    default:
      return r.fail(`no decoder for ${head.id}`);
  }
}

function readSkeleton(r: BinaryReader, head: ChunkBase): Skl1Chunk {
  const skelType = r.u8();
  const n = r.count(head.count, 8, 'BonesCnt');
  r.chargeRecords(n, 256, 'BonesCnt', r.pos);
  const bones: SkeletonBone[] = [];
  for (let i = 0; i < n; i++) {
    bones.push(r.within(`bones[${i}]`, () => {
      const at = r.pos;
      const boneId = r.i16();
      const boneParentId = r.i16();
      const boneName = r.lenString(ENC, 'BoneName');
      return { boneId, boneParentId, boneName, $span: [at, r.pos] };
    }));
  }
  return { ...head, id: 'SKL1', skelType, bones };
}

function readAnimation(r: BinaryReader, head: ChunkBase): Anm1Chunk {
  // The chunk's Count field: the 4 bytes before its data.
  const countAt = r.pos - 4;
  // The size column's 10-byte header (not the offsets column's 13): what real files hold.
  const animType = r.u8();
  const animInterval = r.i32();
  const animMode = r.u8();
  const animName = r.lenString(ENC, 'AnimName');
  if (r.remaining % 4 !== 0) r.fail(`BonesRotPos has ${r.remaining} bytes, not a whole number of floats`);
  // The frame count sizes the clip's arrays when the model is drawn: checked here, where it is
  // decoded. A negative count (0x80000000 and up as stored) is no count at all.
  if (head.count < 0) r.fail(`ANM1 frame count ${head.count >>> 0} is invalid`, countAt);
  const bonesRotPos = r.within('bonesRotPos', () => r.f32Array(r.remaining / 4, 'BonesRotPos'));
  return { ...head, id: 'ANM1', animType, animInterval, animMode, animName, bonesRotPos };
}

function readMaterials(r: BinaryReader, head: ChunkBase): Mat1Chunk {
  const materialsType = r.u8();
  const materialsCount = r.i32Count(109, 'MaterialsCount');
  r.chargeRecords(materialsCount, 512, 'MaterialsCount', r.pos - 4);
  const materials: Material[] = [];
  for (let i = 0; i < materialsCount; i++) {
    materials.push(r.within(`materials[${i}]`, () => {
      const at = r.pos;
      const matName = r.within('matName', () => r.lenString(ENC, 'MatName'));
      const textrName = r.within('textrName', () => r.lenString(ENC, 'TextrName'));
      const options = r.within('options', () => MaterialOptions.read(r));
      return { matName, textrName, options, $span: [at, r.pos] };
    }));
  }
  const node: Mat1Chunk = { ...head, id: 'MAT1', materialsType, materialsCount, materials };
  if (head.count !== materialsCount) node.keepCount = true;
  return node;
}

function readTextures(r: BinaryReader, head: ChunkBase): TxtrChunk {
  const texturesType = r.u8();
  const n = r.count(head.count, 20, 'textures');
  r.chargeRecords(n, 256, 'textures', r.pos);
  const textures: Texture[] = [];
  for (let i = 0; i < n; i++) {
    textures.push(r.within(`textures[${i}]`, () => {
      const at = r.pos;
      const textureOptionSize = r.i32();
      const textureDataSize = r.i32();
      const textureOptionType = r.i32();
      const textureMaterialName = r.lenString(ENC, 'TextureMaterialName');
      const textureName = r.lenString(ENC, 'TextureName');
      const reserve = at + textureOptionSize - r.pos;
      if (reserve < 0) r.fail(`TextureOptionSize ${textureOptionSize} is smaller than the fixed fields and names`, at);
      const textureOptionReserve = r.bytesCopy(reserve, 'TextureOptionRezerv');
      r.count(textureDataSize, 1, 'TextureDataSize');
      const textureData = r.within('textureData', () => r.bytesCopy(textureDataSize, 'TextureData'));
      return { textureOptionSize, textureDataSize, textureOptionType, textureMaterialName, textureName, textureOptionReserve, textureData, $span: [at, r.pos] };
    }));
  }
  return { ...head, id: 'TXTR', texturesType, textures };
}

function readShaders(r: BinaryReader, head: ChunkBase): ShdrChunk {
  const shaderLibType = r.u8();
  const n = r.count(head.count, 5, 'shaders');
  r.chargeRecords(n, 256, 'shaders', r.pos);
  const shaders: Shader[] = [];
  for (let i = 0; i < n; i++) {
    shaders.push(r.within(`shaders[${i}]`, () => {
      const at = r.pos;
      const shaderSize = r.i32();
      r.count(shaderSize, 1, 'ShaderSize', at);
      if (shaderSize < 1) r.fail(`ShaderSize ${shaderSize} leaves no room for ShaderType`, at);
      const s = r.sub(shaderSize, undefined, 'shader');
      const shaderType = s.u8();
      const sh: Shader = { shaderSize, shaderType, reserve: new Uint8Array(0), $span: [at, r.pos] };
      if (shaderType === 1) {
        sh.bumpName = s.lenString(ENC, 'BumpName');
        sh.bumpNormalName = s.lenString(ENC, 'BumpNormalName');
        sh.bumpSpecularName = s.lenString(ENC, 'BumpSpecularName');
        sh.bumpLightPower = s.f32();
        sh.bumpSpecularPower = s.f32();
      }
      sh.reserve = s.bytesCopy(s.remaining, 'BumpRezerv');
      return sh;
    }));
  }
  return { ...head, id: 'SHDR', shaderLibType, shaders };
}

/**
 * A face group's count and indices into `g[key]`: deferred when the reader shares its input and
 * they are stored 1 or 2 bytes wide (BinaryReader.lazyIndexArray), so `info` and `roundtrip`
 * never widen them; `info` counts triangles with lengthOf.
 */
function readIndicesInto(r: BinaryReader, g: FaceGroup, key: 'vertexIndex' | 'normalIndex', elementCount: number, what: string): void {
  const w = indexWidth(elementCount);
  r.within(key, () => {
    const n = r.i32Count(w, what);
    const make = r.lazyIndexArray(n, w, what);
    if (make) deferField(g, key, make, n);
    else g[key] = r.indexArray(n, w, what);
  });
}

function readMesh(r: BinaryReader, head: ChunkBase, ctx: Ctx): Msh1Chunk {
  const meshName = r.within('meshName', () => r.lenString(ENC, 'MeshName'));
  const isSkeletonExists = r.u8();
  const meshMode = r.u8();
  const isMeshVisible = r.u8();
  const nv = r.within('meshPointsPos', () => r.i32Count(12, 'MeshVertexCnt'));
  const meshPointsPos = r.within('meshPointsPos', () => r.f32Array(nv * 3, 'MeshPointsPos'));
  const nn = r.within('meshNormals', () => r.i32Count(12, 'MeshNormalsCnt'));
  const meshNormals = r.within('meshNormals', () => r.f32Array(nn * 3, 'MeshNormals'));
  // MeshMode 2 predates MeshTextureNumber: exactly one texture set.
  const sets = meshMode === 2 ? 1 : r.u8();
  const meshTxCrd: Float32Array[] = [];
  for (let t = 0; t < sets; t++) {
    meshTxCrd.push(r.within(`meshTxCrd[${t}]`, () => {
      const n = r.i32Count(8, 'MeshTxCrdCnt');
      return r.f32Array(n * 2, 'MeshTxCrd');
    }));
  }
  const aw = assocWidth(ctx.bones);
  const pntBnAssoc = r.within('pntBnAssoc', () => {
    const n = r.i32Count(aw, 'PntBnAssocCnt');
    return aw === 1 ? r.u8ToU16Array(n, 'PntBnAssoc') : r.u16Array(n, 'PntBnAssoc');
  });
  const pntBnWeightType = r.i32();
  const node: Msh1Chunk = {
    ...head, id: 'MSH1', meshName, isSkeletonExists, meshMode, isMeshVisible, meshPointsPos, meshNormals, meshTxCrd,
    pntBnAssoc, pntBnWeightType, faceGroups: [],
  };
  if (pntBnWeightType === 1) {
    r.within('weights', () => {
      node.bonesPerVertix = r.i32();
      const rs = weightRecordSize(ctx.bones);
      const n = r.i32Count(rs, 'BonesWeigthArLen');
      r.need(n * rs, 'weight records');
      r.charge(n * 6, 'weight records');
      const records = r.bytesView(n * rs, 'weight records');
      if (!r.share) {
        const c = splitWeightRecords(records, n, rs);
        node.weightBoneIds = c.ids;
        node.weights = c.weights;
        return;
      }
      // A sharing decode (the input stays as it is while the document lives) splits the records
      // into their columns only when either is first read (shared/model/deferred.ts): `info`,
      // `roundtrip` and an untouched save never do. In situ the records' bytes stay where they
      // are (keepIntact).
      keepIntact(records);
      let columns: WeightColumns | undefined;
      const split = (): WeightColumns => (columns ??= splitWeightRecords(records, n, rs));
      deferField(node, 'weightBoneIds', () => split().ids, n);
      deferField(node, 'weights', () => split().weights, n);
    });
  }
  // Smallest face group: type, mode, name length, visible, one count per array.
  const ng = r.within('faceGroups', () => {
    const n = r.i32Count(18, 'FaceGroupsCnt');
    r.chargeRecords(n, 512, 'FaceGroupsCnt', r.pos - 4);
    return n;
  });
  for (let g = 0; g < ng; g++) {
    node.faceGroups.push(r.within(`faceGroups[${g}]`, () => readFaceGroup(r, sets, nv, nn, meshTxCrd)));
  }
  if (head.count !== ng) node.keepCount = true;
  return node;
}

interface WeightColumns {
  ids: Uint16Array;
  weights: Float32Array;
}

/**
 * The (BoneID, weight) records, 5 or 6 bytes each (a 1- or 2-byte id, then a float), as two
 * columns; weights are moved as their bits (NaN payloads survive).
 */
function splitWeightRecords(records: Uint8Array, n: number, rs: number): WeightColumns {
  const ids = new Uint16Array(n);
  const weights = new Float32Array(n);
  const bits = new Uint32Array(weights.buffer);
  const dv = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const idBytes = rs - 4;
  for (let i = 0, o = 0; i < n; i++, o += rs) {
    ids[i] = idBytes === 1 ? dv.getUint8(o) : dv.getUint16(o, true);
    bits[i] = dv.getUint32(o + idBytes, true);
  }
  return { ids, weights };
}

/** Placeholder of an index field until it is read (never kept: every path assigns or defers it). */
const NO_INDICES = new Uint32Array(0);

function readFaceGroup(r: BinaryReader, sets: number, nv: number, nn: number, tx: Float32Array[]): FaceGroup {
  const at = r.pos;
  const faceType = r.i32();
  const faceMode = r.u8();
  const faceName = r.within('faceName', () => r.lenString(ENC, 'FaceName'));
  const isFaceVisible = r.u8();
  // All FaceMatNameLen values come first, then all names.
  const lens: number[] = [];
  for (let t = 0; t < sets; t++) lens.push(r.within(`faceMatNames[${t}]`, () => r.i32Count(1, 'FaceMatNameLen')));
  const faceMatNames = lens.map((n, t) => r.within(`faceMatNames[${t}]`, () => r.string(n, ENC, 'FaceMatName')));
  // Fields in their usual order; the index arrays are filled in (or deferred) as they are read.
  const g: FaceGroup = { faceType, faceMode, faceName, isFaceVisible, faceMatNames, vertexIndex: NO_INDICES, smoothData: NO_INDICES, txCrdsInd: [] };
  readIndicesInto(r, g, 'vertexIndex', nv, 'VertexIndCnt');
  g.smoothData = r.within('smoothData', () => r.u32Array(r.i32Count(4, 'SmoothDataCnt'), 'SmoothData'));
  // FaceType 1 (older files) has no normal index array.
  if (faceType !== 1) readIndicesInto(r, g, 'normalIndex', nn, 'NormalsIndCnt');
  const counts: number[] = [];
  for (let t = 0; t < sets; t++) {
    const w = indexWidth(tx[t]!.length / 2);
    counts.push(r.within(`txCrdsInd[${t}]`, () => r.i32Count(w, 'TxCrdsIndCnt')));
  }
  for (let t = 0; t < sets; t++) {
    const w = indexWidth(tx[t]!.length / 2);
    g.txCrdsInd.push(r.within(`txCrdsInd[${t}]`, () => r.indexArray(counts[t]!, w, 'TxCrdsInd')));
  }
  g.$span = [at, r.pos];
  return g;
}

function readMorphCollections(r: BinaryReader, head: ChunkBase): Man1Chunk {
  // The offsets column jumps from 12 to 20: try the listed 28-byte record, then 32. The size decides.
  const start = r.pos;
  let first: unknown;
  for (const recSize of [28, 32] as const) {
    const s = new BinaryReader(r.bytes, start, r.end, r.pathSegments);
    try {
      const node = readMorphCollectionsAs(s, head, recSize);
      s.expectEnd('MAN1 data');
      r.seek(r.end);
      return node;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      first ??= e;
    }
  }
  throw first;
}

function readMorphCollectionsAs(r: BinaryReader, head: ChunkBase, recSize: 28 | 32): Man1Chunk {
  const morphCollType = r.i32();
  const n = r.count(head.count, recSize, 'morph collections');
  r.chargeRecords(n, 512, 'morph collections', r.pos);
  const recs: { nameLen: number; collNameLen: number; bones: number; anims: number; node: MorphCollectionNode }[] = [];
  for (let i = 0; i < n; i++) {
    r.within(`collections[${i}]`, () => {
      const nameLen = r.i32Count(1, 'MCNameLen');
      const collNameLen = r.i32Count(1, 'MCCollNameLen');
      const bones = r.i32Count(8, 'MCBonesCount');
      const anims = r.i32Count(13, 'MCAnimCount');
      const node: MorphCollectionNode = { mcName: '', mcCollName: '', mcParentId: 0, mcParentBone: 0, mcProxyId: 0, bones: [], anims: [] };
      if (recSize === 32) node.mcUnknown16 = r.i32();
      node.mcParentId = r.i32();
      node.mcParentBone = r.i32();
      node.mcProxyId = r.i32();
      recs.push({ nameLen, collNameLen, bones, anims, node });
    });
  }
  const boneLens: number[] = [];
  for (const c of recs) {
    r.count(c.bones, 8, 'MCBonesCount');
    for (let b = 0; b < c.bones; b++) {
      boneLens.push(r.i32Count(1, 'MCBoneNamesLen'));
      c.node.bones.push({ mcBoneName: '', mcBoneParentId: r.i32() });
    }
  }
  const animLens: number[] = [];
  for (const c of recs) {
    r.count(c.anims, 13, 'MCAnimCount');
    for (let a = 0; a < c.anims; a++) {
      animLens.push(r.i32Count(1, 'MCAnimNameLen'));
      const mcAnimMode = r.u8();
      const mcAnimInterval = r.i32();
      const mcAnimFramesCount = r.i32Count(0, 'MCAnimFramesCount');
      c.node.anims.push({ mcAnimName: '', mcAnimMode, mcAnimInterval, mcAnimFramesCount });
    }
  }
  let bi = 0;
  let ai = 0;
  let matrices = 0;
  let frames = 0;
  for (const c of recs) {
    c.node.mcName = r.string(c.nameLen, ENC, 'MCName');
    c.node.mcCollName = r.string(c.collNameLen, ENC, 'MCCollName');
    for (const b of c.node.bones) b.mcBoneName = r.string(boneLens[bi++]!, ENC, 'MCBoneName');
    let f = 0;
    for (const a of c.node.anims) {
      a.mcAnimName = r.string(animLens[ai++]!, ENC, 'MCAnimName');
      f += a.mcAnimFramesCount;
    }
    matrices += c.bones * f;
    frames += f;
  }
  const mcMatRotPos = r.within('mcMatRotPos', () => r.f32Array(r.count(matrices, 48, 'MCMatRotPos') * 12, 'MCMatRotPos'));
  const mcColliders = r.within('mcColliders', () => r.f32Array(r.count(frames, 40, 'colliders') * 10, 'colliders'));
  return { ...head, id: 'MAN1', morphCollType, collectionRecordSize: recSize, collections: recs.map((c) => c.node), mcMatRotPos, mcColliders };
}

function readMorphFrames(r: BinaryReader, head: ChunkBase): Mmd1Chunk {
  const morphCollType = r.i32();
  const n = r.count(head.count, 20, 'morph meshes');
  r.chargeRecords(n, 256, 'morph meshes', r.pos);
  const lens: [number, number][] = [];
  const entries = [];
  for (let i = 0; i < n; i++) {
    const e = r.within(`entries[${i}]`, () => {
      // Frames x vertices size the morphs drawn from this entry: checked where decoded.
      const at = r.pos;
      const mmFramesCount = r.i32();
      const mmVertexCount = r.i32();
      if (mmFramesCount < 0) r.fail(`MMFramesCount ${mmFramesCount >>> 0} is invalid`, at);
      if (mmVertexCount < 0) r.fail(`MMVertexCount ${mmVertexCount >>> 0} is invalid`, at + 4);
      const mmMeshIndex = r.i32();
      lens.push([r.i32Count(1, 'MMMeshNameLen'), r.i32Count(1, 'MMMorphColNameLen')]);
      return { mmFramesCount, mmVertexCount, mmMeshIndex, mmMeshName: '', mmMorphColName: '' };
    });
    entries.push(e);
  }
  entries.forEach((e, i) => {
    e.mmMeshName = r.string(lens[i]![0], ENC, 'MMMeshName');
    e.mmMorphColName = r.string(lens[i]![1], ENC, 'MMMorphColName');
  });
  const mmVertices = r.within('mmVertices', () => r.f32Array(r.i32Count(12, 'MMVertexCount') * 3, 'MMVertex'));
  return { ...head, id: 'MMD1', morphCollType, entries, mmVertices };
}

function readPhysics(r: BinaryReader, head: ChunkBase): Phs1Chunk {
  const physType = r.u8();
  const bodyNameLength = r.i32Count(1, 'BodyNameLengnt');
  const geomsNameLength = r.i32Count(1, 'GeomsNameLength');
  const meshLinksCount = r.i32Count(4, 'MeshLinksCount');
  const bodyCount = r.i32Count(PhysBody.fixedSize!, 'BodyCount');
  const geomsCount = r.i32Count(PhysGeom.fixedSize!, 'GeomsCount');
  const jointsCount = r.i32Count(PhysJoint.fixedSize!, 'JointsCount');
  const bodysNames = r.string(bodyNameLength, ENC, 'BodysNames');
  const geomsNames = r.string(geomsNameLength, ENC, 'GeomsNames');
  const meshLinks = r.within('meshLinks', () => r.i32Array(meshLinksCount, 'MeshLinks'));
  const bodies = [];
  for (let i = 0; i < bodyCount; i++) bodies.push(r.within(`bodies[${i}]`, () => PhysBody.read(r)));
  const geoms = [];
  for (let i = 0; i < geomsCount; i++) geoms.push(r.within(`geoms[${i}]`, () => PhysGeom.read(r)));
  const joints = [];
  for (let i = 0; i < jointsCount; i++) joints.push(r.within(`joints[${i}]`, () => PhysJoint.read(r)));
  return { ...head, id: 'PHS1', physType, bodysNames, geomsNames, meshLinks, bodies, geoms, joints };
}

function readLightScheme(r: BinaryReader, head: ChunkBase): Lig1Chunk {
  const name = r.within('name', () => r.lenString(ENC, 'LightSchemeName'));
  if (r.remaining % Light.fixedSize! !== 0) r.fail(`${r.remaining} bytes of lights is not a whole number of 94-byte lights`);
  const n = r.remaining / Light.fixedSize!;
  r.chargeRecords(n, 256, 'light', r.pos);
  const lights = [];
  for (let i = 0; i < n; i++) lights.push(r.within(`lights[${i}]`, () => Light.read(r)));
  return { ...head, id: 'LIG1', name, lights };
}

function readProxy(r: BinaryReader, head: ChunkBase): Pxi1Chunk {
  const n = r.i32Count(58, 'ProxyItemsCount');
  r.chargeRecords(n, 256, 'ProxyItemsCount', r.pos - 4);
  const lens: number[] = [];
  for (let i = 0; i < n; i++) lens.push(r.within(`items[${i}]`, () => r.i32Count(1, 'ProxyItemNameLength')));
  const names = lens.map((len, i) => r.within(`items[${i}]`, () => r.string(len, ENC, 'ProxyItemName')));
  // Sizes column: 54 bytes per item; offsets column: 56. The bytes left decide.
  let itemSize: 54 | 56 = 54;
  if (n > 0) {
    const per = r.remaining / n;
    if (per === 56) itemSize = 56;
    else if (per !== 54) r.fail(`${r.remaining} bytes for ${n} proxy items is neither 54 nor 56 bytes per item`);
  }
  const schema = itemSize === 54 ? ProxyItem54 : ProxyItem56;
  const items: ProxyItem[] = [];
  for (let i = 0; i < n; i++) items.push(r.within(`items[${i}]`, () => ({ name: names[i]!, ...schema.read(r) })));
  return { ...head, id: 'PXI1', itemSize, items };
}

function readColliders(r: BinaryReader, head: ChunkBase): Col1Chunk {
  const colListName = r.within('colListName', () => r.lenString(ENC, 'ColListName'));
  const n = r.count(head.count, 4 + Collider.fixedSize!, 'colliders');
  r.chargeRecords(n, 256, 'colliders', r.pos);
  const lens: number[] = [];
  for (let i = 0; i < n; i++) lens.push(r.within(`colliders[${i}]`, () => r.i32Count(1, 'ColItemNameLength')));
  const names = lens.map((len, i) => r.within(`colliders[${i}]`, () => r.string(len, ENC, 'ColItemName')));
  const colliders: ColliderItem[] = [];
  for (let i = 0; i < n; i++) colliders.push(r.within(`colliders[${i}]`, () => ({ name: names[i]!, ...Collider.read(r) })));
  return { ...head, id: 'COL1', colListName, colliders };
}

function readScreenshot(r: BinaryReader, head: ChunkBase): Img1Chunk {
  const screenshotType = r.i32();
  const screenshotName = r.within('screenshotName', () => r.lenString(ENC, 'ScreenshotName'));
  const screenshotData = r.within('screenshotData', () => r.bytesCopy(r.i32Count(1, 'ScreenshotDataLen'), 'ScreenshotData'));
  return { ...head, id: 'IMG1', screenshotType, screenshotName, screenshotData };
}
