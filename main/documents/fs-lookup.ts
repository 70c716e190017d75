/**
 * The file-system side of the pure texture/path resolver (shared/formats/texture/resolve.ts),
 * without any texture codec: used by texture resolution for previews and export
 * (scene-textures.ts, doc-textures.ts) and by the modding rules' file checks (rules-env.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TextureLookup } from '../../shared/formats/texture/resolve.ts';

/** Native path -> the `/`-separated absolute form the resolver works in. */
export const toSlash = (p: string): string => resolve(p).replace(/\\/g, '/');

/** A folder's entries as read, with the indexes {@link TextureLookup.match} answers from. */
interface Listing {
  names: readonly string[];
  /** Built on the second match in the folder: the first scans `names` (see {@link scan}). */
  exact?: Set<string>;
  /** Lower-cased name -> the first entry (in `names` order) with that lower case; built on the first miss of `exact`. */
  lower?: Map<string, string>;
  /** Matches asked of this folder so far. */
  asked: number;
}

/**
 * `name` in `names`, else the first entry whose lower case is `lower`: what the indexes answer,
 * by a scan that lower-cases only the entries no longer than `lower` (lower-casing never shortens
 * a name; `İ` lengthens it). A folder asked once (the
 * model.cfg search of `lodsmith info` asks each folder up to the root once) then costs no
 * index of its entries: for a folder of ~360 names the two indexes were ~90 kB of the young heap
 * that start-up fills (docs/performance.md, "Start-up").
 */
function scan(names: readonly string[], name: string, lower: string): string | undefined {
  if (names.includes(name)) return name;
  for (const n of names) if (n.length <= lower.length && n.toLowerCase() === lower) return n;
  return undefined;
}

/** Folders (and, apart, file checks) a lookup keeps before it starts again (a run over a huge tree must not grow without end). */
const MAX_KEPT = 20_000;

/**
 * A lookup that reads each directory and stats each file once: a snapshot of the disk for one
 * resolution pass (make a new one per pass; `lodsmith check` keeps one per worker for its run, so
 * the folders every model's references walk through are listed once, not once per model). A
 * folder's names are indexed the first time a segment is matched in it, so each match costs one
 * or two hash look-ups, not a scan lower-casing every name.
 */
export function fsLookup(): TextureLookup {
  const dirs = new Map<string, Listing | undefined>();
  const files = new Map<string, boolean>();
  const listing = (dir: string): Listing | undefined => {
    let l = dirs.get(dir);
    if (l === undefined && !dirs.has(dir)) {
      try {
        l = { names: readdirSync(dir), asked: 0 };
      } catch {
        l = undefined;
      }
      if (dirs.size >= MAX_KEPT) dirs.clear();
      dirs.set(dir, l);
    }
    return l;
  };
  return {
    list: (dir) => listing(dir)?.names,
    match(dir, name, lower) {
      const l = listing(dir);
      if (!l) return undefined;
      if (++l.asked === 1) return scan(l.names, name, lower);
      l.exact ??= new Set(l.names);
      if (l.exact.has(name)) return name;
      if (!l.lower) {
        l.lower = new Map();
        for (const n of l.names) {
          const k = n.toLowerCase();
          if (!l.lower.has(k)) l.lower.set(k, n);
        }
      }
      return l.lower.get(lower);
    },
    isFile(path) {
      let ok = files.get(path);
      if (ok === undefined) {
        try {
          ok = statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
        } catch {
          ok = false;
        }
        if (files.size >= MAX_KEPT) files.clear();
        files.set(path, ok);
      }
      return ok;
    },
  };
}
