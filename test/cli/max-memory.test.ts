/**
 * `--max-memory` bounds what decoding a model allocates in every command that loads one. The
 * command line loads codecs lazily from the format catalog; a codec loaded that way skipped the
 * registry's budget (and `share`) until the catalog registered it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';
import { repoRoot } from '../helpers/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-maxmem-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), ...args], { encoding: 'utf8' });

it('info, roundtrip and validate refuse a model whose decode would pass --max-memory, and read it under a higher limit', () => {
  // One shared normal: its 1-byte normal indices widen to 4 bytes each (about 4.8 MB), a copy
  // even when the other arrays are views of the file.
  const file = join(dir, 'grid.lod');
  writeFileSync(file, buildLargeLodka({ triangles: 400_000, textureSets: 1, boneWeights: false }));
  for (const cmd of ['info', 'roundtrip', 'validate']) {
    const low = run(cmd, '--max-memory', '1M', file);
    expect(low.status, cmd).toBe(2);
    expect(low.stderr, cmd).toMatch(/past the decoding memory budget of 1 MiB/);
    const high = run(cmd, '--max-memory', '64M', file);
    expect(high.stderr, cmd).toBe('');
    expect(high.status, cmd).toBe(0);
  }
});
