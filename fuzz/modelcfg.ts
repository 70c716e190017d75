/**
 * `npm run fuzz:modelcfg`: mutates the corpus's model.cfg files and a generated one and runs each
 * mutant through preprocess -> parse -> re-save -> read -> checks -> evaluator
 * (fuzz/lib/modelcfg-fuzz.ts).
 *
 *   npm run fuzz:modelcfg -- [--inputs N] [--seconds S] [--seed K]
 *
 * Findings are saved to test/fixtures/crashes/modelcfg-<hash>.cfg with a .json note.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { corpusDir, corpusFiles, readBytes } from '../test/helpers/corpus.ts';
import { parseFuzzArgs, saveFindingsAndExit } from './lib/cli.ts';
import { fuzzModelCfg, generatedModelCfgSeeds } from './lib/modelcfg-fuzz.ts';
import type { Seed } from './lib/mutate.ts';

const USAGE = 'usage: npm run fuzz:modelcfg -- [--inputs N] [--seconds S] [--seed K]';
const a = parseFuzzArgs('fuzz:modelcfg', USAGE, { inputs: 5000, seconds: 60, seed: 1 }, { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed' });

const seeds: Seed[] = [...generatedModelCfgSeeds()];
const beside = join(corpusDir, 'modelcfg');
const files = [
  ...(existsSync(beside) ? readdirSync(beside).map((d) => join(beside, d, 'model.cfg')).filter((f) => existsSync(f)) : []),
  ...corpusFiles('rtm').filter((f) => f.toLowerCase().endsWith('model.cfg')),
];
for (const f of files) seeds.push({ name: basename(join(f, '..')) + '/' + basename(f), format: 'modelcfg', bytes: readBytes(f), streams: [] });
const stats = fuzzModelCfg(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.parsed} read whole, ${stats.refused} refused with one error, ${stats.findings.length} findings`);
saveFindingsAndExit(stats.findings, 'modelcfg', '.cfg', (f) => ({ seed: f.seed, desc: f.desc, message: f.message }), (f) => `${f.seed} ${f.desc}: ${f.message}`);
