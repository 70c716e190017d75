/** Entry of the `lodsmith` command (bin/lodsmith.cjs loads this). */
import { processIO } from './io.ts';
import { runCli } from './program.ts';

// No top-level await: in the prebuilt CLI, chunks loaded later import from this entry, and an
// entry still awaiting at top level would deadlock them.
void runCli(process.argv.slice(2), processIO()).then((code) => {
  process.exitCode = code;
});
