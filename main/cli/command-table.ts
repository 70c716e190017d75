/**
 * Every `lodsmith` command as data: name, arguments, options and how to run it (its module is
 * imported only then). program.ts builds commander's help and error handling from this table,
 * and fast-args.ts parses an ordinary command line from it without loading commander at all.
 * A new command is one entry here.
 */
import type { CliIO } from './io.ts';
import { FileError } from './fail.ts';

/** A value an option refuses; commander's wrapper turns it into its usual error line. */
export class OptionValueError extends Error {}

export interface OptionSpec {
  /** Commander syntax: `-j, --jobs <n>`, `--json`, `--anim <files...>`. */
  flags: string;
  description: string;
  parse?: (value: string) => unknown;
  default?: unknown;
}

export interface ArgumentSpec {
  /** Commander syntax: `<file>`, `<files...>`. */
  name: string;
  description: string;
}

export interface RunContext {
  /** `--debug` was given: print stack traces. */
  debug: boolean;
}

export interface CommandSpec {
  name: string;
  description: string;
  args: readonly ArgumentSpec[];
  options: readonly OptionSpec[];
  /** Text after the options in `lodsmith help NAME`. */
  help?: string;
  /** Runs the command with its arguments (a variadic one as an array) and parsed options; returns the exit code. */
  run(args: readonly (string | string[])[], opts: Record<string, unknown>, io: CliIO, ctx: RunContext): Promise<number>;
}

/** Errors about one file carry its name into the one-line report. */
async function aboutFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(file, e);
  }
}

export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new OptionValueError('expected a whole number of at least 1');
  return n;
}

export function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new OptionValueError('expected a whole number of at least 0');
  return n;
}

export function paaFormat(v: string): 'dxt1' | 'dxt5' | 'argb8888' {
  if (v === 'dxt1' || v === 'dxt5' || v === 'argb8888') return v;
  throw new OptionValueError('expected dxt1, dxt5 or argb8888');
}

export function upAxisChoice(v: string): 'y' | 'z' | 'auto' {
  if (v === 'y' || v === 'z' || v === 'auto') return v;
  throw new OptionValueError('expected y, z or auto');
}

export function positiveNumber(v: string): number {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new OptionValueError('expected a number above 0');
  return n;
}

/** `512M`, `2G`, `1.5GiB`, `800MB`, `1048576`: a byte count for --max-memory (at least 1M). */
export function parseByteSize(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(v);
  if (!m) throw new OptionValueError('expected a size such as 512M, 2G or 1.5GiB');
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  const n = Math.floor(Number(m[1]) * unit);
  if (!(n >= 1024 * 1024)) throw new OptionValueError('expected at least 1M');
  return n;
}

/** Every command takes it (runCli also moves one given before the command name after it). */
export const MAX_MEMORY_OPTION: OptionSpec = {
  flags: '--max-memory <size>',
  description: 'most memory decoding one file may allocate, e.g. 512M or 2G (default: 64M + 16 x the file size)',
  parse: parseByteSize,
};

/** Modding rules (docs/rules.md): `--no-rule` is renamed to `--skip-rule` before parsing (program.ts). */
const RULE_OPTIONS: readonly OptionSpec[] = [
  { flags: '--rule <ids>', description: 'run only these modding rules (comma-separated ids, docs/rules.md)' },
  { flags: '--skip-rule <ids>', description: 'also --no-rule: do not run these modding rules' },
];

const str = (a: string | string[] | undefined): string => (Array.isArray(a) ? a[0] ?? '' : a ?? '');
const list = (a: string | string[] | undefined): string[] => (Array.isArray(a) ? a : a === undefined ? [] : [a]);

const BASE_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'info',
    description: 'summarise a model file (format, version, meshes, materials, bones, animations) or a texture (type, size, mips, tags)',
    args: [{ name: '<file>', description: 'model or texture file' }],
    options: [{ flags: '--json', description: 'print one JSON object instead of text' }, { flags: '--model-cfg <file>', description: "a P3D model's model.cfg (default: model.cfg in the model's folder or the nearest parent that has one)" }],
    run: ([file], opts, io) => aboutFile(str(file), async () => (await import('./commands/info.ts')).runInfo(str(file), opts, io)),
  },
  {
    name: 'dump',
    description: 'print the whole decoded tree as JSON (field names as decoded, $span byte ranges)',
    args: [{ name: '<file>', description: 'model file' }],
    options: [],
    help: '\nTyped arrays are printed as arrays; raw bytes are left out; bigints, NaN and Infinity are strings.\nThe output streams, so it can be piped into a pager or a JSON tool even for large files.',
    run: ([file], opts, io) => aboutFile(str(file), async () => (await import('./commands/dump.ts')).runDump(str(file), io, opts.maxMemory as number | undefined)),
  },
  {
    name: 'validate',
    description: "check a model against its format's rules; exit 1 when any error is found",
    args: [{ name: '<file>', description: 'model file' }],
    options: [
      { flags: '--json', description: 'print the problems as JSON' },
      { flags: '--model-cfg <file>', description: "a P3D model's model.cfg (default: model.cfg in the model's folder or the nearest parent that has one)" },
      { flags: '--model <file>', description: 'for an animation (.rtm, .animation, .anim): also list its bones the model lacks and the model\'s bones it never moves (warnings)' },
      { flags: '--strict', description: 'exit 1 on warnings too' },
      ...RULE_OPTIONS,
    ],
    help: '\nEach line: severity, node path, byte offset (@0x...), message; errors first. Modding rules (docs/rules.md)\nend their message with the rule id in brackets; a lodsmith.json beside the files sets or turns them off.',
    run: ([file], opts, io) => aboutFile(str(file), async () => (await import('./commands/validate.ts')).runValidate(str(file), opts, io)),
  },
  {
    name: 'roundtrip',
    description: 'decode and re-encode each file and compare the bytes; exit 1 when any differs',
    args: [{ name: '<files...>', description: 'model files' }],
    options: [
      { flags: '--strict', description: 'also drop every kept raw byte block and encode from the decoded fields alone' },
      { flags: '--json', description: 'print the results as JSON' },
    ],
    help: '\nA difference is reported as the first differing byte offset and the node that holds it.\nEvery file is tried; exit 2 when any could not be decoded.',
    run: async ([files], opts, io, ctx) => (await import('./commands/roundtrip.ts')).runRoundTrip(list(files), { ...opts, debug: ctx.debug }, io),
  },
  {
    name: 'convert',
    description: 'convert a model (with its skeleton and animations) to glTF 2.0',
    args: [
      { name: '<input>', description: 'model file' },
      { name: '<output>', description: 'output file ending in .glb (binary) or .gltf (JSON with embedded data); .rtm turns a binarized RTM into a plain one' },
    ],
    options: [
      { flags: '--lod <name>', description: 'which LOD to export (P3D resolution name such as 1.000 or Geometry)' },
      { flags: '--anim <files...>', description: 'standalone animation files (.animation, .anim, .rtm) to bind to the model by bone name' },
      { flags: '--skeleton <source>', description: 'the skeleton a binarized .rtm is composed through: MODEL.p3d (binarized, with a skeleton) or model.cfg#SkeletonName' },
      { flags: '--duration <seconds>', description: 'seconds an .rtm (phases 0..1) lasts (default 1)', parse: positiveNumber },
      { flags: '--up <axis>', description: "which axis of the model points up: y, z (adds a root node turning it Y-up) or auto (the format's guess)", parse: upAxisChoice, default: 'auto' },
      { flags: '--textures <dirs...>', description: 'look textures up under these folders too (repeatable: a P-drive, an unpacked mod) and embed them as PNG' },
      { flags: '--pose <pairs...>', description: 'P3D with a model.cfg: write the model posed at these animation source values (SOURCE=VALUE ...)' },
      { flags: '--model-cfg <file>', description: "a P3D model's model.cfg (default: model.cfg in the model's folder or the nearest parent that has one)" },
      { flags: '-q, --quiet', description: 'print nothing unless something goes wrong' },
    ],
    help: "\nGeometry keeps the source units and axes. Warnings name what had to be repaired or left out.\nA .gltf output is one self-contained file (buffers and textures as data URIs).\nWith --textures, each texture is searched under the given folders, then the model's folder and its parents\n(case-insensitive, \\ or /, a P:\\ drive dropped), then by file name beside the model; one not found is a warning.",
    run: ([input, output], opts, io) => aboutFile(str(input), async () => (await import('./commands/convert.ts')).runConvert(str(input), str(output), opts, io)),
  },
  {
    name: 'import',
    description: 'import a glTF 2.0 model (.gltf or .glb) into a format LodSmith writes',
    args: [
      { name: '<input>', description: 'glTF file: .gltf (with its buffer files beside it) or .glb' },
      { name: '<output>', description: 'output file: .lod, .p3d (MLOD), .model, .animation, .mesh, .anim or .rtm' },
    ],
    options: [
      // `--version` after `import` is renamed to this before parsing (program.ts): the program's own
      // --version (print the LodSmith version) would take it otherwise.
      { flags: '--format-version <v>', description: 'also --version: .mesh ms14 (default), ms11, ms10 or mr02; .animation 1 (default) or 2' },
      { flags: '--anim <name>', description: 'the glTF animation to import, by name or index (default: the first)' },
      { flags: '--duration <seconds>', description: '.rtm: the seconds phase 1 stands for (default: the animation\'s length)', parse: positiveNumber },
      { flags: '--limit-influences', description: 'keep the strongest joint influences when a vertex has more than the format holds' },
      { flags: '--json', description: 'print the result (format, counts, warnings) as one JSON object' },
      { flags: '-q, --quiet', description: 'print nothing unless something goes wrong' },
    ],
    help: '\nThe output extension picks the format; axes are converted so that `convert` gives back the same geometry.\nWarnings name what was left out or approximated. docs/import.md lists what each format keeps\nand the P3D LOD naming convention. The output is written atomically.',
    run: ([input, output], opts, io) => {
      const { formatVersion, ...rest } = opts as { formatVersion?: string; anim?: string; duration?: number; limitInfluences?: boolean; json?: boolean; quiet?: boolean };
      return aboutFile(str(input), async () => (await import('./commands/import.ts')).runImport(str(input), str(output), { ...rest, version: formatVersion }, io));
    },
  },
  {
    name: 'check',
    description: 'decode and round-trip every supported model and texture file under a folder (and inside its PBO archives), in parallel',
    args: [{ name: '<dir>', description: 'folder to search (recursively)' }],
    options: [
      { flags: '-j, --jobs <n>', description: 'most worker threads to use (default: number of CPUs)', parse: positiveInt },
      { flags: '--strict', description: 'also encode from the decoded fields alone (see roundtrip --strict)' },
      { flags: '--timeout <seconds>', description: 'stop a file that takes longer than this', parse: positiveNumber, default: 60 },
      { flags: '--json', description: 'print the results as JSON' },
      ...RULE_OPTIONS,
    ],
    help: '\nFiles are picked by extension and recognised by their content. A progress bar shows on a terminal.\nPBO archives are opened and every model and texture inside is checked, shown as archive.pbo::path\\in\\archive.p3d.\nExit 1 when any file fails to decode or does not round-trip.',
    run: ([dir], opts, io) => aboutFile(str(dir), async () => (await import('./commands/check.ts')).runCheck(str(dir), opts, io)),
  },
  {
    name: 'texture',
    description: 'convert a texture: PAA/PAC, DDS, TGA (or PNG, JPEG, BMP) to PNG, or a picture to a new PAA',
    args: [
      { name: '<input>', description: 'texture or picture file' },
      { name: '<output>', description: 'output file ending in .png, or .paa/.pac for a new Arma texture' },
    ],
    options: [
      { flags: '--mip <n>', description: 'which mip level to write to a PNG (0 = the largest)', parse: nonNegativeInt },
      { flags: '--format <type>', description: 'pixel type of a new PAA: dxt1, dxt5 or argb8888 (default: DXT1 when opaque, DXT5 with alpha)', parse: paaFormat },
      { flags: '-q, --quiet', description: 'print nothing unless something goes wrong' },
    ],
    help: '\nA PNG holds the level as stored: swizzled _nohq/_smdi maps are not un-swizzled.\nA new PAA gets the full mip chain and the AVGC, MAXC, FLAG and OFFS tags the game reads.',
    run: ([input, output], opts, io) => aboutFile(str(input), async () => (await import('./commands/texture.ts')).runTexture(str(input), str(output), opts, io)),
  },
  {
    name: 'repath',
    description: 'rewrite texture, material and proxy paths starting with one prefix to another in .p3d, .lod and .rvmat files',
    args: [{ name: '<paths...>', description: 'files or folders (searched recursively for .p3d, .lod and .rvmat)' }],
    options: [
      { flags: '--from <prefix>', description: 'the folder prefix to replace, e.g. mymod\\data (case-insensitive; \\ or /)' },
      { flags: '--to <prefix>', description: 'what it becomes, e.g. newmod\\art' },
      { flags: '--dry-run', description: 'report what would change and write nothing' },
      { flags: '--json', description: 'print the report as JSON' },
      { flags: '-q, --quiet', description: 'print only the totals and failures' },
    ],
    help: '\nEvery change is reported (file, node path or line, before -> after). Each changed file is written\natomically, checked to decode again, and its previous version kept as NAME.bak; bytes outside the\nchanged paths stay as they were. Exit 1 when any file could not be rewritten.',
    run: ([paths], opts, io) => import('./commands/repath.ts').then((m) => m.runRepath(list(paths), opts, io)),
  },
  {
    name: 'pbo',
    description: 'list or extract the entries of a PBO archive (read only)',
    args: [
      { name: '<action>', description: 'list (properties and entries) or extract (write entries out)' },
      { name: '<archive>', description: 'the .pbo file' },
      { name: '[pattern]', description: 'only entries matching this (* and ? within a folder, ** across folders; a name without \\ matches in any folder)' },
    ],
    options: [
      { flags: '-o, --output <dir>', description: 'extract into this folder (default: the archive name without .pbo)' },
      { flags: '--force', description: 'extract over files that already exist' },
      { flags: '--json', description: 'list as one JSON object' },
      { flags: '-q, --quiet', description: 'print nothing unless something goes wrong' },
    ],
    help: '\nEntries of signed archives are read as usual (the signature is a separate .bisign file).\nEntries an obfuscated or encrypted archive makes unreadable are listed with the reason and never\nextracted; exit 1 when any entry was not read. Compressed entries are expanded under --max-memory.',
    run: ([action, archive, pattern], opts, io) => aboutFile(str(archive), async () => (await import('./commands/pbo.ts')).runPbo(str(action), str(archive), pattern === undefined ? undefined : str(pattern), opts, io)),
  },
];

/** The commands, each with --max-memory (the decoding memory budget, docs/cli.md). */
export const COMMANDS: readonly CommandSpec[] = BASE_COMMANDS.map((c) => ({ ...c, options: [...c.options, MAX_MEMORY_OPTION] }));
