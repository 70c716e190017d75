/**
 * UNIGINE 2.x `ms14` meshes and legacy `mr02` meshes, both worked out from real files
 * (see NOTES.md for the byte layouts).
 */
import { BinaryReader } from '../../binary/reader.ts';
import { copyBytes, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { decodeText, encodeText } from '../../binary/text.ts';
import { DecodeError, EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import { readCompactCount, readUString, writeCompact, writeUString } from './compact.ts';
import { lz4Compress, lz4CompressPieces, lz4Decompress, lz4MaxOutput } from './lz4.ts';
import { PieceWriter } from '../../binary/pieces.ts';
import { chargeAllocation } from '../../binary/budget.ts';
import { indexWidth, readBones, readMagic, readUvsAndColours, readWeights, writeBones, writeIndices, writeUvsAndColours, writeWeights } from './mesh-io.ts';
import { readExact, writeExact, type ExactKeeping } from '../../model/exact.ts';
import { Bounds, type Mr02Surface, type UnigineMesh14, type UnigineMeshMr02, type UnigineSurface } from './schema.ts';

/** LZ4 cannot expand data by more than 255x: a declared size beyond that is corrupt, not huge. */

function readU64Size(r: BinaryReader, what: string): number {
  const at = r.pos;
  const lo = r.u32();
  const hi = r.u32();
  if (hi !== 0) r.fail(`${what} ${hi} * 2^32 + ${lo} is too large`, at);
  return lo;
}

/** Reads one `u64 size, u64 compressed size, LZ4 block` record. */
function readBlock(r: BinaryReader, what: string): { plain: Uint8Array; lz4: Uint8Array; start: number } {
  const start = r.pos;
  const size = readU64Size(r, `${what} size`);
  const csize = readU64Size(r, `${what} compressed size`);
  r.need(csize, `${what} compressed data`);
  if (size > lz4MaxOutput(csize)) r.fail(`${what} claims ${size} bytes from ${csize} compressed bytes`, start);
  const lz4 = r.bytesView(csize, `${what} compressed data`);
  // A block that would not shrink is stored as is, with both sizes equal (seen in real files).
  if (csize === size) chargeAllocation(size, `${what} (stored)`, start + 16, r.path);
  const plain = csize === size ? copyBytes(lz4) : lz4Decompress(lz4, size, start + 16, r.path);
  if (typeof plain === 'string') r.fail(`${what}: ${plain}`, start + 16);
  return { plain, lz4, start };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Block {
  size: number;
  lz4: Uint8Array;
}

/** The stored form of a block: the original LZ4 bytes while they still decompress to `plain`. */
function packBlock(plain: Uint8Array, original: Uint8Array | undefined): Block {
  // An untouched block goes back as it came: the engine's compressor is not ours to reproduce.
  if (original) {
    const back = original.length === plain.length ? original : lz4Decompress(original, plain.length);
    if (typeof back !== 'string' && sameBytes(back, plain)) return { size: plain.length, lz4: original };
  }
  const packed = lz4Compress(plain);
  return { size: plain.length, lz4: packed.length < plain.length ? packed : plain };
}

/**
 * A block written from the document (no original to keep): compressed from the pieces of its
 * plain bytes, most of them views of the document's arrays, without joining them first.
 */
function packPieces(pieces: Uint8Array[]): Block {
  let size = 0;
  for (const p of pieces) size += p.length;
  const packed = lz4CompressPieces(pieces);
  if (packed.length < size) return { size, lz4: packed };
  const plain = new Uint8Array(size);
  let o = 0;
  for (const p of pieces) { plain.set(p, o); o += p.length; }
  return { size, lz4: plain };
}

function writeBlock(w: BinaryWriter, b: Block): void {
  w.u32(b.size); w.u32(0);
  w.u32(b.lz4.length); w.u32(0);
  w.bytes(b.lz4);
}

interface Header14 {
  numCoordIndices: number;
  numTriangleIndices: number;
  numVertices: number;
  morphNames: string[];
}

export function decodeMesh14(bytes: Uint8Array): UnigineMesh14 {
  const r = new BinaryReader(bytes);
  readMagic(r, 'ms14', 'magic');
  const version = r.u8();
  const ex: ExactKeeping = {};
  const { $span: _b, ...bounds } = readExact(Bounds, r, ex, 'bounds');
  const bones = readBones(r);
  const ns = r.within('surfaces', () => readCompactCount(r, 48, 'surface'));
  const surfaces: UnigineSurface[] = [];
  const headers: Header14[] = [];
  for (let i = 0; i < ns; i++) {
    r.within(`surfaces[${i}]`, () => {
      const start = r.pos;
      const name = readUString(r, 'surface name');
      const param0 = readCompactCount(r, 0, 'param0');
      const param1 = readCompactCount(r, 0, 'param1');
      const numCoordIndices = readCompactCount(r, 0, 'coordinate index');
      const numTriangleIndices = readCompactCount(r, 0, 'triangle index');
      const sx: ExactKeeping = {};
      const { $span: _s, ...b } = readExact(Bounds, r, sx, 'bounds');
      const nm = readCompactCount(r, 2, 'morph target');
      const morphNames: string[] = [];
      for (let k = 0; k < nm; k++) morphNames.push(r.within(`morphTargets[${k}]`, () => readUString(r, 'morph target name')));
      const numVertices = readCompactCount(r, 0, 'vertex');
      headers.push({ numCoordIndices, numTriangleIndices, numVertices, morphNames });
      surfaces.push({
        ...sx, name, param0, param1, ...b, morphTargets: [], weightCounts: new Uint8Array(0), weightBones: new Int16Array(0), weightValues: new Uint16Array(0),
        uv0: new Float32Array(0), uv1: new Float32Array(0), colors: new Uint8Array(0), coordIndices: new Uint32Array(0), triangleIndices: new Uint32Array(0),
        $span: [start, r.pos],
      });
    });
  }
  const headerTail = r.bytesCopy(8, 'header tail');
  readMagic(r, 'ms14', 'second magic');
  const bindPose = r.within('bindPose', () => r.f32Array(bones.length * 10, 'bind pose'));
  const blockStarts: number[] = [];
  surfaces.forEach((s, i) => r.within(`surfaces[${i}]`, () => {
    const { plain, lz4, start } = r.within('geometry', () => readBlock(r, 'geometry block'));
    blockStarts.push(start);
    s.$geometryLz4 = lz4;
    s.$dataSpan = [start, r.pos];
    const g = new BinaryReader(plain, 0, plain.length, [...r.pathSegments, 'geometry']);
    try {
      readGeometry14(g, s, headers[i]!);
      g.expectEnd('geometry block');
    } catch (e) {
      // Offsets inside the decompressed block mean nothing in the file: point at the block and
      // say where inside it the problem is.
      if (!(e instanceof DecodeError)) throw e;
      throw new DecodeError(`${e.detail} (at byte ${e.offset} of the decompressed block)`, start, e.path);
    }
  }));
  readMagic(r, 'ms14', 'third magic');
  surfaces.forEach((s, i) => r.within(`surfaces[${i}]`, () => {
    const { plain, lz4 } = r.within('spatialTree', () => readBlock(r, 'spatial tree block'));
    s.spatialTree = plain;
    s.$treeLz4 = lz4;
  }));
  readMagic(r, 'ms14', 'fourth magic');
  // The table of geometry block offsets is derived: check it, then rebuild it when writing.
  r.within('blockOffsets', () => {
    for (let i = 0; i < ns; i++) {
      const at = r.pos;
      const off = readU64Size(r, 'block offset');
      if (off !== blockStarts[i]) r.fail(`offset ${off} of surface ${i} does not point at its geometry block (${blockStarts[i]})`, at);
    }
  });
  readMagic(r, 'ms14', 'closing magic');
  r.expectEnd('mesh file');
  return {
    ...ex, magic: 'ms14', version, ...bounds, bones, bindPose, animations: [], surfaces, headerTail,
    $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length),
  };
}

function readGeometry14(g: BinaryReader, s: UnigineSurface, h: Header14): void {
  const nv = g.count(h.numVertices, 12, 'vertex');
  s.morphTargets = h.morphNames.map((name, k) => g.within(`morphTargets[${k}]`, () => {
    const vertices = g.f32Array(nv * 3, 'vertices');
    const nt = readCompactCount(g, 8, 'tangent');
    return { name, vertices, tangents: g.i16Array(nt * 4, 'tangents') };
  }));
  readWeights(g, s);
  readUvsAndColours(g, s);
  const cw = indexWidth(nv);
  s.coordIndices = g.within('coordIndices', () => g.indexArray(g.count(h.numCoordIndices, cw, 'coordinate index'), cw, 'coordinate indices'));
  const tw = indexWidth((s.morphTargets[0]?.tangents.length ?? 0) / 4);
  s.triangleIndices = g.within('triangleIndices', () => g.indexArray(g.count(h.numTriangleIndices, tw, 'triangle index'), tw, 'triangle indices'));
}

function writeGeometry14(s: UnigineSurface, path: string): Uint8Array {
  return writeSized((w) => writeGeometry14To(w, s, path));
}

function writeGeometry14To(w: BinaryWriter, s: UnigineSurface, path: string): void {
  const nv = (s.morphTargets[0]?.vertices.length ?? 0) / 3;
  for (const m of s.morphTargets) {
    if (m.vertices.length !== nv * 3) throw new EncodeError('every ms14 morph target needs the same vertex count', path);
    w.typed(m.vertices);
    if (m.tangents.length % 4) throw new EncodeError('tangents must be 4 shorts each', path);
    writeCompact(w, m.tangents.length / 4);
    w.typed(m.tangents);
  }
  writeWeights(w, s, path);
  writeUvsAndColours(w, s, path);
  const cw = indexWidth(nv);
  const tw = indexWidth((s.morphTargets[0]?.tangents.length ?? 0) / 4);
  writeIndices(w, s.coordIndices, cw, `${path}/coordIndices`);
  writeIndices(w, s.triangleIndices, tw, `${path}/triangleIndices`);
}

export function encodeMesh14(doc: UnigineMesh14, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  // Blocks are compressed once, before the file is measured and written in one buffer.
  const geometry = doc.surfaces.map((s, i) => {
    const path = `surfaces[${i}]`;
    if (s.$geometryLz4) return packBlock(writeGeometry14(s, path), s.$geometryLz4);
    const w = new PieceWriter();
    writeGeometry14To(w, s, path);
    return packPieces(w.pieces());
  });
  const trees = doc.surfaces.map((s) => packBlock(s.spatialTree ?? new Uint8Array(0), s.$treeLz4));
  return writeSized((w) => writeMesh14(w, doc, geometry, trees));
}

function writeMesh14(w: BinaryWriter, doc: UnigineMesh14, geometry: Block[], trees: Block[]): void {
  w.string('ms14');
  w.u8(doc.version);
  writeExact(Bounds, w, doc, doc, 'bounds');
  writeBones(w, doc.bones);
  writeCompact(w, doc.surfaces.length);
  for (const s of doc.surfaces) {
    writeUString(w, s.name);
    writeCompact(w, s.param0 ?? 0);
    writeCompact(w, s.param1 ?? 0);
    writeCompact(w, s.coordIndices.length);
    writeCompact(w, s.triangleIndices.length);
    writeExact(Bounds, w, s, s, 'bounds');
    writeCompact(w, s.morphTargets.length);
    for (const m of s.morphTargets) writeUString(w, m.name);
    writeCompact(w, (s.morphTargets[0]?.vertices.length ?? 0) / 3);
  }
  if (doc.headerTail.length !== 8) throw new EncodeError('the header tail must be 8 bytes', 'headerTail');
  w.bytes(doc.headerTail);
  w.string('ms14');
  if (doc.bindPose.length !== doc.bones.length * 10) throw new EncodeError(`bind pose holds ${doc.bindPose.length} floats for ${doc.bones.length} bones (10 each)`, 'bindPose');
  w.typed(doc.bindPose);
  if (doc.animations.length) throw new EncodeError('embedded animations are not known in ms14 files', 'animations');
  const offsets: number[] = [];
  for (const b of geometry) {
    offsets.push(w.length);
    writeBlock(w, b);
  }
  w.string('ms14');
  for (const b of trees) writeBlock(w, b);
  w.string('ms14');
  for (const o of offsets) { w.u32(o); w.u32(0); }
  w.string('ms14');
}

const MR02_NAME_SIZE = 128;

export function decodeMeshMr02(bytes: Uint8Array): UnigineMeshMr02 {
  const r = new BinaryReader(bytes);
  readMagic(r, 'mr02', 'magic');
  const ns = r.within('surfaces', () => r.i32Count(MR02_NAME_SIZE + 4, 'surface'));
  const surfaces: Mr02Surface[] = [];
  for (let i = 0; i < ns; i++) {
    surfaces.push(r.within(`surfaces[${i}]`, () => {
      const start = r.pos;
      const field = r.bytesView(MR02_NAME_SIZE, 'name');
      const z = field.indexOf(0);
      const end = z < 0 ? MR02_NAME_SIZE : z;
      const name = decodeText(field.subarray(0, end), 'latin1');
      const pad = field.subarray(end);
      const nv = r.i32Count(32, 'vertex');
      r.need(nv * 32, 'vertices');
      // Interleaved 32-byte records split straight from the file's bytes: the floats are moved as
      // their bits (NaN payloads survive), with no per-vertex allocation.
      const dv = r.view;
      const base = r.pos;
      const p = new Uint32Array(nv * 3), n = new Uint32Array(nv * 3), t = new Uint32Array(nv * 2);
      for (let v = 0, o = base; v < nv; v++, o += 32) {
        const v3 = v * 3, v2 = v * 2;
        p[v3] = dv.getUint32(o, true); p[v3 + 1] = dv.getUint32(o + 4, true); p[v3 + 2] = dv.getUint32(o + 8, true);
        n[v3] = dv.getUint32(o + 12, true); n[v3 + 1] = dv.getUint32(o + 16, true); n[v3 + 2] = dv.getUint32(o + 20, true);
        t[v2] = dv.getUint32(o + 24, true); t[v2 + 1] = dv.getUint32(o + 28, true);
      }
      r.skip(nv * 32, 'vertices');
      const s: Mr02Surface = { name, positions: new Float32Array(p.buffer), normals: new Float32Array(n.buffer), uvs: new Float32Array(t.buffer), $span: [start, r.pos] };
      if (pad.some((b) => b !== 0)) s.namePadding = copyBytes(pad);
      return s;
    }));
  }
  r.expectEnd('mesh file');
  return { magic: 'mr02', surfaces, $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length) };
}

export function encodeMeshMr02(doc: UnigineMeshMr02, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  return writeSized((w) => writeMeshMr02(w, doc));
}

function writeMeshMr02(w: BinaryWriter, doc: UnigineMeshMr02): void {
  w.string('mr02');
  w.i32(doc.surfaces.length);
  doc.surfaces.forEach((s, i) => {
    const path = `surfaces[${i}]`;
    const field = new Uint8Array(MR02_NAME_SIZE);
    const name = encodeText(s.name, 'latin1');
    if (name.length > MR02_NAME_SIZE || name.includes(0)) throw new EncodeError(`name must fit ${MR02_NAME_SIZE} bytes without NUL`, path);
    field.set(name);
    // The padding starts with the terminator; after a rename it is cut to what still fits.
    if (s.namePadding && name.length < MR02_NAME_SIZE) field.set(s.namePadding.subarray(0, MR02_NAME_SIZE - name.length), name.length);
    w.bytes(field);
    const nv = s.positions.length / 3;
    if (!Number.isInteger(nv) || s.normals.length !== nv * 3 || s.uvs.length !== nv * 2) throw new EncodeError('positions, normals and uvs must describe the same vertices', path);
    w.i32(nv);
    const at = w.claim(nv * 32);
    if (w.counting) return;
    // The mirror of the decoder's loop: bits straight into the output, no per-vertex allocation.
    const bits = (a: Float32Array): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);
    const p = bits(s.positions), n = bits(s.normals), t = bits(s.uvs);
    const dv = w.dataView;
    for (let v = 0, o = at; v < nv; v++, o += 32) {
      const v3 = v * 3, v2 = v * 2;
      dv.setUint32(o, p[v3]!, true); dv.setUint32(o + 4, p[v3 + 1]!, true); dv.setUint32(o + 8, p[v3 + 2]!, true);
      dv.setUint32(o + 12, n[v3]!, true); dv.setUint32(o + 16, n[v3 + 1]!, true); dv.setUint32(o + 20, n[v3 + 2]!, true);
      dv.setUint32(o + 24, t[v2]!, true); dv.setUint32(o + 28, t[v2 + 1]!, true);
    }
  });
}
