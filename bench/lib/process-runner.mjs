/* global process, performance */
// Runs the whole-process benchmark's command lines and times each (bench/lib/process.ts).
//
// Why a separate process: Node starts a child by forking itself, and a fork copies the parent's
// page tables, so its cost grows with the parent's memory: from a Node process holding 550 MB a
// `node -e 0` took 44-47 ms instead of 18-19 ms, and in full benchmark runs (the process section
// comes after the others) bare Node read 35-37 ms where a shell's takes ~20. That was the
// harness, not the program, and it was added to both sides of every figure. A shell forks small;
// so does this script (plain JavaScript, no imports beyond child_process, ~45 MB): it is what
// starts the timed processes. Both sides of every comparison still run in the same passes.
//
// Input (stdin): JSON { "commands": [[arg, ...], ...] } (arguments to this same Node).
// Output (stdout): JSON { "ms": [...], "failed": [index, message] | null }.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { commands } = JSON.parse(readFileSync(0, 'utf8'));
const ms = [];
let failed = null;
for (let i = 0; i < commands.length; i++) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, commands[i], { stdio: ['ignore', 'ignore', 'pipe'] });
  ms.push(performance.now() - t0);
  // `check` exits 1 when a file fails (the corpus has deliberately broken files); 2 is a real failure.
  if (r.error || (r.status !== 0 && r.status !== 1)) {
    failed = [i, r.error ? r.error.message : `exited ${r.status}: ${String(r.stderr).trim().split('\n')[0]}`];
    break;
  }
}
process.stdout.write(JSON.stringify({ ms, failed }));
