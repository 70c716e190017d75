/** A short, fixed-seed run of the texture fuzzer: every mutant ends in success or one DecodeError. */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzTextures, generatedTextureSeeds, runTextureInput } from '../../fuzz/lib/texture-fuzz.ts';
import type { Seed } from '../../fuzz/lib/mutate.ts';
import { corpusFiles, readBytes } from '../helpers/corpus.ts';

describe('texture fuzzing', () => {
  it('400 mutants of corpus and generated textures: no crash, no error outside the input', () => {
    const seeds: Seed[] = [...generatedTextureSeeds()];
    for (const folder of ['paa', 'dds', 'tga']) {
      for (const f of corpusFiles(folder)) {
        const bytes = readBytes(f);
        if (bytes.length <= 48 * 1024) seeds.push({ name: basename(f), format: 'texture', bytes, streams: [] });
      }
    }
    const stats = fuzzTextures(seeds, { inputs: 400, seconds: 60, seed: 3 });
    expect(stats.findings.map((f) => `${f.seed} ${f.kind} ${f.desc}: ${f.message}`)).toEqual([]);
    expect(stats.inputs).toBe(400);
    expect(stats.decoded).toBeGreaterThan(20);
    expect(stats.refused).toBeGreaterThan(20);
  });

  it('the generated seeds go through the whole pipeline, and a non-texture is refused', () => {
    for (const s of generatedTextureSeeds()) expect(runTextureInput(s.bytes, s.name), s.name).toEqual({ outcome: 'ok' });
    expect(runTextureInput(new Uint8Array([1, 2, 3]), 'x.paa')).toEqual({ outcome: 'refused' });
  });
});
