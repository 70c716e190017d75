/* global process, console */
// `npm start [-- FILE]`: builds the app with electron-vite and launches Electron, passing FILE on.
// Where the Electron binary was not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1, or a machine
// Electron does not support) it starts the browser host instead (scripts/serve.ts, with the same
// arguments) and opens its address in the default browser: $BROWSER when set, else the
// platform's opener (xdg-open, open, start). When no browser can be opened it prints the address.
// Either way `npm start` ends in an editor.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The Electron executable, or null when it is not installed. Found the way the electron package
 * finds it (path.txt, dist/, ELECTRON_OVERRIDE_DIST_PATH) without `require('electron')`, which
 * since Electron 45 tries to download a missing binary and prints a stack trace when offline.
 */
function electronBinary() {
  try {
    const pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = resolve(pkgDir, 'path.txt');
    const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? resolve(pkgDir, 'dist');
    const exe = resolve(dist, name || 'electron');
    return (name || process.env.ELECTRON_OVERRIDE_DIST_PATH) && existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

/** The command that opens `url` in the default browser, or null where there is none to try. */
function browserCommand(url) {
  const custom = process.env.BROWSER?.trim();
  if (custom) {
    if (custom === 'none') return null;
    const [cmd, ...args] = custom.split(/\s+/);
    return { cmd, args: [...args, url] };
  }
  if (process.platform === 'darwin') return { cmd: 'open', args: [url] };
  if (process.platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  // Linux and the BSDs: only with a desktop session to show a browser in.
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return null;
  return { cmd: 'xdg-open', args: [url] };
}

/** Opens `url` in a browser; resolves to whether that worked. */
function openBrowser(url) {
  const c = browserCommand(url);
  if (!c) return Promise.resolve(false);
  return new Promise((done) => {
    let child;
    try {
      child = spawn(c.cmd, c.args, { stdio: 'ignore', detached: process.platform !== 'win32' });
    } catch {
      done(false);
      return;
    }
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0));
    child.unref();
  });
}

/** No Electron here: run the same editor in the browser host and open it. */
function startBrowserHost(args) {
  console.log('LodSmith: the Electron binary is not installed here, so the editor starts in your browser instead.');
  const child = spawn(process.execPath, [resolve(repoRoot, 'scripts', 'serve.ts'), ...args], { cwd: process.cwd(), stdio: ['inherit', 'pipe', 'inherit'] });
  let opened = false;
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (opened) return;
    buffered += chunk.toString();
    const m = /LodSmith is running at (\S+)/.exec(buffered);
    if (!m) return;
    opened = true;
    const url = m[1];
    void openBrowser(url).then((ok) => {
      if (ok) console.log('LodSmith: opened the editor in your default browser.');
      else console.log(`LodSmith: no browser could be opened from here; open this address in yours:\n  ${url}`);
    });
  });
  child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

const electron = electronBinary();
if (!electron) {
  startBrowserHost(process.argv.slice(2));
} else {
  await startElectron(electron);
}

async function startElectron(electron) {

  const files = process.argv.slice(2).map((a) => (a.startsWith('-') ? a : resolve(a)));
  try {
    const { build } = await import('electron-vite');
    await build({ root: repoRoot, configFile: resolve(repoRoot, 'electron.vite.config.ts'), logLevel: 'warn' });
  } catch (e) {
    console.error(`LodSmith: the build failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  const child = spawn(electron, [repoRoot, ...files], { stdio: 'inherit', cwd: repoRoot });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}
