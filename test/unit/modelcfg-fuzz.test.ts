import { describe, expect, it } from 'vitest';
import { fuzzModelCfg, generatedModelCfgSeeds, runModelCfgInput } from '../../fuzz/lib/modelcfg-fuzz.ts';
import { Prng } from '../../fuzz/lib/prng.ts';

describe('model.cfg fuzzing (short campaign)', () => {
  it('reads the generated seed whole', () => {
    const [seed] = generatedModelCfgSeeds();
    expect(runModelCfgInput(seed!.bytes, new Prng(1))).toEqual({ outcome: 'ok' });
  });

  it('refuses recursion, include cycles and expansion bombs with one located error, quickly', () => {
    for (const text of ['#define A A\nA', '#include "self.hpp"', '#include "a.hpp"', '#define B(x) x x x x x x x x x x\nB(B(B(B(B(B(B(1)))))))']) {
      const t0 = performance.now();
      expect(runModelCfgInput(new TextEncoder().encode(text), new Prng(1))).toEqual({ outcome: 'refused' });
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it('2,000 mutants end in a whole read or one located ConfigError', () => {
    const stats = fuzzModelCfg(generatedModelCfgSeeds(), { inputs: 2000, seconds: 60, seed: 7 });
    expect(stats.findings.map((f) => `${f.desc}: ${f.message}`)).toEqual([]);
    expect(stats.parsed).toBeGreaterThan(100);
    expect(stats.refused).toBeGreaterThan(100);
  });
});
