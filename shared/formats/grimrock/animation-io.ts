/**
 * Decoding and encoding of Legend of Grimrock `.animation` files (ANIM).
 *
 * Version 1 (documented): per item one key count and interleaved KeyFrame records
 * (position vec3, rotation quat, scale vec3 = 40 bytes).
 * Version 2 (Legend of Grimrock 2, found in real files): per item three separate key lists, each
 * with its own i32 count: positions (vec3), rotations (quat), scales (vec3). Constant channels
 * are stored with a single key. See NOTES.md.
 *
 * Keys are moved between the file's layout and the document's typed arrays as 32-bit integers so
 * every float (NaN payloads included) is written back bit for bit.
 */
import { countRecords } from './model-io.ts';
import { BinaryReader } from '../../binary/reader.ts';
import { copyBytes, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import { AnimationHeader, type AnimationItem, type GrimrockAnimation } from './schema.ts';
import { readExact, writeExact, type ExactKeeping } from '../../model/exact.ts';

export const ANIMATION_MAGIC = 'ANIM';

export { probeGrimrockAnimation as probeAnimation } from './family.ts';

export function decodeAnimation(bytes: Uint8Array): GrimrockAnimation {
  const r = new BinaryReader(bytes);
  const magic = r.string(4, 'latin1', 'magic');
  if (magic !== ANIMATION_MAGIC) r.fail(`not a Grimrock animation: magic "${magic}" is not "ANIM"`, 0);
  const version = r.i32();
  if (version !== 1 && version !== 2) r.fail(`unsupported animation version ${version} (1 and 2 are known)`, 4);
  const ex: ExactKeeping = {};
  const h = readExact(AnimationHeader, r, ex, 'header');
  const numItems = r.within('items', () => countRecords(r, version === 1 ? 8 : 16, 512, 'item'));
  const items: AnimationItem[] = [];
  for (let i = 0; i < numItems; i++) items.push(r.within(`items[${i}]`, () => (version === 1 ? readItemV1(r) : readItemV2(r))));
  r.expectEnd('animation file');
  return {
    ...ex, magic, version, name: h.name, framesPerSecond: h.framesPerSecond, numFrames: h.numFrames, numItems, items,
    $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length),
  };
}

function readItemV1(r: BinaryReader): AnimationItem {
  const start = r.pos;
  const node = r.lenString('latin1', 'node name');
  const n = r.i32Count(40, 'key frame');
  const keys = r.u32Array(n * 10, 'key frames');
  const pos = new Uint32Array(n * 3), rot = new Uint32Array(n * 4), scl = new Uint32Array(n * 3);
  for (let k = 0; k < n; k++) {
    const o = k * 10;
    pos[k * 3] = keys[o]!; pos[k * 3 + 1] = keys[o + 1]!; pos[k * 3 + 2] = keys[o + 2]!;
    rot[k * 4] = keys[o + 3]!; rot[k * 4 + 1] = keys[o + 4]!; rot[k * 4 + 2] = keys[o + 5]!; rot[k * 4 + 3] = keys[o + 6]!;
    scl[k * 3] = keys[o + 7]!; scl[k * 3 + 1] = keys[o + 8]!; scl[k * 3 + 2] = keys[o + 9]!;
  }
  return {
    node, positions: new Float32Array(pos.buffer), rotations: new Float32Array(rot.buffer), scales: new Float32Array(scl.buffer),
    $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
  };
}

function readItemV2(r: BinaryReader): AnimationItem {
  const start = r.pos;
  const node = r.lenString('latin1', 'node name');
  const np = r.within('positions', () => r.i32Count(12, 'position key'));
  const positions = r.within('positions', () => r.f32Array(np * 3, 'position keys'));
  const nr = r.within('rotations', () => r.i32Count(16, 'rotation key'));
  const rotations = r.within('rotations', () => r.f32Array(nr * 4, 'rotation keys'));
  const ns = r.within('scales', () => r.i32Count(12, 'scale key'));
  const scales = r.within('scales', () => r.f32Array(ns * 3, 'scale keys'));
  return { node, positions, rotations, scales, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
}

const bits = (a: Float32Array): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);

export function encodeAnimation(doc: GrimrockAnimation, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  return writeSized((w) => writeAnimation(w, doc, reuseRaw));
}

function writeAnimation(w: BinaryWriter, doc: GrimrockAnimation, reuseRaw?: boolean): void {
  w.string(doc.magic);
  w.i32(doc.version);
  writeExact(AnimationHeader, w, doc, doc, 'header');
  w.i32(doc.items.length);
  doc.items.forEach((it, i) => {
    if (reusable(it, reuseRaw)) return w.bytes(it.$raw);
    const path = `items[${i}]`;
    if (it.positions.length % 3 || it.rotations.length % 4 || it.scales.length % 3) {
      throw new EncodeError('key arrays must hold whole vec3 / quaternion keys', path);
    }
    w.lenString(it.node, 'latin1');
    const np = it.positions.length / 3, nr = it.rotations.length / 4, ns = it.scales.length / 3;
    if (doc.version === 1) {
      if (np !== nr || np !== ns) throw new EncodeError(`version 1 needs one key count for all channels (got ${np}, ${nr}, ${ns})`, path);
      const p = bits(it.positions), q = bits(it.rotations), s = bits(it.scales);
      const keys = new Uint32Array(np * 10);
      // The mirror of readItemV1: indexed copies, no per-key subarray.
      for (let k = 0; k < np; k++) {
        const o = k * 10;
        keys[o] = p[k * 3]!; keys[o + 1] = p[k * 3 + 1]!; keys[o + 2] = p[k * 3 + 2]!;
        keys[o + 3] = q[k * 4]!; keys[o + 4] = q[k * 4 + 1]!; keys[o + 5] = q[k * 4 + 2]!; keys[o + 6] = q[k * 4 + 3]!;
        keys[o + 7] = s[k * 3]!; keys[o + 8] = s[k * 3 + 1]!; keys[o + 9] = s[k * 3 + 2]!;
      }
      w.i32(np);
      w.typed(keys);
    } else {
      w.i32(np); w.typed(it.positions);
      w.i32(nr); w.typed(it.rotations);
      w.i32(ns); w.typed(it.scales);
    }
  });
}
