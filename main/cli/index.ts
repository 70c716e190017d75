/** Entry of the `lodsmith` command (bin/lodsmith.mjs imports this). */
import { processIO } from './io.ts';
import { runCli } from './program.ts';

// `lodsmith dump x | head` closes the pipe early; that is the reader's choice, not an error.
for (const s of [process.stdout, process.stderr]) {
  s.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

// No top-level await: in the prebuilt CLI, chunks loaded later import from this entry, and an
// entry still awaiting at top level would deadlock them.
void runCli(process.argv.slice(2), processIO()).then((code) => {
  process.exitCode = code;
});
