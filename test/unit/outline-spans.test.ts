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

function* walk(n: OutlineNode): Generator<OutlineNode> {
  yield n;
  for (const c of n.children ?? []) yield* walk(c);
}

const files = Object.values(CORPUS_FOLDER).flatMap((f) => corpusFiles(f));

describe.skipIf(!hasCorpus)('outline byte ranges lie inside the file', () => {
  it.each(files.map((f) => [basename(f), f]))('%s', (_name, file) => {
    const bytes = readBytes(file);
    const codec = detectFormat(bytes, basename(file))!;
    expect(codec, 'a codec reads the file').toBeDefined();
    const root = codec.outline(codec.decode(bytes, { fileName: basename(file) }));
    expect(root.span, 'the root covers the file').toEqual([0, bytes.length]);
    const bad: string[] = [];
    for (const n of walk(root)) {
      if (!n.span) continue;
      const [s, e] = n.span;
      if (!(Number.isInteger(s) && Number.isInteger(e) && s >= 0 && s <= e && e <= bytes.length)) bad.push(`${n.path.join('/') || '(root)'} ${s}..${e}`);
    }
    expect(bad, `nodes outside 0..${bytes.length}`).toEqual([]);
  });
});
