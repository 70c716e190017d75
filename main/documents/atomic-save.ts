/**
 * Atomic file replacement that never loses the previous version.
 *
 * The scheme: write the new bytes to a temporary file in the same folder (same file system, so the
 * final rename is atomic), fsync it, read it back and compare (and let the caller decode it), copy
 * the current file to `NAME.bak` (through its own temporary file, so the backup is never half
 * written either), rename the temporary file over the original, fsync the folder. A crash or a
 * failure at any step leaves either the old file or the new one in place, never a mix, and the
 * temporary file is removed on failure. Temporary files a killed process left behind (they have
 * their own random names, so they never disturb a later save) are removed by the next save of
 * that file ({@link removeStaleTemps}).
 */
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppErrorException, toAppError } from './app-error.ts';

/** The suffix of the one previous version kept beside a saved file. */
export const BACKUP_SUFFIX = '.bak';

/** File operations the save uses; tests replace some to simulate a full disk or a vanished folder. */
export interface AtomicIo {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  copyFile: typeof fsp.copyFile;
  readFile: typeof fsp.readFile;
  access: typeof fsp.access;
  link: typeof fsp.link;
}

const defaultIo: AtomicIo = { open: fsp.open, rename: fsp.rename, copyFile: fsp.copyFile, readFile: fsp.readFile, access: fsp.access, link: fsp.link };

/**
 * The points between the steps of a save, in order: the temporary file is written, it is
 * fsynced, the backup is in place (only when there is one), the temporary file has replaced the
 * target. Crash and fault tests stop the save at each of them.
 */
export type SaveStep = 'temp-written' | 'temp-synced' | 'backup-done' | 'renamed';

/** The steps in the order a save passes them. */
export const SAVE_STEPS: readonly SaveStep[] = ['temp-written', 'temp-synced', 'backup-done', 'renamed'];

/** Called between the steps of a save; for tests only (to kill the process or throw at a step). */
export type SaveStepHook = (step: SaveStep, info: { target: string; temp: string }) => void | Promise<void>;

export interface AtomicWriteOptions {
  /** Keep the file being replaced as `NAME.bak` (default true). */
  backup?: boolean;
  /** Checks the bytes as read back from the temporary file; throw to abort the save. */
  verify?: (written: Uint8Array) => void;
  io?: Partial<AtomicIo>;
  /**
   * For tests: called between steps. A throw before `renamed` fails the save like any I/O error
   * would (original untouched, temporary files removed); a throw at `renamed` comes after the
   * file was replaced and reaches the caller as it is.
   */
  onStep?: SaveStepHook;
  /**
   * Refuse a `target` that is a symbolic link (live or dangling) instead of writing through it
   * (the document service's saves; the default follows links, as a command-line tool does).
   */
  noFollow?: boolean;
  /**
   * Create `target` only: fail with 'conflict' when it exists, also when it appears while the
   * save runs (the new file is hard-linked into place, which never replaces anything).
   */
  exclusive?: boolean;
}

export interface AtomicWriteResult {
  /** The file actually written (the symlink's target when `target` was a symlink). */
  path: string;
  /** The backup of the previous version, if there was one. */
  backup: string | null;
}

/** Temporary files of saves running in this process right now: never stale. */
const activeTemps = new Set<string>();

function tempName(file: string, tag: 'tmp' | 'baktmp'): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.${tag}`);
}

/** True for the names {@link tempName} gives temporary files of `file` (and nothing else). */
export function isTempOf(file: string, name: string): boolean {
  const base = `.${basename(file)}.`;
  if (!name.startsWith(base)) return false;
  return /^[0-9a-f]{12}\.(tmp|baktmp)$/.test(name.slice(base.length));
}

/**
 * Removes temporary files an earlier save of `file` left behind when its process was killed
 * (a finished or failed save removes its own). Only regular files with exactly our temporary
 * names are touched, never those of a save running in this process; errors are ignored, since
 * leftovers never disturb a save. Returns the names removed.
 */
export async function removeStaleTemps(file: string): Promise<string[]> {
  const dir = dirname(file);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!isTempOf(file, name) || activeTemps.has(join(dir, name))) continue;
    try {
      const st = await fsp.lstat(join(dir, name));
      if (!st.isFile()) continue;
      await fsp.rm(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

async function writeSynced(io: AtomicIo, file: string, bytes: Uint8Array, mode: number, onWritten?: () => void | Promise<void>): Promise<void> {
  // 'wx': never follow or clobber something that appeared under the random name.
  const fh = await io.open(file, 'wx', mode);
  try {
    let off = 0;
    while (off < bytes.length) {
      const { bytesWritten } = await fh.write(bytes, off, bytes.length - off);
      if (bytesWritten <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      off += bytesWritten;
    }
    await onWritten?.();
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Makes a copied file durable before it is renamed into place. */
async function syncFile(io: AtomicIo, file: string): Promise<void> {
  const fh = await io.open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename durable. Some file systems refuse fsync on a folder; the rename already
  // happened then, so that is not a reason to report failure.
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch {
    /* best effort */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The backup's place must be free or hold a regular file: a folder, a link or a device named
 * `NAME.bak` is refused before anything is written, with a message that names it.
 */
async function checkBackupSlot(backup: string): Promise<void> {
  let st;
  try {
    st = await fsp.lstat(backup);
  } catch {
    return; // free (or unreadable: the rename then reports it, naming the backup)
  }
  if (st.isFile()) return;
  const what = st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
  throw new AppErrorException({
    code: 'invalid',
    message: `Cannot keep the previous version as ${backup}: it is ${what}. Move it away and save again; nothing was written.`,
    file: backup,
  });
}

/** Puts `tmp` at `file` without ever replacing what is there (a hard link; a rename where links are not supported). */
async function placeExclusive(io: AtomicIo, tmp: string, file: string, target: string): Promise<void> {
  try {
    await io.link(tmp, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new AppErrorException({ code: 'conflict', message: `${target} already exists`, file: target });
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    // No hard links on this file system: check, then rename (a narrow window, but still no follow).
    const there = await fsp.lstat(file).then(() => true, () => false);
    if (there) throw new AppErrorException({ code: 'conflict', message: `${target} already exists`, file: target });
    await io.rename(tmp, file);
    return;
  }
  await fsp.rm(tmp, { force: true });
}

/**
 * Replaces (or creates) `target` with `bytes` atomically, keeping the previous version as
 * `target + '.bak'`. Throws {@link AppErrorException} with a clear message; on failure the
 * original file is untouched and no temporary file is left behind.
 */
export async function atomicWriteFile(target: string, bytes: Uint8Array, opts: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  const io: AtomicIo = { ...defaultIo, ...opts.io };
  let file = target;
  let mode = 0o644;
  let exists = false;
  try {
    if (opts.noFollow && (await fsp.lstat(target)).isSymbolicLink()) {
      throw new AppErrorException({ code: 'denied', message: `${target} is a symbolic link; LodSmith does not write through or replace links`, file: target });
    }
    // Saving through a symlink updates the file it points to and keeps the link.
    file = opts.noFollow ? target : await fsp.realpath(target);
    const st = await fsp.stat(file);
    if (!st.isFile()) throw new AppErrorException({ code: 'invalid', message: `Not a regular file: ${target}`, file: target });
    mode = st.mode & 0o7777;
    exists = true;
  } catch (e) {
    if (e instanceof AppErrorException) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new AppErrorException(toAppError(e, target));
  }
  const dir = dirname(file);
  try {
    const dst = await fsp.stat(dir);
    if (!dst.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (e) {
    const err = toAppError(e, dir);
    throw new AppErrorException({ ...err, message: `Cannot save ${target}: the folder ${dir} is not available (${err.message})` });
  }
  if (exists && opts.exclusive) throw new AppErrorException({ code: 'conflict', message: `${target} already exists`, file: target });
  if (exists) {
    try {
      await io.access(file, constants.W_OK);
    } catch {
      throw new AppErrorException({ code: 'denied', message: `The file is read-only: ${target}`, file: target });
    }
  }
  const keepBackup = exists && opts.backup !== false;
  if (keepBackup) await checkBackupSlot(file + BACKUP_SUFFIX);

  const tmp = tempName(file, 'tmp');
  let backup: string | null = null;
  const bakTmp = tempName(file, 'baktmp');
  const step = async (s: SaveStep): Promise<void> => opts.onStep?.(s, { target: file, temp: tmp });
  activeTemps.add(tmp);
  activeTemps.add(bakTmp);
  try {
    await removeStaleTemps(file);
    await writeSynced(io, tmp, bytes, mode, () => step('temp-written'));
    await step('temp-synced');
    // A view of the Buffer read, not `new Uint8Array(buffer)`, which would copy the whole file again.
    const read = await io.readFile(tmp);
    const back = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    if (!sameBytes(back, bytes)) throw new AppErrorException({ code: 'io', message: `The disk returned different bytes than were written to ${tmp}`, file: target });
    opts.verify?.(back);
    if (keepBackup) {
      backup = file + BACKUP_SUFFIX;
      await io.copyFile(file, bakTmp);
      await syncFile(io, bakTmp);
      try {
        await io.rename(bakTmp, backup);
      } catch (e) {
        // Name the backup, not the model: it is the backup's place that is in the way.
        const err = toAppError(e, backup);
        throw new AppErrorException({ ...err, message: `Could not save ${target}: the previous version could not be kept as ${backup} (${err.message}). The file is unchanged.` });
      }
      await step('backup-done');
    }
    if (opts.exclusive) await placeExclusive(io, tmp, file, target);
    else await io.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    await fsp.rm(bakTmp, { force: true }).catch(() => undefined);
    const err = toAppError(e, target);
    throw new AppErrorException(err.code === 'decode' || err.code === 'encode' || e instanceof AppErrorException
      ? err
      : { ...err, message: `Could not save ${target}: ${err.message}. The previous version is unchanged.` });
  } finally {
    activeTemps.delete(tmp);
    activeTemps.delete(bakTmp);
  }
  await step('renamed');
  await syncDir(dir);
  return { path: file, backup };
}
