/**
 * The decoding memory budget wired into the codecs and the CLI: decompression bombs built from the
 * issue's description end in one clean line and exit 2 before anything big is allocated, the
 * limit is raised with --max-memory, and each compressor is held to its real worst-case ratio.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { lzo1xDecompress } from '../../shared/binary/lzo1x.ts';
import { lzssCompress, lzssDecompress, lzssMaxOutput, lzssMinInput } from '../../shared/binary/lzss.ts';
import { isDecodeError } from '../../shared/errors.ts';
import '../../shared/formats/index.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import { lz4Decompress } from '../../shared/formats/unigine/lz4.ts';
import { runCliIn } from '../cli/helpers/memory-io.ts';
import { lzoZeroBomb, lzssZeroBomb, odolLzoBomb } from '../helpers/bombs.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-bomb-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(tmp, args);

const MiB = 1024 * 1024;

describe('bomb builders', () => {
  it('make streams that really expand as claimed', () => {
    const n = 100_000;
    const lzo = lzoZeroBomb(n);
    expect(lzo.length).toBeLessThan(n / 200);
    const back = lzo1xDecompress(lzo, 0, n);
    expect(back.data.length).toBe(n);
    expect(back.data.every((b) => b === 0)).toBe(true);
    expect(back.consumed).toBe(lzo.length);
    const lzss = lzssZeroBomb(n);
    // One literal to start from, then nothing but longest references: the minimum, plus that literal.
    expect(lzss.length).toBeLessThanOrEqual(lzssMinInput(n) + 1);
    const s = lzssDecompress(lzss, 0, n);
    expect(s.data.every((b) => b === 0)).toBe(true);
    expect(s.consumed).toBe(lzss.length);
  });
});

describe('each compressor is bounded by its real worst case', () => {
  it('LZSS: a size past ~8.5x of the stream is refused before decoding', () => {
    // The tightest stream of 90 000 zero bytes is ~8.5x smaller; claiming 18x must not be believed.
    const n = 90_000;
    const stream = lzssZeroBomb(n);
    expect(n / stream.length).toBeGreaterThan(8);
    expect(lzssMaxOutput(stream.length)).toBeGreaterThanOrEqual(n);
    expect(lzssMaxOutput(stream.length)).toBeLessThan(9 * stream.length);
    const padded = new Uint8Array(Math.ceil(n / 18) + 8);
    padded.set(stream.subarray(0, Math.min(stream.length, padded.length)));
    let err: unknown;
    try {
      lzssDecompress(padded, 0, n);
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    expect((err as Error).message).toMatch(/needs at least \d+ bytes but only \d+ remain/);
    // A real stream still decodes at its best ratio.
    const data = new Uint8Array(5000).fill(7);
    expect(lzssDecompress(lzssCompress(data), 0, data.length).data).toEqual(data);
  });

  it('LZSS: the smallest stream for a size and the largest output of a stream agree', () => {
    for (let e = 0; e < 3000; e++) expect(lzssMaxOutput(lzssMinInput(e))).toBeGreaterThanOrEqual(e);
    for (let n = 4; n < 1000; n++) expect(lzssMinInput(lzssMaxOutput(n))).toBeLessThanOrEqual(n);
  });

  it('LZ4: a declared size past 255x the block is refused, and the allocation is charged', () => {
    expect(lz4Decompress(new Uint8Array(10), 10_000)).toMatch(/cannot decode to the declared 10000 bytes/);
    expect(() => withBudget(new MemoryBudget(1000), () => lz4Decompress(new Uint8Array(100), 2000))).toThrow(BudgetError);
  });

  it('LZO: the expansion is charged to the budget before the output is allocated', () => {
    const n = 2 * MiB;
    const bomb = lzoZeroBomb(n);
    let err: unknown;
    withBudget(new MemoryBudget(MiB), () => {
      try {
        lzo1xDecompress(bomb, 0, n, undefined, 'lods[0]/vertices');
      } catch (e) {
        err = e;
      }
    });
    expect(err).toBeInstanceOf(BudgetError);
    expect((err as BudgetError).path).toBe('lods[0]/vertices');
  });
});

describe('ODOL decompression bombs', () => {
  it('a 4.9 MB ODOL whose LZO array expands ~250x is refused by the budget, naming array, limit and --max-memory', () => {
    // The bomb: 4.9 MB of file, an LZO array forged to expand to ~1.2 GB.
    const expand = 1_200_000_000 - (1_200_000_000 % 12);
    const bytes = odolLzoBomb(expand, 4_900_000);
    expect(bytes.length).toBeGreaterThan(4_700_000);
    let err: unknown;
    try {
      odolCodec.decode(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetError);
    const e = err as BudgetError;
    expect(e.path).toMatch(/lods\[0\]\/vertices/);
    expect(e.requested).toBe(expand);
    expect(e.limit).toBe(64 * MiB + 16 * bytes.length);
    expect(e.message).toMatch(/--max-memory/);
  });

  it('the vertex table size is checked against the LOD before its arrays are expanded', () => {
    const bytes = odolLzoBomb(12 * 1000);
    // Sanity: the forged file is consistent and decodes.
    expect(() => odolCodec.decode(bytes)).not.toThrow();
    const back = odolCodec.decode(bytes) as { lods: { clip?: { $span?: [number, number] } }[] };
    const restAt = back.lods[0]!.clip!.$span![0] - 4;
    const forged = bytes.slice();
    new DataView(forged.buffer).setUint32(restAt, 0x7fff0000, true);
    let err: unknown;
    try {
      odolCodec.decode(forged);
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    expect((err as Error).message).toMatch(/vertex table size 2147418112 does not fit/);
  });

  it('lodsmith info/validate/dump/roundtrip/convert on the 17 MB bomb: one line, exit 2, no stack', async () => {
    const expand = 4_300_000_000 - (4_300_000_000 % 12);
    const bytes = odolLzoBomb(Math.min(expand, 0xffff_fff0 - (0xffff_fff0 % 12)), 17_000_000);
    writeFileSync(join(tmp, 'bomb.p3d'), bytes);
    for (const args of [['info', 'bomb.p3d'], ['validate', 'bomb.p3d'], ['dump', 'bomb.p3d'], ['roundtrip', 'bomb.p3d'], ['convert', 'bomb.p3d', 'out.glb']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      const lines = r.err.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(/^lodsmith: bomb\.p3d: /);
      expect(lines[0]).toMatch(/(past the decoding memory budget of \d+(\.\d+)? MiB .*--max-memory|cannot produce|cannot come from)/);
      expect(lines[0]).not.toMatch(/\n\s+at |internal error/);
      expect(r.out).toBe('');
    }
  });

  it('--max-memory raises (and lowers) the limit, for every command', async () => {
    // 80 MiB from a ~330 KB file: past the default (64 MiB + 16 x 330 KB ~ 69 MiB), within 256M.
    const bytes = odolLzoBomb(80 * MiB - ((80 * MiB) % 12));
    writeFileSync(join(tmp, 'small-bomb.p3d'), bytes);
    const refused = await cli(['info', 'small-bomb.p3d']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/past the decoding memory budget of 69\.\d MiB/);
    const raised = await cli(['--max-memory', '256M', 'info', 'small-bomb.p3d']);
    expect(raised.err).not.toMatch(/memory budget/);
    // After the command name too.
    const after = await cli(['info', '--max-memory', '256M', 'small-bomb.p3d']);
    expect(after.err).not.toMatch(/memory budget/);
    // Lowering it refuses a file the default lets through (3 MiB of vertices).
    const plain = odolLzoBomb(3 * MiB - ((3 * MiB) % 12));
    writeFileSync(join(tmp, 'plain.p3d'), plain);
    expect((await cli(['roundtrip', 'plain.p3d'])).err).not.toMatch(/budget/);
    const low = await cli(['--max-memory', '1M', 'roundtrip', 'plain.p3d']);
    expect(low.code).toBe(2);
    expect(low.err).toMatch(/decoding memory budget of 1 MiB/);
    const bad = await cli(['--max-memory', 'lots', 'info', 'plain.p3d']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--max-memory.*expected a size such as 512M/);
  }, 60_000);
});
