import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFixture, unigineFixtures } from '../../scripts/fixtures/unigine.ts';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { BinaryWriter } from '../../shared/binary/writer.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { compactSize, readCompact, writeCompact } from '../../shared/formats/unigine/compact.ts';
import {
  computeSurfaceBounds, recomputeSurfaceBoundsCommand, unigineAnimCodec, unigineMeshCodec, type UnigineAnim, type UnigineMesh,
} from '../../shared/formats/unigine/index.ts';
import { lz4Compress, lz4Decompress } from '../../shared/formats/unigine/lz4.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { mutationSweep } from '../helpers/bad-input.ts';
import { expectCounterClockwise } from '../helpers/winding.ts';

const meshFile = (part: string): Uint8Array => readBytes(corpusFiles('unigine_mesh').find((f) => f.includes(part))!);
const animFile = (part: string): Uint8Array => readBytes(corpusFiles('unigine_anim').find((f) => f.includes(part))!);
const mesh = (b: Uint8Array): UnigineMesh => unigineMeshCodec.decode(b);

describe('Unigine compact integers and LZ4', () => {
  it('reads and writes the compact integers seen in real files', () => {
    const cases: [number, number[]][] = [[24, [0x18]], [88, [0x98, 0x01]], [132, [0x84, 0x02]], [15384, [0x98, 0xf0, 0x01]], [-1, [0x41]], [0, [0x00]]];
    for (const [v, bytes] of cases) {
      const w = new BinaryWriter();
      writeCompact(w, v);
      expect(Array.from(w.finish())).toEqual(bytes);
      expect(readCompact(new BinaryReader(Uint8Array.from(bytes)))).toBe(v);
      expect(compactSize(v)).toBe(bytes.length);
    }
    for (const v of [63, 64, 8191, 8192, 1048575, 1048576, 2147483647, -300]) {
      const w = new BinaryWriter();
      writeCompact(w, v);
      expect(readCompact(new BinaryReader(w.finish()))).toBe(v);
    }
    expect(() => readCompact(new BinaryReader(Uint8Array.of(0x80, 0x00)))).toThrow(/shortest/);
  });

  it('LZ4 compresses and decompresses to the same bytes and rejects broken blocks', () => {
    const data = Uint8Array.from({ length: 5000 }, (_, i) => (i % 97 < 50 ? i & 7 : (i * 31) & 0xff));
    const packed = lz4Compress(data);
    expect(packed.length).toBeLessThan(data.length);
    expect(lz4Decompress(packed, data.length)).toEqual(data);
    expect(typeof lz4Decompress(packed, data.length + 1)).toBe('string');
    expect(typeof lz4Decompress(Uint8Array.of(0x0f, 1, 0), 100)).toBe('string');
    expect(lz4Decompress(lz4Compress(new Uint8Array(0)), 0)).toEqual(new Uint8Array(0));
  });
});

describe.skipIf(!hasCorpus)('Unigine mesh views on real files', () => {
  it('info lists one mesh per surface, the bones and the embedded animations', () => {
    const bytes = meshFile('QBZ95_long.mesh');
    const doc = mesh(bytes);
    if (doc.magic === 'mr02') throw new Error('unexpected');
    const info = unigineMeshCodec.info(doc, bytes.length);
    expect(info.version).toBe('ms11');
    expect(info.meshes.map((m) => m.name)).toEqual(doc.surfaces.map((s) => s.name));
    expect(info.meshes[0]!.triangles).toBe(doc.surfaces[0]!.triangleIndices.length / 3);
    expect(info.bones).toEqual(doc.bones.map((b) => b.name));
    expect(info.animations).toEqual([{ name: 'scene', frames: 1 }]);
  });

  it('each version maps to a scene with in-range indices, normals and uvs', () => {
    for (const part of ['Box01', 'Unigine-legacy__box', 'cpp-api-samples__sphere', 'FPS_Demo1__box.mesh', 'agent.mesh']) {
      const doc = mesh(meshFile(part));
      const scene = unigineMeshCodec.toScene(doc);
      expect(scene.meshes.length).toBe(doc.surfaces.length);
      expect(scene.nodes.every((n) => n.parent === -1)).toBe(true);
      for (const m of scene.meshes) {
        const nv = m.positions.length / 3;
        expect(m.indices.length % 3).toBe(0);
        expect(m.indices.every((i) => i < nv)).toBe(true);
        expect(m.normals!.length).toBe(nv * 3);
        for (let v = 0; v < Math.min(nv, 50); v++) expect(Math.hypot(m.normals![v * 3]!, m.normals![v * 3 + 1]!, m.normals![v * 3 + 2]!)).toBeCloseTo(1, 1);
        expect(m.uvs[0]!.length).toBe(nv * 2);
      }
    }
  });

  it('converts Z-up to Y-up in the data: (x, y, z) -> (x, z, -y) for vertices, root bones and their tracks', () => {
    const doc = mesh(meshFile('cpp-api-samples__box'));
    if (doc.magic === 'mr02') throw new Error('unexpected');
    const src = doc.surfaces[0]!.morphTargets[0]!.vertices;
    const scene = unigineMeshCodec.toScene(doc);
    const m = scene.meshes[0]!;
    // Find the scene vertex made from coordinate vertex 1 and compare.
    const c1 = doc.surfaces[0]!.coordIndices[0]!;
    const v = doc.surfaces[0]!.triangleIndices[0]!;
    expect([m.positions[v * 3], m.positions[v * 3 + 1], m.positions[v * 3 + 2]]).toEqual([src[c1 * 3], src[c1 * 3 + 2], -src[c1 * 3 + 1]!]);
    const fx = unigineFixtures().find((x) => x.name === 'walk.anim')!;
    const anim = unigineAnimCodec.decode(encodeFixture(fx)) as UnigineAnim;
    const asc = unigineAnimCodec.toScene(anim);
    const root = asc.skeleton!.bones[0]!;
    expect(root.parent).toBe(-1);
    // The root's local matrix now maps source +Z (its column 2) to scene +Y.
    expect(root.matrix[9]).toBeCloseTo(1);
    expect(root.matrix[10]).toBeCloseTo(0);
    const child = asc.skeleton!.bones[1]!;
    expect(child.matrix[13]).toBe(0);
    expect(child.matrix[14]).toBeCloseTo(0.5);
    // Root track: stored translation (tx, ty, tz) shows up as (tx, tz, -ty); child tracks stay local.
    const c = anim.animations[0]!;
    const dec = (k: number): number => c.translationMin[k]! + c.translationSize[k]! * (c.translations[k]! / 65535);
    const t0 = asc.clips[0]!.tracks[0]!.translations!;
    expect(t0[0]).toBeCloseTo(dec(0), 5);
    expect(t0[1]).toBeCloseTo(dec(2), 5);
    expect(t0[2]).toBeCloseTo(-dec(1), 5);
  });

  it('a skinned mesh has a skeleton, skin weights summing to one and joints in range', () => {
    const doc = mesh(meshFile('agent.mesh'));
    const scene = unigineMeshCodec.toScene(doc);
    expect(scene.skeleton!.bones.length).toBe(56);
    expect(scene.skeleton!.bones[1]!.name).toBe('Bip01 Pelvis');
    const skin = scene.meshes[0]!.skin!;
    for (let v = 0; v < 20; v++) {
      const w = skin.weights.subarray(v * 4, v * 4 + 4).reduce((a, b) => a + b, 0);
      expect(w).toBeCloseTo(1, 3);
    }
    expect(skin.joints.every((j) => j < 56)).toBe(true);
  });

  it('ms14 surfaces decode from their LZ4 blocks', () => {
    const doc = mesh(meshFile('cpp-api-samples__box'));
    expect(doc.magic).toBe('ms14');
    if (doc.magic !== 'ms14') return;
    const s = doc.surfaces[0]!;
    expect(s.morphTargets[0]!.vertices.length).toBe(8 * 3);
    expect(s.coordIndices.length).toBe(36);
    expect(Array.from(s.morphTargets[0]!.vertices.subarray(0, 3))).toEqual([-1, -1, -1]);
  });

  it('outline and inspect describe surfaces, bones and morph targets', () => {
    const bytes = meshFile('arm.mesh');
    const doc = mesh(bytes);
    if (doc.magic === 'mr02') throw new Error('unexpected');
    const o = unigineMeshCodec.outline(doc);
    expect(o.span).toEqual([0, bytes.length]);
    expect(o.children!.map((c) => c.name)).toEqual(['bones', 'animations', 'surfaces']);
    expect(o.children![2]!.children!.map((c) => c.label)).toEqual(doc.surfaces.map((s) => s.name));
    const ins = unigineMeshCodec.inspect(doc, ['surfaces', 0])!;
    expect(ins.fields.find((f) => f.name === 'boundRadius')!.value).toBe(doc.surfaces[0]!.boundRadius);
    expect(unigineMeshCodec.inspect(doc, ['bones', 1])!.fields[0]!.value).toBe(doc.bones[1]!.name);
    expect(unigineMeshCodec.inspect(doc, ['surfaces', 0, 'morphTargets', 0])!.title).toMatch(/Morph target/);
  });
});

describe.skipIf(!hasCorpus)('Unigine edits', () => {
  it('renames surfaces, bones and morph targets and finds them after encode and decode', () => {
    for (const part of ['arm.mesh', 'cpp-api-samples__capsule']) {
      const doc = mesh(meshFile(part));
      if (doc.magic === 'mr02') throw new Error('unexpected');
      const cmds = [
        { op: 'set' as const, path: ['surfaces', 0, 'name'], value: 'renamed_surface' },
        { op: 'set' as const, path: ['bones', 1, 'name'], value: 'renamed bone' },
        { op: 'set' as const, path: ['surfaces', 0, 'morphTargets', 0, 'name'], value: 'base' },
      ];
      for (const c of cmds) {
        expect(unigineMeshCodec.checkEdit!(doc, c)).toBeUndefined();
        applyCommand(doc, c);
      }
      const back = mesh(unigineMeshCodec.encode(doc));
      if (back.magic === 'mr02') throw new Error('unexpected');
      expect(back.surfaces[0]!.name).toBe('renamed_surface');
      expect(back.bones[1]!.name).toBe('renamed bone');
      expect(back.surfaces[0]!.morphTargets[0]!.name).toBe('base');
      expect(back.surfaces[0]!.triangleIndices).toEqual(doc.surfaces[0]!.triangleIndices);
    }
  });

  it('refuses names the format cannot hold and fields that are derived', () => {
    const doc = mesh(meshFile('arm.mesh'));
    expect(unigineMeshCodec.checkEdit!(doc, { op: 'set', path: ['surfaces', 0, 'name'], value: 'a\0b' })).toBeTruthy();
    expect(unigineMeshCodec.checkEdit!(doc, { op: 'set', path: ['surfaces', 0, 'name'], value: 'ж' })).toBeTruthy();
    expect(unigineMeshCodec.checkEdit!(doc, { op: 'set', path: ['surfaces', 0, 'coordIndices'], value: new Uint32Array(3) })).toBeTruthy();
    expect(unigineMeshCodec.checkEdit!(doc, { op: 'set', path: ['bones', 0, 'parent'], value: 999 })).toBeTruthy();
  });

  it('recomputes surface bounds from the vertices on demand', () => {
    const doc = mesh(meshFile('sphere_00'));
    if (doc.magic === 'mr02') throw new Error('unexpected');
    const s = doc.surfaces[0]!;
    const v = s.morphTargets[0]!.vertices;
    applyCommand(doc, { op: 'set', path: ['surfaces', 0, 'boundMin'], value: [9, 9, 9] });
    applyCommand(doc, { op: 'set', path: ['surfaces', 0, 'boundRadius'], value: 0 });
    const cmd = recomputeSurfaceBoundsCommand(doc, 0);
    expect(unigineMeshCodec.checkEdit!(doc, cmd)).toBeUndefined();
    applyCommand(doc, cmd);
    const back = mesh(unigineMeshCodec.encode(doc));
    if (back.magic === 'mr02') throw new Error('unexpected');
    const b = back.surfaces[0]!;
    let minX = Infinity, maxZ = -Infinity;
    for (let i = 0; i < v.length; i += 3) { minX = Math.min(minX, v[i]!); maxZ = Math.max(maxZ, v[i + 2]!); }
    expect(b.boundMin[0]).toBe(minX);
    expect(b.boundMax[2]).toBe(maxZ);
    for (let i = 0; i < v.length; i += 3) {
      const d = Math.hypot(v[i]! - b.boundCenter[0]!, v[i + 1]! - b.boundCenter[1]!, v[i + 2]! - b.boundCenter[2]!);
      expect(d).toBeLessThanOrEqual(b.boundRadius * (1 + 1e-6));
    }
    expect(computeSurfaceBounds(b).boundRadius).toBe(b.boundRadius);
  });
});

describe('Unigine validate', () => {
  it('reports indices out of range, broken parents and weights on missing bones', () => {
    const fx = unigineFixtures().find((x) => x.name === 'skinned-morph.mesh')!;
    const doc = mesh(encodeFixture(fx));
    if (doc.magic === 'mr02') throw new Error('unexpected');
    doc.surfaces[0]!.coordIndices[4] = 5000;
    doc.bones[2]!.parent = 17;
    doc.surfaces[0]!.weightBones[0] = 40;
    const msgs = unigineMeshCodec.validate(doc).map((p) => `${p.where}: ${p.message}`);
    expect(msgs.some((m) => m.includes('coordIndices') && m.includes('5000'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('bones/2/parent'))).toBe(true);
    expect(msgs.some((m) => m.includes('weightBones'))).toBe(true);
  });
});

describe('Unigine encode refuses what the file cannot hold', () => {
  it('a UV set of odd length or colours not in fours, in every mesh version', () => {
    for (const name of ['skinned-morph.mesh', 'old.mesh', 'blocks.mesh']) {
      for (const broken of ['uv0', 'colors'] as const) {
        const doc = mesh(encodeFixture(unigineFixtures().find((x) => x.name === name)!));
        if (doc.magic === 'mr02') throw new Error('unexpected');
        const s = doc.surfaces[0]!;
        if (broken === 'uv0') s.uv0 = s.uv0.subarray(0, s.uv0.length - 1);
        else s.colors = Uint8Array.of(1, 2, 3);
        expect(() => unigineMeshCodec.encode(doc, { reuseRaw: false }), `${name} ${broken}`).toThrow(/UV sets need pairs and colours need 4 bytes/);
      }
    }
  });
});

describe.skipIf(!hasCorpus)('Unigine anim', () => {
  it('info and scene: one track per animated bone, named, decompressed with the box formulas', () => {
    const bytes = animFile('QBZ95_long.anim');
    const doc = unigineAnimCodec.decode(bytes) as UnigineAnim;
    const info = unigineAnimCodec.info(doc, bytes.length);
    expect(info.animations).toEqual([{ name: 'Take 001', frames: 189 }]);
    expect(info.bones.length).toBe(8);
    const clip = doc.animations[0]!;
    const scene = unigineAnimCodec.toScene(doc);
    const sc = scene.clips[0]!;
    expect(sc.frames).toBe(189);
    expect(sc.duration).toBeCloseTo(188 / 30);
    expect(sc.tracks.length).toBe(clip.bones.length);
    const t0 = sc.tracks[0]!;
    expect(t0.targetName).toBe(doc.bones[clip.bones[0]!]!.name);
    // Frame 0 stores every component; the first three stored values are bone 0's translation.
    for (let k = 0; k < 3; k++) {
      expect(t0.translations![k]).toBeCloseTo(clip.translationMin[k]! + clip.translationSize[k]! * (clip.translations[k]! / 65535), 5);
    }
    expect(t0.rotations![3]).toBeCloseTo(clip.rotations[3]! / 32767, 5);
    // Components a frame does not store repeat the previous frame.
    const b1 = 1;
    const flag1 = clip.frameFlags[clip.bones.length + b1]!;
    if (!(flag1 & 0x08)) expect(Array.from(sc.tracks[b1]!.rotations!.subarray(4, 8))).toEqual(Array.from(sc.tracks[b1]!.rotations!.subarray(0, 4)));
  });

  it('renames a bone and an animation', () => {
    const doc = unigineAnimCodec.decode(animFile('jump')) as UnigineAnim;
    applyCommand(doc, { op: 'set', path: ['bones', 0, 'name'], value: 'pelvis_root' });
    applyCommand(doc, { op: 'set', path: ['animations', 0, 'name'], value: 'hop' });
    const back = unigineAnimCodec.decode(unigineAnimCodec.encode(doc)) as UnigineAnim;
    expect(back.bones[0]!.name).toBe('pelvis_root');
    expect(back.animations[0]!.name).toBe('hop');
    expect(back.animations[0]!.translations).toEqual(doc.animations[0]!.translations);
  });
});

describe.skipIf(!hasCorpus)('unigine_mesh scene winding', () => {
  it('every corpus mesh maps to triangles wound counter-clockwise around their normals', () => {
    expectCounterClockwise(unigineMeshCodec, corpusFiles('unigine_mesh'));
  });
});

describe.skipIf(!hasCorpus)('Unigine bad input', () => {
  const files = [...corpusFiles('unigine_mesh'), ...corpusFiles('unigine_anim')].filter((f) => readBytes(f).length < 200_000);
  for (const file of files) {
    it(`${basename(file)}: truncations and bit flips fail only with DecodeError`, () => {
      const codec = file.endsWith('.anim') ? unigineAnimCodec : unigineMeshCodec;
      expect(mutationSweep(codec, readBytes(file), basename(file), 120)).toBeGreaterThan(0);
    });
  }

  it('names the offset and node path of the problem', () => {
    const bytes = meshFile('Box01').slice();
    const doc = mesh(bytes);
    if (doc.magic === 'mr02') throw new Error('unexpected');
    // The surface's triangle index count sits right before its last indices; make it claim more.
    const at = bytes.length - 4 - doc.surfaces[0]!.triangleIndices.length - 2;
    bytes[at] = 0xbf;
    bytes[at + 1] = 0x7f;
    let err: unknown;
    try {
      mesh(bytes);
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    expect((err as { offset: number }).offset).toBe(at);
    expect((err as { path: string }).path).toBe('surfaces[0]/triangleIndices');
  });
});

describe('Unigine morph targets in the scene', () => {
  it('each morph target beyond the base becomes a scene morph with absolute positions', () => {
    const fx = unigineFixtures().find((x) => x.name === 'skinned-morph.mesh')!;
    const doc = mesh(encodeFixture(fx));
    if (doc.magic === 'mr02') throw new Error('unexpected');
    const m = unigineMeshCodec.toScene(doc).meshes[0]!;
    expect(m.morphs!.map((x) => x.name)).toEqual(['morph_1', 'morph_2']);
    const src = doc.surfaces[0]!.morphTargets[2]!.vertices;
    const v = doc.surfaces[0]!.triangleIndices[4]!;
    const c = doc.surfaces[0]!.coordIndices[4]!;
    // Same Z-up to Y-up rotation as the base positions.
    expect([m.morphs![1]!.positions[v * 3], m.morphs![1]!.positions[v * 3 + 1], m.morphs![1]!.positions[v * 3 + 2]]).toEqual([src[c * 3], src[c * 3 + 2], -src[c * 3 + 1]!]);
    expect(m.morphs![1]!.positions).not.toEqual(m.positions);
  });
});
