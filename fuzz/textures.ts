/**
 * `npm run fuzz:textures`: mutates the corpus's textures and the project's generated ones and runs
 * each mutant through decode -> every mip -> PNG -> new PAA (fuzz/lib/texture-fuzz.ts).
 *
 *   npm run fuzz:textures -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B]
 *
 * Findings are saved to test/fixtures/crashes/texture-<hash>.bin with a .json note.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { corpusFiles, readBytes, repoRoot } from '../test/helpers/corpus.ts';
import { fuzzTextures, generatedTextureSeeds } from './lib/texture-fuzz.ts';
import type { Seed } from './lib/mutate.ts';

const USAGE = 'usage: npm run fuzz:textures -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B]';
const a = { inputs: 2000, seconds: 60, seed: 1, maxSeedBytes: 128 * 1024 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const key = argv[i]!;
  const val = Number(argv[i + 1]);
  const field = { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed', '--max-seed-bytes': 'maxSeedBytes' }[key] as keyof typeof a | undefined;
  if (key === '--help' || key === '-h') { console.log(USAGE); process.exit(0); }
  if (!field || !Number.isFinite(val) || val < 0) { console.error(`fuzz:textures: bad argument ${key}\n${USAGE}`); process.exit(2); }
  a[field] = val;
  i++;
}

const seeds: Seed[] = [...generatedTextureSeeds()];
for (const folder of ['paa', 'dds', 'tga']) {
  for (const f of corpusFiles(folder)) {
    const bytes = readBytes(f);
    if (bytes.length <= a.maxSeedBytes) seeds.push({ name: basename(f), format: 'texture', bytes, streams: [] });
  }
}
const stats = fuzzTextures(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.decoded} decoded whole, ${stats.refused} refused with one error, ${stats.findings.length} findings`);
if (stats.findings.length) {
  const dir = join(repoRoot, 'test/fixtures/crashes');
  mkdirSync(dir, { recursive: true });
  for (const f of stats.findings.slice(0, 20)) {
    const hash = createHash('sha256').update(f.bytes).digest('hex').slice(0, 12);
    writeFileSync(join(dir, `texture-${hash}.bin`), f.bytes);
    writeFileSync(join(dir, `texture-${hash}.json`), JSON.stringify({ seed: f.seed, kind: f.kind, desc: f.desc, message: f.message }, null, 2));
    console.log(`  ${f.seed} ${f.kind} ${f.desc}: ${f.message}`);
  }
  process.exit(1);
}
