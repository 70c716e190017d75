/**
 * Vitest global setup: the tests that spawn `bin/lodsmith.cjs` run the prebuilt CLI, so it is
 * rebuilt here when any source it was built from has changed (a clean checkout has it from `npm
 * ci`'s prepare step). The launcher itself would fall back to the sources for a stale bundle;
 * test/cli/spawn.test.ts checks that the bundle is what ran.
 *
 * The launcher's code caches (docs/cli.md) of the tests' runs go to a folder of this test run,
 * removed at the end, not to the user's cache folder (unless LODSMITH_CODE_CACHE already says
 * where).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBundle } from '../../scripts/build-cli.ts';

export default async function setup(): Promise<() => void> {
  const built = await ensureCliBundle();
  if (built) console.log(`[vitest] ${built}`);
  const cache = process.env.LODSMITH_CODE_CACHE ? undefined : mkdtempSync(join(tmpdir(), 'lodsmith-test-code-cache-'));
  if (cache) process.env.LODSMITH_CODE_CACHE = cache;
  return () => {
    if (cache) rmSync(cache, { recursive: true, force: true });
  };
}
