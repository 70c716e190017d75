/**
 * `npm start` always ends in an editor: without an Electron binary it starts the browser host and
 * opens the default browser ($BROWSER here, a script that records the address), or prints the
 * address when no browser can be opened. The page at that address is the editor with the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, repoRoot, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

let dir: string;
let child: ChildProcess | undefined;
let output = '';

test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-start-'));
  await writeFile(join(dir, 'robot.lod'), encodeLod(buildSampleLod()));
  output = '';
});
test.afterEach(async () => {
  // npm, its shell and the host run in one process group of their own: stop all of it.
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

function npmStart(browser: string): void {
  child = spawn('npm', ['start', '--', join(dir, 'robot.lod')], {
    cwd: repoRoot,
    detached: true,
    env: {
      ...process.env,
      // Wherever the tests run, behave as where Electron is not installed.
      ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      LODSMITH_CONFIG_DIR: join(dir, 'config'),
      LODSMITH_SKIP_RENDERER_BUILD: '1',
      BROWSER: browser,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
}

test('without Electron, npm start runs the browser host and opens the editor in the default browser', async ({ page }) => {
  const opened = join(dir, 'opened.txt');
  const opener = join(dir, 'browser.sh');
  await writeFile(opener, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  await chmod(opener, 0o755);
  npmStart(opener);
  await expect.poll(() => existsSync(opened), { timeout: 45_000 }).toBe(true);
  const url = await readFile(opened, 'utf8');
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  await expect.poll(() => output).toContain('opened the editor in your default browser');
  await page.goto(url);
  await expect(page.getByRole('tab', { name: 'robot.lod' })).toBeVisible();
  await expect(page.locator('[data-testid=status-format]')).toHaveText(/LODka/);
});

test('without Electron and without a browser to open, npm start prints the address', async ({ page }) => {
  npmStart('none');
  await expect.poll(() => output, { timeout: 45_000 }).toContain('open this address in yours');
  const url = /open this address in yours:\s+(\S+)/.exec(output)![1]!;
  await page.goto(url);
  await expect(page.getByRole('tab', { name: 'robot.lod' })).toBeVisible();
});
