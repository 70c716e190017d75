/**
 * The P3D editors' views and edits (shared/formats/p3d/editor.ts) through the document service:
 * face-group paths, proxies and named selections of MLOD and ODOL, each edit saved, re-opened
 * and checked, with every other LOD byte for byte as it was and undo restoring the exact file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DocumentService } from '../../main/documents/document-service.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { Highlight, P3dFaceGroup, P3dLodEntry, P3dProxy, P3dSelection } from '../../shared/model/editor-query.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/codec.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { parseResolutionName, resolutionLabel } from '../../shared/formats/p3d/resolution.ts';
import { p3dQuery } from '../../shared/formats/p3d/editor.ts';
import { buildSampleMlod, withProxy } from '../../scripts/fixtures/mlod.ts';
import { buildOdolDocument } from '../../scripts/fixtures/odol.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-p3d-ed-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function openCopy(bytes: Uint8Array | string, name: string): Promise<{ svc: DocumentService; id: string; file: string; original: Uint8Array }> {
  const file = join(dir, name);
  if (typeof bytes === 'string') await copyFile(bytes, file);
  else await writeFile(file, bytes);
  const svc = new DocumentService({ configDir: join(dir, 'config') });
  const { id } = await svc.open(file);
  return { svc, id, file, original: new Uint8Array(await readFile(file)) };
}

/** The bytes of every LOD of a P3D file, by its span. */
function lodBytes(bytes: Uint8Array): Uint8Array[] {
  const doc = (bytes[0] === 0x4d ? mlodCodec : odolCodec).decode(bytes) as { lods: { $span?: [number, number] }[] };
  return doc.lods.map((l) => bytes.slice(l.$span![0], l.$span![1]));
}

async function planAndApply(svc: DocumentService, id: string, q: Parameters<DocumentService['query']>[1]): Promise<void> {
  const cmd = svc.query(id, q) as EditCommand;
  expect(cmd, `plan for ${q.kind}`).toBeTruthy();
  await svc.edit(id, cmd);
}

describe('LOD names', () => {
  it('lists LODs the way modders say them, and reads every label back', () => {
    const names = [1, 2.5, 1e13, 1e15, 7e15, 6e15, 1e4, 10010, 2e4 + 2, 1.1e3, 2e15, 5e15].map((v) => resolutionLabel(Math.fround(v)));
    expect(names).toEqual(['Visual 1.000', 'Visual 2.500', 'Geometry', 'Memory', 'Fire Geometry', 'View Geometry', 'Shadow Volume 0', 'Shadow Volume 10', 'Edit 2', 'View Pilot', 'Land Contact', 'Hit Points']);
    for (const v of [1, 2.5, 1e13, 7e15, 6e15, 1e4, 10010, 1.8e16, 1.6e16]) expect(parseResolutionName(resolutionLabel(Math.fround(v)))).toBe(Math.fround(v));
  });
});

describe('MLOD face groups', () => {
  it('changes the texture of one face group only; saves, re-opens, undo restores the file', async () => {
    const { svc, id, file, original } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const lods = svc.query(id, { kind: 'p3d-lods' }) as P3dLodEntry[];
    expect(lods.map((l) => l.label)).toEqual(['Visual 1.000', 'Visual 2.000', 'Geometry', 'Memory']);
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    expect(groups.map((g) => [g.texture, g.material, g.faces])).toEqual([['data\\box_co.paa', 'data\\box.rvmat', 3], ['data\\box_side_co.paa', 'data\\box.rvmat', 3]]);
    await planAndApply(svc, id, { kind: 'p3d-group-path', lod: 0, group: groups[1]!.key, field: 'texture', value: 'data\\new_co.paa' });
    await svc.save(id);
    const saved = new Uint8Array(await readFile(file));
    const doc = mlodCodec.decode(saved) as MlodDocument;
    const f = doc.lods[0]!.faces;
    expect(Array.from(f.textureIndex, (t) => f.textures[t])).toEqual(['data\\box_co.paa', 'data\\box_co.paa', 'data\\box_co.paa', 'data\\new_co.paa', 'data\\new_co.paa', 'data\\new_co.paa']);
    const before = lodBytes(original);
    const after = lodBytes(saved);
    for (let i = 1; i < before.length; i++) expect(after[i], `LOD ${i}`).toEqual(before[i]);
    // The only difference: 3 faces' paths grew by the length difference.
    expect(saved.length - original.length).toBe(3 * ('data\\new_co.paa'.length - 'data\\box_side_co.paa'.length));
    await svc.undo(id);
    await svc.save(id);
    expect(new Uint8Array(await readFile(file))).toEqual(original);
  });

  it('marks the faces of one group in the viewport (MLOD and ODOL)', async () => {
    const { svc, id } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    const h = svc.query(id, { kind: 'p3d-group-highlight', lod: 0, group: groups[1]!.key }) as Highlight;
    // Three quads: six triangles of three corners; the cube's faces 3..5 (z mirrored).
    expect(h.triangles!.length).toBe(6 * 9);
    const o = await openCopy(odolCodec.encode(buildOdolDocument({ version: 50, size: 2 })), 'grid.p3d');
    const og = o.svc.query(o.id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    const oh = o.svc.query(o.id, { kind: 'p3d-group-highlight', lod: 0, group: og[0]!.key }) as Highlight;
    expect(oh.triangles!.length / 9).toBe(og[0]!.faces * 2);
  });

  it('gives one group a material another group uses without touching that group', async () => {
    const { svc, id } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    await planAndApply(svc, id, { kind: 'p3d-group-path', lod: 0, group: groups[0]!.key, field: 'material', value: 'data\\glass.rvmat' });
    const next = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    expect(next.map((g) => [g.texture, g.material, g.faces])).toEqual([['data\\box_co.paa', 'data\\glass.rvmat', 3], ['data\\box_side_co.paa', 'data\\box.rvmat', 3]]);
  });

  it('refuses a material for an SP3X LOD (it stores none)', async () => {
    const { svc, id } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 1 }) as P3dFaceGroup[];
    expect(groups.every((g) => !g.materialEditable)).toBe(true);
    expect(() => svc.query(id, { kind: 'p3d-group-path', lod: 1, group: groups[0]!.key, field: 'material', value: 'x.rvmat' })).toThrow(/SP3X/);
  });

  it.skipIf(!hasCorpus)('edits a texture path in a real MLOD: saved, re-decoded with the new path, other LODs byte-identical', async () => {
    const src = join(corpusDir, 'p3d_mlod', 'MrClock8163__Arma3ObjectBuilder__sample_2_crate.p3d');
    const { svc, id, file, original } = await openCopy(src, basename(src));
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    const g = groups.find((x) => x.texture !== '')!;
    expect(g).toBeTruthy();
    await planAndApply(svc, id, { kind: 'p3d-group-path', lod: 0, group: g.key, field: 'texture', value: 'mod\\data\\crate_edit_co.paa' });
    await svc.save(id);
    const saved = new Uint8Array(await readFile(file));
    const again = (svc.query((await svc.open(file)).id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[]);
    expect(again.find((x) => x.texture === 'mod\\data\\crate_edit_co.paa')?.faces).toBe(g.faces);
    const before = lodBytes(original);
    const after = lodBytes(saved);
    for (let i = 1; i < before.length; i++) expect(after[i], `LOD ${i}`).toEqual(before[i]);
    await svc.undo(id);
    await svc.save(id);
    expect(new Uint8Array(await readFile(file))).toEqual(original);
  });
});

describe('ODOL face groups', () => {
  it.skipIf(!hasCorpus)('edits a texture path in a real ODOL v73: saved, re-decoded with the new path, other LODs byte-identical', async () => {
    const src = join(corpusDir, 'p3d_odol', 'Jack-Colt__Overthrow-Mods__Kestrel4500.p3d');
    const { svc, id, file, original } = await openCopy(src, basename(src));
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    const g = groups.find((x) => x.textureEditable && x.texture)!;
    expect(g).toBeTruthy();
    const value = 'mod\\kestrel\\edited_co.paa';
    await planAndApply(svc, id, { kind: 'p3d-group-path', lod: 0, group: g.key, field: 'texture', value });
    await planAndApply(svc, id, { kind: 'p3d-group-path', lod: 0, group: g.key, field: 'material', value: 'mod\\kestrel\\edited.rvmat' });
    await svc.save(id);
    const saved = new Uint8Array(await readFile(file));
    const doc = odolCodec.decode(saved) as OdolV4xDocument;
    const sec = doc.lods[0]!.sections[Number(g.key.slice(1))]!;
    expect(doc.lods[0]!.textures[Number(sec.textureIndex)]).toBe(value);
    expect(doc.lods[0]!.materials[sec.materialIndex]!.name).toBe('mod\\kestrel\\edited.rvmat');
    const before = lodBytes(original);
    const after = lodBytes(saved);
    for (let i = 1; i < before.length; i++) expect(after[i], `LOD ${i}`).toEqual(before[i]);
    await svc.undo(id);
    await svc.undo(id);
    await svc.save(id);
    expect(new Uint8Array(await readFile(file))).toEqual(original);
  });

  it('says how many sections share a stored path', async () => {
    const doc = buildOdolDocument({ version: 50 });
    const lod = doc.lods[0]!;
    lod.sections.push({ ...lod.sections[0]!, faceLowerIndex: lod.sections[0]!.faceUpperIndex });
    const { svc, id } = await openCopy(odolCodec.encode(doc), 'grid.p3d');
    const groups = svc.query(id, { kind: 'p3d-groups', lod: 0 }) as P3dFaceGroup[];
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ textureShared: 1, materialShared: 1, texture: 'a3\\data_f\\grid_co.paa', material: 'a3\\data_f\\default.rvmat' });
  });
});

describe('proxies', () => {
  it('MLOD: reads a proxy triangle as position and axes, moves and turns it, renames it', async () => {
    const { svc, id, file } = await openCopy(encodeMlod(withProxy(buildSampleMlod(), 0, '\\a3\\data_f\\proxies\\lamp', [1, 2, 3])), 'proxy.p3d');
    const [p] = svc.query(id, { kind: 'p3d-proxies', lod: 0 }) as P3dProxy[];
    expect(p).toMatchObject({ path: '\\a3\\data_f\\proxies\\lamp', name: 'proxy:\\a3\\data_f\\proxies\\lamp.001', position: [1, 2, 3] });
    expect(p!.axes.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    await planAndApply(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, position: [0.5, 0, -1] });
    // A quarter turn about y: x -> -z, z -> x.
    await planAndApply(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, axes: [0, 0, -1, 0, 1, 0, 1, 0, 0] });
    await planAndApply(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, path: '\\mod\\proxies\\seat' });
    await svc.save(id);
    const { id: id2 } = await svc.open(file);
    const [q] = svc.query(id2, { kind: 'p3d-proxies', lod: 0 }) as P3dProxy[];
    expect(q!.name).toBe('proxy:\\mod\\proxies\\seat.001');
    expect(q!.position.map((x) => Math.round(x * 1e5) / 1e5)).toEqual([0.5, 0, -1]);
    expect(q!.axes.map((x) => Math.round(x * 1e5) / 1e5 + 0)).toEqual([0, 0, -1, 0, 1, 0, 1, 0, 0]);
    // The triangle kept its leg lengths (2 up, 1 forward).
    const doc = mlodCodec.decode(new Uint8Array(await readFile(file))) as MlodDocument;
    const l = doc.lods[0]!;
    const pts = Array.from({ length: l.pointFlags.length }, (_, i) => [l.points[i * 3]!, l.points[i * 3 + 1]!, l.points[i * 3 + 2]!]);
    expect(pts.slice(-3).map((v) => v.map((x) => Math.round(x * 1e5) / 1e5 + 0))).toEqual([[0.5, 0, -1], [0.5, 2, -1], [1.5, 0, -1]]);
  });

  it('ODOL: moves and turns a proxy record; saved file holds the new transform', async () => {
    const { svc, id, file, original } = await openCopy(odolCodec.encode(buildOdolDocument({ version: 50 })), 'grid.p3d');
    const [p] = svc.query(id, { kind: 'p3d-proxies', lod: 0 }) as P3dProxy[];
    expect(p).toMatchObject({ path: '\\a3\\data_f\\proxies\\lamp', position: [0, 1, 0], axes: [1, 0, 0, 0, 1, 0, 0, 0, 1] });
    await planAndApply(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, position: [2, 1, 0.5], axes: [0, 0, -1, 0, 1, 0, 1, 0, 0] });
    await svc.save(id);
    const doc = odolCodec.decode(new Uint8Array(await readFile(file))) as OdolV4xDocument;
    expect(doc.lods[0]!.proxies[0]!.transform).toEqual([0, 0, -1, 0, 1, 0, 1, 0, 0, 2, 1, 0.5]);
    const before = lodBytes(original);
    const after = lodBytes(new Uint8Array(await readFile(file)));
    for (let i = 1; i < before.length; i++) expect(after[i], `LOD ${i}`).toEqual(before[i]);
    // A rename renames the proxy's selection too, keeping its number.
    await planAndApply(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, path: '\\mod\\seat' });
    expect((svc.query(id, { kind: 'p3d-selections', lod: 0 }) as P3dSelection[]).map((s) => s.name)).toEqual(['grid', 'proxy:\\mod\\seat.01']);
    const h = svc.query(id, { kind: 'highlight', path: ['lods', 0, 'proxies', 0] }) as Highlight;
    // Scene space mirrors z: the origin mark sits at (2, 1, -0.5).
    expect(Array.from(h.points!)).toEqual([2, 1, -0.5]);
    expect(h.lines!.length).toBe(18);
  });

  it('ODOL: adds a proxy record through the ODOL codec (which hands the shared editor its record factory)', async () => {
    const { svc, id, file } = await openCopy(odolCodec.encode(buildOdolDocument({ version: 50 })), 'add.p3d');
    const before = (svc.query(id, { kind: 'p3d-proxies', lod: 0 }) as P3dProxy[]).length;
    const cmd = svc.query(id, { kind: 'p3d-proxy-add', lod: 0, path: '\\mod\\seat' }) as EditCommand;
    expect(cmd.label).toMatch(/^Add proxy seat to LOD /);
    await svc.edit(id, cmd);
    await svc.save(id);
    const doc = odolCodec.decode(new Uint8Array(await readFile(file))) as OdolV4xDocument;
    expect(doc.lods[0]!.proxies.length).toBe(before + 1);
    expect(doc.lods[0]!.proxies.at(-1)!.name).toBe('\\mod\\seat');
    // Without the factory (the editor module alone) an ODOL document cannot take a new record.
    expect(() => p3dQuery(doc, { kind: 'p3d-proxy-add', lod: 0 })).toThrow(/needs the ODOL codec/);
  });

  it.skipIf(!hasCorpus)('reads the proxies of the real characters (ODOL v50) with orthonormal axes in every LOD', async () => {
    for (const f of ['SplenectomY__WeedWizards-DayzEpoch__man_bandit.p3d', 'SplenectomY__WeedWizards-DayzEpoch__annie_original.p3d']) {
      const { svc, id } = await openCopy(join(corpusDir, 'p3d_odol', f), f);
      const lods = svc.query(id, { kind: 'p3d-lods' }) as P3dLodEntry[];
      let n = 0;
      for (const l of lods) {
        for (const p of svc.query(id, { kind: 'p3d-proxies', lod: l.index }) as P3dProxy[]) {
          n++;
          const a = p.axes;
          const v = (k: number) => [a[k * 3]!, a[k * 3 + 1]!, a[k * 3 + 2]!];
          const dot = (x: number[], y: number[]) => x[0]! * y[0]! + x[1]! * y[1]! + x[2]! * y[2]!;
          for (let k = 0; k < 3; k++) expect(Math.sqrt(dot(v(k), v(k))), `${f} ${p.path}`).toBeCloseTo(1, 2);
          expect(Math.abs(dot(v(0), v(1))) + Math.abs(dot(v(1), v(2))) + Math.abs(dot(v(0), v(2))), `${f} ${p.path}`).toBeLessThan(0.02);
        }
      }
      expect(n, f).toBeGreaterThan(0);
    }
  });
});

describe('named selections', () => {
  it('MLOD: lists named selections and highlights their points and faces in scene space', async () => {
    const { svc, id } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const sels = svc.query(id, { kind: 'p3d-selections', lod: 0 }) as P3dSelection[];
    expect(sels).toEqual([{ index: 0, name: 'component01', points: 2, faces: 1, source: ['lods', 0, 'tags', 0] }]);
    const h = svc.query(id, { kind: 'highlight', path: sels[0]!.source }) as Highlight;
    // Points 0 and 1 of the cube, z mirrored; face 0 is a quad: two triangles of three corners.
    expect(Array.from(h.points!)).toEqual([-0.5, -0.5, 0.5, 0.5, -0.5, 0.5]);
    expect(h.triangles!.length).toBe(18);
  });

  it('ODOL: highlights a selection\'s vertices and faces', async () => {
    const { svc, id } = await openCopy(odolCodec.encode(buildOdolDocument({ version: 73, size: 2 })), 'grid.p3d');
    const sels = svc.query(id, { kind: 'p3d-selections', lod: 0 }) as P3dSelection[];
    expect(sels.map((s) => s.name)).toEqual(['grid', 'proxy:\\a3\\data_f\\proxies\\lamp.01']);
    const h = svc.query(id, { kind: 'highlight', path: sels[0]!.source }) as Highlight;
    expect(h.points!.length / 3).toBe(sels[0]!.points);
    expect(h.triangles!.length).toBeGreaterThan(0);
  });
});

describe('arrays as tables', () => {
  it('pages MLOD points as x y z; a cell edit is one undoable set and saves', async () => {
    const { svc, id, file, original } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    const page = svc.query(id, { kind: 'array', path: ['lods', 0, 'points'], start: 2, count: 3 }) as { columns: string[]; rows: number; start: number; values: number[]; dataPath: unknown[] };
    expect(page).toMatchObject({ columns: ['x', 'y', 'z'], rows: 8, start: 2, values: [-0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, -0.5, 0.5] });
    const faces = svc.query(id, { kind: 'array', path: ['lods', 0, 'faces', 'pointIndex'], start: 0, count: 1 }) as { columns: string[]; values: number[] };
    expect(faces).toMatchObject({ columns: ['i0', 'i1', 'i2', 'i3'], values: [0, 1, 3, 2] });
    const uv = svc.query(id, { kind: 'array', path: ['lods', 0, 'faces', 'uv'], start: 0, count: 1 }) as { columns: string[] };
    expect(uv.columns).toEqual(['u0', 'v0', 'u1', 'v1', 'u2', 'v2', 'u3', 'v3']);
    await svc.edit(id, { op: 'set', path: ['lods', 0, 'points', 2 * 3 + 1], value: 0.75, label: 'Set y of row 2' });
    expect(((svc.query(id, { kind: 'array', path: ['lods', 0, 'points'], start: 2, count: 1 }) as { values: number[] }).values)).toEqual([-0.5, 0.75, -0.5]);
    const h = svc.query(id, { kind: 'highlight', path: ['lods', 0, 'points'], row: 2 }) as Highlight;
    expect(Array.from(h.points!)).toEqual([-0.5, 0.75, 0.5]);
    await svc.save(id);
    expect((mlodCodec.decode(new Uint8Array(await readFile(file))) as MlodDocument).lods[0]!.points[7]).toBe(0.75);
    await svc.undo(id);
    await svc.save(id);
    expect(new Uint8Array(await readFile(file))).toEqual(original);
  });

  it('refuses values a typed array would wrap or truncate, for every format', async () => {
    const { svc, id } = await openCopy(encodeMlod(buildSampleMlod()), 'box.p3d');
    await expect(svc.edit(id, { op: 'set', path: ['lods', 0, 'faces', 'pointIndex', 0], value: 1.5 })).rejects.toThrow(/whole number/);
    await expect(svc.edit(id, { op: 'set', path: ['lods', 0, 'tags', 0, 'points', 0], value: 300 })).rejects.toThrow(/0 to 255/);
  });

  it('pages ODOL packed arrays (vertices x y z, UV sets) and refuses edits of the compressed stream', async () => {
    const { svc, id } = await openCopy(odolCodec.encode(buildOdolDocument({ version: 73 })), 'grid.p3d');
    const v = svc.query(id, { kind: 'array', path: ['lods', 0, 'vertices'], start: 0, count: 2 }) as { columns: string[]; dataPath: unknown[] };
    expect(v).toMatchObject({ columns: ['x', 'y', 'z'], dataPath: ['lods', 0, 'vertices', 'data'] });
    const uv = svc.query(id, { kind: 'array', path: ['lods', 0, 'uvSets', 0, 'uv'], start: 0, count: 2 }) as { columns: string[] };
    expect(uv.columns).toEqual(['u', 'v']);
    await svc.edit(id, { op: 'set', path: ['lods', 0, 'vertices', 'data', 4], value: 0.25 });
    const h = svc.query(id, { kind: 'highlight', path: ['lods', 0, 'vertices', 'data'], row: 1 }) as Highlight;
    expect(h.points![1]).toBe(0.25);
  });

  it('guesses columns for other formats (LODka positions, UV sets) by the array name', async () => {
    const { SAMPLE_FILE } = await import('../../build/make-sample.ts');
    const { svc, id } = await openCopy(SAMPLE_FILE, 'robot.lod');
    const tree = (await svc.getSnapshot(id)).outline;
    const find = (n: typeof tree, kind: string): typeof tree | undefined => (n.kind === kind ? n : n.children?.map((c) => find(c, kind)).find(Boolean));
    const mesh = find(tree, 'mesh')!;
    const pos = svc.query(id, { kind: 'array', path: [...mesh.path, 'meshPointsPos'], start: 0, count: 1 }) as { columns: string[] };
    expect(pos.columns).toEqual(['x', 'y', 'z']);
    const uv = svc.query(id, { kind: 'array', path: [...mesh.path, 'meshTxCrd'], start: 0, count: 1 }) as { columns: string[]; sets: number };
    expect(uv.columns).toEqual(['u', 'v']);
    expect(uv.sets).toBeGreaterThan(0);
  });
});

describe('marks of large selections', () => {
  it('stop at a bounded number of points and triangles', async () => {
    const { buildLargeMlodDocument } = await import('../../scripts/fixtures/mlod.ts');
    const { MAX_MARK_POINTS, MAX_MARK_TRIANGLES, p3dHighlight } = await import('../../shared/formats/p3d/editor.ts');
    const doc = buildLargeMlodDocument(150_000);
    const h = p3dHighlight(doc, ['lods', 0, 'tags', 0])!;
    expect(h.label).toMatch(/^ground: \d+ points, \d+ faces$/);
    expect(h.points!.length).toBeLessThanOrEqual(MAX_MARK_POINTS * 3);
    expect(h.triangles!.length).toBeLessThanOrEqual(MAX_MARK_TRIANGLES * 9 + 9);
    expect(h.triangles!.length).toBeGreaterThanOrEqual(MAX_MARK_TRIANGLES * 9);
  });
});
