/**
 * Time from opening a file to the first rendered preview frame, in the browser host.
 *
 * The flow is the user's: the app is loaded in a headless Chromium against the host (the same
 * host `npm run serve` starts), the Open dialog is shown, the file is chosen, and the clock runs
 * from the click on "Open" to the first animation frame in which the viewport has drawn the new
 * scene (the canvas's `data-scene` names it and its `data-renders` count has moved). That covers
 * the host decoding the file, the scene crossing the wire, three.js building it and one frame.
 * Frames are observed with requestAnimationFrame, so the figure is exact to about one frame.
 *
 * Needs the built renderer (out/renderer, built here when missing), playwright-core and a Chromium
 * (`chromium` on the PATH, or LODSMITH_CHROMIUM). WebGL runs in SwiftShader (software) in a headless
 * browser, so the draw itself is slower than on a desktop GPU: the figure is an upper bound.
 * When something is missing the row says what and no number is printed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../test/helpers/corpus.ts';
import type { Row } from './report.ts';
import { median } from './timing.ts';

/** What is missing before the preview latency can be measured (empty when nothing is). */
export function previewPrerequisites(): string[] {
  const missing: string[] = [];
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  if (!pkg.scripts?.serve) missing.push('the `serve` npm script');
  if (!existsSync(join(repoRoot, 'main/host/server.ts')) || !existsSync(join(repoRoot, 'main/host/serve.ts'))) missing.push('the browser host (main/host/)');
  if (!existsSync(join(repoRoot, 'renderer/main.ts')) || !existsSync(join(repoRoot, 'renderer/viewport'))) missing.push('the renderer entry and viewport');
  if (!existsSync(join(repoRoot, 'node_modules/playwright-core'))) missing.push('playwright-core');
  if (!chromiumPath()) missing.push('a Chromium binary (install `chromium` or set LODSMITH_CHROMIUM)');
  return missing;
}

function chromiumPath(): string | undefined {
  if (process.env.LODSMITH_CHROMIUM && existsSync(process.env.LODSMITH_CHROMIUM)) return process.env.LODSMITH_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}

/** Injected before the app loads: watches frames and the Open button, records the latency. */
const PAGE_PROBE = `(() => {
  const w = window;
  w.__lodsmithPreview = { t0: -1, scene0: null, renders0: 0, latency: -1 };
  document.addEventListener('click', (e) => {
    const t = e.target instanceof Element ? e.target.closest('[data-testid="file-dialog-ok"]') : null;
    if (!t) return;
    const c = document.querySelector('[data-testid="viewport-canvas"]');
    w.__lodsmithPreview = { t0: performance.now(), scene0: c ? c.getAttribute('data-scene') : '', renders0: c ? Number(c.getAttribute('data-renders') || 0) : 0, latency: -1 };
  }, true);
  const tick = () => {
    const p = w.__lodsmithPreview;
    if (p.t0 >= 0 && p.latency < 0) {
      const c = document.querySelector('[data-testid="viewport-canvas"]');
      const scene = c ? c.getAttribute('data-scene') || '' : '';
      const renders = c ? Number(c.getAttribute('data-renders') || 0) : 0;
      if (scene && scene !== p.scene0 && renders > p.renders0) p.latency = performance.now() - p.t0;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

interface HostModule {
  startHost(opts: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>;
}

async function ensureRenderer(log: (s: string) => void): Promise<string> {
  const dir = join(repoRoot, 'out/renderer');
  if (existsSync(join(dir, 'index.html'))) return dir;
  log('preview: building the renderer (out/renderer is missing)');
  const { build } = (await import('vite')) as { build: (c: Record<string, unknown>) => Promise<unknown> };
  await build({ configFile: join(repoRoot, 'renderer/vite.config.ts'), root: join(repoRoot, 'renderer'), logLevel: 'warn' });
  return dir;
}

/** One open of `file` in a fresh page: the latency in seconds. */
async function openOnce(browser: any, url: string, file: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.addInitScript(PAGE_PROBE);
    await page.goto(url);
    await page.getByTestId('welcome-open').click();
    await page.locator(`[data-testid="file-entry"][data-name="${basename(file)}"]`).click();
    await page.getByTestId('file-dialog-ok').click();
    const handle = await page.waitForFunction(() => {
      const p = (window as unknown as { __lodsmithPreview: { latency: number } }).__lodsmithPreview;
      return p.latency >= 0 ? p.latency : false;
    }, undefined, { timeout: 120_000, polling: 100 });
    return (await handle.jsonValue()) / 1000;
  } finally {
    await page.close();
  }
}

/** Open-to-first-frame rows for the given files: measured when everything is present, explained otherwise. */
export async function measureFirstFrame(files: { label: string; file: string; bytes: number; format: string }[], runs: number, log: (s: string) => void): Promise<Row[]> {
  const base: Row = { section: 'preview', subject: 'browser host', input: 'open file -> first frame', bytes: 0, metric: 'latency', value: null, unit: 's', verdict: 'n/a' };
  const missing = previewPrerequisites();
  if (missing.length) return [{ ...base, note: `not measured: ${missing.join(', ')} not available` }];
  if (files.length === 0) return [{ ...base, note: 'not measured: no input files (corpus absent)' }];
  let rendererDir: string;
  try {
    rendererDir = await ensureRenderer(log);
  } catch (e) {
    return [{ ...base, note: `not measured: the renderer could not be built: ${(e as Error).message.split('\n')[0]}` }];
  }
  const { chromium } = (await import('playwright-core')) as { chromium: { launch(o: Record<string, unknown>): Promise<any> } };
  const host = (await import(pathToFileURL(join(repoRoot, 'main/host/server.ts')).href)) as HostModule;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
  const rows: Row[] = [];
  try {
    for (const f of files) {
      log(`preview: ${f.label}`);
      const samples: number[] = [];
      try {
        for (let i = 0; i < runs + 1; i++) {
          // A fresh host each time: a host keeps its documents open, and the app would show the
          // last one again instead of its welcome screen.
          const configDir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-host-'));
          // The file's own folder is the host's only root: nothing is copied.
          const h = await host.startHost({ roots: [dirname(f.file)], configDir, rendererDir, port: 0, samplePath: null, log: () => undefined });
          try {
            const s = await openOnce(browser, h.url, f.file);
            // The first open also warms the browser's caches and code; it is not counted.
            if (i > 0) samples.push(s);
          } finally {
            await h.close();
            rmSync(configDir, { recursive: true, force: true });
          }
        }
        rows.push({ ...base, subject: f.format, input: f.label, bytes: f.bytes, value: median(samples), verdict: '-', note: `median of ${samples.length} open(s) after 1 warm-up (${samples.map((s) => (s * 1000).toFixed(0)).join(', ')} ms); WebGL in SwiftShader` });
      } catch (e) {
        rows.push({ ...base, subject: f.format, input: f.label, bytes: f.bytes, note: `failed: ${(e as Error).message.split('\n')[0]}` });
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}
