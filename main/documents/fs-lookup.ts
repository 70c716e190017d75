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

/**
 * A lookup that reads each directory and stats each file once: a snapshot of the disk for one
 * resolution pass (make a new one per pass).
 */
export function fsLookup(): TextureLookup {
  const dirs = new Map<string, readonly string[] | undefined>();
  const files = new Map<string, boolean>();
  return {
    list(dir) {
      if (!dirs.has(dir)) {
        let names: string[] | undefined;
        try {
          names = readdirSync(dir);
        } catch {
          names = undefined;
        }
        dirs.set(dir, names);
      }
      return dirs.get(dir);
    },
    isFile(path) {
      if (!files.has(path)) {
        let ok: boolean;
        try {
          ok = statSync(path).isFile();
        } catch {
          ok = false;
        }
        files.set(path, ok);
      }
      return files.get(path)!;
    },
  };
}
