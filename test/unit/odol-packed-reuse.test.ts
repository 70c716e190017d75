import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { dropRaw, markDirty } from '../../shared/model/lossless.ts';
import { buildLargeOdol, buildOdolDocument } from '../../scripts/fixtures/odol.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

// The encoder writes an array's stored compressed stream back when the stream still stands for
// the array's data, and compresses again otherwise. These edit arrays in place (same object, no
// other trace) and by replacement, encode, decode, and check that the edit is what comes back.

type Doc = OdolV4xDocument;

const decode = (b: Uint8Array): Doc => odolCodec.decode(b) as Doc;
/** Every field encoded (no `$raw` copies), as `odolCodec.encode(doc, { reuseRaw: false })`. */
const strict = (d: Doc): Uint8Array => {
  dropRaw(d);
  return odolCodec.encode(d, { reuseRaw: false });
};

const SOURCES: [string, () => Uint8Array | undefined][] = [
  ['generated v73 (LZO)', () => buildLargeOdol({ lods: 1, size: 40 })],
  ['generated v40 (LZSS)', () => odolCodec.encode(buildOdolDocument({ version: 40, lods: 1, size: 16 }))],
  ['real v73 (LZO)', () => (hasCorpus ? readBytes(corpusFiles('p3d_odol').find((f) => basename(f).includes('Jack-Colt__Overthrow-Mods__banana'))!) : undefined)],
];

describe('ODOL compressed arrays: stored stream or a new one', () => {
  for (const [name, source] of SOURCES) {
    it.skipIf(!source())(`${name}: an untouched array keeps its stored stream`, () => {
      const bytes = source()!;
      const doc = decode(bytes);
      const packed = doc.lods[0]!.vertices.packed!;
      expect(packed).toBeDefined();
      const back = decode(strict(doc));
      expect(back.lods[0]!.vertices.packed).toEqual(packed);
      expect(strict(decode(bytes))).toEqual(bytes);
    });

    it.skipIf(!source())(`${name}: a value edited in place survives (first, middle, last byte of the array)`, () => {
      const bytes = source()!;
      for (const where of ['first', 'middle', 'last'] as const) {
        const doc = decode(bytes);
        const data = doc.lods[0]!.vertices.data;
        const i = where === 'first' ? 0 : where === 'middle' ? data.length >> 1 : data.length - 1;
        data[i] = data[i]! + 0.5;
        const expected = data.slice();
        const back = decode(strict(doc));
        expect(back.lods[0]!.vertices.data).toEqual(expected);
      }
    });

    it.skipIf(!source())(`${name}: an in-place edit marked dirty survives the default (raw-reusing) encode`, () => {
      const doc = decode(source()!);
      const data = doc.lods[0]!.vertices.data;
      data[1] = data[1]! - 2;
      markDirty(doc, ['lods', 0, 'vertices']);
      const back = decode(odolCodec.encode(doc));
      expect(back.lods[0]!.vertices.data[1]).toBe(data[1]);
    });

    it.skipIf(!source())(`${name}: a replaced array survives; an equal replacement keeps the stream`, () => {
      const bytes = source()!;
      const doc = decode(bytes);
      const verts = doc.lods[0]!.vertices;
      const packed = verts.packed!;
      const moved = verts.data.map((x, k) => (k % 3 === 1 ? x + 1 : x));
      verts.data = moved;
      const back = decode(strict(doc));
      expect(back.lods[0]!.vertices.data).toEqual(moved);
      expect(back.lods[0]!.vertices.packed).not.toEqual(packed);

      const again = decode(bytes);
      again.lods[0]!.vertices.data = again.lods[0]!.vertices.data.slice();
      expect(strict(again)).toEqual(bytes);
    });
  }
});
