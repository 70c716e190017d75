/** Entry of the `lodsmith` command (bin/lodsmith.cjs loads this). */
import { processIO } from './io.ts';
import { runCli } from './program.ts';

// No top-level await: in the prebuilt CLI, chunks loaded later import from this entry, and an
// entry still awaiting at top level would deadlock them.
void runCli(process.argv.slice(2), processIO()).then((code) => {
  process.exitCode = code;
  // With nothing left in the event loop (no stream, timer, worker or request: the output went out
  // with synchronous writes), a natural exit would only run V8's pending tasks first: after a
  // short command that is a young-generation collection V8 asked for once its new space was ~3/4
  // full, 1-5 ms of a ~60 ms `info` spent on a heap about to be dropped (docs/performance.md,
  // "Start-up"). Exiting here skips it; `exit` handlers (the launcher's code cache) still run.
  if (process.getActiveResourcesInfo().length === 0) process.exit();
});
