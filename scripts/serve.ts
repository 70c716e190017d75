/**
 * `npm run serve`: builds the renderer when its output is missing or older than its sources,
 * then starts the browser host (main/host/serve.ts) and prints the address to open.
 * The end-to-end tests' global setup uses {@link ensureRenderer} too.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseServeArgs, serve, RENDERER_DIR } from '../main/host/serve.ts';

// From RENDERER_DIR (main/host/serve.ts), so the path holds in the prebuilt out/host/serve.mjs too.
const repoRoot = resolve(RENDERER_DIR, '..', '..');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    newest = Math.max(newest, (await stat(join(e.parentPath, e.name))).mtimeMs);
  }
  return newest;
}

async function rendererIsCurrent(): Promise<boolean> {
  try {
    const built = (await stat(join(RENDERER_DIR, 'index.html'))).mtimeMs;
    const sources = Math.max(await newestMtime(join(repoRoot, 'renderer')), await newestMtime(join(repoRoot, 'shared')));
    return built >= sources;
  } catch {
    return false;
  }
}

/** Builds out/renderer with renderer/vite.config.ts unless it is up to date. Returns whether it built. */
export async function ensureRenderer(log: (line: string) => void = console.log): Promise<boolean> {
  if (process.env.LODSMITH_SKIP_RENDERER_BUILD || (await rendererIsCurrent())) return false;
  log('Building the renderer...');
  const { build } = await import('vite');
  // root given explicitly: the config's own fallback depends on how Vite happens to load it.
  await build({ configFile: join(repoRoot, 'renderer', 'vite.config.ts'), root: join(repoRoot, 'renderer'), logLevel: 'warn' });
  return true;
}

/** `npm run serve`: parse the arguments, build a stale renderer, start the host until Ctrl+C. */
export async function main(): Promise<void> {
  const args = parseServeArgs(process.argv.slice(2));
  await ensureRenderer();
  const host = await serve(args);
  const stop = () => {
    void host.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(`lodsmith serve: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
