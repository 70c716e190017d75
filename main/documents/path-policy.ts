/**
 * How paths from the renderer map to the file system. Electron trusts its own dialogs and shows
 * full paths; the browser host confines every path to the folders the user named (see
 * main/host/roots.ts) and shows root-relative paths.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FileEntry } from '../../shared/ipc/contract.ts';

/** What a path is resolved for: reading an existing file, writing one, or listing a folder. */
export type PathIntent = 'read' | 'write' | 'list';

export interface PathPolicy {
  /** Turns a path from the renderer into an absolute file-system path; throws AppErrorException ('denied') when refused. */
  resolve(userPath: string, intent: PathIntent): Promise<string>;
  /** How a file-system path is shown to the renderer (and accepted back by `resolve`). */
  display(absPath: string): string;
  /** Lists a folder as the renderer sees it. */
  list(userDir: string): Promise<FileEntry[]>;
}

/** Lists a folder's entries sorted folders first, hiding dot files. */
export async function listFolder(abs: string, display: (abs: string) => string): Promise<FileEntry[]> {
  const names = await readdir(abs, { withFileTypes: true });
  const out: FileEntry[] = [];
  for (const d of names) {
    if (d.name.startsWith('.')) continue;
    const full = join(abs, d.name);
    try {
      const st = await stat(full);
      out.push({ name: d.name, path: display(full), dir: st.isDirectory(), ...(st.isFile() ? { size: st.size } : {}) });
    } catch {
      // A dangling link or an entry that vanished meanwhile is simply not listed.
    }
  }
  return out.sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
}

/** The desktop policy: any local path, shown in full. */
export class LocalPaths implements PathPolicy {
  async resolve(userPath: string, intent: PathIntent): Promise<string> {
    const abs = resolve(userPath);
    // One file reached through two links is one document.
    return intent === 'read' ? realpath(abs).catch(() => abs) : abs;
  }
  display(absPath: string): string {
    return absPath;
  }
  list(userDir: string): Promise<FileEntry[]> {
    return listFolder(resolve(userDir), (p) => p);
  }
}
