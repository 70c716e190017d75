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
//
// Besides wall time it reports each command's CPU time (user + system, all its threads) where
// Linux says it: the children's CPU time in /proc/self/stat grows by each waited-for child's.
// It counts in 10 ms ticks, so one command's figure is coarse, but a sum over many is exact to
// a tick, and unlike wall time it hardly moves with the machine's load.
//
// Input (stdin): JSON { "commands": [[arg, ...] | { "exe": path, "args": [arg, ...] }, ...] }: an
// array is arguments to this same Node; an object runs another program (a peer tool measured side
// by side, bench/lib/process.ts).
// Output (stdout): JSON { "ms": [...], "cpuMs": [...] | null, "failed": [index, message] | null }.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU ms of this process's waited-for children (cutime + cstime), or null off Linux. */
function childrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of the file (cutime, cstime), in USER_HZ ticks (100 per second).
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return null;
  }
}

const { commands } = JSON.parse(readFileSync(0, 'utf8'));
const ms = [];
const cpuMs = childrenCpuMs() === null ? null : [];
let failed = null;
for (let i = 0; i < commands.length; i++) {
  const c0 = cpuMs && childrenCpuMs();
  const t0 = performance.now();
  const c = commands[i];
  const r = Array.isArray(c) ? spawnSync(process.execPath, c, { stdio: ['ignore', 'ignore', 'pipe'] }) : spawnSync(c.exe, c.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ms.push(performance.now() - t0);
  if (cpuMs) cpuMs.push(childrenCpuMs() - c0);
  // `check` exits 1 when a file fails (the corpus has deliberately broken files); 2 is a real failure.
  if (r.error || (r.status !== 0 && r.status !== 1)) {
    failed = [i, r.error ? r.error.message : `exited ${r.status}: ${String(r.stderr).trim().split('\n')[0]}`];
    break;
  }
}
process.stdout.write(JSON.stringify({ ms, cpuMs, failed }));
