/**
 * What Save As and Export may write, the same in the desktop app and in the browser host (both
 * call it from the document service, so the rules cannot drift apart):
 *
 * - only a model format's extension (Save As: the document's own format), or `.gltf`, `.glb`
 *   and `.png` for exports: never `notes.txt`, `.bashrc`, `pwn.exe`;
 * - never a name starting with a dot (hidden files, shell start-up files);
 * - never through or over a symbolic link, live or dangling (the link's target may be anywhere);
 * - never over something that is not a regular file;
 * - over an existing file only when the request says so (the UI asks the user first).
 *
 * Every refusal is an AppError ('denied' or 'conflict') thrown before anything is written, so a
 * refused request leaves nothing on disk. The final write repeats the link and existence checks
 * atomically (see atomicWriteFile's `noFollow` and `exclusive`), so a link or file that appears
 * between this check and the write is not overwritten either.
 */
import { lstat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { AppErrorException, fail, toAppError } from './app-error.ts';

/** File types an export may write (glTF now; `.png` for image exports). */
export const EXPORT_EXTENSIONS: readonly string[] = ['.gltf', '.glb', '.png'];

/** File types the glTF export writes. */
export const GLTF_EXTENSIONS: readonly string[] = ['.gltf', '.glb'];

export interface WriteTarget {
  /** Absolute path to write (its folder already resolved and confined by the path policy). */
  abs: string;
  /** How the path is shown to the user, for messages. */
  display: string;
  /** Extensions accepted, lower case with the dot. */
  extensions: readonly string[];
  /** True when the user agreed to replace an existing file. */
  overwrite: boolean;
}

/** Checks a Save As / Export target; returns whether the file exists (and may be replaced). */
export async function checkWriteTarget(t: WriteTarget): Promise<{ exists: boolean }> {
  const name = basename(t.abs);
  if (name.startsWith('.')) fail('denied', `Names starting with a dot are not written: ${t.display}`, { file: t.display });
  const ext = extname(name).toLowerCase();
  if (!t.extensions.includes(ext)) {
    fail('denied', `Only ${t.extensions.join(', ')} files can be written here, not ${ext ? `${ext} files` : 'a name without an extension'}: ${t.display}`, { file: t.display });
  }
  let st;
  try {
    st = await lstat(t.abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw new AppErrorException(toAppError(e, t.display));
  }
  if (st.isSymbolicLink()) fail('denied', `${t.display} is a symbolic link; LodSmith does not write through or replace links`, { file: t.display });
  if (!st.isFile()) fail('denied', `${t.display} exists and is not a regular file`, { file: t.display });
  if (!t.overwrite) fail('conflict', `${t.display} already exists; confirm to replace it`, { file: t.display });
  return { exists: true };
}
