/** A short, fixed-seed run of the PBO fuzzer: every mutant ends in success or one DecodeError. */
import { describe, expect, it } from 'vitest';
import { fuzzPbo, generatedPboSeeds, runPboInput } from '../../fuzz/lib/pbo-fuzz.ts';

describe('PBO fuzzing', () => {
  it('1500 mutants of generated archives: no crash, no error outside the input, no unsafe name extracted', () => {
    const stats = fuzzPbo(generatedPboSeeds(), { inputs: 1500, seconds: 60, seed: 5 });
    expect(stats.findings.map((f) => `${f.seed} ${f.kind} ${f.desc}: ${f.message}`)).toEqual([]);
    expect(stats.inputs).toBe(1500);
    expect(stats.read).toBeGreaterThan(100);
    expect(stats.refused).toBeGreaterThan(20);
    expect(stats.entries).toBeGreaterThan(100);
    // The archives' models (an MLOD and a model.cfg) went through the editor's pipeline too.
    expect(stats.models).toBeGreaterThan(10);
  });

  it('the seeds read whole, every entry expanded', () => {
    for (const s of generatedPboSeeds()) expect(runPboInput(s.bytes), s.name).toEqual({ outcome: 'ok', entries: 5, models: 2 });
  });
});
