/**
 * Vitest global setup: the tests that spawn `bin/lodsmith.cjs` run the prebuilt CLI, so it is
 * rebuilt here when any source it was built from has changed (a clean checkout has it from `npm
 * ci`'s prepare step). The launcher itself would fall back to the sources for a stale bundle;
 * test/cli/spawn.test.ts checks that the bundle is what ran.
 */
import { ensureCliBundle } from '../../scripts/build-cli.ts';

export default async function setup(): Promise<void> {
  const built = await ensureCliBundle();
  if (built) console.log(`[vitest] ${built}`);
}
