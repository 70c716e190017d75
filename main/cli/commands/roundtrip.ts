/** `lodsmith roundtrip FILE...`: does each file save back byte for byte? */
import { describeError, EXIT_FAILED, EXIT_OK, EXIT_PROBLEMS } from '../fail.ts';
import { writeJson, writeLines, type CliIO } from '../io.ts';
import { includeOptions, loadModel } from '../load.ts';
import { count } from '../text.ts';
import { describeDiff, roundTrip, type RoundTripDiff } from '../verify.ts';

export interface RoundTripOptions {
  strict?: boolean;
  json?: boolean;
  debug?: boolean;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
}

interface FileResult {
  file: string;
  format?: string;
  bytes?: number;
  result: 'ok' | 'differs' | 'error';
  diff?: RoundTripDiff;
  error?: string;
}

/**
 * Every file is tried even after a failure. Exit 2 when any file could not be read or decoded,
 * else 1 when any differs, else 0.
 */
export async function runRoundTrip(files: readonly string[], opts: RoundTripOptions, io: CliIO): Promise<number> {
  const results: FileResult[] = [];
  const width = Math.max(...files.map((f) => f.length));
  for (const file of files) {
    let r: FileResult;
    try {
      // Deferred: an untouched file saves from its stored bytes, so its large arrays need not be
      // made (--strict's second decode makes every one, from fields).
      const { codec, doc, bytes } = await loadModel(file, io.cwd, opts.maxMemory, true);
      const diff = roundTrip(codec, bytes, file, doc, !!opts.strict, opts.maxMemory, includeOptions(codec, file, io.cwd, file).readInclude);
      r = { file, format: codec.id, bytes: bytes.length, result: diff ? 'differs' : 'ok', diff };
    } catch (e) {
      if (opts.debug) await writeLines(io.stderr, String((e as Error)?.stack ?? e).split('\n'));
      r = { file, result: 'error', error: describeError(e) };
      if (!opts.json) await writeLines(io.stderr, [`lodsmith: ${describeError(e, file)}`]);
    }
    results.push(r);
    if (!opts.json && r.result !== 'error') {
      const what = r.result === 'ok' ? `${r.format}, ${count(r.bytes!)} bytes${opts.strict ? ', also from fields' : ''}` : describeDiff(r.diff!);
      await writeLines(io.stdout, [`${r.result === 'ok' ? 'OK  ' : 'DIFF'}  ${file.padEnd(width)}  ${what}`]);
    }
  }
  if (opts.json) await writeJson(io.stdout, { strict: !!opts.strict, files: results });
  if (results.some((r) => r.result === 'error')) return EXIT_FAILED;
  return results.some((r) => r.result === 'differs') ? EXIT_PROBLEMS : EXIT_OK;
}
