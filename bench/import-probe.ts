/**
 * Peak memory of one glTF import, in a fresh process (like memory-probe.ts for decodes).
 * `node --expose-gc bench/import-probe.ts <format-id> <file.glb> [version]`; prints one JSON line.
 * The baseline is taken after the modules are loaded, before the GLB is read: the peak includes
 * the input itself and the encoded output, which is what an import of an N-byte GLB costs.
 */
import { readFileSync } from 'node:fs';
import { highWaterMark, resetHighWaterMark } from './lib/high-water.ts';
import '../shared/formats/index.ts';
import type { FormatId } from '../shared/formats/registry.ts';
import { importGltf } from '../shared/import/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
const [format, file, version] = process.argv.slice(2);
if (!format || !file) throw new Error('usage: import-probe.ts <format> <file.glb> [version]');
gc?.();
gc?.();
const baselineRss = process.memoryUsage().rss;
const hwmReset = resetHighWaterMark();
const buf = readFileSync(file);
let error: string | undefined;
let outBytes = 0;
try {
  const r = await importGltf({ kind: 'glb', bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) }, format as FormatId, version ? { version } : {});
  outBytes = r.bytes.length;
} catch (e) {
  error = (e as Error).message;
}
const peakRss = highWaterMark();
process.stdout.write(`${JSON.stringify({ bytes: buf.length, outBytes, baselineRss, peakRss, peakDelta: Math.max(0, peakRss - baselineRss), hwmReset, ...(error ? { error } : {}) })}\n`);
