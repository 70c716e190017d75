/**
 * DayZ EDDS textures: DDS files this test makes (from pictures, through the project's own DDS
 * writer) and real corpus DDS files are turned into EDDS by `writeEdds` (raw COPY levels and
 * chunked LZ4 levels), then every decoded mip must equal the DDS's pixel for pixel; the chained
 * LZ4 stream (a chunk reaching back into the one before), byte identity, and bad blocks as one
 * clear error each.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { decodeDds } from '../../shared/formats/texture/dds.ts';
import { eddsFromDds, writeEdds } from '../../shared/formats/texture/edds.ts';
import { decodeTexture, decodeTextureMip, encodeTexture, probeTexture, textureInfo, validateTexture } from '../../shared/formats/texture/index.ts';
import { replaceDds } from '../../shared/formats/texture/rewrite.ts';
import { lz4Compress } from '../../shared/formats/unigine/lz4.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

/** A DDS header (and no data) for a picture of w x h: `fourCC` for block formats, else BGRA32. */
function ddsHeader(w: number, h: number, mips: number, fourCC?: string): Uint8Array {
  const b = new Uint8Array(128);
  const dv = new DataView(b.buffer);
  b.set([0x44, 0x44, 0x53, 0x20]);
  dv.setUint32(4, 124, true);
  dv.setUint32(8, 0x21007, true);
  dv.setUint32(12, h, true);
  dv.setUint32(16, w, true);
  dv.setUint32(28, mips, true);
  dv.setUint32(76, 32, true);
  if (fourCC) {
    dv.setUint32(80, 4, true);
    for (let i = 0; i < 4; i++) b[84 + i] = fourCC.charCodeAt(i);
  } else {
    dv.setUint32(80, 0x41, true);
    dv.setUint32(88, 32, true);
    dv.setUint32(92, 0xff0000, true);
    dv.setUint32(96, 0xff00, true);
    dv.setUint32(100, 0xff, true);
    dv.setUint32(104, 0xff000000, true);
  }
  dv.setUint32(108, 0x401008, true);
  return b;
}

/** A picture with some structure (so LZ4 finds matches) and some noise (so it also keeps literals). */
function picture(w: number, h: number): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(w * h * 4);
  let seed = 7;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const o = (y * w + x) * 4;
      data[o] = (x * 8) & 255;
      data[o + 1] = (y * 4) & 255;
      data[o + 2] = ((x ^ y) & 8) ? 200 : (seed >>> 24) & 255;
      data[o + 3] = x < w / 2 ? 255 : 128;
    }
  }
  return { width: w, height: h, data };
}

/** A DDS made by the project's DDS writer: the header's format, a full mip chain of `picture`. */
function makeDds(w: number, h: number, fourCC?: string): Uint8Array {
  const full = Math.floor(Math.log2(Math.max(w, h))) + 1;
  const blank = new Uint8Array(128 + w * h * 8);
  blank.set(ddsHeader(w, h, full, fourCC));
  return replaceDds(decodeDds(blank), picture(w, h));
}

function expectSamePixels(edds: Uint8Array, dds: Uint8Array): number {
  const a = decodeTexture(edds, 'x.edds');
  const b = decodeTexture(dds, 'x.dds');
  if (a.kind !== 'dds' || b.kind !== 'dds') throw new Error('not DDS documents');
  expect(a.edds).toBeDefined();
  expect(a.mips.length).toBe(b.mips.length);
  for (let i = 0; i < b.mips.length; i++) {
    const pa = decodeTextureMip(a, i);
    const pb = decodeTextureMip(b, i);
    expect([pa.width, pa.height]).toEqual([pb.width, pb.height]);
    expect(Buffer.from(pa.data).equals(Buffer.from(pb.data)), `mip ${i}`).toBe(true);
  }
  return b.mips.length;
}

describe('EDDS', () => {
  it('BGRA32 and DXT5 made from DDS decode mip for mip to the same pixels, LZ4 chunks and COPY levels alike', () => {
    for (const fourCC of [undefined, 'DXT5', 'DXT1']) {
      const dds = makeDds(64, 32, fourCC);
      const edds = eddsFromDds(decodeDds(dds), { copyBelow: 256, chunk: 1000 });
      expect(probeTexture(edds, 'x.edds')).toBe('dds');
      const doc = decodeTexture(edds, 'x.edds');
      if (doc.kind !== 'dds' || !doc.edds) throw new Error('not read as EDDS');
      const tags = new Set(doc.edds.blocks.map((b) => b.tag));
      expect(tags).toEqual(new Set(['COPY', 'LZ4 ']));
      // The table lists the smallest level first.
      expect(doc.edds.blocks.map((b) => b.level)).toEqual([...doc.mips.keys()].reverse());
      expect(expectSamePixels(edds, dds)).toBe(7);
      expect(encodeTexture(doc)).toBe(edds);
      expect(validateTexture(doc)).toEqual([]);
      const info = textureInfo(doc, edds.length);
      expect(info.container).toBe('EDDS');
      expect(info.mips[0]!.compression).toBe('LZ4');
      expect(info.mips.at(-1)!.compression).toBe('COPY');
    }
  });

  it('a chunk whose matches reach back into the chunk before it (the chained stream)', () => {
    const first = new Uint8Array(32).map((_, i) => 65 + (i % 26));
    // Second chunk: no literals, a 12-byte match 32 back (into the first chunk), then 'Q' alone.
    const second = new Uint8Array([0x08, 32, 0, 0x10, 0x51]);
    const level = new Uint8Array(32 + 12 + 1);
    level.set(first);
    level.set(first.subarray(0, 12), 32);
    level[44] = 0x51;
    const block: number[] = [];
    const u32 = (v: number): void => { block.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24); };
    u32(level.length);
    const c1 = lz4Compress(first);
    u32(c1.length);
    block.push(...c1);
    u32((second.length | 0x80000000) >>> 0);
    block.push(...second);
    // A 45x1 "L8" texture with one level: the level is the bytes themselves.
    const head = ddsHeader(level.length, 1, 1);
    const hv = new DataView(head.buffer);
    hv.setUint32(80, 0x20000, true);
    hv.setUint32(88, 8, true);
    hv.setUint32(92, 0xff, true);
    const file = new Uint8Array([...head, ...[...'LZ4 '].map((c) => c.charCodeAt(0)), block.length, 0, 0, 0, ...block]);
    const doc = decodeTexture(file, 'chain.edds');
    if (doc.kind !== 'dds') throw new Error('not DDS');
    expect(Buffer.from(doc.bytes.subarray(doc.mips[0]!.offset)).equals(Buffer.from(level))).toBe(true);
    const img = decodeTextureMip(doc, 0);
    expect([...img.data.subarray(32 * 4, 33 * 4)]).toEqual([65, 65, 65, 255]);
    expect(img.data[44 * 4]).toBe(0x51);

    // The same match in the first chunk points before the level: refused, naming the chunk.
    const alone = new Uint8Array([...head, 0x4c, 0x5a, 0x34, 0x20, 13, 0, 0, 0, 45, 0, 0, 0, (second.length | 0) & 255, 0, 0, 0x80, ...second]);
    const e = expectDecodeError(() => decodeTexture(alone, 'bad.edds'));
    expect(e.path).toBe('edds/mips[0]/chunks[0]');
    expect(e.detail).toMatch(/points before the output/);
  });

  it('bad tables and blocks are one DecodeError each, with the offset and the block', () => {
    const dds = makeDds(16, 16);
    const good = eddsFromDds(decodeDds(dds), { copyBelow: 64, chunk: 300 });
    const table = 128;
    const cases: [string, (b: Uint8Array, dv: DataView) => void, RegExp, string][] = [
      ['unknown tag', (b) => b.set([0x5a, 0x49, 0x50, 0x20], table + 8), /neither COPY nor LZ4/, 'edds/table[1]'],
      ['block past the end', (_, dv) => dv.setUint32(table + 4 * 8 + 4, 0x7fffffff, true), /runs past the end of the file/, 'edds/table[4]/size'],
      ['COPY of the wrong size', (_, dv) => dv.setUint32(table + 4, 5, true), /COPY block of mip 4/, 'edds/table[0]/size'],
      ['LZ4 of the wrong decoded length', (b, dv) => dv.setUint32(lz4Start(b), 17, true), /decodes to 17 bytes, but mip 0 needs 1024/, 'edds/mips[0]/size'],
      ['unknown chunk flags', (b) => { b[lz4Start(b) + 7] = 0x40; }, /flags 0x40/, 'edds/mips[0]/chunks[0]/flags'],
    ];
    for (const [what, spoil, message, path] of cases) {
      const b = good.slice();
      spoil(b, new DataView(b.buffer));
      const e = expectDecodeError(() => decodeTexture(b, 'x.edds'));
      expect(e.detail, what).toMatch(message);
      expect(e.path, what).toBe(path);
      expect(e.offset, what).toBeGreaterThanOrEqual(0);
      expect(e.offset, what).toBeLessThan(b.length);
    }
    // Cut anywhere after the first table entry: an EDDS error, never a crash (and never the
    // plain-DDS "mip needs" message this file used to stop with).
    for (let cut = 136; cut < good.length; cut += 7) {
      const e = expectDecodeError(() => decodeTexture(good.subarray(0, cut), 'x.edds'));
      expect(e.detail).not.toMatch(/^mip \d+x\d+ needs/);
    }
  });

  it('a forged large texture is refused by the memory budget before its buffer is made', () => {
    const head = ddsHeader(16384, 16384, 1, 'DXT5');
    const file = writeEdds(head, [new Uint8Array(0)], { copyBelow: 0 });
    // The LZ4 block claims 0 bytes; patch its declared length to the real level size (256 MiB).
    new DataView(file.buffer).setUint32(128 + 8, 16384 * 16384, true);
    expect(() => withBudget(new MemoryBudget(64 << 20), () => decodeTexture(file, 'big.edds'))).toThrow(BudgetError);
  });

  it.skipIf(!hasCorpus)('real DDS files of the corpus, made into EDDS, decode to the same pixels', () => {
    const files = corpusFiles('dds');
    expect(files.length).toBeGreaterThan(0);
    let mips = 0;
    for (const f of files) {
      const dds = readBytes(f);
      const doc = decodeDds(dds);
      if (doc.cube) continue;
      const edds = eddsFromDds(doc);
      mips += expectSamePixels(edds, dds);
    }
    expect(mips).toBeGreaterThan(files.length);
  });

  // No real .edds is in the corpus yet (DayZ's data is not redistributable; public mods keep
  // theirs inside PBOs). When one is added under edds/, it must decode whole.
  const realDir = join(corpusDir, 'edds');
  const real = existsSync(realDir) ? readdirSync(realDir).filter((f) => f.toLowerCase().endsWith('.edds')) : [];
  it.skipIf(real.length === 0)('real EDDS files of the corpus decode every mip (skipped: no corpus edds/ folder)', () => {
    for (const f of real) {
      const doc = decodeTexture(readBytes(join(realDir, f)), f);
      expect(validateTexture(doc)).toEqual([]);
    }
  });
});

/** Where the first LZ4 block (the largest level, last in the table) starts. */
function lz4Start(b: Uint8Array): number {
  const dv = new DataView(b.buffer, b.byteOffset);
  const n = dv.getUint32(28, true);
  let p = 128 + 8 * n;
  for (let i = 0; i < n - 1; i++) p += dv.getUint32(128 + 8 * i + 4, true);
  return p;
}
