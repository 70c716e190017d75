/**
 * Builds the prebuilt JavaScript the `lodsmith` command and the browser host run (`npm run
 * build:cli`; `npm install` runs it as the `prepare` step):
 *
 * - out/cli/lodsmith.cjs: the CLI (commander and every command's code; each command and each
 *   format codec is a chunk in out/cli/chunks/, loaded when it is used), and
 *   out/cli/check-worker.cjs, the worker thread of `lodsmith check`. CommonJS, not ES modules:
 *   Node sets up its ES module loader only for an ES module, and that alone is ~8% of the
 *   instructions `lodsmith info` runs on a tiny file (valgrind: 137 M as ES modules, 126 M as
 *   CommonJS, 86 M for `node -e 0`);
 * - out/host/serve.mjs: `npm run serve` (the browser host's server).
 *
 * Each folder gets a stamp (inputs.json) listing the source files it was built from with their
 * size and modification time; the launchers in bin/ run a bundle only while that stamp is
 * current and otherwise run the TypeScript sources, so an edit never runs stale code, and the
 * tests' global setup rebuilds a stale bundle before any test runs (test/helpers/cli-bundle.ts).
 *
 * Type stripping turned out to cost most of a short command's time: ~75 modules compiled on
 * every run took `lodsmith info` on a tiny file to 150-260 ms against 22-40 ms for `node -e 0`.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type RolldownOutput } from 'rolldown';
import { bundleIsCurrent, MODULES, STAMP, STAMP_FORM, wrapCommonJs } from './prebuilt.mjs';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

interface Target {
  /** Output folder, relative to the repository. */
  dir: string;
  input: Record<string, string>;
  external?: (string | RegExp)[];
  /** CommonJS (`.cjs` files) or ES modules (`.mjs`). */
  format: 'cjs' | 'esm';
}

export const TARGETS: readonly Target[] = [
  {
    dir: 'out/cli',
    input: { lodsmith: 'main/cli/index.ts', 'check-worker': 'main/cli/check-worker-entry.ts' },
    format: 'cjs',
  },
  {
    dir: 'out/host',
    // vite only builds a stale renderer (scripts/serve.ts); ws's native helpers are optional.
    input: { serve: 'scripts/serve.ts' },
    external: ['vite', 'bufferutil', 'utf-8-validate'],
    format: 'esm',
  },
];

/**
 * How dependencies written as CommonJS get Node's built-in modules. A bundler turns their
 * `require('node:util')` into `import ... from 'node:util'`, and an ES import of a built-in
 * builds its whole namespace, which runs every lazy getter: importing `node:process` or
 * `node:util` that way loads streams, net, readline, worker_threads and more (about 10 ms of a
 * 35 ms run). These get the module object itself instead (`process.getBuiltinModule`, Node
 * 20.16+), and `node:child_process`, which commander loads at start for subcommands that are
 * separate programs (lodsmith has none), only when something is first used from it.
 */
const CJS_BUILTINS = new Set(['process', 'util', 'child_process', 'events', 'path', 'fs', 'os', 'tty', 'stream']);

/**
 * The CLI's own `import { readFileSync } from 'node:fs'` has the same cost as a CommonJS
 * dependency's require: Node builds the ES namespace of the built-in, and `node:fs` alone pulls
 * fs/promises, readline, watchers and streams in through its getters (~2 ms of `lodsmith info`).
 * Each built-in module the bundled code imports becomes a small module that takes the names it
 * exports from `process.getBuiltinModule` (data properties only: a getter's module loads only
 * if the code reads it through the default export). A name that is only a getter fails the build.
 *
 * Some data properties load a module of their own the first time they are read (V8's lazy
 * data properties: `fs.Dir`, `fs.opendir` and `fs.opendirSync` load internal/fs/dir), so taking
 * every name in one destructuring loaded those modules on every run (~0.5 M instructions of
 * `lodsmith info`, valgrind). Each name is read by a call marked pure instead, which the bundler
 * drops when the name is not used: only the names the CLI imports are read.
 */
function esmBuiltinSource(name: string): string {
  const mod = process.getBuiltinModule(`node:${name}`) as Record<string, unknown>;
  const names = Object.entries(Object.getOwnPropertyDescriptors(mod))
    .filter(([k, d]) => 'value' in d && /^[A-Za-z_][\w$]*$/.test(k) && !['default', 'length', 'name', 'prototype'].includes(k))
    .map(([k]) => k);
  // Local names no built-in module exports (they start with `$`).
  return [
    `const $builtin = process.getBuiltinModule('node:${name}');`,
    'const $read = (k) => $builtin[k];',
    'export default $builtin;',
    ...names.map((k) => `export const ${k} = /* @__PURE__ */ $read(${JSON.stringify(k)});`),
  ].join('\n');
}

const cjsBuiltins: Plugin = {
  name: 'cjs-builtins',
  resolveId(source, importer) {
    if (!importer || !/^(node:)?[a-z_]+(\/[a-z_]+)?$/.test(source)) return null;
    const name = source.replace(/^node:/, '');
    if (importer.includes(`${sep}node_modules${sep}`)) return CJS_BUILTINS.has(name) ? `\0builtin:${name}` : null;
    if (!source.startsWith('node:') || importer.startsWith('\0')) return null;
    return `\0esm-builtin:${name}`;
  },
  load(id) {
    if (id.startsWith('\0esm-builtin:')) return esmBuiltinSource(id.slice('\0esm-builtin:'.length));
    if (!id.startsWith('\0builtin:')) return null;
    const name = id.slice('\0builtin:'.length);
    if (name === 'process') return 'module.exports = process;';
    if (name !== 'child_process') return `module.exports = process.getBuiltinModule('node:${name}');`;
    return [
      'let real;',
      "const load = () => (real ??= process.getBuiltinModule('node:child_process'));",
      'module.exports = new Proxy({}, { get: (_t, k) => load()[k], has: (_t, k) => k in load() });',
    ].join('\n');
  },
};

/**
 * Fewer, larger chunks: every module Node loads costs a resolve, a read and a link (about 0.5 ms
 * each here), so instead of the ~30 chunks automatic splitting makes, the CLI's own code and the
 * shared core it needs for any file is one chunk (with the entry), each format family one chunk
 * loaded when a file of it is met, and convert (glTF) and check (worker pool, progress bar) stay
 * where automatic splitting puts them.
 */
const CHUNK_GROUPS = [
  {
    name: 'core',
    priority: 20,
    test: /[\\/]main[\\/]cli[\\/]((program|command-table|fast-args|io|fail|load|text|json-stream|verify)\.ts|commands[\\/](info|dump|validate|roundtrip)\.ts)|[\\/]shared[\\/](errors\.ts|import[\\/]errors\.ts|scene[\\/]scene\.ts|model[\\/]|schema[\\/]|binary[\\/](budget|reader|writer|text|once)\.ts|formats[\\/](catalog|probe-bytes|registry|[^\\/]+[\\/]family|texture[\\/]extensions)\.ts)/,
  },
  { name: 'compress', priority: 12, test: /[\\/]shared[\\/]binary[\\/](lzo1x|lzss)\.ts/ },
  // Matrix, up-axis and piece helpers that several families' codecs use: a chunk of their own.
  // In the LODka chunk (which imports them too) they made `info` on a Grimrock, Unigine or ODOL
  // file load all of LODka's code as well (~90 kB of text on the young heap, its top-level code).
  { name: 'scene-math', priority: 14, test: /[\\/]shared[\\/](scene[\\/](mat4|up-axis)|binary[\\/]pieces)\.ts/ },
  { name: 'format-p3d', priority: 13, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]p3d[\\/]([^\\/]+\.ts|mlod[\\/](types|edits)\.ts)/ },
  // model.cfg and RTM sit in the P3D family but are loaded only for files or models that use them.
  // Their priority is below the P3D groups' so that the P3D code they use stays in those chunks
  // (a group takes the modules its members import unless a stronger group has them).
  { name: 'format-modelcfg', priority: 9, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]p3d[\\/]modelcfg[\\/]/ },
  { name: 'format-rtm', priority: 9, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]p3d[\\/]rtm[\\/]/ },
  { name: 'format-odol', priority: 11, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]p3d[\\/]odol[\\/]/ },
  { name: 'format-mlod', priority: 10, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]p3d[\\/](?!modelcfg[\\/]|rtm[\\/])/ },
  { name: 'format-lodka', priority: 10, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]lodka[\\/]/ },
  { name: 'format-grimrock', priority: 10, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]grimrock[\\/]/ },
  { name: 'format-unigine', priority: 10, test: /^(?!.*[\\/]import\.ts$).*[\\/]shared[\\/]formats[\\/]unigine[\\/]/ },
  // A family's glTF import writer (its import.ts, kept out of the family's chunk above) is loaded
  // by `import` only, with the glTF reader, never with its codec.
  { name: 'import-writers', priority: 8, test: /[\\/]shared[\\/]formats[\\/].+[\\/]import\.ts/ },
  { name: 'texture', priority: 9, test: /[\\/]shared[\\/]formats[\\/]texture[\\/]|[\\/]node_modules[\\/](fast-png|jpeg-js|iobuffer|fflate)[\\/]/ },
];

/** Source files (outside node_modules) that went into a build, plus the lock file. */
function inputsOf(out: RolldownOutput): string[] {
  const files = new Set<string>(['package.json', 'package-lock.json']);
  for (const chunk of out.output) {
    if (chunk.type !== 'chunk') continue;
    for (const id of chunk.moduleIds) {
      if (id.startsWith('\0') || id.includes(`${sep}node_modules${sep}`)) continue;
      const rel = relative(repoRoot, id);
      if (!rel.startsWith('..')) files.add(rel.split(sep).join('/'));
    }
  }
  return [...files].sort();
}

async function buildTarget(t: Target): Promise<number> {
  const outDir = join(repoRoot, t.dir);
  const ext = t.format === 'cjs' ? 'cjs' : 'mjs';
  rmSync(outDir, { recursive: true, force: true });
  const out = await build({
    cwd: repoRoot,
    input: Object.fromEntries(Object.entries(t.input).map(([k, v]) => [k, join(repoRoot, v)])),
    platform: 'node',
    external: t.external ?? [],
    plugins: [cjsBuiltins],
    logLevel: 'warn',
    write: true,
    output: { dir: outDir, format: t.format, entryFileNames: `[name].${ext}`, chunkFileNames: `chunks/[name]-[hash].${ext}`, sourcemap: false, codeSplitting: { groups: CHUNK_GROUPS }, ...(t.format === 'cjs' ? LEAN_CJS : LEAN_SOURCE) },
  });
  if (t.format === 'cjs') {
    // Which source modules went into which file (the chunks are minified, so they no longer name
    // their modules in comments): tests check that a command loads only the code it needs.
    const modules: Record<string, string[]> = {};
    for (const chunk of out.output) {
      if (chunk.type !== 'chunk') continue;
      const file = join(outDir, chunk.fileName);
      writeFileSync(file, wrapCommonJs(readFileSync(file, 'utf8')));
      modules[chunk.fileName] = chunk.moduleIds.map((id) => (id.startsWith('\0') ? id.slice(1) : relative(repoRoot, id).split(sep).join('/'))).sort();
    }
    writeFileSync(join(outDir, MODULES), `${JSON.stringify(modules, null, 1)}\n`);
  }
  const inputs = inputsOf(out).map((f) => {
    const st = statSync(join(repoRoot, f));
    return [f, st.size, st.mtimeMs] as const;
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, STAMP), `${JSON.stringify({ built: new Date().toISOString(), form: STAMP_FORM, inputs })}\n`);
  return out.output.length;
}

/**
 * What Node has to read of each chunk on every run: ASCII only, without comments (licences kept).
 * V8 keeps a source with a single character above U+007F as a two-byte string, so one `…` in a
 * chunk made Node decode the whole chunk from UTF-8 into UTF-16, hash it at twice the size for
 * the compile cache and scan it two bytes a character whenever a function is first compiled;
 * comments are read by every one of those steps too. `info` on a tiny file ran ~126 M
 * instructions with them (127-134 M over three runs) and 124-125 M without (valgrind), against 86-90 M for a bare `node -e 0`.
 */
const LEAN_SOURCE = { charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } } as const;

/**
 * The CLI's chunks without indentation and line breaks (names kept: no mangling, no rewriting).
 * Every chunk a command loads is read into a string on V8's young heap and held there by its
 * compiled script; with the other garbage of start-up that filled the 1 MB new space and made
 * V8 collect it during `info` on a tiny file. Without whitespace the three chunks of an MLOD
 * file are 208 kB instead of 257 kB, and the young heap used by `info` went from ~1,250 to
 * ~1,140 kB (v8.getHeapSpaceStatistics at exit; the larger saving is where the strings no longer
 * straddle the new space's 256 kB pages): docs/performance.md, "Start-up". A stack trace then
 * names a column of one long line.
 */
const LEAN_CJS = { ...LEAN_SOURCE, minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } } } as const;

/** Builds every target; returns a one-line summary. */
export async function buildCli(): Promise<string> {
  const t0 = performance.now();
  const parts: string[] = [];
  for (const t of TARGETS) parts.push(`${t.dir} (${await buildTarget(t)} files)`);
  return `built ${parts.join(', ')} in ${Math.round(performance.now() - t0)} ms`;
}

/** Rebuilds when any bundle is missing or stale; returns what it did (undefined: all current). */
export async function ensureCliBundle(): Promise<string | undefined> {
  if (TARGETS.every((t) => bundleIsCurrent(repoRoot, t.dir))) return undefined;
  return buildCli();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const summary = await buildCli();
    if (!process.argv.includes('--quiet')) console.log(`lodsmith: ${summary}`);
  } catch (e) {
    console.error(`lodsmith: building the prebuilt CLI failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
