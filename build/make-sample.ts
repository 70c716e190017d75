/**
 * Writes build/sample/sample.lod, the model the app opens when started without a file, from the
 * project's own fixture builder. The output is committed (so `npm start` and packaging need no
 * extra step); test/unit/doc-service-sample.test.ts fails when it no longer matches what this
 * script produces. Run: `node build/make-sample.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lodkaCodec } from '../shared/formats/lodka/codec.ts';
import { buildSampleLod } from '../scripts/fixtures/lodka.ts';

/** The sample's bytes, as this script writes them. */
export function sampleBytes(): Uint8Array {
  return lodkaCodec.encode(buildSampleLod(), { reuseRaw: false });
}

export const SAMPLE_FILE = join(dirname(fileURLToPath(import.meta.url)), 'sample', 'sample.lod');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bytes = sampleBytes();
  mkdirSync(dirname(SAMPLE_FILE), { recursive: true });
  writeFileSync(SAMPLE_FILE, bytes);
  console.log(`wrote ${SAMPLE_FILE} (${bytes.length} bytes)`);
}
