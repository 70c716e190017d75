/**
 * `npm run fuzz:textures`: mutates the corpus's textures and the project's generated ones and runs
 * each mutant through decode -> every mip -> PNG -> new PAA (fuzz/lib/texture-fuzz.ts).
 *
 *   npm run fuzz:textures -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B]
 *
 * Findings are saved to test/fixtures/crashes/texture-<hash>.bin with a .json note.
 */
import { basename } from 'node:path';
import { corpusFiles, readBytes } from '../test/helpers/corpus.ts';
import { parseFuzzArgs, saveFindingsAndExit } from './lib/cli.ts';
import { fuzzTextures, generatedTextureSeeds } from './lib/texture-fuzz.ts';
import type { Seed } from './lib/mutate.ts';

const USAGE = 'usage: npm run fuzz:textures -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B]';
const a = parseFuzzArgs('fuzz:textures', USAGE, { inputs: 2000, seconds: 60, seed: 1, maxSeedBytes: 128 * 1024 }, { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed', '--max-seed-bytes': 'maxSeedBytes' });

const seeds: Seed[] = [...generatedTextureSeeds()];
for (const folder of ['paa', 'dds', 'tga']) {
  for (const f of corpusFiles(folder)) {
    const bytes = readBytes(f);
    if (bytes.length <= a.maxSeedBytes) seeds.push({ name: basename(f), format: 'texture', bytes, streams: [] });
  }
}
const stats = fuzzTextures(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.decoded} decoded whole, ${stats.refused} refused with one error, ${stats.findings.length} findings`);
saveFindingsAndExit(stats.findings, 'texture', '.bin', (f) => ({ seed: f.seed, kind: f.kind, desc: f.desc, message: f.message }), (f) => `${f.seed} ${f.kind} ${f.desc}: ${f.message}`);
