/**
 * The command-line fast path (main/cli/fast-args.ts) and commander, built from the same command
 * table, must read every command line the same way; where the fast path is unsure it must step
 * aside (undefined) rather than guess.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandSpec } from '../../main/cli/command-table.ts';
import { parseFast } from '../../main/cli/fast-args.ts';
import { buildProgram } from '../../main/cli/program.ts';
import type { CliIO } from '../../main/cli/io.ts';

const sink = { write: () => true, once: () => undefined };
const io: CliIO = { stdout: sink, stderr: sink, cwd: '/' };

/** What commander makes of argv: the command, its arguments and options, or 'error'. */
async function viaCommander(argv: string[]): Promise<{ name: string; args: unknown[]; opts: Record<string, unknown> } | 'error'> {
  let got: { name: string; args: unknown[]; opts: Record<string, unknown> } | undefined;
  const program = await buildProgram(io, async (spec: CommandSpec, args, opts) => {
    got = { name: spec.name, args, opts };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return 'error';
  }
  return got ?? 'error';
}

const LINES: string[][] = [
  ['info', 'a.p3d'],
  ['info', '--json', 'a.p3d'],
  ['info', 'a.p3d', '--json'],
  ['info', 'a.p3d', '--debug'],
  ['info', '--', '-odd-name.p3d'],
  ['dump', 'x.lod'],
  ['validate', '--json', 'x.model'],
  ['roundtrip', 'a.lod'],
  ['roundtrip', '--strict', 'a.lod', 'b.lod', 'c.lod'],
  ['roundtrip', 'a.lod', '--json', 'b.lod'],
  ['check', 'dir'],
  ['check', '-j', '2', 'dir'],
  ['check', '-j2', 'dir'],
  ['check', '--jobs=3', '--strict', 'dir', '--timeout', '5'],
  ['check', '--timeout', '0.5', '--json', 'dir'],
  ['convert', 'a.model', 'a.glb'],
  ['convert', 'a.model', 'a.glb', '--up', 'z', '-q'],
  ['convert', 'a.model', 'a.glb', '--lod', '1.000'],
  // Lines commander must decide (errors, help, several values):
  ['info'],
  ['info', 'a', 'b'],
  ['info', '--jsn', 'a'],
  ['info', '--json=1', 'a'],
  ['info', '--help'],
  ['check', '-j', '0', 'dir'],
  ['check', '-j', 'x', 'dir'],
  ['check', '--jobs'],
  ['convert', 'a.model', 'a.glb', '--up', 'w'],
  ['convert', 'a.model', 'a.glb', '--anim', 'w.animation', 'r.animation'],
  ['convert', 'a.model', 'a.glb', '--lod', '-1'],
  ['roundtrip'],
  ['nosuch', 'a'],
  ['help', 'info'],
];

describe('fast command-line parsing agrees with commander', () => {
  for (const argv of LINES) {
    it(argv.join(' ') || '(empty)', async () => {
      const fast = parseFast(argv, COMMANDS);
      const slow = await viaCommander(argv);
      if (!fast) return; // commander decides; nothing to compare
      expect(slow).not.toBe('error');
      expect({ name: fast.spec.name, args: fast.args, opts: fast.opts }).toEqual(slow);
    });
  }

  it('takes the ordinary lines and leaves help, errors and variadic options to commander', () => {
    const taken = LINES.filter((l) => parseFast(l, COMMANDS)).map((l) => l.join(' '));
    expect(taken).toContain('info a.p3d');
    expect(taken).toContain('check -j2 dir');
    expect(taken).toContain('roundtrip --strict a.lod b.lod c.lod');
    for (const l of ['info', 'info --help', 'check -j 0 dir', 'convert a.model a.glb --up w', 'convert a.model a.glb --anim w.animation r.animation', 'help info', 'nosuch a']) {
      expect(taken).not.toContain(l);
    }
  });
});
