/**
 * The frame stream shared by embedded mesh animations (float translations and scales) and `.anim`
 * clips (16-bit quantised ones): per frame, per bone, a change-flag byte followed by the flagged
 * components. Components are split into typed arrays in stream order, so writing back walks the
 * flags again and reproduces the stream exactly.
 */
import type { BinaryReader } from '../../binary/reader.ts';
import type { BinaryWriter } from '../../binary/writer.ts';
import { EncodeError } from '../../errors.ts';
import { readCompactCount, writeCompact } from './compact.ts';
import { FRAME_ROTATION_BIT, FRAME_SCALE_MASK, FRAME_TRANSLATION_MASK, type UnigineClip } from './schema.ts';

const popcount3 = (v: number): number => (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1);

export interface FrameStream<T extends Float32Array | Uint16Array> {
  frameFlags: Uint8Array;
  translations: T;
  rotations: Int16Array;
  scales: T;
}

/** Component counts a set of flags implies. */
export function frameCounts(flags: Uint8Array): { t: number; r: number; s: number } {
  let t = 0, r = 0, s = 0;
  for (const f of flags) {
    t += popcount3(f & FRAME_TRANSLATION_MASK);
    if (f & FRAME_ROTATION_BIT) r++;
    s += popcount3((f & FRAME_SCALE_MASK) >> 4);
  }
  return { t, r, s };
}

/**
 * Reads `n` flag-prefixed records. `width` is 4 for float components, 2 for quantised ones.
 * A first pass only measures (every record is at least its flag byte, so `n` was checked against
 * the bytes left by the caller), then exact typed arrays are filled.
 */
export function readFrames(r: BinaryReader, n: number, width: 2 | 4): FrameStream<Float32Array | Uint16Array> {
  const start = r.pos;
  const flags = new Uint8Array(n);
  let pos = start;
  for (let i = 0; i < n; i++) {
    if (pos >= r.end) r.fail(`frame record ${i} of ${n} is missing`, pos);
    const f = r.bytes[pos]!;
    if (f & 0x80) r.fail(`frame flag 0x${f.toString(16)} has an unknown bit`, pos);
    flags[i] = f;
    const at = pos;
    pos += 1 + width * (popcount3(f & FRAME_TRANSLATION_MASK) + popcount3((f & FRAME_SCALE_MASK) >> 4)) + (f & FRAME_ROTATION_BIT ? 8 : 0);
    if (pos > r.end) r.fail(`frame record ${i} runs past the end of the data`, at);
  }
  const c = frameCounts(flags);
  const tBits = new (width === 4 ? Uint32Array : Uint16Array)(c.t);
  const sBits = new (width === 4 ? Uint32Array : Uint16Array)(c.s);
  const rot = new Int16Array(c.r * 4);
  const v = r.view;
  let ti = 0, si = 0, ri = 0;
  pos = start;
  const get = width === 4 ? (o: number) => v.getUint32(o, true) : (o: number) => v.getUint16(o, true);
  for (let i = 0; i < n; i++) {
    const f = flags[i]!;
    pos++;
    for (let b = 0; b < 3; b++) if (f & (1 << b)) { tBits[ti++] = get(pos); pos += width; }
    if (f & FRAME_ROTATION_BIT) {
      for (let k = 0; k < 4; k++) { rot[ri++] = v.getInt16(pos, true); pos += 2; }
    }
    for (let b = 4; b < 7; b++) if (f & (1 << b)) { sBits[si++] = get(pos); pos += width; }
  }
  r.seek(pos);
  const asT = (a: Uint32Array | Uint16Array): Float32Array | Uint16Array => (a instanceof Uint32Array ? new Float32Array(a.buffer) : a);
  return { frameFlags: flags, translations: asT(tBits), rotations: rot, scales: asT(sBits) };
}

export function writeFrames(w: BinaryWriter, s: FrameStream<Float32Array | Uint16Array>, path: string): void {
  const c = frameCounts(s.frameFlags);
  if (c.t !== s.translations.length || c.s !== s.scales.length || c.r * 4 !== s.rotations.length) {
    throw new EncodeError(
      `frame flags call for ${c.t} translation, ${c.r} rotation and ${c.s} scale components; the clip holds ${s.translations.length}, ${s.rotations.length / 4}, ${s.scales.length}`,
      path,
    );
  }
  const float = s.translations instanceof Float32Array;
  if (w.counting) {
    w.claim(s.frameFlags.length + (c.t + c.s) * (float ? 4 : 2) + c.r * 8);
    return;
  }
  const t = float ? new Uint32Array(s.translations.buffer, s.translations.byteOffset, s.translations.length) : s.translations;
  const sc = float ? new Uint32Array(s.scales.buffer, s.scales.byteOffset, s.scales.length) : s.scales;
  const put = float ? (x: number) => w.u32(x) : (x: number) => w.u16(x);
  let ti = 0, si = 0, ri = 0;
  for (const f of s.frameFlags) {
    w.u8(f);
    for (let b = 0; b < 3; b++) if (f & (1 << b)) put(t[ti++]!);
    if (f & FRAME_ROTATION_BIT) for (let k = 0; k < 4; k++) w.i16(s.rotations[ri++]!);
    for (let b = 4; b < 7; b++) if (f & (1 << b)) put(sc[si++]!);
  }
}

/**
 * Expands a frame stream to full per-frame values: for each frame and bone, translation xyz,
 * rotation xyzw (shorts / 32767) and scale xyz, carrying unchanged components over from the
 * previous frame. `decodeT`/`decodeS` turn a stored component into a value (identity for floats,
 * the box formula for quantised clips).
 */
export function expandFrames(
  s: FrameStream<Float32Array | Uint16Array>,
  numBones: number,
  initial: (bone: number) => { t: number[]; r: number[]; s: number[] },
  decodeT: (axis: number, v: number) => number,
  decodeS: (axis: number, v: number) => number,
): { translations: Float32Array; rotations: Float32Array; scales: Float32Array; frames: number } {
  const frames = numBones > 0 ? Math.floor(s.frameFlags.length / numBones) : 0;
  const T = new Float32Array(frames * numBones * 3);
  const R = new Float32Array(frames * numBones * 4);
  const S = new Float32Array(frames * numBones * 3);
  const cur = Array.from({ length: numBones }, (_, b) => {
    const i = initial(b);
    return { t: [...i.t], r: [...i.r], s: [...i.s] };
  });
  let ti = 0, si = 0, ri = 0;
  for (let f = 0; f < frames; f++) {
    for (let b = 0; b < numBones; b++) {
      const flag = s.frameFlags[f * numBones + b]!;
      const c = cur[b]!;
      for (let k = 0; k < 3; k++) if (flag & (1 << k)) c.t[k] = decodeT(k, s.translations[ti++]!);
      if (flag & FRAME_ROTATION_BIT) for (let k = 0; k < 4; k++) c.r[k] = s.rotations[ri++]! / 32767;
      for (let k = 0; k < 3; k++) if (flag & (1 << (k + 4))) c.s[k] = decodeS(k, s.scales[si++]!);
      const o = f * numBones + b;
      T.set(c.t, o * 3);
      R.set(c.r, o * 4);
      S.set(c.s, o * 3);
    }
  }
  return { translations: T, rotations: R, scales: S, frames };
}

/**
 * A clip's data block, after the file's bind pose: the bones taking part, `middle` (the `.anim`
 * quantisation box; nothing in meshes), the clip flag, the frame count and the frames, components
 * `width` bytes wide (4: float, in meshes; 2: quantised, in `.anim` files). Fills `a` in place.
 */
export function readClipData<C extends UnigineClip>(r: BinaryReader, a: C, width: 2 | 4, middle?: (a: C) => void): void {
  const start = r.pos;
  const nb = readCompactCount(r, 2, 'animation bone');
  a.bones = r.i16Array(nb, 'animation bone indices');
  middle?.(a);
  a.flag = r.u8();
  const nf = readCompactCount(r, 0, 'frame');
  r.count(nf * nb, 1, 'frame record');
  a.numFrames = nf;
  const s = readFrames(r, nf * nb, width);
  a.frameFlags = s.frameFlags;
  a.translations = s.translations;
  a.rotations = s.rotations;
  a.scales = s.scales;
  a.$dataSpan = [start, r.pos];
}

/** Writes what {@link readClipData} reads; `middle` writes the part between the bones and the flag. */
export function writeClipData<C extends UnigineClip>(w: BinaryWriter, a: C, path: string, middle?: (a: C) => void): void {
  writeCompact(w, a.bones.length);
  w.typed(a.bones);
  middle?.(a);
  w.u8(a.flag);
  if (a.bones.length > 0 ? a.frameFlags.length % a.bones.length !== 0 : a.frameFlags.length !== 0) {
    throw new EncodeError('frame flags must hold one byte per bone per frame', path);
  }
  writeCompact(w, a.bones.length > 0 ? a.frameFlags.length / a.bones.length : a.numFrames);
  writeFrames(w, a, path);
}
