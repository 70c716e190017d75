/* global process */
// Whether a prebuilt bundle (out/cli, out/host: see scripts/build-cli.ts) was built from the
// sources as they are now. Plain JavaScript so launchers can use it before anything is compiled;
// it only stats files (about a millisecond for the ~100 inputs). bin/lodsmith.cjs keeps its own
// copy of this check, to spare the CLI's start-up one more module.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The file in each bundle folder that lists its inputs with their sizes and times. */
export const STAMP = 'inputs.json';

/** The file in out/cli that lists the source modules of each file of the bundle. */
export const MODULES = 'modules.json';

/**
 * The stamp's `form`: which shape of bundle the launchers expect. 2: each file of the CommonJS
 * bundle is wrapped by {@link wrapCommonJs}. A bundle with a stamp of another form (built by an
 * older scripts/build-cli.ts) counts as stale. bin/lodsmith.cjs keeps its own copy of the number.
 */
export const STAMP_FORM = 2;

/**
 * A CommonJS file of the bundle in the form bin/lodsmith.cjs compiles as it is read: the body in
 * a function with the parameters of Node's module wrapper, on the first line so line numbers
 * stay. Compiled by the launcher as a script (top-level `this` is the global object), its value
 * is that function, which the launcher calls with the module's `exports`, `require`, ...;
 * loaded by Node's own `require` (the worker threads of `check`), it calls the function with
 * Node's. The launcher used to join the wrapper to the text it read, which made V8 copy each
 * chunk into a new string as it compiled (~260 kB of young heap for `info` on an MLOD file, a
 * quarter of V8's 1 MB new space): see docs/performance.md, "Start-up".
 * @param {string} code
 */
export function wrapCommonJs(code) {
  return `(function (f) { return this === globalThis ? f : f.call(exports, exports, require, module, __filename, __dirname); }).call(this, function (exports, require, module, __filename, __dirname) {${code}\n});\n`;
}

/**
 * True when `dir` holds a bundle whose stamp lists every input file with its current size and
 * modification time. A missing bundle, a missing input or any changed input makes it stale.
 * @param {string} repoRoot
 * @param {string} dir bundle folder, relative to repoRoot
 */
export function bundleIsCurrent(repoRoot, dir) {
  try {
    const { form, inputs } = JSON.parse(readFileSync(join(repoRoot, dir, STAMP), 'utf8'));
    if (form !== STAMP_FORM) return false;
    for (const [file, size, mtimeMs] of inputs) {
      const st = statSync(join(repoRoot, file), { throwIfNoEntry: false });
      if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
    }
    return inputs.length > 0;
  } catch {
    return false;
  }
}

/**
 * True when this Node can run the TypeScript sources directly (type stripping by default).
 * @param {string} [version]
 */
export function canRunSources(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}
