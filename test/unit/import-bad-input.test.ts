/**
 * Damaged glTF never crashes the importer: every mutation of a real skinned, animated GLB either
 * imports or fails with one ImportError / DecodeError (a clear message), never anything else.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { isDecodeError } from '../../shared/errors.ts';
import type { FormatId } from '../../shared/formats/registry.ts';
import { importGltf, isImportError } from '../../shared/import/index.ts';
import { corpusDir, hasCorpus, readBytes } from '../helpers/corpus.ts';

const FILE = join(corpusDir, 'gltf', 'dmurdoch__rgl2gltf__RiggedSimple.glb');

describe.skipIf(!hasCorpus)('damaged GLB', () => {
  it('150 byte mutations x 6 formats: imported or one clear error', async () => {
    const good = readBytes(FILE);
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const formats: FormatId[] = ['lodka-lod', 'p3d-mlod', 'grimrock-model', 'grimrock-animation', 'unigine-mesh', 'unigine-anim'];
    let errors = 0;
    for (let i = 0; i < 150; i++) {
      const bad = good.slice();
      // Mostly the JSON chunk (counts, offsets, indices), sometimes the binary data.
      const at = rand(4) === 0 ? rand(bad.length) : 20 + rand(Math.min(bad.length - 20, 2000));
      bad[at] = rand(256);
      for (const f of formats) {
        try {
          await importGltf({ kind: 'glb', bytes: bad }, f);
        } catch (e) {
          if (!isImportError(e) && !isDecodeError(e)) throw new Error(`mutation at ${at} -> ${f}: ${(e as Error).stack}`, { cause: e });
          expect((e as Error).message.length).toBeGreaterThan(0);
          errors++;
        }
      }
    }
    // The mutations do hit: many of them are refused.
    expect(errors).toBeGreaterThan(50);
  });
});
