/**
 * Turning failures into the {@link AppError} the renderer shows. Codec errors keep their byte
 * offset and node path; file-system errors get a sentence a modder understands instead of an
 * errno.
 */
import type { AppError } from '../../shared/ipc/contract.ts';
import { isDecodeError, type EncodeError } from '../../shared/errors.ts';

/** Thrown inside main to carry a ready-made AppError up to the IPC boundary. */
export class AppErrorException extends Error {
  override readonly name = 'AppErrorException';
  readonly appError: AppError;
  constructor(appError: AppError) {
    super(appError.message);
    this.appError = appError;
  }
}

/** Shorthand for throwing an AppError. */
export function fail(code: AppError['code'], message: string, extra: Partial<AppError> = {}): never {
  throw new AppErrorException({ code, message, ...extra });
}

function isEncodeError(e: unknown): e is EncodeError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'EncodeError';
}

const FS_MESSAGES: Record<string, [AppError['code'], string]> = {
  ENOENT: ['not-found', 'The file or folder does not exist (it may have been moved or deleted)'],
  ENOTDIR: ['not-found', 'A part of the path is not a folder'],
  EACCES: ['denied', 'Permission denied'],
  EPERM: ['denied', 'Operation not permitted'],
  EROFS: ['denied', 'The disk is read-only'],
  ENOSPC: ['io', 'The disk is full'],
  EDQUOT: ['io', 'The disk quota is exceeded'],
  EISDIR: ['invalid', 'The path is a folder, not a file'],
  EMFILE: ['io', 'Too many open files'],
  EIO: ['io', 'Input/output error on the disk'],
  EBUSY: ['io', 'The file is busy (locked by another program)'],
  EEXIST: ['io', 'The file already exists'],
};

/**
 * Maps anything thrown to an AppError. `file` names the file involved, when known, so the
 * message says which file failed without the renderer guessing.
 */
export function toAppError(e: unknown, file?: string): AppError {
  if (e instanceof AppErrorException) return file && !e.appError.file ? { ...e.appError, file } : e.appError;
  if (isDecodeError(e)) {
    const de = e as { message: string; offset: number; path: string };
    return { code: 'decode', message: de.message, offset: de.offset, path: de.path, ...(file ? { file } : {}) };
  }
  if (isEncodeError(e)) return { code: 'encode', message: e.message, path: e.path, ...(file ? { file } : {}) };
  const errno = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof errno === 'string' && FS_MESSAGES[errno]) {
    const [code, text] = FS_MESSAGES[errno]!;
    return { code, message: file ? `${text}: ${file}` : text, ...(file ? { file } : {}) };
  }
  if (e instanceof Error && e.name === 'EditError') return { code: 'invalid', message: e.message };
  // A glTF LodSmith cannot import: the message names the glTF path.
  if (e instanceof Error && e.name === 'ImportError') return { code: 'decode', message: e.message, ...(file ? { file } : {}) };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: message || 'Unexpected error', ...(file ? { file } : {}) };
}
