/**
 * Per-record charges: a decoder that builds one JS object per record charges the list to the
 * decoding memory budget once, before building it. A forged count that the file's size still
 * allows (the bytes after it are filler) must end in a BudgetError naming the count's offset and
 * the list's path, before any record is built, instead of growing the heap towards the limit.
 */
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { decodePaa } from '../../shared/formats/texture/paa.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import '../../shared/formats/index.ts';
import { formatById } from '../../shared/formats/index.ts';
import { Bounds } from '../../shared/formats/unigine/schema.ts';
import { writeCompact } from '../../shared/formats/unigine/compact.ts';
import { BinaryWriter } from '../../shared/binary/writer.ts';
import { grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { unigineFixtures } from '../../scripts/fixtures/unigine.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';

const MiB = 1024 * 1024;

function budgetError(format: Parameters<typeof formatById>[0], bytes: Uint8Array, maxMemory: number): BudgetError {
  const t0 = performance.now();
  let err: unknown;
  try {
    formatById(format).decode(bytes, { fileName: 'forged', maxMemory });
  } catch (e) {
    err = e;
  }
  expect(err, String(err)).toBeInstanceOf(BudgetError);
  // Refused at the count, not after building records from the filler.
  expect(performance.now() - t0).toBeLessThan(5000);
  return err as BudgetError;
}

/** `head`, then `filler` zero bytes. */
function withFiller(head: Uint8Array, filler: number): Uint8Array {
  const out = new Uint8Array(head.length + filler);
  out.set(head);
  return out;
}

describe('forged record counts are charged before the list is built', () => {
  it('grimrock-model: a node count the filler allows', () => {
    const fx = grimrockFixtures().find((f) => f.kind === 'model')!;
    const bytes = formatById('grimrock-model').encode(fx.doc as object);
    const n = 200_000;
    const forged = withFiller(bytes.subarray(0, 12), n * 60);
    new DataView(forged.buffer).setInt32(8, n, true);
    const e = budgetError('grimrock-model', forged, 16 * MiB);
    expect(e.offset).toBe(8);
    expect(e.path).toBe('nodes');
    expect(e.message).toMatch(/200000 node record/);
  });

  it('grimrock-animation: an item count the filler allows', () => {
    const fx = grimrockFixtures().find((f) => f.kind === 'animation')!;
    const bytes = formatById('grimrock-animation').encode(fx.doc as object);
    const doc = formatById('grimrock-animation').decode(bytes) as { items: { $span?: [number, number] }[] };
    const at = doc.items[0]!.$span![0] - 4;
    const n = 400_000;
    const forged = withFiller(bytes.subarray(0, at + 4), n * 16);
    new DataView(forged.buffer).setInt32(at, n, true);
    const e = budgetError('grimrock-animation', forged, 16 * MiB);
    expect(e.offset).toBe(at);
    expect(e.path).toBe('items');
  });

  it('unigine-mesh: a bone count the filler allows', () => {
    const fx = unigineFixtures().find((f) => f.doc.magic === 'ms10' || f.doc.magic === 'ms11')!;
    const bytes = formatById('unigine-mesh').encode(fx.doc as object);
    const at = 4 + Bounds.fixedSize!;
    const w = new BinaryWriter();
    const n = 3_000_000;
    writeCompact(w, n);
    const count = w.finish();
    const forged = withFiller(bytes.subarray(0, at), count.length + n * 3);
    forged.set(count, at);
    const e = budgetError('unigine-mesh', forged, 16 * MiB);
    expect(e.offset).toBe(at);
    expect(e.path).toBe('bones');
  });

  it('lodka-lod: a chunk whose texture count the filler allows', () => {
    const bytes = formatById('lodka-lod').encode(buildSampleLod() as object);
    // One more top-level chunk: TXTR, Size, Count, then TexturesType and 20 filler bytes per texture.
    const n = 500_000;
    const body = 1 + n * 20;
    const forged = withFiller(bytes, 12 + body);
    const dv = new DataView(forged.buffer);
    forged.set([0x54, 0x58, 0x54, 0x52], bytes.length);
    dv.setInt32(bytes.length + 4, body, true);
    dv.setInt32(bytes.length + 8, n, true);
    const e = budgetError('lodka-lod', forged, 16 * MiB);
    // Where the list starts (after the chunk header and TexturesType), in the new chunk.
    expect(e.offset).toBe(bytes.length + 13);
    expect(e.path).toBe('TXTR[0]');
    expect(e.message).toMatch(/500000 textures record/);
  });

  it('p3d-mlod: a LOD count the filler allows', () => {
    const bytes = formatById('p3d-mlod').encode(buildSampleMlod() as object);
    // "MLOD", version, LOD count: each LOD is at least 41 bytes in the file.
    const n = 200_000;
    const forged = withFiller(bytes.subarray(0, 12), n * 41);
    new DataView(forged.buffer).setUint32(8, n, true);
    const e = budgetError('p3d-mlod', forged, 16 * MiB);
    expect(e.offset).toBe(8);
    expect(e.path).toBe('');
    expect(e.message).toMatch(/200000 LOD record/);
  });

  it('PAA: a file of nothing but empty tags is charged as its tag list grows', () => {
    // DXT1 type word, then 100,000 empty "GGATCGVA" tags (12 bytes each), then no palette.
    const n = 100_000;
    const bytes = new Uint8Array(2 + n * 12 + 2);
    const dv = new DataView(bytes.buffer);
    dv.setUint16(0, 0xff01, true);
    for (let i = 0; i < n; i++) {
      bytes.set([0x47, 0x47, 0x41, 0x54, 0x43, 0x47, 0x56, 0x41], 2 + i * 12);
    }
    let err: unknown;
    try {
      withBudget(new MemoryBudget(4 * MiB), () => decodePaa(bytes));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetError);
    const e = err as BudgetError;
    // 4 MiB / (64 x 256 bytes) = 256 blocks of 64 tags: refused at the block after.
    expect(e.path).toBe('tags[16384]');
    expect(e.offset).toBe(2 + 16384 * 12);
  });
});
