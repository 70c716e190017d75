/**
 * The soak rows (issue 26, goal 7): 1,000 cycles of open, edit, save and close through the
 * document service over corpus files of every model format, in a fresh process
 * (bench/soak-probe.ts); resident memory and open file handles after the run against their
 * values after the first 20 cycles (targets: within 32 MB and 8 handles). The browser-host half
 * of the goal (200 cycles with the page open) is a row too, a MISS saying it is not built yet.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasCorpus } from '../../test/helpers/corpus.ts';
import type { SoakResult } from '../soak-probe.ts';
import { corpusInputs, FORMAT_IDS, shortName } from './inputs.ts';
import type { Row } from './report.ts';

const PROBE = fileURLToPath(new URL('../soak-probe.ts', import.meta.url));
const RSS_SLACK = 32 << 20;
const FD_SLACK = 8;
/** Files per format, the smallest that are not tiny (a cycle should do real work, but 1,000 of them fit in a bench). */
const PER_FORMAT = 2;

export function benchSoak(quick: boolean, log: (s: string) => void): Row[] {
  const cycles = quick ? 100 : 1000;
  const base = { section: 'reliability' as const, subject: 'document service', bytes: 0 };
  const browser: Row = {
    ...base, subject: 'browser host', input: '200 cycles with the page open', metric: 'soak', value: null, unit: 'bytes', target: '<= +32 MB RSS, <= +8 handles', verdict: 'MISS',
    note: 'not measured: the browser-host soak (open, edit, save, close through the page) is not built yet',
  };
  if (!hasCorpus) return [{ ...base, input: `${cycles} cycles`, metric: 'RSS after run - after 20', value: null, unit: 'bytes', target: '<= +32 MB', verdict: 'MISS', note: 'not measured: no corpus' }, browser];
  const files = FORMAT_IDS.flatMap((id) =>
    corpusInputs(id)
      .filter((f) => f.bytes >= 1024)
      .sort((a, b) => a.bytes - b.bytes)
      .slice(0, PER_FORMAT)
      .map((f) => f.file),
  );
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-soak-'));
  try {
    log(`soak: ${cycles} cycles of open, edit, save, close over ${files.length} corpus files`);
    const r = spawnSync(process.execPath, ['--expose-gc', PROBE, dir, String(cycles), ...files], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 20 * 60_000 });
    if (r.status !== 0) {
      const why = (r.stderr || String(r.error ?? '')).trim().split('\n').find((l) => /Error|error/.test(l)) ?? `exit ${r.status}`;
      return [{ ...base, input: `${cycles} cycles`, metric: 'RSS after run - after 20', value: null, unit: 'bytes', target: '<= +32 MB', verdict: 'MISS', note: `the soak failed: ${why.slice(0, 200)}` }, browser];
    }
    const s = JSON.parse(r.stdout) as SoakResult;
    const formats = [...new Set(s.files.map((f) => f.format))];
    const input = `${s.cycles} cycles, ${s.files.length} files (${formats.length} formats)`;
    const rss = s.rssAfterRun - s.rssAfterWarm;
    const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
    const edits = s.noEdit.length ? `; no editable number found in ${s.noEdit.join(', ')} (saved untouched)` : '';
    const rows: Row[] = [
      {
        ...base, input, metric: 'RSS after run - after 20', value: rss, unit: 'bytes', target: '<= +32 MB', verdict: rss <= RSS_SLACK ? 'PASS' : 'MISS',
        note: `RSS ${mb(s.rssAfterWarm)} after ${s.warm} cycles, ${mb(s.rssAfterRun)} after ${s.cycles} (after a full GC each time); ${(s.ms / s.cycles).toFixed(1)} ms a cycle; formats: ${formats.join(', ')}${edits}; files: ${s.files.map((f) => shortName(f.file)).join(', ')}`,
      },
    ];
    if (s.fdsAfterWarm === null || s.fdsAfterRun === null) {
      rows.push({ ...base, input, metric: 'open handles after run - after 20', value: null, unit: 'count', target: '<= +8', verdict: 'MISS', note: 'not measured: no /proc/self/fd here' });
    } else {
      const fds = s.fdsAfterRun - s.fdsAfterWarm;
      rows.push({ ...base, input, metric: 'open handles after run - after 20', value: fds, unit: 'count', target: '<= +8', verdict: fds <= FD_SLACK ? 'PASS' : 'MISS', note: `${s.fdsAfterWarm} open after ${s.warm} cycles, ${s.fdsAfterRun} after ${s.cycles}` });
    }
    rows.push(browser);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
