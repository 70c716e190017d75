/**
 * What the modding rules (shared/model/rules.ts) ask of the files around a model: whether a
 * texture, material or proxy model it names exists (found the way the textures issue finds them,
 * docs/textures.md), a texture's size, and the user's rule choices from `lodsmith.json`. Used by
 * the CLI (`validate`, `check`) and the editor's Problems panel (doc-rules.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseRuleConfig, unknownRuleIds, type RuleConfig, type RuleEnvironment, type RuleInfo } from '../../shared/model/rules.ts';
import { resolveTexture, type TextureLookup } from '../../shared/formats/texture/resolve.ts';
import { fsLookup, toSlash } from './fs-lookup.ts';

/**
 * Paths into the games' own data (Arma's `a3\`, Arma 2's `ca\`, DayZ's `dz\`): a mod folder never
 * holds them, so a miss there says nothing. They are still checked when found (size).
 */
const GAME_ROOTS = new Set(['a3', 'ca', 'dz', 'core', 'bin']);
const SEP = '\u0000';
/** Largest texture read to learn its size. */
const MAX_TEXTURE = 64 << 20;

export function isGameDataPath(written: string): boolean {
  const first = written.replace(/^[A-Za-z]:/, '').split(/[\\/]+/).find((s) => s !== '');
  return first !== undefined && GAME_ROOTS.has(first.toLowerCase());
}

/** The file a path names, by the textures rules; `model` adds `.p3d` when the path has no extension. */
function find(written: string, kind: 'texture' | 'material' | 'model', modelDir: string, roots: readonly string[], lookup: TextureLookup): string | undefined {
  const w = kind === 'model' && !/\.[^\\/.]+$/.test(written) ? `${written}.p3d` : written;
  const r = resolveTexture(w, { modelDir, roots }, lookup);
  return r.kind === 'file' ? r.path : undefined;
}

/**
 * Rules environment for a model file on disk, looking below `roots` and the model's folders.
 * `lookup` is the disk as the resolver sees it: a fresh snapshot by default; `lodsmith check`
 * passes one kept for its whole run.
 */
export function fileRuleEnvironment(modelAbs: string, roots: readonly string[] = [], sizeOf?: (path: string) => { width: number; height: number } | undefined, lookup: TextureLookup = fsLookup()): RuleEnvironment {
  const modelDir = toSlash(dirname(modelAbs));
  const slashRoots = roots.map(toSlash);
  // The rules ask for a texture twice (exists, then its size): resolved once.
  const found = new Map<string, string | undefined>();
  const findOnce = (written: string, kind: 'texture' | 'material' | 'model'): string | undefined => {
    const key = kind + SEP + written;
    let path = found.get(key);
    if (path === undefined && !found.has(key)) found.set(key, (path = find(written, kind, modelDir, slashRoots, lookup)));
    return path;
  };
  return {
    exists(written, kind) {
      if (findOnce(written, kind)) return true;
      return isGameDataPath(written) ? undefined : false;
    },
    textureSize(written) {
      const path = findOnce(written, 'texture');
      if (!path || !sizeOf) return undefined;
      try {
        if (statSync(path).size > MAX_TEXTURE) return undefined;
      } catch {
        return undefined;
      }
      return sizeOf(path);
    },
  };
}

/** Rules environment for a model inside a PBO: paths resolve among the archive's entries, under its prefix. */
export function archiveRuleEnvironment(prefix: string, names: readonly string[], sizeOf?: (entry: string) => { width: number; height: number } | undefined): RuleEnvironment {
  const norm = (s: string): string => s.replace(/\//g, '\\').replace(/^[A-Za-z]:/, '').replace(/^\\+/, '').toLowerCase();
  const pre = norm(prefix);
  const byFull = new Map(names.map((n) => [norm(pre ? `${pre}\\${n}` : n), n]));
  const swaps: Record<string, string[]> = { '.tga': ['.paa'], '.png': ['.paa'], '.paa': ['.pac', '.edds'] };
  const entryOf = (written: string, kind: 'texture' | 'material' | 'model'): string | undefined => {
    let w = norm(written);
    if (kind === 'model' && !/\.[^\\.]+$/.test(w)) w += '.p3d';
    const ext = /\.[^\\.]+$/.exec(w)?.[0] ?? '';
    for (const e of [ext, ...(swaps[ext] ?? [])]) {
      const hit = byFull.get(w.slice(0, w.length - ext.length) + e);
      if (hit) return hit;
    }
    return undefined;
  };
  return {
    exists(written, kind) {
      if (entryOf(written, kind)) return true;
      // A path outside the archive's prefix lives in another archive: unknown, not missing.
      return pre && norm(written).startsWith(`${pre}\\`) ? false : undefined;
    },
    textureSize(written) {
      const e = entryOf(written, 'texture');
      return e && sizeOf ? sizeOf(e) : undefined;
    },
  };
}

/**
 * The nearest `lodsmith.json` from `dir` upwards: its rules entry as a RuleConfig, or a message
 * when it is malformed. Undefined when there is none.
 */
export function findRuleConfig(dir: string): { file: string; config: RuleConfig } | { file: string; error: string } | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const file = join(d, 'lodsmith.json');
    if (existsSync(file)) {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        return { file, error: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
      }
      const config = parseRuleConfig(json);
      return typeof config === 'string' ? { file, error: config } : { file, config };
    }
    if (dirname(d) === d) return undefined;
  }
}

/** `--rule a,b --rule c` -> ['a', 'b', 'c']. */
export function ruleIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.flatMap((x) => String(x).split(',')).map((s) => s.trim()).filter(Boolean);
}

/** The size of a texture file (its header decoded; nothing converted), cached by path. */
const sizes = new Map<string, { width: number; height: number } | undefined>();
export function textureFileSize(path: string, read: (path: string) => Uint8Array = (p) => new Uint8Array(readFileSync(p))): { width: number; height: number } | undefined {
  if (!sizes.has(path)) {
    let size: { width: number; height: number } | undefined;
    try {
      size = textureSizeOf(read(path), path);
    } catch {
      size = undefined;
    }
    if (sizes.size > 1000) sizes.clear();
    sizes.set(path, size);
  }
  return sizes.get(path);
}

let textureModule: typeof import('../../shared/formats/texture/index.ts') | undefined;
/** Set by {@link loadTextureCodecs} (the texture codecs load only when a rule needs a size). */
function textureSizeOf(bytes: Uint8Array, name: string): { width: number; height: number } | undefined {
  if (!textureModule) return undefined;
  return textureModule.textureSize(textureModule.decodeTexture(bytes, name));
}
export async function loadTextureCodecs(): Promise<void> {
  textureModule ??= await import('../../shared/formats/texture/index.ts');
}

/** The user's rule choices for a model in `dir`: its lodsmith.json, then --rule / --no-rule. Throws a one-line failure on a bad file or id. */
export function ruleChoices(dir: string, opts: { rule?: unknown; skipRule?: unknown }, known: readonly RuleInfo[]): RuleConfig {
  const found = findRuleConfig(dir);
  if (found && 'error' in found) throw new RuleConfigError(`${found.file}: ${found.error}`);
  const config: RuleConfig = { ...(found?.config ?? {}) };
  const only = ruleIds(opts.rule);
  const off = ruleIds(opts.skipRule);
  if (only.length) config.only = only;
  if (off.length) config.off = off;
  const unknown = unknownRuleIds(config, known);
  if (unknown.length) throw new RuleConfigError(`no modding rule is called ${unknown.join(', ')}${found ? ` (--rule, --no-rule or ${found.file})` : ''}; docs/rules.md lists them`);
  return config;
}

/** A bad rule choice (an unknown id, a malformed lodsmith.json): a message for the user, not a bug. */
export class RuleConfigError extends Error {
  override readonly name = 'RuleConfigError';
}
