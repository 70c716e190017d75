/**
 * ODOL saved as pieces (FormatCodec.encodePieces): the header with the LOD table, each LOD (an
 * untouched one a view of the input, not a copy), the bytes between LODs, the PhysX block and the
 * trailer. Joined they are exactly what `encode` writes, for untouched, edited and re-encoded
 * documents, and the LOD table's offsets point at the LOD pieces.
 */
import { describe, expect, it } from 'vitest';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { dropRaw, markDirty } from '../../shared/model/lossless.ts';
import { buildLargeOdol, buildOdolDocument, buildOdolV7 } from '../../scripts/fixtures/odol.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

type Doc = OdolV4xDocument;
const decode = (b: Uint8Array): Doc => odolCodec.decode(b) as Doc;
const pieces = (d: Doc, reuseRaw?: boolean): Uint8Array[] => odolCodec.encodePieces!(d, reuseRaw === undefined ? {} : { reuseRaw });

/** Each LOD's [start, end) in the file it was decoded from: the decoder reads them from the LOD table. */
function lodSpans(doc: Doc): [number, number][] {
  return doc.lods.map((l, i) => {
    const span = (l as { $span?: [number, number] }).$span;
    expect(span, `LOD ${i} has a span`).toBeDefined();
    return span!;
  });
}

describe('ODOL encodePieces', () => {
  it('joined pieces of a generated multi-LOD file are the file; untouched LODs are views of the input', () => {
    const bytes = odolCodec.encode(buildOdolDocument({ version: 73, lods: 3, size: 12, animated: true }));
    const doc = decode(bytes);
    const ps = pieces(doc);
    expect(joinBytes(ps)).toEqual(bytes);
    // One header piece, then the three LODs, each the input's own memory.
    const views = ps.filter((p) => p.buffer === bytes.buffer);
    expect(views.length).toBeGreaterThanOrEqual(3);
    expect(ps[0]!.buffer).not.toBe(bytes.buffer);
    // From fields (no stored bytes): still the same file.
    const bare = decode(bytes);
    dropRaw(bare);
    expect(joinBytes(pieces(bare, false))).toEqual(bytes);
  });

  it('an edited middle LOD: the pieces equal encode, and the LOD table points at each LOD where it now lies', () => {
    const doc = decode(odolCodec.encode(buildOdolDocument({ version: 73, lods: 3, size: 12 })));
    // A longer texture list makes LOD 1 longer, so every LOD after it moves.
    doc.lods[1]!.textures.push('data\\a_texture_name_that_moves_the_next_lod.paa');
    markDirty(doc, ['lods', 1, 'textures']);
    const ps = pieces(doc);
    const whole = odolCodec.encode(doc);
    expect(joinBytes(ps)).toEqual(whole);
    const back = decode(whole);
    expect(back.lods[1]!.textures).toContain('data\\a_texture_name_that_moves_the_next_lod.paa');
    // Each LOD's span in the new file (which the decoder took from the LOD table) is one of the pieces.
    let at = 0;
    const starts = new Set<number>();
    for (const p of ps) {
      starts.add(at);
      at += p.length;
    }
    for (const [start, end] of lodSpans(back)) {
      expect(starts.has(start)).toBe(true);
      expect(starts.has(end)).toBe(true);
    }
    // The untouched LODs are still views of the input the document came from.
    expect(ps.filter((p) => p.buffer === (doc.lods[0] as { $raw?: Uint8Array }).$raw!.buffer).length).toBeGreaterThanOrEqual(2);
  });

  it('a v7 file is one piece, the whole encode', () => {
    const bytes = buildOdolV7({ lods: 2, size: 6 });
    const doc = odolCodec.decode(bytes) as Doc;
    const ps = odolCodec.encodePieces!(doc);
    expect(ps).toHaveLength(1);
    expect(ps[0]).toEqual(bytes);
  });

  it('a large LZO file: the untouched pieces hold no copy of it', () => {
    const bytes = buildLargeOdol({ lods: 2, size: 120 });
    const doc = decode(bytes);
    const ps = pieces(doc);
    expect(joinBytes(ps)).toEqual(bytes);
    const copied = ps.filter((p) => p.buffer !== bytes.buffer).reduce((s, p) => s + p.length, 0);
    // Only the header (model info, LOD table) is written anew.
    expect(copied).toBeLessThan(bytes.length / 20);
  });

  it.skipIf(!hasCorpus)('every corpus ODOL: pieces, as saved and from fields, join to the file', () => {
    const files = corpusFiles('p3d_odol');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = readBytes(f);
      const doc = decode(bytes);
      expect(Buffer.compare(joinBytes(pieces(doc)), bytes), f).toBe(0);
      const bare = decode(bytes);
      dropRaw(bare);
      expect(Buffer.compare(joinBytes(pieces(bare, false)), bytes), f).toBe(0);
    }
  });
});
