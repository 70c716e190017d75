/**
 * Time from opening a file to the first rendered preview frame, in the browser host.
 *
 * The flow is the user's: the app is loaded in a headless Chromium against the host (the same
 * host `npm run serve` starts), the Open dialog is shown, the file is chosen, and the clock runs
 * from the click on "Open" to the first animation frame in which the viewport has drawn the new
 * scene (the canvas's `data-scene` names it, then its `data-renders` count moves). That covers
 * the host decoding the file, the scene crossing the wire, three.js building it and one frame
 * (the draw calls issued; SwiftShader may still be rasterising them).
 * Each row also says where the time went (see {@link PreviewStages}): the page's resource timings
 * and the renderer's `lodsmith:*` marks split the latency into consecutive stages, and the host
 * (which runs in this process) reports its own parts as User Timing measures.
 *
 * Needs the built renderer (out/renderer, rebuilt here when older than its sources), playwright-core and a Chromium
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

export function chromiumPath(): string | undefined {
  if (process.env.LODSMITH_CHROMIUM && existsSync(process.env.LODSMITH_CHROMIUM)) return process.env.LODSMITH_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}

/**
 * Injected before the app loads: watches the Open button and the viewport canvas, records the
 * latency. The canvas's `data-scene` moves once the new scene is set, and `data-renders` once a
 * frame has been drawn; the clock stops at the first draw *after* the scene changed (a render
 * count that moved earlier, e.g. when the window relaid out, drew the old scene). A
 * MutationObserver sees the attribute right after Vue patches it, in the same animation frame as
 * the draw.
 */
const PAGE_PROBE = `(() => {
  const w = window;
  w.__lodsmithPreview = { t0: -1, scene0: null, sceneSet: false, rendersAtScene: 0, latency: -1, submitted: -1 };
  const canvas = () => document.querySelector('[data-testid="viewport-canvas"]');
  // With __lodsmithSyncFrames (openOnce's drawn option): a frame counts once the GPU has drawn it.
  // WebGL calls only queue work (in SwiftShader the GPU process rasters it, and links a program at
  // its first draw); a 1-pixel read waits for all of it.
  const gpuDone = () => {
    if (!w.__lodsmithSyncFrames) return;
    const c = canvas();
    const gl = c && (c.getContext('webgl2') || c.getContext('webgl'));
    if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  };
  // Every frame drawn with a texture that had just arrived: the renderer marks
  // lodsmith:texture:drawn right after drawing it, so the hook runs in that frame.
  w.__lodsmithTextured = [];
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const r = mark(name, options);
    if (name === 'lodsmith:texture:drawn' && w.__lodsmithPreview.t0 >= 0) {
      gpuDone();
      w.__lodsmithTextured.push(performance.now());
    }
    return r;
  };
  document.addEventListener('click', (e) => {
    const t = e.target instanceof Element ? e.target.closest('[data-testid="file-dialog-ok"]') : null;
    if (!t) return;
    const c = canvas();
    w.__lodsmithPreview = { t0: performance.now(), scene0: c ? c.getAttribute('data-scene') : '', sceneSet: false, rendersAtScene: 0, latency: -1, submitted: -1 };
  }, true);
  new MutationObserver(() => {
    const p = w.__lodsmithPreview;
    const c = canvas();
    if (p.t0 < 0 || p.latency >= 0 || !c) return;
    const scene = c.getAttribute('data-scene') || '';
    const renders = Number(c.getAttribute('data-renders') || 0);
    if (!p.sceneSet) {
      if (scene && scene !== p.scene0) {
        p.sceneSet = true;
        p.rendersAtScene = renders;
      }
    } else if (renders > p.rendersAtScene) {
      p.submitted = performance.now() - p.t0;
      gpuDone();
      p.latency = performance.now() - p.t0;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-scene', 'data-renders'] });
})();`;

/**
 * Where the time of one open went, in ms, each stage ending where the next begins (they add up
 * to the latency). From the page's resource timings and the renderer's `lodsmith:*` marks
 * (renderer/lib/stage-marks.ts); host stages come from the host's measures (stage-timing.ts).
 */
export interface PreviewStages {
  /** Click -> doc:open answered (the host reads, decodes, validates and outlines the file). */
  open: number;
  /** Of `open`: click -> the doc:open request started (the page's own work before it asks). */
  sent?: number;
  /** -> the viewport asks for the scene (the app shows the new document). */
  ui: number;
  /** -> first byte of the scene (the host builds the scene and encodes it). */
  scene: number;
  /** -> last byte of the scene. */
  transfer: number;
  /** -> the envelope is decoded into typed arrays. */
  wireDecode: number;
  /** -> three.js objects built (geometry, materials, skeleton). */
  objects: number;
  /** -> helpers and framing done (model box, grid). */
  helpers: number;
  /** -> the first frame with the new scene has been drawn (waiting for the animation frame, then the draw). */
  frame: number;
  /**
   * Host-side parts (ms): read, decode, validate, outline, scene, encode (doc:open and doc:scene);
   * `problems` (with its `validate`) when they were found after the open's answer.
   */
  host: Record<string, number>;
}

/** Reads the marks and resource timings of the open that just finished, relative to the click. */
const READ_STAGES = `(() => {
  const p = window.__lodsmithPreview;
  const mark = (n) => { const e = performance.getEntriesByName('lodsmith:' + n, 'mark').pop(); return e && e.startTime >= p.t0 ? e.startTime - p.t0 : null; };
  const res = (ch) => {
    const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/' + encodeURIComponent(ch)) && r.startTime >= p.t0).pop();
    return e ? { start: e.startTime - p.t0, first: e.responseStart - p.t0, end: e.responseEnd - p.t0 } : null;
  };
  return { latency: p.latency, submitted: p.submitted, open: res('doc:open'), scene: res('doc:scene'), request: mark('scene:request'), received: mark('invoke:doc:scene:received'),
    decoded: mark('invoke:doc:scene:decoded'), openDecoded: mark('invoke:doc:open:decoded'), objects: mark('scene:objects'), built: mark('scene:built') };
})()`;

interface PageTimes {
  latency: number;
  /** Click -> the end of the frame's WebGL calls (before the GPU drew it); = latency unless synced. */
  submitted: number;
  open: { start: number; first: number; end: number } | null;
  scene: { start: number; first: number; end: number } | null;
  request: number | null;
  received: number | null;
  decoded: number | null;
  /** The open's answer decoded (it carries the first scene when the preview asked for it). */
  openDecoded: number | null;
  objects: number | null;
  built: number | null;
}

/** The stages of one open, or undefined when a mark is missing (an older renderer build). */
function stagesOf(t: PageTimes, host: Record<string, number>): PreviewStages | undefined {
  if (!t.open || t.request === null || t.objects === null || t.built === null) return undefined;
  if (!t.scene) {
    // The scene came with the open's answer (doc:open with scene: true): no second round trip;
    // its building is in "open" (the host's build measure says how much), its transfer and
    // decoding in "wire decode".
    if (t.openDecoded === null) return undefined;
    return {
      open: t.open.end, sent: t.open.start, ui: t.request - t.openDecoded, scene: 0, transfer: 0, wireDecode: t.openDecoded - t.open.end,
      objects: t.objects - t.request, helpers: t.built - t.objects, frame: t.latency - t.built, host,
    };
  }
  if (t.received === null || t.decoded === null) return undefined;
  return {
    open: t.open.end,
    sent: t.open.start,
    ui: t.request - t.open.end,
    scene: t.scene.first - t.request,
    transfer: t.received - t.scene.first,
    wireDecode: t.decoded - t.received,
    objects: t.objects - t.decoded,
    helpers: t.built - t.objects,
    frame: t.latency - t.built,
    host,
  };
}

const STAGE_LABELS: [keyof Omit<PreviewStages, 'host' | 'sent'>, string][] = [
  ['open', 'open'], ['ui', 'ui'], ['scene', 'scene on host'], ['transfer', 'transfer'], ['wireDecode', 'wire decode'],
  ['objects', 'three.js objects'], ['helpers', 'helpers+framing'], ['frame', 'first frame'],
];

/** `open 812 (read 120, decode 180, ...), ui 14, ...` */
export function describeStages(s: PreviewStages): string {
  const h = s.host;
  const hostPart = (keys: string[]) => keys.filter((k) => h[k] !== undefined).map((k) => `${k} ${h[k]!.toFixed(0)}`).join(', ');
  // The editor's open answers before the problems are found (doc:problems): their validation
  // and rules run after the answer, beside the page's work, and are named apart.
  const later = h.problems !== undefined;
  const stages = STAGE_LABELS.map(([k, label]) => {
    const extra = k === 'open'
      ? [s.sent !== undefined ? `asked at ${s.sent.toFixed(0)}` : '', hostPart(['read', 'decode', ...(later ? [] : ['validate']), 'outline', ...(s.scene === 0 ? ['build', 'open encode'] : [])])].filter(Boolean).join('; ')
      : k === 'scene' ? hostPart(['build', 'encode']) : '';
    return `${label} ${s[k].toFixed(0)}${extra ? ` (${extra})` : ''}`;
  }).join(', ');
  return later ? `${stages}; after the answer: problems ${h.problems!.toFixed(0)} (${hostPart(['validate'])})` : stages;
}

/**
 * Collects the host's stage measures (`lodsmith:host:*`) while `fn` runs. The host runs in this
 * process, so a PerformanceObserver sees them.
 */
async function withHostStages<T>(fn: () => Promise<T>): Promise<{ value: T; host: Record<string, number> }> {
  const { PerformanceObserver } = await import('node:perf_hooks');
  const host: Record<string, number> = {};
  const add = (k: string, ms: number) => (host[k] = (host[k] ?? 0) + ms);
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.name.startsWith('lodsmith:host:')) continue;
      const stage = e.name.slice('lodsmith:host:'.length);
      const detail = (e as PerformanceEntry & { detail?: { channel?: string } }).detail;
      if (stage === 'encode') {
        // Only the two answers on the preview's path; the others are a few bytes each.
        if (detail?.channel === 'doc:scene' || detail?.channel === 'doc:open') add(detail.channel === 'doc:scene' ? 'encode' : 'open encode', e.duration);
      } else add(stage === 'scene' ? 'build' : stage, e.duration);
    }
  });
  obs.observe({ entryTypes: ['measure'] });
  try {
    const value = await fn();
    // Observer callbacks are delivered asynchronously.
    await new Promise((r) => setTimeout(r, 20));
    return { value, host };
  } finally {
    obs.disconnect();
  }
}

interface HostModule {
  startHost(opts: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>;
}

export async function ensureRenderer(log: (s: string) => void): Promise<string> {
  // The same check as `npm run serve` and the e2e tests: rebuilt when older than its sources, so
  // the figure is never taken on a stale bundle.
  const serve = (await import(pathToFileURL(join(repoRoot, 'scripts/serve.ts')).href)) as { ensureRenderer(log: (s: string) => void): Promise<boolean> };
  await serve.ensureRenderer((line) => log(`preview: ${line.toLowerCase()}`));
  return join(repoRoot, 'out/renderer');
}

/** One open as {@link openOnce} measured it. */
export interface OpenSample {
  /** Click on Open -> first frame with the new scene (and, with `textures`, with every texture). */
  seconds: number;
  /** Click -> first frame with the new scene, textures or not. */
  sceneSeconds: number;
  /** Click -> the end of that frame's WebGL calls, before the GPU drew it (= sceneSeconds unless `drawn`). */
  submittedSeconds: number;
  stages?: PreviewStages;
  /** The viewport canvas's drawing buffer (pixels). */
  canvas: { width: number; height: number };
}

/**
 * One open of `file` in a fresh page: the latency in seconds and where it went. With `textures`
 * the model's textures count too: after the first frame of the scene the page is watched until no
 * textured frame has come for 1.5 s, and the open ends with the last frame that drew a newly
 * arrived texture (the first frame with every texture), when that is later than the scene's.
 * With `drawn` a frame ends when the GPU has drawn it (a 1-pixel read of the canvas right after
 * its WebGL calls), not when those calls were queued: the clock the GLTFLoader rows stop on both
 * sides.
 */
export async function openOnce(browser: any, url: string, file: string, opts: { textures?: boolean; drawn?: boolean; profile?: ((profile: unknown) => void) | undefined } = {}): Promise<OpenSample> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    if (opts.drawn) await page.addInitScript('window.__lodsmithSyncFrames = true;');
    await page.addInitScript(PAGE_PROBE);
    await page.goto(url);
    // The user opens a file in a window that has started: the viewport has compiled its shader
    // programs (its `lodsmith:viewport:warm` mark), which in SwiftShader takes the GPU thread
    // for a while; a click in the first few hundred ms would queue the first frame behind it.
    await page.waitForFunction(() => performance.getEntriesByName('lodsmith:viewport:warm').length > 0, undefined, { timeout: 15_000, polling: 50 }).catch(() => undefined);
    await page.getByTestId('welcome-open').click();
    await page.locator(`[data-testid="file-entry"][data-name="${basename(file)}"]`).click();
    // bench/profile-preview.ts: Chromium's sampling profiler over the open (1 ms interval).
    const cdp = opts.profile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const { value: times, host } = await withHostStages(async () => {
      await page.getByTestId('file-dialog-ok').click();
      await page.waitForFunction(() => {
        const p = (window as unknown as { __lodsmithPreview: { latency: number } }).__lodsmithPreview;
        return p.latency >= 0 ? p.latency : false;
      }, undefined, { timeout: 120_000, polling: 100 });
      return (await page.evaluate(READ_STAGES)) as PageTimes;
    });
    if (cdp) opts.profile!((await cdp.send('Profiler.stop')).profile);
    let seconds = times.latency / 1000;
    if (opts.textures) {
      const textured = () => page.evaluate(() => {
        const w = window as unknown as { __lodsmithPreview: { t0: number }; __lodsmithTextured: number[] };
        return w.__lodsmithTextured.filter((t) => t >= w.__lodsmithPreview.t0).map((t) => t - w.__lodsmithPreview.t0);
      }) as Promise<number[]>;
      let seen = await textured();
      for (let quiet = 0; quiet < 2; ) {
        await page.waitForTimeout(750);
        const next = await textured();
        quiet = next.length === seen.length ? quiet + 1 : 0;
        seen = next;
      }
      if (seen.length) seconds = Math.max(seconds, seen[seen.length - 1]! / 1000);
    }
    const canvas = (await page.evaluate(() => {
      const c = document.querySelector('[data-testid="viewport-canvas"]') as HTMLCanvasElement | null;
      return { width: c?.width ?? 0, height: c?.height ?? 0 };
    })) as { width: number; height: number };
    const stages = stagesOf(times, host);
    return { seconds, sceneSeconds: times.latency / 1000, submittedSeconds: times.submitted / 1000, ...(stages ? { stages } : {}), canvas };
  } finally {
    await page.close();
  }
}

/**
 * Chromium as the preview rows start it: WebGL in SwiftShader, the page itself rastered on the
 * CPU. Some packagings (Debian's `chromium` wrapper, /etc/chromium.d/default-flags) force
 * `--enable-gpu-rasterization`, which with SwiftShader rasters every repaint of the page's UI in
 * software GL on the GPU process's main thread, the thread WebGL draws on: after an open, the
 * window's new panels took it for ~550 ms, and the viewport's first frame waited behind them
 * (Chromium trace, 2026-11-29). A GPU rasters that in a few ms, and Chromium does not raster on
 * a software GL by default, so the flag is turned back off here, for both sides of every row.
 */
export async function launchChromium(): Promise<any> {
  const { chromium } = (await import('playwright-core')) as { chromium: { launch(o: Record<string, unknown>): Promise<any> } };
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-gpu-rasterization'],
  });
}

/** A file to open; `target` (seconds) gives the row a PASS/MISS. */
export interface PreviewInput {
  label: string;
  file: string;
  bytes: number;
  format: string;
  target?: number;
}

/** Open-to-first-frame rows for the given files: measured when everything is present, explained otherwise. */
export async function measureFirstFrame(files: PreviewInput[], runs: number, log: (s: string) => void): Promise<Row[]> {
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
  const host = (await import(pathToFileURL(join(repoRoot, 'main/host/server.ts')).href)) as HostModule;
  const browser = await launchChromium();
  const rows: Row[] = [];
  try {
    for (const f of files) {
      log(`preview: ${f.label}`);
      const samples: OpenSample[] = [];
      const target = f.target === undefined ? {} : { target: `< ${(f.target * 1000).toFixed(0)} ms` };
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
        const value = median(samples.map((s) => s.seconds));
        // The stages of the run closest to the median (stages of different runs do not add up).
        const mid = samples.reduce((a, b) => (Math.abs(b.seconds - value) < Math.abs(a.seconds - value) ? b : a));
        const verdict = f.target === undefined ? '-' : value < f.target ? 'PASS' : 'MISS';
        const row: Row & { stages?: PreviewStages } = {
          ...base, subject: f.format, input: f.label, bytes: f.bytes, value, verdict, ...target,
          note: `median of ${samples.length} open(s) after 1 warm-up (${samples.map((s) => (s.seconds * 1000).toFixed(0)).join(', ')} ms); WebGL in SwiftShader${mid.stages ? `; stages of the median open, ms: ${describeStages(mid.stages)}` : ''}`,
          ...(mid.stages ? { stages: mid.stages } : {}),
        };
        rows.push(row);
      } catch (e) {
        rows.push({ ...base, subject: f.format, input: f.label, bytes: f.bytes, ...target, note: `failed: ${(e as Error).message.split('\n')[0]}` });
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}
