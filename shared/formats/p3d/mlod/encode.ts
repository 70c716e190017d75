/**
 * MLOD encoder. Untouched LODs, face blocks and tags are copied from `$raw`; dirty ones are
 * written from their fields, with every count and size derived from the arrays.
 */
import { BinaryWriter } from '../../../binary/writer.ts';
import { encodeText } from '../../../binary/text.ts';
import { EncodeError } from '../../../errors.ts';
import { reusable } from '../../../model/lossless.ts';
import type { EncodeOptions } from '../../registry.ts';
import { fixedText } from './decode.ts';
import type { MlodDocument, MlodFaces, MlodLod, MlodTag } from './types.ts';

const SP3X_TEXTURE = 32;
const SP3X_TAG_NAME = 64;
const PROPERTY_FIELD = 64;

export function encodeMlod(doc: MlodDocument, opts: EncodeOptions = {}): Uint8Array {
  const reuse = opts.reuseRaw;
  // Start near the final size: the raw parts dominate an untouched file.
  let guess = 12 + doc.trailing.length;
  for (const l of doc.lods) guess += l.$raw && reuse !== false ? l.$raw.length : 64 + l.points.length * 6 + l.faces.vertexCount.length * 96;
  const w = new BinaryWriter(guess);
  writeFixedSignature(w, doc.signature, 'signature');
  w.u32(doc.version);
  w.u32(doc.lods.length);
  doc.lods.forEach((lod, i) => {
    if (reusable(lod, reuse)) w.bytes(lod.$raw);
    else encodeLod(w, lod, reuse, `lods[${i}]`);
  });
  w.bytes(doc.trailing);
  return w.finish();
}

function writeFixedSignature(w: BinaryWriter, s: string, where: string): void {
  if (s.length !== 4) throw new EncodeError(`${where} "${s}" must be 4 characters`, where);
  w.string(s);
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

function encodeLod(w: BinaryWriter, lod: MlodLod, reuse: boolean | undefined, where: string): void {
  const nPoints = lod.pointFlags.length;
  if (lod.points.length !== nPoints * 3) throw new EncodeError(`points hold ${lod.points.length} floats; ${nPoints * 3} expected`, `${where}/points`);
  if (lod.normals.length % 3) throw new EncodeError('normals must hold 3 floats each', `${where}/normals`);
  if (lod.signature !== 'P3DM' && lod.signature !== 'SP3X') throw new EncodeError(`unknown LOD signature ${String(lod.signature)}`, where);
  const nFaces = lod.faces.vertexCount.length;
  w.string(lod.signature);
  w.u32(28 + lod.headerExtra.length);
  w.u32(lod.version);
  w.u32(nPoints);
  w.u32(lod.normals.length / 3);
  w.u32(nFaces);
  w.u32(lod.flags);
  w.bytes(lod.headerExtra);
  const records = new Uint32Array(nPoints * 4);
  const bits = new Uint32Array(lod.points.buffer, lod.points.byteOffset, nPoints * 3);
  for (let i = 0; i < nPoints; i++) {
    records[i * 4] = bits[i * 3]!;
    records[i * 4 + 1] = bits[i * 3 + 1]!;
    records[i * 4 + 2] = bits[i * 3 + 2]!;
    records[i * 4 + 3] = lod.pointFlags[i]!;
  }
  w.typed(records);
  w.typed(lod.normals);
  if (reusable(lod.faces, reuse)) w.bytes(lod.faces.$raw);
  else encodeFaces(w, lod.faces, lod.signature === 'SP3X', `${where}/faces`);
  w.string('TAGG');
  let vertexTotal = 0;
  for (let i = 0; i < nFaces; i++) vertexTotal += Math.min(4, lod.faces.vertexCount[i]!);
  lod.tags.forEach((tag, i) => {
    if (reusable(tag, reuse)) w.bytes(tag.$raw);
    else encodeTag(w, tag, lod.signature === 'SP3X', nPoints, nFaces, vertexTotal, `${where}/tags[${i}]`);
  });
  w.f32(lod.resolution);
}

function encodeFaces(w: BinaryWriter, f: MlodFaces, sp3x: boolean, where: string): void {
  const n = f.vertexCount.length;
  for (const [name, arr, per] of [
    ['pointIndex', f.pointIndex, 4], ['normalIndex', f.normalIndex, 4], ['uv', f.uv, 8],
    ['flags', f.flags, 1], ['textureIndex', f.textureIndex, 1], ['materialIndex', f.materialIndex, 1],
  ] as const) {
    if (arr.length !== n * per) throw new EncodeError(`${name} holds ${arr.length} values; ${n * per} expected`, `${where}/${name}`);
  }
  const uvBits = new Uint32Array(f.uv.buffer, f.uv.byteOffset, n * 8);
  const encTex = f.textures.map((t) => encodeText(t));
  const encMat = sp3x ? [] : f.materials.map((t) => encodeText(t));
  encTex.forEach((b, i) => {
    if (!sp3x && b.includes(0)) throw new EncodeError('paths must not contain NUL', `${where}/textures/${i}`);
    if (sp3x && b.length > SP3X_TEXTURE) throw new EncodeError(`"${f.textures[i]}" is longer than the ${SP3X_TEXTURE}-byte field`, `${where}/textures/${i}`);
  });
  encMat.forEach((b, i) => {
    if (b.includes(0)) throw new EncodeError('paths must not contain NUL', `${where}/materials/${i}`);
  });
  // Size first, then one buffer filled through a DataView: per-field writer calls cost more
  // than everything else when a LOD has hundreds of thousands of faces.
  let size = n * 72;
  for (let i = 0; i < n; i++) {
    const ti = f.textureIndex[i]!;
    if (ti >= encTex.length) throw new EncodeError(`texture index ${ti} is not in the texture table`, `${where}/textureIndex/${i}`);
    if (sp3x) {
      size += SP3X_TEXTURE;
    } else {
      const mi = f.materialIndex[i]!;
      if (mi >= encMat.length) throw new EncodeError(`material index ${mi} is not in the material table`, `${where}/materialIndex/${i}`);
      size += encTex[ti]!.length + encMat[mi]!.length + 2;
    }
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const ti = f.textureIndex[i]!;
    if (sp3x) {
      const original = f.textureFields?.subarray(i * SP3X_TEXTURE, (i + 1) * SP3X_TEXTURE);
      // The field as read when it still holds this texture (bytes after the NUL survive).
      if (original && original.length === SP3X_TEXTURE && fixedText(original) === f.textures[ti]) out.set(original, o);
      else out.set(encTex[ti]!, o);
      o += SP3X_TEXTURE;
    }
    dv.setUint32(o, f.vertexCount[i]!, true);
    for (let k = 0; k < 4; k++) {
      const q = o + 4 + k * 16;
      dv.setUint32(q, f.pointIndex[i * 4 + k]!, true);
      dv.setUint32(q + 4, f.normalIndex[i * 4 + k]!, true);
      dv.setUint32(q + 8, uvBits[i * 8 + k * 2]!, true);
      dv.setUint32(q + 12, uvBits[i * 8 + k * 2 + 1]!, true);
    }
    dv.setUint32(o + 68, f.flags[i]!, true);
    o += 72;
    if (!sp3x) {
      const t = encTex[ti]!;
      out.set(t, o);
      o += t.length + 1;
      const m = encMat[f.materialIndex[i]!]!;
      out.set(m, o);
      o += m.length + 1;
    }
  }
  w.bytes(out);
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
      w.f32(tag.time);
      w.typed(tag.points);
      return;
    case 'raw':
    case 'end':
      w.u32(tag.data.length);
      w.bytes(tag.data);
      return;
  }
}
