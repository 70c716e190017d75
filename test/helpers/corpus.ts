/**
 * Access to the shared corpus of real model files, which lives beside the repository
 * (`../shared/corpus`) and is never copied into it. Tests that need it skip when it is absent;
 * LODSMITH_CORPUS points elsewhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatId } from '../../shared/formats/registry.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const corpusDir = process.env.LODSMITH_CORPUS ?? resolve(repoRoot, '../shared/corpus');
export const hasCorpus = existsSync(join(corpusDir, 'MANIFEST.tsv'));

/**
 * Files directly in one corpus folder (e.g. `lodka`, `p3d_odol`), sorted; empty when the corpus
 * is absent. Sub-folders (such as `textured/`'s model trees) are not files and are left out.
 */
export function corpusFiles(folder: string | undefined): string[] {
  if (folder === undefined) return [];
  const dir = join(corpusDir, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort()
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Corpus folder of each format id. */
export const CORPUS_FOLDER: Record<FormatId, string> = {
  'lodka-lod': 'lodka',
  'p3d-odol': 'p3d_odol',
  'p3d-mlod': 'p3d_mlod',
  'grimrock-model': 'grimrock_model',
  'grimrock-animation': 'grimrock_animation',
  'unigine-mesh': 'unigine_mesh',
  'unigine-anim': 'unigine_anim',
};

export function readBytes(file: string): Uint8Array {
  const b = readFileSync(file);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
