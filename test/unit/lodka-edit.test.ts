/**
 * Model-level edits: change a field, add and remove chunks, meshes, materials, proxy items,
 * colliders and light schemes through edit commands, then encode -> decode and find the edit,
 * with every chunk off the edited path still byte-identical.
 */
import { describe, expect, it } from 'vitest';
import { box, buildSampleLod, grid, meshChunk } from '../../scripts/fixtures/lodka.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { Col1Chunk, Lig1Chunk, LodChunk, LodDocument, Mat1Chunk, Msh1Chunk, Pxi1Chunk, Skl1Chunk } from '../../shared/formats/lodka/schema.ts';
import { chunksOf, walkChunks } from '../../shared/formats/lodka/views.ts';
import { newMaterial } from '../../shared/formats/lodka/edit.ts';
import { applyCommand, type EditCommand } from '../../shared/model/commands.ts';
import { firstDifference } from '../../shared/model/compare.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

const original = lodkaCodec.encode(buildSampleLod());

function pathOf(doc: LodDocument, id: string, n = 0): NodePath {
  const hit = [...walkChunks(doc)].filter((c) => c.chunk.id === id)[n];
  if (!hit) throw new Error(`no ${id}[${n}]`);
  return hit.path;
}

/** Bytes of every chunk by display path (`LOD1/MSL1/MSH1[2]`). */
function chunkBytes(doc: LodDocument, bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const { chunk, where } of walkChunks(doc)) out.set(where, bytes.subarray(chunk.$span![0], chunk.$span![1]));
  return out;
}

/**
 * Applies commands to a decoded sample, encodes, decodes again, and checks that every chunk whose
 * display path is not under one of `touched` kept its bytes. Returns the new document and bytes.
 */
function edit(cmds: EditCommand[], touched: string[], base: Uint8Array = original): { doc: LodDocument; bytes: Uint8Array; undo: EditCommand[] } {
  const doc = lodkaCodec.decode(base);
  const undo: EditCommand[] = [];
  for (const c of cmds) {
    expect(lodkaCodec.checkEdit!(doc, c)).toBeUndefined();
    undo.unshift(applyCommand(doc, c));
  }
  const bytes = lodkaCodec.encode(doc);
  const back = lodkaCodec.decode(bytes);
  const before = chunkBytes(lodkaCodec.decode(base), base);
  const after = chunkBytes(back, bytes);
  let untouched = 0;
  for (const [where, b] of before) {
    if (touched.some((t) => where === t || where.startsWith(`${t}/`) || t.startsWith(`${where}/`))) continue;
    const a = after.get(where);
    if (!a) continue;
    expect(firstDifference(a, b), where).toBe(-1);
    untouched++;
  }
  expect(untouched).toBeGreaterThan(0);
  // Undo restores the original bytes exactly, though every edited chunk is now re-encoded from fields.
  for (const u of undo) applyCommand(doc, u);
  expect(firstDifference(lodkaCodec.encode(doc), base)).toBe(-1);
  return { doc: back, bytes, undo };
}

describe('LODka model-level edits', () => {
  it('changes a material colour: only the options bytes differ', () => {
    const doc0 = lodkaCodec.decode(original);
    const p = [...pathOf(doc0, 'MAT1'), 'materials', 1, 'options', 'diffuse'];
    const { doc, bytes } = edit([{ op: 'set', path: p, value: [0.25, 0.5, 1, 1] }], ['LOD1/MAL1']);
    expect(chunksOf<Mat1Chunk>(doc, 'MAT1')[0]!.materials[1]!.options.diffuse).toEqual([0.25, 0.5, 1, 1]);
    expect(bytes.length).toBe(original.length);
    const at = firstDifference(bytes, original);
    const mat = chunksOf<Mat1Chunk>(doc0, 'MAT1')[0]!.materials[1]!;
    expect(at).toBeGreaterThanOrEqual(mat.options.$span![0] + 16);
    expect(at).toBeLessThan(mat.options.$span![0] + 32);
  });

  it('adds and removes a chunk', () => {
    const doc0 = lodkaCodec.decode(original);
    const add = lodkaCodec.create!(doc0, ['chunks', 0], 'INF1')!;
    const at = (add as { index: number }).index;
    expect(at).toBe(9);
    const { doc } = edit([add, { op: 'set', path: [...(add as { path: NodePath }).path, at, 'text'], value: 'автор: LodSmith' }], ['LOD1/INF1[1]']);
    const infos = chunksOf<{ text: string } & LodChunk>(doc, 'INF1');
    expect(infos.map((i) => i.text)).toEqual([expect.stringContaining('sample model'), 'автор: LodSmith']);
    expect(doc.chunks[0]!.count).toBe(10);
    const rm = edit([{ op: 'remove', path: pathOf(doc0, 'CLL1') }], ['LOD1/CLL1']);
    expect(chunksOf(rm.doc, 'COL1')).toEqual([]);
    expect(rm.doc.chunks[0]!.count).toBe(8);
  });

  it('adds a mesh with geometry and removes one', () => {
    const doc0 = lodkaCodec.decode(original);
    const g = box(2, 1, 1);
    const mesh = meshChunk({ name: 'Crate', geometry: g, groups: [{ name: 'all', materials: ['steel'], indices: g.indices }] });
    const msl = [...pathOf(doc0, 'MSL1'), 'children'];
    const { doc } = edit([{ op: 'insert', path: msl, index: 4, value: mesh }], ['LOD1/MSL1']);
    const meshes = chunksOf<Msh1Chunk>(doc, 'MSH1');
    expect(meshes.map((m) => m.meshName)).toEqual(['Robot', 'Ground', 'Arm', 'Arms', 'Crate']);
    expect(Array.from(meshes[4]!.faceGroups[0]!.vertexIndex)).toEqual(g.indices);
    expect(lodkaCodec.info(doc, 0).meshes[4]).toEqual({ name: 'Crate', vertices: 24, triangles: 12 });
    const rm = edit([{ op: 'remove', path: [...msl, 1] }], ['LOD1/MSL1']);
    expect(chunksOf<Msh1Chunk>(rm.doc, 'MSH1').map((m) => m.meshName)).toEqual(['Robot', 'Arm', 'Arms']);
  });

  it('re-derives index widths when an edit crosses 256 vertices', () => {
    const doc0 = lodkaCodec.decode(original);
    const ground = [...pathOf(doc0, 'MSH1', 1)];
    const big = grid(20, 4); // 441 vertices: indices become 2 bytes
    const cmds: EditCommand[] = [
      { op: 'set', path: [...ground, 'meshPointsPos'], value: Float32Array.from(big.positions) },
      { op: 'set', path: [...ground, 'meshNormals'], value: Float32Array.from(big.normals) },
      { op: 'set', path: [...ground, 'faceGroups', 0, 'vertexIndex'], value: Uint32Array.from(big.indices) },
      { op: 'set', path: [...ground, 'faceGroups', 0, 'normalIndex'], value: Uint32Array.from(big.indices) },
      { op: 'set', path: [...ground, 'meshTxCrd'], value: [Float32Array.from(big.uvs)] },
      { op: 'set', path: [...ground, 'faceGroups', 0, 'txCrdsInd'], value: [Uint32Array.from(big.indices)] },
    ];
    const { doc, bytes } = edit(cmds, ['LOD1/MSL1']);
    const m = chunksOf<Msh1Chunk>(doc, 'MSH1')[1]!;
    expect(Array.from(m.faceGroups[0]!.vertexIndex)).toEqual(big.indices);
    expect(Math.max(...m.faceGroups[0]!.vertexIndex)).toBeGreaterThan(255);
    // 2400 corners: vertex, normal and uv indices (441 of each) now 2 bytes each.
    const g = m.faceGroups[0]!;
    expect(g.$span![1] - g.$span![0]).toBe(4 + 1 + 4 + 6 + 1 + 4 + 6 + 4 + 2400 * 2 + 4 + 4 + 2400 * 2 + 4 + 2400 * 2);
    expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    expect(bytes.length).toBeGreaterThan(original.length);
  });

  it('adds a material, a proxy item, a collider and a light scheme', () => {
    const doc0 = lodkaCodec.decode(original);
    const cmds: EditCommand[] = [
      { op: 'insert', path: [...pathOf(doc0, 'MAT1'), 'materials'], index: 5, value: newMaterial('glass', 'glass.png', [0.7, 0.9, 1, 0.5]) },
      lodkaCodec.create!(doc0, pathOf(doc0, 'PXI1'), 'proxy item')!,
      lodkaCodec.create!(doc0, pathOf(doc0, 'COL1', 1), 'collider')!,
      lodkaCodec.create!(doc0, pathOf(doc0, 'LGS1'), 'light scheme')!,
    ];
    const { doc } = edit(cmds, ['LOD1/MAL1', 'LOD1/PXL1', 'LOD1/CLL1', 'LOD1/LGS1']);
    expect(chunksOf<Mat1Chunk>(doc, 'MAT1')[0]!.materials.map((m) => m.matName)).toEqual(['steel', 'paint', 'visor', 'arm', 'ground', 'glass']);
    expect(chunksOf<Mat1Chunk>(doc, 'MAT1')[0]!.count).toBe(6);
    expect(chunksOf<Pxi1Chunk>(doc, 'PXI1')[0]!.items.map((i) => i.name)).toEqual(['Shoulders', 'Left arm', 'Right arm', 'item4']);
    expect(chunksOf<Col1Chunk>(doc, 'COL1')[1]!.colliders.map((c) => c.name)).toEqual(['Torso', 'Head', 'collider3']);
    expect(chunksOf<Col1Chunk>(doc, 'COL1')[1]!.count).toBe(3);
    const schemes = chunksOf<Lig1Chunk>(doc, 'LIG1');
    expect(schemes.map((s) => [s.name, s.count, s.lights.length])).toEqual([['Day', 8, 8], ['Night', 8, 8], ['light scheme', 8, 8]]);
    expect(lodkaCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('removes a material, a proxy item, a collider and a light scheme; moves a mesh', () => {
    const doc0 = lodkaCodec.decode(original);
    const { doc } = edit([
      { op: 'remove', path: [...pathOf(doc0, 'MAT1'), 'materials', 3] },
      { op: 'remove', path: [...pathOf(doc0, 'PXI1'), 'items', 2] },
      { op: 'remove', path: [...pathOf(doc0, 'COL1', 1), 'colliders', 0] },
      { op: 'remove', path: pathOf(doc0, 'LIG1', 0) },
    ], ['LOD1/MAL1', 'LOD1/PXL1', 'LOD1/CLL1', 'LOD1/LGS1']);
    expect(chunksOf<Mat1Chunk>(doc, 'MAT1')[0]!.materials.map((m) => m.matName)).toEqual(['steel', 'paint', 'visor', 'ground']);
    expect(chunksOf<Pxi1Chunk>(doc, 'PXI1')[0]!.items.length).toBe(2);
    expect(chunksOf<Col1Chunk>(doc, 'COL1')[1]!.colliders.map((c) => c.name)).toEqual(['Head']);
    expect(chunksOf<Lig1Chunk>(doc, 'LIG1').map((s) => s.name)).toEqual(['Night']);
    // The arm mesh's material is gone: validate names the dangling reference.
    expect(lodkaCodec.validate(doc).some((p) => p.severity === 'error' && p.message === 'material "arm" is not in MAT1')).toBe(true);
    const moved = edit([{ op: 'move', path: [...pathOf(doc0, 'MSL1'), 'children'], from: 0, to: 1 }], ['LOD1/MSL1']);
    expect(chunksOf<Msh1Chunk>(moved.doc, 'MSH1').map((m) => m.meshName)).toEqual(['Ground', 'Robot', 'Arm', 'Arms']);
  });

  it('edits a light and a proxy item field', () => {
    const doc0 = lodkaCodec.decode(original);
    const { doc } = edit([
      { op: 'set', path: [...pathOf(doc0, 'LIG1', 1), 'lights', 1, 'spotCutOff'], value: 60 },
      { op: 'set', path: [...pathOf(doc0, 'PXI1'), 'items', 1, 'proxyScale'], value: [1, 2, 1] },
    ], ['LOD1/LGS1/LIG1[1]', 'LOD1/PXL1']);
    expect(chunksOf<Lig1Chunk>(doc, 'LIG1')[1]!.lights[1]!.spotCutOff).toBe(60);
    expect(chunksOf<Pxi1Chunk>(doc, 'PXI1')[0]!.items[1]!.proxyScale).toEqual([1, 2, 1]);
    const node = lodkaCodec.toScene(doc).nodes.find((n) => n.name === 'Left arm')!;
    expect(node.matrix[5]).toBeCloseTo(2 * Math.cos((12 * Math.PI) / 180), 5);
  });
});

describe.skipIf(!hasCorpus || corpusFiles('lodka').length === 0)('LODka edits on a real file', () => {
  it('renames a bone in TRINITYrage.lod: meshes and animations keep their bytes', () => {
    const file = corpusFiles('lodka').find((f) => f.includes('TRINITYrage'))!;
    const bytes = readBytes(file);
    const doc0 = lodkaCodec.decode(bytes);
    const { doc } = edit([{ op: 'set', path: [...pathOf(doc0, 'SKL1'), 'bones', 19, 'boneName'], value: 'Голова' }], ['LOD1/SKL1'], bytes);
    expect(chunksOf<Skl1Chunk>(doc, 'SKL1')[0]!.bones[19]!.boneName).toBe('Голова');
    expect(lodkaCodec.info(doc, 0).bones[19]).toBe('Голова');
  });
});
