/**
 * `npm run fixtures [-- OUTDIR]`: writes every fixture the project generates from code (default
 * folder test/fixtures/generated, which git ignores), one subfolder per format, so they can be
 * opened in the editor or checked with the CLI:
 *
 *   npm run fixtures && npx lodsmith roundtrip --strict test/fixtures/generated/*\/*
 *
 * The builders live in scripts/fixtures/<format>.ts; the tests import the same builders, so what
 * this writes is exactly what the round-trip and property tests cover.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeLod } from '../shared/formats/lodka/encode.ts';
import { encodeMlod } from '../shared/formats/p3d/mlod/encode.ts';
import { odolCodec } from '../shared/formats/p3d/odol/index.ts';
import { encodeFixture as encodeGrimrock, grimrockFixtures } from './fixtures/grimrock.ts';
import { buildSampleLod, lodkaFixtures } from './fixtures/lodka.ts';
import { buildSampleMlod } from './fixtures/mlod.ts';
import { buildOdolDocument, buildOdolV7 } from './fixtures/odol.ts';
import { encodeFixture as encodeUnigine, unigineFixtures } from './fixtures/unigine.ts';
import { buildPuppetRtm, buildRtmPuppet, encodeRtmFixture, rtmFixtures } from './fixtures/rtm.ts';
import { encodeRtm } from '../shared/formats/p3d/rtm/io.ts';
import { buildModelCfgSample } from './fixtures/modelcfg.ts';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = resolve(process.argv[2] ?? join(repoRoot, 'test/fixtures/generated'));

let count = 0;
function write(folder: string, name: string, bytes: Uint8Array, covers = ''): void {
  const dir = join(outDir, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), bytes);
  count++;
  console.log(`${folder}/${name}\t${bytes.length} bytes${covers ? `\t${covers}` : ''}`);
}

for (const fx of lodkaFixtures()) write('lodka', fx.name, encodeLod(fx.doc), fx.covers);
write('lodka', 'sample.lod', encodeLod(buildSampleLod()), 'the sample the editor opens');
for (const fx of grimrockFixtures()) write('grimrock', fx.name, encodeGrimrock(fx), fx.covers);
for (const fx of unigineFixtures()) write('unigine', fx.name, encodeUnigine(fx), fx.covers);
write('p3d', 'sample-mlod.p3d', encodeMlod(buildSampleMlod()), 'MLOD with P3DM and SP3X LODs and every tag kind');
write('p3d', 'odol-v7.p3d', buildOdolV7(), 'ODOL v7 (Operation Flashpoint), LZSS arrays');
for (const version of [40, 48, 50, 53, 54, 68, 73]) {
  write('p3d', `odol-v${version}.p3d`, odolCodec.encode(buildOdolDocument({ version, animated: true })), `ODOL v${version}`);
}
for (const fx of rtmFixtures()) write('rtm', fx.name, encodeRtmFixture(fx), fx.covers);
write('rtm', 'puppet.p3d', encodeMlod(buildRtmPuppet()), 'MLOD whose named selections are the bones of puppet.rtm');
write('rtm', 'puppet.rtm', encodeRtm(buildPuppetRtm()), 'plain RTM for puppet.p3d');
write('modelcfg', 'model.cfg', buildModelCfgSample(), 'model.cfg: comments, macros with arguments, # and ##, inheritance, += arrays, rad and arithmetic');
console.log(`${count} files written to ${outDir}`);
