import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRtmFixture, fixtureSkeleton, rtmFixtures } from '../../scripts/fixtures/rtm.ts';
import { rtmCodec } from '../../shared/formats/p3d/rtm/codec.ts';
import { decodeRtm, encodeRtm } from '../../shared/formats/p3d/rtm/io.ts';
import { bmtrLocalMatrix, bmtrToPlain, rtmToScene, type SkeletonBone } from '../../shared/formats/p3d/rtm/pose.ts';
import type { BmtrDocument, PlainRtmDocument } from '../../shared/formats/p3d/rtm/types.ts';
import { registerFormat } from '../../shared/formats/registry.ts';
import { probeBmp } from '../../shared/formats/texture/bmp.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { multiply } from '../../shared/scene/mat4.ts';
import { corpusFiles, readBytes } from '../helpers/corpus.ts';
import { expectDecodeError, mutationSweep } from '../helpers/bad-input.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

registerFormat(rtmCodec);
const corpus = corpusFiles('rtm').filter((f) => f.endsWith('.rtm'));
const twin = (name: string): string | undefined => corpus.find((f) => basename(f) === name);

describe('RTM corpus', () => {
  it.skipIf(corpus.length === 0)('has files (skips without ../shared/corpus/rtm)', () => expect(corpus.length).toBeGreaterThan(5));
  for (const file of corpus) {
    it(`${basename(file)} decodes, validates clean and saves byte for byte`, () => {
      const bytes = readBytes(file);
      expect(rtmCodec.probe(bytes)).toBe(true);
      expect(probeBmp(bytes)).toBe(false);
      const doc = expectRoundTrip(rtmCodec, bytes, basename(file)) as PlainRtmDocument | BmtrDocument;
      expect(rtmCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
      expect(doc.frames.length).toBeGreaterThan(0);
      expect(doc.bones.length).toBeGreaterThanOrEqual(4);
    });
  }

  it.skipIf(!twin('MrClock8163__armaio__animation_bmtr.rtm'))('BMTR composed through its skeleton gives its plain twin within half-float precision', () => {
    const plain = decodeRtm(readBytes(twin('MrClock8163__armaio__animation.rtm')!)) as PlainRtmDocument;
    const bmtr = decodeRtm(readBytes(twin('MrClock8163__armaio__animation_bmtr.rtm')!)) as BmtrDocument;
    const skeleton: SkeletonBone[] = [{ name: 'pelvis', parent: '' }, { name: 'torso', parent: 'pelvis' }, { name: 'rightarm', parent: 'torso' }, { name: 'leftarm', parent: 'torso' }];
    const conv = bmtrToPlain(bmtr, skeleton);
    expect(conv.bones).toEqual(plain.bones.map((b) => b.toLowerCase()));
    expect(conv.properties.map((p) => [p.name, p.value])).toEqual(plain.properties.map((p) => [p.name, p.value]));
    expect(conv.motion).toEqual(plain.motion);
    let err = 0;
    plain.frames.forEach((f, k) => f.matrices.forEach((v, j) => (err = Math.max(err, Math.abs(v - conv.frames[k]!.matrices[j]!)))));
    expect(err).toBeLessThan(1e-3);
    // Without the hierarchy the arms come out wrong: the composition is what makes it match.
    const flat = bmtrToPlain(bmtr, []);
    let flatErr = 0;
    plain.frames.forEach((f, k) => f.matrices.forEach((v, j) => (flatErr = Math.max(flatErr, Math.abs(v - flat.frames[k]!.matrices[j]!)))));
    expect(flatErr).toBeGreaterThan(0.1);
  });

  it.skipIf(!twin('MrClock8163__armaio__animation_bmtr_lzo.rtm'))('reads LZO frames of the armaio LZO file', () => {
    const doc = decodeRtm(readBytes(twin('MrClock8163__armaio__animation_bmtr_lzo.rtm')!)) as BmtrDocument;
    expect(doc.version).toBe(5);
    expect(doc.frames.length).toBe(165);
    expect(doc.bones.length).toBe(66);
    expect(doc.frames.filter((f) => f.packed.compressed).length).toBe(124);
  });
});

describe('RTM generated fixtures', () => {
  for (const fx of rtmFixtures()) {
    it(`${fx.name} round-trips (${fx.covers})`, () => {
      const bytes = encodeRtmFixture(fx);
      expect(rtmCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(rtmCodec, bytes, fx.name) as PlainRtmDocument | BmtrDocument;
      expect(rtmCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
      if (doc.kind === 'bmtr') {
        const want = fx.doc as BmtrDocument;
        expect(doc.version).toBe(want.version);
        expect(doc.frames.map((f) => f.packed.compressed)).toEqual(want.frames.map((f) => f.packed.compressed));
        expect(doc.phasesPacked.compressed).toBe(want.phasesPacked.compressed);
      }
    });
  }

  it('covers every BMTR version, raw and LZO arrays, and properties', () => {
    const docs = rtmFixtures().map((fx) => decodeRtm(encodeRtmFixture(fx)));
    const bmtr = docs.filter((d): d is BmtrDocument => d.kind === 'bmtr');
    for (const v of [3, 4, 5]) {
      expect(bmtr.some((d) => d.version === v && d.frames.some((f) => f.packed.compressed))).toBe(true);
      expect(bmtr.some((d) => d.version === v && d.frames.some((f) => !f.packed.compressed))).toBe(true);
    }
    expect(bmtr.some((d) => d.phasesPacked.compressed && d.version === 4)).toBe(true);
    expect(bmtr.some((d) => d.version >= 4 && d.properties.length > 0)).toBe(true);
    expect(docs.some((d) => d.kind === 'rtm' && d.mdat && d.properties.length > 0)).toBe(true);
  });

  it('BMTR -> plain composes each bone through its parents (checked with scene matrices)', () => {
    for (const fx of rtmFixtures().filter((x) => x.skeleton)) {
      const doc = decodeRtm(encodeRtmFixture(fx)) as BmtrDocument;
      const plain = bmtrToPlain(doc, fx.skeleton!);
      const index = new Map(doc.bones.map((b, i) => [b, i]));
      doc.frames.forEach((f, k) => {
        // World = parent world x local, in column-major scene matrices: an independent route.
        const worlds: number[][] = [];
        fx.skeleton!.forEach((b) => {
          const i = index.get(b.name)!;
          const local = rtmToScene(bmtrLocalMatrix(f.transforms, i));
          worlds[i] = b.parent ? multiply(worlds[index.get(b.parent)!]!, local) : local;
        });
        doc.bones.forEach((_, i) => {
          const got = rtmToScene(plain.frames[k]!.matrices, i * 12);
          got.forEach((v, j) => expect(Math.abs(v - worlds[i]![j]!)).toBeLessThan(1e-4));
        });
      });
    }
  });

  it('the fixture skeleton is a tree', () => {
    const s = fixtureSkeleton(12);
    expect(s[0]!.parent).toBe('');
    expect(s[5]!.parent).toBe('bone0');
    expect(s[6]!.parent).toBe('bone5');
  });
});

describe('RTM bad input and edits', () => {
  const plainBytes = encodeRtmFixture(rtmFixtures().find((f) => f.name === 'plain-mdat.rtm')!);
  const bmtrBytes = encodeRtmFixture(rtmFixtures().find((f) => f.name === 'bmtr-v5-mixed.rtm')!);
  const v3Bytes = encodeRtmFixture(rtmFixtures().find((f) => f.name === 'bmtr-v3-lzo.rtm')!);

  it('a truncated or forged file fails with the offset and the node path', () => {
    // The frame count is checked against the bytes left before any frame is read.
    const e = expectDecodeError(() => rtmCodec.decode(plainBytes.subarray(0, plainBytes.length - 10)));
    const countAt = (decodeRtm(plainBytes) as PlainRtmDocument).properties.at(-1)!.$span![1] + 8 + 12;
    expect(e.message).toMatch(/frame count 9 needs/);
    expect(e.offset).toBe(countAt);
    // A frame whose name field is cut short inside a property names the property.
    const cut = expectDecodeError(() => rtmCodec.decode(plainBytes.subarray(0, 36)));
    expect(cut.path).toMatch(/^RTM_MDAT\/\[1\]/);
    const forged = new Uint8Array(bmtrBytes);
    new DataView(forged.buffer).setUint32(4, 9, true);
    expect(rtmCodec.probe(forged)).toBe(false);
    expect(expectDecodeError(() => decodeRtm(forged)).message).toMatch(/BMTR version 9.*offset 4/);
    // A huge frame count is refused before anything is allocated.
    const many = new Uint8Array(v3Bytes);
    new DataView(many.buffer).setUint32(21, 0xfffffff0, true);
    expect(expectDecodeError(() => rtmCodec.decode(many)).message).toMatch(/frame count/);
    // A broken LZO stream names the frame it is in.
    const doc = decodeRtm(v3Bytes) as BmtrDocument;
    const lzoAt = doc.frames[2]!.$span![0] + 4;
    const broken = new Uint8Array(v3Bytes);
    broken.fill(0xff, lzoAt, lzoAt + 8);
    expect(expectDecodeError(() => rtmCodec.decode(broken)).path).toMatch(/^frames\/\[2\]/);
  });

  it('survives a mutation sweep (decode errors only, re-encoding exact)', () => {
    for (const b of [plainBytes, bmtrBytes, v3Bytes]) {
      expect(mutationSweep(rtmCodec, b, 'rtm', 80, (d: object) => {
        const doc = d as PlainRtmDocument | BmtrDocument;
        rtmCodec.validate(doc);
        rtmCodec.toScene(doc);
        rtmCodec.outline(doc);
      })).toBeGreaterThan(0);
    }
  });

  it('validate flags phases outside 0..1 or going back, and duplicate or long bone names', () => {
    const doc = decodeRtm(plainBytes) as PlainRtmDocument;
    doc.frames[1]!.phase = 1.5;
    doc.frames[3]!.phase = 0.01;
    doc.bones[2] = doc.bones[1]!.toUpperCase();
    doc.bones[3] = 'x'.repeat(40);
    const messages = rtmCodec.validate(doc).filter((p) => p.severity === 'error').map((p) => p.message).join('\n');
    expect(messages).toMatch(/phase 1.5 of frame 1 is outside 0..1/);
    expect(messages).toMatch(/frame 3 comes before/);
    expect(messages).toMatch(/used by bone 1/);
    expect(messages).toMatch(/longer than 31 bytes/);
  });

  it('edits phases, properties, bone names and matrices with undo, changing only what they imply', () => {
    const doc = rtmCodec.decode(plainBytes) as PlainRtmDocument;
    expect(rtmCodec.checkEdit!(doc, { op: 'set', path: ['bones', 1], value: 'y'.repeat(32) })).toMatch(/31 bytes/);
    expect(rtmCodec.checkEdit!(doc, { op: 'set', path: ['bones', 1], value: 'Pelvis' })).toMatch(/another bone/);
    const edits = [
      { op: 'set' as const, path: ['frames', 2, 'phase'], value: 0.3 },
      { op: 'set' as const, path: ['properties', 0, 'value'], value: 'Loud' },
      { op: 'set' as const, path: ['bones', 1], value: 'spine' },
      { op: 'set' as const, path: ['frames', 0, 'matrices', 13], value: 2 },
    ];
    const undo = edits.map((c) => {
      expect(rtmCodec.checkEdit!(doc, c)).toBeUndefined();
      return applyCommand(doc, c);
    });
    const saved = rtmCodec.encode(doc);
    const back = decodeRtm(saved) as PlainRtmDocument;
    expect(back.frames[2]!.phase).toBeCloseTo(0.3, 6);
    expect(back.properties[0]!.value).toBe('Loud');
    expect(back.bones[1]).toBe('spine');
    expect(back.frames.every((f) => String.fromCharCode(...f.names.subarray(32, 37)) === 'spine')).toBe(true);
    expect(back.frames[0]!.matrices[13]).toBe(2);
    // Other bones keep their name fields (garbage after the NUL included).
    expect(back.boneFields.subarray(64)).toEqual((decodeRtm(plainBytes) as PlainRtmDocument).boneFields.subarray(64));
    for (const u of undo.reverse()) applyCommand(doc, u);
    expect(rtmCodec.encode(doc)).toEqual(plainBytes);
  });

  it('an edited BMTR frame is written compressed again as its version wants', () => {
    const doc = rtmCodec.decode(v3Bytes) as BmtrDocument;
    applyCommand(doc, { op: 'set', path: ['frames', 1, 'transforms', 0], value: 100 });
    applyCommand(doc, { op: 'set', path: ['phases', 1], value: 0.2 });
    const back = decodeRtm(encodeRtm(doc)) as BmtrDocument;
    expect(back.frames[1]!.transforms[0]).toBe(100);
    expect(back.frames[1]!.packed.compressed).toBe(true);
    expect(back.phases[1]).toBeCloseTo(0.2, 6);
    expect(back.frames[0]!.transforms).toEqual(doc.frames[0]!.transforms);
  });
});
