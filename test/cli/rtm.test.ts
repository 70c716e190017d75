/**
 * Arma animations through the CLI: every corpus and generated `.rtm` converts to a glTF that the
 * Khronos validator passes, whose joints at each key sit where the RTM's matrices put them; a BMTR
 * needs a skeleton (model.cfg or a P3D) and converts to a plain RTM; glTF -> RTM -> glTF keeps the
 * bones' world transforms.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Document, Node } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/program.ts';
import { encodeRtmFixture, rtmFixtures } from '../../scripts/fixtures/rtm.ts';
import { decodeRtm } from '../../shared/formats/p3d/rtm/io.ts';
import { formatById } from '../../shared/formats/index.ts';
import { bmtrToPlain, rtmToScene, type SkeletonBone } from '../../shared/formats/p3d/rtm/pose.ts';
import { cfgSkeleton } from '../../shared/formats/p3d/rtm/skeleton.ts';
import type { PlainRtmDocument, RtmDocument } from '../../shared/formats/p3d/rtm/types.ts';
import { composeTRS, multiply } from '../../shared/scene/mat4.ts';
import { decompose } from '../../shared/export/math.ts';
import { corpusFiles, readBytes } from '../helpers/corpus.ts';
import { worstEdgeStretch } from '../helpers/skinning.ts';
import { readDoc } from '../helpers/gltf-stats.ts';
import { memoryIO } from './helpers/memory-io.ts';
import { gltfErrors } from './helpers/validate-gltf.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-rtm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

const rtms = corpusFiles('rtm').filter((f) => f.endsWith('.rtm'));
const cfg = corpusFiles('rtm').find((f) => f.endsWith('model.cfg'));
const odolMan = corpusFiles('p3d_odol').find((f) => /man_bandit\.p3d$/i.test(f));

/** A model.cfg holding `skeleton` as CfgSkeletons >> name. */
function writeCfg(name: string, skeleton: readonly SkeletonBone[]): string {
  const file = join(tmp, `${name}.cfg`);
  const list = skeleton.map((b) => `"${b.name}", "${b.parent}"`).join(',\n      ');
  writeFileSync(file, `// generated\nclass CfgSkeletons\n{\n  class Base;\n  class ${name}: Base\n  {\n    isDiscrete = 0;\n    skeletonInherit = "";\n    skeletonBones[] =\n    {\n      ${list}\n    };\n  };\n};\n`);
  return file;
}

/** World matrix of every node at `time`, from the animation's channels (keys hit exactly) over the rest TRS. */
function worldsAt(doc: Document, time: number): Map<Node, number[]> {
  const anim = doc.getRoot().listAnimations()[0]!;
  const local = new Map<Node, { t: number[]; r: number[]; s: number[] }>();
  for (const n of doc.getRoot().listNodes()) local.set(n, { t: n.getTranslation(), r: n.getRotation(), s: n.getScale() });
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode()!;
    const sampler = ch.getSampler()!;
    const times = Array.from(sampler.getInput()!.getArray()!, Number);
    const values = Array.from(sampler.getOutput()!.getArray()!, Number);
    const k = times.findIndex((t) => Math.abs(t - time) < 1e-6);
    expect(k).toBeGreaterThanOrEqual(0);
    const size = ch.getTargetPath() === 'rotation' ? 4 : 3;
    const v = values.slice(k * size, k * size + size);
    const l = local.get(node)!;
    if (ch.getTargetPath() === 'translation') l.t = v;
    else if (ch.getTargetPath() === 'rotation') l.r = v;
    else l.s = v;
  }
  const out = new Map<Node, number[]>();
  const world = (n: Node): number[] => {
    const done = out.get(n);
    if (done) return done;
    const l = local.get(n)!;
    const m = composeTRS(l.t, l.r, l.s);
    const p = n.getParentNode();
    const w = p ? multiply(world(p), m) : m;
    out.set(n, w);
    return w;
  };
  for (const n of doc.getRoot().listNodes()) world(n);
  return out;
}

/** Largest difference between the glTF joints' world matrices and the RTM's, and the animation's extent. */
function compare(doc: Document, plain: PlainRtmDocument, duration: number): { err: number; extent: number } {
  let err = 0, extent = 1e-6;
  const byName = new Map(doc.getRoot().listNodes().map((n) => [n.getName().toLowerCase(), n]));
  plain.frames.forEach((f) => {
    const worlds = worldsAt(doc, Math.fround(f.phase * duration));
    plain.bones.forEach((b, i) => {
      const node = byName.get(b.toLowerCase());
      expect(node, b).toBeDefined();
      // glTF joints hold translation, rotation and scale: a matrix with shear (some real files'
      // are off by up to 1e-3) arrives as its nearest such transform (convert warns).
      const exact = rtmToScene(f.matrices, i * 12);
      const { t, r, s } = decompose(exact);
      const want = composeTRS(t, r, s);
      const got = worlds.get(node!)!;
      for (let j = 0; j < 16; j++) err = Math.max(err, Math.abs(got[j]! - want[j]!));
      for (const j of [12, 13, 14]) extent = Math.max(extent, Math.abs(want[j]!));
    });
  });
  return { err, extent };
}

async function expectGlb(file: string, plain: PlainRtmDocument, duration = 1): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  const { errors } = await gltfErrors(bytes);
  expect(errors).toEqual([]);
  const doc = await readDoc(bytes);
  expect(doc.getRoot().listAnimations()).toHaveLength(1);
  // One joint per RTM bone, named as the RTM names it.
  const names = doc.getRoot().listNodes().map((n) => n.getName());
  for (const b of plain.bones) expect(names).toContain(b);
  const { err, extent } = compare(doc, plain, duration);
  // Rotations and scales are normalised in glTF; the comparison is on the whole matrix.
  expect(err).toBeLessThan(1e-4 * Math.max(1, extent));
}

describe.skipIf(rtms.length === 0 || !cfg)('corpus RTM through the CLI (skips without ../shared/corpus/rtm)', () => {
  const man = cfg ? `${cfg}#OFP2_ManSkeleton` : '';
  for (const file of rtms) {
    it(`${basename(file)} converts to a valid glTF whose joints follow the frames`, async () => {
      const doc = decodeRtm(readBytes(file));
      const out = join(tmp, `${basename(file)}.glb`);
      const args = ['convert', file, out, '--quiet', '--duration', '2'];
      if (doc.kind === 'bmtr') {
        const refused = await cli(args);
        expect(refused.code).toBe(2);
        expect(refused.err).toMatch(/relative to parent bones.*--skeleton/);
        args.push('--skeleton', man);
      }
      const r = await cli(args);
      expect(r.err.replace(/^warning: \d+ bone pose\(s\) are not rotation.*\n/m, '')).toBe('');
      expect(r.code).toBe(0);
      const plain = doc.kind === 'bmtr' ? bmtrToPlain(doc, cfgSkeleton(readFileSync(cfg!, 'latin1'), 'OFP2_ManSkeleton').bones) : doc;
      await expectGlb(out, plain, 2);
    });
  }

  it('a BMTR converts to a plain RTM with its bones, phases and properties', async () => {
    const file = rtms.find((f) => f.endsWith('ace_regroup.rtm'))!;
    const out = join(tmp, 'regroup-plain.rtm');
    expect((await cli(['convert', file, out, '--skeleton', man])).code).toBe(0);
    const bmtr = decodeRtm(readBytes(file));
    const plain = decodeRtm(readBytes(out)) as PlainRtmDocument;
    expect(plain.kind).toBe('rtm');
    expect(plain.bones).toEqual(bmtr.bones);
    expect(plain.frames.map((f) => f.phase)).toEqual(Array.from((bmtr as { phases: Float32Array }).phases));
    expect((await cli(['validate', out])).code).toBe(0);
    expect((await cli(['roundtrip', '--strict', out])).code).toBe(0);
  });

  it.skipIf(!odolMan)('a P3D that carries the skeleton composes a BMTR like the model.cfg does', async () => {
    const file = rtms.find((f) => f.endsWith('ace_point.rtm'))!;
    const a = join(tmp, 'point-cfg.rtm'), b = join(tmp, 'point-p3d.rtm');
    expect((await cli(['convert', file, a, '--skeleton', man])).code).toBe(0);
    expect((await cli(['convert', file, b, '--skeleton', odolMan!])).code).toBe(0);
    const x = decodeRtm(readBytes(a)) as PlainRtmDocument, y = decodeRtm(readBytes(b)) as PlainRtmDocument;
    let err = 0;
    x.frames.forEach((f, k) => f.matrices.forEach((v, j) => (err = Math.max(err, Math.abs(v - y.frames[k]!.matrices[j]!)))));
    expect(err).toBeLessThan(1e-5);
  });

  it.skipIf(!odolMan)('a P3D character exports skinned with an RTM whose joints follow its frames in the model\'s own space, in one piece, and imports back to the same RTM; validate --model lists the bones it lacks', async () => {
    const anim = rtms.find((f) => f.endsWith('map_in.rtm'))!;
    const out = join(tmp, 'man-map_in.glb');
    const r = await cli(['convert', odolMan!, out, '--anim', anim, '--duration', '3']);
    expect(r.code).toBe(0);
    // M136 and M16A2 (weapon bones of that mod) are not bones of the man: their tracks are left out.
    expect(r.err).toMatch(/2 track\(s\) name no bone or node of the model/);
    const bytes = new Uint8Array(readFileSync(out));
    expect((await gltfErrors(bytes)).errors).toEqual([]);
    const doc = await readDoc(bytes);
    const skin = doc.getRoot().listSkins()[0]!;
    expect(skin).toBeDefined();
    const plain = decodeRtm(readBytes(anim)) as PlainRtmDocument;
    const joints = new Map(skin.listJoints().map((j) => [j.getName().toLowerCase(), j]));
    const ibm = Array.from(skin.getInverseBindMatrices()!.getArray()!, Number);
    // The man is auto-centred: its positions are relative to its bounding centre, the RTM's
    // matrices to the model's own origin, which its scene names. The glTF puts him back in his
    // own space: a root node moves him by the bounding centre.
    const odolCodec = formatById('p3d-odol');
    const origin = odolCodec.toScene!(odolCodec.decode(readBytes(odolMan!))).modelOrigin!;
    expect(Math.hypot(...origin)).toBeGreaterThan(0.5);
    const top = doc.getRoot().getDefaultScene()!.listChildren();
    expect(top.map((n) => n.getName())).toEqual(['Model origin']);
    top[0]!.getTranslation().forEach((v, a) => expect(v).toBeCloseTo(-origin[a]!, 6));
    const centre = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -origin[0]!, -origin[1]!, -origin[2]!, 1];
    const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    const attr = (name: string) => prim.getAttribute(name)!.getArray()!;
    for (const k of [0, 9, 18]) {
      const worlds = worldsAt(doc, Math.fround(plain.frames[k]!.phase * 3));
      const skinningOf = (ji: number) => multiply(worlds.get(skin.listJoints()[ji]!)!, ibm.slice(ji * 16, ji * 16 + 16));
      for (const bone of ['Spine', 'RightHand', 'LeftFoot', 'Head', 'LeftForeArm']) {
        const i = plain.bones.indexOf(bone);
        const ji = skin.listJoints().indexOf(joints.get(bone.toLowerCase())!);
        // Skinning matrix = joint world x inverse bind: the stored (centred) positions moved into
        // the model's own space, then by the RTM matrix in glTF axes.
        const want = multiply(rtmToScene(plain.frames[k]!.matrices, i * 12), centre);
        skinningOf(ji).forEach((v, n) => expect(Math.abs(v - want[n]!), `${bone} frame ${k}`).toBeLessThan(2e-4));
      }
      // What a glTF viewer draws: the skinned man in one piece (his elbow tore 0.7 m before).
      const stretch = worstEdgeStretch(attr('POSITION'), prim.getIndices()!.getArray()!, attr('JOINTS_0'), attr('WEIGHTS_0'), skinningOf);
      expect(stretch, `frame ${k}`).toBeLessThan(0.1);
    }
    // Imported back, the animation is the RTM it was (the man's own space, not his bounding centre's).
    const back = join(tmp, 'man-map_in.rtm');
    expect((await cli(['import', out, back, '--duration', '3', '--quiet'])).code).toBe(0);
    const again = decodeRtm(readBytes(back)) as PlainRtmDocument;
    let err = 0;
    for (const [k, f] of plain.frames.entries()) {
      for (const [i, b] of plain.bones.entries()) {
        const j = again.bones.findIndex((n) => n.toLowerCase() === b.toLowerCase());
        if (j < 0) continue; // the mod's weapon bones, which the man lacks
        for (let e = 0; e < 12; e++) err = Math.max(err, Math.abs(f.matrices[i * 12 + e]! - again.frames[k]!.matrices[j * 12 + e]!));
      }
    }
    expect(err).toBeLessThan(1e-4);
    const v = await cli(['validate', anim, '--model', odolMan!]);
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/bone "M136" of \S+ does not exist in the skeleton/);
    expect(v.out).toMatch(/bone\(s\) of \S+ are never moved/);
    expect((await cli(['validate', anim, '--model', odolMan!, '--strict'])).code).toBe(1);
  });

  it('info shows a BMTR\'s phases as the floats the file stores', async () => {
    const file = rtms.find((f) => f.endsWith('animation_bmtr_lzo.rtm'));
    if (!file) return;
    const r = await cli(['info', file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/phases\s+2: 0, 0\.9939394\n/);
  });

  it('glTF -> RTM -> glTF keeps every bone world transform', async () => {
    const file = rtms.find((f) => f.endsWith('map_in.rtm'))!;
    const glb = join(tmp, 'map_in.glb'), back = join(tmp, 'map_in_back.rtm'), again = join(tmp, 'map_in_again.glb');
    expect((await cli(['convert', file, glb, '--quiet'])).code).toBe(0);
    expect((await cli(['import', glb, back, '--duration', '1', '--quiet'])).code).toBe(0);
    const src = decodeRtm(readBytes(file)) as PlainRtmDocument;
    const got = decodeRtm(readBytes(back)) as PlainRtmDocument;
    expect(got.bones).toEqual(src.bones);
    expect(got.frames.map((f) => f.phase)).toEqual(src.frames.map((f) => f.phase));
    expect((await cli(['convert', back, again, '--quiet'])).code).toBe(0);
    await expectGlb(again, src);
  });
});

describe('generated RTM fixtures through the CLI', () => {
  for (const fx of rtmFixtures()) {
    it(`${fx.name} converts to a valid glTF and back`, async () => {
      const file = join(tmp, fx.name);
      writeFileSync(file, encodeRtmFixture(fx));
      const doc: RtmDocument = decodeRtm(readBytes(file));
      const glb = join(tmp, `${fx.name}.glb`);
      const args = ['convert', file, glb, '--quiet'];
      if (fx.skeleton) args.push('--skeleton', `${writeCfg('FixtureSkeleton', fx.skeleton)}#fixtureskeleton`);
      const r = await cli(args);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const plain = doc.kind === 'bmtr' ? bmtrToPlain(doc, fx.skeleton!) : doc;
      await expectGlb(glb, plain);
      if (doc.kind === 'bmtr') {
        // BMTR -> plain through the CLI gives what the library gives.
        const out = join(tmp, `${fx.name}.plain.rtm`);
        expect((await cli(['convert', file, out, '--quiet', '--skeleton', `${writeCfg('FixtureSkeleton', fx.skeleton!)}`])).code).toBe(0);
        const p = decodeRtm(readBytes(out)) as PlainRtmDocument;
        expect(p.properties.map((x) => [x.name, x.value])).toEqual(doc.properties.map((x) => [x.name, x.value]));
        p.frames.forEach((f, k) => f.matrices.forEach((v, j) => expect(Math.abs(v - plain.frames[k]!.matrices[j]!)).toBeLessThan(1e-6)));
      }
    });
  }

  it('a model.cfg without the named skeleton is a one-line error naming the ones there are', async () => {
    const fx = rtmFixtures().find((f) => f.name === 'bmtr-v5-raw.rtm')!;
    const file = join(tmp, fx.name);
    writeFileSync(file, encodeRtmFixture(fx));
    const r = await cli(['convert', file, join(tmp, 'x.glb'), '--skeleton', `${writeCfg('Other', fx.skeleton!)}#Missing`]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/no skeleton "Missing".*Other/);
  });
});
