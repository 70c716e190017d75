/**
 * `npm run fuzz:pbo`: mutates the PBO archives the project builds and runs each mutant through
 * the PBO reader (fuzz/lib/pbo-fuzz.ts): header whole and by prefix, every readable entry.
 *
 *   npm run fuzz:pbo -- [--inputs N] [--seconds S] [--seed K]
 *
 * Findings are saved to test/fixtures/crashes/pbo-<hash>.bin with a .json note.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../test/helpers/corpus.ts';
import { fuzzPbo, generatedPboSeeds } from './lib/pbo-fuzz.ts';

const USAGE = 'usage: npm run fuzz:pbo -- [--inputs N] [--seconds S] [--seed K]';
const a = { inputs: 5000, seconds: 60, seed: 1 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const key = argv[i]!;
  const val = Number(argv[i + 1]);
  const field = { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed' }[key] as keyof typeof a | undefined;
  if (key === '--help' || key === '-h') { console.log(USAGE); process.exit(0); }
  if (!field || !Number.isFinite(val) || val < 0) { console.error(`fuzz:pbo: bad argument ${key}\n${USAGE}`); process.exit(2); }
  a[field] = val;
  i++;
}

const seeds = generatedPboSeeds();
const stats = fuzzPbo(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.read} read, ${stats.refused} refused with one error, ${stats.entries} entries expanded, ${stats.findings.length} findings`);
if (stats.findings.length) {
  const dir = join(repoRoot, 'test/fixtures/crashes');
  mkdirSync(dir, { recursive: true });
  for (const f of stats.findings.slice(0, 20)) {
    const hash = createHash('sha256').update(f.bytes).digest('hex').slice(0, 12);
    writeFileSync(join(dir, `pbo-${hash}.bin`), f.bytes);
    writeFileSync(join(dir, `pbo-${hash}.json`), JSON.stringify({ seed: f.seed, kind: f.kind, desc: f.desc, message: f.message }, null, 2));
    console.log(`  ${f.seed} ${f.kind} ${f.desc}: ${f.message}`);
  }
  process.exit(1);
}
