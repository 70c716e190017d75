/**
 * Decompression bombs through the real CLI: the two forged ODOL files (4.9 MB claiming
 * 1.2 GB, 17 MB claiming 4.3 GB through one LZO array) must end in one line, exit 2, in under
 * 2 s, for every command that decodes. Each run is a fresh `lodsmith` process, start-up included.
 * The peak resident memory of `info` is measured with GNU time (`time -f %M`, found on PATH) and
 * held to the decoding memory budget of the file; without GNU time that row says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../test/helpers/corpus.ts';
import { odolLzoBomb } from '../../test/helpers/bombs.ts';
import type { Row } from './report.ts';

const TARGET_S = 2;
const MiB = 1024 * 1024;

/** Peak RSS of `lodsmith info` on the bomb, against the budget for its size (Node itself included). */
function peakMemory(dir: string, name: string, label: string, bytes: number): Row {
  const budget = 64 * MiB + 16 * bytes;
  const row: Row = { section: 'reliability', subject: 'p3d-odol', input: label, bytes, metric: 'info peak RSS', value: null, unit: 'bytes', target: `<= budget ${(budget / MiB).toFixed(0)} MiB`, verdict: 'MISS' };
  const r = spawnSync('time', ['-f', '%M', process.execPath, join(repoRoot, 'bin/lodsmith.cjs'), 'info', name], { cwd: dir, encoding: 'utf8' });
  const kb = Number(/(\d+)\s*$/.exec(r.stderr ?? '')?.[1]);
  if (r.error || !Number.isFinite(kb)) return { ...row, note: `not measured: GNU time is not on PATH (${r.error?.message ?? 'no %M output'})` };
  const value = kb * 1024;
  return { ...row, value, verdict: value <= budget ? 'PASS' : 'MISS' };
}

export function benchBombs(log: (s: string) => void): Row[] {
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-bombs-'));
  const rows: Row[] = [];
  try {
    const bombs = [
      { name: 'bomb-4.9mb.p3d', label: '4.9 MB ODOL, LZO array claims 1.2 GB', bytes: odolLzoBomb(1_199_999_988, 4_900_000) },
      { name: 'bomb-17mb.p3d', label: '17 MB ODOL, LZO array claims 4.3 GB', bytes: odolLzoBomb(4_294_967_280, 17_000_000) },
    ];
    for (const b of bombs) {
      writeFileSync(join(dir, b.name), b.bytes);
      for (const cmd of [['info'], ['validate'], ['dump'], ['roundtrip'], ['convert', '-q']]) {
        const args = cmd[0] === 'convert' ? ['convert', b.name, 'out.glb', '-q'] : [cmd[0]!, b.name];
        log(`bombs: lodsmith ${args.join(' ')}`);
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), ...args], { cwd: dir, encoding: 'utf8' });
        const s = (performance.now() - t0) / 1000;
        const lines = r.stderr.trimEnd().split('\n');
        const clean = r.status === 2 && lines.length === 1 && /decoding memory budget/.test(lines[0]!) && !/\n\s+at /.test(r.stderr);
        rows.push({
          section: 'reliability', subject: 'p3d-odol', input: b.label, bytes: b.bytes.length, metric: `${cmd[0]} refuses (exit, one line)`,
          value: s, unit: 's', target: `< ${TARGET_S * 1000} ms, exit 2, one line`,
          verdict: clean && s < TARGET_S ? 'PASS' : 'MISS',
          ...(clean ? {} : { note: `exit ${String(r.status)}, ${lines.length} stderr line(s): ${lines[0]?.slice(0, 120) ?? ''}` }),
        });
      }
      rows.push(peakMemory(dir, b.name, b.label, b.bytes.length));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
