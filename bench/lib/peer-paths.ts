/**
 * Where the bench finds the peers it measures side by side (issue 26): the variables
 * `LODSMITH_BENCH_A3OB` and `LODSMITH_BENCH_BIS_TOOLKIT` when set, else the readers in the shared
 * folder beside the checkout (`../shared/peers`, as the corpus is in `../shared/corpus`), whose
 * README describes them. Never part of this repository. Without them the peer rows are a MISS
 * saying "peer missing".
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../test/helpers/corpus.ts';

export const peersDir = process.env.LODSMITH_PEERS ?? resolve(repoRoot, '../shared/peers');

/** The A3OB command line (words; the file is appended), or undefined when the peer is missing. */
export function a3obCommandLine(): string | undefined {
  const env = process.env.LODSMITH_BENCH_A3OB?.trim();
  if (env) return env;
  const script = join(peersDir, 'a3ob/read-file.py');
  return existsSync(script) ? JSON.stringify(['python3', script]) : undefined;
}

/** The BIS-Toolkit adapter module (exports decode(bytes)), or undefined when the peer is missing. */
export function bisToolkitModule(): string | undefined {
  const env = process.env.LODSMITH_BENCH_BIS_TOOLKIT?.trim();
  if (env) return env;
  const mod = join(peersDir, 'bis-odol/decode.mjs');
  return existsSync(mod) ? mod : undefined;
}
