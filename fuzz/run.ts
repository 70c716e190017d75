/**
 * `npm run fuzz`: mutates real corpus files and generated files of every registered format
 * (bit flips, truncations, splices, and structure-aware forgeries of the counts, sizes, offsets
 * and chunk lengths at the decoded nodes' starts) and runs each input through the whole pipeline:
 * decode, info, validate, outline and inspector rows, scene, glTF export (a fixed sample checked
 * by the Khronos validator), encode. Each input must end in success or a DecodeError, within a
 * time limit, with decoding inside the decoding memory budget and the whole pipeline within a
 * small multiple of the input.
 *
 *   npm run fuzz -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B] [--workers W]
 *                   [--gltf-every N] [--decode-only] [--no-save] [--json]
 *
 * Failures are saved to test/fixtures/crashes/<format>-<hash>.bin with a .json note, where the
 * regression test (test/unit/fuzz-crashes.test.ts) picks them up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../test/helpers/corpus.ts';
import { runFuzz, type FuzzStats } from './lib/engine.ts';
import { loadSeeds } from './lib/seeds.ts';

interface Args {
  inputs: number;
  seconds: number;
  seed: number;
  maxSeedBytes: number;
  workers: number;
  save: boolean;
  json: boolean;
  gltfEvery: number;
  pipeline: boolean;
}

const USAGE = 'usage: npm run fuzz -- [--inputs N] [--seconds S] [--seed K] [--max-seed-bytes B] [--workers W] [--gltf-every N] [--decode-only] [--no-save] [--json]';

/** A wrong command line: said in one line with the usage, not as a stack trace. */
class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Args {
  const a: Args = { inputs: 10_000, seconds: 600, seed: 1, maxSeedBytes: 4 << 20, workers: 2, save: true, json: false, gltfEvery: 20, pipeline: true };
  const num = (i: number) => {
    const v = Number(argv[i]);
    if (!Number.isFinite(v) || v < 0) throw new UsageError(`${argv[i - 1]} needs a number, got ${argv[i]}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--inputs': a.inputs = num(++i); break;
      case '--seconds': a.seconds = num(++i); break;
      case '--seed': a.seed = num(++i); break;
      case '--max-seed-bytes': a.maxSeedBytes = num(++i); break;
      case '--workers': a.workers = Math.max(1, num(++i)); break;
      case '--gltf-every': a.gltfEvery = num(++i); break;
      case '--decode-only': a.pipeline = false; break;
      case '--no-save': a.save = false; break;
      case '--json': a.json = true; break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: throw new UsageError(`unknown argument ${argv[i]}`);
    }
  }
  return a;
}

function summary(s: FuzzStats): string {
  const lines = [
    `${s.inputs} inputs in ${s.seconds.toFixed(1)} s (${(s.inputs / Math.max(s.seconds, 1e-9)).toFixed(0)}/s), ${s.restarts} worker restart(s)`,
    `${((1000 * s.cpuSeconds) / Math.max(s.inputs, 1)).toFixed(2)} ms of worker CPU per input (${s.cpuSeconds.toFixed(1)} s in all); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `${s.gltfChecked} glTF export(s) checked by the Khronos validator; ${s.slowRetries} input(s) missed the time limit once and finished on a second run with ten times it`,
  ];
  for (const [format, counts] of Object.entries(s.byFormat).sort()) {
    lines.push(`  ${format.padEnd(20)} ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  lines.push(`${s.findings.length} distinct failure(s)`);
  for (const f of s.findings) {
    lines.push(`  [${f.outcome}] ${f.format}: ${f.message.slice(0, 200)} (${f.hits} hit(s); first input #${f.input}, seed ${f.seedName}, ${f.mutation.slice(0, 120)})${f.file ? ` -> ${f.file}` : ''}`);
    const frame = f.stack.split('\n').find((l) => l.trim().startsWith('at '));
    if (frame) lines.push(`      ${frame.trim()}`);
  }
  for (const m of s.mismatches) {
    lines.push(`  [mismatch] ${m.format}: ${m.hits} accepted input(s) did not save back byte-identical; first #${m.input}, seed ${m.seedName}, ${m.mutation.slice(0, 120)}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { seeds, skipped } = await loadSeeds({ maxBytes: args.maxSeedBytes, generated: true });
  const formats = [...new Set(seeds.map((s) => s.format))].sort();
  process.stderr.write(`fuzz: ${seeds.length} seeds in ${formats.length} format(s) [${formats.join(', ')}], ${seeds.reduce((n, s) => n + s.streams.length, 0)} compressed streams located; seed ${args.seed}\n`);
  for (const s of skipped) process.stderr.write(`fuzz: skipped ${s}\n`);
  // SIGINT/SIGTERM end the run after the inputs in flight, and the summary is still printed.
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
  const stats = await runFuzz({
    signal: stop.signal,
    seed: args.seed,
    inputs: args.inputs,
    seconds: args.seconds,
    seeds,
    concurrency: args.workers,
    gltfEvery: args.gltfEvery,
    pipeline: args.pipeline,
    ...(args.save ? { saveDir: join(repoRoot, 'test/fixtures/crashes') } : {}),
    onProgress: (s) => process.stderr.write(`fuzz: ${s.inputs} inputs, ${s.findings.length} failure(s), ${s.seconds.toFixed(0)} s\n`),
  });
  // Lossy re-encodes are not regression inputs, but their owners need the bytes to look at.
  if (stats.mismatches.length) {
    const dir = join(tmpdir(), 'lodsmith-fuzz-mismatches');
    mkdirSync(dir, { recursive: true });
    for (const m of stats.mismatches) writeFileSync(join(dir, `${m.format}-seed${args.seed}-input${m.input}.bin`), m.bytes);
    process.stderr.write(`fuzz: first lossy input of each format written to ${dir}\n`);
  }
  if (args.json) {
    const { findings, mismatches, ...rest } = stats;
    const plain = (list: typeof findings) => list.map(({ bytes, ...f }) => ({ ...f, bytes: bytes.length }));
    process.stdout.write(`${JSON.stringify({ seed: args.seed, seeds: seeds.length, formats, ...rest, findings: plain(findings), mismatches: plain(mismatches) }, null, 2)}\n`);
  } else {
    console.log(summary(stats));
  }
  process.exitCode = stats.findings.length > 0 ? 1 : 0;
}

await main().catch((e: unknown) => {
  if (!(e instanceof UsageError)) throw e;
  console.error(`fuzz: ${e.message}\n${USAGE}`);
  process.exitCode = 2;
});
