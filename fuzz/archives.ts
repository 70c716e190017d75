/**
 * `npm run fuzz:pbo`: mutates the PBO archives the project builds and runs each mutant through
 * the PBO reader (fuzz/lib/pbo-fuzz.ts): header whole and by prefix, every readable entry.
 *
 *   npm run fuzz:pbo -- [--inputs N] [--seconds S] [--seed K]
 *
 * Findings are saved to test/fixtures/crashes/pbo-<hash>.bin with a .json note.
 */
import { parseFuzzArgs, saveFindingsAndExit } from './lib/cli.ts';
import { fuzzPbo, generatedPboSeeds } from './lib/pbo-fuzz.ts';

const USAGE = 'usage: npm run fuzz:pbo -- [--inputs N] [--seconds S] [--seed K]';
const a = parseFuzzArgs('fuzz:pbo', USAGE, { inputs: 5000, seconds: 60, seed: 1 }, { '--inputs': 'inputs', '--seconds': 'seconds', '--seed': 'seed' });

const seeds = generatedPboSeeds();
const stats = fuzzPbo(seeds, a);
console.log(`${stats.inputs} inputs from ${seeds.length} seeds: ${stats.read} read, ${stats.refused} refused with one error, ${stats.entries} entries expanded, ${stats.models} models run through the editor's pipeline, ${stats.findings.length} findings`);
saveFindingsAndExit(stats.findings, 'pbo', '.bin', (f) => ({ seed: f.seed, kind: f.kind, desc: f.desc, message: f.message }), (f) => `${f.seed} ${f.kind} ${f.desc}: ${f.message}`);
