import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grimrockAnimationCodec, grimrockModelCodec } from '../../shared/formats/grimrock/index.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

describe.skipIf(!hasCorpus)('Grimrock corpus round trip', () => {
  const models = corpusFiles('grimrock_model');
  const anims = corpusFiles('grimrock_animation');
  it('has files to test', () => {
    expect(models.length).toBeGreaterThan(0);
    expect(anims.length).toBeGreaterThan(0);
  });
  for (const file of models) {
    it(`model ${basename(file)} decodes fully and re-encodes byte-identical`, () => {
      const bytes = readBytes(file);
      expect(grimrockModelCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(grimrockModelCodec, bytes, basename(file)) as ReturnType<typeof grimrockModelCodec.decode>;
      expect(doc.nodes.length).toBe(doc.numNodes);
      expect(grimrockModelCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
  for (const file of anims) {
    it(`animation ${basename(file)} decodes fully and re-encodes byte-identical`, () => {
      const bytes = readBytes(file);
      expect(grimrockAnimationCodec.probe(bytes)).toBe(true);
      const doc = expectRoundTrip(grimrockAnimationCodec, bytes, basename(file)) as ReturnType<typeof grimrockAnimationCodec.decode>;
      expect(doc.items.length).toBe(doc.numItems);
      expect(grimrockAnimationCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});
