import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

const files = corpusFiles('p3d_odol');

describe.skipIf(!hasCorpus || files.length === 0)('ODOL corpus', () => {
  for (const file of files) {
    it(`${basename(file)} decodes fully and round-trips byte for byte`, () => {
      const bytes = readBytes(file);
      expect(odolCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(odolCodec, bytes, basename(file)) as OdolV4xDocument;
      // Fully decoded: no LOD kept an unparsed tail, nothing after the LODs stayed raw.
      for (const lod of doc.lods) expect(lod.tail).toBeUndefined();
      expect(doc.gaps).toBeUndefined();
      expect(doc.trailer.length).toBe(0);
      if (doc.version >= 60) expect(doc.physx).toBeDefined();
      // Every LOD has its vertex table and faces in range.
      for (const lod of doc.lods) {
        const n = lod.vertices.data.length / 3;
        let max = -1;
        for (const i of lod.faces.indices) if (i > max) max = i;
        expect(max).toBeLessThan(Math.max(n, 1));
      }
      expect(odolCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});
