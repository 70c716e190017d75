/**
 * Where a command writes. Commands never touch `process` directly, so tests run them in-process
 * against memory streams and the same code serves the real terminal.
 */
import { writeSync } from 'node:fs';

/** The part of a Node writable stream the CLI uses (process.stdout satisfies it). */
export interface OutStream {
  write(chunk: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  /** Directory relative paths are resolved against. */
  cwd: string;
}

/** `lodsmith dump x | head` closes the pipe early; that is the reader's choice, not an error. */
function endOnClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
}

/**
 * A process's standard output written with `fs.writeSync`: creating `process.stdout` loads
 * Node's stream modules and costs 1-2 ms of a 30 ms command, more than printing a summary.
 * The stream is created only when it is needed: when the descriptor refuses a write for now
 * (EAGAIN: a non-blocking pipe that is full), when the caller waits for `drain`, or for its TTY
 * properties. From then on everything goes through the stream, so the order of output is kept.
 */
export class FdOut implements OutStream {
  #stream: NodeJS.WriteStream | undefined;
  private readonly fd: number;
  private readonly open: () => NodeJS.WriteStream;
  private readonly writeFd: (fd: number, bytes: Uint8Array, offset: number) => number;

  /** `writeFd` is `fs.writeSync` (tests pass one that refuses writes). */
  constructor(fd: number, open: () => NodeJS.WriteStream, writeFd: (fd: number, bytes: Uint8Array, offset: number) => number = writeSync) {
    this.fd = fd;
    this.open = open;
    this.writeFd = writeFd;
  }

  private stream(): NodeJS.WriteStream {
    if (!this.#stream) {
      this.#stream = this.open();
      this.#stream.on('error', endOnClosedPipe);
    }
    return this.#stream;
  }

  get isTTY(): boolean {
    return this.stream().isTTY;
  }

  get columns(): number | undefined {
    return this.stream().columns;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.#stream) return this.#stream.write(chunk);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += this.writeFd(this.fd, bytes, done);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return this.stream().write(bytes.subarray(done));
      endOnClosedPipe(e as NodeJS.ErrnoException);
      return false;
    }
  }

  once(event: 'drain', listener: () => void): this {
    this.stream().once(event, listener);
    return this;
  }
}

/** The process's own output: stdout written directly (see FdOut), stderr created on first use. */
export function processIO(): CliIO {
  let stderr: NodeJS.WriteStream | undefined;
  return {
    stdout: new FdOut(1, () => process.stdout),
    get stderr() {
      if (!stderr) {
        stderr = process.stderr;
        stderr.on('error', endOnClosedPipe);
      }
      return stderr;
    },
    cwd: process.cwd(),
  };
}

/** Writes a chunk and waits for the stream to drain when its buffer is full (backpressure). */
export async function write(out: OutStream, chunk: string | Uint8Array): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/** C0 controls, DEL and C1 controls (U+0080..U+009F, where U+009B is a one-character CSI). */
// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const READABLE: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from a file (names, messages quoting names) made safe for a terminal: every control
 * character becomes a readable escape (`\n`, `\r`, `\t`, else `\xNN`), so an ESC sequence, a
 * BEL or a one-character CSI in a model's names is shown, never obeyed.
 */
export function escapeControls(s: string): string {
  return s.replace(CONTROLS, (c) => READABLE[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const JSON_UNESCAPED = /[\u007f-\u009f]/g;

/**
 * JSON text safe for a terminal: JSON.stringify escapes C0 but leaves DEL and C1 as they are,
 * so they become `\u00XX` too. They can only sit inside strings, where the escape means the
 * same character: the output stays valid JSON and parses to the same value.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNESCAPED, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** Writes lines, each ending in a newline, with every control character escaped (see escapeControls). */
export async function writeLines(out: OutStream, lines: readonly string[]): Promise<void> {
  if (lines.length) await write(out, lines.map(escapeControls).join('\n') + '\n');
}

/** Writes a value as indented JSON and a newline, terminal-safe (see terminalSafeJson). */
export async function writeJson(out: OutStream, value: unknown, replacer?: (key: string, v: unknown) => unknown): Promise<void> {
  await write(out, terminalSafeJson(JSON.stringify(value, replacer as never, 2)) + '\n');
}

/** Writes a whole output file under a temporary name and renames it: a crash half-way never leaves a truncated file. */
export async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const { rename, unlink, writeFile } = await import('node:fs/promises');
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
