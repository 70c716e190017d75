/**
 * A CPU profile of the page while it opens one model in the browser host, for whatever the
 * preview rows miss by (Chromium's own profiler over CDP):
 *
 *   node bench/profile-preview.ts MODEL [OUT_DIR]
 *
 * Opens MODEL once to warm up, then again with the profiler running from the click on Open to the
 * first frame, and writes `page-<name>.cpuprofile` into OUT_DIR (default bench/results/profiles);
 * summarise it with `node bench/profile.ts --top FILE`. Prints the open's latency and stages.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { repoRoot } from '../test/helpers/corpus.ts';
import { describeStages, ensureRenderer, launchChromium, openOnce } from './lib/preview-hook.ts';

const [model, outArg] = process.argv.slice(2);
if (!model) throw new Error('usage: bench/profile-preview.ts MODEL [OUT_DIR]');
const file = resolve(model);
const out = resolve(outArg ?? join(repoRoot, 'bench/results/profiles'));
mkdirSync(out, { recursive: true });
const rendererDir = await ensureRenderer((s) => process.stderr.write(`${s}\n`));
const { startHost } = await import('../main/host/server.ts');
const browser = await launchChromium();
try {
  for (const profile of [false, true]) {
    const configDir = mkdtempSync(join(tmpdir(), 'lodsmith-profile-host-'));
    const h = await startHost({ roots: [dirname(file)], configDir, rendererDir, port: 0, samplePath: null, version: 'bench', log: () => undefined });
    try {
      const s = await openOnce(browser, h.url, file, {
        profile: profile ? (p) => writeFileSync(join(out, `page-${basename(file)}.cpuprofile`), JSON.stringify(p)) : undefined,
      });
      console.log(`${profile ? 'profiled' : 'warm-up'}: ${(s.seconds * 1000).toFixed(0)} ms${s.stages ? `; ${describeStages(s.stages)}` : ''}`);
    } finally {
      await h.close();
      rmSync(configDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
