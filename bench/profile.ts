/**
 * A steady loop over one benchmark workload, for a CPU profile of whatever misses its target:
 *
 *   node --cpu-prof --cpu-prof-dir=bench/results/profiles bench/profile.ts lzo1x
 *   node --cpu-prof --cpu-prof-dir=bench/results/profiles bench/profile.ts lodka-lod [--seconds 10]
 *   node --cpu-prof ... bench/profile.ts p3d-odol path/to/file.p3d
 *   node --cpu-prof ... bench/profile.ts p3d-odol --corpus     (decode every corpus file, as the corpus rows do)
 *
 * Workloads: `lzo1x` / `lzss` (decompress 16 MB of model-like data), or a format id (decode and
 * encode its large generated input, or the file given). Then summarise the profile with
 * `node bench/profile.ts --top bench/results/profiles/<file>.cpuprofile`.
 */
import { readFileSync } from 'node:fs';
import { formatById, type FormatId } from '../shared/formats/index.ts';
import { lzo1xCompress, lzo1xDecompress } from '../shared/binary/lzo1x.ts';
import { lzssCompress, lzssDecompress } from '../shared/binary/lzss.ts';
import { corpusInputs, GENERATED, loadBuilder } from './lib/inputs.ts';
import { meshLikeBytes } from './lib/mesh-data.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Self time per function of a .cpuprofile, highest first. */
function top(file: string, n = 25): void {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const total = prof.samples.length;
  const byFn = new Map<string, number>();
  for (const node of prof.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(shared|bench|fuzz)\//, '$1/')}:${f.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  const rows = [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  for (const [k, v] of rows) console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--top') return top(argv[1]!, Number(argv[2] ?? 25));
  const what = argv[0];
  const secIdx = argv.indexOf('--seconds');
  const seconds = secIdx >= 0 ? Number(argv[secIdx + 1]) : 8;
  const file = argv[1] && !argv[1].startsWith('--') ? argv[1] : undefined;
  if (!what) throw new Error('usage: bench/profile.ts <lzo1x|lzss|format-id> [file] [--seconds S] | --top <profile>');
  const end = performance.now() + seconds * 1000;
  let loops = 0;
  if (what === 'lzo1x' || what === 'lzss') {
    const raw = meshLikeBytes(16 << 20, 7);
    const packed = what === 'lzo1x' ? lzo1xCompress(raw) : lzssCompress(raw);
    const dec = what === 'lzo1x' ? () => lzo1xDecompress(packed, 0, raw.length) : () => lzssDecompress(packed, 0, raw.length);
    while (performance.now() < end) {
      dec();
      loops++;
    }
  } else {
    const codec = formatById(what as FormatId);
    if (argv.includes('--corpus')) {
      // The corpus rows' work: every file decoded one at a time, each document dropped.
      const files = corpusInputs(what as FormatId).map((f) => new Uint8Array(readFileSync(f.file)));
      if (files.length === 0) throw new Error(`no corpus files for ${what}`);
      while (performance.now() < end) {
        for (const f of files) codec.decode(f);
        loops++;
      }
      console.log(`${what}: ${loops} pass(es) over ${files.length} corpus files in ${seconds} s`);
      return;
    }
    let bytes: Uint8Array;
    if (file) bytes = new Uint8Array(readFileSync(file));
    else {
      const spec = GENERATED.find((g) => g.format === what);
      if (!spec) throw new Error(`no generated input for ${what}; give a file`);
      const b = await loadBuilder(spec);
      if (!b.ok) throw new Error(b.reason);
      bytes = await b.build(...spec.args(false));
    }
    while (performance.now() < end) {
      const doc = codec.decode(bytes);
      codec.encode(doc, { reuseRaw: false });
      loops++;
    }
  }
  console.log(`${what}: ${loops} loop(s) in ${seconds} s`);
}

await main();
