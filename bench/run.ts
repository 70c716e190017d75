/**
 * `npm run bench`: codec and compression throughput, peak memory, and the targets they are held
 * to, on the real corpus and on large generated files. `--quick` for a short run (fewer timed
 * runs, generated inputs at a tenth of their size), `--json` for machine output, `--only <ids>`
 * (comma separated formats, or `compression`) to restrict.
 *
 * Every throughput is printed beside a memcpy baseline of the same size measured in the same run,
 * and LZO decompression beside liblzo2 on the same stream, so the ratios mean something on any
 * machine. Results also go to bench/results/latest.json (not committed), or to `--out FILE`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatById, type FormatCodec, type FormatId } from '../shared/formats/index.ts';
import { hasCorpus, repoRoot } from '../test/helpers/corpus.ts';
import { benchCodec } from './lib/codecs.ts';
import { benchBombs } from './lib/bombs.ts';
import { benchCompression } from './lib/compression.ts';
import { benchImport } from './lib/import.ts';
import { benchPreviewVsGltf } from './lib/gltf-reference.ts';
import { corpusInputs, FORMAT_IDS, GENERATED, loadBuilder, shortName } from './lib/inputs.ts';
import { measureFirstFrame, type PreviewInput } from './lib/preview-hook.ts';
import { benchCheck, benchProcesses } from './lib/process.ts';
import { benchCommandMemory } from './lib/command-memory.ts';
import { benchOdolPeer } from './lib/odol-peer.ts';
import { benchOdolVsLzo } from './lib/odol-lzo.ts';
import { benchPeers } from './lib/peers.ts';
import { benchBrowserSoak, benchSoak } from './lib/soak.ts';
import { renderTable, type Row } from './lib/report.ts';
import { benchTexturedFirstFrame, benchTextures } from './lib/textures.ts';
import { FULL_PLAN, freshMemoryMbPerSecond, memcpyMbPerSecond, QUICK_PLAN } from './lib/timing.ts';

interface Args {
  json: boolean;
  quick: boolean;
  only: string[];
  /** Formats the command-memory section runs (all when empty). */
  formats: string[];
  out: string;
}

const USAGE = 'usage: npm run bench -- [--quick] [--json] [--only lodka-lod,p3d-odol,compression,textures,import,process,check,command-memory,soak,soak-browser,bombs,preview,preview-gltf,...] [--formats p3d-mlod,... (command-memory only)] [--out FILE]';

/** A wrong command line: said in one line with the usage, not as a stack trace. */
class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { json: false, quick: false, only: [], formats: [], out: join(repoRoot, 'bench/results/latest.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--quick') args.quick = true;
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--formats') args.formats = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--out') {
      const f = argv[++i];
      if (!f) throw new UsageError('--out needs a file name');
      args.out = resolve(f);
    }
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${a}`);
  }
  return args;
}

function registered(id: FormatId): FormatCodec | undefined {
  try {
    return formatById(id);
  } catch {
    return undefined;
  }
}

/** Real files up to this size get the 0.5 s open-to-first-frame target ("about 3 MB or less"). */
const PREVIEW_SMALL_FILE_BYTES = 4_000_000;

/**
 * The large generated LODka file (2M triangles; `--quick`: 1/10) written to a fresh temp folder,
 * which becomes the host's only root, or the row saying why it could not be made.
 */
async function largePreviewInput(quick: boolean, log: (s: string) => void): Promise<PreviewInput | { row: Row }> {
  const spec = GENERATED.find((g) => g.format === 'lodka-lod')!;
  const label = quick ? 'generated 200k tris (quick: 1/10 size)' : spec.label;
  const row: Row = { section: 'preview', subject: spec.format, input: label, bytes: 0, metric: 'latency', value: null, unit: 's', target: '< 3000 ms', verdict: 'n/a' };
  const builder = await loadBuilder(spec);
  if (!builder.ok) return { row: { ...row, note: `not measured: ${builder.reason}` } };
  log(`preview: building the ${label} LODka input`);
  const bytes = await builder.build(...spec.args(quick));
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-preview-'));
  const file = join(dir, quick ? 'generated-200k.lod' : 'generated-2m.lod');
  writeFileSync(file, bytes);
  return { label, file, bytes: bytes.length, format: spec.format, target: 3 };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const plan = args.quick ? QUICK_PLAN : FULL_PLAN;
  // Progress goes to stderr so `--json` output stays clean.
  const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
  const sections = ['compression', ...FORMAT_IDS, 'textures', 'import', 'process', 'check', 'command-memory', 'soak', 'soak-browser', 'bombs', 'preview-gltf', 'preview'];
  const unknown = args.only.filter((o) => !sections.includes(o));
  if (unknown.length > 0) throw new UsageError(`--only: unknown ${unknown.join(', ')} (known: ${sections.join(', ')})`);
  const wants = (what: string) => args.only.length === 0 || args.only.includes(what);
  const rows: Row[] = [];
  const started = new Date();

  const env = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGB: Math.round(totalmem() / 1e9),
    quick: args.quick,
    plan,
    corpus: hasCorpus ? 'present' : 'absent (real-file rows skipped)',
    loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
  };
  log(`${env.cpu}, ${env.cores} cores, node ${env.node}, ${args.quick ? 'quick' : 'full'} run`);

  for (const size of [1 << 20, 64 << 20]) {
    rows.push({ section: 'baseline', subject: 'memcpy', input: 'typed array copy', bytes: size, metric: 'copy', value: memcpyMbPerSecond(size, plan), unit: 'MB/s', vsMemcpy: 1, verdict: '-' });
  }
  {
    // New memory: a bound for every row whose work makes new memory (see freshMemoryMbPerSecond).
    const size = 64 << 20;
    const fresh = freshMemoryMbPerSecond(size, plan);
    const copy = rows.find((r) => r.subject === 'memcpy' && r.bytes === size)!.value!;
    rows.push({
      section: 'baseline', subject: 'new memory', input: 'new typed array, filled once', bytes: size, metric: 'first write', value: fresh, unit: 'MB/s', vsMemcpy: fresh / copy, verdict: '-',
      note: `each 4 KiB page faults on first touch: ${((4096 / (fresh * 1e6)) * 1e6).toFixed(1)} us a page here; a row that makes this much new memory cannot run faster than this`,
    });
  }

  if (wants('compression')) {
    const size = args.quick ? 8 << 20 : 64 << 20;
    const lzssSize = args.quick ? 4 << 20 : 16 << 20;
    rows.push(...(await benchCompression(size, lzssSize, plan, log)));
    rows.push(...(await benchPeers(args.quick, log)));
  }

  for (const id of FORMAT_IDS) {
    if (!wants(id)) continue;
    rows.push(...(await benchCodec(id, registered(id), { plan, quick: args.quick, only: args.only, log })));
    // Side by side with BIS-Toolkit when this machine has it (LODSMITH_BENCH_BIS_TOOLKIT).
    if (id === 'p3d-odol') rows.push(...(await benchOdolPeer(registered(id), args.quick, log)), ...benchOdolVsLzo(registered(id), args.quick, log));
  }

  if (wants('textures')) {
    rows.push(...(await benchTextures(plan, args.quick, log)));
    rows.push(...(await benchTexturedFirstFrame(args.quick, log)));
  }
  if (wants('import')) rows.push(...(await benchImport(args.quick, log)));
  if (wants('process')) rows.push(...(await benchProcesses(args.quick, log)));
  if (wants('check')) rows.push(...(await benchCheck(args.quick, log)));
  if (wants('soak')) rows.push(...benchSoak(args.quick, log));
  // The browser-host half: with `--only soak` too (one goal), or alone with `--only soak-browser`.
  if (wants('soak') || wants('soak-browser')) rows.push(...(await benchBrowserSoak(args.quick, log)));
  if (wants('command-memory')) rows.push(...(await benchCommandMemory(args.quick, log, args.formats)));

  if (wants('preview')) {
    // The largest real file of each format, opened through the app's own Open dialog. Real files
    // of about 3 MB or less are held to 0.5 s; the large generated LODka file to 3 s.
    const files: PreviewInput[] = FORMAT_IDS.flatMap((id) => {
      const all = corpusInputs(id);
      if (all.length === 0) return [];
      const largest = all.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      return [{ label: `largest: ${shortName(largest.file)}`, file: largest.file, bytes: largest.bytes, format: id, ...(largest.bytes <= PREVIEW_SMALL_FILE_BYTES ? { target: 0.5 } : {}) }];
    });
    const large = await largePreviewInput(args.quick, log);
    if ('file' in large) files.push(large);
    rows.push(...(await measureFirstFrame(files, args.quick ? 1 : 3, log)));
    if ('file' in large) rmSync(dirname(large.file), { recursive: true, force: true });
    else rows.push(large.row);
  }
  // Goal 5: the same opens against three.js's GLTFLoader drawing the models' glTF exports.
  if (wants('preview-gltf')) rows.push(...(await benchPreviewVsGltf(args.quick, log)));

  // Decompression bombs through the real CLI: refused in one line, exit 2, in under 2 s.
  if (wants('bombs')) rows.push(...benchBombs(log));

  const result = { started: started.toISOString(), seconds: (Date.now() - started.getTime()) / 1000, env: { ...env, loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))) }, rows };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);

  if (args.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  console.log(`LodSmith benchmark, ${started.toISOString()}: ${env.cpu}, ${env.cores} cores, ${env.memoryGB} GB, node ${env.node}`);
  console.log(`median of ${plan.runs} runs after ${plan.warmup} warm-up${args.quick ? ' (quick run)' : ''}; MB = 10^6 bytes; x memcpy = figure / copy speed of a typed array of the same size`);
  console.log(`corpus: ${env.corpus}; load average ${env.loadAverageAtStart.join(' ')} at start, ${result.env.loadAverageAtEnd.join(' ')} at end (a load above the core count makes every figure noisy)`);
  console.log(renderTable(rows));
  const misses = rows.filter((r) => r.verdict === 'MISS');
  const unmeasured = rows.filter((r) => r.verdict === 'n/a');
  console.log(`\n${rows.filter((r) => r.verdict === 'PASS').length} PASS, ${misses.length} MISS, ${unmeasured.length} not measured; ${result.seconds.toFixed(0)} s`);
}

await main().catch((e: unknown) => {
  if (!(e instanceof UsageError)) throw e;
  console.error(`bench: ${e.message}\n${USAGE}`);
  process.exitCode = 2;
});
