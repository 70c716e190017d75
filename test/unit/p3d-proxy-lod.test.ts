/**
 * P3D proxies added, deleted and moved to another LOD (shared/formats/p3d/editor.ts and
 * mlod/proxy-edits.ts) through the document service: each edit is one undo step, saved and
 * re-read; LODs it does not touch save byte for byte; undo gives the exact file back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentService } from '../../main/documents/document-service.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { P3dProxy } from '../../shared/model/editor-query.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/codec.ts';
import type { MlodDocument, SelectionTag } from '../../shared/formats/p3d/mlod/types.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { buildSampleMlod, withProxy } from '../../scripts/fixtures/mlod.ts';
import { buildOdolDocument, buildOdolV7 } from '../../scripts/fixtures/odol.ts';
import { corpusFiles, hasCorpus } from '../helpers/corpus.ts';
import { basename } from 'node:path';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-p3d-proxy-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function openBytes(bytes: Uint8Array, name: string): Promise<{ svc: DocumentService; id: string; file: string }> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const svc = new DocumentService({ configDir: join(dir, 'config') });
  const { id } = await svc.open(file);
  return { svc, id, file };
}

function lodBytes(bytes: Uint8Array): Uint8Array[] {
  const doc = (bytes[0] === 0x4d ? mlodCodec : odolCodec).decode(bytes) as { lods: { $span?: [number, number] }[] };
  return doc.lods.map((l) => bytes.slice(l.$span![0], l.$span![1]));
}

async function plan(svc: DocumentService, id: string, q: Parameters<DocumentService['query']>[1]): Promise<EditCommand> {
  const cmd = svc.query(id, q) as EditCommand;
  await svc.edit(id, cmd);
  return cmd;
}

const p3dProxiesOf = (doc: MlodDocument, lod: number) => doc.lods[lod]!.tags.filter((t) => t.name.startsWith('proxy:')).map((t) => t.name);
const proxies = (svc: DocumentService, id: string, lod: number) => svc.query(id, { kind: 'p3d-proxies', lod }) as P3dProxy[];
const round = (v: readonly number[]) => v.map((x) => Math.round(x * 1e5) / 1e5 + 0);
const saved = async (svc: DocumentService, id: string, file: string) => {
  await svc.save(id);
  return new Uint8Array(await readFile(file));
};

describe('MLOD proxies: add and delete', () => {
  it('adds a triangle and its proxy selection; every per-point and per-face tag grows with it', async () => {
    const original = encodeMlod(buildSampleMlod());
    const { svc, id, file } = await openBytes(original, 'box.p3d');
    const cmd = await plan(svc, id, { kind: 'p3d-proxy-add', lod: 0 });
    expect(cmd.label).toBe('Add a proxy to LOD Visual 1.000');
    const [p] = proxies(svc, id, 0);
    expect(p).toMatchObject({ path: 'proxy', name: 'proxy:proxy.001', position: [0, 0, 0], axes: [1, 0, 0, 0, 1, 0, 0, 0, 1] });
    const bytes = await saved(svc, id, file);
    const doc = mlodCodec.decode(bytes) as MlodDocument;
    const l = doc.lods[0]!;
    expect(l.pointFlags.length).toBe(11);
    expect(l.faces.vertexCount.length).toBe(7);
    expect(Array.from(l.faces.pointIndex.slice(24, 27))).toEqual([8, 9, 10]);
    // Object Builder's triangle: the corner at the origin, 2 m up, 1 m forward.
    expect(Array.from(l.points.slice(24))).toEqual([0, 0, 0, 0, 2, 0, 0, 0, 1]);
    const sel = l.tags.find((t) => t.name === 'proxy:proxy.001') as SelectionTag;
    expect(Array.from(sel.points)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(Array.from(sel.faces)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    // The selection goes before #EndOfFile#; the other tags follow the new points and face.
    expect(l.tags[l.tags.length - 2]!.name).toBe('proxy:proxy.001');
    for (const t of l.tags) {
      if (t.type === 'selection') expect([t.points.length, t.faces.length], t.name).toEqual([11, 7]);
      if (t.type === 'mass') expect(t.masses.length).toBe(11);
      if (t.type === 'animation') expect(t.points.length).toBe(33);
      if (t.type === 'uvset') expect(t.uv.length).toBe((6 * 4 + 3) * 2);
    }
    // Other LODs byte for byte.
    const a = lodBytes(original);
    const b = lodBytes(bytes);
    for (let i = 1; i < a.length; i++) expect(b[i], `LOD ${i}`).toEqual(a[i]);
    // One undo step gives the file back.
    await svc.undo(id);
    expect(await saved(svc, id, file)).toEqual(original);
  });

  it('deletes a proxy: its selection, face and points go, and the LOD is as it was before the proxy (P3DM and SP3X)', async () => {
    for (const lod of [0, 1, 2]) {
      const without = encodeMlod(buildSampleMlod());
      const withIt = encodeMlod(withProxy(buildSampleMlod(), lod, '\\a3\\data_f\\proxies\\lamp', [0.3, 0.6, -0.2]));
      const { svc, id, file } = await openBytes(withIt, `box${lod}.p3d`);
      expect(proxies(svc, id, lod)).toHaveLength(1);
      const cmd = await plan(svc, id, { kind: 'p3d-proxy-delete', lod, proxy: 0 });
      expect(cmd.label).toBe('Delete proxy lamp');
      expect(proxies(svc, id, lod)).toHaveLength(0);
      expect(await saved(svc, id, file), `LOD ${lod}`).toEqual(without);
      await svc.undo(id);
      expect(await saved(svc, id, file)).toEqual(withIt);
    }
  });

  it('a deleted proxy keeps the points other faces still use, and remaps the faces after it', async () => {
    const doc = withProxy(buildSampleMlod(), 0, '\\p\\a', [1, 1, 1]);
    // The first proxy's face and points come before the second's: deleting it moves those down.
    const { svc, id, file } = await openBytes(encodeMlod(withProxy(doc, 0, '\\p\\b', [2, 2, 2])), 'two.p3d');
    expect(proxies(svc, id, 0).map((p) => p.path)).toEqual(['\\p\\a', '\\p\\b']);
    await plan(svc, id, { kind: 'p3d-proxy-delete', lod: 0, proxy: 0 });
    const [b] = proxies(svc, id, 0);
    expect(b).toMatchObject({ path: '\\p\\b', position: [2, 2, 2] });
    const out = mlodCodec.decode(await saved(svc, id, file)) as MlodDocument;
    const l = out.lods[0]!;
    expect(l.pointFlags.length).toBe(11);
    expect(Array.from(l.faces.pointIndex.slice(24, 27))).toEqual([8, 9, 10]);
    const sel = l.tags.find((t) => t.name === 'proxy:\\p\\b.001') as SelectionTag;
    expect(Array.from(sel.faces)).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it('adds to an SP3X LOD (no material, fixed texture fields) and to a LOD without faces, and deletes again to the same bytes', async () => {
    const original = encodeMlod(buildSampleMlod());
    const { svc, id, file } = await openBytes(original, 'sp3x.p3d');
    for (const lod of [1, 3]) {
      await plan(svc, id, { kind: 'p3d-proxy-add', lod, path: '\\p\\seat' });
      const doc = mlodCodec.decode(await saved(svc, id, file)) as MlodDocument;
      expect(p3dProxiesOf(doc, lod), `LOD ${lod}`).toEqual(['proxy:\\p\\seat.001']);
      await plan(svc, id, { kind: 'p3d-proxy-delete', lod, proxy: 0 });
    }
    expect(await saved(svc, id, file)).toEqual(original);
  });

  it('refuses, before anything is written, an SP3X proxy name longer than its 64-byte field (add and rename)', async () => {
    const { svc, id } = await openBytes(encodeMlod(withProxy(buildSampleMlod(), 1, '\\p\\a', [0, 0, 0])), 'long.p3d');
    const long = `\\${'x'.repeat(70)}`;
    await expect(svc.edit(id, svc.query(id, { kind: 'p3d-proxy-add', lod: 1, path: long }) as EditCommand)).rejects.toThrow(/64 bytes/);
    await expect(svc.edit(id, svc.query(id, { kind: 'p3d-proxy-edit', lod: 1, proxy: 0, path: long }) as EditCommand)).rejects.toThrow(/64 bytes/);
    expect(proxies(svc, id, 1).map((p) => p.path)).toEqual(['\\p\\a']);
    // P3DM names have no such field.
    await plan(svc, id, { kind: 'p3d-proxy-add', lod: 0, path: long });
    expect(proxies(svc, id, 0).map((p) => p.path)).toEqual([long]);
  });

  it('numbers a second proxy of the same path after the first', async () => {
    const { svc, id } = await openBytes(encodeMlod(withProxy(buildSampleMlod(), 0, 'proxy', [0, 0, 0])), 'n.p3d');
    await plan(svc, id, { kind: 'p3d-proxy-add', lod: 0 });
    expect(proxies(svc, id, 0).map((p) => p.name)).toEqual(['proxy:proxy.001', 'proxy:proxy.002']);
  });
});

describe('proxies moved to another LOD', () => {
  it('MLOD: one undo step moves the triangle and its selection, keeping place and turn; other LODs byte for byte', async () => {
    const original = encodeMlod(withProxy(buildSampleMlod(), 0, '\\a3\\data_f\\proxies\\lamp', [0.3, 0.6, -0.2]));
    const { svc, id, file } = await openBytes(original, 'move.p3d');
    await plan(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, axes: [0, 0, -1, 0, 1, 0, 1, 0, 0] });
    const [before] = proxies(svc, id, 0);
    const cmd = await plan(svc, id, { kind: 'p3d-proxy-lod', lod: 0, proxy: 0, to: 2 });
    expect(cmd.label).toBe('Move proxy lamp to LOD Geometry');
    expect(proxies(svc, id, 0)).toHaveLength(0);
    const [after] = proxies(svc, id, 2);
    expect(after!.name).toBe(before!.name);
    expect(round(after!.position)).toEqual(round(before!.position));
    expect(round(after!.axes)).toEqual(round(before!.axes));
    const bytes = await saved(svc, id, file);
    const a = lodBytes(original);
    const b = lodBytes(bytes);
    for (const i of [1, 3]) expect(b[i], `LOD ${i}`).toEqual(a[i]);
    const doc = mlodCodec.decode(bytes) as MlodDocument;
    // The Geometry LOD's mass covers the new points (no mass: a proxy weighs nothing).
    const mass = doc.lods[2]!.tags.find((t) => t.type === 'mass');
    expect(mass && mass.type === 'mass' ? Array.from(mass.masses.slice(-3)) : []).toEqual([0, 0, 0]);
    // Undo: the move is one step (the turn before it stays).
    await svc.undo(id);
    expect(proxies(svc, id, 2)).toHaveLength(0);
    expect(round(proxies(svc, id, 0)[0]!.axes)).toEqual(round(before!.axes));
    await svc.undo(id);
    expect(await saved(svc, id, file)).toEqual(original);
  });

  it('MLOD: into a LOD that already has that name, the proxy takes the next number; refuses its own LOD', async () => {
    let doc = withProxy(buildSampleMlod(), 0, '\\p\\lamp', [0, 0, 0]);
    doc = withProxy(doc, 1, '\\p\\lamp', [1, 0, 0]);
    const { svc, id } = await openBytes(encodeMlod(doc), 'taken.p3d');
    await plan(svc, id, { kind: 'p3d-proxy-lod', lod: 0, proxy: 0, to: 1 });
    expect(proxies(svc, id, 1).map((p) => p.name)).toEqual(['proxy:\\p\\lamp.001', 'proxy:\\p\\lamp.002']);
    expect(() => svc.query(id, { kind: 'p3d-proxy-lod', lod: 1, proxy: 0, to: 1 })).toThrow(/already in that LOD/);
  });

  it('ODOL: the record moves (selection, bone and section indices cleared); other LODs byte for byte; undo restores', async () => {
    const original = odolCodec.encode(buildOdolDocument({ version: 50 }));
    const { svc, id, file } = await openBytes(original, 'grid.p3d');
    const [p] = proxies(svc, id, 0);
    await plan(svc, id, { kind: 'p3d-proxy-lod', lod: 0, proxy: 0, to: 1 });
    expect(proxies(svc, id, 0)).toHaveLength(0);
    const [q] = proxies(svc, id, 1).slice(-1);
    expect(q).toMatchObject({ path: p!.path, position: p!.position, axes: p!.axes });
    const bytes = await saved(svc, id, file);
    const doc = odolCodec.decode(bytes) as OdolV4xDocument;
    expect(doc.lods[1]!.proxies.slice(-1)[0]).toMatchObject({ name: p!.path, namedSelectionIndex: -1, boneIndex: -1, sectionIndex: -1 });
    const a = lodBytes(original);
    const b = lodBytes(bytes);
    for (let i = 2; i < a.length; i++) expect(b[i], `LOD ${i}`).toEqual(a[i]);
    await svc.undo(id);
    expect(await saved(svc, id, file)).toEqual(original);
  });

  it('ODOL v7 (rotation and translation records): the record moves with its transform; undo restores', async () => {
    const original = buildOdolV7();
    const { svc, id, file } = await openBytes(original, 'v7.p3d');
    const [p] = proxies(svc, id, 0);
    await plan(svc, id, { kind: 'p3d-proxy-edit', lod: 0, proxy: 0, position: [1, 2, 3] });
    await plan(svc, id, { kind: 'p3d-proxy-lod', lod: 0, proxy: 0, to: 1 });
    const [q] = proxies(svc, id, 1).slice(-1);
    expect(q).toMatchObject({ path: p!.path, position: [1, 2, 3], axes: p!.axes });
    const back = odolCodec.decode(await saved(svc, id, file)) as { lods: { proxies: unknown[] }[] };
    expect(back.lods[0]!.proxies).toHaveLength(0);
    expect(back.lods[1]!.proxies).toHaveLength(2);
    await svc.undo(id);
    await svc.undo(id);
    expect(await saved(svc, id, file)).toEqual(original);
  });

  it('ODOL: add and delete go through the same questions', async () => {
    const original = odolCodec.encode(buildOdolDocument({ version: 50 }));
    const { svc, id, file } = await openBytes(original, 'grid2.p3d');
    await plan(svc, id, { kind: 'p3d-proxy-add', lod: 0, path: '\\mod\\crate' });
    expect(proxies(svc, id, 0).map((p) => p.path)).toEqual(['\\a3\\data_f\\proxies\\lamp', '\\mod\\crate']);
    await plan(svc, id, { kind: 'p3d-proxy-delete', lod: 0, proxy: 1 });
    expect(await saved(svc, id, file)).toEqual(original);
  });
});

describe('real MLOD files (corpus)', () => {
  it.skipIf(!hasCorpus)('deletes and moves the first proxy of every LOD that has one: the other proxies stay where they were, untouched LODs byte for byte, undo gives the file back', async () => {
    let seen = 0;
    for (const path of corpusFiles('p3d_mlod')) {
      const original = new Uint8Array(await readFile(path));
      const { svc, id, file } = await openBytes(original, basename(path));
      const lods = (svc.query(id, { kind: 'p3d-lods' }) as { index: number }[]).map((l) => l.index);
      for (const lod of lods) {
        const list = proxies(svc, id, lod);
        if (!list.length) continue;
        seen++;
        const others = list.slice(1).map((p) => [p.name, round(p.position), round(p.axes)]);
        await plan(svc, id, { kind: 'p3d-proxy-delete', lod, proxy: 0 });
        expect(proxies(svc, id, lod).map((p) => [p.name, round(p.position), round(p.axes)]), `${basename(path)} LOD ${lod}`).toEqual(others);
        const bytes = await saved(svc, id, file);
        const a = lodBytes(original);
        const b = lodBytes(bytes);
        for (const i of lods) if (i !== lod) expect(b[i], `${basename(path)} LOD ${i}`).toEqual(a[i]);
        await svc.undo(id);
        const to = lods.find((i) => i !== lod);
        if (to !== undefined) {
          await plan(svc, id, { kind: 'p3d-proxy-lod', lod, proxy: 0, to });
          const moved = proxies(svc, id, to).slice(-1)[0]!;
          expect(round(moved.position)).toEqual(round(list[0]!.position));
          expect(round(moved.axes)).toEqual(round(list[0]!.axes));
          await svc.undo(id);
        }
        expect(await saved(svc, id, file), basename(path)).toEqual(original);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
