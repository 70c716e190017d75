/**
 * The soak rows (issue 26, goal 7): 1,000 cycles of open, edit, save and close through the
 * document service over corpus files of every model format, in a fresh process
 * (bench/soak-probe.ts); resident memory and open file handles after the run against their
 * values after the first 20 cycles (targets: within 32 MB and 8 handles). The browser-host half
 * ({@link benchBrowserSoak}, `--only soak-browser`): 200 cycles through the browser host with its
 * page open (bench/soak-browser-probe.ts), held to the same targets, the page's renderer beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasCorpus } from '../../test/helpers/corpus.ts';
import type { SoakResult } from './soak-measure.ts';
import type { BrowserSoakResult } from '../soak-browser-probe.ts';
import { corpusInputs, FORMAT_IDS, shortName } from './inputs.ts';
import type { Row } from './report.ts';

const PROBE = fileURLToPath(new URL('../soak-probe.ts', import.meta.url));
const RSS_SLACK = 32 << 20;
const FD_SLACK = 8;
/** Files per format, the smallest that are not tiny (a cycle should do real work, but 1,000 of them fit in a bench). */
const PER_FORMAT = 2;

/** The smallest corpus files of at least 1 kB of every format, `perFormat` of each. */
function soakFiles(perFormat: number): string[] {
  return FORMAT_IDS.flatMap((id) =>
    corpusInputs(id)
      .filter((f) => f.bytes >= 1024)
      .sort((a, b) => a.bytes - b.bytes)
      .slice(0, perFormat)
      .map((f) => f.file),
  );
}

/** The first line of a failed probe's output that says what went wrong. */
function failure(r: { status: number | null; stderr: string; error?: Error }): string {
  const lines = (r.stderr || String(r.error ?? '')).trim().split('\n');
  return (lines.find((l) => /Error|error/.test(l)) ?? `exit ${r.status}`).trim().slice(0, 200);
}

export function benchSoak(quick: boolean, log: (s: string) => void): Row[] {
  const cycles = quick ? 100 : 1000;
  const base = { section: 'reliability' as const, subject: 'document service', bytes: 0 };
  if (!hasCorpus) return [{ ...base, input: `${cycles} cycles`, metric: 'RSS after run - after 20', value: null, unit: 'bytes', target: '<= +32 MB', verdict: 'MISS', note: 'not measured: no corpus' }];
  const files = soakFiles(PER_FORMAT);
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-soak-'));
  try {
    log(`soak: ${cycles} cycles of open, edit, save, close over ${files.length} corpus files`);
    const r = spawnSync(process.execPath, ['--expose-gc', PROBE, dir, String(cycles), ...files], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 20 * 60_000 });
    if (r.status !== 0) {
      const why = failure(r);
      return [{ ...base, input: `${cycles} cycles`, metric: 'RSS after run - after 20', value: null, unit: 'bytes', target: '<= +32 MB', verdict: 'MISS', note: `the soak failed: ${why.slice(0, 200)}` }];
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
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BROWSER_PROBE = fileURLToPath(new URL('../soak-browser-probe.ts', import.meta.url));

/**
 * The browser-host soak: `200` cycles (`--quick`: 40) of open, edit, save and close through the
 * page, one corpus file of every format taken in turn, in a fresh process
 * (bench/soak-browser-probe.ts). Rows: the host's RSS and open handles after the run against
 * their values after 20 cycles (PASS/MISS), and the page's renderer memory beside them.
 */
export async function benchBrowserSoak(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const cycles = quick ? 40 : 200;
  const base = { section: 'reliability' as const, subject: 'browser host', bytes: 0 };
  const miss = (note: string): Row[] => [{ ...base, input: `${cycles} cycles with the page open`, metric: 'RSS after run - after 20', value: null, unit: 'bytes', target: '<= +32 MB', verdict: 'MISS', note }];
  if (!hasCorpus) return miss('not measured: no corpus');
  const { ensureRenderer, previewPrerequisites } = await import('./preview-hook.ts');
  const missing = previewPrerequisites();
  if (missing.length) return miss(`not measured: ${missing.join(', ')} not available`);
  let rendererDir: string;
  try {
    rendererDir = await ensureRenderer(log);
  } catch (e) {
    return miss(`not measured: the renderer could not be built: ${(e as Error).message.split('\n')[0]}`);
  }
  const files = soakFiles(1);
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-soak-browser-'));
  try {
    log(`soak: ${cycles} cycles of open, edit, save, close through the browser host over ${files.length} corpus files`);
    const r = spawnSync(process.execPath, ['--expose-gc', BROWSER_PROBE, dir, String(cycles), rendererDir, ...files], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 60 * 60_000 });
    if (r.status !== 0) return miss(`the soak failed: ${failure(r)}`);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!) as BrowserSoakResult;
    const formats = [...new Set(s.files.map((f) => f.format))];
    const input = `${s.cycles} cycles with the page open, ${s.files.length} files (${formats.length} formats)`;
    const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
    const rss = s.rssAfterRun - s.rssAfterWarm;
    const edits = s.noEdit.length ? `; no editable number found in ${s.noEdit.join(', ')} (saved untouched)` : '';
    const rows: Row[] = [{
      ...base, input, metric: 'host RSS after run - after 20', value: rss, unit: 'bytes', target: '<= +32 MB', verdict: rss <= RSS_SLACK ? 'PASS' : 'MISS',
      note: `host process (with the browser driver in it) ${mb(s.rssAfterWarm)} after ${s.warm} cycles, ${mb(s.rssAfterRun)} after ${s.cycles} (after a full GC each time); ${(s.ms / s.cycles).toFixed(0)} ms a cycle; formats: ${formats.join(', ')}${edits}; files: ${s.files.map((f) => shortName(f.file.replace(/^\d+-/, ''))).join(', ')}`,
    }];
    if (s.fdsAfterWarm === null || s.fdsAfterRun === null) {
      rows.push({ ...base, input, metric: 'host open handles after run - after 20', value: null, unit: 'count', target: '<= +8', verdict: 'MISS', note: 'not measured: no /proc/self/fd here' });
    } else {
      const fds = s.fdsAfterRun - s.fdsAfterWarm;
      rows.push({ ...base, input, metric: 'host open handles after run - after 20', value: fds, unit: 'count', target: '<= +8', verdict: fds <= FD_SLACK ? 'PASS' : 'MISS', note: `${s.fdsAfterWarm} open after ${s.warm} cycles, ${s.fdsAfterRun} after ${s.cycles}` });
    }
    const heap = s.pageHeapAfterRun - s.pageHeapAfterWarm;
    if (s.rendererRssAfterWarm === null || s.rendererRssAfterRun === null) {
      rows.push({ ...base, input, metric: 'page JS heap after run - after 20', value: heap, unit: 'bytes', target: '<= +32 MB', verdict: heap <= RSS_SLACK ? 'PASS' : 'MISS', note: `${mb(s.pageHeapAfterWarm)} after ${s.warm} cycles, ${mb(s.pageHeapAfterRun)} after ${s.cycles} (after Chromium's GC); renderer RSS not measured: no /proc here` });
    } else {
      const rr = s.rendererRssAfterRun - s.rendererRssAfterWarm;
      rows.push({
        ...base, input, metric: 'renderer RSS after run - after 20', value: rr, unit: 'bytes', target: '<= +32 MB', verdict: rr <= RSS_SLACK ? 'PASS' : 'MISS',
        note: `Chromium's renderer processes ${mb(s.rendererRssAfterWarm)} after ${s.warm} cycles, ${mb(s.rendererRssAfterRun)} after ${s.cycles}; the page's JS heap ${mb(s.pageHeapAfterWarm)} -> ${mb(s.pageHeapAfterRun)} (${heap >= 0 ? '+' : ''}${mb(heap)}) after Chromium's GC`,
      });
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
