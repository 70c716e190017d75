/**
 * Decoding and encoding of Arma animations: plain `RTM_0101` (after an optional `RTM_MDAT` block)
 * and binarized `BMTR` v3..v5. Floats that a JS number cannot keep bit for bit (NaN payloads) keep
 * their stored bytes; matrices and transforms move as 32/16-bit words, so every untouched value is
 * written back exactly; untouched nodes are copied from their `$raw` bytes; an LZO stream whose
 * array did not change is written back as stored.
 */
import { BinaryReader } from '../../../binary/reader.ts';
import { copyBytes, writeSized, type BinaryWriter } from '../../../binary/writer.ts';
import { lzo1xCompress, lzo1xDecompress, lzo1xMatches } from '../../../binary/lzo1x.ts';
import { decodeText, encodeText } from '../../../binary/text.ts';
import { DecodeError, EncodeError, isDecodeError } from '../../../errors.ts';
import { reusable } from '../../../model/lossless.ts';
import { readFloatKept, readFloatsKept, writeFloatKept, writeFloatsKept } from '../../../schema/schema.ts';
import {
  BMTR_COMPRESS_FROM, BMTR_MAGIC, BMTR_WORDS, MDAT_MAGIC, NAME_FIELD, PLAIN_MAGIC,
  type BmtrDocument, type PackedInfo, type PlainRtmDocument, type PlainRtmFrame, type RtmDocument, type RtmProperty,
} from './types.ts';

/** A JS object per record costs far more than its bytes; charged once per list (BinaryReader.chargeRecords). */
const RECORD_BYTES = 160;

export function decodeRtm(bytes: Uint8Array): RtmDocument {
  const r = new BinaryReader(bytes);
  r.need(4, 'signature');
  const head = decodeText(bytes.subarray(0, 4), 'latin1');
  if (head === BMTR_MAGIC) return decodeBmtr(r);
  return decodePlain(r);
}

/** The text of a 32-byte name field: up to its first NUL (the whole field when it has none). */
export function fieldName(fields: Uint8Array, i: number): string {
  const f = fields.subarray(i * NAME_FIELD, i * NAME_FIELD + NAME_FIELD);
  const z = f.indexOf(0);
  return decodeText(z < 0 ? f : f.subarray(0, z), 'latin1');
}

// ---------------------------------------------------------------------------------------------
// Plain RTM

function decodePlain(r: BinaryReader): PlainRtmDocument {
  let magic = r.string(8, 'latin1', 'signature');
  let mdat = false;
  let mdatReserved = 0;
  const properties: RtmProperty[] = [];
  if (magic === MDAT_MAGIC) {
    mdat = true;
    r.within(MDAT_MAGIC, () => {
      mdatReserved = r.u32();
      const n = r.u32Count(6, 'property');
      r.chargeRecords(n, RECORD_BYTES, 'property');
      for (let i = 0; i < n; i++) {
        r.enterIndex(i);
        const start = r.pos;
        const p = {} as RtmProperty;
        p.phase = readFloatKept(r, p, 'phase');
        p.name = r.string(r.u8(), 'latin1', 'property name');
        p.value = r.string(r.u8(), 'latin1', 'property value');
        p.$span = [start, r.pos];
        p.$raw = r.viewAt(start, r.pos);
        properties.push(p);
        r.leave();
      }
    });
    magic = r.string(8, 'latin1', 'signature');
  }
  if (magic !== PLAIN_MAGIC) r.fail(`not an RTM animation: signature "${printable(magic)}" is not "${PLAIN_MAGIC}" or "${BMTR_MAGIC}"`, r.pos - 8);
  const doc = { kind: 'rtm', mdat, mdatReserved, properties } as PlainRtmDocument;
  doc.motion = readFloatsKept(r, 3, doc, 'motion');
  doc.frameCount = r.u32();
  const boneAt = r.pos;
  doc.boneCount = r.u32();
  const nb = r.count(doc.boneCount, NAME_FIELD, 'bone', boneAt);
  doc.boneFields = r.within('bones', () => r.u8Array(nb * NAME_FIELD, 'bone names'));
  doc.bones = [];
  for (let i = 0; i < nb; i++) doc.bones.push(fieldName(doc.boneFields, i));
  const frameBytes = 4 + nb * (NAME_FIELD + 48);
  const nf = r.count(doc.frameCount, frameBytes, 'frame', boneAt - 4);
  r.chargeRecords(nf, RECORD_BYTES, 'frame');
  doc.frames = [];
  r.enter('frames');
  for (let k = 0; k < nf; k++) {
    r.enterIndex(k);
    const start = r.pos;
    const f = {} as PlainRtmFrame;
    f.phase = readFloatKept(r, f, 'phase');
    r.charge(nb * (NAME_FIELD + 48), 'frame transforms');
    const block = r.bytesView(nb * (NAME_FIELD + 48), 'frame transforms');
    // One aligned copy, then de-interleave 32-bit words (bit-exact: NaN payloads survive).
    const words = new Uint32Array(new Uint8Array(block).buffer);
    const names = new Uint8Array(nb * NAME_FIELD);
    const mats = new Uint32Array(nb * 12);
    const nameWords = new Uint32Array(names.buffer);
    for (let i = 0; i < nb; i++) {
      const o = i * 20;
      for (let j = 0; j < 8; j++) nameWords[i * 8 + j] = words[o + j]!;
      for (let j = 0; j < 12; j++) mats[i * 12 + j] = words[o + 8 + j]!;
    }
    f.names = names;
    f.matrices = new Float32Array(mats.buffer);
    f.$span = [start, r.pos];
    f.$raw = r.viewAt(start, r.pos);
    doc.frames.push(f);
    r.leave();
  }
  r.leave();
  return endDocument(r, doc);
}

/** Checks that nothing follows the last frame and gives `doc` the whole file as its span and raw bytes. */
function endDocument<D extends RtmDocument>(r: BinaryReader, doc: D): D {
  r.expectEnd('animation file');
  doc.$span = [0, r.bytes.length];
  doc.$raw = r.bytes;
  return doc;
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?');
}

/** A name as a 32-byte field: its bytes, a NUL, zeros. */
function nameField(name: string, path: string): Uint8Array {
  const b = encodeText(name, 'latin1');
  if (b.length > NAME_FIELD - 1) throw new EncodeError(`bone name "${name}" is ${b.length} bytes; plain RTM holds at most ${NAME_FIELD - 1}`, path);
  if (b.includes(0)) throw new EncodeError(`bone name "${name}" holds a NUL`, path);
  const f = new Uint8Array(NAME_FIELD);
  f.set(b);
  return f;
}

function shortText(s: string, what: string, path: string): Uint8Array {
  const b = encodeText(s, 'latin1');
  if (b.length > 255) throw new EncodeError(`${what} "${s.slice(0, 20)}..." is ${b.length} bytes; RTM_MDAT holds at most 255`, path);
  return b;
}

export function encodePlain(doc: PlainRtmDocument, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  return writeSized((w) => writePlain(w, doc, reuseRaw));
}

function writePlain(w: BinaryWriter, doc: PlainRtmDocument, reuseRaw?: boolean): void {
  if (doc.mdat || doc.properties.length) {
    w.string(MDAT_MAGIC);
    w.u32(doc.mdatReserved >>> 0);
    w.u32(doc.properties.length);
    doc.properties.forEach((p, i) => {
      if (reusable(p, reuseRaw)) return w.bytes(p.$raw);
      const path = `${MDAT_MAGIC}/[${i}]`;
      writeFloatKept(w, p.phase, p, 'phase');
      const n = shortText(p.name, 'property name', path);
      w.u8(n.length); w.bytes(n);
      const v = shortText(p.value, 'property value', path);
      w.u8(v.length); w.bytes(v);
    });
  }
  w.string(PLAIN_MAGIC);
  writeFloatsKept(w, doc.motion, doc, 'motion', 3);
  const nb = doc.bones.length;
  w.u32(doc.frames.length);
  w.u32(nb);
  // A bone whose name is still the one its stored field holds keeps its field (and the frames'
  // fields) byte for byte, garbage after the NUL included; a renamed one is written clean.
  const fieldsFit = doc.boneFields.length === nb * NAME_FIELD;
  const renamed = doc.bones.map((b, i) => !fieldsFit || b !== fieldName(doc.boneFields, i));
  const anyRenamed = renamed.some((x) => x);
  const fresh = doc.bones.map((b, i) => (renamed[i] ? nameField(b, `bones/[${i}]`) : doc.boneFields.subarray(i * NAME_FIELD, (i + 1) * NAME_FIELD)));
  for (const f of fresh) w.bytes(f);
  doc.frames.forEach((f, k) => {
    if (!anyRenamed && reusable(f, reuseRaw)) return w.bytes(f.$raw);
    const path = `frames/[${k}]`;
    if (f.matrices.length !== nb * 12) throw new EncodeError(`frame holds ${f.matrices.length / 12} transforms for ${nb} bones`, path);
    writeFloatKept(w, f.phase, f, 'phase');
    const namesFit = f.names.length === nb * NAME_FIELD;
    const mats = new Uint32Array(f.matrices.buffer, f.matrices.byteOffset, f.matrices.length);
    const at = w.claim(nb * (NAME_FIELD + 48));
    if (w.counting) return;
    const out = w.data;
    const dv = w.dataView;
    for (let i = 0; i < nb; i++) {
      const o = at + i * (NAME_FIELD + 48);
      out.set(renamed[i] || !namesFit ? fresh[i]! : f.names.subarray(i * NAME_FIELD, (i + 1) * NAME_FIELD), o);
      for (let j = 0; j < 12; j++) dv.setUint32(o + NAME_FIELD + j * 4, mats[i * 12 + j]!, true);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// BMTR

function decodeBmtr(r: BinaryReader): BmtrDocument {
  r.skip(4, 'signature');
  const vAt = r.pos;
  const version = r.u32();
  if (version !== 3 && version !== 4 && version !== 5) r.fail(`unsupported BMTR version ${version} (3, 4 and 5 are known)`, vAt);
  const doc = { kind: 'bmtr', version } as BmtrDocument;
  doc.always1 = r.u8();
  doc.motion = readFloatsKept(r, 3, doc, 'motion');
  doc.frameCount = r.u32();
  doc.unknown = r.u32();
  const bAt = r.pos;
  doc.boneCount = r.u32();
  doc.boneCount2 = r.u32();
  const nb = r.count(doc.boneCount, 1, 'bone', bAt);
  r.chargeRecords(nb, 48, 'bone name');
  doc.bones = [];
  r.enter('bones');
  for (let i = 0; i < nb; i++) {
    r.enterIndex(i);
    doc.bones.push(r.cstring('latin1', 'bone name'));
    r.leave();
  }
  r.leave();
  doc.propertiesReserved = 0;
  doc.properties = [];
  if (version >= 4) {
    r.within('properties', () => {
      doc.propertiesReserved = r.u32();
      const n = r.u32Count(10, 'property');
      r.chargeRecords(n, RECORD_BYTES, 'property');
      for (let i = 0; i < n; i++) {
        r.enterIndex(i);
        const start = r.pos;
        const p = {} as RtmProperty;
        p.tag = r.u32();
        p.name = r.cstring('latin1', 'property name');
        p.phase = readFloatKept(r, p, 'phase');
        p.value = r.cstring('latin1', 'property value');
        p.$span = [start, r.pos];
        p.$raw = r.viewAt(start, r.pos);
        doc.properties.push(p);
        r.leave();
      }
    });
  }
  r.within('phases', () => {
    const at = r.pos;
    doc.phaseCount = r.u32();
    const { data, packed } = readPacked(r, version, doc.phaseCount, 4, 'phase', at);
    doc.phases = new Float32Array(aligned(data, 4).buffer, 0, doc.phaseCount);
    doc.phasesPacked = packed;
  });
  const nf = r.count(doc.frameCount, version >= 5 ? 5 : 4, 'frame', 21);
  r.chargeRecords(nf, RECORD_BYTES, 'frame');
  doc.frames = [];
  r.enter('frames');
  for (let k = 0; k < nf; k++) {
    r.enterIndex(k);
    const start = r.pos;
    const boneCount = r.u32();
    const { data, packed } = readPacked(r, version, boneCount, BMTR_WORDS * 2, 'frame bone', start);
    doc.frames.push({
      boneCount, packed, transforms: new Int16Array(aligned(data, 2).buffer, 0, boneCount * BMTR_WORDS),
      $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
    });
    r.leave();
  }
  r.leave();
  return endDocument(r, doc);
}

/** `data` itself when it starts at offset 0 of its buffer and fills it, else an aligned copy. */
function aligned(data: Uint8Array, size: number): Uint8Array {
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.byteLength % size === 0) return data;
  return new Uint8Array(data);
}

/**
 * One BMTR array of `count` elements of `size` bytes: v5 says in a flag byte whether it is
 * LZO-compressed, v3 and v4 compress every array of at least 1024 bytes.
 */
function readPacked(r: BinaryReader, version: number, count: number, size: number, what: string, countAt: number): { data: Uint8Array; packed: PackedInfo } {
  const packed: PackedInfo = { compressed: false };
  if (version >= 5) {
    packed.flag = r.u8();
    packed.compressed = packed.flag !== 0;
  } else {
    r.count(count, 0, what, countAt);
    packed.compressed = count * size >= BMTR_COMPRESS_FROM;
  }
  if (!packed.compressed) {
    r.count(count, size, what, countAt);
    return { data: r.bytesCopy(count * size, `${what} array`), packed };
  }
  if (!Number.isInteger(count) || count < 0) r.fail(`${what} count ${count} is invalid`, countAt);
  const start = r.pos;
  try {
    const res = lzo1xDecompress(r.bytes.subarray(0, r.end), start, count * size, undefined, r.path);
    r.pos = start + res.consumed;
    packed.stream = r.viewAt(start, r.pos);
    return { data: res.data, packed };
  } catch (e) {
    if (isDecodeError(e) && !e.path) throw new DecodeError(e.detail, e.offset, r.path);
    throw e;
  }
}

export function encodeBmtr(doc: BmtrDocument, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  return writeSized((w) => writeBmtr(w, doc, reuseRaw));
}

function writeBmtr(w: BinaryWriter, doc: BmtrDocument, reuseRaw?: boolean): void {
  const v = doc.version;
  w.string(BMTR_MAGIC);
  w.u32(v);
  w.u8(doc.always1 & 0xff);
  writeFloatsKept(w, doc.motion, doc, 'motion', 3);
  w.u32(doc.frames.length);
  w.u32(doc.unknown >>> 0);
  const nb = doc.bones.length;
  w.u32(nb);
  // The second count is written as stored while the bone list keeps its length.
  w.u32(doc.boneCount === nb ? doc.boneCount2 >>> 0 : nb);
  doc.bones.forEach((b, i) => {
    const t = encodeText(b, 'latin1');
    if (t.includes(0)) throw new EncodeError(`bone name "${b}" holds a NUL`, `bones/[${i}]`);
    w.bytes(t); w.u8(0);
  });
  if (v >= 4) {
    w.u32(doc.propertiesReserved >>> 0);
    w.u32(doc.properties.length);
    doc.properties.forEach((p, i) => {
      if (reusable(p, reuseRaw)) return w.bytes(p.$raw);
      for (const s of [p.name, p.value]) if (encodeText(s, 'latin1').includes(0)) throw new EncodeError('property text holds a NUL', `properties/[${i}]`);
      w.u32((p.tag ?? 0xffffffff) >>> 0);
      w.cstring(p.name, 'latin1');
      writeFloatKept(w, p.phase, p, 'phase');
      w.cstring(p.value, 'latin1');
    });
  } else if (doc.properties.length) {
    throw new EncodeError(`BMTR v${v} holds no frame properties (v4 and later do)`, 'properties');
  }
  w.u32(doc.phases.length);
  writePacked(w, v, new Uint8Array(doc.phases.buffer, doc.phases.byteOffset, doc.phases.byteLength), doc.phasesPacked);
  doc.frames.forEach((f, k) => {
    if (reusable(f, reuseRaw)) return w.bytes(f.$raw);
    if (f.transforms.length % BMTR_WORDS) throw new EncodeError(`frame transforms hold ${f.transforms.length} words, not ${BMTR_WORDS} per bone`, `frames/[${k}]`);
    w.u32(f.transforms.length / BMTR_WORDS);
    writePacked(w, v, new Uint8Array(f.transforms.buffer, f.transforms.byteOffset, f.transforms.byteLength), f.packed);
  });
}

function writePacked(w: BinaryWriter, version: number, data: Uint8Array, packed: PackedInfo): void {
  let compressed: boolean;
  if (version >= 5) {
    compressed = packed.compressed;
    const kept = packed.flag !== undefined && (packed.flag !== 0) === compressed;
    w.u8(kept ? packed.flag! : compressed ? 2 : 0);
  } else {
    compressed = data.length >= BMTR_COMPRESS_FROM;
  }
  if (!compressed) return w.bytes(data);
  // An unchanged array keeps its stored stream (another compressor's choices included).
  w.bytes(packed.stream && lzo1xMatches(packed.stream, data) ? packed.stream : lzo1xCompress(data));
}

export function encodeRtm(doc: RtmDocument, reuseRaw?: boolean): Uint8Array {
  return doc.kind === 'bmtr' ? encodeBmtr(doc, reuseRaw) : encodePlain(doc, reuseRaw);
}
