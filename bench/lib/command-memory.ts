/**
 * Peak memory of the commands a user runs, not of decoding alone: `lodsmith info FILE` (target
 * N + 64 MB) and `lodsmith roundtrip FILE` (target 2N + 64 MB) on a ~200 MB generated file of each
 * uncompressed format, and an ODOL file whose LZO arrays expand to about that (a tenth of that
 * with --quick). Each command runs as its own process
 * through the real launcher with bench/lib/hwm-hook.mjs loaded, which reports the process
 * high-water mark; the figure is that minus the high-water mark of a bare Node process with the
 * same hook (what any Node program costs before doing anything).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormatId } from '../../shared/formats/registry.ts';
import { repoRoot } from '../../test/helpers/corpus.ts';
import { GENERATED, loadBuilder } from './inputs.ts';
import type { Row } from './report.ts';

const BIN = join(repoRoot, 'bin/lodsmith.cjs');
const HOOK = pathToFileURL(join(repoRoot, 'bench/lib/hwm-hook.mjs')).href;
const MB = 1e6;

/** Builder arguments for about 200 MB of each uncompressed format. */
const SIZED: { format: FormatId; label: string; args: (quick: boolean) => unknown[] }[] = [
  { format: 'lodka-lod', label: 'generated 3.5M tris', args: (q) => [{ triangles: q ? 350_000 : 3_500_000, textureSets: 2, boneWeights: true }] },
  { format: 'p3d-mlod', label: 'generated 1.2M faces', args: (q) => [q ? 120_000 : 1_200_000] },
  { format: 'grimrock-model', label: 'generated 2.2M verts', args: (q) => [q ? 220_000 : 2_200_000] },
  { format: 'unigine-mesh', label: 'generated 2.4M verts', args: (q) => [q ? 240_000 : 2_400_000] },
  // LZO-compressed arrays: one LOD over a grid of size x size quads (2,100^2: 4.4M faces).
  { format: 'p3d-odol', label: 'generated 4.4M faces LZO', args: (q) => [{ version: 73, lods: 1, size: q ? 664 : 2100 }] },
];

const EXTENSION: Partial<Record<FormatId, string>> = { 'lodka-lod': '.lod', 'p3d-mlod': '.p3d', 'p3d-odol': '.p3d', 'grimrock-model': '.model', 'unigine-mesh': '.mesh' };

function highWater(args: readonly string[]): { bytes: number; status: number | null; err: string } {
  const r = spawnSync(process.execPath, ['--import', HOOK, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 16 << 20 });
  const err = r.stderr.toString();
  const m = /LODSMITH_HWM (\d+)/.exec(err);
  return { bytes: m ? Number(m[1]) : NaN, status: r.status, err: err.replace(/\n?LODSMITH_HWM \d+\n?/, '').trim() };
}

/** `formats`: run only these (`--formats`); every format when empty. */
export async function benchCommandMemory(quick: boolean, log: (s: string) => void, formats: readonly string[] = []): Promise<Row[]> {
  const unknown = formats.filter((f) => !SIZED.some((s) => s.format === f));
  if (unknown.length) throw new Error(`--formats: no command-memory input for ${unknown.join(', ')} (known: ${SIZED.map((s) => s.format).join(', ')})`);
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-cmdmem-'));
  try {
    const bare = highWater(['-e', '0']).bytes;
    for (const s of SIZED.filter((x) => formats.length === 0 || formats.includes(x.format))) {
      const spec = GENERATED.find((g) => g.format === s.format)!;
      const input = quick ? `${s.label} (quick: 1/10)` : s.label;
      const builder = await loadBuilder(spec);
      if (!builder.ok) {
        rows.push({ section: 'memory', subject: s.format, input, bytes: 0, metric: 'lodsmith info peak', value: null, unit: 'bytes', verdict: 'MISS', note: `not measured: ${builder.reason}` });
        continue;
      }
      log(`memory: building ${s.format} ${input}`);
      const file = join(dir, `big${EXTENSION[s.format]}`);
      let n: number;
      {
        const bytes = await builder.build(...s.args(quick));
        n = bytes.length;
        writeFileSync(file, bytes);
      }
      for (const [cmd, factor] of [['info', 1], ['roundtrip', 2]] as const) {
        log(`memory: lodsmith ${cmd} on ${(n / MB).toFixed(0)} MB ${s.format}`);
        const r = highWater([BIN, cmd, file]);
        const limit = factor * n + 64 * MB;
        const target = `<= ${factor === 1 ? '' : '2'}N+64MB = ${(limit / MB).toFixed(0)} MB`;
        if (r.status !== 0 || !Number.isFinite(r.bytes)) {
          rows.push({ section: 'memory', subject: s.format, input, bytes: n, metric: `lodsmith ${cmd} peak`, value: null, unit: 'bytes', target, verdict: 'MISS', note: `not measured: exit ${r.status}: ${r.err.split('\n')[0]}` });
          continue;
        }
        const peak = r.bytes - bare;
        rows.push({
          section: 'memory', subject: s.format, input, bytes: n, metric: `lodsmith ${cmd} peak`, value: peak, unit: 'bytes', target,
          verdict: peak <= limit ? 'PASS' : 'MISS', note: `${(peak / n).toFixed(2)}N; process high-water mark ${(r.bytes / MB).toFixed(0)} MB less a bare node's ${(bare / MB).toFixed(0)} MB`,
        });
      }
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
