/**
 * Atomic file replacement that never loses the previous version.
 *
 * The scheme: write the new bytes to a temporary file in the same folder (same file system, so the
 * final rename is atomic), fsync it, read it back and compare (and let the caller decode it), copy
 * the current file to `NAME.bak` (through its own temporary file, so the backup is never half
 * written either), rename the temporary file over the original, fsync the folder. A crash or a
 * failure at any step leaves either the old file or the new one in place, never a mix, and the
 * temporary file is removed on failure.
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
}

const defaultIo: AtomicIo = { open: fsp.open, rename: fsp.rename, copyFile: fsp.copyFile, readFile: fsp.readFile };

export interface AtomicWriteOptions {
  /** Keep the file being replaced as `NAME.bak` (default true). */
  backup?: boolean;
  /** Checks the bytes as read back from the temporary file; throw to abort the save. */
  verify?: (written: Uint8Array) => void;
  io?: Partial<AtomicIo>;
}

export interface AtomicWriteResult {
  /** The file actually written (the symlink's target when `target` was a symlink). */
  path: string;
  /** The backup of the previous version, if there was one. */
  backup: string | null;
}

function tempName(file: string, tag: string): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.${tag}`);
}

async function writeSynced(io: AtomicIo, file: string, bytes: Uint8Array, mode: number): Promise<void> {
  // 'wx': never follow or clobber something that appeared under the random name.
  const fh = await io.open(file, 'wx', mode);
  try {
    let off = 0;
    while (off < bytes.length) {
      const { bytesWritten } = await fh.write(bytes, off, bytes.length - off);
      if (bytesWritten <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      off += bytesWritten;
    }
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
    // Saving through a symlink updates the file it points to and keeps the link.
    file = await fsp.realpath(target);
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
  if (exists) {
    try {
      await fsp.access(file, constants.W_OK);
    } catch {
      throw new AppErrorException({ code: 'denied', message: `The file is read-only: ${target}`, file: target });
    }
  }

  const tmp = tempName(file, 'tmp');
  let backup: string | null = null;
  const bakTmp = tempName(file, 'baktmp');
  try {
    await writeSynced(io, tmp, bytes, mode);
    const back = new Uint8Array(await io.readFile(tmp));
    if (!sameBytes(back, bytes)) throw new AppErrorException({ code: 'io', message: `The disk returned different bytes than were written to ${tmp}`, file: target });
    opts.verify?.(back);
    if (exists && opts.backup !== false) {
      backup = file + BACKUP_SUFFIX;
      await io.copyFile(file, bakTmp);
      await io.rename(bakTmp, backup);
    }
    await io.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    await fsp.rm(bakTmp, { force: true }).catch(() => undefined);
    const err = toAppError(e, target);
    throw new AppErrorException(err.code === 'decode' || err.code === 'encode' || e instanceof AppErrorException
      ? err
      : { ...err, message: `Could not save ${target}: ${err.message}. The previous version is unchanged.` });
  }
  await syncDir(dir);
  return { path: file, backup };
}
