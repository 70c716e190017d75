import { describe, expect, it } from 'vitest';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { LodChunk, LodDocument } from '../../shared/formats/lodka/schema.ts';
import { walkChunks } from '../../shared/formats/lodka/views.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

const files = corpusFiles('lodka');

describe.skipIf(!hasCorpus || files.length === 0)('LODka corpus round trip', () => {
  for (const file of files) {
    const name = file.split(/[\\/]/).pop()!;
    it(`${name} re-encodes byte for byte, reusing raw bytes and from fields`, () => {
      expectRoundTrip(lodkaCodec, readBytes(file), name);
    });

    it(`${name} decodes every chunk into typed fields (no raw fallback)`, () => {
      const doc = lodkaCodec.decode(readBytes(file)) as LodDocument;
      const ids: string[] = [];
      for (const { chunk } of walkChunks(doc)) {
        ids.push(chunk.id);
        expect('data' in (chunk as LodChunk), `${chunk.id} kept raw`).toBe(false);
      }
      expect(ids[0]).toBe('LOD1');
      expect(doc.trailing.length).toBe(0);
    });
  }
});
