/**
 * An earlier version of the repository's shared code, taken from git into a temp folder, for rows
 * whose goal is a ratio to "today's" code measured in the same run (issue 26: PNG -> PAA <= 0.5x
 * the pipeline before it was made faster). The files are `git archive`d from the commit named by
 * the row, beside a link to this checkout's node_modules, and imported as they were.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../test/helpers/corpus.ts';

export interface Baseline {
  /** The modules asked for, in order. */
  modules: Record<string, unknown>[];
  dispose(): void;
}

/**
 * `entries` (paths inside the repository, e.g. `shared/formats/texture/paa.ts`) as they were at
 * `commit`, or the reason they cannot be had (no git, a shallow clone without that commit).
 */
export async function importAtCommit(commit: string, entries: readonly string[]): Promise<Baseline | { reason: string }> {
  try {
    execFileSync('git', ['-C', repoRoot, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { reason: `commit ${commit.slice(0, 9)} is not in this clone (git missing or a shallow clone)` };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-baseline-'));
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const tar = execFileSync('git', ['-C', repoRoot, 'archive', '--format=tar', commit, 'shared', 'package.json'], { maxBuffer: 512 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const modules = [];
    for (const e of entries) modules.push((await import(pathToFileURL(join(dir, e)).href)) as Record<string, unknown>);
    return { modules, dispose };
  } catch (e) {
    dispose();
    return { reason: `could not load ${commit.slice(0, 9)}: ${(e as Error).message.split('\n')[0]}` };
  }
}
