/**
 * ODOL floats are numbers in the document; a NaN with a payload keeps its stored bytes with its
 * record (the schema toolkit's NaN bits), never a `NaN(0x...)` string. Signalling and negative
 * NaNs are planted in every kind of float the codec reads: struct fields and tuple elements
 * (ModelInfo, bounds, proxies, materials), the floats read by hand (section areas, UV ranges,
 * frame times, animation phases and parameters, DayZ material floats, v7 fvalue) and the LOD
 * resolutions. They must survive an untouched save, a save from fields, and edits elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../shared/model/commands.ts';
import { dropRaw } from '../../shared/model/lossless.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolDocument } from '../../shared/formats/p3d/odol/document.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import type { OdolV7Document } from '../../shared/formats/p3d/odol/v7.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { buildOdolDocument, buildOdolV7Document } from '../../scripts/fixtures/odol.ts';

/** A float whose f32 bytes appear nowhere else in the fixture, one per planted field. */
const marker = (k: number): number => 1234.5 + k * 0.125;
/** The NaN planted for marker k: signalling with a payload, every other one negative. */
const nanBits = (k: number): number => ((k & 1 ? 0xffa00000 : 0x7fa00000) + 0x101 * (k + 1)) >>> 0;

const u32At = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

function find(bytes: Uint8Array, value: number): number[] {
  const pattern = new Uint8Array(new Float32Array([value]).buffer);
  const hits: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) {
    if (bytes[i] === pattern[0] && bytes[i + 1] === pattern[1] && bytes[i + 2] === pattern[2] && bytes[i + 3] === pattern[3]) hits.push(i);
  }
  return hits;
}

function getAt(doc: unknown, path: NodePath): unknown {
  let x = doc as Record<string | number, unknown>;
  for (const k of path) x = x[k] as Record<string | number, unknown>;
  return x;
}

/** Encodes `doc`, then replaces each marker's bytes (found exactly once) by its NaN. */
function plant(doc: OdolDocument, paths: NodePath[]): { bytes: Uint8Array; at: number[] } {
  const bytes = odolCodec.encode(doc);
  const at = paths.map((p, k) => {
    const hits = find(bytes, marker(k));
    expect(hits, `marker of ${p.join('/')}`).toHaveLength(1);
    return hits[0]!;
  });
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  at.forEach((a, k) => dv.setUint32(a, nanBits(k), true));
  return { bytes, at };
}

/** No string in the document looks like the old `NaN(0x...)` floats. */
function nanStrings(root: unknown, seen = new Set<unknown>()): string[] {
  if (typeof root === 'string') return /^NaN\(/.test(root) ? [root] : [];
  if (!root || typeof root !== 'object' || ArrayBuffer.isView(root) || seen.has(root)) return [];
  seen.add(root);
  return Object.values(root).flatMap((v) => nanStrings(v, seen));
}

function expectBits(out: Uint8Array, at: number[], label: string): void {
  at.forEach((a, k) => expect(u32At(out, a).toString(16), `${label}: planted NaN ${k}`).toBe(nanBits(k).toString(16)));
}

/** The v4x fields that get a marker, in marker order, and the document with the markers set. */
function v4xPlanted(version: number): { doc: OdolV4xDocument; paths: NodePath[] } {
  const doc = buildOdolDocument({ version, lods: 2, size: 4, animated: true });
  const lod = doc.lods[0]!;
  // A DayZ material type with its extra floats, and one animation frame.
  Object.assign(lod.materials[0]!, { type: 16, extra: new Array<number>(14).fill(0) });
  lod.frames = [{ time: 0, points: new Float32Array(3 * (lod.vertices.data.length / 3)) }];
  const paths: NodePath[] = ([
    ['modelInfo', 'head', 'boundingSphere'],
    ['modelInfo', 'head', 'aimingCenter', 1],
    ['lods', 0, 'proxies', 0, 'transform', 10],
    ['lods', 0, 'materials', 0, 'diffuse', 2],
    ['lods', 0, 'materials', 0, 'extra', 13],
    ['lods', 0, 'sections', 0, 'areaOverTex', 0],
    ['lods', 0, 'frames', 0, 'time'],
    ['lods', 0, 'bounds', 'bRadius'],
    ['lods', 0, 'uvSets', 0, 'range', 2],
    ['animations', 'classes', 0, 'minPhase'],
    ['animations', 'classes', 2, 'params', 6],
    ['lods', 1, 'resolution'],
  ] as NodePath[]).filter((p) => version >= 45 || !p.includes('range'));
  paths.forEach((p, k) => {
    const parent = getAt(doc, p.slice(0, -1)) as Record<string | number, unknown>;
    parent[p[p.length - 1]!] = marker(k);
  });
  return { doc, paths };
}

describe('ODOL NaN payloads are kept as numbers plus their bytes', () => {
  for (const version of [40, 50, 54, 73]) {
    it(`v${version}: every kind of float decodes to NaN (no string) and saves back bit for bit, from fields too`, () => {
      const { doc: built, paths } = v4xPlanted(version);
      const { bytes } = plant(built, paths);
      const doc = odolCodec.decode(bytes) as OdolV4xDocument;
      for (const p of paths) {
        const v = getAt(doc, p);
        expect(typeof v, p.join('/')).toBe('number');
        expect(Number.isNaN(v), p.join('/')).toBe(true);
      }
      expect(nanStrings(doc)).toEqual([]);
      expect(doc.lods[1]!.resolutionBits).toBe(nanBits(paths.length - 1));
      expect(odolCodec.encode(doc)).toEqual(bytes);
      dropRaw(doc);
      expect(odolCodec.encode(doc, { reuseRaw: false })).toEqual(bytes);
    });

    it(`v${version}: edits to other fields of the same records leave every NaN's bytes; an edited NaN is written as its new value`, () => {
      const { doc: built, paths } = v4xPlanted(version);
      const { bytes, at } = plant(built, paths);
      const doc = odolCodec.decode(bytes) as OdolV4xDocument;
      const edits: [NodePath, unknown][] = [
        [['modelInfo', 'head', 'viewDensity'], -50],
        [['modelInfo', 'head', 'aimingCenter'], [1, Number.NaN, 3]],
        [['lods', 0, 'materials', 0, 'specularPower'], 7],
        [['lods', 0, 'sections', 0, 'special'], 1],
        [['lods', 0, 'bounds', 'bCenter'], [0.5, 0.5, 0.5]],
        [['animations', 'classes', 0, 'maxPhase'], 0.75],
        [['animations', 'classes', 2, 'params', 0], 0.25],
      ];
      for (const [path, value] of edits) applyCommand(doc, { op: 'set', path, value });
      for (const reuseRaw of [true, false]) {
        const out = odolCodec.encode(doc, { reuseRaw });
        expect(out.length).toBe(bytes.length);
        expectBits(out, at, `reuseRaw ${reuseRaw}`);
        const back = odolCodec.decode(out) as OdolV4xDocument;
        expect(back.modelInfo.head.viewDensity).toBe(-50);
        expect((back.modelInfo.head.aimingCenter as number[])[2]).toBe(3);
        expect(back.lods[0]!.materials[0]!.specularPower).toBe(7);
        expect(back.animations!.classes[0]!.maxPhase).toBe(0.75);
        expect(back.animations!.classes[2]!.params[0]).toBe(0.25);
      }
      // A NaN field set to a number is that number, in a struct, a hand-read field and a tuple.
      applyCommand(doc, { op: 'set', path: ['modelInfo', 'head', 'boundingSphere'], value: 2.5 });
      applyCommand(doc, { op: 'set', path: ['lods', 0, 'frames', 0, 'time'], value: 0.5 });
      applyCommand(doc, { op: 'set', path: ['lods', 0, 'sections', 0, 'areaOverTex'], value: [4] });
      const out = odolCodec.encode(doc, { reuseRaw: false });
      const dv = new DataView(out.buffer, out.byteOffset);
      expect(dv.getFloat32(at[0]!, true)).toBe(2.5);
      expect(dv.getFloat32(at[6]!, true)).toBe(0.5);
      expect(dv.getFloat32(at[5]!, true)).toBe(4);
      expect(u32At(out, at[1]!).toString(16)).toBe(nanBits(1).toString(16));
    });
  }

  it('v7: fvalue, footer and proxy floats and the resolutions keep their NaN bytes', () => {
    const doc = buildOdolV7Document({ lods: 2, size: 4 });
    const paths: NodePath[] = [
      ['lods', 0, 'fvalue', 4],
      ['lods', 0, 'proxies', 0, 'rotation', 8],
      ['footer', 'offset2', 0],
      ['lods', 1, 'resolution'],
    ];
    paths.forEach((p, k) => {
      const parent = getAt(doc, p.slice(0, -1)) as Record<string | number, unknown>;
      parent[p[p.length - 1]!] = marker(k);
    });
    const { bytes, at } = plant(doc, paths);
    const back = odolCodec.decode(bytes) as OdolV7Document;
    for (const p of paths) expect(Number.isNaN(getAt(back, p)), p.join('/')).toBe(true);
    expect(nanStrings(back)).toEqual([]);
    expect(odolCodec.encode(back)).toEqual(bytes);
    applyCommand(back, { op: 'set', path: ['lods', 0, 'fvalue', 0], value: 9 });
    applyCommand(back, { op: 'set', path: ['footer', 'mapIconColor'], value: 1 });
    dropRaw(back);
    const out = odolCodec.encode(back, { reuseRaw: false });
    expectBits(out, at, 'v7 from fields');
    expect((odolCodec.decode(out) as OdolV7Document).lods[0]!.fvalue[0]).toBe(9);
  });
});
