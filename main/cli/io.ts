/**
 * Where a command writes. Commands never touch `process` directly, so tests run them in-process
 * against memory streams and the same code serves the real terminal.
 */

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

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}

/** Writes a chunk and waits for the stream to drain when its buffer is full (backpressure). */
export async function write(out: OutStream, chunk: string | Uint8Array): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/** Writes lines, each ending in a newline. */
export async function writeLines(out: OutStream, lines: readonly string[]): Promise<void> {
  if (lines.length) await write(out, lines.join('\n') + '\n');
}
