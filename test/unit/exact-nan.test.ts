/**
 * Exact bits of untouched floats (issue: a signalling NaN 0x7fa00123 in a LODka PXI1 item came
 * back as 0x7fe00123 after an edit to another field of that item or of another item, because the
 * proxy writer rebuilt records with a spread that dropped the kept bytes, and the kept bytes were
 * the whole record's, so any edit in it let them go).
 */
import { describe, expect, it } from 'vitest';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { Collider, ProxyItem54, ProxyItem56, type Col1Chunk, type LodDocument, type Pxi1Chunk } from '../../shared/formats/lodka/schema.ts';
import { walkChunks } from '../../shared/formats/lodka/views.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { setResolutionCommand } from '../../shared/formats/p3d/mlod/edits.ts';

const SNAN = 0x7fa00123;
const SNAN2 = 0xffa00456;

function fieldOffset(s: { fields: readonly { name: string; offset?: number }[] }, name: string): number {
  return s.fields.find((f) => f.name === name)!.offset!;
}

/** The sample model with signalling NaNs planted in PXI1 items 0 and 1 and in a collider's float tag. */
function planted(): { bytes: Uint8Array; at: number[]; pxiPath: NodePath; colPath: NodePath } {
  const bytes = lodkaCodec.encode(buildSampleLod());
  const doc = lodkaCodec.decode(bytes) as LodDocument;
  const found = [...walkChunks(doc)];
  const pxi = found.find((f) => f.chunk.id === 'PXI1')!;
  const p = pxi.chunk as Pxi1Chunk;
  const schema = p.itemSize === 56 ? ProxyItem56 : ProxyItem54;
  const col = found.find((f) => f.chunk.id === 'COL1')!;
  const c = col.chunk as Col1Chunk;
  const out = bytes.slice();
  const dv = new DataView(out.buffer);
  const at = [
    p.items[0]!.$span![0] + fieldOffset(schema, 'proxyPosition') + 4,
    p.items[1]!.$span![0] + fieldOffset(schema, 'proxyScale'),
    p.items[1]!.$span![0] + fieldOffset(schema, 'proxyRotation') + 8,
    c.colliders[0]!.$span![0] + fieldOffset(Collider, 'colTagFloat'),
  ];
  dv.setUint32(at[0]!, SNAN, true);
  dv.setUint32(at[1]!, SNAN, true);
  dv.setUint32(at[2]!, SNAN2, true);
  dv.setUint32(at[3]!, SNAN, true);
  return { bytes: out, at, pxiPath: pxi.path, colPath: col.path };
}

const bitsAt = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

describe('untouched floats keep their exact bits after an edit', () => {
  it('LODka PXI1 and COL1: edits to another field of the item, another element of the tuple, another item', () => {
    const { bytes, at, pxiPath, colPath } = planted();
    const doc = lodkaCodec.decode(bytes) as LodDocument;
    // Untouched: byte-identical.
    expect(lodkaCodec.encode(doc)).toEqual(bytes);
    const items = [...pxiPath, 'items'];
    applyCommand(doc, { op: 'set', path: [...items, 0, 'proxyVisible'], value: 0 });
    applyCommand(doc, { op: 'set', path: [...items, 2, 'proxyPosition'], value: [1, 2, 3] });
    // One element of a tuple edited, its NaN neighbours left as they are.
    const scale = [...getAt(doc, [...items, 1, 'proxyScale'])];
    scale[2] = 7;
    applyCommand(doc, { op: 'set', path: [...items, 1, 'proxyScale'], value: scale });
    applyCommand(doc, { op: 'set', path: [...colPath, 'colliders', 0, 'colTag'], value: 42 });
    for (const reuseRaw of [true, false]) {
      const out = lodkaCodec.encode(doc, { reuseRaw });
      expect(out.length).toBe(bytes.length);
      expect(bitsAt(out, at[0]!).toString(16), 'PXI1 item 0 proxyPosition[1]').toBe(SNAN.toString(16));
      expect(bitsAt(out, at[1]!).toString(16), 'PXI1 item 1 proxyScale[0]').toBe(SNAN.toString(16));
      expect(bitsAt(out, at[2]!).toString(16), 'PXI1 item 1 proxyRotation[2]').toBe(SNAN2.toString(16));
      expect(bitsAt(out, at[3]!).toString(16), 'COL1 collider 0 colTagFloat').toBe(SNAN.toString(16));
      // The edits themselves landed.
      const back = lodkaCodec.decode(out) as LodDocument;
      const p = [...walkChunks(back)].find((f) => f.chunk.id === 'PXI1')!.chunk as Pxi1Chunk;
      expect(p.items[0]!.proxyVisible).toBe(0);
      expect(p.items[1]!.proxyScale[2]).toBe(7);
      expect(p.items[2]!.proxyPosition).toEqual([1, 2, 3]);
    }
  });

  it('a NaN field edited to a number is written as that number', () => {
    const { bytes, at, pxiPath } = planted();
    const doc = lodkaCodec.decode(bytes) as LodDocument;
    applyCommand(doc, { op: 'set', path: [...pxiPath, 'items', 0, 'proxyPosition'], value: [0, 0.5, 0] });
    const out = lodkaCodec.encode(doc);
    expect(new DataView(out.buffer, out.byteOffset).getFloat32(at[0]!, true)).toBe(0.5);
  });
});

function getAt(doc: unknown, path: readonly (string | number)[]): number[] {
  let x = doc as Record<string | number, unknown>;
  for (const k of path) x = x[k] as Record<string | number, unknown>;
  return x as unknown as number[];
}

describe('MLOD lone float fields keep their exact bits (found by the fuzz campaign: a LOD resolution)', () => {
  /** The sample MLOD with signalling NaNs as LOD 0's resolution and its #Animation# frame time. */
  function plantedMlod(): { bytes: Uint8Array; resolutionAt: number; timeAt: number } {
    const bytes = encodeMlod(buildSampleMlod());
    const doc = decodeMlod(bytes);
    const lod = doc.lods[0]!;
    const anim = lod.tags.find((t) => t.type === 'animation')!;
    const resolutionAt = lod.$span![1] - 4;
    const timeAt = anim.$span![1] - 12 * (lod.points.length / 3) - 4;
    const out = bytes.slice();
    const dv = new DataView(out.buffer);
    expect(dv.getFloat32(resolutionAt, true)).toBe(lod.resolution);
    expect(dv.getFloat32(timeAt, true)).toBe(0.5);
    dv.setUint32(resolutionAt, SNAN, true);
    dv.setUint32(timeAt, SNAN2, true);
    return { bytes: out, resolutionAt, timeAt };
  }

  it('written from fields, and after an edit elsewhere, both NaNs keep their bytes', () => {
    const { bytes, resolutionAt, timeAt } = plantedMlod();
    const doc = decodeMlod(bytes);
    expect(encodeMlod(doc, { reuseRaw: false })).toEqual(bytes);
    applyCommand(doc, setResolutionCommand(doc, 1, 3));
    const out = encodeMlod(doc, { reuseRaw: false });
    expect(bitsAt(out, resolutionAt)).toBe(SNAN);
    expect(bitsAt(out, timeAt)).toBe(SNAN2);
  });

  it('a NaN resolution edited to a number is written as that number', () => {
    const { bytes, resolutionAt } = plantedMlod();
    const doc = decodeMlod(bytes);
    applyCommand(doc, setResolutionCommand(doc, 0, 5));
    const out = encodeMlod(doc, { reuseRaw: false });
    expect(new DataView(out.buffer, out.byteOffset).getFloat32(resolutionAt, true)).toBe(5);
  });
});
