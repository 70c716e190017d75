/** In-memory stdout/stderr for running CLI commands in-process. */
import { Writable } from 'node:stream';
import type { CliIO } from '../../../main/cli/io.ts';

export interface MemoryIO {
  io: CliIO;
  out(): string;
  err(): string;
  /** How many times stdout asked the writer to wait (proves backpressure is honoured). */
  drains(): number;
  /** Ends both streams and waits until everything written has reached the buffers. */
  flush(): Promise<void>;
}

/**
 * A tiny high-water mark and an asynchronous sink make stdout report "full" often, so a writer
 * that ignores backpressure would pile up unbounded buffers.
 */
export function memoryIO(cwd = process.cwd(), opts: { tty?: boolean } = {}): MemoryIO {
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  let drains = 0;
  const sink = (into: Buffer[]): Writable =>
    new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        into.push(Buffer.from(chunk));
        setImmediate(cb);
      },
    });
  const stdout = sink(outChunks);
  stdout.on('drain', () => drains++);
  const stderr = sink(errChunks) as Writable & { isTTY?: boolean; columns?: number };
  if (opts.tty) {
    stderr.isTTY = true;
    stderr.columns = 100;
  }
  return {
    io: { stdout, stderr, cwd },
    out: () => Buffer.concat(outChunks).toString('utf8'),
    err: () => Buffer.concat(errChunks).toString('utf8'),
    drains: () => drains,
    flush: async () => {
      await Promise.all([stdout, stderr].map((s) => new Promise<void>((resolve) => s.end(resolve))));
    },
  };
}

/** Runs the CLI in-process in `cwd` and returns its exit code and both streams as text. */
export async function runCliIn(cwd: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { runCli } = await import('../../../main/cli/program.ts');
  const m = memoryIO(cwd);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}
