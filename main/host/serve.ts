/**
 * `npm run serve [-- --root DIR ...] [--port N] [--no-sample] [FILE]`: starts the browser host
 * and prints the address to open. scripts/serve.ts builds the renderer first when needed.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userConfigDir } from '../documents/config-dir.ts';
import { defaultGltfWriter } from '../documents/gltf-writer.ts';
import { startHost, type Host } from './server.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The bundled sample, as the build puts it (see build/make-sample.ts). */
export const SAMPLE_PATH = join(repoRoot, 'build', 'sample', 'sample.lod');
/** Where `npm run serve` and electron-vite put the built renderer. */
export const RENDERER_DIR = join(repoRoot, 'out', 'renderer');

export interface ServeArgs {
  roots: string[];
  port: number;
  files: string[];
  /** Animation files attached to the (last) FILE: `--anim ANIM`, repeatable. */
  anims?: string[];
  sample: boolean;
  configDir: string | undefined;
}

const USAGE = 'usage: npm run serve -- [--root DIR]... [--port N] [--config DIR] [--no-sample] [FILE [--anim ANIM]...]';

/** Parses the command line; throws a one-line message for bad arguments. */
export function parseServeArgs(argv: string[]): ServeArgs {
  const anims: string[] = [];
  const out: ServeArgs = { roots: [], port: 0, files: [], anims, sample: true, configDir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--root') out.roots.push(value());
    else if (a.startsWith('--root=')) out.roots.push(a.slice(7));
    else if (a === '--port') out.port = Number(value());
    else if (a === '--anim') anims.push(value());
    else if (a.startsWith('--anim=')) anims.push(a.slice(7));
    else if (a === '--config') out.configDir = value();
    else if (a === '--no-sample') out.sample = false;
    else if (a === '--help' || a === '-h') throw new Error(USAGE);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else out.files.push(a);
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) throw new Error(`bad port\n${USAGE}`);
  if (anims.length && !out.files.length) throw new Error(`--anim needs a model FILE to attach to\n${USAGE}`);
  return out;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/**
 * Starts the host for parsed arguments. Roots default to the current folder and the sample's
 * working-copy folder; a FILE outside them adds its own folder (the user named it explicitly).
 */
export async function serve(args: ServeArgs, log: (line: string) => void = console.log): Promise<Host> {
  const configDir = args.configDir ?? join(userConfigDir(), 'browser-host');
  const sampleCopyDir = join(configDir, 'sample');
  await mkdir(sampleCopyDir, { recursive: true });
  const roots = args.roots.length ? args.roots.map((r) => resolve(r)) : [process.cwd()];
  roots.push(sampleCopyDir);
  const files = args.files.map((f) => resolve(f));
  const anims = (args.anims ?? []).map((f) => resolve(f));
  for (const f of [...files, ...anims]) roots.push(dirname(f));
  for (const r of roots) if (!(await exists(r))) throw new Error(`root folder not found: ${r}`);
  const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const samplePath = (await exists(SAMPLE_PATH)) ? SAMPLE_PATH : null;
  const host = await startHost({
    roots, configDir, samplePath, rendererDir: (await exists(join(RENDERER_DIR, 'index.html'))) ? RENDERER_DIR : null,
    port: args.port, version: pkg.version, gltf: defaultGltfWriter, open: files, anims, log: (l) => console.error(l),
  });
  if (files.length === 0 && args.sample && samplePath) {
    const r = await host.dispatch('doc:openSample', undefined);
    if (!r.ok) console.error(`could not open the sample: ${r.error.message}`);
  }
  log(`LodSmith is running at ${host.url}`);
  log(`Folders: ${roots.join(', ')}. Press Ctrl+C to stop.`);
  return host;
}
