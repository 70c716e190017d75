/**
 * One LOD of ODOL v40+ ("ODOLv4xLod" in the community document, corrected from real files and
 * version by version; see NOTES.md for each difference).
 */
import { chargeAllocation } from '../../../binary/budget.ts';
import type { BinaryReader, Span } from '../../../binary/reader.ts';
import { BinaryWriter } from '../../../binary/writer.ts';
import { EncodeError } from '../../../errors.ts';
import { deferField } from '../../../model/deferred.ts';
import { reusable } from '../../../model/lossless.ts';
import type { EncodeOptions } from '../../registry.ts';
import {
  bytesOf, F32, f32x, I32, i16x, i32x, readCondensed, readPacked, U16, U32, U8, VEC3, writeCondensed, writePacked,
  type ElementType, type PackContext, type PackedArray,
} from './packed.ts';
import { readFloatKept, readFloatsKept, writeFloatKept, writeFloatsKept } from '../../../schema/schema.ts';
import { lodBounds, materialExtraCount, materialHead, materialShaders, proxyStruct, sectionHead, stageTransformStruct } from './schema.ts';
import { madeOnce } from '../../../binary/once.ts';

type Rec = Record<string, unknown> & { $span?: Span };

export interface LodProxy extends Rec {
  name: string;
  transform: number[];
  sequenceId: number;
  namedSelectionIndex: number;
  boneIndex: number;
  sectionIndex?: number;
}

export interface StageTexture {
  filter?: number;
  texture: string;
  stageId?: number;
  useWorldEnvMap?: number;
}

export interface LodMaterial extends Rec {
  name: string;
  type: number;
  /** DayZ types 16 and 20: more floats after the specular power (meaning unknown; see NOTES.md). */
  extra?: number[];
  unused3?: number;
  surface?: string;
  nRenderFlags?: number;
  renderFlags?: number;
  stageTextures: StageTexture[];
  stageTransforms: Rec[];
  stageTI?: StageTexture;
}

export interface LodSection extends Rec {
  faceLowerIndex: number;
  faceUpperIndex: number;
  materialIndex: number;
  material?: string;
  areaOverTex: number[];
  flag67?: number;
  unknown67?: number[];
}

export interface NamedSelection extends Rec {
  name: string;
  faces: PackedArray;
  unused: number;
  isSectional: number;
  sections: PackedArray<Int32Array>;
  vertices: PackedArray;
  weights: PackedArray<Uint8Array>;
}

export interface LodFrame {
  time: number;
  points: Float32Array;
}

/** The face table: per face its vertex count and its vertex indices, flattened. */
export interface LodFaces {
  /**
   * Wiki: OffsetToSectionsStruct, derived from the faces (see faceTableSize) and written on save.
   * Present only when a file stores another value: the difference, kept so such a file still
   * saves back as it came.
   */
  faceDataSizeDelta?: number;
  /** Wiki: AlwaysZero. */
  unused: number;
  sizes: Uint8Array;
  indices: Uint32Array;
  $raw?: Uint8Array;
  $span?: Span;
}

export interface OdolLod {
  resolution: number;
  /** Set when the stored resolution is a NaN with a payload: its exact bits. */
  resolutionBits?: number;
  proxies: LodProxy[];
  subSkeletonsToSkeleton: Int32Array;
  skeletonToSubSkeleton: Int32Array[];
  /** v<50: the point flags (clip flags) table, before the bounds. */
  clipOld?: PackedArray<Uint32Array>;
  bounds: Rec;
  textures: string[];
  materials: LodMaterial[];
  pointToVertex: PackedArray;
  vertexToPoint: PackedArray;
  faces: LodFaces;
  sections: LodSection[];
  namedSelections: NamedSelection[];
  namedProperties: { name: string; value: string }[];
  frames: LodFrame[];
  colorTop: number;
  color: number;
  special: number;
  vertexBoneRefIsSimple: number;
  /** v50+: the point flags table, inside the vertex table. */
  clip?: PackedArray<Uint32Array>;
  uvSets: UvSet[];
  /** Set when the file stores a UV set count of 0 while the one default set is present (wiki: "V47 sometimes sets nUV's as 0 but means 1"). */
  uvSetCountZero?: number;
  vertices: PackedArray<Float32Array>;
  /** v45+: packed normals (3 x 10 bits per i32); before: XYZ floats. */
  normals: PackedArray;
  /** v45+: packed S and T vectors (2 i32 per vertex); before: 6 floats. */
  stCoords: PackedArray;
  /** Per vertex: i32 count, then 4 pairs (bone index, weight byte). */
  vertexBoneRef: PackedArray<Uint8Array>;
  /** Per vertex: 32 bytes of neighbour bone data. */
  neighborBoneRef: PackedArray<Uint8Array>;
  unknown67?: number;
  unknown68?: number;
  /** Bytes between the end of the parsed LOD and its stated end (never seen; kept if present). */
  tail?: Uint8Array;
  $raw?: Uint8Array;
  $span?: Span;
}

export interface UvSet {
  /** v45+: UV range used to expand the 16-bit UVs. */
  range?: number[];
  uv: PackedArray;
  $span?: Span;
}

type LodTypes = { index: ElementType; uv: ElementType; normal: ElementType; st: ElementType };

/** The three sets of element types (before v45, v45-68, v69+), made once: asked for per named selection. */
const LOD_TYPES: readonly LodTypes[] = [
  { index: U16, uv: f32x(2), normal: VEC3, st: f32x(6) },
  { index: U16, uv: i16x(2), normal: I32, st: i32x(2) },
  { index: I32, uv: i16x(2), normal: I32, st: i32x(2) },
];

/** Per-version element types. */
export function lodTypes(v: number): LodTypes {
  return LOD_TYPES[v >= 69 ? 2 : v >= 45 ? 1 : 0]!;
}
const BONE_REF = bytesOf(12);
const NEIGHBOR = bytesOf(32);
const CLIP: ElementType<Uint32Array> = U32;

/**
 * count (i32), then that many i32 (the skeleton maps: one per bone). Empty ones share I32's empty
 * array and the others are carved from the file's slab, like the packed arrays (a buffer and a
 * temporary copy each were 10% of what decoding the corpus allocated).
 */
function readI32Array(r: BinaryReader, what: string, ctx: PackContext): Int32Array {
  r.enter(what);
  try {
    const n = r.i32Count(4, what);
    if (n === 0) return I32.empty as Int32Array;
    if (!ctx.slab) return r.i32Array(n, what);
    const dst = ctx.slab.take(n * 4, what, r);
    dst.set(r.bytesView(n * 4, what));
    return new Int32Array(dst.buffer, dst.byteOffset, n);
  } finally {
    r.leave();
  }
}

function readStage(r: BinaryReader, type: number): StageTexture {
  const s: StageTexture = { texture: '' };
  if (type >= 5) s.filter = r.u32();
  s.texture = r.cstring();
  if (type >= 8) s.stageId = r.u32();
  if (type >= 11) s.useWorldEnvMap = r.u8();
  return s;
}
function writeStage(w: BinaryWriter, s: StageTexture, type: number): void {
  if (type >= 5) w.u32(s.filter ?? 0);
  w.cstring(s.texture);
  if (type >= 8) w.u32(s.stageId ?? 0);
  if (type >= 11) w.u8(s.useWorldEnvMap ?? 0);
}

function readMaterial(r: BinaryReader): LodMaterial {
  const start = r.pos;
  const m = materialHead().read(r) as unknown as LodMaterial;
  const t = m.type;
  const extra = materialExtraCount(t);
  if (extra < 0) r.fail(`material type ${t} is not known`, start);
  if (extra > 0) m.extra = r.within('extra', () => readFloatsKept(r, extra, m, 'extra'));
  Object.assign(m, materialShaders().read(r));
  if (t === 3) m.unused3 = r.u8();
  if (t >= 6) m.surface = r.cstring();
  if (t >= 4) {
    m.nRenderFlags = r.u32();
    m.renderFlags = r.u32();
  }
  const nStages = t > 6 ? r.i32Count(5, 'stage textures') : 0;
  const nGens = t > 8 ? r.i32Count(52, 'stage transforms') : nStages;
  m.stageTextures = [];
  m.stageTransforms = [];
  if (t < 8) {
    for (let i = 0; i < nStages; i++) {
      m.stageTransforms.push(r.within(`stageTransforms[${i}]`, () => stageTransformStruct.read(r) as unknown as Rec));
      m.stageTextures.push(r.within(`stageTextures[${i}]`, () => readStage(r, t)));
    }
  } else {
    for (let i = 0; i < nStages; i++) m.stageTextures.push(r.within(`stageTextures[${i}]`, () => readStage(r, t)));
    for (let i = 0; i < nGens; i++) m.stageTransforms.push(r.within(`stageTransforms[${i}]`, () => stageTransformStruct.read(r) as unknown as Rec));
  }
  if (t >= 10) m.stageTI = r.within('stageTI', () => readStage(r, t));
  m.$span = [start, r.pos];
  return m;
}

function writeMaterial(w: BinaryWriter, m: LodMaterial): void {
  materialHead().write(w, m);
  const t = m.type;
  const extra = materialExtraCount(t);
  if (extra < 0) throw new EncodeError(`material type ${t} is not known`, 'materials');
  if (extra > 0) writeFloatsKept(w, m.extra, m, 'extra', extra);
  materialShaders().write(w, m);
  if (t === 3) w.u8(m.unused3 ?? 0);
  if (t >= 6) w.cstring(m.surface ?? '');
  if (t >= 4) {
    w.u32(m.nRenderFlags ?? 0);
    w.u32(m.renderFlags ?? 0);
  }
  if (t > 6) w.i32(m.stageTextures.length);
  if (t > 8) w.i32(m.stageTransforms.length);
  if (t < 8) {
    m.stageTextures.forEach((s, i) => {
      stageTransformStruct.write(w, m.stageTransforms[i] as never);
      writeStage(w, s, t);
    });
  } else {
    for (const s of m.stageTextures) writeStage(w, s, t);
    for (const x of m.stageTransforms) stageTransformStruct.write(w, x as never);
  }
  if (t >= 10) writeStage(w, m.stageTI ?? { texture: '' }, t);
}

function readSection(r: BinaryReader, v: number): LodSection {
  const start = r.pos;
  const s = sectionHead.read(r) as unknown as LodSection;
  if (s.materialIndex === -1) s.material = r.cstring();
  if (v >= 36) {
    const n = r.i32Count(4, 'areaOverTex');
    s.areaOverTex = readFloatsKept(r, n, s, 'areaOverTex');
    if (v >= 67) {
      s.flag67 = r.i32();
      if (s.flag67 >= 1) s.unknown67 = readFloatsKept(r, 11, s, 'unknown67');
    }
  } else {
    s.areaOverTex = readFloatsKept(r, 1, s, 'areaOverTex');
  }
  s.$span = [start, r.pos];
  return s;
}

function writeSection(w: BinaryWriter, s: LodSection, v: number): void {
  sectionHead.write(w, s as never);
  if (s.materialIndex === -1) w.cstring(s.material ?? '');
  if (v >= 36) {
    w.i32(s.areaOverTex.length);
    writeFloatsKept(w, s.areaOverTex, s, 'areaOverTex');
    if (v >= 67) {
      w.i32(s.flag67 ?? 0);
      if ((s.flag67 ?? 0) >= 1) writeFloatsKept(w, s.unknown67, s, 'unknown67', 11);
    }
  } else {
    writeFloatsKept(w, s.areaOverTex, s, 'areaOverTex', 1);
  }
}

function readFaces(r: BinaryReader, v: number, ctx: PackContext): LodFaces {
  return r.within('faces', () => {
    const start = r.pos;
    const wide = v >= 69 ? 4 : 2;
    const n = r.i32Count(1 + 3 * wide, 'faces');
    const faceDataSize = r.u32();
    const unused = r.u16();
    const bytes = r.bytes;
    const view = r.view;
    const end = r.end;
    let idx: Uint32Array | undefined;
    let sizes: Uint8Array | undefined;
    let corners = 0;
    if (ctx.defer && n >= DEFER_FACES) {
      const deferred = deferFaces(r, n, wide, faceDataSize, unused, start);
      if (deferred) return deferred;
    }
    // One pass when even n quads would fit the window (so no face needs a bound check): the
    // indices go into a slab region sized for n quads and the unused tail goes back to the slab.
    // (A pass to count the corners first, then one to read them, was 6% of decoding the corpus.)
    const sizesBytes = (n + 3) & ~3;
    if (ctx.slab && r.pos + n * (1 + 4 * wide) <= end && ctx.slab.holds(sizesBytes + 16 * n)) {
      const region = ctx.slab.take(sizesBytes + 16 * n, 'faces', r);
      const cap = new Uint32Array(region.buffer, region.byteOffset + sizesBytes, 4 * n);
      const s = new Uint8Array(region.buffer, region.byteOffset, n);
      const q = wide === 2 ? readFaces16(view, r.pos, n, s, cap) : readFaces32(view, r.pos, n, s, cap);
      if (q >= 0) {
        corners = facesCorners;
        ctx.slab.trim(region, sizesBytes + 4 * corners);
        sizes = s;
        idx = new Uint32Array(region.buffer, region.byteOffset + sizesBytes, corners);
        r.pos = q;
      } else {
        ctx.slab.trim(region, 0);
      }
    }
    if (!idx || !sizes) {
      // Check the corner counts and count the corners, so both arrays are allocated once at their
      // exact size (they share one buffer).
      corners = countCorners(bytes, r.pos, n, wide, end);
      if (corners < 0) {
        // Walk again to the face that failed, for its message.
        let p = r.pos;
        for (let i = 0; i < n; i++) {
          if (p >= end) r.fail(`face ${i} is truncated`, p);
          const c = bytes[p]!;
          if (c < 3 || c > 4) {
            r.pos = p;
            r.fail(`face ${i} has ${c} corners (3 or 4 expected)`);
          }
          if (p + 1 + c * wide > end) r.fail(`face ${i} is truncated`, p + 1);
          p += 1 + c * wide;
        }
      }
      // Both arrays in one region of the file's slab (or one buffer of their own without a slab).
      const idxBytes = corners * 4;
      let region: Uint8Array;
      if (ctx.slab) {
        region = ctx.slab.take(idxBytes + n, 'faces', r);
      } else {
        chargeAllocation(idxBytes + n, 'faces', start, r.path);
        region = new Uint8Array(idxBytes + n);
      }
      idx = new Uint32Array(region.buffer, region.byteOffset, corners);
      sizes = new Uint8Array(region.buffer, region.byteOffset + idxBytes, n);
      // Every count (3 or 4) and bound is checked: one loop per index width, three corners always
      // and a fourth when the count says so (a loop per face and a width test per corner were 13%
      // of decoding the corpus).
      r.pos = wide === 2 ? readFaces16(view, r.pos, n, sizes, idx) : readFaces32(view, r.pos, n, sizes, idx);
    }
    const out: LodFaces = { unused, sizes, indices: idx, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
    // faceTableSize(out, v), without a third pass over the faces.
    const delta = (faceDataSize - (corners + n) * wide) | 0;
    if (delta !== 0) out.faceDataSizeDelta = delta;
    return out;
  });
}

/** Smaller face tables are read while decoding, deferred or not (PackContext.defer). */
const DEFER_FACES = 4096;

/**
 * A face table whose `sizes` and `indices` are made on the first read of either (PackContext.defer):
 * every corner count and the table's bounds are checked now, and both arrays charged. Undefined
 * when a face is bad: the eager reader then finds it for its message.
 */
function deferFaces(r: BinaryReader, n: number, wide: number, faceDataSize: number, unused: number, start: number): LodFaces | undefined {
  const at = r.pos;
  const bytes = r.bytes;
  const corners = countCorners(bytes, at, n, wide, r.end);
  if (corners < 0) return undefined;
  chargeAllocation(corners * 4 + n, 'faces', start, r.path);
  const stop = (r.pos = at + n + corners * wide);
  const view = r.view;
  // Both arrays in one buffer, read in one pass on the first read of either.
  const make = madeOnce(() => {
    const region = new ArrayBuffer(corners * 4 + n);
    const indices = new Uint32Array(region, 0, corners);
    const sizes = new Uint8Array(region, corners * 4, n);
    const end = wide === 2 ? readFaces16(view, at, n, sizes, indices) : readFaces32(view, at, n, sizes, indices);
    if (end !== stop) throw new Error(`ODOL face table read to ${end}, checked to ${stop}`);
    return { sizes, indices };
  });
  const out: LodFaces = { unused, sizes: EMPTY_SIZES, indices: EMPTY_INDICES, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
  deferField(out, 'sizes', () => make().sizes, n);
  deferField(out, 'indices', () => make().indices, corners);
  const delta = (faceDataSize - (corners + n) * wide) | 0;
  if (delta !== 0) out.faceDataSizeDelta = delta;
  return out;
}

const EMPTY_SIZES = new Uint8Array(0);
const EMPTY_INDICES = new Uint32Array(0);

/**
 * The corners of `n` faces from `p` (each 3 or 4, every face inside `end`), or -1 when a face is
 * not: the caller then finds which one for its message.
 */
function countCorners(bytes: Uint8Array, p: number, n: number, wide: number, end: number): number {
  let corners = 0;
  for (let i = 0; i < n; i++) {
    if (p >= end) return -1;
    const c = bytes[p]!;
    if (c !== 3 && c !== 4) return -1;
    corners += c;
    p += 1 + c * wide;
  }
  return p > end ? -1 : corners;
}

/** The corners {@link readFaces16} / {@link readFaces32} read last (a second result without an object). */
let facesCorners = 0;

/**
 * The corner counts and 16-bit indices of `n` faces from `p`, whose bounds are checked (`idx`
 * holds at least all their corners); returns the end, or -1 at a face whose count is not 3 or 4.
 * Sets {@link facesCorners}.
 */
function readFaces16(view: DataView, p: number, n: number, sizes: Uint8Array, idx: Uint32Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = view.getUint8(p);
    if (c !== 3 && c !== 4) return -1;
    sizes[i] = c;
    idx[k] = view.getUint16(p + 1, true);
    idx[k + 1] = view.getUint16(p + 3, true);
    idx[k + 2] = view.getUint16(p + 5, true);
    if (c === 4) idx[k + 3] = view.getUint16(p + 7, true);
    k += c;
    p += 1 + 2 * c;
  }
  facesCorners = k;
  return p;
}

/** As {@link readFaces16} for 32-bit indices (v69+). */
function readFaces32(view: DataView, p: number, n: number, sizes: Uint8Array, idx: Uint32Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = view.getUint8(p);
    if (c !== 3 && c !== 4) return -1;
    sizes[i] = c;
    idx[k] = view.getUint32(p + 1, true);
    idx[k + 1] = view.getUint32(p + 5, true);
    idx[k + 2] = view.getUint32(p + 9, true);
    if (c === 4) idx[k + 3] = view.getUint32(p + 13, true);
    k += c;
    p += 1 + 4 * c;
  }
  facesCorners = k;
  return p;
}

/**
 * The stored face-table size is not the size of the records in the file: every face counts as
 * (corners + 1) index slots, as the engine lays faces out in memory (checked on every real file).
 */
export function faceTableSize(f: { sizes: Uint8Array }, v: number): number {
  const wide = v >= 69 ? 4 : 2;
  let n = 0;
  for (let i = 0; i < f.sizes.length; i++) n += (f.sizes[i]! + 1) * wide;
  return n;
}

function writeFaces(w: BinaryWriter, f: LodFaces, v: number, reuseRaw: boolean | undefined): void {
  if (reusable(f, reuseRaw)) {
    w.bytes(f.$raw);
    return;
  }
  const wide = v >= 69 ? 4 : 2;
  w.i32(f.sizes.length);
  w.u32(faceTableSize(f, v) + (f.faceDataSizeDelta ?? 0));
  w.u16(f.unused);
  let k = 0;
  for (let i = 0; i < f.sizes.length; i++) {
    const c = f.sizes[i]!;
    w.u8(c);
    for (let j = 0; j < c; j++) {
      if (wide === 2) w.u16(f.indices[k++]!);
      else w.u32(f.indices[k++]!);
    }
  }
}

function readNamedSelection(r: BinaryReader, ctx: PackContext, v: number): NamedSelection {
  const start = r.pos;
  const t = lodTypes(v);
  const name = r.cstring();
  const faces = readPacked(r, ctx, t.index, 'faces');
  const unused = r.i32();
  const isSectional = r.u8();
  const sections = readPacked(r, ctx, I32, 'sections') as PackedArray<Int32Array>;
  const vertices = readPacked(r, ctx, t.index, 'vertices');
  const weights = readPacked(r, ctx, U8, 'weights');
  return { name, faces, unused, isSectional, sections, vertices, weights, $span: [start, r.pos] };
}

function writeNamedSelection(w: BinaryWriter, ctx: PackContext, s: NamedSelection, v: number, reuse: boolean | undefined): void {
  const t = lodTypes(v);
  w.cstring(s.name);
  writePacked(w, ctx, s.faces, t.index, reuse);
  w.i32(s.unused);
  w.u8(s.isSectional);
  writePacked(w, ctx, s.sections, I32, reuse);
  writePacked(w, ctx, s.vertices, t.index, reuse);
  writePacked(w, ctx, s.weights, U8, reuse);
}

/** Bytes one decoded record costs as a JS object and its slot, whatever its size in the file. */
export const RECORD_BYTES = 64;

function list<T>(r: BinaryReader, what: string, minSize: number, read: (i: number) => T): T[] {
  return r.within(what, () => {
    const at = r.pos;
    const n = r.i32Count(minSize, what);
    // A record of a few bytes in the file is tens of bytes in memory: charged before the loop.
    r.charge(n * RECORD_BYTES, `${what} records`, at);
    const out: T[] = [];
    // Not r.within(`[${i}]`, ...): a string and a closure per element, 10% of what decoding the
    // ODOL corpus allocates; the index becomes text only if an error asks for the path.
    for (let i = 0; i < n; i++) {
      r.enterIndex(i);
      try {
        out.push(read(i));
      } finally {
        r.leave();
      }
    }
    return out;
  });
}

/** Reads one LOD from a reader limited to the LOD's [start, end) window. */
export function readLod(r: BinaryReader, v: number, ctx: PackContext, resolution: number): OdolLod {
  const start = r.pos;
  const t = lodTypes(v);
  const proxy = proxyStruct(v);
  const proxies = list(r, 'proxies', 50, () => proxy.read(r) as LodProxy);
  const subSkeletonsToSkeleton = readI32Array(r, 'subSkeletonsToSkeleton', ctx);
  const skeletonToSubSkeleton = list(r, 'skeletonToSubSkeleton', 4, () => readI32Array(r, 'subSkeletons', ctx));
  const clipOld = v < 50 ? (readCondensed(r, ctx, CLIP, 'clipOld') as PackedArray<Uint32Array>) : undefined;
  const bounds = r.within('bounds', () => lodBounds(v).read(r)) as Rec;
  const textures = list(r, 'textures', 1, () => r.cstring());
  const materials = list(r, 'materials', 100, () => readMaterial(r));
  const pointToVertex = readPacked(r, ctx, t.index, 'pointToVertex');
  const vertexToPoint = readPacked(r, ctx, t.index, 'vertexToPoint');
  const faces = readFaces(r, v, ctx);
  const sections = list(r, 'sections', 36, () => readSection(r, v));
  const namedSelections = list(r, 'namedSelections', 17, () => readNamedSelection(r, ctx, v));
  const namedProperties = list(r, 'namedProperties', 2, () => ({ name: r.cstring(), value: r.cstring() }));
  const frames = list(r, 'frames', 8, () => {
    const frame: LodFrame = { time: 0, points: F32.empty };
    frame.time = readFloatKept(r, frame, 'time');
    const n = r.i32Count(12, 'points');
    frame.points = r.f32Array(n * 3, 'points');
    return frame;
  });
  const colorTop = r.i32();
  const color = r.i32();
  const special = r.i32();
  const vertexBoneRefIsSimple = r.u8();
  const sizeAt = r.pos;
  const restSize = r.u32();
  const restStart = r.pos;
  // Before v67 the size counts its own 4 bytes (wiki: "including these 4 bytes"); from v67 it does not.
  const restBias = v < 67 ? 4 : 0;
  // The declared size is checked before any of its arrays is expanded: the table must fit the
  // LOD, and its arrays may only draw on its own bytes (a forged stream cannot borrow the rest).
  if (restSize < restBias || restSize - restBias > r.remaining) {
    r.fail(`vertex table size ${restSize} does not fit the ${r.remaining} bytes left in the LOD`, sizeAt);
  }
  const lodReader = r;
  r = r.sub(restSize - restBias);
  const clip = v >= 50 ? (readCondensed(r, ctx, CLIP, 'clip') as PackedArray<Uint32Array>) : undefined;
  const readUv = (i: number): UvSet =>
    r.within(`uvSets[${i}]`, () => {
      const s = r.pos;
      const set = {} as UvSet;
      if (v >= 45) set.range = readFloatsKept(r, 4, set, 'range');
      set.uv = readCondensed(r, ctx, t.uv, 'uv');
      set.$span = [s, r.pos];
      return set;
    });
  const uv0 = readUv(0);
  const nUvAt = r.pos;
  const nUv = r.i32Count(0, 'uvSets');
  if (nUv > 1 && (nUv - 1) * 9 > r.remaining) r.fail(`uvSets count ${nUv} cannot fit`);
  if (nUv > 64) r.fail(`uvSets count ${nUv} is implausible`, nUvAt);
  const uvSets = [uv0];
  for (let i = 1; i < nUv; i++) uvSets.push(readUv(i));
  const vertices = readPacked(r, ctx, VEC3, 'vertices') as PackedArray<Float32Array>;
  const normals = readCondensed(r, ctx, t.normal, 'normals');
  const stCoords = readPacked(r, ctx, t.st, 'stCoords');
  const vertexBoneRef = readPacked(r, ctx, BONE_REF, 'vertexBoneRef');
  const neighborBoneRef = readPacked(r, ctx, NEIGHBOR, 'neighborBoneRef');
  const unknown67 = v >= 67 ? r.u32() : undefined;
  if (r.pos - restStart + restBias !== restSize) {
    r.fail(`vertex table is ${r.pos - restStart} bytes but its size field says ${restSize}`, sizeAt);
  }
  r = lodReader;
  const unknown68 = v >= 68 ? r.u8() : undefined;
  const lod: OdolLod = {
    resolution, proxies, subSkeletonsToSkeleton, skeletonToSubSkeleton,
    ...(clipOld ? { clipOld } : {}),
    bounds, textures, materials, pointToVertex, vertexToPoint, faces, sections, namedSelections, namedProperties, frames,
    colorTop, color, special, vertexBoneRefIsSimple,
    ...(clip ? { clip } : {}),
    uvSets, ...(nUv === 0 ? { uvSetCountZero: 1 } : {}), vertices, normals, stCoords, vertexBoneRef, neighborBoneRef,
    ...(unknown67 !== undefined ? { unknown67 } : {}),
    ...(unknown68 !== undefined ? { unknown68 } : {}),
  };
  if (!r.atEnd) lod.tail = r.bytesCopy(r.remaining, 'LOD tail');
  lod.$span = [start, r.pos];
  lod.$raw = r.viewAt(start, r.pos);
  return lod;
}

/** Encodes one LOD (its bytes only; the caller places it and records its offsets). */
export function writeLod(lod: OdolLod, v: number, ctx: PackContext, opts: EncodeOptions = {}): Uint8Array {
  if (reusable(lod, opts.reuseRaw)) return lod.$raw;
  const reuse = opts.reuseRaw;
  const t = lodTypes(v);
  const w = new BinaryWriter(1 << 16);
  const proxy = proxyStruct(v);
  w.i32(lod.proxies.length);
  for (const p of lod.proxies) proxy.write(w, p as never);
  w.i32(lod.subSkeletonsToSkeleton.length);
  w.typed(lod.subSkeletonsToSkeleton);
  w.i32(lod.skeletonToSubSkeleton.length);
  for (const s of lod.skeletonToSubSkeleton) {
    w.i32(s.length);
    w.typed(s);
  }
  if (v < 50) writeCondensed(w, ctx, lod.clipOld ?? { data: new Uint32Array(0) }, CLIP, reuse);
  lodBounds(v).write(w, lod.bounds as never);
  w.i32(lod.textures.length);
  for (const s of lod.textures) w.cstring(s);
  w.i32(lod.materials.length);
  for (const m of lod.materials) writeMaterial(w, m);
  writePacked(w, ctx, lod.pointToVertex, t.index, reuse);
  writePacked(w, ctx, lod.vertexToPoint, t.index, reuse);
  writeFaces(w, lod.faces, v, reuse);
  w.i32(lod.sections.length);
  for (const s of lod.sections) writeSection(w, s, v);
  w.i32(lod.namedSelections.length);
  for (const s of lod.namedSelections) writeNamedSelection(w, ctx, s, v, reuse);
  w.i32(lod.namedProperties.length);
  for (const p of lod.namedProperties) {
    w.cstring(p.name);
    w.cstring(p.value);
  }
  w.i32(lod.frames.length);
  for (const f of lod.frames) {
    writeFloatKept(w, f.time, f, 'time');
    w.i32(f.points.length / 3);
    w.typed(f.points);
  }
  w.i32(lod.colorTop);
  w.i32(lod.color);
  w.i32(lod.special);
  w.u8(lod.vertexBoneRefIsSimple);
  const sizeAt = w.reserve32();
  if (v >= 50) writeCondensed(w, ctx, lod.clip ?? { data: new Uint32Array(0) }, CLIP, reuse);
  lod.uvSets.forEach((s, i) => {
    if (v >= 45) writeFloatsKept(w, s.range ?? [0, 0, 1, 1], s, 'range', 4);
    writeCondensed(w, ctx, s.uv, t.uv, reuse);
    if (i === 0) w.i32(lod.uvSetCountZero && lod.uvSets.length === 1 ? 0 : lod.uvSets.length);
  });
  if (lod.uvSets.length === 0) throw new EncodeError('a LOD needs at least one UV set', 'uvSets');
  writePacked(w, ctx, lod.vertices, VEC3, reuse);
  writeCondensed(w, ctx, lod.normals, t.normal, reuse);
  writePacked(w, ctx, lod.stCoords, t.st, reuse);
  writePacked(w, ctx, lod.vertexBoneRef, BONE_REF, reuse);
  writePacked(w, ctx, lod.neighborBoneRef, NEIGHBOR, reuse);
  if (v >= 67) w.u32(lod.unknown67 ?? 0);
  w.patchU32(sizeAt, w.pos - sizeAt - (v < 67 ? 0 : 4));
  if (v >= 68) w.u8(lod.unknown68 ?? 0);
  if (lod.tail) w.bytes(lod.tail);
  return w.finish();
}
