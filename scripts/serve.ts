/**
 * `npm run serve`: builds the renderer when its output is missing or older than its sources,
 * then starts the browser host (main/host/serve.ts) and prints the address to open.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseServeArgs, serve, RENDERER_DIR } from '../main/host/serve.ts';

const repoRoot = resolve(import.meta.dirname, '..');

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

async function main(): Promise<void> {
  const args = parseServeArgs(process.argv.slice(2));
  if (!process.env.LODSMITH_SKIP_RENDERER_BUILD && !(await rendererIsCurrent())) {
    console.log('Building the renderer...');
    const { build } = await import('vite');
    // root given explicitly: the config's own fallback depends on how Vite happens to load it.
    await build({ configFile: join(repoRoot, 'renderer', 'vite.config.ts'), root: join(repoRoot, 'renderer'), logLevel: 'warn' });
  }
  const host = await serve(args);
  const stop = () => {
    void host.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`lodsmith serve: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
