/**
 * The command line parsed straight from the command table (command-table.ts) with Node's
 * `util.parseArgs`, so an ordinary command runs without loading commander (about 8 ms of a
 * 35 ms run). Anything this parser is not sure of (help, version, an unknown or malformed
 * option, a wrong number of arguments, a value an option refuses, an option that takes several
 * values) returns undefined, and program.ts hands the line to commander, which prints the help
 * or the error exactly as before. test/cli/fast-args.test.ts checks both parsers agree.
 */
import type { CommandSpec, OptionSpec } from './command-table.ts';

export interface FastParse {
  spec: CommandSpec;
  args: (string | string[])[];
  opts: Record<string, unknown>;
}

interface Flag {
  long: string;
  short?: string;
  /** Takes a value (`<v>`); `[v]` optional values are left to commander. */
  value: boolean;
  variadic: boolean;
  optionalValue: boolean;
}

function parseFlags(flags: string): Flag | undefined {
  const m = flags.match(/^(?:-([A-Za-z]), )?--([a-z][a-z0-9-]*)(?: ([<[])[^>\]]*?(\.\.\.)?[>\]])?$/);
  if (!m) return undefined;
  return { short: m[1], long: m[2]!, value: m[3] === '<', optionalValue: m[3] === '[', variadic: !!m[4] };
}

/** commander's attribute name for a long option: `--dry-run` -> `dryRun`. */
export function camel(long: string): string {
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export function parseFast(argv: readonly string[], table: readonly CommandSpec[]): FastParse | undefined {
  const [name, ...rest] = argv;
  const spec = table.find((c) => c.name === name);
  if (!spec) return undefined;
  const flags = new Map<OptionSpec, Flag>();
  for (const o of spec.options) {
    const f = parseFlags(o.flags);
    if (!f || f.variadic || f.optionalValue || f.long.startsWith('no-')) return undefined;
    flags.set(o, f);
  }
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { debug: { type: 'boolean' } };
  for (const f of flags.values()) {
    if (f.long === 'debug' || f.long === 'help' || f.long === 'version') return undefined;
    options[f.long] = f.short ? { type: f.value ? 'string' : 'boolean', short: f.short } : { type: f.value ? 'string' : 'boolean' };
  }
  // A value that starts with '-' is an option to commander and may be a value to parseArgs.
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  if (rest.every((a) => !a.startsWith('-'))) {
    // No options at all (`lodsmith info FILE`, what a script runs per file): every argument is a
    // positional, and Node's parser, a module of its own to load and compile, is not needed.
    parsed = { values: {}, positionals: [...rest] };
  } else {
    try {
      const { parseArgs } = process.getBuiltinModule('node:util');
      parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true }) as typeof parsed;
    } catch {
      return undefined;
    }
  }
  for (const [k, v] of Object.entries(parsed.values)) {
    if (typeof v === 'string' && v.startsWith('-')) return undefined;
    if (k !== 'debug' && Array.isArray(v)) return undefined;
  }
  // Positional arguments: every one required; a variadic last one takes one or more.
  const pos = parsed.positionals;
  const variadic = spec.args.at(-1)?.name.endsWith('...>') ?? false;
  if (variadic ? pos.length < spec.args.length : pos.length !== spec.args.length) return undefined;
  const args: (string | string[])[] = spec.args.map((_a, i) => (variadic && i === spec.args.length - 1 ? pos.slice(i) : pos[i]!));
  const opts: Record<string, unknown> = {};
  for (const [o, f] of flags) {
    const v = parsed.values[f.long];
    if (v === undefined) {
      if (o.default !== undefined) opts[camel(f.long)] = o.default;
      continue;
    }
    if (typeof v === 'string' && o.parse) {
      try {
        opts[camel(f.long)] = o.parse(v);
      } catch {
        return undefined;
      }
    } else opts[camel(f.long)] = v;
  }
  return { spec, args, opts };
}
