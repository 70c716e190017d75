/**
 * Our ODOL decoder beside BIS-Toolkit's (a TypeScript ODOL reader for versions 53 and 54), on the
 * corpus files of those versions, in one process, when this machine has the peer: the issue asks
 * for at least 2.5 times its speed. The peer's code is never part of this repository;
 * `LODSMITH_BENCH_BIS_TOOLKIT` (default: ../shared/peers/bis-odol/decode.mjs, peer-paths.ts) names
 * an ES module outside it whose `decode` export (or default export) reads one file's bytes with
 * the peer, e.g.
 *
 * ```js
 * import { Odol } from './dist/odol.js';
 * export const decode = (bytes) => Odol.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
 * ```
 *
 * Without it the row is a MISS saying "peer missing".
 *
 * Both decoders take every file one at a time, each document dropped before the next (as a
 * command goes through files), warmed up until their CPU time per pass stops improving; then
 * passes alternate between the two and the figure is the median of per-pass ratios of CPU time
 * (which the machine's load moves less than wall time).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { corpusInputs } from './inputs.ts';
import { bisToolkitModule, peersDir } from './peer-paths.ts';
import type { Row } from './report.ts';
import { median, warmUp } from './timing.ts';

type Decode = (bytes: Uint8Array) => unknown;

/** Issue 26: at least 2.5x BIS-Toolkit's speed on the versions it reads. */
const TARGET = 2.5;

function passCpuMs(files: readonly Uint8Array[], decode: Decode): number {
  const c0 = process.cpuUsage();
  let last: unknown;
  for (const f of files) last = decode(f);
  const c = process.cpuUsage(c0);
  if (last === undefined) throw new Error('a decoder returned nothing');
  return (c.user + c.system) / 1000;
}

export async function benchOdolPeer(codec: FormatCodec | undefined, quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const path = bisToolkitModule();
  if (!codec) return [];
  // The versions the peer reads, as our own codec reports them.
  const files = corpusInputs('p3d-odol')
    .map((f) => ({ ...f, data: new Uint8Array(readFileSync(f.file)) }))
    .filter((f) => [53, 54].includes(Number(codec.info(codec.decode(f.data), f.bytes).version)));
  const bytes = files.reduce((a, f) => a + f.bytes, 0);
  const row: Row = {
    section: 'codec', subject: 'p3d-odol', input: `corpus v53/v54 (${files.length} files)`, bytes, metric: 'decode vs BIS-Toolkit', value: null, unit: 'x',
    target: `>= ${TARGET}x`, verdict: 'MISS',
  };
  if (!path) return [{ ...row, note: `peer missing: BIS-Toolkit's reader is neither in ${peersDir}/bis-odol nor named by LODSMITH_BENCH_BIS_TOOLKIT` }];
  if (files.length === 0) return [{ ...row, note: 'not measured: no v53/v54 ODOL files in the corpus' }];
  const mod = (await import(pathToFileURL(path).href)) as { decode?: Decode; default?: Decode };
  const peer = mod.decode ?? mod.default;
  if (typeof peer !== 'function') return [{ ...row, note: `not measured: ${path} exports no decode function` }];
  const ours: Decode = (b) => codec.decode(b);
  const data = files.map((f) => f.data);
  // Each must read every file before either is timed.
  for (const f of files) {
    ours(f.data);
    peer(f.data);
  }
  log(`p3d-odol: ${files.length} v53/v54 files beside BIS-Toolkit (${path})`);
  for (const decode of [ours, peer]) warmUp(() => passCpuMs(data, decode), quick ? 500 : 1500, 10_000);
  const rounds = quick ? 15 : 61;
  const ratios: number[] = [];
  const oursMs: number[] = [];
  const peerMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const o = passCpuMs(data, ours);
    const p = passCpuMs(data, peer);
    oursMs.push(o);
    peerMs.push(p);
    if (o > 0) ratios.push(p / o);
  }
  const ratio = median(ratios);
  const mbps = (ms: number): string => `${(bytes / 1e3 / ms).toFixed(0)} MB/s`;
  return [{
    ...row, value: ratio, verdict: ratio >= TARGET ? 'PASS' : 'MISS',
    note: `CPU time per pass over the files (median of ${rounds} alternating passes): ours ${median(oursMs).toFixed(2)} ms (${mbps(median(oursMs))}), BIS-Toolkit ${median(peerMs).toFixed(2)} ms (${mbps(median(peerMs))}); ratio = median of per-pass ratios; peer module ${path}`,
  }];
}
