/**
 * The browser-host half of the soak (issue 26, goal 7): `cycles` rounds of open, edit, save and
 * close through the browser host with its page open the whole time, over copies of corpus files
 * of every format in a temp folder (the host's only root), taken in turn. Run as
 * `node --expose-gc bench/soak-browser-probe.ts <dir> <cycles> <rendererDir> <file>...`; prints
 * one JSON line ({@link BrowserSoakResult}).
 *
 * Each cycle is a user's: the page's Open dialog (Open..., the file, Open) and the wait for the
 * viewport to draw the model; the edit found for the file beforehand (soak-measure.ts, as the
 * service soak finds it) sent to the host's API as the e2e tests call it, and the page shown the
 * document as modified; Ctrl+S in the page and the wait for it to show the document saved; the
 * tab's close button and the wait for the welcome screen. The host runs in this process (as
 * `npm run serve` runs it in its own), so its resident memory and open file handles are this
 * process's, read after full garbage collections (soak-measure.ts, shared with the service soak);
 * they include the browser driver's share, which a leak in the driver would grow too. The page's
 * renderer process is measured beside it: its resident memory (every Chromium renderer process,
 * /proc) and the page's JavaScript heap, after Chromium's own garbage collection.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DocumentService } from '../main/documents/document-service.ts';
import { startHost } from '../main/host/server.ts';
import { encodeEnvelope, decodeEnvelope } from '../shared/ipc/wire.ts';
import type { DocSnapshot, Result } from '../shared/ipc/contract.ts';
import { launchChromium } from './lib/preview-hook.ts';
import { editsOf, openFds, rssOf, settle, type SoakResult } from './lib/soak-measure.ts';

/** The service soak's figures, and the page's: Chromium's renderer processes and the page's heap. */
export interface BrowserSoakResult extends SoakResult {
  /** Chromium's renderer processes (summed VmRSS: the page's and Chromium's own), or null where /proc cannot say. */
  rendererRssAfterWarm: number | null;
  rendererRssAfterRun: number | null;
  /** The page's JavaScript heap in use, after a collection. */
  pageHeapAfterWarm: number;
  pageHeapAfterRun: number;
}

/** The pids of Chromium's renderer processes started under process `ancestor` (Linux /proc). */
function rendererPids(ancestor: number): number[] {
  const parent = new Map<number, number>();
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid), n = 0; p !== undefined && n < 10; p = parent.get(p), n++) if (p === ancestor) return true;
    return false;
  };
  return pids.filter((pid) => {
    if (!under(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

async function main(): Promise<void> {
  const [dir, cyclesArg, rendererDir, ...sources] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!dir || !(cycles > 0) || !rendererDir || sources.length === 0) throw new Error('usage: soak-browser-probe.ts <dir> <cycles> <rendererDir> <file>...');
  const warm = Math.min(20, cycles);
  const root = join(dir, 'models');
  mkdirSync(root, { recursive: true });
  const files = sources.map((s, i) => {
    const to = join(root, `${i}-${basename(s)}`);
    copyFileSync(s, to);
    return to;
  });
  // The edits, found with a service of our own (the host's is the same code on the same files).
  const svc = new DocumentService({ configDir: join(dir, 'probe-config') });
  const { edits, described } = await editsOf(svc, files);

  const host = await startHost({ roots: [root], configDir: join(dir, 'config'), rendererDir, samplePath: null, version: 'soak', log: () => undefined });
  const invoke = async <T>(channel: string, req: unknown): Promise<T> => {
    const res = await fetch(`${host.origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'x-lodsmith-token': host.token, 'content-type': 'application/x-lodsmith-envelope' },
      body: encodeEnvelope({ req }) as Uint8Array<ArrayBuffer>,
    });
    const r = ((res.headers.get('content-type') ?? '').startsWith('application/json') ? await res.json() : decodeEnvelope(new Uint8Array(await res.arrayBuffer()))) as Result<T>;
    if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
    return r.value;
  };
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const cdp = await page.context().newCDPSession(page);
  const rendererRss = (): number | null => {
    // Chromium runs as a child of this process (playwright's launch); its renderers below it.
    const pids = rendererPids(process.pid);
    if (!pids.length) return null;
    let sum = 0;
    for (const pid of pids) sum += rssOf(pid) ?? 0;
    return sum;
  };
  const measure = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    settle();
    return { rss: process.memoryUsage().rss, fds: openFds(), renderer: rendererRss(), heap: heap.usedSize };
  };
  let atWarm: Awaited<ReturnType<typeof measure>> | undefined;
  const t0 = performance.now();
  try {
    await page.goto(host.url);
    const canvas = page.getByTestId('viewport-canvas');
    for (let c = 0; c < cycles; c++) {
      const f = files[c % files.length]!;
      const name = basename(f);
      // Open, as a user does, and wait for the viewport to draw the new scene.
      const scene0 = await canvas.getAttribute('data-scene').catch(() => null);
      await page.getByTestId('welcome-open').click();
      await page.locator(`[data-testid="file-entry"][data-name="${name}"]`).click();
      await page.getByTestId('file-dialog-ok').click();
      const tab = page.getByTestId('doc-tab');
      await tab.waitFor();
      await page.waitForFunction((s0: string | null) => {
        const el = document.querySelector('[data-testid="viewport-canvas"]');
        return !!el && el.getAttribute('data-scene') !== s0;
      }, scene0, { timeout: 60_000 });
      const edit = edits.get(f);
      if (edit) {
        const doc = (await invoke<DocSnapshot[]>('doc:list', undefined)).find((d) => d.fileName === name);
        if (!doc) throw new Error(`cycle ${c}: ${name} is not open in the host`);
        await invoke('doc:edit', { id: doc.id, command: { op: 'set', path: edit.path, value: edit.value } });
        await page.locator('[data-testid="doc-tab"][data-dirty="true"]').waitFor({ timeout: 30_000 });
        await page.keyboard.press('Control+s');
        await page.locator('[data-testid="doc-tab"][data-dirty="false"]').waitFor({ timeout: 30_000 });
      } else await page.keyboard.press('Control+s');
      await page.getByTestId('tab-close').click();
      await page.getByTestId('welcome-open').waitFor({ timeout: 30_000 });
      if (c + 1 === warm) atWarm = await measure();
    }
    const ms = performance.now() - t0;
    const end = await measure();
    const result: BrowserSoakResult = {
      cycles, warm, files: described, noEdit: described.filter((d) => d.edit === '-').map((d) => d.file),
      rssAfterWarm: atWarm!.rss, rssAfterRun: end.rss, fdsAfterWarm: atWarm!.fds, fdsAfterRun: end.fds,
      rendererRssAfterWarm: atWarm!.renderer, rendererRssAfterRun: end.renderer, pageHeapAfterWarm: atWarm!.heap, pageHeapAfterRun: end.heap, ms,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await browser.close();
    await host.close();
  }
}

await main();
