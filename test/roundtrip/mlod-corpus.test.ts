import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

const files = corpusFiles('p3d_mlod').filter((f) => f.toLowerCase().endsWith('.p3d'));

describe.skipIf(!hasCorpus)('MLOD corpus round trip', () => {
  it('has the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
  });

  it.each(files.map((f) => [basename(f), f] as const))('%s decodes fully and re-encodes byte for byte', (name, file) => {
    const bytes = readBytes(file);
    expect(mlodCodec.probe(bytes)).toBe(true);
    const doc = expectRoundTrip(mlodCodec, bytes, name) as MlodDocument;
    // Decoded fully: every LOD ends where the next begins and nothing is left unexplained.
    expect(doc.lods.length).toBeGreaterThan(0);
    let at = 12;
    for (const lod of doc.lods) {
      expect(lod.$span![0]).toBe(at);
      at = lod.$span![1];
      expect(lod.tags[lod.tags.length - 1]!.type).toBe('end');
    }
    expect(at + doc.trailing.length).toBe(bytes.length);
    // Views work on every real file.
    const info = mlodCodec.info(doc, bytes.length);
    expect(info.meshes.length).toBe(doc.lods.length);
    expect(mlodCodec.outline(doc).children![0]!.count).toBe(doc.lods.length);
    const problems = mlodCodec.validate(doc);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('reads the SP3X file (fixed 32-byte texture and 64-byte tag name fields)', () => {
    const file = files.find((f) => f.includes('kat_iv'))!;
    const doc = mlodCodec.decode(readBytes(file)) as MlodDocument;
    expect(doc.lods[0]!.signature).toBe('SP3X');
    expect(doc.lods[0]!.version).toBe(0x99);
    expect(doc.lods[0]!.faces.textureFields!.length).toBe(doc.lods[0]!.faces.vertexCount.length * 32);
    expect(doc.lods[0]!.tags.some((t) => t.name === '#Selected#' && t.type === 'selection')).toBe(true);
  });

  it('keeps the #UVSet# whose size leaves out the set id', () => {
    const file = files.find((f) => f.includes('1ozCopperCoin'))!;
    const doc = mlodCodec.decode(readBytes(file)) as MlodDocument;
    const uv = doc.lods[0]!.tags.find((t) => t.type === 'uvset');
    expect(uv && uv.type === 'uvset' && uv.sizeExcludesId).toBe(true);
  });

  it('turns every truncation of a real file into a DecodeError', () => {
    const bytes = readBytes(files.find((f) => f.includes('sample_2_crate'))!);
    for (let cut = 0; cut < bytes.length; cut += 97) {
      try {
        mlodCodec.decode(bytes.subarray(0, cut));
        throw new Error(`decoded a file cut at ${cut}`);
      } catch (e) {
        expect(isDecodeError(e), String(e)).toBe(true);
      }
    }
  });
});
