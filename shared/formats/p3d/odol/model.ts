/**
 * ODOL v40+ file level: header, ModelInfo (with the skeleton), animations, the LOD offset tables,
 * the per-LOD face defaults, the LODs and the trailing data.
 */
import { chargeAllocation } from '../../../binary/budget.ts';
import { BinaryReader, type Span } from '../../../binary/reader.ts';
import { BinaryWriter, joinBytes } from '../../../binary/writer.ts';
import { DecodeError, EncodeError } from '../../../errors.ts';
import { reusable } from '../../../model/lossless.ts';
import type { EncodeOptions } from '../../registry.ts';
import { readLod, writeLod, type OdolLod } from './lod.ts';
import { parsePhysx, writePhysx, type PhysxData } from './physics.ts';
import { F32, readPacked, Slab, writePacked, type PackContext, type PackedArray } from './packed.ts';
import { readFloatKept, readFloatsKept, writeFloatKept, writeFloatsKept } from '../../../schema/schema.ts';
import { animationAxis, blankOf, loadableLodInfo, modelInfoHead, modelInfoTail, readResolutions, storeResolution, writeResolution } from './schema.ts';

type Rec = Record<string, unknown> & { $span?: Span };

export interface Skeleton {
  name: string;
  isDiscrete?: number;
  /** Bone name and parent name per bone. */
  bones: { name: string; parent: string }[];
  pivotsName?: string;
}

export interface ModelInfo {
  head: Rec;
  skeleton: Skeleton;
  mapType: number;
  massArray: PackedArray<Float32Array>;
  tail: Rec;
  $raw?: Uint8Array;
  $span?: Span;
}

export interface AnimationClass extends Rec {
  type: number;
  name: string;
  source: string;
  minPhase: number;
  maxPhase: number;
  minValue: number;
  maxValue: number;
  animPeriod?: number;
  initPhase?: number;
  sourceAddress: number;
  /** Type-dependent floats: angle0/1, offset0/1, axisPos+axisDir+angle+axisOffset, or hideValue (+1 from v55). */
  params: number[];
}

export interface Animations {
  classes: AnimationClass[];
  /** Per LOD, per bone: the animation classes driving it. */
  bonesToAnims: Uint32Array[][];
  /** Per LOD, per animation class: the bone (-1 none) and, for axis animations, its axis. */
  animsToBones: { bone: number; axis?: Rec }[][];
  $raw?: Uint8Array;
  $span?: Span;
}

export interface OdolV4xDocument {
  format: 'p3d-odol';
  /** The whole file as read (the structure tree's root range). */
  $span?: Span;
  version: number;
  /** v59+: application id. */
  appId?: number;
  /** v58+: the model's own path (may be empty). */
  prefix?: string;
  modelInfo: ModelInfo;
  /** The "has animations" byte (v30+). */
  hasAnimations: number;
  animations?: Animations;
  /** Per LOD, in header order: the permanent byte (wiki: UseDefault) and, when 0, the face defaults. */
  lodInfo: { permanent: number; info?: Rec }[];
  lods: OdolLod[];
  /** LOD indices in the order the LODs are stored in the file. */
  fileOrder: number[];
  /** Bytes before each stored LOD that belong to no LOD (empty in every file seen). */
  gaps?: Uint8Array[];
  /** v60+: the PhysX data after the last LOD, when it has the known shape. */
  physx?: PhysxData;
  /** Everything after the last LOD that is not `physx`, kept as stored. */
  trailer: Uint8Array;
}

export function packContext(version: number): PackContext {
  return { method: version >= 44 ? 'lzo' : 'lzss-arma', flagged: version >= 64 };
}

function readSkeleton(r: BinaryReader, v: number): Skeleton {
  return r.within('skeleton', () => {
    const name = r.cstring();
    const s: Skeleton = { name, bones: [] };
    if (name !== '') {
      if (v >= 23) s.isDiscrete = r.u8();
      const n = r.i32Count(2, 'bones');
      for (let i = 0; i < n; i++) s.bones.push({ name: r.cstring(), parent: r.cstring() });
      if (v > 40) s.pivotsName = r.cstring();
    }
    return s;
  });
}

function writeSkeleton(w: BinaryWriter, s: Skeleton, v: number): void {
  w.cstring(s.name);
  if (s.name === '') return;
  if (v >= 23) w.u8(s.isDiscrete ?? 0);
  w.i32(s.bones.length);
  for (const b of s.bones) {
    w.cstring(b.name);
    w.cstring(b.parent);
  }
  if (v > 40) w.cstring(s.pivotsName ?? '');
}

function paramCount(type: number, v: number): number {
  if (type <= 7) return 2;
  if (type === 8) return 8;
  if (type === 9) return v >= 55 ? 2 : 1;
  return -1;
}

function readAnimations(r: BinaryReader, v: number): Animations {
  return r.within('animations', () => {
    const start = r.pos;
    const nClasses = r.i32Count(30, 'animation classes');
    const classes: AnimationClass[] = [];
    for (let i = 0; i < nClasses; i++) {
      classes.push(
        r.within(`classes[${i}]`, () => {
          const s = r.pos;
          const type = r.u32();
          const c: AnimationClass = { type, name: r.cstring(), source: r.cstring(), minPhase: 0, maxPhase: 0, minValue: 0, maxValue: 0, sourceAddress: 0, params: [] };
          c.minPhase = readFloatKept(r, c, 'minPhase');
          c.maxPhase = readFloatKept(r, c, 'maxPhase');
          c.minValue = readFloatKept(r, c, 'minValue');
          c.maxValue = readFloatKept(r, c, 'maxValue');
          if (v >= 56) {
            c.animPeriod = readFloatKept(r, c, 'animPeriod');
            c.initPhase = readFloatKept(r, c, 'initPhase');
          }
          c.sourceAddress = r.u32();
          const n = paramCount(type, v);
          if (n < 0) r.fail(`unknown animation type ${type}`, s);
          c.params = readFloatsKept(r, n, c, 'params');
          c.$span = [s, r.pos];
          return c;
        }),
      );
    }
    const nLods = r.i32Count(4, 'bones to animations');
    const bonesToAnims: Uint32Array[][] = [];
    for (let l = 0; l < nLods; l++) {
      const nBones = r.i32Count(4, 'bones');
      const perBone: Uint32Array[] = [];
      for (let b = 0; b < nBones; b++) perBone.push(r.u32Array(r.i32Count(4, 'animation indices')));
      bonesToAnims.push(perBone);
    }
    const animsToBones: { bone: number; axis?: Rec }[][] = [];
    for (let l = 0; l < nLods; l++) {
      const row: { bone: number; axis?: Rec }[] = [];
      for (let k = 0; k < nClasses; k++) {
        const bone = r.i32();
        const type = classes[k]!.type;
        if (bone !== -1 && type !== 8 && type !== 9) row.push({ bone, axis: animationAxis.read(r) as unknown as Rec });
        else row.push({ bone });
      }
      animsToBones.push(row);
    }
    return { classes, bonesToAnims, animsToBones, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
  });
}

function writeAnimations(w: BinaryWriter, a: Animations, v: number, reuse: boolean | undefined): void {
  if (reusable(a, reuse)) {
    w.bytes(a.$raw);
    return;
  }
  w.i32(a.classes.length);
  for (const c of a.classes) {
    w.u32(c.type);
    w.cstring(c.name);
    w.cstring(c.source);
    writeFloatKept(w, c.minPhase, c, 'minPhase');
    writeFloatKept(w, c.maxPhase, c, 'maxPhase');
    writeFloatKept(w, c.minValue, c, 'minValue');
    writeFloatKept(w, c.maxValue, c, 'maxValue');
    if (v >= 56) {
      writeFloatKept(w, c.animPeriod, c, 'animPeriod');
      writeFloatKept(w, c.initPhase, c, 'initPhase');
    }
    w.u32(c.sourceAddress);
    const n = paramCount(c.type, v);
    if (n < 0) throw new EncodeError(`unknown animation type ${c.type}`, 'animations');
    writeFloatsKept(w, c.params, c, 'params', n);
  }
  w.i32(a.bonesToAnims.length);
  for (const perBone of a.bonesToAnims) {
    w.i32(perBone.length);
    for (const x of perBone) {
      w.i32(x.length);
      w.typed(x);
    }
  }
  a.animsToBones.forEach((row) => {
    a.classes.forEach((c, k) => {
      const e = row[k] ?? { bone: -1 };
      w.i32(e.bone);
      if (e.bone !== -1 && c.type !== 8 && c.type !== 9) animationAxis.write(w, (e.axis ?? { axisPos: [0, 0, 0], axisDir: [0, 0, 0] }) as never);
    });
  });
}

function readModelInfo(r: BinaryReader, v: number, nLods: number, ctx: PackContext): ModelInfo {
  return r.within('modelInfo', () => {
    const start = r.pos;
    const head = modelInfoHead(v).read(r) as Rec;
    const skeleton = readSkeleton(r, v);
    const mapType = r.u8();
    const massArray = readPacked(r, ctx, F32, 'massArray') as PackedArray<Float32Array>;
    const tail = modelInfoTail(v, nLods).read(r) as Rec;
    return { head, skeleton, mapType, massArray, tail, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
  });
}

function writeModelInfo(w: BinaryWriter, m: ModelInfo, v: number, nLods: number, ctx: PackContext, reuse: boolean | undefined): void {
  if (reusable(m, reuse)) {
    w.bytes(m.$raw);
    return;
  }
  modelInfoHead(v).write(w, m.head as never);
  writeSkeleton(w, m.skeleton, v);
  w.u8(m.mapType);
  writePacked(w, ctx, m.massArray, F32, reuse);
  modelInfoTail(v, nLods).write(w, m.tail as never);
}

/**
 * Decodes ODOL v30..v75 (the Arma family). With `defer` (DecodeOptions.defer), large LZO arrays
 * and face tables are checked now and made on their first read.
 */
export function decodeV4x(bytes: Uint8Array, defer = false): OdolV4xDocument {
  const r = new BinaryReader(bytes);
  r.skip(4, 'signature');
  const version = r.u32();
  const ctx: PackContext = { ...packContext(version), slab: new Slab(bytes.length) };
  if (defer) ctx.defer = true;
  const doc = { format: 'p3d-odol', version, $span: [0, bytes.length] } as OdolV4xDocument;
  if (version >= 59) doc.appId = r.u32();
  if (version >= 58) doc.prefix = r.within('prefix', () => r.cstring());
  const nLods = r.i32Count(4 + 8 + 1, 'LODs');
  if (nLods === 0) r.fail('the model has no LODs');
  const resolutions = r.within('resolutions', () => readResolutions(r, nLods));
  doc.modelInfo = readModelInfo(r, version, nLods, ctx);
  doc.hasAnimations = r.u8();
  if (doc.hasAnimations) doc.animations = readAnimations(r, version);
  const starts = r.within('lodStarts', () => Array.from(r.u32Array(nLods)));
  const ends = r.within('lodEnds', () => Array.from(r.u32Array(nLods)));
  const permanent = r.within('permanent', () => Array.from(r.u8Array(nLods)));
  const lli = loadableLodInfo(version);
  doc.lodInfo = permanent.map((p, i) => (p ? { permanent: p } : { permanent: p, info: r.within(`lodInfo[${i}]`, () => lli.read(r) as Rec) }));
  const headerEnd = r.pos;
  // LODs are stored by descending resolution, not in header order: walk them in file order.
  const order = [...Array(nLods).keys()].sort((a, b) => starts[a]! - starts[b]! || a - b);
  doc.fileOrder = order;
  const lods = new Array<OdolLod>(nLods);
  const gaps: Uint8Array[] = [];
  let at = headerEnd;
  for (const i of order) {
    const s = starts[i]!;
    const e = ends[i]!;
    if (s < at || e < s || e > bytes.length) {
      throw new DecodeError(`LOD ${i} spans ${s}..${e}, outside the file or overlapping the data before it (${at})`, headerEnd - 8 * nLods, `lods[${i}]`);
    }
    chargeAllocation(s - at, 'bytes between LODs', at, `lods[${i}]`);
    gaps.push(bytes.slice(at, s));
    const sub = new BinaryReader(bytes, s, e, [`lods[${i}]`]);
    lods[i] = readLod(sub, version, ctx, 0);
    storeResolution(lods[i], resolutions.values[i]!, resolutions.bits[i]);
    at = e;
  }
  doc.lods = lods;
  if (gaps.some((g) => g.length > 0)) doc.gaps = gaps;
  chargeAllocation(bytes.length - at, 'trailing data', at, '');
  const trailer = bytes.slice(at);
  const physx = version >= 60 ? parsePhysx(trailer) : undefined;
  if (physx) {
    doc.physx = physx;
    doc.trailer = new Uint8Array(0);
  } else {
    doc.trailer = trailer;
  }
  return doc;
}

export function encodeV4x(doc: OdolV4xDocument, opts: EncodeOptions = {}): Uint8Array {
  // Sized exactly: each piece is copied once, and no buffer grows by doubling.
  return joinBytes(encodeV4xPieces(doc, opts));
}

/**
 * The same bytes as {@link encodeV4x}, as pieces that are never joined (FormatCodec.encodePieces):
 * the header up to the LOD table (its start and end offsets filled in from the pieces' lengths),
 * then each LOD in file order (an untouched one is its `$raw` view of the input) with the bytes
 * between them, then the PhysX block and the trailer. A ~200 MB model saved untouched this way
 * allocates next to nothing, where one growing buffer held up to twice the file at once.
 */
export function encodeV4xPieces(doc: OdolV4xDocument, opts: EncodeOptions = {}): Uint8Array[] {
  const v = doc.version;
  const ctx = packContext(v);
  const n = doc.lods.length;
  if (doc.lodInfo.length !== n) throw new EncodeError(`lodInfo has ${doc.lodInfo.length} entries for ${n} LODs`, 'lodInfo');
  const w = new BinaryWriter(1 << 16);
  w.string('ODOL');
  w.u32(v);
  if (v >= 59) w.u32(doc.appId ?? 0);
  if (v >= 58) w.cstring(doc.prefix ?? '');
  w.i32(n);
  for (const l of doc.lods) writeResolution(w, l);
  writeModelInfo(w, doc.modelInfo, v, n, ctx, opts.reuseRaw);
  w.u8(doc.hasAnimations);
  if (doc.hasAnimations) {
    if (!doc.animations) throw new EncodeError('hasAnimations is set but there are no animations', 'animations');
    writeAnimations(w, doc.animations, v, opts.reuseRaw);
  }
  const startsAt = w.pos;
  w.zeros(8 * n);
  for (const li of doc.lodInfo) w.u8(li.permanent);
  const lli = loadableLodInfo(v);
  doc.lodInfo.forEach((li) => {
    if (!li.permanent) lli.write(w, (li.info ?? blankOf(lli)) as never);
  });
  const pieces: Uint8Array[] = [];
  let pos = w.pos;
  validOrder(doc.fileOrder, n).forEach((i, k) => {
    const gap = doc.gaps?.[k];
    if (gap && gap.length > 0) {
      pieces.push(gap);
      pos += gap.length;
    }
    const lod = writeLod(doc.lods[i]!, v, ctx, opts);
    w.patchU32(startsAt + 4 * i, pos);
    pieces.push(lod);
    pos += lod.length;
    w.patchU32(startsAt + 4 * (n + i), pos);
  });
  if (doc.physx) {
    const px = new BinaryWriter(1 << 10);
    writePhysx(px, doc.physx);
    pieces.push(px.finish());
  }
  if (doc.trailer.length > 0) pieces.push(doc.trailer);
  pieces.unshift(w.finish());
  return pieces;
}

/** The stored order when it still names every LOD once; else header order. */
function validOrder(order: number[] | undefined, n: number): number[] {
  if (order && order.length === n && new Set(order).size === n && order.every((i) => Number.isInteger(i) && i >= 0 && i < n)) return order;
  return [...Array(n).keys()];
}
