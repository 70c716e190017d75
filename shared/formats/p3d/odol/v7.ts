/**
 * ODOL v7, Operation Flashpoint's binarized P3D ("P3D File Format - ODOLV7"). No real v7 file was
 * available: the layout follows the document, arrays use LZSS under the 1024-byte rule (the
 * document's "more than 255 longs / 127 UV pairs / 511 words" thresholds are that rule), and the
 * fields it calls unknown are kept under its names (uvalue...) so they round-trip.
 */
import { RECORD_BYTES } from './lod.ts';
import { BinaryReader, type Span } from '../../../binary/reader.ts';
import { BinaryWriter } from '../../../binary/writer.ts';
import { EncodeError } from '../../../errors.ts';
import { reusable } from '../../../model/lossless.ts';
import { cstring, fixedBytes, nanBitsOf, readFloatsKept, struct, u32, withNanBits, writeFloatsKept } from '../../../schema/schema.ts';
import { mat3, readResolutions, storeResolution, vec3, writeResolution } from './schema.ts';
import type { EncodeOptions } from '../../registry.ts';
import { bytesOf, readPacked, U16, U32, U8, VEC3, f32x, writePacked, type PackContext, type PackedArray } from './packed.ts';

const CTX: PackContext = { method: 'lzss-ofp', flagged: false };
const UV = f32x(2);

export const v7Footer = struct('ODOL7', {
  unknownBytes: fixedBytes(24).note('unknownBytes[24]'),
  offset: vec3.note('Model offset (unknown functionality)'),
  mapIconColor: u32.note('Map icon colour (RGBA)'),
  mapSelectedColor: u32.note('Map selected colour (RGBA)'),
  unknownValue: u32.note('unknownValue'),
  bboxMin: vec3.note('Bounding box minimum'),
  bboxMax: vec3.note('Bounding box maximum'),
  wrpModelOffset: vec3.note('Offset applied when placed on a WRP'),
  offset2: vec3.note('Second offset (unknown functionality)'),
});

export const v7Proxy = struct('Proxi', {
  name: cstring().note('Proxy model name'),
  rotation: mat3.note('rotationMatrix[9]'),
  translation: vec3.note('translation[3]'),
});

export interface V7Faces {
  /** uvalue: the unknown u32 after FacesCount. */
  uvalue: number;
  /** Attribs per face. */
  flags: Uint32Array;
  /** TextureIndex per face (65535 = no texture). */
  textures: Uint16Array;
  sizes: Uint8Array;
  indices: Uint32Array;
  $raw?: Uint8Array;
  $span?: Span;
}

export interface V7NamedSelection {
  name: string;
  vertices: PackedArray<Uint16Array>;
  uarray3: PackedArray<Uint16Array>;
  uarray4: PackedArray<Uint32Array>;
  uchar: number;
  uarray5: PackedArray<Uint32Array>;
  faces: PackedArray<Uint16Array>;
  uarray6: PackedArray<Uint8Array>;
  $span?: Span;
}

export interface OdolV7Lod {
  resolution: number;
  pointFlags: PackedArray<Uint32Array>;
  uvs: PackedArray<Float32Array>;
  positions: PackedArray<Float32Array>;
  normals: PackedArray<Float32Array>;
  /** fvalue[12]: min/max positions and other values. */
  fvalue: number[];
  /** Set when the stored resolution is a NaN with a payload: its exact bits. */
  resolutionBits?: number;
  textures: string[];
  pointToVertex: PackedArray<Uint16Array>;
  vertexToPoint: PackedArray<Uint16Array>;
  faces: V7Faces;
  /** uvalue2 records of 18 unknown bytes each (sections). */
  sections: PackedArray<Uint8Array>;
  namedSelections: V7NamedSelection[];
  namedProperties: { name: string; value: string }[];
  /** ustruct: uvalue8, then uvalue9 points of 12 bytes. */
  frames: { uvalue8: number; points: Float32Array }[];
  proxies: Record<string, unknown>[];
  $raw?: Uint8Array;
  $span?: Span;
}

export interface OdolV7Document {
  format: 'p3d-odol';
  /** The whole file as read (the structure tree's root range). */
  $span?: Span;
  version: 7;
  lods: OdolV7Lod[];
  footer: Record<string, unknown>;
}

const SECTION = bytesOf(18);

function readFaces(r: BinaryReader): V7Faces {
  return r.within('faces', () => {
    const start = r.pos;
    const n = r.i32Count(13, 'faces');
    const uvalue = r.u32();
    const flags = new Uint32Array(n);
    const textures = new Uint16Array(n);
    const sizes = new Uint8Array(n);
    const idx = new Uint32Array(n * 4);
    let k = 0;
    for (let i = 0; i < n; i++) {
      flags[i] = r.u32();
      textures[i] = r.u16();
      const c = r.u8();
      if (c < 3 || c > 4) r.fail(`face ${i} has ${c} corners (3 or 4 expected)`, r.pos - 1);
      sizes[i] = c;
      for (let j = 0; j < c; j++) idx[k++] = r.u16();
    }
    return { uvalue, flags, textures, sizes, indices: idx.slice(0, k), $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
  });
}

function writeFaces(w: BinaryWriter, f: V7Faces, reuse: boolean | undefined): void {
  if (reusable(f, reuse)) return w.bytes(f.$raw);
  w.i32(f.sizes.length);
  w.u32(f.uvalue);
  let k = 0;
  for (let i = 0; i < f.sizes.length; i++) {
    w.u32(f.flags[i] ?? 0);
    w.u16(f.textures[i] ?? 0xffff);
    const c = f.sizes[i]!;
    w.u8(c);
    for (let j = 0; j < c; j++) w.u16(f.indices[k++]!);
  }
}

function list<T>(r: BinaryReader, what: string, minSize: number, read: () => T): T[] {
  return r.within(what, () => {
    const at = r.pos;
    const n = r.i32Count(minSize, what);
    // A record of a few bytes in the file is tens of bytes in memory: charged before the loop.
    r.charge(n * RECORD_BYTES, `${what} records`, at);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(r.within(`[${i}]`, read));
    return out;
  });
}

function readLod(r: BinaryReader, index: number): OdolV7Lod {
  return r.within(`lods[${index}]`, () => {
    const start = r.pos;
    const pointFlags = readPacked(r, CTX, U32, 'pointFlags') as PackedArray<Uint32Array>;
    const uvs = readPacked(r, CTX, UV, 'uvs') as PackedArray<Float32Array>;
    const positions = readPacked(r, CTX, VEC3, 'positions') as PackedArray<Float32Array>;
    const normals = readPacked(r, CTX, VEC3, 'normals') as PackedArray<Float32Array>;
    // fvalue's NaN bytes, if any, go with the LOD record (made below): kept here meanwhile.
    const kept = {};
    const fvalue = r.within('fvalue', () => readFloatsKept(r, 12, kept, 'fvalue'));
    const textures = r.within('textures', () => {
      const n = r.i32Count(1, 'textures');
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(r.cstring());
      return out;
    });
    const pointToVertex = readPacked(r, CTX, U16, 'pointToVertex') as PackedArray<Uint16Array>;
    const vertexToPoint = readPacked(r, CTX, U16, 'vertexToPoint') as PackedArray<Uint16Array>;
    const faces = readFaces(r);
    const sections = readPacked(r, CTX, SECTION, 'sections');
    const namedSelections = list(r, 'namedSelections', 22, () => {
      const s = r.pos;
      const name = r.cstring();
      const sel: V7NamedSelection = {
        name,
        vertices: readPacked(r, CTX, U16, 'vertices') as PackedArray<Uint16Array>,
        uarray3: readPacked(r, CTX, U16, 'uarray3') as PackedArray<Uint16Array>,
        uarray4: readPacked(r, CTX, U32, 'uarray4') as PackedArray<Uint32Array>,
        uchar: r.u8(),
        uarray5: readPacked(r, CTX, U32, 'uarray5') as PackedArray<Uint32Array>,
        faces: readPacked(r, CTX, U16, 'faces') as PackedArray<Uint16Array>,
        uarray6: readPacked(r, CTX, U8, 'uarray6'),
      };
      sel.$span = [s, r.pos];
      return sel;
    });
    const namedProperties = list(r, 'namedProperties', 2, () => ({ name: r.cstring(), value: r.cstring() }));
    const frames = list(r, 'frames', 8, () => {
      const uvalue8 = r.u32();
      const n = r.i32Count(12, 'points');
      return { uvalue8, points: r.f32Array(n * 3) };
    });
    const proxies = list(r, 'proxies', 49, () => v7Proxy.read(r) as unknown as Record<string, unknown>);
    return withNanBits<OdolV7Lod>({
      resolution: 0, pointFlags, uvs, positions, normals, fvalue, textures, pointToVertex, vertexToPoint, faces, sections,
      namedSelections, namedProperties, frames, proxies, $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
    }, nanBitsOf(kept));
  });
}

function writeLod(w: BinaryWriter, l: OdolV7Lod, reuse: boolean | undefined): void {
  if (reusable(l, reuse)) return w.bytes(l.$raw);
  writePacked(w, CTX, l.pointFlags, U32, reuse);
  writePacked(w, CTX, l.uvs, UV, reuse);
  writePacked(w, CTX, l.positions, VEC3, reuse);
  writePacked(w, CTX, l.normals, VEC3, reuse);
  writeFloatsKept(w, l.fvalue, l, 'fvalue', 12);
  w.i32(l.textures.length);
  for (const t of l.textures) w.cstring(t);
  writePacked(w, CTX, l.pointToVertex, U16, reuse);
  writePacked(w, CTX, l.vertexToPoint, U16, reuse);
  writeFaces(w, l.faces, reuse);
  writePacked(w, CTX, l.sections, SECTION, reuse);
  w.i32(l.namedSelections.length);
  for (const s of l.namedSelections) {
    w.cstring(s.name);
    writePacked(w, CTX, s.vertices, U16, reuse);
    writePacked(w, CTX, s.uarray3, U16, reuse);
    writePacked(w, CTX, s.uarray4, U32, reuse);
    w.u8(s.uchar);
    writePacked(w, CTX, s.uarray5, U32, reuse);
    writePacked(w, CTX, s.faces, U16, reuse);
    writePacked(w, CTX, s.uarray6, U8, reuse);
  }
  w.i32(l.namedProperties.length);
  for (const p of l.namedProperties) {
    w.cstring(p.name);
    w.cstring(p.value);
  }
  w.i32(l.frames.length);
  for (const f of l.frames) {
    w.u32(f.uvalue8);
    w.i32(f.points.length / 3);
    w.typed(f.points);
  }
  w.i32(l.proxies.length);
  for (const p of l.proxies) v7Proxy.write(w, p as never);
}

export function decodeV7(bytes: Uint8Array): OdolV7Document {
  const r = new BinaryReader(bytes);
  r.skip(8, 'header');
  const n = r.i32Count(40, 'LODs');
  if (n === 0) r.fail('the model has no LODs');
  const lods: OdolV7Lod[] = [];
  for (let i = 0; i < n; i++) lods.push(readLod(r, i));
  const at = r.pos;
  const m = r.u32();
  if (m !== n) r.fail(`ResolutionCount ${m} differs from LodCount ${n}`, at);
  const res = r.within('resolutions', () => readResolutions(r, n));
  lods.forEach((l, i) => storeResolution(l, res.values[i]!, res.bits[i]));
  const footer = r.within('footer', () => v7Footer.read(r)) as unknown as Record<string, unknown>;
  r.expectEnd('ODOL v7 file');
  return { format: 'p3d-odol', version: 7, lods, footer, $span: [0, bytes.length] };
}

export function encodeV7(doc: OdolV7Document, opts: EncodeOptions = {}): Uint8Array {
  if (doc.lods.length === 0) throw new EncodeError('a model needs at least one LOD', 'lods');
  const w = new BinaryWriter(1 << 16);
  w.string('ODOL');
  w.u32(7);
  w.i32(doc.lods.length);
  for (const l of doc.lods) writeLod(w, l, opts.reuseRaw);
  w.i32(doc.lods.length);
  for (const l of doc.lods) writeResolution(w, l);
  v7Footer.write(w, doc.footer as never);
  return w.finish();
}
