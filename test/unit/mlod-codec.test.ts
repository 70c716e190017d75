import { describe, expect, it } from 'vitest';
import { applyCommand, type EditCommand } from '../../shared/model/commands.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import {
  checkMlodEdit, removePropertyCommand, replacePathCommand, replacePathsCommand, setFacePathCommand,
  setMassCommand, setPropertyCommand, setResolutionCommand, setSelectionMembershipCommand, totalMass,
} from '../../shared/formats/p3d/mlod/edits.ts';
import type { MlodDocument, MlodLod } from '../../shared/formats/p3d/mlod/types.ts';
import { selectionWeight, weightByte } from '../../shared/formats/p3d/mlod/types.ts';
import { usedPaths } from '../../shared/formats/p3d/mlod/views.ts';
import { allFormats, detectFormat } from '../../shared/formats/index.ts';
import { buildLod, buildMlod, buildSampleMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';
import { mutationSweep } from '../helpers/bad-input.ts';

const sampleBytes = (): Uint8Array => mlodCodec.encode(buildSampleMlod());

/** Signed volume of a triangle list (positive when faces wind counter-clockwise seen from outside). */
function signedVolume(pos: Float32Array, idx: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]! * 3, idx[t + 1]! * 3, idx[t + 2]! * 3];
    v += (pos[a]! * (pos[b + 1]! * pos[c + 2]! - pos[b + 2]! * pos[c + 1]!)
      + pos[a + 1]! * (pos[b + 2]! * pos[c]! - pos[b]! * pos[c + 2]!)
      + pos[a + 2]! * (pos[b]! * pos[c + 1]! - pos[b + 1]! * pos[c]!)) / 6;
  }
  return v;
}

describe('MLOD codec on generated files', () => {
  it('is registered and detected by its magic', () => {
    expect(allFormats().some((c) => c.id === 'p3d-mlod')).toBe(true);
    expect(detectFormat(sampleBytes(), 'x.p3d')?.id).toBe('p3d-mlod');
    expect(mlodCodec.probe(new TextEncoder().encode('ODOL\x07\0\0\0\0\0\0\0'))).toBe(false);
  });

  it('round-trips a document with P3DM and SP3X LODs and every typed tag', () => {
    const bytes = sampleBytes();
    const doc = expectRoundTrip(mlodCodec, bytes, 'sample.p3d') as MlodDocument;
    expect(doc.lods.map((l) => l.signature)).toEqual(['P3DM', 'SP3X', 'P3DM', 'P3DM']);
    expect(doc.lods[0]!.tags.map((t) => t.type)).toEqual(['selection', 'property', 'mass', 'uvset', 'sharpEdges', 'animation', 'raw', 'end']);
    expect(doc.lods[1]!.tags.map((t) => t.type)).toEqual(['selection', 'property', 'mass', 'sharpEdges', 'animation', 'raw', 'end']);
    const sel = doc.lods[0]!.tags[0]!;
    expect(sel.type === 'selection' && Array.from(sel.points)).toEqual([1, 128, 0, 0, 0, 0, 0, 0]);
    expect(doc.lods[1]!.faces.textures).toEqual(['data\\box_co.paa', 'data\\box_side_co.paa']);
  });

  it('reports info: LOD names, points, triangles (quads count twice), materials and textures', () => {
    const bytes = sampleBytes();
    const info = mlodCodec.info(mlodCodec.decode(bytes), bytes.length);
    expect(info.format).toBe('p3d-mlod');
    expect(info.meshes).toEqual([
      { name: '1.000', vertices: 8, triangles: 12 },
      { name: '2.000', vertices: 8, triangles: 12 },
      { name: 'Geometry', vertices: 8, triangles: 12 },
      { name: 'Memory', vertices: 1, triangles: 0 },
    ]);
    expect(info.materials).toEqual(['data\\box.rvmat']);
    expect(info.textures).toEqual(['data\\box_co.paa', 'data\\box_side_co.paa']);
    expect(info.bones).toEqual([]);
  });

  it('validates: a clean document has no errors, broken ones are reported', () => {
    expect(mlodCodec.validate(buildSampleMlod()).filter((p) => p.severity === 'error')).toEqual([]);
    const c = cube();
    const broken = buildMlod([
      buildLod({ resolution: 1, points: c.points, faces: [...c.faces, [0, 1, 99]] }),
      buildLod({ resolution: 1, points: c.points, faces: c.faces }),
    ]);
    broken.lods[0]!.tags.unshift({ type: 'raw', name: 'wheel', active: 1, data: new Uint8Array(5) });
    broken.lods[1]!.tags.unshift({ type: 'selection', name: 'door', active: 1, points: new Uint8Array(3), faces: new Uint8Array(6) });
    const problems = mlodCodec.validate(broken);
    const messages = problems.map((p) => `${p.severity}: ${p.message}`);
    expect(messages.some((m) => m.startsWith('error') && m.includes('past the 8 points'))).toBe(true);
    expect(messages.some((m) => m.startsWith('error') && m.includes('appears twice'))).toBe(true);
    expect(messages.some((m) => m.startsWith('error') && m.includes('selection "wheel" holds 5 bytes'))).toBe(true);
    expect(messages.some((m) => m.startsWith('error') && m.includes('selection "door" has 3 point'))).toBe(true);
    expect(messages.some((m) => m.startsWith('warning') && m.includes('no Geometry LOD'))).toBe(true);
    // Each problem names its place in the tree.
    expect(problems.every((p) => p.where.length > 0)).toBe(true);
  });

  it('maps the first visual LOD to a right-handed scene with outward faces and normals', () => {
    const doc = buildSampleMlod();
    const scene = mlodCodec.toScene(doc);
    expect(scene.nodes[0]!.name).toBe('1.000');
    const m = scene.meshes[0]!;
    expect(m.indices.length).toBe(36); // 6 quads, split in two
    expect(m.positions.length).toBe(24 * 3); // unwelded: one vertex per face corner
    expect(m.groups.length).toBe(2); // two texture/material pairs
    expect(scene.materials.map((x) => x.texture)).toEqual(['data\\box_co.paa', 'data\\box_side_co.paa']);
    expect(signedVolume(m.positions, m.indices)).toBeGreaterThan(0);
    // z is mirrored: point 4 (z = +0.5 in P3D) sits at z = -0.5.
    const src = doc.lods[0]!;
    const first = src.faces.pointIndex[0]!;
    expect(m.positions[2]).toBeCloseTo(-src.points[first * 3 + 2]!);
    // UVs are taken per face corner.
    expect(Array.from(m.uvs[0]!.subarray(0, 8))).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
    expect(mlodCodec.toScene(doc, { lod: 'Geometry' }).meshes[0]!.name).toBe('Geometry');
    expect(() => mlodCodec.toScene(doc, { lod: 'Roadway' })).toThrow(/no LOD named "Roadway"/);
    try { mlodCodec.toScene(doc, { lod: 'Roadway' }); } catch (e) { expect(isDecodeError(e)).toBe(true); }
  });

  it('groups faces by texture and material pair in first-use order, each group\'s faces in file order', () => {
    const c = cube(1);
    // Six quads and two triangles; the pairs interleave, and two table entries name the same texture.
    const faces = [...c.faces, [0, 1, 2], [4, 5, 6]];
    const textures = ['a.paa', 'b.paa', 'a.paa', '#(argb,8,8,3)color(1,0,0,1)', 'b.paa', 'a.paa', 'b.paa', 'a.paa'];
    const materials = ['', '', 'm.rvmat', '', '', 'm.rvmat', '', ''];
    const lod = buildLod({ resolution: 1, points: c.points, faces, textures, materials });
    // A second table entry spelling an existing texture: its faces join that texture's group.
    lod.faces.textures.push('b.paa');
    lod.faces.textureIndex[6] = lod.faces.textures.length - 1;
    const scene = mlodCodec.toScene(buildMlod([lod]));
    const m = scene.meshes[0]!;
    const pairs: string[] = [];
    const groupOf = faces.map((_, i) => {
      const k = `${textures[i]}|${materials[i]}`;
      if (!pairs.includes(k)) pairs.push(k);
      return pairs.indexOf(k);
    });
    expect(scene.materials.map((x) => `${x.texture ?? x.name}|${x.rvmat ?? ''}`)).toEqual(pairs.map((k) => (k.startsWith('#') ? `${k.split('|')[0]}|` : k)));
    // The reference layout: group after group, faces in file order, one vertex per face corner.
    const positions: number[] = [];
    const indices: number[] = [];
    const groups: { start: number; count: number; material: number }[] = [];
    for (let g = 0; g < pairs.length; g++) {
      const start = indices.length;
      faces.forEach((f, i) => {
        if (groupOf[i] !== g) return;
        const first = positions.length / 3;
        for (const p of f) positions.push(c.points[p * 3]!, c.points[p * 3 + 1]!, -c.points[p * 3 + 2]!);
        indices.push(first, first + 1, first + 2, ...(f.length === 4 ? [first, first + 2, first + 3] : []));
      });
      groups.push({ start, count: indices.length - start, material: g });
    }
    expect(m.groups).toEqual(groups);
    expect(Array.from(m.indices)).toEqual(indices);
    expect(Array.from(m.positions)).toEqual(positions.map((x) => Math.fround(x)));
  });

  it('outlines and inspects LODs, tables and tags', () => {
    const doc = buildSampleMlod();
    const o = mlodCodec.outline(doc);
    const lods = o.children![0]!;
    expect(lods.children!.map((c) => c.label)).toEqual(['Visual 1.000 (P3DM)', 'Visual 2.000 (SP3X)', 'Geometry (P3DM)', 'Memory (P3DM)']);
    const tags = lods.children![0]!.children!.find((c) => c.name === 'tags')!;
    expect(tags.children![1]!.label).toBe('class = building');
    const lodView = mlodCodec.inspect(doc, ['lods', 2])!;
    expect(lodView.fields.find((f) => f.name === 'resolution')!.note).toMatch(/Geometry/);
    expect(lodView.fields.find((f) => f.name === 'faceCount')!.value).toBe(6);
    const prop = mlodCodec.inspect(doc, ['lods', 0, 'tags', 1])!;
    expect(prop.fields.map((f) => [f.name, f.value])).toEqual([['active', 1], ['name', '#Property#'], ['key', 'class'], ['value', 'building']]);
    const point = mlodCodec.inspect(doc, ['lods', 0, 'points', 4])!; // float 4 = y of point 1
    expect(point.title).toBe('Point 1');
    expect(point.fields.map((f) => f.path[3])).toEqual([3, 4, 5, 1]);
    expect(point.fields[0]!.value).toBe(doc.lods[0]!.points[3]);
    const tex = mlodCodec.inspect(doc, ['lods', 0, 'faces', 'textures', 1])!;
    expect(tex.fields[0]!.value).toBe('data\\box_side_co.paa');
    expect(tex.fields[0]!.note).toMatch(/Used by 3 faces/);
  });

  it('converts selection weights both ways as the wiki describes', () => {
    expect(selectionWeight(0)).toBe(0);
    expect(selectionWeight(1)).toBe(1);
    expect(selectionWeight(2)).toBeCloseTo(254 / 255);
    expect(selectionWeight(255)).toBeCloseTo(1 / 255);
    for (const b of [1, 2, 50, 128, 255]) expect(weightByte(selectionWeight(b))).toBe(b);
    expect(weightByte(0)).toBe(0);
  });

  it('refuses edits that would break the file', () => {
    const doc = buildSampleMlod();
    const end = doc.lods[0]!.tags.length - 1;
    expect(checkMlodEdit(doc, { op: 'remove', path: ['lods', 0, 'tags', end] })).toMatch(/EndOfFile/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'tags', 1, 'value'], value: 'x'.repeat(65) })).toMatch(/64 bytes/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 1, 'faces', 'textures', 0], value: 'x'.repeat(33) })).toMatch(/32 bytes/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'tags', 0, 'points'], value: new Uint8Array(3) })).toMatch(/needs 8 bytes/);
    expect(checkMlodEdit(doc, setPropertyCommand(doc, 0, 'lodnoshadow', '1'))).toBeUndefined();
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'signature'], value: 'SP3X' })).toMatch(/fixed/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'tags', 0, 'points', 2], value: 300 })).toMatch(/0 to 255/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'tags', 0, 'points', 2], value: 7 })).toBeUndefined();
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'faces', 'pointIndex', 0], value: -1 })).toMatch(/whole number/);
    expect(checkMlodEdit(doc, { op: 'set', path: ['lods', 0, 'points', 99], value: 1 })).toMatch(/no such element/);
  });

  it('rejects garbage with DecodeErrors only', () => {
    const good = sampleBytes();
    expect(mutationSweep(mlodCodec, good, 'sample', 150)).toBeGreaterThan(0);
    const huge = good.slice();
    new DataView(huge.buffer).setUint32(24, 0x7fffffff, true); // point count of LOD 0
    expect(() => mlodCodec.decode(huge)).toThrow(/point count/);
  });
});

/** Decodes `bytes`, applies `cmd`, re-encodes and decodes again. */
function edit(bytes: Uint8Array, make: (doc: MlodDocument) => EditCommand | undefined): { before: MlodDocument; after: MlodDocument; out: Uint8Array } {
  const doc = decodeMlod(bytes);
  const cmd = make(doc);
  expect(cmd).toBeDefined();
  expect(checkMlodEdit(doc, cmd!)).toBeUndefined();
  applyCommand(doc, cmd!);
  const out = mlodCodec.encode(doc);
  return { before: decodeMlod(bytes), after: decodeMlod(out), out };
}

/** Every LOD except `changed` keeps its exact bytes. */
function expectOtherLodsIdentical(bytes: Uint8Array, before: MlodDocument, out: Uint8Array, after: MlodDocument, changed: number[]): void {
  expect(after.lods.length).toBe(before.lods.length);
  before.lods.forEach((l, i) => {
    if (changed.includes(i)) return;
    const a = bytes.subarray(l.$span![0], l.$span![1]);
    const b = out.subarray(after.lods[i]!.$span![0], after.lods[i]!.$span![1]);
    expect(Buffer.from(b).equals(Buffer.from(a)), `LOD ${i} changed`).toBe(true);
  });
}

const lodIndex = (doc: MlodDocument, pred: (l: MlodLod) => boolean): number => doc.lods.findIndex(pred);

describe.skipIf(!hasCorpus)('MLOD edits on real files', () => {
  const crate = (): Uint8Array => readBytes(corpusFiles('p3d_mlod').find((f) => f.includes('sample_2_crate'))!);
  const building = (): Uint8Array => readBytes(corpusFiles('p3d_mlod').find((f) => f.includes('sample_building'))!);

  it('changes a LOD resolution', () => {
    const bytes = crate();
    const { before, after, out } = edit(bytes, (d) => setResolutionCommand(d, 1, 'ShadowVolume 10'));
    expect(after.lods[1]!.resolution).toBe(10010);
    expect(before.lods[1]!.resolution).not.toBe(10010);
    expectOtherLodsIdentical(bytes, before, out, after, [1]);
    // Only the four resolution bytes differ.
    let diffs = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== out[i]) diffs++;
    expect(diffs).toBeGreaterThan(0);
    expect(diffs).toBeLessThanOrEqual(4);
  });

  it('adds, changes and removes named properties', () => {
    const bytes = crate();
    const geo = lodIndex(decodeMlod(bytes), (l) => l.resolution === Math.fround(1e13));
    const added = edit(bytes, (d) => setPropertyCommand(d, geo, 'lodnoshadow', '1'));
    const props = (doc: MlodDocument): [string, string][] => doc.lods[geo]!.tags.flatMap((t) => (t.type === 'property' ? [[t.key, t.value] as [string, string]] : []));
    expect(props(added.after)).toContainEqual(['lodnoshadow', '1']);
    expectOtherLodsIdentical(bytes, added.before, added.out, added.after, [geo]);

    const changed = edit(added.out, (d) => setPropertyCommand(d, geo, 'LODNOSHADOW', '0'));
    expect(props(changed.after).filter(([k]) => k === 'lodnoshadow')).toEqual([['lodnoshadow', '0']]);

    const removed = edit(changed.out, (d) => removePropertyCommand(d, geo, 'lodnoshadow'));
    expect(props(removed.after).some(([k]) => k === 'lodnoshadow')).toBe(false);
    // Back to the original file exactly.
    expect(Buffer.from(removed.out).equals(Buffer.from(bytes))).toBe(true);
  });

  it('replaces a texture path in every LOD as one batch, and one face at a time', () => {
    const bytes = building();
    const doc = decodeMlod(bytes);
    const from = usedPaths(doc).textures.find((t) => !t.startsWith('#'))!;
    expect(from).toBeDefined();
    const usersBefore = doc.lods.map((l) => l.faces.textureIndex.filter((t) => l.faces.textures[t] === from).length);
    const to = 'dz\\replaced\\texture_co.paa';
    const { before, after, out } = edit(bytes, (d) => replacePathCommand(d, from.toUpperCase(), to));
    const usersAfter = after.lods.map((l) => l.faces.textureIndex.filter((t) => l.faces.textures[t] === to).length);
    expect(usersAfter).toEqual(usersBefore);
    expect(usedPaths(after).textures).not.toContain(from);
    const touched = usersBefore.flatMap((n, i) => (n > 0 ? [i] : []));
    expectOtherLodsIdentical(bytes, before, out, after, touched);

    const single = edit(bytes, (d) => setFacePathCommand(d, 0, [0, 2], 'dz\\one_face_co.paa'));
    const l0 = single.after.lods[0]!.faces;
    expect(l0.textures[l0.textureIndex[0]!]).toBe('dz\\one_face_co.paa');
    expect(l0.textures[l0.textureIndex[2]!]).toBe('dz\\one_face_co.paa');
    expect(l0.textures[l0.textureIndex[1]!]).toBe(before.lods[0]!.faces.textures[before.lods[0]!.faces.textureIndex[1]!]);
    expectOtherLodsIdentical(bytes, single.before, single.out, single.after, [0]);

    const materialFrom = mlodCodec.info(doc, bytes.length).materials[0]!;
    const mats = edit(bytes, (d) => replacePathsCommand(d, { [materialFrom]: 'dz\\new.rvmat' }, { kind: 'material' }));
    expect(mlodCodec.info(mats.after, mats.out.length).materials).toContain('dz\\new.rvmat');
    expect(mlodCodec.info(mats.after, mats.out.length).materials).not.toContain(materialFrom);
  });

  it('edits named selection membership', () => {
    const bytes = crate();
    const doc = decodeMlod(bytes);
    const li = doc.lods.findIndex((l) => l.tags.some((t) => t.type === 'selection' && !t.name.startsWith('#')));
    const sel = doc.lods[li]!.tags.find((t) => t.type === 'selection' && !t.name.startsWith('#'))!;
    const outside = sel.type === 'selection' ? sel.points.findIndex((b) => b === 0) : -1;
    expect(outside).toBeGreaterThanOrEqual(0);
    const { before, after, out } = edit(bytes, (d) => setSelectionMembershipCommand(d, li, sel.name, { points: [outside], weight: 0.5, faces: [0] }));
    const now = after.lods[li]!.tags.find((t) => t.name === sel.name)!;
    expect(now.type === 'selection' && selectionWeight(now.points[outside]!)).toBeCloseTo(0.5, 2);
    expect(now.type === 'selection' && now.faces[0]).toBe(1);
    expectOtherLodsIdentical(bytes, before, out, after, [li]);

    const created = edit(bytes, (d) => setSelectionMembershipCommand(d, li, 'new_selection', { points: [0, 1] }));
    const nt = created.after.lods[li]!.tags.find((t) => t.name === 'new_selection')!;
    expect(nt.type === 'selection' && Array.from(nt.points.subarray(0, 3))).toEqual([1, 1, 0]);
    expect(created.after.lods[li]!.tags.at(-1)!.type).toBe('end');
  });

  it('maps real closed meshes to outward-facing scene geometry', () => {
    const doc = decodeMlod(building());
    for (const lod of ['0.000', 'Geometry']) {
      const m = mlodCodec.toScene(doc, { lod }).meshes[0]!;
      expect(signedVolume(m.positions, m.indices), lod).toBeGreaterThan(1);
      // Normals agree with the faces they belong to (first corner of each triangle).
      let agree = 0;
      for (let t = 0; t < m.indices.length; t += 3) {
        const [a, b, c] = [m.indices[t]! * 3, m.indices[t + 1]! * 3, m.indices[t + 2]! * 3];
        const P = m.positions;
        const u = [P[b]! - P[a]!, P[b + 1]! - P[a + 1]!, P[b + 2]! - P[a + 2]!];
        const w = [P[c]! - P[a]!, P[c + 1]! - P[a + 1]!, P[c + 2]! - P[a + 2]!];
        const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
        if (n[0]! * m.normals![a]! + n[1]! * m.normals![a + 1]! + n[2]! * m.normals![a + 2]! > 0) agree++;
      }
      expect(agree / (m.indices.length / 3), lod).toBeGreaterThan(0.95);
    }
  });

  it('sets the mass of the Geometry LOD', () => {
    const bytes = crate();
    const doc = decodeMlod(bytes);
    const geo = lodIndex(doc, (l) => l.resolution === Math.fround(1e13));
    const n = doc.lods[geo]!.pointFlags.length;
    const { before, after, out } = edit(bytes, (d) => setMassCommand(d, geo, 12.5));
    expect(totalMass(after.lods[geo]!)).toBeCloseTo(12.5 * n, 3);
    expect(totalMass(before.lods[geo]!)).not.toBeCloseTo(12.5 * n, 3);
    expectOtherLodsIdentical(bytes, before, out, after, [geo]);
  });
});
