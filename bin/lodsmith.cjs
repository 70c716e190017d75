#!/usr/bin/env node
'use strict';
// Launcher of the `lodsmith` command. It runs the prebuilt CLI (out/cli, built by `npm install`
// or `npm run build:cli`: see scripts/build-cli.ts) through a code cache of its own (below), so
// a short command costs little more than Node's own start. When that bundle is missing, or any
// source file it was built from has changed since (its stamp lists them with size and time), it
// runs the TypeScript sources instead, which needs Node 22.18 or newer (type stripping).
// CommonJS, like the bundle: an ES module would make Node set up its ES module loader first.
// Built-in modules come from process.getBuiltinModule where it exists.
//
// What a short command fills V8's young heap with matters as much as its instructions: past
// ~1 MB (the new space of Node 22 on 64-bit) V8 stops to collect it, 1-9 ms of a ~60 ms `info`
// on this machine, and a flag to enlarge it would change V8's flag hash and so refuse every code
// cache. Hence the bundle's files come wrapped and without whitespace (each is held as a string
// for as long as the process runs) and are compiled as read, below; docs/performance.md,
// "Start-up", has the counts.
const fs = process.getBuiltinModule?.('node:fs') ?? require('node:fs');
// The folder above bin/, without a `..` the system would walk for each of the ~130 files the
// staleness check below stats.
const root = __dirname.slice(0, __dirname.length - 3);

/**
 * Whether the bundle was built from the sources as they are: a stat of every input the stamp
 * lists (~180 files, ~3.5 M of the ~100 M instructions of `info` on a tiny file, valgrind, and
 * ~280 kB of the ~1.1 MB of young heap it fills: Node makes a Stats object a file). Not one stat
 * of each folder instead: an editor that writes a file in place (VS Code's default save, `>>`,
 * vim with backupcopy=yes) changes that file's time only, never its folder's, and a dev checkout
 * would then run stale code. The stamp's `form` is the shape of bundle this launcher runs
 * (STAMP_FORM in scripts/prebuilt.mjs): a bundle an older build made is stale too. See
 * docs/performance.md, "Start-up".
 */
function bundleIsCurrent(dir) {
  try {
    const { form, inputs } = JSON.parse(fs.readFileSync(`${root}${dir}/inputs.json`, 'utf8'));
    // The shape of bundle this launcher runs (STAMP_FORM in scripts/prebuilt.mjs).
    if (form !== 2) return false;
    for (const [file, size, mtimeMs] of inputs) {
      const st = fs.statSync(`${root}${file}`, { throwIfNoEntry: false });
      if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
    }
    return inputs.length > 0;
  } catch {
    return false;
  }
}

/**
 * The code cache. Node's compile cache (module.enableCompileCache) keeps what V8 compiled while
 * loading a file, which is its top-level code only: every function a command then calls was
 * compiled again on every run (V8 compiles a function when it is first called). For `info` on
 * a tiny file that lazy compiling was ~17 M of the ~130 M instructions, against ~89 M for a bare
 * `node -e 0` (valgrind). This loader compiles the bundle's files itself (vm.Script) and, after a
 * run that had no usable cache for a file, saves V8's cache of that file at exit, which then
 * holds every function the run compiled. One cache per file and command (`info`, `check`, ...),
 * since each command runs other functions of the same chunk. The same command on a file of
 * another format runs other functions of the core chunk too: a run whose command loaded a set
 * of chunks not seen before (a marker file `runs.<command>.<hash>` beside the caches says which
 * were seen) saves the caches of all its chunks again, which then hold what the earlier runs
 * compiled and what this one added.
 *
 * Cache files are named after the chunk, whose name carries a hash of its content: a rebuilt
 * chunk has a new name. V8 itself refuses a cache made by another V8,
 * with other flags or for a source of another length, and the file is compiled as usual then
 * (and its cache saved again). The folder is the user's cache folder ($XDG_CACHE_HOME or
 * ~/.cache, %LOCALAPPDATA% on Windows), `lodsmith/code-cache/<Node version>-<arch>`;
 * LODSMITH_CODE_CACHE names another folder, or `off` turns the cache off.
 */
function cacheFolder() {
  const env = process.env;
  if (env.LODSMITH_CODE_CACHE === 'off' || env.LODSMITH_CODE_CACHE === '0') return undefined;
  let base = env.LODSMITH_CODE_CACHE;
  if (!base) {
    const user = process.platform === 'win32' ? env.LOCALAPPDATA : env.XDG_CACHE_HOME || (env.HOME && `${env.HOME}/.cache`);
    if (!user) return undefined;
    base = `${user}/lodsmith/code-cache`;
  }
  return `${base}/${process.version}-${process.arch}`;
}

/**
 * Only files whose names carry a hash of their content (the chunks: `core-BF-RO2yo.cjs`) are
 * cached. The entry's name does not change when it does, and V8 checks only a source's length:
 * a rebuilt entry that requires a chunk of another hash has the same length, and a cache of the
 * old one would load the old chunk.
 */
const HASHED = /-[\w-]{8}\.cjs$/;

/** Saved caches untouched this long are removed when a new one is saved. */
const CACHE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** LODSMITH_TRACE_LAUNCH=cache says on stderr what the code cache did with each file. */
const traceCache = process.env.LODSMITH_TRACE_LAUNCH === 'cache' ? (s) => process.stderr.write(`lodsmith: code cache: ${s}\n`) : undefined;

function runBundle(entry) {
  const vm = process.getBuiltinModule?.('node:vm') ?? require('node:vm');
  const folder = cacheFolder();
  // The command decides which functions run: its first word that is not an option.
  const word = process.argv.slice(2).find((a) => !a.startsWith('-'));
  const command = word && /^[a-z][a-z-]{0,23}$/.test(word) ? word : 'other';
  const modules = new Map();
  const toSave = [];
  const load = (file) => {
    const known = modules.get(file);
    if (known) return known.exports;
    const module = { exports: {} };
    modules.set(file, module);
    // The bundle is ASCII (scripts/build-cli.ts), so UTF-8 gives the same one-byte string, and
    // Node reads and decodes UTF-8 in one native step (fewer instructions than latin1, valgrind).
    const source = fs.readFileSync(file, 'utf8');
    const dir = file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')));
    const name = file.slice(dir.length + 1);
    const cacheFile = folder && HASHED.test(name) ? `${folder}/${name}.${command}` : undefined;
    let cachedData;
    if (cacheFile) {
      try {
        cachedData = fs.readFileSync(cacheFile);
      } catch {
        // No cache yet.
      }
    }
    // Compiled as read: each file of the bundle is already wrapped in a function with the
    // parameters of Node's CommonJS wrapper (scripts/prebuilt.mjs, wrapCommonJs), which is the
    // script's value. Joining the wrapper here made V8 copy the whole text into a new string
    // (~260 kB of young heap for `info` on an MLOD file: docs/performance.md, "Start-up").
    const script = new vm.Script(source, { filename: file, cachedData });
    if (cacheFile) {
      Object.assign(module, { script, cacheFile, name });
      if (!cachedData || script.cachedDataRejected) toSave.push([script, cacheFile]);
      traceCache?.(`${name} ${!cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'}`);
    }
    const req = (id) => (id.startsWith('./') ? load(`${dir}/${id.slice(2)}`) : require(id));
    const body = script.runInThisContext();
    if (typeof body !== 'function') throw new Error(`${file} is not in the form of the bundle this launcher runs: run \`npm run build:cli\``);
    body.call(module.exports, module.exports, req, module, file, dir);
    return module.exports;
  };
  if (folder) process.once('exit', () => atExit(folder, command, modules, toSave));
  load(entry);
}

/**
 * The file that says this command has loaded this set of chunks before: `runs.<command>.<hash of
 * the chunks' names>`, holding the names. One existence check at exit, where reading and
 * searching a list of every set seen cost ~0.5 M instructions of a short command (valgrind). A
 * new build's chunks make new names; old markers go with the caches, untouched for 30 days.
 */
function runMarker(folder, command, modules) {
  const signature = [...modules.values()]
    .filter((m) => m.script)
    .map((m) => m.name)
    .sort()
    .join(' ');
  // FNV-1a: a name, not a checksum (the file holds the signature itself).
  let h = 0x811c9dc5;
  for (let i = 0; i < signature.length; i++) h = Math.imul(h ^ signature.charCodeAt(i), 0x01000193);
  return { file: `${folder}/runs.${command}.${(h >>> 0).toString(16).padStart(8, '0')}`, signature };
}

/**
 * At exit: nothing to do when every file had a usable cache and this command has loaded this set
 * of chunks before (the common case, kept cheap: V8 compiles saveCaches only when it is needed).
 */
function atExit(folder, command, modules, toSave) {
  const marker = runMarker(folder, command, modules);
  const seen = fs.existsSync(marker.file);
  if (!seen || toSave.length > 0) saveCaches(folder, marker, seen, modules, toSave);
}

/**
 * Saves the caches of the files that had none (or a refused one), or of every cached file when
 * this set of chunks is new to the command, each through a temporary file and a rename: a reader
 * never sees half of one.
 */
function saveCaches(folder, marker, seen, modules, toSave) {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const all = seen ? toSave : [...modules.values()].filter((m) => m.script).map((m) => [m.script, m.cacheFile]);
    for (const [script, file] of all) {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, file);
      traceCache?.(`saved ${file.slice(folder.length + 1)}`);
    }
    if (!seen) fs.writeFileSync(marker.file, `${marker.signature}\n`);
    const now = Date.now();
    for (const f of fs.readdirSync(folder)) {
      const st = fs.statSync(`${folder}/${f}`, { throwIfNoEntry: false });
      if (st && now - st.mtimeMs > CACHE_MAX_AGE_MS) fs.rmSync(`${folder}/${f}`, { force: true });
    }
  } catch {
    // A cache that cannot be written only costs the next run its compiling.
  }
}

const [major, minor] = process.versions.node.split('.').map(Number);
// LODSMITH_TRACE_LAUNCH=1 says on stderr which of the two ran (the tests check it); `cache` says
// what the code cache did too.
const trace = (what) => process.env.LODSMITH_TRACE_LAUNCH && process.stderr.write(`lodsmith: running ${what}\n`);
if (bundleIsCurrent('out/cli')) {
  trace('out/cli');
  runBundle(`${(process.getBuiltinModule?.('node:path') ?? require('node:path')).resolve(root, 'out/cli')}/lodsmith.cjs`);
} else if (major > 22 || (major === 22 && minor >= 18)) {
  trace('sources');
  // Node's own compile cache for the sources (the bundle has the launcher's code cache, and the
  // worker threads of `check` turn it on themselves: main/cli/check-worker-entry.ts).
  (process.getBuiltinModule?.('node:module') ?? require('node:module')).enableCompileCache?.();
  import('../main/cli/index.ts');
} else {
  console.error(
    `LodSmith needs Node 22.18+ to run from its sources (this is ${process.version}); run \`npm run build:cli\` once to build the prebuilt CLI, or use \`npx lodsmith\` inside the project, which uses the project's own Node.`,
  );
  process.exit(1);
}
