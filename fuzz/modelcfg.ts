/**
 * `npm run fuzz:modelcfg`: mutates the corpus's model.cfg files and a generated one and runs each
 * mutant through preprocess -> parse -> re-save -> read -> checks -> evaluator
 * (fuzz/lib/modelcfg-fuzz.ts).
 *
 *   npm run fuzz:modelcfg -- [--inputs N] [--seconds S] [--seed K]
 *
 * Findings are saved to test/fixtures/crashes/modelcfg-<hash>.cfg with a .json note.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { corpusDir, corpusFiles, readBytes, repoRoot } from '../test/helpers/corpus.ts';
import { fuzzModelCfg, generatedModelCfgSeeds } from './lib/modelcfg-fuzz.ts';
import type { Seed } from './lib/mutate.ts';

const USAGE = 'usage: npm run fuzz:modelcfg -- [--inputs N] [--seconds S] [--seed K]';
const a = { inputs: 5000, seconds: 60, seed: 1 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const key = argv[i]!;
  const val = Number(argv[i + 1]);
  const field = { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed' }[key] as keyof typeof a | undefined;
  if (key === '--help' || key === '-h') { console.log(USAGE); process.exit(0); }
  if (!field || !Number.isFinite(val) || val < 0) { console.error(`fuzz:modelcfg: bad argument ${key}\n${USAGE}`); process.exit(2); }
  a[field] = val;
  i++;
}

const seeds: Seed[] = [...generatedModelCfgSeeds()];
const beside = join(corpusDir, 'modelcfg');
const files = [
  ...(existsSync(beside) ? readdirSync(beside).map((d) => join(beside, d, 'model.cfg')).filter((f) => existsSync(f)) : []),
  ...corpusFiles('rtm').filter((f) => f.toLowerCase().endsWith('model.cfg')),
];
for (const f of files) seeds.push({ name: basename(join(f, '..')) + '/' + basename(f), format: 'modelcfg', bytes: readBytes(f), streams: [] });
const stats = fuzzModelCfg(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.parsed} read whole, ${stats.refused} refused with one error, ${stats.findings.length} findings`);
if (stats.findings.length) {
  const dir = join(repoRoot, 'test/fixtures/crashes');
  mkdirSync(dir, { recursive: true });
  for (const f of stats.findings.slice(0, 20)) {
    const hash = createHash('sha256').update(f.bytes).digest('hex').slice(0, 12);
    writeFileSync(join(dir, `modelcfg-${hash}.cfg`), f.bytes);
    writeFileSync(join(dir, `modelcfg-${hash}.json`), JSON.stringify({ seed: f.seed, desc: f.desc, message: f.message }, null, 2));
    console.log(`  ${f.seed} ${f.desc}: ${f.message}`);
  }
  process.exit(1);
}
