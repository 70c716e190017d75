/**
 * PBO archives in the editor, read only: the Open dialog lists an archive like a folder (its
 * entries under `ARCHIVE.pbo::folder\in\archive`), and an entry opens as a read-only document
 * (as dropped bytes do: Save As writes it out) whose textures are found inside the same archive
 * by its prefix (doc-textures.ts). Nothing is ever written into an archive.
 */
import { stat } from 'node:fs/promises';
import type { DocSnapshot, FileEntry } from '../../shared/ipc/contract.ts';
import { printableName } from '../../shared/formats/pbo/pbo.ts';
import { fail } from './app-error.ts';
import type { DocumentStore } from './doc-store.ts';
import { PboFile } from './pbo-file.ts';

/** Between an archive's path and a path inside it. */
export const ARCHIVE_SEPARATOR = '::';

export function splitArchivePath(userPath: string): { archive: string; inner: string } | undefined {
  const at = userPath.toLowerCase().indexOf(`.pbo${ARCHIVE_SEPARATOR}`);
  if (at < 0) return undefined;
  return { archive: userPath.slice(0, at + 4), inner: userPath.slice(at + 4 + ARCHIVE_SEPARATOR.length).replace(/\//g, '\\').replace(/^\\+|\\+$/g, '') };
}

export const isArchiveName = (name: string): boolean => name.toLowerCase().endsWith('.pbo');

export class DocumentArchives {
  private readonly s: DocumentStore;

  constructor(s: DocumentStore) {
    this.s = s;
  }

  private async openArchive(userArchive: string): Promise<PboFile> {
    const abs = await this.s.paths.resolve(userArchive, 'read');
    const st = await stat(abs);
    if (!st.isFile()) fail('invalid', `${userArchive} is not a PBO archive`);
    try {
      return PboFile.open(abs);
    } catch (e) {
      fail('decode', `${userArchive}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The folders and files one level below `inner` in the archive, as the Open dialog lists them. */
  async list(userArchive: string, inner: string): Promise<FileEntry[]> {
    const pbo = await this.openArchive(userArchive);
    try {
      const prefix = inner ? `${inner.toLowerCase()}\\` : '';
      const dirs = new Map<string, string>();
      const files: FileEntry[] = [];
      for (const e of pbo.archive.entries) {
        if (e.unreadable) continue;
        if (!e.name.toLowerCase().startsWith(prefix)) continue;
        const rest = e.name.slice(prefix.length);
        const cut = rest.indexOf('\\');
        if (cut >= 0) {
          const name = rest.slice(0, cut);
          dirs.set(name.toLowerCase(), name);
        } else {
          files.push({ name: printableName(rest), path: `${userArchive}${ARCHIVE_SEPARATOR}${e.name}`, dir: false, size: e.size });
        }
      }
      const folders = [...dirs.values()].map((name): FileEntry => ({ name, path: `${userArchive}${ARCHIVE_SEPARATOR}${inner ? `${inner}\\` : ''}${name}`, dir: true }));
      return [...folders.sort((a, b) => a.name.localeCompare(b.name)), ...files.sort((a, b) => a.name.localeCompare(b.name))];
    } finally {
      pbo.close();
    }
  }

  /** Opens an entry as a read-only document named after it (edits and Save wait for Save As). */
  async open(userArchive: string, inner: string, openBytes: (name: string, bytes: Uint8Array) => Promise<DocSnapshot>, maxMemory?: number): Promise<DocSnapshot> {
    const pbo = await this.openArchive(userArchive);
    let bytes: Uint8Array;
    try {
      const entry = pbo.archive.entries.find((e) => e.name.toLowerCase() === inner.toLowerCase());
      if (!entry) fail('not-found', `${userArchive} has no entry ${inner}`);
      if (entry.unreadable) fail('invalid', `${inner} cannot be read: ${entry.unreadable}`);
      try {
        bytes = pbo.read(entry, maxMemory);
      } catch (e) {
        fail('decode', `${inner}: ${e instanceof Error ? e.message : String(e)}`);
      }
    } finally {
      pbo.close();
    }
    const snap = await openBytes(inner, bytes);
    // Its textures are looked up inside the same archive, under the archive's prefix.
    const d = this.s.docs.get(snap.id);
    if (!d) return snap;
    d.archive = { abs: await this.s.paths.resolve(userArchive, 'read'), prefix: pbo.archive.prefix, names: pbo.archive.entries.filter((e) => !e.unreadable).map((e) => e.name) };
    // The texture problems were worked out before the archive was known: again, with it.
    d.textureProblems = undefined;
    return this.s.snapshot(d);
  }
}
