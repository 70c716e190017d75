/**
 * Unigine `.anim` (an10): like the mesh header without surfaces, then per clip the translation
 * and scale boxes and a frame stream of 16-bit quantised components (kept quantised so they write
 * back bit for bit; scene.ts decompresses them with the documented formulas).
 */
import { BinaryReader } from '../../binary/reader.ts';
import { copyBytes, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import { readCompactCount, readUString, writeCompact, writeUString } from './compact.ts';
import { readClipData, writeClipData } from './frames.ts';
import { readBones, readMagic, writeBones } from './mesh-io.ts';
import { AnimBox, Bounds, type AnimClip, type UnigineAnim } from './schema.ts';
import { readExact, writeExact, type ExactKeeping } from '../../model/exact.ts';

export { probeUnigineAnim as probeAnim } from './family.ts';

export function decodeAnim(bytes: Uint8Array): UnigineAnim {
  const r = new BinaryReader(bytes);
  const magic = r.string(4, 'latin1', 'magic');
  if (magic !== 'an10') r.fail(`"${magic}" is not an an10 animation`, 0);
  const ex: ExactKeeping = {};
  const { $span: _b, ...bounds } = readExact(Bounds, r, ex, 'bounds');
  const bones = readBones(r);
  const numAnims = r.within('animations', () => readCompactCount(r, 2, 'animation', 1024));
  const animations: AnimClip[] = [];
  for (let i = 0; i < numAnims; i++) {
    animations.push(r.within(`animations[${i}]`, () => {
      const start = r.pos;
      const name = readUString(r, 'animation name');
      return {
        name, bones: new Int16Array(0), translationMin: [0, 0, 0], translationSize: [0, 0, 0], scaleMin: [0, 0, 0], scaleSize: [0, 0, 0],
        flag: 0, numFrames: 0, frameFlags: new Uint8Array(0), translations: new Uint16Array(0), rotations: new Int16Array(0), scales: new Uint16Array(0),
        $span: [start, r.pos],
      };
    }));
  }
  readMagic(r, magic, 'second magic');
  const bindPose = r.within('bindPose', () => r.f32Array(bones.length * 10, 'bind pose'));
  animations.forEach((a, i) => r.within(`animations[${i}]`, () => readClipData(r, a, 2, () => {
    const box = readExact(AnimBox, r, a, 'box');
    a.translationMin = box.translationMin;
    a.translationSize = box.translationSize;
    a.scaleMin = box.scaleMin;
    a.scaleSize = box.scaleSize;
  })));
  readMagic(r, magic, 'closing magic');
  r.expectEnd('animation file');
  return { ...ex, magic: 'an10', ...bounds, bones, bindPose, animations, $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length) };
}

export function encodeAnim(doc: UnigineAnim, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  return writeSized((w) => writeAnim(w, doc));
}

function writeAnim(w: BinaryWriter, doc: UnigineAnim): void {
  w.string(doc.magic);
  writeExact(Bounds, w, doc, doc, 'bounds');
  writeBones(w, doc.bones);
  writeCompact(w, doc.animations.length);
  for (const a of doc.animations) writeUString(w, a.name);
  w.string(doc.magic);
  if (doc.bindPose.length !== doc.bones.length * 10) throw new EncodeError(`bind pose holds ${doc.bindPose.length} floats for ${doc.bones.length} bones (10 each)`, 'bindPose');
  w.typed(doc.bindPose);
  doc.animations.forEach((a, i) => writeClipData(w, a, `animations[${i}]`, () => writeExact(AnimBox, w, a, a, 'box')));
  w.string(doc.magic);
}
