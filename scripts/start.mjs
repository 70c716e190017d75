/* global process, console */
// `npm start [-- FILE [--anim ANIM]...]`: builds the app with electron-vite and launches Electron, passing FILE on.
// Where the Electron binary was not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1, or a machine
// Electron does not support) it says so in one line and points to the browser host instead.
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

const electron = electronBinary();
if (!electron) {
  console.error('LodSmith: the Electron binary is not installed, so the desktop app cannot start here; run `npm run serve` to use LodSmith in your browser instead.');
  process.exit(1);
}

// Paths are made absolute (Electron runs from the repository): FILE, and `--anim ANIM` / `--anim=ANIM`.
const files = process.argv.slice(2).map((a) => (a.startsWith('--anim=') ? `--anim=${resolve(a.slice(7))}` : a.startsWith('-') ? a : resolve(a)));
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
