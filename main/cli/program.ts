/**
 * The `lodsmith` command line: the one place where errors turn into one stderr line and an exit
 * code. An ordinary command line is parsed from the command table without commander
 * (fast-args.ts); help, version and anything unusual go through commander, built from the same
 * table. `runCli` never calls process.exit, so tests run it in-process.
 */
import { readFileSync } from 'node:fs';
import type { Command as CommandType } from 'commander';
import { COMMANDS, OptionValueError, type CommandSpec } from './command-table.ts';
import { describeError, EXIT_FAILED, EXIT_OK, FileError } from './fail.ts';
import { parseFast } from './fast-args.ts';
import { escapeControls, writeLines, type CliIO } from './io.ts';

/** The package version: package.json two folders up from the sources, three from out/cli/chunks. */
function packageVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'lodsmith') return pkg.version ?? '0.0.0';
    } catch {
      // try the next place
    }
  }
  return '0.0.0';
}

const EXIT_HELP = `
Exit codes:
  0  done, nothing wrong
  1  done, and something was found: validation errors, a round-trip difference, a failed file
  2  could not do it: unreadable, corrupt or unknown input, or wrong usage
     (one line on stderr names the file, the problem, the byte offset and the node path)

Memory:
  Decoding one file may allocate at most 64M + 16 x its size (a forged size or a
  decompression bomb stops there with exit 2). Raise it with --max-memory, e.g.
  lodsmith --max-memory 2G info huge.p3d`;

/**
 * `--max-memory SIZE` given before the command name belongs to the command: moved after it, so
 * both parsers (which read options per command) see it.
 */
function hoistGlobalOptions(argv: readonly string[]): string[] {
  const out = [...argv];
  const moved: string[] = [];
  for (let i = 0; i < out.length && out[i]!.startsWith('-'); ) {
    if (out[i] === '--max-memory' && i + 1 < out.length) moved.push(...out.splice(i, 2));
    else if (out[i]!.startsWith('--max-memory=')) moved.push(...out.splice(i, 1));
    else i++;
  }
  if (moved.length === 0) return out;
  const cmd = out.findIndex((a) => !a.startsWith('-'));
  if (cmd < 0) return [...out, ...moved];
  out.splice(cmd + 1, 0, ...moved);
  return out;
}

export type ActionHandler = (spec: CommandSpec, args: (string | string[])[], opts: Record<string, unknown>) => Promise<void>;

/**
 * The commander program for the command table; `onAction` receives each parsed command line.
 * Loads commander (only help, version and unusual command lines need it).
 */
export async function buildProgram(io: CliIO, onAction: ActionHandler, table: readonly CommandSpec[] = COMMANDS): Promise<CommandType> {
  const { Command, InvalidArgumentError } = await import('commander');
  const program = new Command('lodsmith');
  program
    .description('Inspect, check and convert binary game model files:\nLODka 3D .lod, Arma/OFP .p3d (ODOL and MLOD), Legend of Grimrock .model/.animation, Unigine .mesh/.anim,\nand their textures: Arma .paa/.pac, .dds, .tga.')
    .version(packageVersion(), '-v, --version', 'print the LodSmith version')
    .helpOption('-h, --help', 'show help (also: lodsmith help COMMAND)')
    .option('--debug', 'print the stack trace of an error (for bug reports)')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // Commander quotes the arguments it rejects, which may be file names: escaped like the rest.
      outputError: (s, write) => write((s.startsWith('error:') ? `lodsmith: ${s}` : s).split('\n').map(escapeControls).join('\n')),
    })
    .addHelpText('after', `
Examples:
  lodsmith info models/tank.p3d
  lodsmith validate ogre.model
  lodsmith roundtrip --strict *.lod
  lodsmith convert ogre.model ogre.glb --anim ogre_walk.animation ogre_attack.animation
  lodsmith import ogre.glb ogre.model
  lodsmith check ~/mods/addons --json > report.json
  lodsmith texture data/body_co.paa body_co.png
  lodsmith texture logo.png logo_ca.paa --format dxt5
${EXIT_HELP}`);

  for (const spec of table) {
    const cmd = program.command(spec.name).description(spec.description);
    for (const a of spec.args) cmd.argument(a.name, a.description);
    for (const o of spec.options) {
      const parse = o.parse;
      if (parse) {
        const wrapped = (v: string): unknown => {
          try {
            return parse(v);
          } catch (e) {
            throw e instanceof OptionValueError ? new InvalidArgumentError(e.message) : e;
          }
        };
        if (o.default !== undefined) cmd.option(o.flags, o.description, wrapped, o.default);
        else cmd.option(o.flags, o.description, wrapped);
      } else if (o.default !== undefined) cmd.option(o.flags, o.description, o.default as string | boolean);
      else cmd.option(o.flags, o.description);
    }
    if (spec.help) cmd.addHelpText('after', spec.help);
    cmd.action(async (...params: unknown[]) => {
      const args = params.slice(0, spec.args.length) as (string | string[])[];
      const opts = params[spec.args.length] as Record<string, unknown>;
      await onAction(spec, args, { ...opts });
    });
  }
  return program;
}

/**
 * `import --version ms11` picks a format version, but the program's own `--version` (print the
 * LodSmith version) is recognised anywhere on the line: after `import`, it is renamed to the
 * command's `--format-version` before parsing.
 */
function importVersionOption(argv: readonly string[]): string[] {
  const at = argv.findIndex((a) => !a.startsWith('-'));
  if (at < 0 || argv[at] !== 'import') return [...argv];
  return argv.map((a, i) => (i > at && (a === '--version' || a.startsWith('--version=')) ? a.replace('--version', '--format-version') : a));
}

/**
 * `--no-rule IDS` turns rules off, but commander reads any `--no-X` as the negation of `--X`
 * (here `--rule`, which keeps only the rules it names): renamed to the commands' `--skip-rule`.
 */
function noRuleOption(argv: readonly string[]): string[] {
  return argv.map((a) => (a === '--no-rule' || a.startsWith('--no-rule=') ? a.replace('--no-rule', '--skip-rule') : a));
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(rawArgv: readonly string[], io: CliIO, table: readonly CommandSpec[] = COMMANDS): Promise<number> {
  const argv = noRuleOption(importVersionOption(hoistGlobalOptions(rawArgv)));
  const debug = argv.includes('--debug');
  let code = EXIT_OK;
  try {
    const fast = argv.length > 0 ? parseFast(argv, table) : undefined;
    if (fast) return await fast.spec.run(fast.args, fast.opts, io, { debug });
    const { CommanderError } = await import('commander');
    const program = await buildProgram(io, async (spec, args, opts) => {
      code = await spec.run(args, opts, io, { debug });
    }, table);
    try {
      if (argv.length === 0) {
        // Usage without a command is a usage error: help goes to stderr, stdout stays clean.
        program.outputHelp({ error: true });
        return EXIT_FAILED;
      }
      await program.parseAsync([...argv], { from: 'user' });
      return code;
    } catch (e) {
      if (e instanceof CommanderError) {
        if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_OK;
        return EXIT_FAILED;
      }
      throw e;
    }
  } catch (e) {
    const cause = e instanceof FileError ? e.cause : e;
    if (debug) await writeLines(io.stderr, String((cause as Error)?.stack ?? cause).split('\n'));
    await writeLines(io.stderr, [`lodsmith: ${e instanceof FileError ? e.message : describeError(e)}`]);
    return EXIT_FAILED;
  }
}
