/**
 * The native LZO packages the compression section measures beside our decoder (`lzo`,
 * `lzo-decompress`), built for the bench in a temp folder, as the liblzo2 measuring stick is
 * (bench/lib/lzo-stick.ts). They are not dependencies of the project: `npm ci` builds a native
 * addon with node-gyp, which downloads the headers of the Node that runs npm from nodejs.org (no
 * network there: the install fails) and builds against whichever Node runs npm, not the
 * project's own (docs/compression.md). Here, instead:
 *
 * 1. `npm pack` fetches the published tarballs of the pinned versions (from npm's cache or the
 *    registry);
 * 2. the system C/C++ compiler builds each addon's sources against the headers of the Node that
 *    runs the bench (its own `include/node`, which Node's binary packages ship; `lzo` uses the V8
 *    API, so only that Node's headers will do; `lzo-decompress` uses Node-API, which any Node's
 *    headers serve); `lzo` compiles its bundled miniLZO, `lzo-decompress` links FFmpeg's
 *    libavutil (Debian: `libavutil-dev`), as their own build files do;
 * 3. the built `.node` files are loaded with `require`.
 *
 * Any step that fails gives the reason, and the row is a MISS saying it: never a silent skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../test/helpers/corpus.ts';

const require = createRequire(import.meta.url);

/** The versions measured (the registry's latest on 2026-11-28). */
export const NATIVE_LZO_PACKAGES = { lzo: '0.4.11', 'lzo-decompress': '1.0.11', 'napi-macros': '2.2.2' } as const;

export interface NativeLzo {
  /** `decompress(stream, size)`: the decoded bytes, as the package's own `decompress` returns them. */
  decompress?: (stream: Buffer, size: number) => Buffer;
  /** Why it is not there. */
  missing?: string;
}

function run(cmd: string, args: readonly string[], cwd: string): void {
  try {
    execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    const text = (err.stderr?.toString() || err.message).trim().split('\n').filter(Boolean);
    throw new Error(`${cmd} ${args.slice(0, 3).join(' ')}: ${(text.find((l) => /error/i.test(l)) ?? text[0] ?? '').slice(0, 160)}`, { cause: e });
  }
}

/** The headers of the Node running this (`include/node` beside its binary, or its npm package's). */
function nodeHeaders(): string | undefined {
  const candidates = [
    join(dirname(realpathSync(process.execPath)), '../include/node'),
    join(repoRoot, `node_modules/node/node_modules/node-${process.platform}-${process.arch}/include/node`),
  ];
  const [major, minor, patch] = process.versions.node.split('.');
  for (const dir of candidates) {
    const h = join(dir, 'node_version.h');
    if (!existsSync(h)) continue;
    const text = readFileSync(h, 'utf8');
    const v = (k: string): string | undefined => text.match(new RegExp(`#define NODE_${k}_VERSION (\\d+)`))?.[1];
    if (v('MAJOR') === major && v('MINOR') === minor && v('PATCH') === patch) return dir;
  }
  return undefined;
}

/** Fetches and unpacks the pinned tarballs into `dir`; returns each package's folder. */
function fetchPackages(dir: string): Record<keyof typeof NATIVE_LZO_PACKAGES, string> {
  const specs = Object.entries(NATIVE_LZO_PACKAGES).map(([n, v]) => `${n}@${v}`);
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--silent', '--prefer-offline', '--pack-destination', dir, ...specs], dir);
  const out = {} as Record<keyof typeof NATIVE_LZO_PACKAGES, string>;
  for (const [name, version] of Object.entries(NATIVE_LZO_PACKAGES) as [keyof typeof NATIVE_LZO_PACKAGES, string][]) {
    const tgz = readdirSync(dir).find((f) => f === `${name}-${version}.tgz`);
    if (!tgz) throw new Error(`npm pack left no ${name}-${version}.tgz`);
    const into = join(dir, name);
    mkdirSync(into, { recursive: true });
    run('tar', ['xzf', join(dir, tgz), '-C', into, '--strip-components=1'], dir);
    out[name] = into;
  }
  return out;
}

/** The packages already unpacked in `dir` by an earlier run, or undefined. */
function cachedPackages(dir: string): ReturnType<typeof fetchPackages> | undefined {
  const names = Object.keys(NATIVE_LZO_PACKAGES) as (keyof typeof NATIVE_LZO_PACKAGES)[];
  const ok = names.every((n) => existsSync(join(dir, n, 'package.json')) && (JSON.parse(readFileSync(join(dir, n, 'package.json'), 'utf8')) as { version?: string }).version === NATIVE_LZO_PACKAGES[n]);
  return ok ? (Object.fromEntries(names.map((n) => [n, join(dir, n)])) as ReturnType<typeof fetchPackages>) : undefined;
}

/** Builds `out` with `args` unless an earlier run left it (a build is ~10 s of the compression section). */
function buildOnce(out: string, cmd: string, args: readonly string[], cwd: string): void {
  if (!existsSync(out)) run(cmd, args, cwd);
}

/**
 * Builds and loads both packages in `dir`, a temp folder kept between runs (one per Node
 * version: the `lzo` addon is built for exactly this Node); what an earlier run built is reused.
 * Each entry says what it could not do when it is not there.
 */
export function buildNativeLzo(dir: string): Record<'lzo' | 'lzo-decompress', NativeLzo> {
  let pkgs: ReturnType<typeof fetchPackages>;
  try {
    pkgs = cachedPackages(dir) ?? fetchPackages(dir);
  } catch (e) {
    const missing = `could not fetch the package with npm pack (${(e as Error).message})`;
    return { lzo: { missing }, 'lzo-decompress': { missing } };
  }
  const headers = nodeHeaders();
  const noHeaders = `no C headers of this Node (${process.version}) beside its binary or in its npm package`;
  const cc = process.env.CC ?? 'cc';
  const cxx = process.env.CXX ?? 'c++';
  const result: Record<'lzo' | 'lzo-decompress', NativeLzo> = { lzo: {}, 'lzo-decompress': {} };

  // lzo: lib/lzo.cc (V8 API) and the miniLZO it bundles, as its binding.gyp builds them.
  try {
    if (!headers) throw new Error(noHeaders);
    const p = pkgs.lzo;
    buildOnce(join(p, 'lzo.o'), cxx, ['-O3', '-fPIC', '-std=c++20', '-I', headers, '-c', join(p, 'lib/lzo.cc'), '-o', join(p, 'lzo.o')], p);
    buildOnce(join(p, 'minilzo.o'), cc, ['-O3', '-fPIC', '-c', join(p, 'lib/minilzo209/minilzo.c'), '-o', join(p, 'minilzo.o')], p);
    buildOnce(join(p, 'node_lzo.node'), cxx, ['-shared', join(p, 'lzo.o'), join(p, 'minilzo.o'), '-o', join(p, 'node_lzo.node')], p);
    const binding = require(join(p, 'node_lzo.node')) as { decompress(input: Buffer, output: Buffer): { err: number; len: number } };
    // As the package's index.js decompress: a new zero-filled Buffer of the given length per call.
    result.lzo.decompress = (stream, size) => {
      const out = Buffer.alloc(size);
      const r = binding.decompress(stream, out);
      if (r.err !== 0) throw new Error(`lzo: error ${r.err}`);
      return out.subarray(0, r.len);
    };
  } catch (e) {
    result.lzo.missing = `could not build it for this Node: ${(e as Error).message}`;
  }

  // lzo-decompress: src/module.c (Node-API, napi-macros) linked with FFmpeg's libavutil.
  try {
    const p = pkgs['lzo-decompress'];
    const napi = headers ?? ['/usr/include/node', '/usr/local/include/node'].find((d) => existsSync(join(d, 'node_api.h')));
    if (!napi) throw new Error(noHeaders);
    buildOnce(join(p, 'module.node'), cc, ['-O3', '-fPIC', '-shared', '-I', napi, '-I', pkgs['napi-macros'], join(p, 'src/module.c'), '-lavutil', '-o', join(p, 'module.node')], p);
    const binding = require(join(p, 'module.node')) as { decompress(input: Buffer, size: number): Buffer };
    result['lzo-decompress'].decompress = (stream, size) => binding.decompress(stream, size);
  } catch (e) {
    result['lzo-decompress'].missing = `could not build it (needs a C compiler and FFmpeg's libavutil-dev): ${(e as Error).message}`;
  }
  return result;
}
