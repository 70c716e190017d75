/**
 * Every node of every format's structure tree names a byte range inside its file: the tree, the
 * inspector and the hex view all jump to these ranges, so a range past the end (the ODOL root
 * once read 0..2^53) sends the hex view nowhere. Runs over every corpus file and the sample.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { CORPUS_FOLDER, corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { buildLargeOdol, buildOdolV7 } from '../../scripts/fixtures/odol.ts';
import { buildLargeGrimrockModel } from '../../scripts/fixtures/grimrock.ts';
import { buildLargeUnigineMesh } from '../../scripts/fixtures/unigine.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';

function* walk(n: OutlineNode): Generator<OutlineNode> {
  yield n;
  for (const c of n.children ?? []) yield* walk(c);
}

// The rtm folder keeps its skeleton's model.cfg beside the animations: a config, not a model file.
const files = Object.values(CORPUS_FOLDER).flatMap((f) => corpusFiles(f)).filter((f) => !/\.cfg$/i.test(f));

/** Every node's range lies in 0..size, and the root is exactly the file. */
function check(name: string, bytes: Uint8Array): void {
  const codec = detectFormat(bytes, name)!;
  expect(codec, 'a codec reads the file').toBeDefined();
  const root = codec.outline(codec.decode(bytes, { fileName: name }));
  expect(root.span, 'the root covers the file').toEqual([0, bytes.length]);
  const bad: string[] = [];
  for (const n of walk(root)) {
    if (!n.span) continue;
    const [s, e] = n.span;
    if (!(Number.isInteger(s) && Number.isInteger(e) && s >= 0 && s <= e && e <= bytes.length)) bad.push(`${n.path.join('/') || '(root)'} ${s}..${e}`);
  }
  expect(bad, `nodes outside 0..${bytes.length}`).toEqual([]);
}

describe('outline byte ranges of generated files', () => {
  const generated: [string, () => Uint8Array][] = [
    ['sample.lod', () => encodeLod(buildSampleLod())],
    ['v7.p3d', () => buildOdolV7({ lods: 2, size: 40 })],
    ['v50.p3d', () => buildLargeOdol({ version: 50, lods: 2, size: 40 })],
    ['v73.p3d', () => buildLargeOdol({ version: 73, lods: 2, size: 40 })],
    ['mlod.p3d', () => encodeMlod(buildSampleMlod())],
    ['grimrock.model', () => buildLargeGrimrockModel(30)],
    ['unigine.mesh', () => buildLargeUnigineMesh(30)],
  ];
  it.each(generated)('%s', (name, make) => check(name, make()));
});

describe.skipIf(!hasCorpus)('outline byte ranges lie inside the file', () => {
  it.each(files.map((f) => [basename(f), f]))('%s', (name, file) => check(name, readBytes(file)));
});
