/**
 * MLOD decoder. Layout (Bohemia wiki "P3D File Format - MLOD", checked against the corpus):
 *
 * ```
 * "MLOD" u32 version(0x101) u32 lodCount
 * per LOD:
 *   "P3DM"|"SP3X" u32 headerSize(28) u32 version(0x100|0x99) u32 nPoints u32 nNormals u32 nFaces u32 flags
 *   nPoints x { f32 x, y, z; u32 pointFlags }
 *   nNormals x { f32 x, y, z }
 *   nFaces x face   P3DM: u32 n; 4 x {u32 point, u32 normal, f32 u, f32 v}; u32 flags; asciiz texture; asciiz material
 *                   SP3X: char texture[32]; u32 n; 4 x {...}; u32 flags
 *   "TAGG"
 *   tags until #EndOfFile#   P3DM: u8 active; asciiz name; u32 size; data
 *                            SP3X: char name[64]; u32 size; data
 *   f32 resolution
 * trailing bytes (rare)
 * ```
 */
import { chargeAllocation } from '../../../binary/budget.ts';
import { BinaryReader } from '../../../binary/reader.ts';
import { withNanBits } from '../../../schema/schema.ts';
import { deferField } from '../../../model/deferred.ts';
import { decodeText } from '../../../binary/text.ts';
import {
  END_OF_FILE, SELECTION_LIKE, isSpecialTagName,
  type LodSignature, type MlodDocument, type MlodFaces, type MlodLod, type MlodTag,
} from './types.ts';

const LOD_HEADER_SIZE = 28;
const POINT_SIZE = 16;
const NORMAL_SIZE = 12;
/** Smallest face record: P3DM with two empty strings. */
const MIN_FACE_SIZE = 4 + 64 + 4 + 2;
const SP3X_FACE_SIZE = 32 + 4 + 64 + 4;
const SP3X_TEXTURE = 32;
const SP3X_TAG_NAME = 64;
const PROPERTY_FIELD = 64;

export { probeMlod } from '../family.ts';

/** Tags are charged to the decoding budget this many at a time. */
const TAG_BLOCK = 64;

export function decodeMlod(bytes: Uint8Array): MlodDocument {
  const r = new BinaryReader(bytes);
  const signature = r.string(4, 'latin1', 'signature');
  if (signature !== 'MLOD') r.fail(`signature is "${signature}", expected "MLOD"`, 0);
  const version = r.u32();
  // A LOD is at least a header, "TAGG", one tag and the resolution.
  const lodCount = r.u32Count(LOD_HEADER_SIZE + 4 + 1 + 4 + 4, 'LOD');
  // A LOD holds a dozen typed arrays and its tag list: charged before the list is built.
  r.chargeRecords(lodCount, 2048, 'LOD', r.pos - 4);
  const lods: MlodLod[] = [];
  for (let i = 0; i < lodCount; i++) {
    lods.push(r.within(`lods[${i}]`, () => decodeLod(r)));
  }
  const trailing = r.bytesCopy(r.remaining, 'trailing bytes');
  return { signature, version, lods, trailing, $span: [0, bytes.length] };
}

/** Text up to the first NUL of a fixed field (the whole field when it has none). */
export function fixedText(field: Uint8Array): string {
  const z = field.indexOf(0);
  return decodeText(z < 0 ? field : field.subarray(0, z));
}

function decodeLod(r: BinaryReader): MlodLod {
  const start = r.pos;
  const sig = r.string(4, 'latin1', 'LOD signature');
  if (sig !== 'P3DM' && sig !== 'SP3X') r.fail(`LOD signature is "${sig}", expected "P3DM" or "SP3X"`, start);
  const signature = sig as LodSignature;
  const headerSize = r.u32();
  if (headerSize < LOD_HEADER_SIZE) r.fail(`LOD header size ${headerSize} is below ${LOD_HEADER_SIZE}`, start + 4);
  const version = r.u32();
  const nPoints = r.u32Count(0, 'point');
  const nNormals = r.u32Count(0, 'normal');
  const nFaces = r.u32Count(0, 'face');
  const flags = r.u32();
  const headerExtra = r.bytesCopy(headerSize - LOD_HEADER_SIZE, 'LOD header extension');
  // Counts are checked against the bytes left before any allocation.
  r.count(nPoints, POINT_SIZE, 'point', start + 12);
  chargeAllocation(nPoints * 16, 'point table', start + 12, r.path);
  // Point records interleave x, y, z and flags, so neither column can be a view of them: each is
  // split out of the checked records on its first read (`info` reads only how many flags there are).
  r.within('points', () => r.need(nPoints * POINT_SIZE, 'points'));
  const pointsAt = r.pos;
  r.pos += nPoints * POINT_SIZE;
  const bytes = r.bytes;
  const points = new Deferred(() => pointColumn(bytes, pointsAt, nPoints, 3)) as unknown as Float32Array;
  const pointFlags = new Deferred(() => pointColumn(bytes, pointsAt, nPoints, 1)) as unknown as Uint32Array;
  r.count(nNormals, NORMAL_SIZE, 'normal', start + 16);
  const normals = r.within('normals', () => bulk32(r, nNormals * 3, Float32Array, 'normals'));
  r.count(nFaces, signature === 'SP3X' ? SP3X_FACE_SIZE : MIN_FACE_SIZE, 'face', start + 20);
  const [faces, vertexTotal] = r.within('faces', () => decodeFaces(r, signature, nFaces));
  const taggAt = r.pos;
  const tagg = r.string(4, 'latin1', 'TAGG signature');
  if (tagg !== 'TAGG') r.fail(`expected "TAGG" after the faces, found "${tagg}"`, taggAt);
  const tags: MlodTag[] = [];
  for (;;) {
    // No count: the list ends at the end tag. Charged 64 records at a time (real LODs have a few
    // dozen tags; a file of nothing but six-byte tags would otherwise be ~60x its size in objects).
    if (tags.length % TAG_BLOCK === 0) r.chargeRecords(TAG_BLOCK, 512, 'tag');
    const tag = r.within(`tags[${tags.length}]`, () => decodeTag(r, signature, nPoints, nFaces, vertexTotal));
    tags.push(tag);
    if (tag.type === 'end') break;
  }
  const resolutionAt = r.pos;
  const resolution = r.within('resolution', () => r.f32());
  return settle({
    ...nanField('resolution', resolution, r.bytes, resolutionAt),
    signature, headerSize, version, flags, headerExtra, points, pointFlags, normals, faces, tags, resolution,
    $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
  });
}

/** An array to be made from the input on its first read (see bulk and settle). */
class Deferred {
  readonly make: () => ArrayBufferView;
  constructor(make: () => ArrayBufferView) {
    this.make = make;
  }
}

/** Smaller arrays are copied while decoding (a deferred field costs a closure). */
const DEFER_BYTES = 4096;

/**
 * `n` values of `size` bytes at the reader's position, as `kind`. A sharing reader
 * (shared/binary/share.ts) gives a view of the input where the offset is a multiple of `size`.
 * Otherwise the array is a copy, and a copy of at least {@link DEFER_BYTES} is deferred to the
 * first read of the field ({@link settle}): most readers (info, roundtrip, an untouched save, the
 * viewport, which draws from the points and faces) never ask for a tag's values, and MLOD's
 * strings leave tag data at any offset, so a sharing reader often cannot view it. Checked and
 * charged now either way, like any copy.
 */
function bulk<A extends ArrayBufferView>(r: BinaryReader, n: number, size: 1 | 4, kind: { new (b: ArrayBuffer): A }, what: string): A {
  const at = r.pos;
  const len = n * size;
  const view = r.share && (r.bytes.byteOffset + at) % size === 0;
  if (view || len < DEFER_BYTES) {
    return (size === 1 ? r.u8Array(n, what) : (kind as unknown) === Float32Array ? r.f32Array(n, what) : r.u32Array(n, what)) as unknown as A;
  }
  r.need(len, what);
  r.charge(len, what);
  r.pos += len;
  const bytes = r.bytes;
  // Copied as bytes, so NaN payloads survive.
  return new Deferred(() => new kind(new Uint8Array(bytes.subarray(at, at + len)).buffer)) as unknown as A;
}

const bulk32 = <A extends Float32Array | Uint32Array>(r: BinaryReader, n: number, kind: { new (b: ArrayBuffer): A }, what: string): A =>
  bulk(r, n, 4, kind, what);

/** Turns the {@link Deferred} values among `obj`'s own fields into deferred fields. */
function settle<T extends object>(obj: T): T {
  for (const [k, v] of Object.entries(obj)) {
    if (v instanceof Deferred) deferField(obj as Record<string, unknown>, k, v.make);
  }
  return obj;
}

/**
 * One column of `n` point records at `at` (checked by the decoder): x, y, z (`width` 3, as bits,
 * so NaN payloads survive, returned as a Float32Array) or the flags (`width` 1, a Uint32Array).
 */
function pointColumn(bytes: Uint8Array, at: number, n: number, width: 1 | 3): Float32Array | Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(n * width);
  if (width === 1) {
    for (let i = 0, q = at + 12; i < n; i++, q += POINT_SIZE) out[i] = view.getUint32(q, true);
    return out;
  }
  for (let i = 0, q = at; i < n; i++, q += POINT_SIZE) {
    out[i * 3] = view.getUint32(q, true);
    out[i * 3 + 1] = view.getUint32(q + 4, true);
    out[i * 3 + 2] = view.getUint32(q + 8, true);
  }
  return new Float32Array(out.buffer);
}

/** The face block, and its vertex total (a UV set holds one UV per used vertex slot). */
function decodeFaces(r: BinaryReader, signature: LodSignature, n: number): [MlodFaces, number] {
  const start = r.pos;
  // Nine columns of 4 bytes per vertex slot or face (+ the SP3X texture field), charged here even
  // where columns are made later (see below): a file too large for the budget is refused while
  // decoding, with its offset and path, never by a later read of a column.
  chargeAllocation(n * (4 * 4 + 4 * 4 + 8 * 4 + 4 * 4) + (signature === 'SP3X' ? n * SP3X_TEXTURE : 0), 'face table', start, r.path);
  const vertexCount = new Uint32Array(n);
  const textures: string[] = [];
  const textureIndex = new Uint32Array(n);
  const materials: string[] = [];
  const materialIndex = new Uint32Array(n);
  if (signature === 'SP3X') {
    // Fixed-size records, only in small OFP files: every column at once.
    const columns = fullColumns(n, vertexCount);
    const textureFields = new Uint8Array(n * SP3X_TEXTURE);
    decodeSp3xFaces(r, n, columns, textureFields, textures, textureIndex);
    materials.push('');
    let vertexTotal = 0;
    for (let i = 0; i < n; i++) vertexTotal += Math.min(4, vertexCount[i]!);
    return [{
      vertexCount, pointIndex: columns.pointIndex, normalIndex: columns.normalIndex, uv: new Float32Array(columns.uvBits.buffer),
      flags: columns.flags, textures, textureIndex, materials, materialIndex, textureFields,
      $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
    }, vertexTotal];
  }
  // P3DM: the walk reads each face's vertex count and finds its texture and material (which
  // checks every record); the vertex slots and flags (68 of a face's 72 fixed bytes, 80% of the
  // table) become columns on the first read of any of them, by the same walk over the same bytes.
  // `info`, `roundtrip` and saving an untouched face block never read them.
  const vertexTotal = walkP3dmFaces(r, n, { vertexCount }, textures, textureIndex, materials, materialIndex);
  const end = r.pos;
  const faces: MlodFaces = {
    vertexCount, pointIndex: EMPTY_U32, normalIndex: EMPTY_U32, uv: EMPTY_F32, flags: EMPTY_U32,
    textures, textureIndex, materials, materialIndex, $span: [start, end], $raw: r.viewAt(start, end),
  };
  const bytes = r.bytes;
  let made: Partial<FaceColumns> | undefined;
  /** The four deferred columns, walked once; each getter takes its own (the walk's copy is dropped). */
  const take = <K extends 'pointIndex' | 'normalIndex' | 'uvBits' | 'flags'>(key: K): FaceColumns[K] => {
    if (made === undefined) {
      const c = fullColumns(n, new Uint32Array(n));
      const again = new BinaryReader(bytes, start, end);
      walkP3dmFaces(again, n, c, [], undefined, [], undefined);
      if (again.pos !== end) throw new Error(`MLOD face block walked to ${again.pos}, decoded to ${end}`);
      made = c;
    }
    const v = made[key]!;
    delete made[key];
    return v as FaceColumns[K];
  };
  deferField(faces, 'pointIndex', () => take('pointIndex'));
  deferField(faces, 'normalIndex', () => take('normalIndex'));
  deferField(faces, 'uv', () => new Float32Array(take('uvBits').buffer));
  deferField(faces, 'flags', () => take('flags'));
  return [faces, vertexTotal];
}

const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F32 = new Float32Array(0);

function fullColumns(n: number, vertexCount: Uint32Array): FaceColumns {
  return { vertexCount, pointIndex: new Uint32Array(n * 4), normalIndex: new Uint32Array(n * 4), uvBits: new Uint32Array(n * 8), flags: new Uint32Array(n) };
}

interface FaceColumns {
  vertexCount: Uint32Array;
  pointIndex: Uint32Array;
  normalIndex: Uint32Array;
  /** The UV column as bits: a float round trip could change NaN payloads. */
  uvBits: Uint32Array;
  flags: Uint32Array;
}

/** Columns a walk fills: the vertex counts alone, or every fixed field. */
type WalkColumns = Pick<FaceColumns, 'vertexCount'> & Partial<FaceColumns>;

/**
 * The 72 fixed bytes of face `f` at `p` (vertex count, four vertex slots, flags) into the
 * columns. The caller has checked that they are inside the reader's window.
 */
function readFaceRecord(view: DataView, p: number, f: number, c: FaceColumns): void {
  c.vertexCount[f] = view.getUint32(p, true);
  const f4 = f * 4;
  const f8 = f * 8;
  const pi = c.pointIndex;
  const ni = c.normalIndex;
  const uv = c.uvBits;
  pi[f4] = view.getUint32(p + 4, true);
  ni[f4] = view.getUint32(p + 8, true);
  uv[f8] = view.getUint32(p + 12, true);
  uv[f8 + 1] = view.getUint32(p + 16, true);
  pi[f4 + 1] = view.getUint32(p + 20, true);
  ni[f4 + 1] = view.getUint32(p + 24, true);
  uv[f8 + 2] = view.getUint32(p + 28, true);
  uv[f8 + 3] = view.getUint32(p + 32, true);
  pi[f4 + 2] = view.getUint32(p + 36, true);
  ni[f4 + 2] = view.getUint32(p + 40, true);
  uv[f8 + 4] = view.getUint32(p + 44, true);
  uv[f8 + 5] = view.getUint32(p + 48, true);
  pi[f4 + 3] = view.getUint32(p + 52, true);
  ni[f4 + 3] = view.getUint32(p + 56, true);
  uv[f8 + 6] = view.getUint32(p + 60, true);
  uv[f8 + 7] = view.getUint32(p + 64, true);
  c.flags[f] = view.getUint32(p + 68, true);
}

const FACE_RECORD = 72;

function decodeSp3xFaces(
  r: BinaryReader, n: number, c: FaceColumns, textureFields: Uint8Array, textures: string[], textureIndex: Uint32Array,
): void {
  const ids = new Map<string, number>();
  for (let f = 0; f < n; f++) {
    const field = r.bytesView(SP3X_TEXTURE, 'texture');
    textureFields.set(field, f * SP3X_TEXTURE);
    const text = fixedText(field);
    let id = ids.get(text);
    if (id === undefined) {
      id = textures.length;
      textures.push(text);
      ids.set(text, id);
    }
    textureIndex[f] = id;
    r.need(FACE_RECORD, `face ${f}`);
    readFaceRecord(r.view, r.pos, f, c);
    r.pos += FACE_RECORD;
  }
}

/**
 * Walks `n` P3DM face records from the reader's position: fills `c.vertexCount` (and the other
 * columns when `c` has them) and, when given, the texture and material index of each face.
 * Returns the vertex total (the used slots: `min(4, vertexCount)` a face).
 */
function walkP3dmFaces(
  r: BinaryReader, n: number, c: WalkColumns,
  textures: string[], textureIndex: Uint32Array | undefined, materials: string[], materialIndex: Uint32Array | undefined,
): number {
  const full = c.pointIndex !== undefined ? (c as FaceColumns) : undefined;
  const vertexCount = c.vertexCount;
  const view = r.view;
  const bytes = r.bytes;
  const end = r.end;
  // A face's tail is `texture NUL material NUL`. Each distinct tail is kept as bytes (and 32-bit
  // words) with its two table ids. A face whose next bytes equal the previous face's tail, or the
  // tail that followed that tail last time, needs no NUL search, no hashing and no string: that
  // covers runs of faces with one pair and pairs that alternate or repeat in a pattern. A match is
  // exact because a tail holds NULs only where its two strings end. Any other face finds its
  // tail's end (two NULs) and looks the tail up by a hash of its bytes (TailTable.find).
  //
  // The loop is kept small, with the look-up out of line: in a short-lived process (the CLI on one
  // file) this loop runs in the interpreter until the optimising compiler has compiled it on the
  // stack, and with the look-up written inline that compile took ~18 ms on a 3.4 MB file while
  // the loop went on slowly. (Likewise every tail's `next` starts as NO_TAIL, not undefined, so
  // the first `next` set does not change the field's type and throw away optimised code.)
  const table = new TailTable(textures, materials);
  let last = NO_TAIL;
  /** Whether the last face's tail was the one that followed its predecessor's last time (tried first). */
  let viaNext = false;
  let vertexTotal = 0;
  let p = r.pos;
  for (let f = 0; f < n; f++) {
    if (p + FACE_RECORD > end) {
      r.pos = p;
      r.need(FACE_RECORD, `face ${f}`);
    }
    let vc: number;
    if (full !== undefined) {
      readFaceRecord(view, p, f, full);
      vc = full.vertexCount[f]!;
    } else {
      vc = vertexCount[f] = view.getUint32(p, true);
    }
    vertexTotal += vc < 4 ? vc : 4;
    p += FACE_RECORD;
    // Alternating pairs (a checkerboard of two textures) follow `next`; runs repeat `last`.
    const first: Tail = viaNext ? last.next : last;
    const second: Tail = viaNext ? last : last.next;
    let hit: Tail;
    if (first !== NO_TAIL && tailAt(first, view, bytes, p, end)) hit = first;
    else if (second !== NO_TAIL && tailAt(second, view, bytes, p, end)) hit = second;
    else {
      hit = table.find(r, f, p);
      if (last !== NO_TAIL) last.next = hit;
    }
    viaNext = hit !== last;
    last = hit;
    if (textureIndex !== undefined) textureIndex[f] = hit.texture;
    if (materialIndex !== undefined) materialIndex[f] = hit.material;
    p += hit.len;
  }
  r.pos = p;
  return vertexTotal;
}

/** Every tail seen so far in a face block, by a hash of its bytes, and the two path tables. */
class TailTable {
  private readonly byHash = new Map<number, Tail[]>();
  private readonly texturePaths: PathTable;
  private readonly materialPaths: PathTable;

  constructor(textures: string[], materials: string[]) {
    this.texturePaths = new PathTable(textures);
    this.materialPaths = new PathTable(materials);
  }

  /** The tail of face `f` at `p`: found by its two NULs and a hash, or made (paths interned). */
  find(r: BinaryReader, f: number, p: number): Tail {
    const view = r.view;
    const bytes = r.bytes;
    const end = r.end;
    // Only a tail not seen before interns its two paths (a texture may come with several
    // materials and vice versa).
    const t1 = bytes.indexOf(0, p);
    const m1 = t1 >= 0 && t1 < end ? bytes.indexOf(0, t1 + 1) : -1;
    if (m1 < 0 || m1 >= end) missingNul(r, f, p, t1);
    const len = m1 + 1 - p;
    const h = tailHash(view, bytes, p, len);
    const bucket = this.byHash.get(h);
    if (bucket !== undefined) {
      for (const t of bucket) {
        if (t.bytes.length === len && tailAt(t, view, bytes, p, end)) return t;
      }
    }
    const made = makeTail(bytes.subarray(p, m1 + 1), this.texturePaths.intern(bytes, p, t1), this.materialPaths.intern(bytes, t1 + 1, m1));
    if (bucket !== undefined) bucket.push(made);
    else this.byHash.set(h, [made]);
    return made;
  }
}

/** Fails for a face whose texture or material has no NUL before the end (`t1`: the first NUL found). */
function missingNul(r: BinaryReader, f: number, p: number, t1: number): never {
  r.enter(`faces[${f}]`);
  r.pos = p;
  const z = nulAt(r, 'texture');
  if (z !== t1) throw new Error('unreachable: NUL search disagrees');
  r.pos = t1 + 1;
  nulAt(r, 'material');
  throw new Error('unreachable: the material has its NUL');
}

/** FNV-1a style hash of `len` bytes at `p`, a 32-bit word at a time. */
function tailHash(view: DataView, b: Uint8Array, p: number, len: number): number {
  let h = 0x811c9dc5 ^ len;
  const nw = len >>> 2;
  for (let i = 0; i < nw; i++) h = Math.imul(h ^ view.getUint32(p + i * 4, true), 0x01000193);
  for (let i = nw * 4; i < len; i++) h = Math.imul(h ^ b[p + i]!, 0x01000193);
  return h;
}

interface Tail {
  /** `texture NUL material NUL` as in the file. */
  bytes: Uint8Array;
  /** Its length. */
  len: number;
  /** The same bytes as little-endian 32-bit words (the last partial word left out). */
  words: Uint32Array;
  texture: number;
  material: number;
  /** The tail that came after this one the last time it was not repeated (NO_TAIL: none yet). */
  next: Tail;
}

/**
 * "No tail": the previous tail of the first face, and the `next` of a tail nothing has followed
 * yet. Never compared (a real tail holds at least its two NULs; this one holds nothing).
 */
const NO_TAIL: Tail = { bytes: new Uint8Array(0), len: 0, words: new Uint32Array(0), texture: 0, material: 0, next: undefined as unknown as Tail };
NO_TAIL.next = NO_TAIL;

function makeTail(src: Uint8Array, texture: number, material: number): Tail {
  // A copy with its own memory (a Node Buffer's slice() would be a view into the input's).
  const bytes = new Uint8Array(src);
  const words = new Uint32Array(bytes.length >>> 2);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < words.length; i++) words[i] = dv.getUint32(i * 4, true);
  return { bytes, len: bytes.length, words, texture, material, next: NO_TAIL };
}

/** Whether the bytes at `p` start with tail `t` (inside the window ending at `end`). */
function tailAt(t: Tail, view: DataView, b: Uint8Array, p: number, end: number): boolean {
  const e = t.bytes;
  const len = t.len;
  if (p + len > end) return false;
  const w = t.words;
  const nw = w.length;
  for (let i = 0; i < nw; i++) if (view.getUint32(p + i * 4, true) !== w[i]) return false;
  for (let i = nw * 4; i < len; i++) if (b[p + i] !== e[i]) return false;
  return true;
}

/** Position of the NUL that ends the string at the reader's position (fails when there is none). */
function nulAt(r: BinaryReader, what: string): number {
  const z = r.bytes.indexOf(0, r.pos);
  if (z < 0 || z >= r.end) r.fail(`${what} has no NUL terminator`);
  return z;
}

/** Distinct strings of a face column, found by their bytes. */
class PathTable {
  private readonly table: string[];
  private readonly ids = new Map<string, number>();
  /** hash -> ids of entries with that hash, and each entry's source bytes. */
  private readonly byHash = new Map<number, number[]>();
  private readonly entryBytes: Uint8Array[] = [];
  private lastId = -1;

  constructor(table: string[]) {
    this.table = table;
  }

  intern(b: Uint8Array, start: number, end: number): number {
    const len = end - start;
    // Runs of faces with one path are the common case.
    if (this.lastId >= 0 && PathTable.same(this.entryBytes[this.lastId]!, b, start, len)) return this.lastId;
    let h = 0x811c9dc5 ^ len;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    const bucket = this.byHash.get(h);
    if (bucket) {
      for (const id of bucket) {
        if (PathTable.same(this.entryBytes[id]!, b, start, len)) return (this.lastId = id);
      }
    }
    const text = decodeText(b.subarray(start, end));
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.table.length;
      this.table.push(text);
      this.ids.set(text, id);
    }
    this.entryBytes[id] = new Uint8Array(b.subarray(start, end));
    if (bucket) bucket.push(id);
    else this.byHash.set(h, [id]);
    return (this.lastId = id);
  }

  private static same(e: Uint8Array, b: Uint8Array, start: number, len: number): boolean {
    if (e.length !== len) return false;
    for (let i = 0; i < len; i++) if (e[i] !== b[start + i]) return false;
    return true;
  }
}

function decodeTag(r: BinaryReader, signature: LodSignature, nPoints: number, nFaces: number, vertexTotal: number): MlodTag {
  const start = r.pos;
  let active: number | undefined;
  let name: string;
  let nameField: Uint8Array | undefined;
  if (signature === 'SP3X') {
    nameField = r.bytesCopy(SP3X_TAG_NAME, 'tag name');
    name = fixedText(nameField);
  } else {
    active = r.u8();
    name = r.cstring('latin1', 'tag name');
  }
  let size = r.u32Count(1, 'tag data byte');
  const head = { name, ...(active !== undefined ? { active } : {}), ...(nameField ? { nameField } : {}) };
  const done = <T extends MlodTag>(tag: T): T => {
    tag.$span = [start, r.pos];
    tag.$raw = r.viewAt(start, r.pos);
    return settle(tag);
  };
  // A known tag is typed only when its size fits its layout; otherwise its bytes are kept raw.
  if (name === END_OF_FILE) return done({ type: 'end', ...head, data: r.bytesCopy(size, 'tag data') });
  if ((!isSpecialTagName(name) || SELECTION_LIKE.has(name)) && size === nPoints + nFaces) {
    const points = bulk(r, nPoints, 1, Uint8Array, 'selected points');
    const faces = bulk(r, nFaces, 1, Uint8Array, 'selected faces');
    return done({ type: 'selection', ...head, points, faces });
  }
  if (name === '#Property#' && size === 2 * PROPERTY_FIELD) {
    const keyField = r.bytesCopy(PROPERTY_FIELD, 'property name');
    const valueField = r.bytesCopy(PROPERTY_FIELD, 'property value');
    return done({ type: 'property', ...head, key: fixedText(keyField), value: fixedText(valueField), keyField, valueField });
  }
  if (name === '#Mass#' && size === 4 * nPoints) {
    return done({ type: 'mass', ...head, masses: bulk32(r, nPoints, Float32Array, 'masses') });
  }
  if (name === '#UVSet#' && (size === 4 + 8 * vertexTotal || size === 8 * vertexTotal)) {
    // The short size (without the set id) comes from an exporter bug seen in a real file: the
    // data still holds the id and every UV, so the next tag starts 4 bytes after the size says.
    const sizeExcludesId = size === 8 * vertexTotal;
    if (sizeExcludesId) size += 4;
    r.need(size, 'UV set');
    const setId = r.u32();
    const uv = bulk32(r, vertexTotal * 2, Float32Array, 'UV set');
    return done({ type: 'uvset', ...head, setId, uv, ...(sizeExcludesId ? { sizeExcludesId } : {}) });
  }
  if (name === '#SharpEdges#' && size % 8 === 0) {
    return done({ type: 'sharpEdges', ...head, edges: bulk32(r, size / 4, Uint32Array, 'sharp edges') });
  }
  if (name === '#Animation#' && size === 4 + 12 * nPoints) {
    const timeAt = r.pos;
    const time = r.f32();
    return done({ ...nanField('time', time, r.bytes, timeAt), type: 'animation', ...head, time, points: bulk32(r, nPoints * 3, Float32Array, 'animation points') });
  }
  return done({ type: 'raw', ...head, data: r.bytesCopy(size, 'tag data') });
}

/**
 * A lone float field's stored bytes when it is NaN, as the schema's exact-bits mechanism keeps
 * them (spread into the record: edits that copy it carry them; a value that is no longer NaN is
 * written from its value). A JS number keeps one NaN: without this, a signalling NaN would be
 * saved quieted.
 */
function nanField(name: string, v: number, bytes: Uint8Array, at: number): object {
  return Number.isNaN(v) ? withNanBits({}, { [name]: bytes.slice(at, at + 4) }) : {};
}
