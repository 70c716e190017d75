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
import { buildLargeOdol } from '../../scripts/fixtures/odol.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { repoRoot } from '../helpers/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-maxmem-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), ...args], { encoding: 'utf8' });

/** Each command refuses `file` under `--max-memory 1M` (exit 2, the budget named) and reads it under 64M. */
function refusedAt1MiBReadAt64MiB(file: string, cmds: readonly string[]): void {
  for (const cmd of cmds) {
    const low = run(cmd, '--max-memory', '1M', file);
    expect(low.status, cmd).toBe(2);
    expect(low.stderr, cmd).toMatch(/past the decoding memory budget of 1 MiB/);
    const high = run(cmd, '--max-memory', '64M', file);
    expect(high.stderr, cmd).toBe('');
    expect(high.status, cmd).toBe(0);
  }
}

it('info, roundtrip and validate refuse a model whose decode would pass --max-memory, and read it under a higher limit', () => {
  // One shared normal: its 1-byte normal indices widen to 4 bytes each (about 4.8 MB), a copy
  // even when the other arrays are views of the file.
  const file = join(dir, 'grid.lod');
  writeFileSync(file, buildLargeLodka({ triangles: 400_000, textureSets: 1, boneWeights: false }));
  refusedAt1MiBReadAt64MiB(file, ['info', 'roundtrip', 'validate']);
});

it('info and roundtrip of an ODOL defer its LZO arrays but still charge them, and still refuse a damaged stream', () => {
  // One LOD of 200 x 200 quads: LZO arrays of 64 KiB and more, which info and roundtrip check
  // without expanding (DecodeOptions.defer). Their expanded size is charged all the same.
  const bytes = buildLargeOdol({ version: 73, lods: 1, size: 200 });
  const file = join(dir, 'grid.p3d');
  writeFileSync(file, bytes);
  refusedAt1MiBReadAt64MiB(file, ['info', 'roundtrip']);
  // The vertex array's LZO end marker damaged: both commands refuse the file, naming the array.
  const doc = odolCodec.decode(bytes) as OdolV4xDocument;
  const span = doc.lods[0]!.vertices.$span!;
  const bad = bytes.slice();
  bad[span[1] - 3] = 0x00;
  bad[span[1] - 2] = 0xff;
  const badFile = join(dir, 'bad.p3d');
  writeFileSync(badFile, bad);
  for (const cmd of ['info', 'roundtrip']) {
    const r = run(cmd, badFile);
    expect(r.status, cmd).toBe(2);
    expect(r.stderr, cmd).toMatch(/LZO .*lods\[0\].*vertices|vertices.*LZO/s);
  }
});
