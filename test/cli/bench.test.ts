/**
 * `npm run bench` end to end, quick and on a subset: the harness must keep producing the rows the
 * performance document is written from (no timing is asserted, only that every figure is measured,
 * related to its memcpy baseline and judged against its target).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../bench/lib/report.ts';
import { hasCorpus, repoRoot } from '../helpers/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(repoRoot, 'bench/run.ts'), ...args], { encoding: 'utf8', timeout: 120_000 });
}

describe('npm run bench', () => {
  it('measures glTF import into each format: ratio to export and peak memory, with verdicts', () => {
    const r = bench('--quick', '--json', '--only', 'import', '--out', join(dir, 'import.json'));
    expect(r.status).toBe(0);
    const rows = (JSON.parse(r.stdout) as { rows: Row[] }).rows;
    const speed = rows.filter((x) => x.metric === 'import vs export');
    expect(speed.map((x) => x.subject)).toEqual(['lodka-lod', 'p3d-mlod', 'grimrock-model', 'unigine-mesh ms14', 'unigine-mesh ms11']);
    for (const x of speed) {
      expect(x.value).toBeGreaterThan(0);
      expect(x.target).toBe('>= 0.5x export');
      expect(x.verdict).toBe(x.value! >= 0.5 ? 'PASS' : 'MISS');
    }
    const memory = rows.filter((x) => x.metric === 'import peak');
    expect(memory).toHaveLength(5);
    for (const m of memory) {
      expect(m.value).toBeGreaterThan(0);
      expect(m.target).toMatch(/^<= 3N\+64MB = \d+ MB$/);
      expect(m.note).toMatch(/output file [\d.]+ MB/);
    }
  });

  it('measures a format and compression: figures, memcpy ratios, targets and verdicts', () => {
    const out = join(dir, 'result.json');
    const r = bench('--quick', '--json', '--only', 'grimrock-model,compression', '--out', out);
    expect(r.stderr.split('\n').filter((l) => /Error|at /.test(l))).toEqual([]);
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { rows: Row[]; env: { quick: boolean } };
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(result);
    expect(result.env.quick).toBe(true);
    const rows = result.rows;

    const baseline = rows.filter((x) => x.section === 'baseline');
    expect(baseline.map((x) => `${x.subject} ${x.bytes}`)).toEqual([`memcpy ${1 << 20}`, `memcpy ${64 << 20}`, `new memory ${64 << 20}`]);
    for (const m of baseline) expect(m.value).toBeGreaterThan(0);
    expect(baseline[2]!.note).toMatch(/us a page here/);

    // The generated input: the decode a command runs (in situ, with its target), the shared and
    // copying decodes beside it, and both encodes, each a positive figure with its ratio.
    const generated = rows.filter((x) => x.section === 'codec' && x.input.startsWith('generated'));
    expect(generated.map((x) => x.metric).sort()).toEqual([
      'decode', 'decode (copies: editor, host)', 'decode (shared: check)', 'encode (all fields)', 'encode (save untouched)',
    ]);
    for (const g of generated) {
      expect(g.value).toBeGreaterThan(0);
      expect(Number.isFinite(g.vsMemcpy) && g.vsMemcpy! > 0).toBe(true);
      if (g.metric.startsWith('decode (')) {
        expect(g.verdict).toBe('-');
        continue;
      }
      expect(g.target).toBe(g.metric === 'decode' ? '>= 4000 MB/s' : '>= 1000 MB/s');
      expect(['PASS', 'MISS']).toContain(g.verdict);
    }
    expect(generated.find((x) => x.metric === 'decode')?.note).toMatch(/as lodsmith info decodes \(share: 'in-situ'; defer: true/);
    const memory = rows.filter((x) => x.section === 'memory');
    expect(memory.length).toBeGreaterThan(0);
    for (const m of memory) {
      expect(m.value).toBeGreaterThan(0);
      expect(m.target).toMatch(/^<= 2N\+64MB = \d+ MB$/);
      expect(['PASS', 'MISS']).toContain(m.verdict);
    }
    if (hasCorpus) {
      const corpus = rows.find((x) => x.section === 'codec' && x.input.startsWith('corpus') && x.metric === 'encode (save untouched)');
      expect(corpus?.note).toMatch(/^(\d+)\/\1 file\(s\) re-encode byte-identical$/);
    }

    // Compression: ours always; the liblzo2 stick when a C compiler and liblzo2 are there, and
    // then the fraction of C with its verdict.
    const ours = rows.filter((x) => x.section === 'compression' && x.subject === 'lzo1x (ours)');
    expect(ours.map((x) => x.metric)).toContain('decompress (own stream)');
    for (const o of ours) expect(o.value).toBeGreaterThan(0);
    const lzss = rows.filter((x) => x.subject === 'lzss (ours)');
    expect(lzss.map((x) => x.metric).sort()).toEqual(['compress', 'decompress']);
    const stick = rows.find((x) => x.subject === 'lzo1x (liblzo2 C)' && x.metric === 'decompress_safe');
    const vsC = rows.find((x) => x.subject === 'lzo1x (ours)' && x.metric === 'decompress (C stream)');
    if (stick && stick.value !== null) {
      expect(vsC?.note).toMatch(/^\d\.\d{3}x liblzo2 decompress_safe on the same stream/);
      expect(['PASS', 'MISS']).toContain(vsC?.verdict);
    } else {
      // Never faked: the row says why there is no stick, and no fraction is printed.
      expect(stick?.note).toMatch(/^measuring stick unavailable: ./);
      expect(vsC).toBeUndefined();
    }
    // The npm packages beside ours (issue 26, goal 8): each measured (PASS, a positive ratio) or a
    // MISS that says why, never a row without a verdict.
    const peerRows = rows.filter((x) => x.section === 'compression' && x.metric.startsWith('ours vs '));
    expect(peerRows.map((x) => `${x.subject} ${x.metric}`)).toEqual(expect.arrayContaining(['lzo1x ours vs lzo', 'lzo1x ours vs lzo-decompress', 'lzo1x ours vs lzo-wasm']));
    for (const p of peerRows) {
      if (p.value === null) expect({ verdict: p.verdict, note: p.note }).toMatchObject({ verdict: 'MISS', note: expect.stringMatching(/ (not measured|failed on the stream|gave different bytes)/) });
      else expect({ verdict: p.verdict, positive: p.value > 0 }).toEqual({ verdict: 'PASS', positive: true });
    }
    // The compression section now also fetches and builds the native LZO packages the first time
    // on a machine (bench/lib/native-peers.ts), and the bench's own limit is 120 s.
  }, 130_000);

  it('refuses a wrong command line in one line, with the usage', () => {
    const r = bench('--only', 'lzo');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^bench: --only: unknown lzo \(known: compression, .*preview\)\nusage: npm run bench/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
