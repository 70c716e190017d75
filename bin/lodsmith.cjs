#!/usr/bin/env node
'use strict';
// Launcher of the `lodsmith` command. It runs the prebuilt CLI (out/cli, built by `npm install`
// or `npm run build:cli`: see scripts/build-cli.ts) with Node's module compile cache on, so a
// short command costs little more than Node's own start. When that bundle is missing, or any
// source file it was built from has changed since (its stamp lists them with size and time), it
// runs the TypeScript sources instead, which needs Node 22.18 or newer (type stripping).
// CommonJS, like the bundle: an ES module would make Node set up its ES module loader first.
// Built-in modules come from process.getBuiltinModule where it exists.
const fs = process.getBuiltinModule?.('node:fs') ?? require('node:fs');
(process.getBuiltinModule?.('node:module') ?? require('node:module')).enableCompileCache?.();
const root = `${__dirname}/../`;

function bundleIsCurrent(dir) {
  try {
    const { inputs } = JSON.parse(fs.readFileSync(`${root}${dir}/inputs.json`, 'utf8'));
    for (const [file, size, mtimeMs] of inputs) {
      const st = fs.statSync(`${root}${file}`, { throwIfNoEntry: false });
      if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
    }
    return inputs.length > 0;
  } catch {
    return false;
  }
}

const [major, minor] = process.versions.node.split('.').map(Number);
// LODSMITH_TRACE_LAUNCH=1 says on stderr which of the two ran (the tests check it).
const trace = (what) => process.env.LODSMITH_TRACE_LAUNCH && process.stderr.write(`lodsmith: running ${what}\n`);
if (bundleIsCurrent('out/cli')) {
  trace('out/cli');
  require('../out/cli/lodsmith.cjs');
} else if (major > 22 || (major === 22 && minor >= 18)) {
  trace('sources');
  import('../main/cli/index.ts');
} else {
  console.error(
    `LodSmith needs Node 22.18+ to run from its sources (this is ${process.version}); run \`npm run build:cli\` once to build the prebuilt CLI, or use \`npx lodsmith\` inside the project, which uses the project's own Node.`,
  );
  process.exit(1);
}
