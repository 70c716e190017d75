/**
 * Unigine `.mesh` versions ms10 and ms11: header (bounds, bones, animation names, surface
 * records), the magic again, bind pose, animation frame streams, per-surface geometry, and the
 * magic a third time. Counts are compact integers (compact.ts).
 */
import { BinaryReader } from '../../binary/reader.ts';
import { writePieces } from '../../binary/pieces.ts';
import { copyBytes, IndexRangeError, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import { readCompactCount, readUString, writeCompact, writeUString } from './compact.ts';
import { readClipData, writeClipData } from './frames.ts';
import { readExact, writeExact, type ExactKeeping } from '../../model/exact.ts';
import { Bounds, type MorphTarget, type UnigineBone, type UnigineClip, type UnigineMeshMs, type UnigineSurface } from './schema.ts';

/**
 * Index width rule of the Unigine page: 1 byte when the indexed array has fewer than 256
 * elements, 2 below 65536, else 4.
 */
export function indexWidth(count: number): 1 | 2 | 4 {
  return count < 256 ? 1 : count < 65536 ? 2 : 4;
}

/** Number of coordinate vertices the coordinate indices refer to (morph target 0). */
export function coordVertexCount(s: UnigineSurface): number {
  return (s.morphTargets[0]?.vertices.length ?? 0) / 3;
}

/** Number of triangle vertices the triangle indices refer to (morph target 0's tangents). */
export function triangleVertexCount(s: UnigineSurface, magic: string): number {
  return (s.morphTargets[0]?.tangents.length ?? 0) / (magic === 'ms10' ? 3 : 4);
}

export function readBones(r: BinaryReader): UnigineBone[] {
  const n = r.within('bones', () => readCompactCount(r, 3, 'bone', 256));
  const bones: UnigineBone[] = [];
  for (let i = 0; i < n; i++) {
    bones.push(r.within(`bones[${i}]`, () => {
      const start = r.pos;
      const name = readUString(r, 'bone name');
      const parent = r.i16();
      return { name, parent, $span: [start, r.pos] };
    }));
  }
  return bones;
}

export function writeBones(w: BinaryWriter, bones: UnigineBone[]): void {
  writeCompact(w, bones.length);
  for (const b of bones) {
    writeUString(w, b.name);
    w.i16(b.parent);
  }
}

export function readMagic(r: BinaryReader, expected: string, what: string): void {
  const at = r.pos;
  const m = r.string(4, 'latin1', what);
  if (m !== expected) r.fail(`${what} "${m}" does not match "${expected}"`, at);
}

export function decodeMeshMs(bytes: Uint8Array): UnigineMeshMs {
  const r = new BinaryReader(bytes);
  const magic = r.string(4, 'latin1', 'magic');
  if (magic !== 'ms10' && magic !== 'ms11') r.fail(`"${magic}" is not an ms10/ms11 mesh`, 0);
  const ex: ExactKeeping = {};
  const bounds = readExact(Bounds, r, ex, 'bounds');
  const bones = readBones(r);
  const numAnims = r.within('animations', () => readCompactCount(r, 2, 'animation', 1024));
  const animations: UnigineClip<Float32Array>[] = [];
  for (let i = 0; i < numAnims; i++) {
    animations.push(r.within(`animations[${i}]`, () => {
      const start = r.pos;
      const name = readUString(r, 'animation name');
      return { name, bones: new Int16Array(0), flag: 0, numFrames: 0, frameFlags: new Uint8Array(0), translations: new Float32Array(0), rotations: new Int16Array(0), scales: new Float32Array(0), $span: [start, r.pos] };
    }));
  }
  const numSurfaces = r.within('surfaces', () => readCompactCount(r, 43, 'surface', 1024));
  const surfaces: UnigineSurface[] = [];
  const morphNames: string[][] = [];
  for (let i = 0; i < numSurfaces; i++) {
    r.within(`surfaces[${i}]`, () => {
      const start = r.pos;
      const name = readUString(r, 'surface name');
      const sx: ExactKeeping = {};
      const b = readExact(Bounds, r, sx, 'bounds');
      const nm = readCompactCount(r, 2, 'morph target', 256);
      const names: string[] = [];
      for (let k = 0; k < nm; k++) names.push(r.within(`morphTargets[${k}]`, () => readUString(r, 'morph target name')));
      morphNames.push(names);
      surfaces.push({
        ...sx, name, boundMin: b.boundMin, boundMax: b.boundMax, boundCenter: b.boundCenter, boundRadius: b.boundRadius,
        morphTargets: [], weightCounts: new Uint8Array(0), weightBones: new Int16Array(0), weightValues: new Uint16Array(0),
        uv0: new Float32Array(0), uv1: new Float32Array(0), colors: new Uint8Array(0), coordIndices: new Uint32Array(0), triangleIndices: new Uint32Array(0),
        $span: [start, r.pos],
      });
    });
  }
  readMagic(r, magic, 'second magic');
  const bindPose = r.within('bindPose', () => r.f32Array(bones.length * 10, 'bind pose'));
  animations.forEach((a, i) => r.within(`animations[${i}]`, () => readClipData(r, a, 4)));
  surfaces.forEach((s, i) => r.within(`surfaces[${i}]`, () => readSurfaceData(r, s, morphNames[i]!, magic)));
  readMagic(r, magic, 'closing magic');
  r.expectEnd('mesh file');
  return {
    ...ex, magic: magic as 'ms10' | 'ms11', ...stripSpan(bounds), bones, bindPose, animations, surfaces,
    $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length),
  };
}

function stripSpan<T extends { $span?: unknown }>(v: T): Omit<T, '$span'> {
  const { $span: _s, ...rest } = v;
  return rest;
}

function readSurfaceData(r: BinaryReader, s: UnigineSurface, names: string[], magic: string): void {
  const start = r.pos;
  const tangentSize = magic === 'ms10' ? 7 : 8;
  s.morphTargets = names.map((name, k): MorphTarget => r.within(`morphTargets[${k}]`, () => {
    const nv = readCompactCount(r, 12, 'vertex');
    const vertices = r.f32Array(nv * 3, 'vertices');
    const nt = readCompactCount(r, tangentSize, 'tangent');
    if (magic === 'ms10') {
      const raw = r.bytesView(nt * 7, 'tangents');
      const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const tangents = new Int16Array(nt * 3);
      const tangentSigns = new Int8Array(nt);
      for (let t = 0; t < nt; t++) {
        tangents[t * 3] = dv.getInt16(t * 7, true);
        tangents[t * 3 + 1] = dv.getInt16(t * 7 + 2, true);
        tangents[t * 3 + 2] = dv.getInt16(t * 7 + 4, true);
        tangentSigns[t] = dv.getInt8(t * 7 + 6);
      }
      return { name, vertices, tangents, tangentSigns };
    }
    return { name, vertices, tangents: r.i16Array(nt * 4, 'tangents') };
  }));
  readWeights(r, s);
  readUvsAndColours(r, s);
  const cw = indexWidth(coordVertexCount(s));
  const ncIdx = r.within('coordIndices', () => readCompactCount(r, cw, 'coordinate index'));
  s.coordIndices = r.within('coordIndices', () => r.indexArray(ncIdx, cw, 'coordinate indices'));
  const tw = indexWidth(triangleVertexCount(s, magic));
  const ntIdx = r.within('triangleIndices', () => readCompactCount(r, tw, 'triangle index'));
  s.triangleIndices = r.within('triangleIndices', () => r.indexArray(ntIdx, tw, 'triangle indices'));
  s.$dataSpan = [start, r.pos];
}

/** The two UV sets (float pairs) and the vertex colours (4 bytes), each after its compact count. */
export function readUvsAndColours(r: BinaryReader, s: UnigineSurface): void {
  const n0 = readCompactCount(r, 8, 'first UV set texture coordinate');
  s.uv0 = r.f32Array(n0 * 2, 'first UV set');
  const n1 = readCompactCount(r, 8, 'second UV set texture coordinate');
  s.uv1 = r.f32Array(n1 * 2, 'second UV set');
  const nc = readCompactCount(r, 4, 'colour');
  s.colors = r.u8Array(nc * 4, 'colours');
}

export function writeUvsAndColours(w: BinaryWriter, s: UnigineSurface, path: string): void {
  if (s.uv0.length % 2 || s.uv1.length % 2 || s.colors.length % 4) throw new EncodeError('UV sets need pairs and colours need 4 bytes', path);
  writeCompact(w, s.uv0.length / 2);
  w.typed(s.uv0);
  writeCompact(w, s.uv1.length / 2);
  w.typed(s.uv1);
  writeCompact(w, s.colors.length / 4);
  w.typed(s.colors);
}

/** Weight records: compact count, then per vertex a u8 influence count and (short bone, u16 weight) pairs. */
export function readWeights(r: BinaryReader, s: UnigineSurface): void {
  r.within('weights', () => {
    const nw = readCompactCount(r, 1, 'weighted vertex');
    // First pass measures the variable-length records so the arrays are allocated exactly.
    let pos = r.pos;
    let total = 0;
    for (let i = 0; i < nw; i++) {
      if (pos >= r.end) r.fail(`weight record ${i} is missing`, pos);
      const k = r.bytes[pos]!;
      total += k;
      const at = pos;
      pos += 1 + k * 4;
      // Report where the record starts: the end it claims lies beyond the input.
      if (pos > r.end) r.fail(`weight record ${i} runs past the end of the data`, at);
    }
    const counts = new Uint8Array(nw);
    const bones = new Int16Array(total);
    const values = new Uint16Array(total);
    let j = 0;
    for (let i = 0; i < nw; i++) {
      const k = r.u8();
      counts[i] = k;
      for (let m = 0; m < k; m++, j++) {
        bones[j] = r.i16();
        values[j] = r.u16();
      }
    }
    s.weightCounts = counts;
    s.weightBones = bones;
    s.weightValues = values;
  });
}

export function encodeMeshMs(doc: UnigineMeshMs, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  // Measured first, then written into one buffer of exactly that size (no growth copies).
  return writeSized((w) => writeMeshMs(w, doc));
}

/** The bytes of {@link encodeMeshMs} as pieces: views of the document's large arrays and raw bytes. */
export function encodeMeshMsPieces(doc: UnigineMeshMs, reuseRaw?: boolean): Uint8Array[] {
  if (reusable(doc, reuseRaw)) return [doc.$raw];
  return writePieces((w) => writeMeshMs(w, doc));
}

function writeMeshMs(w: BinaryWriter, doc: UnigineMeshMs): void {
  const magic = doc.magic;
  w.string(magic);
  writeExact(Bounds, w, doc, doc, 'bounds');
  writeBones(w, doc.bones);
  writeCompact(w, doc.animations.length);
  for (const a of doc.animations) writeUString(w, a.name);
  writeCompact(w, doc.surfaces.length);
  for (const s of doc.surfaces) {
    writeUString(w, s.name);
    writeExact(Bounds, w, s, s, 'bounds');
    writeCompact(w, s.morphTargets.length);
    for (const m of s.morphTargets) writeUString(w, m.name);
  }
  w.string(magic);
  if (doc.bindPose.length !== doc.bones.length * 10) throw new EncodeError(`bind pose holds ${doc.bindPose.length} floats for ${doc.bones.length} bones (10 each)`, 'bindPose');
  w.typed(doc.bindPose);
  doc.animations.forEach((a, i) => writeClipData(w, a, `animations[${i}]`));
  doc.surfaces.forEach((s, i) => writeSurfaceData(w, s, magic, `surfaces[${i}]`));
  w.string(magic);
}

function writeSurfaceData(w: BinaryWriter, s: UnigineSurface, magic: string, path: string): void {
  for (const m of s.morphTargets) {
    if (m.vertices.length % 3) throw new EncodeError('morph target vertices must be xyz triples', path);
    writeCompact(w, m.vertices.length / 3);
    w.typed(m.vertices);
    if (magic === 'ms10') {
      const nt = m.tangents.length / 3;
      if (!Number.isInteger(nt) || m.tangentSigns?.length !== nt) throw new EncodeError('ms10 tangents need 3 shorts and a sign byte each', path);
      writeCompact(w, nt);
      const at = w.claim(nt * 7);
      if (!w.counting) {
        const view = w.dataView, tan = m.tangents, signs = m.tangentSigns;
        for (let t = 0, o = at; t < nt; t++, o += 7) {
          view.setInt16(o, tan[t * 3]!, true);
          view.setInt16(o + 2, tan[t * 3 + 1]!, true);
          view.setInt16(o + 4, tan[t * 3 + 2]!, true);
          view.setInt8(o + 6, signs[t]!);
        }
      }
    } else {
      if (m.tangents.length % 4) throw new EncodeError('tangents must be 4 shorts each', path);
      writeCompact(w, m.tangents.length / 4);
      w.typed(m.tangents);
    }
  }
  writeWeights(w, s, path);
  writeUvsAndColours(w, s, path);
  const cw = indexWidth(coordVertexCount(s));
  const tw = indexWidth(triangleVertexCount(s, magic));
  writeCompact(w, s.coordIndices.length);
  writeIndices(w, s.coordIndices, cw, `${path}/coordIndices`);
  writeCompact(w, s.triangleIndices.length);
  writeIndices(w, s.triangleIndices, tw, `${path}/triangleIndices`);
}

export function writeWeights(w: BinaryWriter, s: UnigineSurface, path: string): void {
  const counts = s.weightCounts, bones = s.weightBones, values = s.weightValues;
  writeCompact(w, counts.length);
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  if (total > bones.length || total > values.length) throw new EncodeError('weight counts call for more influences than stored', path);
  if (total !== bones.length || total !== values.length) throw new EncodeError('weight bones/values do not match the weight counts', path);
  // One claim for all records, then a plain loop (no per-value bounds checks or calls).
  const at = w.claim(counts.length + 4 * total);
  if (w.counting) return;
  const view = w.dataView;
  let o = at;
  for (let i = 0, j = 0; i < counts.length; i++) {
    const k = counts[i]!;
    view.setUint8(o++, k);
    for (let m = 0; m < k; m++, j++, o += 4) {
      view.setInt16(o, bones[j]!, true);
      view.setUint16(o + 2, values[j]!, true);
    }
  }
}

/** Indices at the width the vertex count implies; the writer checks each while converting. */
export function writeIndices(w: BinaryWriter, a: Uint32Array, width: 1 | 2 | 4, path: string): void {
  try {
    w.indexArray(a, width);
  } catch (e) {
    if (e instanceof IndexRangeError) throw new EncodeError(`index ${e.value} does not fit the ${width}-byte width the vertex count implies`, path);
    throw e;
  }
}
