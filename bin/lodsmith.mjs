#!/usr/bin/env node
// Launcher of the `lodsmith` command. The CLI is TypeScript that Node runs directly (type
// stripping), which needs Node 22.18 or newer; older Node gets one clear line instead of a
// syntax error.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `LodSmith needs Node 22.18+ (this is ${process.version}); inside the project, \`npx lodsmith\` uses the bundled one.`,
  );
  process.exit(1);
}
await import('../main/cli/index.ts');
