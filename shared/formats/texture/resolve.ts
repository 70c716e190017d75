/**
 * Finding the file a model's texture reference means. Pure rules over a small file-system lookup
 * that main/ supplies, so the same rules serve the CLI, the host and the editor:
 *
 * - P3D paths (`a3\data_f\x_co.paa`) are relative to a root (a P-drive, an unpacked mod), matched
 *   case-insensitively segment by segment, with `\` or `/`; an absolute `P:\...` path loses its
 *   drive letter; `..` segments are refused;
 * - roots, in order: the user's (editor settings, `--textures DIR`), then the model's own folder
 *   and each of its parents;
 * - then the file name alone in the model's folder (a mod repository whose layout differs from
 *   the P-drive the model was made on);
 * - a source extension the game swaps (`.tga`/`.png` for `.paa`, Grimrock's `.tga` for `.dds`) is
 *   tried with the swapped one too;
 * - `#(argb,8,8,3)color(r,g,b,a,tag)` is procedural: the colour it names, no file.
 */
import type { Rgba8 } from './colour.ts';

// The material libraries' parsers live with their formats; kept importable from here.
export { parseGrimrockMaterials } from '../grimrock/materials.ts';
export { parseUnigineMaterials } from '../unigine/materials.ts';

export interface TextureLookup {
  /** Entry names of a directory (absolute, `/`-separated path), undefined when it is not one. */
  list(dir: string): readonly string[] | undefined;
  /** True when the path names a regular file. */
  isFile(path: string): boolean;
  /**
   * Optional shortcut for {@link findCaseInsensitive}: the entry of `dir` called `name` (that
   * exact name when the folder has it, else the first entry in {@link list}'s order whose lower
   * case is `lower`), undefined when there is none or `dir` is no folder. A lookup that keeps
   * its listings indexes them once instead of scanning them for every reference.
   */
  match?(dir: string, name: string, lower: string): string | undefined;
}

export interface ResolveContext {
  /** Absolute folder of the model, `/`-separated. */
  modelDir: string;
  /** The user's roots (settings, --textures), absolute and `/`-separated, in priority order. */
  roots: readonly string[];
}

export type Resolution =
  | { kind: 'file'; path: string; via: 'root' | 'model folder' | 'material library' }
  | { kind: 'procedural'; colour: Rgba8 }
  | { kind: 'missing'; written: string };

/** `#(argb,8,8,3)color(1,0,0,1,co)` -> its colour (components 0..1 -> 0..255); undefined for anything else. */
export function parseProcedural(written: string): Rgba8 | undefined {
  const t = written.trim();
  if (!t.startsWith('#')) return undefined;
  const m = /color\(\s*([-\d.e]+)\s*,\s*([-\d.e]+)\s*,\s*([-\d.e]+)\s*(?:,\s*([-\d.e]+))?/i.exec(t);
  if (!m) return { r: 255, g: 255, b: 255, a: 255 };
  const c = (s: string | undefined): number => {
    const x = s === undefined ? 1 : Number(s);
    return Math.round(255 * (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 1));
  };
  return { r: c(m[1]), g: c(m[2]), b: c(m[3]), a: c(m[4]) };
}

/** Path segments of a reference as written: separators either way, drive letter and leading slashes dropped. */
export function referenceSegments(written: string): string[] | undefined {
  const segs = written.trim().split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segs.length && /^[A-Za-z]:$/.test(segs[0]!)) segs.shift();
  if (segs.some((s) => s === '..')) return undefined;
  return segs.length ? segs : undefined;
}

/** Extensions the game loads in place of a source picture's. */
const SWAPPED: Record<string, string[]> = {
  '.tga': ['.paa', '.pac', '.dds', '.edds'],
  '.png': ['.paa', '.pac', '.edds'],
  '.jpg': ['.paa'],
  // DayZ names its textures `.paa` in models and materials and ships them as `.edds`.
  '.paa': ['.pac', '.edds'],
  '.pac': ['.paa'],
};

function withExtensions(name: string): string[] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name];
  const ext = name.slice(dot).toLowerCase();
  return [name, ...(SWAPPED[ext] ?? []).map((e) => name.slice(0, dot) + e)];
}

const join = (dir: string, name: string): string => (dir.endsWith('/') ? dir + name : `${dir}/${name}`);

/** The parent of an absolute `/`-separated path, or undefined at the root. */
export function parentDir(dir: string): string | undefined {
  const trimmed = dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
  const cut = trimmed.lastIndexOf('/');
  if (cut < 0) return undefined;
  const parent = cut === 0 ? '/' : trimmed.slice(0, cut);
  if (parent === trimmed) return undefined;
  // `C:` alone is the drive root.
  return /^[A-Za-z]:$/.test(parent) ? `${parent}/` : parent;
}

/** User roots first, then the model's folder and every parent (no duplicates). */
export function searchRoots(ctx: ResolveContext): string[] {
  const out: string[] = [];
  const add = (d: string): void => {
    if (!out.includes(d)) out.push(d);
  };
  for (const r of ctx.roots) add(r);
  for (let d: string | undefined = ctx.modelDir; d !== undefined; d = parentDir(d)) add(d);
  return out;
}

/** Walks `segs` below `root`, each segment matched case-insensitively (an exact match preferred). */
export function findCaseInsensitive(root: string, segs: readonly string[], lookup: TextureLookup): string | undefined {
  return walk(root, segs, segs.length, undefined, lookup);
}

/** {@link findCaseInsensitive} over the first `n` of `segs`, then `last` when given (no array built per try). */
function walk(root: string, segs: readonly string[], n: number, last: string | undefined, lookup: TextureLookup): string | undefined {
  let cur = root;
  const end = last === undefined ? n : n + 1;
  for (let i = 0; i < end; i++) {
    const seg = i < n ? segs[i]! : last!;
    const lower = seg.toLowerCase();
    let hit: string | undefined;
    if (lookup.match) hit = lookup.match(cur, seg, lower);
    else {
      const names = lookup.list(cur);
      if (!names) return undefined;
      hit = names.includes(seg) ? seg : names.find((x) => x.toLowerCase() === lower);
    }
    if (!hit) return undefined;
    cur = join(cur, hit);
  }
  return lookup.isFile(cur) ? cur : undefined;
}

/** Resolves one reference as written in a model (P3D face texture, rvmat stage, material map). */
export function resolveTexture(written: string, ctx: ResolveContext, lookup: TextureLookup): Resolution {
  const colour = parseProcedural(written);
  if (colour) return { kind: 'procedural', colour };
  const segs = referenceSegments(written);
  if (!segs) return { kind: 'missing', written };
  const names = withExtensions(segs[segs.length - 1]!);
  const folders = segs.length - 1;
  for (const root of searchRoots(ctx)) {
    for (const name of names) {
      const hit = walk(root, segs, folders, name, lookup);
      if (hit) return { kind: 'file', path: hit, via: 'root' };
    }
  }
  for (const name of names) {
    const hit = walk(ctx.modelDir, segs, 0, name, lookup);
    if (hit) return { kind: 'file', path: hit, via: 'model folder' };
  }
  return { kind: 'missing', written };
}



/** File names a Grimrock or Unigine material's diffuse texture is usually saved under. */
export function conventionalTextureNames(material: string): string[] {
  const base = material.replace(/^.*[\\/]/, '');
  return ['_dif', '_d', '_diffuse', '_albedo', '_co', ''].flatMap((s) => ['.dds', '.tga', '.png'].map((e) => `${base}${s}${e}`));
}
