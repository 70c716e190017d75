/**
 * The bench's whole-process runner (bench/lib/process-runner.mjs) starts the timed commands from
 * a small process of its own: each command line gets its own time, in order, and a command that
 * fails stops the run with its index and first line of stderr (exit 1 counts as a result: `check`
 * exits 1 when a corpus file fails).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { peerCommand } from '../../bench/lib/process.ts';
import { repoRoot } from '../helpers/corpus.ts';

function runner(commands: (string[] | { exe: string; args: string[] })[]): { ms: number[]; cpuMs: number[] | null; failed: [number, string] | null } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bench/lib/process-runner.mjs')], { input: JSON.stringify({ commands }), encoding: 'utf8' });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { ms: number[]; cpuMs: number[] | null; failed: [number, string] | null };
}

describe('bench process runner', () => {
  it('times each command line in order', () => {
    // The second command sleeps 300 ms, a lower bound its time cannot go below (no upper bound:
    // the machine may be loaded); the others only have to take some time.
    const out = runner([['-e', '0'], ['-e', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)'], ['-e', 'process.exit(1)']]);
    expect(out.failed).toBeNull();
    expect(out.ms).toHaveLength(3);
    expect(out.ms[1]!).toBeGreaterThanOrEqual(300);
    for (const ms of out.ms) expect(ms).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')('reports each command\'s CPU time (Linux)', () => {
    // 2e8 additions take 100 ms or more of CPU on any current machine; a bare start ~20 ms.
    const out = runner([['-e', '0'], ['-e', 'let x = 0; for (let i = 0; i < 2e8; i++) x += i; if (x < 0) console.log(x)']]);
    expect(out.cpuMs).toHaveLength(2);
    expect(out.cpuMs![1]!).toBeGreaterThan(out.cpuMs![0]! + 50);
  });

  it('stops at a command that fails, with its index and the first line it printed', () => {
    const out = runner([['-e', '0'], ['-e', 'console.error("broken here\\nmore"); process.exit(2)'], ['-e', '0']]);
    expect(out.ms).toHaveLength(2);
    expect(out.failed).toEqual([1, 'exited 2: broken here']);
  });

  it('runs another program given as { exe, args } (a peer measured side by side)', () => {
    const out = runner([{ exe: process.execPath, args: ['-e', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)'] }, { exe: '/nonexistent/peer', args: [] }]);
    expect(out.ms[0]!).toBeGreaterThanOrEqual(200);
    expect(out.failed?.[0]).toBe(1);
    expect(out.failed?.[1]).toMatch(/ENOENT/);
  });

  it('reads the peer command line from a JSON array or words', () => {
    expect(peerCommand(undefined)).toBeUndefined();
    expect(peerCommand('  ')).toBeUndefined();
    expect(peerCommand('python3 /peer/info.py')).toEqual({ exe: 'python3', args: ['/peer/info.py'] });
    expect(peerCommand('["/usr/bin/python3", "/a b/info.py"]')).toEqual({ exe: '/usr/bin/python3', args: ['/a b/info.py'] });
    expect(() => peerCommand('["python3", 3]')).toThrow(/LODSMITH_BENCH_A3OB/);
  });
});
