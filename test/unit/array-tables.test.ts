/**
 * Arrays as tables, for every format: every numeric array the inspector shows (a field whose
 * value is a typed array, or a packed array's values) is a field of kind `array` that pages as a
 * table with named columns, so the editor never shows it as a blob of numbers. Layouts of the
 * common arrays are checked by name (positions x y z, UVs u v, triangles i0 i1 i2).
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, type FormatCodec } from '../../shared/formats/index.ts';
import { arrayPage, checkElementEdit, guessLayout, samePage, typedArrayAt } from '../../shared/model/array-view.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/codec.ts';
import { lodkaFixtures } from '../../scripts/fixtures/lodka.ts';
import { encodeFixture as encodeGrimrock, grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { encodeFixture as encodeUnigine, unigineFixtures } from '../../scripts/fixtures/unigine.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { buildOdolDocument, buildOdolV7 } from '../../scripts/fixtures/odol.ts';

const FILES: [string, Uint8Array][] = [
  ...lodkaFixtures().slice(0, 2).map((f): [string, Uint8Array] => [f.name, encodeLod(f.doc)]),
  ...grimrockFixtures().map((f): [string, Uint8Array] => [f.name, encodeGrimrock(f)]),
  ...unigineFixtures().map((f): [string, Uint8Array] => [f.name, encodeUnigine(f)]),
  ['sample-mlod.p3d', encodeMlod(buildSampleMlod())],
  ['odol-v7.p3d', buildOdolV7()],
  ['odol-v50.p3d', odolCodec.encode(buildOdolDocument({ version: 50, size: 4 }))],
];

function* nodes(n: OutlineNode): Generator<OutlineNode> {
  yield n;
  for (const c of n.children ?? []) yield* nodes(c);
}

describe.each(FILES)('%s', (name, bytes) => {
  it('shows every numeric array as a paged table with named columns', () => {
    const codec = detectFormat(bytes, name) as FormatCodec;
    const doc = codec.decode(bytes);
    let tables = 0;
    let arrays = 0;
    for (const n of nodes(codec.outline(doc))) {
      const ins = codec.inspect(doc, n.path);
      for (const f of ins?.fields ?? []) {
        const at = typedArrayAt(doc, f.path);
        if (at && at.data.length) arrays++;
        // Byte blobs (an embedded image file) belong to the hex view; a count field names its array's path.
        if (!at || at.data.length === 0 || f.kind === 'bytes' || typeof f.value === 'number') continue;
        expect(f.kind, `${JSON.stringify(f.path)} is shown as ${f.kind}`).toBe('array');
        const page = arrayPage(doc, f.path, 0, 5, (nm, data, p) => codec.arrayLayout?.(doc, nm, data, p));
        expect(page, JSON.stringify(f.path)).toBeDefined();
        expect(page!.columns.length).toBe(page!.stride);
        expect(page!.values.length).toBeLessThanOrEqual(5 * page!.stride);
        expect(page!.values.every((v) => typeof v === 'number')).toBe(true);
        tables++;
      }
    }
    if (arrays) expect(tables).toBeGreaterThan(0);
  });
});

describe('column names', () => {
  it('names positions, normals, UVs, triangles and weights', () => {
    expect(guessLayout('meshPointsPos', new Float32Array(9)).columns).toEqual(['x', 'y', 'z']);
    expect(guessLayout('normals', new Float32Array(9)).columns).toEqual(['nx', 'ny', 'nz']);
    expect(guessLayout('meshTxCrd', new Float32Array(4)).columns).toEqual(['u', 'v']);
    expect(guessLayout('indices', new Uint16Array(6)).columns).toEqual(['i0', 'i1', 'i2']);
    expect(guessLayout('weights', new Float32Array(3)).columns).toEqual(['w']);
    expect(guessLayout('something', new Uint8Array(3)).columns).toEqual(['value']);
  });

  it('pages: start is clamped, a page never passes the end, the last row may be short', () => {
    const doc = { a: { positions: Float32Array.from({ length: 12 }, (_, i) => i) } };
    const p = arrayPage(doc, ['a', 'positions'], 2, 10)!;
    expect(p).toMatchObject({ rows: 4, start: 2, stride: 3, values: [6, 7, 8, 9, 10, 11] });
    expect(arrayPage(doc, ['a', 'positions'], 99, 1)!.start).toBe(3);
    expect(arrayPage(doc, ['a', 'positions'], 0, 1, () => ({ stride: 5, columns: ['a', 'b', 'c', 'd', 'e'] }))).toMatchObject({ rows: 3, values: [0, 1, 2, 3, 4] });
    expect(arrayPage(doc, ['a', 'positions'], 2, 1, () => ({ stride: 5, columns: ['a', 'b', 'c', 'd', 'e'] }))!.values).toEqual([10, 11]);
    expect(arrayPage(doc, ['a'], 0, 1)).toBeUndefined();
  });

  it('tells a re-read that brought nothing new from a change of what the page shows', () => {
    const doc = { a: { positions: Float32Array.from({ length: 12 }, (_, i) => i) }, b: { positions: Float32Array.from({ length: 12 }, (_, i) => i) } };
    const p = arrayPage(doc, ['a', 'positions'], 1, 2)!;
    expect(samePage(p, arrayPage(doc, ['a', 'positions'], 1, 2)!)).toBe(true);
    expect(samePage(null, p)).toBe(false);
    // Another page, another array, another page size.
    expect(samePage(p, arrayPage(doc, ['a', 'positions'], 2, 2)!)).toBe(false);
    expect(samePage(p, arrayPage(doc, ['b', 'positions'], 1, 2)!)).toBe(false);
    expect(samePage(p, arrayPage(doc, ['a', 'positions'], 1, 1)!)).toBe(false);
    // A value changed, on this page or only in its sign (-0 is a value of its own).
    doc.a.positions[4] = 40;
    expect(samePage(p, arrayPage(doc, ['a', 'positions'], 1, 2)!)).toBe(false);
    const q = arrayPage(doc, ['a', 'positions'], 0, 1)!;
    doc.a.positions[0] = -0;
    expect(samePage(q, arrayPage(doc, ['a', 'positions'], 0, 1)!)).toBe(false);
    // A change on another page is not news to this one.
    const r = arrayPage(doc, ['a', 'positions'], 1, 2)!;
    doc.a.positions[11] = 98;
    expect(samePage(r, arrayPage(doc, ['a', 'positions'], 1, 2)!)).toBe(true);
  });

  it('refuses values a typed array cannot hold as given', () => {
    const doc = { b: new Uint8Array(2), f: new Float32Array(2), i: new Int16Array(1) };
    expect(checkElementEdit(doc, { op: 'set', path: ['b', 0], value: 256 })).toMatch(/0 to 255/);
    expect(checkElementEdit(doc, { op: 'set', path: ['b', 0], value: 2.5 })).toMatch(/whole/);
    expect(checkElementEdit(doc, { op: 'set', path: ['b', 5], value: 1 })).toMatch(/no element/);
    expect(checkElementEdit(doc, { op: 'set', path: ['i', 0], value: -32769 })).toMatch(/-32768/);
    expect(checkElementEdit(doc, { op: 'set', path: ['f', 1], value: 1e39 })).toMatch(/too large/);
    expect(checkElementEdit(doc, { op: 'set', path: ['f', 1], value: 0.1 })).toBeUndefined();
    expect(checkElementEdit(doc, { op: 'batch', commands: [{ op: 'set', path: ['b', 1], value: 9 }, { op: 'set', path: ['b', 0], value: -1 }] })).toMatch(/0 to 255/);
  });
});

describe('LODka mesh arrays', () => {
  it('names the MSH1 columns and marks a vertex or a face group triangle of a row', async () => {
    const { buildSampleLod } = await import('../../scripts/fixtures/lodka.ts');
    const { lodkaCodec } = await import('../../shared/formats/lodka/codec.ts');
    const doc = lodkaCodec.decode(encodeLod(buildSampleLod()));
    const tree = lodkaCodec.outline(doc);
    const mesh = [...nodes(tree)].find((n) => n.kind === 'mesh')!;
    const layout = (p: (string | number)[]) => arrayPage(doc, [...mesh.path, ...p], 0, 1, (nm, data, at) => lodkaCodec.arrayLayout!(doc, nm, data, at))!;
    expect(layout(['meshPointsPos']).columns).toEqual(['x', 'y', 'z']);
    expect(layout(['faceGroups', 0, 'vertexIndex']).columns).toEqual(['v0', 'v1', 'v2']);
    expect(layout(['meshTxCrd']).columns).toEqual(['u', 'v']);
    const m = (await import('../../shared/model/path.ts')).getAt(doc, mesh.path) as { meshPointsPos: Float32Array; faceGroups: { vertexIndex: Uint32Array }[] };
    const h = lodkaCodec.query!(doc, { kind: 'highlight', path: [...mesh.path, 'meshPointsPos'], row: 1 }) as { points: Float32Array };
    expect(Array.from(h.points)).toEqual(Array.from(m.meshPointsPos.slice(3, 6)));
    const t = lodkaCodec.query!(doc, { kind: 'highlight', path: [...mesh.path, 'faceGroups', 0, 'vertexIndex'], row: 0 }) as { triangles: Float32Array };
    const v1 = m.faceGroups[0]!.vertexIndex[1]!;
    expect(Array.from(t.triangles.slice(3, 6))).toEqual(Array.from(m.meshPointsPos.slice(v1 * 3, v1 * 3 + 3)));
  });
});
