/* global process */
// Whether a prebuilt bundle (out/cli, out/host: see scripts/build-cli.ts) was built from the
// sources as they are now. Plain JavaScript so launchers can use it before anything is compiled;
// it only stats files (about a millisecond for the ~100 inputs). bin/lodsmith.cjs keeps its own
// copy of this check, to spare the CLI's start-up one more module.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The file in each bundle folder that lists its inputs with their sizes and times. */
export const STAMP = 'inputs.json';

/**
 * True when `dir` holds a bundle whose stamp lists every input file with its current size and
 * modification time. A missing bundle, a missing input or any changed input makes it stale.
 * @param {string} repoRoot
 * @param {string} dir bundle folder, relative to repoRoot
 */
export function bundleIsCurrent(repoRoot, dir) {
  try {
    const { inputs } = JSON.parse(readFileSync(join(repoRoot, dir, STAMP), 'utf8'));
    for (const [file, size, mtimeMs] of inputs) {
      const st = statSync(join(repoRoot, file), { throwIfNoEntry: false });
      if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
    }
    return inputs.length > 0;
  } catch {
    return false;
  }
}

/**
 * True when this Node can run the TypeScript sources directly (type stripping by default).
 * @param {string} [version]
 */
export function canRunSources(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}
