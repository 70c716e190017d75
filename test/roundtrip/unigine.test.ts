import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unigineAnimCodec, unigineMeshCodec } from '../../shared/formats/unigine/index.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

describe.skipIf(!hasCorpus)('Unigine corpus round trip', () => {
  const meshes = corpusFiles('unigine_mesh');
  const anims = corpusFiles('unigine_anim');
  it('has files to test', () => {
    expect(meshes.length).toBeGreaterThan(0);
    expect(anims.length).toBeGreaterThan(0);
  });
  for (const file of meshes) {
    it(`mesh ${basename(file)} decodes fully and re-encodes byte-identical`, () => {
      const bytes = readBytes(file);
      expect(unigineMeshCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(unigineMeshCodec, bytes, basename(file)) as ReturnType<typeof unigineMeshCodec.decode>;
      expect(unigineMeshCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
  for (const file of anims) {
    it(`anim ${basename(file)} decodes fully and re-encodes byte-identical`, () => {
      const bytes = readBytes(file);
      expect(unigineAnimCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(unigineAnimCodec, bytes, basename(file)) as ReturnType<typeof unigineAnimCodec.decode>;
      expect(doc.animations.length).toBeGreaterThan(0);
      expect(unigineAnimCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});
