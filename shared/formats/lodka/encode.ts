/**
 * LODka 3D `.lod` encoder. A chunk that still carries `$raw` (untouched since decoding) is copied;
 * any other chunk is written from its fields with Size, Count, name lengths, record sizes and
 * index widths recomputed. Layout variants recorded by the decoder (MeshMode, FaceType, PXI1 item
 * size, MAN1 record size, reserve bytes) are written back as recorded.
 */
import { IndexRangeError, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { writePieces } from '../../binary/pieces.ts';
import { encodeText } from '../../binary/text.ts';
import { EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import type { EncodeOptions } from '../registry.ts';
import { chunkSegment } from './decode.ts';
import { assocWidth, indexWidth, weightRecordSize } from './layout.ts';
import {
  CONTAINER_IDS, Collider, Light, MaterialOptions, PhysBody, PhysGeom, PhysJoint, ProxyItem54, ProxyItem56,
  type Anm1Chunk, type Col1Chunk, type ContainerChunk, type FaceGroup, type Img1Chunk, type Inf1Chunk, type LodChunk,
  type LodDocument, type Man1Chunk, type Mat1Chunk, type Mmd1Chunk, type Msh1Chunk, type Phs1Chunk, type Lig1Chunk,
  type Pxi1Chunk, type ShdrChunk, type Skl1Chunk, type TxtrChunk, type UnknownChunk,
} from './schema.ts';

const ENC = 'cp1251' as const;

interface Ctx {
  bones: number;
  reuseRaw: boolean;
  path: string[];
}

/** Encodes a document back to `.lod` bytes. Throws EncodeError for values a field cannot hold. */
export function encodeLod(doc: LodDocument, opts: EncodeOptions = {}): Uint8Array {
  // Measured first, then written into one buffer of exactly that size (no growth copies).
  return writeSized(lodWriter(doc, opts));
}

/** The bytes of {@link encodeLod} as pieces: views of the document's large arrays and raw bytes. */
export function encodeLodPieces(doc: LodDocument, opts: EncodeOptions = {}): Uint8Array[] {
  return writePieces(lodWriter(doc, opts));
}

function lodWriter(doc: LodDocument, opts: EncodeOptions): (w: BinaryWriter) => void {
  const sig = doc.signature ?? 'LODka3D1';
  if (sig.length !== 8) throw new EncodeError(`signature must be 8 characters, got "${sig}"`, '');
  return (w) => {
    w.string(sig, 'latin1');
    const ctx: Ctx = { bones: 0, reuseRaw: opts.reuseRaw !== false, path: [] };
    writeList(w, doc.chunks, ctx);
    if (doc.trailing?.length) w.bytes(doc.trailing);
  };
}

function writeList(w: BinaryWriter, chunks: LodChunk[], ctx: Ctx): void {
  const seen = new Map<string, number>();
  for (const c of chunks) {
    const k = seen.get(c.id) ?? 0;
    seen.set(c.id, k + 1);
    ctx.path.push(chunkSegment(String(c.id), k));
    try {
      writeChunk(w, c, ctx);
    } catch (e) {
      // A name with a character Windows-1251 cannot hold, a malformed array...: name the chunk.
      if (e instanceof EncodeError) throw e;
      fail(ctx, e instanceof Error ? e.message : String(e));
    } finally {
      ctx.path.pop();
    }
  }
}

function fail(ctx: Ctx, msg: string): never {
  throw new EncodeError(msg, ctx.path.join('/'));
}

/** The bone count the skeleton carries, so MSH1 widths follow it even for raw-copied chunks. */
function noteSkeleton(c: LodChunk, ctx: Ctx): void {
  if (c.id === 'SKL1' && 'bones' in c) ctx.bones = (c as Skl1Chunk).bones.length;
  if ('children' in c) for (const ch of (c as ContainerChunk).children) noteSkeleton(ch, ctx);
}

function writeChunk(w: BinaryWriter, c: LodChunk, ctx: Ctx): void {
  if (reusable(c, ctx.reuseRaw)) {
    w.bytes(c.$raw);
    noteSkeleton(c, ctx);
    return;
  }
  if (typeof c.id !== 'string' || c.id.length !== 4) fail(ctx, `chunk ID must be 4 characters, got ${JSON.stringify(c.id)}`);
  w.string(c.id, 'latin1');
  const sizeAt = w.reserve32();
  const countAt = w.reserve32();
  const start = w.length;
  let count: number;
  if ((CONTAINER_IDS as readonly string[]).includes(c.id) && 'children' in c) {
    const cc = c as ContainerChunk;
    writeList(w, cc.children, ctx);
    count = cc.keepCount ? cc.count : cc.children.length;
  } else {
    count = writeLeaf(w, c, ctx);
  }
  w.patchI32(sizeAt, w.length - start);
  w.patchI32(countAt, count);
}

/** Writes a leaf chunk's data; returns the header Count to write. */
function writeLeaf(w: BinaryWriter, c: LodChunk, ctx: Ctx): number {
  switch (c.id) {
    case 'INF1':
      w.string((c as Inf1Chunk).text, ENC);
      return c.count;
    case 'SKL1':
      return writeSkeleton(w, c as Skl1Chunk, ctx);
    case 'ANM1': {
      const a = c as Anm1Chunk;
      w.u8(a.animType);
      w.i32(a.animInterval);
      w.u8(a.animMode);
      w.lenString(a.animName, ENC);
      w.typed(a.bonesRotPos);
      return a.count;
    }
    case 'MAT1':
      return writeMaterials(w, c as Mat1Chunk, ctx);
    case 'TXTR':
      return writeTextures(w, c as TxtrChunk);
    case 'SHDR':
      return writeShaders(w, c as ShdrChunk);
    case 'MSH1':
      return writeMesh(w, c as Msh1Chunk, ctx);
    case 'MAN1':
      return writeMorphCollections(w, c as Man1Chunk);
    case 'MMD1':
      return writeMorphFrames(w, c as Mmd1Chunk);
    case 'PHS1':
      return writePhysics(w, c as Phs1Chunk);
    case 'LIG1': {
      const l = c as Lig1Chunk;
      w.lenString(l.name, ENC);
      for (const x of l.lights) Light.write(w, x);
      return l.count;
    }
    case 'PXI1':
      return writeProxy(w, c as Pxi1Chunk, ctx);
    case 'COL1':
      return writeColliders(w, c as Col1Chunk);
    case 'IMG1': {
      const m = c as Img1Chunk;
      w.i32(m.screenshotType);
      w.lenString(m.screenshotName, ENC);
      w.i32(m.screenshotData.length);
      w.bytes(m.screenshotData);
      return m.count;
    }
    default: {
      const u = c as UnknownChunk;
      // isView, not instanceof: a Uint8Array from another realm or a subclassed global is still bytes.
      if (!ArrayBuffer.isView(u.data)) fail(ctx, `chunk ${c.id} has no data to write`);
      w.bytes(new Uint8Array(u.data.buffer, u.data.byteOffset, u.data.byteLength));
      return u.count;
    }
  }
}

function writeSkeleton(w: BinaryWriter, s: Skl1Chunk, ctx: Ctx): number {
  w.u8(s.skelType);
  for (const b of s.bones) {
    w.i16(b.boneId);
    w.i16(b.boneParentId);
    w.lenString(b.boneName, ENC);
  }
  ctx.bones = s.bones.length;
  return s.bones.length;
}

function writeMaterials(w: BinaryWriter, m: Mat1Chunk, ctx: Ctx): number {
  w.u8(m.materialsType);
  w.i32(m.materials.length);
  m.materials.forEach((mat, i) => {
    w.lenString(mat.matName, ENC);
    w.lenString(mat.textrName, ENC);
    const bad = MaterialOptions.fields.map((f) => [f.name, MaterialOptions.checkFieldStorable(f.name, (mat.options as unknown as Record<string, unknown>)[f.name])]).find(([, e]) => e);
    if (bad) fail(ctx, `materials[${i}].options.${bad[0]} ${bad[1]}`);
    MaterialOptions.write(w, mat.options);
  });
  return m.keepCount ? m.count : m.materials.length;
}

function writeTextures(w: BinaryWriter, t: TxtrChunk): number {
  w.u8(t.texturesType);
  for (const x of t.textures) {
    const names = encodeText(x.textureMaterialName, ENC).length + encodeText(x.textureName, ENC).length;
    w.i32(20 + names + x.textureOptionReserve.length);
    w.i32(x.textureData.length);
    w.i32(x.textureOptionType);
    w.lenString(x.textureMaterialName, ENC);
    w.lenString(x.textureName, ENC);
    w.bytes(x.textureOptionReserve);
    w.bytes(x.textureData);
  }
  return t.textures.length;
}

function writeShaders(w: BinaryWriter, s: ShdrChunk): number {
  w.u8(s.shaderLibType);
  for (const x of s.shaders) {
    const at = w.reserve32();
    const start = w.length;
    w.u8(x.shaderType);
    if (x.shaderType === 1) {
      w.lenString(x.bumpName ?? '', ENC);
      w.lenString(x.bumpNormalName ?? '', ENC);
      w.lenString(x.bumpSpecularName ?? '', ENC);
      w.f32(x.bumpLightPower ?? 0);
      w.f32(x.bumpSpecularPower ?? 0);
    }
    w.bytes(x.reserve);
    w.patchI32(at, w.length - start);
  }
  return s.shaders.length;
}

function writeIndices(w: BinaryWriter, a: Uint32Array, elements: number, what: string, ctx: Ctx): void {
  w.i32(a.length);
  putIndices(w, a, indexWidth(elements), what, ctx);
}

/** The writer checks every index against the width while converting (one pass). */
function putIndices(w: BinaryWriter, a: ArrayLike<number>, width: 1 | 2 | 4, what: string, ctx: Ctx, why = ''): void {
  try {
    w.indexArray(a, width);
  } catch (e) {
    if (e instanceof IndexRangeError) fail(ctx, `${what}[${e.index}] = ${e.value} does not fit in ${width} byte(s)${why}`);
    throw e;
  }
}

function writeMesh(w: BinaryWriter, m: Msh1Chunk, ctx: Ctx): number {
  w.lenString(m.meshName, ENC);
  w.u8(m.isSkeletonExists);
  w.u8(m.meshMode);
  w.u8(m.isMeshVisible);
  const nv = m.meshPointsPos.length / 3;
  const nn = m.meshNormals.length / 3;
  if (!Number.isInteger(nv) || !Number.isInteger(nn)) fail(ctx, 'vertex and normal arrays must hold whole xyz triples');
  w.i32(nv);
  w.typed(m.meshPointsPos);
  w.i32(nn);
  w.typed(m.meshNormals);
  const sets = m.meshTxCrd.length;
  if (m.meshMode === 2) {
    if (sets !== 1) fail(ctx, `MeshMode 2 holds exactly one texture set, not ${sets}`);
  } else {
    if (sets > 255) fail(ctx, 'MeshTextureNumber is one byte');
    w.u8(sets);
  }
  for (const t of m.meshTxCrd) {
    if (t.length % 2) fail(ctx, 'texture coordinates must be uv pairs');
    w.i32(t.length / 2);
    w.typed(t);
  }
  const aw = assocWidth(ctx.bones);
  w.i32(m.pntBnAssoc.length);
  putIndices(w, m.pntBnAssoc, aw, 'pntBnAssoc', ctx, aw === 1 ? ': the skeleton has fewer than 255 bones' : '');
  w.i32(m.pntBnWeightType);
  if (m.pntBnWeightType === 1) {
    const ids = m.weightBoneIds ?? new Uint16Array(0);
    const ws = m.weights ?? new Float32Array(0);
    if (ids.length !== ws.length) fail(ctx, 'weightBoneIds and weights differ in length');
    w.i32(m.bonesPerVertix ?? 0);
    w.i32(ids.length);
    writeWeightRecords(w, ids, ws, weightRecordSize(ctx.bones), ctx);
  }
  w.i32(m.faceGroups.length);
  m.faceGroups.forEach((g, gi) => {
    ctx.path.push(`faceGroups[${gi}]`);
    writeFaceGroup(w, g, m, nv, nn, ctx);
    ctx.path.pop();
  });
  return m.keepCount ? m.count : m.faceGroups.length;
}

/** (BoneID, weight) records, 5 or 6 bytes each: one claim for the whole run, then a plain loop. */
function writeWeightRecords(w: BinaryWriter, ids: ArrayLike<number>, ws: ArrayLike<number>, rs: 5 | 6, ctx: Ctx): void {
  const n = ids.length;
  const at = w.claim(n * rs);
  if (w.counting) return;
  // Float32Array weights go as their bits, so any NaN payload survives; the records are unaligned,
  // and single-byte stores into the Uint8Array measured faster here than DataView stores.
  const bits = ws instanceof Float32Array ? new Uint32Array(ws.buffer, ws.byteOffset, n) : new Uint32Array(Float32Array.from(ws).buffer);
  const out = w.data;
  if (rs === 5) {
    for (let i = 0, o = at; i < n; i++, o += 5) {
      const id = ids[i]!;
      if (id > 255) fail(ctx, `weight record ${i} bone id ${id} needs 6-byte records (more than 127 bones)`);
      const v = bits[i]!;
      out[o] = id;
      out[o + 1] = v; out[o + 2] = v >>> 8; out[o + 3] = v >>> 16; out[o + 4] = v >>> 24;
    }
  } else {
    for (let i = 0, o = at; i < n; i++, o += 6) {
      const id = ids[i]!;
      const v = bits[i]!;
      out[o] = id; out[o + 1] = id >>> 8;
      out[o + 2] = v; out[o + 3] = v >>> 8; out[o + 4] = v >>> 16; out[o + 5] = v >>> 24;
    }
  }
}

function writeFaceGroup(w: BinaryWriter, g: FaceGroup, m: Msh1Chunk, nv: number, nn: number, ctx: Ctx): void {
  const sets = m.meshTxCrd.length;
  if (g.faceMatNames.length !== sets) fail(ctx, `${g.faceMatNames.length} material names for ${sets} texture set(s)`);
  if (g.txCrdsInd.length !== sets) fail(ctx, `${g.txCrdsInd.length} texture index arrays for ${sets} texture set(s)`);
  w.i32(g.faceType);
  w.u8(g.faceMode);
  w.lenString(g.faceName, ENC);
  w.u8(g.isFaceVisible);
  const names = g.faceMatNames.map((s) => encodeText(s, ENC));
  for (const n of names) w.i32(n.length);
  for (const n of names) w.bytes(n);
  writeIndices(w, g.vertexIndex, nv, 'vertexIndex', ctx);
  w.i32(g.smoothData.length);
  w.typed(g.smoothData);
  if (g.faceType !== 1) writeIndices(w, g.normalIndex ?? new Uint32Array(0), nn, 'normalIndex', ctx);
  for (const a of g.txCrdsInd) w.i32(a.length);
  g.txCrdsInd.forEach((a, t) => putIndices(w, a, indexWidth(m.meshTxCrd[t]!.length / 2), `txCrdsInd[${t}]`, ctx));
}

function writeMorphCollections(w: BinaryWriter, m: Man1Chunk): number {
  w.i32(m.morphCollType);
  for (const c of m.collections) {
    w.i32(encodeText(c.mcName, ENC).length);
    w.i32(encodeText(c.mcCollName, ENC).length);
    w.i32(c.bones.length);
    w.i32(c.anims.length);
    if (m.collectionRecordSize === 32) w.i32(c.mcUnknown16 ?? 0);
    w.i32(c.mcParentId);
    w.i32(c.mcParentBone);
    w.i32(c.mcProxyId);
  }
  for (const c of m.collections) for (const b of c.bones) {
    w.i32(encodeText(b.mcBoneName, ENC).length);
    w.i32(b.mcBoneParentId);
  }
  for (const c of m.collections) for (const a of c.anims) {
    w.i32(encodeText(a.mcAnimName, ENC).length);
    w.u8(a.mcAnimMode);
    w.i32(a.mcAnimInterval);
    w.i32(a.mcAnimFramesCount);
  }
  for (const c of m.collections) {
    w.string(c.mcName, ENC);
    w.string(c.mcCollName, ENC);
    for (const b of c.bones) w.string(b.mcBoneName, ENC);
    for (const a of c.anims) w.string(a.mcAnimName, ENC);
  }
  w.typed(m.mcMatRotPos);
  w.typed(m.mcColliders);
  return m.collections.length;
}

function writeMorphFrames(w: BinaryWriter, m: Mmd1Chunk): number {
  w.i32(m.morphCollType);
  for (const e of m.entries) {
    w.i32(e.mmFramesCount);
    w.i32(e.mmVertexCount);
    w.i32(e.mmMeshIndex);
    w.i32(encodeText(e.mmMeshName, ENC).length);
    w.i32(encodeText(e.mmMorphColName, ENC).length);
  }
  for (const e of m.entries) {
    w.string(e.mmMeshName, ENC);
    w.string(e.mmMorphColName, ENC);
  }
  w.i32(Math.floor(m.mmVertices.length / 3));
  w.typed(m.mmVertices);
  return m.entries.length;
}

function writePhysics(w: BinaryWriter, p: Phs1Chunk): number {
  const bn = encodeText(p.bodysNames, ENC);
  const gn = encodeText(p.geomsNames, ENC);
  w.u8(p.physType);
  w.i32(bn.length);
  w.i32(gn.length);
  w.i32(p.meshLinks.length);
  w.i32(p.bodies.length);
  w.i32(p.geoms.length);
  w.i32(p.joints.length);
  w.bytes(bn);
  w.bytes(gn);
  w.typed(p.meshLinks);
  for (const b of p.bodies) PhysBody.write(w, b);
  for (const g of p.geoms) PhysGeom.write(w, g);
  for (const j of p.joints) PhysJoint.write(w, j);
  return p.count;
}

function writeProxy(w: BinaryWriter, p: Pxi1Chunk, ctx: Ctx): number {
  w.i32(p.items.length);
  const names = p.items.map((x) => encodeText(x.name, ENC));
  for (const n of names) w.i32(n.length);
  for (const n of names) w.bytes(n);
  if (p.itemSize !== 54 && p.itemSize !== 56) fail(ctx, `proxy item size must be 54 or 56, not ${String(p.itemSize)}`);
  const schema = p.itemSize === 56 ? ProxyItem56 : ProxyItem54;
  for (const x of p.items) schema.write(w, { proxyGap: 0, ...x });
  return p.count;
}

function writeColliders(w: BinaryWriter, c: Col1Chunk): number {
  w.lenString(c.colListName, ENC);
  const names = c.colliders.map((x) => encodeText(x.name, ENC));
  for (const n of names) w.i32(n.length);
  for (const n of names) w.bytes(n);
  for (const x of c.colliders) Collider.write(w, x);
  return c.colliders.length;
}
