/**
 * Finding and reading a model's config file from disk (P3D: model.cfg, named by the codec's
 * SourceAnimationSupport), as the game's binarizer finds it: in the model's folder, else in the
 * nearest parent folder that has one. An explicit file (`--model-cfg`) overrides the search. `#include` paths are read relative to
 * the including file; a path starting with `\` (a P-drive path) is tried under each parent folder.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ConfigIncludeReader, SourceAnimator, SourceConfig } from '../../shared/formats/capabilities.ts';
import type { TextureLookup } from '../../shared/formats/texture/resolve.ts';
import { fsLookup } from './fs-lookup.ts';

/** Largest model.cfg or included file read (real ones are a few hundred KB at most). */
const MAX_CFG_BYTES = 16 * 1024 * 1024;
const MAX_PARENTS = 64;

/** The file named `name` in `dir`, case-insensitively (Windows-made mods on a case-sensitive disk), an exact name first. */
function fileIn(dir: string, name: string, lookup: TextureLookup): string | undefined {
  const hit = lookup.match ? lookup.match(dir, name, name.toLowerCase()) : lookup.list(dir)?.find((f) => f === name || f.toLowerCase() === name.toLowerCase());
  return hit !== undefined && lookup.isFile(join(dir, hit)) ? join(dir, hit) : undefined;
}

/**
 * `name` (model.cfg) beside the model or in its nearest parent folder, or undefined. `lookup` is
 * the disk as seen for this search: a fresh snapshot by default; `lodsmith check` passes the one
 * it keeps for its run (fs-lookup.ts), so the folders up to the root are listed once per run.
 */
export function findConfigFile(modelPath: string, name: string, lookup: TextureLookup = fsLookup()): string | undefined {
  let dir = dirname(resolve(modelPath));
  for (let k = 0; k < MAX_PARENTS; k++) {
    const f = fileIn(dir, name, lookup);
    if (f) return f;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

function readText(file: string): string {
  const st = statSync(file);
  if (st.size > MAX_CFG_BYTES) throw new Error(`${file} is ${st.size} bytes, larger than any config file`);
  const bytes = readFileSync(file);
  // UTF-8 when the bytes are, else one char per byte (the config parser reads the main file alike).
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** Reads included files relative to the including file (or, for `\path`, under its parent folders). */
export const diskIncludeReader: ConfigIncludeReader = (path, from) => {
  const rel = path.replace(/\\/g, '/');
  const candidates: string[] = [];
  if (rel.startsWith('/')) {
    for (let dir = dirname(from), k = 0; k < MAX_PARENTS; k++) {
      candidates.push(join(dir, rel));
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  } else candidates.push(resolve(dirname(from), rel));
  const lookup = fsLookup();
  for (const c of candidates) {
    const f = fileIn(dirname(c), c.replace(/^.*[\\/]/, ''), lookup);
    if (f) return { name: f, text: readText(f) };
  }
  return undefined;
};

/** True when `file` lies inside the folder `dir` (not the folder itself). */
export function insideFolder(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
}

/**
 * The include reader of one document: `#include`s of the main file (named `fileName` in the
 * codec, at `abs` on disk) read relative to it, and only files inside `top` when given (the
 * editor's path policy: nothing outside the folders it may read).
 */
export function includeReaderFor(abs: string, fileName: string, top?: string): ConfigIncludeReader {
  return (path, from) => {
    const got = diskIncludeReader(path, from === fileName ? abs : from);
    return got && (top === undefined || insideFolder(top, got.name)) ? got : undefined;
  };
}

/** A config file read and parsed by the format's animator (capabilities.ts); throws with file, line and column. */
export function readSourceConfig(file: string, animator: SourceAnimator): SourceConfig {
  const st = statSync(file);
  if (st.size > MAX_CFG_BYTES) throw new Error(`${file} is ${st.size} bytes, larger than any config file`);
  return { file, doc: animator.readConfig!(new Uint8Array(readFileSync(file)), file, diskIncludeReader) };
}
