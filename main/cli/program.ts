/**
 * The `lodsmith` command line: commander wiring, help texts, and the one place where errors turn
 * into one stderr line and an exit code. `runCli` never calls process.exit, so tests run it
 * in-process.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { describeError, EXIT_FAILED, EXIT_OK, FileError } from './fail.ts';
// Commands (and with them every codec) are imported when run, so --help and --version are quick.
import { escapeControls, writeLines, type CliIO } from './io.ts';

async function aboutFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(file, e);
  }
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function upAxisChoice(v: string): 'y' | 'z' | 'auto' {
  if (v === 'y' || v === 'z' || v === 'auto') return v;
  throw new InvalidArgumentError('expected y, z or auto');
}

function positiveNumber(v: string): number {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

/** `512M`, `2G`, `1.5GiB`, `800MB`, `1048576`: a byte count for --max-memory. */
export function parseByteSize(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(v);
  if (!m) throw new InvalidArgumentError('expected a size such as 512M, 2G or 1.5GiB');
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  const n = Math.floor(Number(m[1]) * unit);
  if (!(n >= 1024 * 1024)) throw new InvalidArgumentError('expected at least 1M');
  return n;
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

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const debug = argv.includes('--debug');
  let code = EXIT_OK;
  const program = new Command('lodsmith');
  program
    .description('Inspect, check and convert binary game model files:\nLODka 3D .lod, Arma/OFP .p3d (ODOL and MLOD), Legend of Grimrock .model/.animation, Unigine .mesh/.anim.')
    .version(packageVersion(), '-v, --version', 'print the LodSmith version')
    .helpOption('-h, --help', 'show help (also: lodsmith help COMMAND)')
    .option('--debug', 'print the stack trace of an error (for bug reports)')
    .option(
      '--max-memory <size>',
      'most memory decoding one file may allocate, e.g. 512M or 2G (default: 64M + 16 x the file size)',
      parseByteSize,
    )
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
  lodsmith check ~/mods/addons --json > report.json
${EXIT_HELP}`);

  const maxMemory = (): number | undefined => (program.opts() as { maxMemory?: number }).maxMemory;

  program
    .command('info')
    .description('summarise a model file: format, version, meshes, materials, bones, animations')
    .argument('<file>', 'model file')
    .option('--json', 'print one JSON object instead of text')
    .action(async (file: string, opts: { json?: boolean }) => {
      code = await aboutFile(file, async () => (await import('./commands/info.ts')).runInfo(file, { ...opts, maxMemory: maxMemory() }, io));
    });

  program
    .command('dump')
    .description('print the whole decoded tree as JSON (field names as decoded, $span byte ranges)')
    .argument('<file>', 'model file')
    .addHelpText('after', '\nTyped arrays are printed as arrays; raw bytes are left out; bigints, NaN and Infinity are strings.\nThe output streams, so it can be piped into a pager or a JSON tool even for large files.')
    .action(async (file: string) => {
      code = await aboutFile(file, async () => (await import('./commands/dump.ts')).runDump(file, io, maxMemory()));
    });

  program
    .command('validate')
    .description("check a model against its format's rules; exit 1 when any error is found")
    .argument('<file>', 'model file')
    .option('--json', 'print the problems as JSON')
    .addHelpText('after', '\nEach line: severity, node path, byte offset (@0x...), message.')
    .action(async (file: string, opts: { json?: boolean }) => {
      code = await aboutFile(file, async () => (await import('./commands/validate.ts')).runValidate(file, { ...opts, maxMemory: maxMemory() }, io));
    });

  program
    .command('roundtrip')
    .description('decode and re-encode each file and compare the bytes; exit 1 when any differs')
    .argument('<files...>', 'model files')
    .option('--strict', 'also drop every kept raw byte block and encode from the decoded fields alone')
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nA difference is reported as the first differing byte offset and the node that holds it.\nEvery file is tried; exit 2 when any could not be decoded.')
    .action(async (files: string[], opts: { strict?: boolean; json?: boolean }) => {
      code = await (await import('./commands/roundtrip.ts')).runRoundTrip(files, { ...opts, debug, maxMemory: maxMemory() }, io);
    });

  program
    .command('convert')
    .description('convert a model (with its skeleton and animations) to glTF 2.0')
    .argument('<input>', 'model file')
    .argument('<output>', 'output file ending in .glb (binary) or .gltf (JSON with embedded data)')
    .option('--lod <name>', 'which LOD to export (P3D resolution name such as 1.000 or Geometry)')
    .option('--anim <files...>', 'standalone animation files (.animation, .anim) to bind to the model by bone name')
    .option('--up <axis>', "which axis of the model points up: y, z (adds a root node turning it Y-up) or auto (the format's guess)", upAxisChoice, 'auto')
    .option('-q, --quiet', 'print nothing unless something goes wrong')
    .addHelpText('after', '\nGeometry keeps the source units and axes. Warnings name what had to be repaired or left out.\nA .gltf output is one self-contained file (buffers and textures as data URIs).')
    .action(async (input: string, output: string, opts: { lod?: string; anim?: string[]; up?: 'y' | 'z' | 'auto'; quiet?: boolean }) => {
      code = await aboutFile(input, async () => (await import('./commands/convert.ts')).runConvert(input, output, { ...opts, maxMemory: maxMemory() }, io));
    });

  program
    .command('check')
    .description('decode and round-trip every supported model file under a folder, in parallel')
    .argument('<dir>', 'folder to search (recursively)')
    .option('-j, --jobs <n>', 'most worker threads to use (default: number of CPUs)', positiveInt)
    .option('--strict', 'also encode from the decoded fields alone (see roundtrip --strict)')
    .option('--timeout <seconds>', 'stop a file that takes longer than this', positiveNumber, 60)
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nFiles are picked by extension and recognised by their content. A progress bar shows on a terminal.\nExit 1 when any file fails to decode or does not round-trip.')
    .action(async (dir: string, opts: { jobs?: number; strict?: boolean; timeout?: number; json?: boolean }) => {
      code = await aboutFile(dir, async () => (await import('./commands/check.ts')).runCheck(dir, { ...opts, maxMemory: maxMemory() }, io));
    });

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
    const cause = e instanceof FileError ? e.cause : e;
    if (debug) await writeLines(io.stderr, String((cause as Error)?.stack ?? cause).split('\n'));
    await writeLines(io.stderr, [`lodsmith: ${e instanceof FileError ? e.message : describeError(e)}`]);
    return EXIT_FAILED;
  }
}
