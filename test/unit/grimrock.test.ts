import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFixture, grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { grimrockAnimationCodec, grimrockModelCodec, removeNodeCommand } from '../../shared/formats/grimrock/index.ts';
import type { GrimrockAnimation, GrimrockModel } from '../../shared/formats/grimrock/schema.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { multiply } from '../../shared/scene/mat4.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { mutationSweep } from '../helpers/bad-input.ts';
import { expectCounterClockwise } from '../helpers/winding.ts';

const model = (bytes: Uint8Array): GrimrockModel => grimrockModelCodec.decode(bytes);
const corpusModel = (part: string): Uint8Array => readBytes(corpusFiles('grimrock_model').find((f) => f.includes(part))!);
const corpusAnim = (part: string): Uint8Array => readBytes(corpusFiles('grimrock_animation').find((f) => f.includes(part))!);

describe.skipIf(!hasCorpus)('Grimrock model views on real files', () => {
  it('info lists one mesh per mesh node, the bone nodes and the distinct materials', () => {
    const bytes = corpusModel('skeleton_warrior_axe.model');
    const doc = model(bytes);
    const info = grimrockModelCodec.info(doc, bytes.length);
    const meshNodes = doc.nodes.filter((n) => n.mesh);
    expect(info.meshes.length).toBe(meshNodes.length);
    expect(info.meshes[0]!.vertices).toBe(meshNodes[0]!.mesh!.meshData.numVertices);
    expect(info.meshes[0]!.triangles).toBe(meshNodes[0]!.mesh!.meshData.indices.length / 3);
    const boneNames = new Set(meshNodes.flatMap((n) => n.mesh!.bones.map((b) => doc.nodes[b.boneNodeIndex]!.name)));
    expect(new Set(info.bones)).toEqual(boneNames);
    expect(info.bones.length).toBeGreaterThan(5);
    const materials = new Set(meshNodes.flatMap((n) => n.mesh!.meshData.segments.map((s) => s.material)));
    expect(info.materials.sort()).toEqual([...materials].sort());
    expect(info.animations).toEqual([]);
  });

  it('toScene gives meshes with valid indices, a skeleton with inverse binds and skins', () => {
    const doc = model(corpusModel('skeleton_warrior_axe.model'));
    const scene = grimrockModelCodec.toScene(doc);
    expect(scene.nodes.length).toBe(doc.nodes.length);
    expect(scene.nodes.map((n) => n.parent)).toEqual(doc.nodes.map((n) => n.parent));
    const mesh = scene.meshes[0]!;
    const nv = mesh.positions.length / 3;
    expect(mesh.indices.every((i) => i < nv)).toBe(true);
    expect(mesh.normals?.length).toBe(nv * 3);
    expect(mesh.uvs.length).toBeGreaterThan(0);
    expect(mesh.skin).toBeDefined();
    const bones = scene.skeleton!.bones;
    expect(mesh.skin!.joints.every((j) => j < bones.length)).toBe(true);
    expect(bones.every((b) => b.inverseBind?.length === 16)).toBe(true);
    // Z is mirrored into the right-handed scene (the body's node is at the origin).
    const bodyNode = doc.nodes.findIndex((n) => n.name === 'skeleton_warrior_mesh');
    const body = scene.meshes[scene.nodes[bodyNode]!.mesh!]!;
    const bodySrc = doc.nodes[bodyNode]!.mesh!.meshData.vertexArrays[0]!.data as Float32Array;
    expect(body.positions[2]).toBeCloseTo(-bodySrc[2]!);
    expect(body.positions[1]).toBeCloseTo(bodySrc[1]!);
    // A skinned entity's vertices are in model space: the axe (a child of hand_r) placed by its
    // node's world transform lands where the file has it, at the hand.
    const axeNode = doc.nodes.findIndex((n) => n.name === 'great_axe');
    expect(scene.nodes[axeNode]!.mesh).toBe(0);
    const src = doc.nodes[axeNode]!.mesh!.meshData.vertexArrays[0]!.data as Float32Array;
    let w = scene.nodes[axeNode]!.matrix;
    for (let p = scene.nodes[axeNode]!.parent; p >= 0; p = scene.nodes[p]!.parent) w = multiply(scene.nodes[p]!.matrix, w);
    for (const v of [0, 7, nv - 1]) {
      const x = mesh.positions[v * 3]!, y = mesh.positions[v * 3 + 1]!, z = mesh.positions[v * 3 + 2]!;
      expect(w[0]! * x + w[4]! * y + w[8]! * z + w[12]!).toBeCloseTo(src[v * 3]!, 4);
      expect(w[1]! * x + w[5]! * y + w[9]! * z + w[13]!).toBeCloseTo(src[v * 3 + 1]!, 4);
      expect(w[2]! * x + w[6]! * y + w[10]! * z + w[14]!).toBeCloseTo(-src[v * 3 + 2]!, 4);
    }
    expect(mesh.groups.reduce((s, g) => s + g.count, 0)).toBeLessThanOrEqual(mesh.indices.length);
  });

  it('outline covers the file and inspect describes nodes, segments and bones', () => {
    const bytes = corpusModel('eob_button_red');
    const doc = model(bytes);
    const o = grimrockModelCodec.outline(doc);
    expect(o.span).toEqual([0, bytes.length]);
    const nodes = o.children![0]!.children!;
    expect(nodes.length).toBe(doc.nodes.length);
    expect(nodes[1]!.span).toEqual(doc.nodes[1]!.$span);
    const meshNode = doc.nodes.findIndex((n) => n.mesh);
    const ins = grimrockModelCodec.inspect(doc, ['nodes', meshNode])!;
    expect(ins.fields.map((f) => f.name)).toEqual(['name', 'localToParent', 'parent', 'type']);
    expect(ins.fields[0]!.value).toBe(doc.nodes[meshNode]!.name);
    expect(ins.fields[0]!.span![0]).toBe(doc.nodes[meshNode]!.$span![0]);
    const seg = grimrockModelCodec.inspect(doc, ['nodes', meshNode, 'mesh', 'meshData', 'segments', 0])!;
    expect(seg.fields.find((f) => f.name === 'material')!.value).toBe(doc.nodes[meshNode]!.mesh!.meshData.segments[0]!.material);
  });
});

describe.skipIf(!hasCorpus)('Grimrock edits on real files', () => {
  it('renames a node, moves it, renames a segment material and turns the shadow off', () => {
    const bytes = corpusModel('door_metal');
    const doc = model(bytes);
    const i = doc.nodes.findIndex((n) => n.mesh);
    const cmds = [
      { op: 'set' as const, path: ['nodes', i, 'name'], value: 'renamed_node_with_a_longer_name' },
      { op: 'set' as const, path: ['nodes', i, 'localToParent'], value: [1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4] },
      { op: 'set' as const, path: ['nodes', i, 'mesh', 'meshData', 'segments', 0, 'material'], value: 'my_material' },
      { op: 'set' as const, path: ['nodes', i, 'mesh', 'castShadow'], value: 0 },
    ];
    for (const c of cmds) {
      expect(grimrockModelCodec.checkEdit!(doc, c)).toBeUndefined();
      applyCommand(doc, c);
    }
    const out = grimrockModelCodec.encode(doc);
    const back = model(out);
    expect(back.nodes[i]!.name).toBe('renamed_node_with_a_longer_name');
    expect(back.nodes[i]!.localToParent).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4]);
    expect(back.nodes[i]!.mesh!.meshData.segments[0]!.material).toBe('my_material');
    expect(back.nodes[i]!.mesh!.castShadow).toBe(0);
    const orig = model(bytes);
    expect(out.length - bytes.length).toBe('renamed_node_with_a_longer_name'.length - orig.nodes[i]!.name.length + 'my_material'.length - orig.nodes[i]!.mesh!.meshData.segments[0]!.material.length);
    // Untouched nodes are byte-identical.
    expect(back.nodes[0]!.$raw).toEqual(orig.nodes[0]!.$raw);
  });

  it('refuses edits that would break the file', () => {
    const doc = model(corpusModel('door_metal'));
    expect(grimrockModelCodec.checkEdit!(doc, { op: 'set', path: ['nodes', 1, 'parent'], value: 99 })).toBeTruthy();
    expect(grimrockModelCodec.checkEdit!(doc, { op: 'set', path: ['nodes', 1, 'mesh', 'castShadow'], value: 300 })).toBeTruthy();
    expect(grimrockModelCodec.checkEdit!(doc, { op: 'set', path: ['nodes', 1, 'type'], value: 5 })).toBeTruthy();
    expect(grimrockModelCodec.checkEdit!(doc, { op: 'remove', path: ['nodes', 0] })).toBeTruthy();
  });

  it('adds a node through create and finds it after encode and decode', () => {
    const doc = model(corpusModel('coin_gold'));
    const n = doc.nodes.length;
    const cmd = grimrockModelCodec.create!(doc, ['nodes', 1], 'node')!;
    expect(grimrockModelCodec.checkEdit!(doc, cmd)).toBeUndefined();
    applyCommand(doc, cmd);
    applyCommand(doc, { op: 'set', path: ['nodes', n, 'name'], value: 'attach_point' });
    const back = model(grimrockModelCodec.encode(doc));
    expect(back.nodes.length).toBe(n + 1);
    expect(back.nodes[n]!.name).toBe('attach_point');
    expect(back.nodes[n]!.parent).toBe(1);
    expect(back.nodes[n]!.mesh).toBeUndefined();
    expect(grimrockModelCodec.validate(back).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('removes a node and keeps parent and bone indices consistent', () => {
    const doc = model(corpusModel('drainage_tentacles.model'));
    const bones = new Set(doc.nodes.flatMap((n) => n.mesh?.bones.map((b) => b.boneNodeIndex) ?? []));
    // A node that is not a bone, has children, and sits before other nodes.
    const victim = doc.nodes.findIndex((n, i) => i > 0 && !bones.has(i) && doc.nodes.some((c) => c.parent === i) && i < doc.nodes.length - 1);
    expect(victim).toBeGreaterThan(0);
    const names = doc.nodes.map((n) => n.name);
    const parentName = (d: GrimrockModel, i: number): string | undefined => d.nodes[d.nodes[i]!.parent]?.name;
    const expectedParents = new Map(doc.nodes.map((n, i) => [n.name, n.parent === victim ? parentName(doc, victim) : parentName(doc, i)]));
    const boneNames = doc.nodes.map((n) => n.mesh?.bones.map((b) => names[b.boneNodeIndex]));
    const cmd = removeNodeCommand(doc, victim);
    expect(typeof cmd).not.toBe('string');
    if (typeof cmd === 'string') return;
    expect(grimrockModelCodec.checkEdit!(doc, cmd)).toBeUndefined();
    applyCommand(doc, cmd);
    const back = model(grimrockModelCodec.encode(doc));
    expect(back.nodes.length).toBe(names.length - 1);
    expect(back.nodes.map((n) => n.name)).toEqual(names.filter((_, i) => i !== victim));
    for (let i = 0; i < back.nodes.length; i++) expect(parentName(back, i)).toBe(expectedParents.get(back.nodes[i]!.name));
    const backBones = back.nodes.map((n) => n.mesh?.bones.map((b) => back.nodes[b.boneNodeIndex]!.name));
    expect(backBones).toEqual(boneNames.filter((_, i) => i !== victim));
    expect(grimrockModelCodec.validate(back).filter((p) => p.severity === 'error')).toEqual([]);
    expect(removeNodeCommand(back, [...bones][0]! > victim ? [...bones][0]! - 1 : [...bones][0]!)).toMatch(/bone/);
  });
});

describe('Grimrock validate', () => {
  it('reports dangling parents, indices out of range and bad segment ranges', () => {
    const fx = grimrockFixtures().find((x) => x.name === 'all-float.model')!;
    const doc = model(encodeFixture(fx));
    doc.nodes[2]!.parent = 42;
    const md = doc.nodes[3]!.mesh!.meshData;
    md.indices[5] = 999;
    md.segments[0]!.count = 1000;
    doc.nodes[3]!.mesh!.bones[0]!.boneNodeIndex = -3;
    const msgs = grimrockModelCodec.validate(doc).map((p) => `${p.where}: ${p.message}`);
    expect(msgs.some((m) => m.startsWith('nodes/2/parent') && m.includes('42'))).toBe(true);
    expect(msgs.some((m) => m.includes('indices') && m.includes('999'))).toBe(true);
    expect(msgs.some((m) => m.includes('segments/0'))).toBe(true);
    expect(msgs.some((m) => m.includes('boneNodeIndex'))).toBe(true);
  });
});

describe.skipIf(!hasCorpus)('Grimrock animation views', () => {
  it('version 2 items hold separate key lists; the scene holds constant channels and binds by name', () => {
    const bytes = corpusAnim('drainage_tentacles_hide');
    const doc = grimrockAnimationCodec.decode(bytes) as GrimrockAnimation;
    expect(doc.version).toBe(2);
    const item = doc.items[1]!;
    expect(item.positions.length / 3).toBe(doc.numFrames);
    expect(item.scales.length / 3).toBe(1);
    const info = grimrockAnimationCodec.info(doc, bytes.length);
    expect(info.animations).toEqual([{ name: doc.name, frames: doc.numFrames }]);
    expect(info.bones).toEqual(doc.items.map((i) => i.node));
    const scene = grimrockAnimationCodec.toScene(doc);
    const clip = scene.clips[0]!;
    expect(clip.frames).toBe(doc.numFrames);
    expect(clip.duration).toBeCloseTo((doc.numFrames - 1) / doc.framesPerSecond);
    const track = clip.tracks[1]!;
    expect(track.targetName).toBe(item.node);
    expect(track.times.length).toBe(doc.numFrames);
    expect(track.times[1]).toBeCloseTo(1 / doc.framesPerSecond);
    expect(track.scales!.length).toBe(doc.numFrames * 3);
    expect(track.rotations![3]).toBeCloseTo(item.rotations[3]!);
    expect(track.translations![2]).toBeCloseTo(-item.positions[2]!);
  });

  it('version 1 keys are de-interleaved per channel', () => {
    const bytes = corpusAnim('skeleton_warrior_axe_idle');
    const doc = grimrockAnimationCodec.decode(bytes) as GrimrockAnimation;
    expect(doc.version).toBe(1);
    const it0 = doc.items[0]!;
    // The first key's position, rotation and scale are the first 40 bytes after the item name and count.
    const start = it0.$span![0] + 4 + it0.node.length + 4;
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(it0.positions[0]).toBe(dv.getFloat32(start, true));
    expect(it0.rotations[0]).toBe(dv.getFloat32(start + 12, true));
    expect(it0.scales[0]).toBe(dv.getFloat32(start + 28, true));
    expect(it0.positions[3]).toBe(dv.getFloat32(start + 40, true));
  });

  it('renames an item and sets the frame rate', () => {
    const doc = grimrockAnimationCodec.decode(corpusAnim('swingdoor_open')) as GrimrockAnimation;
    const c1 = { op: 'set' as const, path: ['items', 0, 'node'], value: 'door_left' };
    const c2 = { op: 'set' as const, path: ['framesPerSecond'], value: 24 };
    expect(grimrockAnimationCodec.checkEdit!(doc, c1)).toBeUndefined();
    applyCommand(doc, c1);
    applyCommand(doc, c2);
    const back = grimrockAnimationCodec.decode(grimrockAnimationCodec.encode(doc)) as GrimrockAnimation;
    expect(back.items[0]!.node).toBe('door_left');
    expect(back.framesPerSecond).toBe(24);
  });
});

describe.skipIf(!hasCorpus)('grimrock_model scene winding', () => {
  it('every corpus mesh maps to triangles wound counter-clockwise around their normals', () => {
    expectCounterClockwise(grimrockModelCodec, corpusFiles('grimrock_model'));
  });
});

describe.skipIf(!hasCorpus)('Grimrock bad input', () => {
  const small = [
    ...corpusFiles('grimrock_model').filter((f) => readBytes(f).length < 200_000),
    ...corpusFiles('grimrock_animation'),
  ];
  for (const file of small) {
    it(`${basename(file)}: truncations and bit flips fail only with DecodeError`, () => {
      const codec = file.endsWith('.model') ? grimrockModelCodec : grimrockAnimationCodec;
      const failures = mutationSweep(codec, readBytes(file), basename(file), 150);
      expect(failures).toBeGreaterThan(0);
    });
  }

  it('names the offset and node path of the problem', () => {
    const bytes = corpusModel('door_metal').slice();
    const doc = model(bytes);
    const i = doc.nodes.findIndex((n) => n.mesh);
    // Corrupt the index count of the mesh so it claims more than the file holds.
    const md = doc.nodes[i]!.mesh!.meshData;
    const at = md.$span![0] + 12 + md.vertexArrays.reduce((s, a) => s + 12 + a.data.byteLength, 0);
    new DataView(bytes.buffer).setInt32(at, 0x7fffffff, true);
    let err: unknown;
    try {
      model(bytes);
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    const de = err as { offset: number; path: string };
    expect(de.offset).toBe(at);
    expect(de.path).toBe(`nodes[${i}]/mesh/meshData/indices`);
  });
});

describe('Grimrock scene on odd documents', () => {
  it('a mesh that declares vertices but stores no arrays maps to an empty mesh, not a huge one', () => {
    const fx = grimrockFixtures().find((x) => x.name === 'hierarchy.model')!;
    const bytes = encodeFixture(fx).slice();
    const doc = model(bytes);
    const md = doc.nodes.find((n) => n.mesh)!.mesh!.meshData;
    // numVertices sits right after "MESH" and the version.
    new DataView(bytes.buffer).setInt32(md.$span![0] + 8, 0x7fffffff, true);
    const odd = model(bytes);
    expect(odd.nodes.find((n) => n.mesh)!.mesh!.meshData.numVertices).toBe(0x7fffffff);
    const scene = grimrockModelCodec.toScene(odd);
    expect(scene.meshes[0]!.positions.length).toBe(0);
  });
});
