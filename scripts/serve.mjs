/* global process, console */
// `npm run serve`: runs the prebuilt browser host (out/host/serve.mjs, see scripts/build-cli.ts)
// while it is current, else the TypeScript sources (scripts/serve.ts).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIsCurrent, canRunSources } from './prebuilt.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let entry;
if (bundleIsCurrent(repoRoot, 'out/host')) entry = await import('../out/host/serve.mjs');
else if (canRunSources()) entry = await import('./serve.ts');
else {
  console.error(`LodSmith needs Node 22.18+ to run from its sources (this is ${process.version}); run \`npm run build:cli\` first.`);
  process.exit(1);
}
entry.main().catch((e) => {
  console.error(`lodsmith serve: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
