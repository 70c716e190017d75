/**
 * MLOD encoder. Untouched LODs, face blocks and tags are copied from `$raw`; dirty ones are
 * written from their fields, with every count and size derived from the arrays.
 */
import { encodeText } from '../../../binary/text.ts';
import { EncodeError } from '../../../errors.ts';
import { isDeferred } from '../../../model/deferred.ts';
import { reusable } from '../../../model/lossless.ts';
import { nanBitsOf } from '../../../schema/schema.ts';
import type { EncodeOptions } from '../../registry.ts';
import { fixedText } from './decode.ts';
import { BinaryWriter } from '../../../binary/writer.ts';
import type { MlodDocument, MlodFaces, MlodLod, MlodTag } from './types.ts';

/**
 * Faces that write themselves a range at a time: a glTF import's LOD, whose face columns would be
 * made from the model (80 bytes a face) only to be copied into the file (74). The importer leaves
 * the columns deferred (shared/model/deferred.ts: any reader still gets them whole) and registers
 * a source here; while the columns are not made, the encoder measures and writes the face block
 * from the source in chunks of {@link FACE_CHUNK} faces, so the document never holds them.
 */
export interface MlodFaceSource {
  /** Faces in the block. */
  count: number;
  /** Sum of min(4, vertexCount) over the faces (what selection tags are checked against). */
  vertexTotal: number;
  /** Fills the columns of `into` (sized for FACE_CHUNK faces) with faces `start`..`start + n - 1`. */
  fill(start: number, n: number, into: MlodFaceColumns): void;
}

/** The per-face columns of {@link MlodFaces}. */
export type MlodFaceColumns = Pick<MlodFaces, 'vertexCount' | 'pointIndex' | 'normalIndex' | 'uv' | 'flags' | 'textureIndex' | 'materialIndex'>;

export const FACE_CHUNK = 4096;

const faceSources = new WeakMap<MlodFaces, MlodFaceSource>();

/** Registers `source` for `faces`, whose per-face columns must be deferred fields (see MlodFaceSource). */
export function setFaceSource(faces: MlodFaces, source: MlodFaceSource): void {
  faceSources.set(faces, source);
}

/** The source of `faces` while none of its columns has been made or assigned. */
function streamed(f: MlodFaces): MlodFaceSource | undefined {
  const src = faceSources.get(f);
  if (!src) return undefined;
  for (const k of ['vertexCount', 'pointIndex', 'normalIndex', 'uv', 'flags', 'textureIndex', 'materialIndex']) if (!isDeferred(f, k)) return undefined;
  return src;
}

function chunkColumns(): MlodFaceColumns {
  return {
    vertexCount: new Uint32Array(FACE_CHUNK), pointIndex: new Uint32Array(FACE_CHUNK * 4), normalIndex: new Uint32Array(FACE_CHUNK * 4),
    uv: new Float32Array(FACE_CHUNK * 8), flags: new Uint32Array(FACE_CHUNK), textureIndex: new Uint32Array(FACE_CHUNK), materialIndex: new Uint32Array(FACE_CHUNK),
  };
}

const LOD_HEADER_SIZE = 28;
const POINT_SIZE = 16;
const FACE_RECORD = 72;
const SP3X_TEXTURE = 32;
const SP3X_TAG_NAME = 64;
const PROPERTY_FIELD = 64;
const TAGG = Uint8Array.of(0x54, 0x41, 0x47, 0x47);

/**
 * Measures the file, allocates it once and writes every part in place. Everything that can fail
 * (counts, table indices, text) is checked while measuring or writing; the output is only
 * returned once its measured size has been written exactly.
 */
export function encodeMlod(doc: MlodDocument, opts: EncodeOptions = {}): Uint8Array {
  const { signature, plans } = planMlod(doc, opts);
  let size = 12 + doc.trailing.length;
  for (const p of plans) size += ArrayBuffer.isView(p) ? p.length : p.size;
  // Sized exactly, so finish() hands back the writer's own buffer: no growing, no final copy.
  const w = new BinaryWriter(size);
  w.bytes(signature);
  w.u32(doc.version);
  w.u32(doc.lods.length);
  for (const p of plans) {
    if (ArrayBuffer.isView(p)) w.bytes(p);
    else writeLod(w, p);
  }
  w.bytes(doc.trailing);
  if (w.pos !== size) throw new Error(`MLOD encoder measured ${size} bytes but wrote ${w.pos}`);
  return w.finish();
}

/**
 * The same bytes as {@link encodeMlod}, as pieces that are never joined (FormatCodec.encodePieces):
 * the file header, then each LOD (an untouched one is its `$raw` view of the input, a dirty one is
 * written into a buffer of its own), then the trailing bytes. Saving an untouched document this
 * way allocates next to nothing.
 */
export function encodeMlodPieces(doc: MlodDocument, opts: EncodeOptions = {}): Uint8Array[] {
  const { signature, plans } = planMlod(doc, opts);
  const head = new BinaryWriter(12);
  head.bytes(signature);
  head.u32(doc.version);
  head.u32(doc.lods.length);
  const pieces = [head.finish()];
  for (const p of plans) {
    if (ArrayBuffer.isView(p)) {
      pieces.push(p);
      continue;
    }
    const w = new BinaryWriter(p.size);
    writeLod(w, p);
    if (w.pos !== p.size) throw new Error(`MLOD encoder measured ${p.size} bytes for ${p.where} but wrote ${w.pos}`);
    pieces.push(w.finish());
  }
  pieces.push(doc.trailing);
  return pieces;
}

/** Checks the document's header and measures every dirty LOD (an untouched one is its `$raw`). */
function planMlod(doc: MlodDocument, opts: EncodeOptions): { signature: Uint8Array; plans: (Uint8Array | LodPlan)[] } {
  const reuse = opts.reuseRaw;
  if (doc.signature.length !== 4) throw new EncodeError(`signature "${doc.signature}" must be 4 characters`, 'signature');
  const signature = encodeText(doc.signature);
  const plans = doc.lods.map((lod, i): Uint8Array | LodPlan => (reusable(lod, reuse) ? lod.$raw : planLod(lod, reuse, `lods[${i}]`)));
  return { signature, plans };
}

/** A dirty LOD, measured: its size and what writing it needs. */
interface LodPlan {
  lod: MlodLod;
  where: string;
  reuse: boolean | undefined;
  nPoints: number;
  nFaces: number;
  vertexTotal: number;
  /** The face block's `$raw`, or the measured face columns. */
  faces: Uint8Array | FacesPlan;
  size: number;
}

function planLod(lod: MlodLod, reuse: boolean | undefined, where: string): LodPlan {
  const nPoints = lod.pointFlags.length;
  if (lod.points.length !== nPoints * 3) throw new EncodeError(`points hold ${lod.points.length} floats; ${nPoints * 3} expected`, `${where}/points`);
  if (lod.normals.length % 3) throw new EncodeError('normals must hold 3 floats each', `${where}/normals`);
  if (lod.signature !== 'P3DM' && lod.signature !== 'SP3X') throw new EncodeError(`unknown LOD signature ${String(lod.signature)}`, where);
  const sp3x = lod.signature === 'SP3X';
  const source = streamed(lod.faces);
  const nFaces = source ? source.count : lod.faces.vertexCount.length;
  const faces = reusable(lod.faces, reuse) ? lod.faces.$raw : planFaces(lod.faces, sp3x, `${where}/faces`);
  let vertexTotal = 0;
  if (source) vertexTotal = source.vertexTotal;
  else {
    const vc = lod.faces.vertexCount;
    for (let i = 0; i < nFaces; i++) vertexTotal += Math.min(4, vc[i]!);
  }
  let size = LOD_HEADER_SIZE + lod.headerExtra.length + nPoints * POINT_SIZE + lod.normals.byteLength;
  size += ArrayBuffer.isView(faces) ? faces.length : faces.size;
  size += TAGG.length;
  for (const tag of lod.tags) size += reusable(tag, reuse) ? tag.$raw.length : tagSize(tag, sp3x);
  size += 4;
  return { lod, where, reuse, nPoints, nFaces, vertexTotal, faces, size };
}

function writeLod(w: BinaryWriter, plan: LodPlan): void {
  const { lod, where, reuse, nPoints, nFaces, vertexTotal } = plan;
  const sp3x = lod.signature === 'SP3X';
  w.string(lod.signature);
  w.u32(LOD_HEADER_SIZE + lod.headerExtra.length);
  w.u32(lod.version);
  w.u32(nPoints);
  w.u32(lod.normals.length / 3);
  w.u32(nFaces);
  w.u32(lod.flags);
  w.bytes(lod.headerExtra);
  writePoints(w, lod.points, lod.pointFlags);
  w.typed(lod.normals);
  if (ArrayBuffer.isView(plan.faces)) w.bytes(plan.faces);
  else writeFaces(w, plan.faces);
  w.bytes(TAGG);
  lod.tags.forEach((tag, i) => {
    if (reusable(tag, reuse)) w.bytes(tag.$raw);
    else encodeTag(w, tag, sp3x, nPoints, nFaces, vertexTotal, `${where}/tags[${i}]`);
  });
  f32Exact(w, lod, 'resolution', lod.resolution);
}

/** Point records: x, y, z (as bits, so NaN payloads survive) and the flags, interleaved. */
function writePoints(w: BinaryWriter, points: Float32Array, pointFlags: Uint32Array): void {
  const n = pointFlags.length;
  const bits = new Uint32Array(points.buffer, points.byteOffset, n * 3);
  const p0 = w.claim(n * POINT_SIZE);
  const dv = w.dataView;
  for (let i = 0, o = p0; i < n; i++, o += POINT_SIZE) {
    dv.setUint32(o, bits[i * 3]!, true);
    dv.setUint32(o + 4, bits[i * 3 + 1]!, true);
    dv.setUint32(o + 8, bits[i * 3 + 2]!, true);
    dv.setUint32(o + 12, pointFlags[i]!, true);
  }
}

/**
 * Writes `text` into a fixed field of `size` bytes: the original field when it still reads as
 * `text` (so bytes after the terminator survive), otherwise the text zero-padded.
 */
function writeFixedText(w: BinaryWriter, text: string, size: number, original: Uint8Array | undefined, where: string): void {
  if (original && original.length === size && fixedText(original) === text) {
    w.bytes(original);
    return;
  }
  const b = encodeText(text);
  if (b.length > size) throw new EncodeError(`"${text}" is longer than the ${size}-byte field`, where);
  w.bytes(b);
  w.zeros(size - b.length);
}

/** A face block to write from its columns, measured. */
interface FacesPlan {
  f: MlodFaces;
  sp3x: boolean;
  /** The texture paths as bytes (SP3X writes them into fixed fields). */
  textures: Uint8Array[];
  /**
   * P3DM: the byte strings that follow the face records. With `pairTail`, one tail
   * `texture NUL material NUL` per (texture, material) pair in use, found at
   * `pairTail[texture * materials + material]`; without it (too many pairs to tabulate), entry
   * t is texture t with its NUL and entry `textures + m` is material m with its NUL.
   */
  tails: Uint8Array[];
  pairTail: Int32Array | undefined;
  nTex: number;
  nMat: number;
  size: number;
}

/** Largest texture x material table for per-pair tails (256 KiB of Int32). */
const MAX_PAIRS = 1 << 16;

/** The strings given, each followed by a NUL, as one array. */
function terminated(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length + 1, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length + 1;
  }
  return out;
}

function planFaces(f: MlodFaces, sp3x: boolean, where: string): FacesPlan {
  const source = streamed(f);
  const n = source ? source.count : f.vertexCount.length;
  if (!source) {
    for (const [name, arr, per] of [
      ['pointIndex', f.pointIndex, 4], ['normalIndex', f.normalIndex, 4], ['uv', f.uv, 8],
      ['flags', f.flags, 1], ['textureIndex', f.textureIndex, 1], ['materialIndex', f.materialIndex, 1],
    ] as const) {
      if (arr.length !== n * per) throw new EncodeError(`${name} holds ${arr.length} values; ${n * per} expected`, `${where}/${name}`);
    }
  }
  const tex = f.textures.map((t) => encodeText(t));
  const mat = sp3x ? [] : f.materials.map((t) => encodeText(t));
  tex.forEach((b, i) => {
    if (!sp3x && b.includes(0)) throw new EncodeError('paths must not contain NUL', `${where}/textures/${i}`);
    if (sp3x && b.length > SP3X_TEXTURE) throw new EncodeError(`"${f.textures[i]}" is longer than the ${SP3X_TEXTURE}-byte field`, `${where}/textures/${i}`);
  });
  mat.forEach((b, i) => {
    if (b.includes(0)) throw new EncodeError('paths must not contain NUL', `${where}/materials/${i}`);
  });
  const nTex = tex.length;
  const nMat = mat.length;
  let size = n * FACE_RECORD;
  if (sp3x) size += n * SP3X_TEXTURE;
  const pairTail = !sp3x && nTex * nMat <= MAX_PAIRS ? new Int32Array(nTex * nMat).fill(-1) : undefined;
  const tails: Uint8Array[] = [];
  // The texture and material indices, a chunk at a time from a source, else the columns whole.
  const cols = source ? chunkColumns() : f;
  for (let start = 0; start < n; start += source ? FACE_CHUNK : n) {
    const count = source ? Math.min(FACE_CHUNK, n - start) : n;
    if (source) source.fill(start, count, cols);
    const textureIndex = cols.textureIndex;
    const materialIndex = cols.materialIndex;
    for (let j = 0; j < count; j++) {
      const i = start + j;
      const ti = textureIndex[j]!;
      if (ti >= nTex) throw new EncodeError(`texture index ${ti} is not in the texture table`, `${where}/textureIndex/${i}`);
      if (sp3x) continue;
      const mi = materialIndex[j]!;
      if (mi >= nMat) throw new EncodeError(`material index ${mi} is not in the material table`, `${where}/materialIndex/${i}`);
      if (pairTail) {
        let c = pairTail[ti * nMat + mi]!;
        if (c < 0) {
          c = pairTail[ti * nMat + mi] = tails.length;
          tails.push(terminated(tex[ti]!, mat[mi]!));
        }
        size += tails[c]!.length;
      } else {
        size += tex[ti]!.length + mat[mi]!.length + 2;
      }
    }
  }
  if (sp3x) return { f, sp3x, textures: tex, tails: [], pairTail: undefined, nTex, nMat, size };
  if (!pairTail) for (const b of [...tex, ...mat]) tails.push(terminated(b));
  return { f, sp3x, textures: tex, tails, pairTail, nTex, nMat, size };
}

/**
 * The face records from the columns, straight into the output through its DataView (per-field
 * writer calls cost more than everything else when a LOD has hundreds of thousands of faces).
 */
function writeFaces(w: BinaryWriter, plan: FacesPlan): void {
  const { f } = plan;
  const source = streamed(f);
  const n = source ? source.count : f.vertexCount.length;
  const start = w.claim(plan.size);
  const limit = start + plan.size;
  let o = start;
  if (!source) o = writeFaceRecords(w, plan, f, 0, n, o);
  else {
    const cols = chunkColumns();
    for (let first = 0; first < n; first += FACE_CHUNK) {
      const count = Math.min(FACE_CHUNK, n - first);
      source.fill(first, count, cols);
      o = writeFaceRecords(w, plan, cols, first, count, o);
    }
  }
  if (o !== limit) throw new Error(`MLOD face block measured ${plan.size} bytes but wrote ${o - start}`);
}

/** Faces `first`.. of the block from `cols` (whose row 0 is face `first`), written from `o`; returns the end. */
function writeFaceRecords(w: BinaryWriter, plan: FacesPlan, cols: MlodFaceColumns, first: number, n: number, o: number): number {
  const { f, sp3x, tails, pairTail, nTex, nMat } = plan;
  const out = w.data;
  const dv = w.dataView;
  const vertexCount = cols.vertexCount;
  const pointIndex = cols.pointIndex;
  const normalIndex = cols.normalIndex;
  const uvBits = new Uint32Array(cols.uv.buffer, cols.uv.byteOffset, n * 8);
  const flags = cols.flags;
  const textureIndex = cols.textureIndex;
  const materialIndex = cols.materialIndex;
  // Records that start on a 4-byte boundary are stored as whole words (faster than DataView
  // stores); the host is little-endian, as the rest of the codecs assume for bulk arrays.
  const words = out.byteOffset === 0 ? new Uint32Array(out.buffer, 0, out.length >>> 2) : undefined;
  for (let i = 0; i < n; i++) {
    const ti = textureIndex[i]!;
    if (sp3x) {
      const original = f.textureFields?.subarray((first + i) * SP3X_TEXTURE, (first + i + 1) * SP3X_TEXTURE);
      // The field as read when it still holds this texture (bytes after the NUL survive).
      if (original && original.length === SP3X_TEXTURE && fixedText(original) === f.textures[ti]) out.set(original, o);
      else out.set(plan.textures[ti]!, o);
      o += SP3X_TEXTURE;
    }
    const i4 = i * 4;
    const i8 = i * 8;
    if (words !== undefined && (o & 3) === 0) {
      const q = o >>> 2;
      words[q] = vertexCount[i]!;
      words[q + 1] = pointIndex[i4]!;
      words[q + 2] = normalIndex[i4]!;
      words[q + 3] = uvBits[i8]!;
      words[q + 4] = uvBits[i8 + 1]!;
      words[q + 5] = pointIndex[i4 + 1]!;
      words[q + 6] = normalIndex[i4 + 1]!;
      words[q + 7] = uvBits[i8 + 2]!;
      words[q + 8] = uvBits[i8 + 3]!;
      words[q + 9] = pointIndex[i4 + 2]!;
      words[q + 10] = normalIndex[i4 + 2]!;
      words[q + 11] = uvBits[i8 + 4]!;
      words[q + 12] = uvBits[i8 + 5]!;
      words[q + 13] = pointIndex[i4 + 3]!;
      words[q + 14] = normalIndex[i4 + 3]!;
      words[q + 15] = uvBits[i8 + 6]!;
      words[q + 16] = uvBits[i8 + 7]!;
      words[q + 17] = flags[i]!;
    } else {
      dv.setUint32(o, vertexCount[i]!, true);
      dv.setUint32(o + 4, pointIndex[i4]!, true);
      dv.setUint32(o + 8, normalIndex[i4]!, true);
      dv.setUint32(o + 12, uvBits[i8]!, true);
      dv.setUint32(o + 16, uvBits[i8 + 1]!, true);
      dv.setUint32(o + 20, pointIndex[i4 + 1]!, true);
      dv.setUint32(o + 24, normalIndex[i4 + 1]!, true);
      dv.setUint32(o + 28, uvBits[i8 + 2]!, true);
      dv.setUint32(o + 32, uvBits[i8 + 3]!, true);
      dv.setUint32(o + 36, pointIndex[i4 + 2]!, true);
      dv.setUint32(o + 40, normalIndex[i4 + 2]!, true);
      dv.setUint32(o + 44, uvBits[i8 + 4]!, true);
      dv.setUint32(o + 48, uvBits[i8 + 5]!, true);
      dv.setUint32(o + 52, pointIndex[i4 + 3]!, true);
      dv.setUint32(o + 56, normalIndex[i4 + 3]!, true);
      dv.setUint32(o + 60, uvBits[i8 + 6]!, true);
      dv.setUint32(o + 64, uvBits[i8 + 7]!, true);
      dv.setUint32(o + 68, flags[i]!, true);
    }
    o += FACE_RECORD;
    if (sp3x) continue;
    // Tails are short, but the built-in copy of a typed array into another beats a loop of
    // byte or word stores here (measured on the 500k-face benchmark).
    if (pairTail) {
      const t = tails[pairTail[ti * nMat + materialIndex[i]!]!]!;
      out.set(t, o);
      o += t.length;
    } else {
      const t = tails[ti]!;
      out.set(t, o);
      o += t.length;
      const m = tails[nTex + materialIndex[i]!]!;
      out.set(m, o);
      o += m.length;
    }
  }
  return o;
}

/** Bytes a tag written from its fields takes (name and size field included). */
function tagSize(tag: MlodTag, sp3x: boolean): number {
  // P3DM: active byte, name, NUL (latin1: one byte per character; encodeTag refuses others).
  const head = sp3x ? SP3X_TAG_NAME : tag.name.length + 2;
  switch (tag.type) {
    case 'selection': return head + 4 + tag.points.length + tag.faces.length;
    case 'property': return head + 4 + 2 * PROPERTY_FIELD;
    case 'mass': return head + 4 + tag.masses.byteLength;
    case 'uvset': return head + 8 + tag.uv.byteLength;
    case 'sharpEdges': return head + 4 + tag.edges.byteLength;
    case 'animation': return head + 8 + tag.points.byteLength;
    case 'raw':
    case 'end':
      return head + 4 + tag.data.length;
    default: return head;
  }
}

function encodeTag(w: BinaryWriter, tag: MlodTag, sp3x: boolean, nPoints: number, nFaces: number, vertexTotal: number, where: string): void {
  if (sp3x) {
    writeFixedText(w, tag.name, SP3X_TAG_NAME, tag.nameField, `${where}/name`);
  } else {
    w.u8(tag.active ?? 1);
    if (tag.name.includes('\0')) throw new EncodeError('tag name must not contain NUL', `${where}/name`);
    w.cstring(tag.name);
  }
  switch (tag.type) {
    case 'selection':
      if (tag.points.length !== nPoints || tag.faces.length !== nFaces) {
        throw new EncodeError(`selection holds ${tag.points.length} point and ${tag.faces.length} face bytes; the LOD has ${nPoints} and ${nFaces}`, where);
      }
      w.u32(nPoints + nFaces);
      w.bytes(tag.points);
      w.bytes(tag.faces);
      return;
    case 'property':
      w.u32(2 * PROPERTY_FIELD);
      writeFixedText(w, tag.key, PROPERTY_FIELD, tag.keyField, `${where}/key`);
      writeFixedText(w, tag.value, PROPERTY_FIELD, tag.valueField, `${where}/value`);
      return;
    case 'mass':
      if (tag.masses.length !== nPoints) throw new EncodeError(`mass holds ${tag.masses.length} values; the LOD has ${nPoints} points`, where);
      w.u32(4 * nPoints);
      w.typed(tag.masses);
      return;
    case 'uvset':
      if (tag.uv.length !== vertexTotal * 2) throw new EncodeError(`UV set holds ${tag.uv.length / 2} UVs; the faces have ${vertexTotal} vertices`, where);
      w.u32(tag.sizeExcludesId ? 8 * vertexTotal : 4 + 8 * vertexTotal);
      w.u32(tag.setId);
      w.typed(tag.uv);
      return;
    case 'sharpEdges':
      if (tag.edges.length % 2) throw new EncodeError('sharp edges must be pairs of point indices', where);
      w.u32(tag.edges.length * 4);
      w.typed(tag.edges);
      return;
    case 'animation':
      if (tag.points.length !== nPoints * 3) throw new EncodeError(`animation frame holds ${tag.points.length / 3} points; the LOD has ${nPoints}`, where);
      w.u32(4 + 12 * nPoints);
      f32Exact(w, tag, 'time', tag.time);
      w.typed(tag.points);
      return;
    case 'raw':
    case 'end':
      w.u32(tag.data.length);
      w.bytes(tag.data);
      return;
  }
}

/** A float field, with the stored bytes of a NaN the decoder kept (see nanField in decode.ts). */
function f32Exact(w: BinaryWriter, record: object, name: string, v: number): void {
  const kept = Number.isNaN(v) ? nanBitsOf(record)?.[name] : undefined;
  if (kept instanceof Uint8Array && kept.length === 4) w.bytes(kept);
  else w.f32(v);
}
