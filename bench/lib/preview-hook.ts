/**
 * HOOK: time from opening a file to the first rendered preview frame in the browser host.
 *
 * This figure needs the browser host (`npm run serve`, main/host/) and the renderer's viewport.
 * Until both are in the repository, the hook reports the measurement as unavailable and says
 * which part is missing; it never prints a number it did not measure. When they land, implement
 * {@link measureFirstFrame} here: start the host, open a corpus file through it in a headless
 * browser, and time from the open request to the viewport's first rendered frame.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../test/helpers/corpus.ts';
import type { Row } from './report.ts';

/** What is missing before the preview latency can be measured (empty when nothing is). */
export function previewPrerequisites(): string[] {
  const missing: string[] = [];
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  if (!pkg.scripts?.serve) missing.push('the `serve` npm script');
  if (!existsSync(join(repoRoot, 'main/host'))) missing.push('the browser host (main/host/)');
  if (!existsSync(join(repoRoot, 'renderer/viewport')) || !existsSync(join(repoRoot, 'renderer/main.ts'))) missing.push('the renderer entry and viewport');
  return missing;
}

/** The open-to-first-frame row: measured when the host is present, otherwise explained. */
export async function measureFirstFrame(): Promise<Row> {
  const missing = previewPrerequisites();
  const base: Row = { section: 'preview', subject: 'browser host', input: 'open file -> first frame', bytes: 0, metric: 'latency', value: null, unit: 's', verdict: 'n/a' };
  if (missing.length) return { ...base, note: `not measured: ${missing.join(', ')} not in the repository yet` };
  return { ...base, note: 'not measured: the host has landed but this hook is not implemented yet' };
}
