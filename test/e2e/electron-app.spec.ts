/**
 * The desktop app itself. These need the Electron binary, which installs with
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 leave out; they skip then (the browser-host specs cover the
 * renderer and the document service).
 */
import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, electronBinary, repoRoot, samplePath } from './fixtures/index.ts';

const binary = electronBinary();
test.skip(!binary, 'the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1); the browser-host specs cover the app instead');

let dir: string;
let app: ElectronApplication;

test.beforeAll(() => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: repoRoot, stdio: 'inherit' });
  expect(r.status).toBe(0);
});

test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-electron-'));
  await copyFile(samplePath, join(dir, 'robot.lod'));
  app = await electron.launch({
    executablePath: binary!,
    // A profile of its own: the recent list and the single-instance lock stay per test.
    args: [repoRoot, join(dir, 'robot.lod'), `--user-data-dir=${join(dir, 'profile')}`],
  });
});

test.afterEach(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the page sees only window.lodsmith: no require, no process', async () => {
  const page = await app.firstWindow();
  const seen = await page.evaluate(() => ({
    api: Object.keys((window as unknown as { lodsmith: object }).lodsmith).sort(),
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
  }));
  expect(seen).toEqual({ api: ['invoke', 'on'], require: 'undefined', process: 'undefined' });
});

test('the file from the command line is open, and malformed requests are refused', async () => {
  const page = await app.firstWindow();
  const list = await page.evaluate(() => (window as unknown as { lodsmith: { invoke(c: string, r: unknown): Promise<unknown> } }).lodsmith.invoke('doc:list', undefined));
  expect(list).toMatchObject({ ok: true, value: [{ fileName: 'robot.lod', format: 'lodka-lod' }] });
  const refused = await page.evaluate(() => (window as unknown as { lodsmith: { invoke(c: string, r: unknown): Promise<unknown> } }).lodsmith.invoke('doc:open', { path: 42 }));
  expect(refused).toMatchObject({ ok: false, error: { code: 'invalid' } });
});

test('window.open and navigation are refused', async () => {
  const page = await app.firstWindow();
  const url = page.url();
  const opened = await page.evaluate(() => window.open('https://example.com') === null);
  expect(opened).toBe(true);
  await page.evaluate(() => {
    location.href = 'https://example.com';
  });
  await expect.poll(() => page.url()).toBe(url);
  expect(app.windows()).toHaveLength(1);
});
