/**
 * Exit codes and the one-line error report. Exit codes:
 * 0 success; 1 the command worked and found a problem (validation errors, a round-trip difference,
 * a failed file in `check`); 2 the command could not do its job (unreadable or corrupt input,
 * unknown format, bad usage).
 */
import { isDecodeError, EncodeError } from '../../shared/errors.ts';
import { isImportError } from '../../shared/import/errors.ts';

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_FAILED = 2;

/** A failure the CLI reports as one line and an exit code (no stack trace: it is not a bug). */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  readonly exitCode: number;
  constructor(message: string, exitCode = EXIT_FAILED) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Where a decode error sits, as printed: `at offset 16 (0x10), node LOD1/MSL1`. */
export function where(offset: number, path: string): string {
  return `at offset ${offset} (0x${offset.toString(16)}), node ${path || '(file root)'}`;
}

/**
 * One line describing why `file` could not be processed. DecodeErrors give offset and node path;
 * file-system errors give the reason; anything else is a bug in LodSmith and says so.
 */
export function describeError(e: unknown, file?: string): string {
  const prefix = file ? `${file}: ` : '';
  if (isDecodeError(e)) return `${prefix}${e.detail} ${where(e.offset, e.path)}`;
  // glTF input: the JSON path names the node, mesh and primitive (byte offsets mean little there).
  if (isImportError(e)) return `${prefix}${e.detail}${e.gltfPath ? ` (glTF ${e.gltfPath})` : ''}`;
  if (e instanceof CliFailure) return `${prefix}${e.message}`;
  // A bad modding-rule choice (main/documents/rules-env.ts) is the user's to fix, not a bug.
  if (e instanceof Error && e.name === 'RuleConfigError') return `${prefix}${e.message}`;
  if (e instanceof EncodeError) return `${prefix}cannot write: ${e.message}`;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('E')) return `${prefix}${fsMessage(code, e as Error)}`;
  const msg = e instanceof Error ? e.message : String(e);
  return `${prefix}internal error: ${msg} (this is a LodSmith bug; --debug shows the stack)`;
}

function fsMessage(code: string, e: Error): string {
  switch (code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EISDIR': return 'is a directory, not a file';
    case 'ENOTDIR': return 'not a directory';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    default: return e.message;
  }
}

/** An error that already knows which file it is about. */
export class FileError extends Error {
  override readonly name = 'FileError';
  readonly file: string;
  override readonly cause: unknown;
  constructor(file: string, cause: unknown) {
    super(describeError(cause, file));
    this.file = file;
    this.cause = cause;
  }
}
