/**
 * `lodsmith check` reads every file of a worker into one reused buffer (check-file.ts's
 * readReused): each file must see exactly its own bytes, whatever was read before it, and a
 * file's document must not outlive the next read. Checked by checking files of every size order
 * in one process, with results equal to each file checked alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile, readReused, type CheckResult } from '../../main/cli/check-file.ts';
import '../../shared/formats/index.ts';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-check-reuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check reads files into one reused buffer', () => {
  const big = buildLargeLodka({ triangles: 40_000, textureSets: 1, boneWeights: true });
  const small = buildLargeLodka({ triangles: 200, textureSets: 2, boneWeights: false });
  const files: Record<string, Uint8Array> = {
    'big.lod': big,
    'small.lod': small,
    // The big file cut short: read after the big one, the buffer still holds the rest of it.
    'cut.lod': big.subarray(0, big.length - 1000),
    'empty.lod': new Uint8Array(0),
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const job = (file: string) => ({ abs: join(dir, file), file, strict: true });
  const strip = (r: CheckResult) => ({ ...r, ms: 0 });

  it('hands back exactly the file, in a buffer kept from one file to the next', () => {
    const a = readReused(join(dir, 'big.lod'));
    expect(a).toEqual(big);
    const b = readReused(join(dir, 'small.lod'));
    expect(b).toEqual(small);
    expect(b.buffer).toBe(a.buffer);
    expect(readReused(join(dir, 'empty.lod')).length).toBe(0);
  });

  it('gives every file the result it gets alone, in any order', async () => {
    const alone: Record<string, CheckResult> = {};
    for (const f of Object.keys(files)) {
      // A large file first (the buffer grows), then the file itself.
      await checkFile(job('big.lod'));
      alone[f] = strip(await checkFile(job(f)));
    }
    expect(alone['big.lod']!.result).toBe('ok');
    expect(alone['small.lod']!.result).toBe('ok');
    expect(alone['cut.lod']!.result).toBe('error');
    expect(alone['empty.lod']!.result).toBe('error');
    for (const order of [['big.lod', 'cut.lod', 'small.lod', 'empty.lod', 'big.lod'], ['empty.lod', 'small.lod', 'cut.lod', 'big.lod', 'small.lod']]) {
      for (const f of order) expect(strip(await checkFile(job(f))), `${f} in ${order.join(', ')}`).toEqual(alone[f]);
    }
  });
});
