/**
 * Which sample files exist for the formats that are registered right now: the corpus folder of
 * each codec plus any generated fixtures. Tests iterate over these, so a codec that lands later is
 * covered without touching the tests.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import '../../../shared/formats/index.ts';
import { allFormats, detectFormat, type FormatCodec, type FormatId } from '../../../shared/formats/registry.ts';
import { CORPUS_FOLDER, corpusFiles, readBytes, repoRoot } from '../../helpers/corpus.ts';


/** Formats whose files hold animation only (converted with a model via --anim). */
export const ANIMATION_FORMATS: readonly FormatId[] = ['grimrock-animation', 'unigine-anim', 'p3d-rtm'];

export interface Sample {
  codec: FormatCodec;
  file: string;
  size: number;
}

function generatedFiles(): string[] {
  const dir = join(repoRoot, 'test/fixtures/generated');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Every corpus and generated file of every registered format. */
export function samples(): Sample[] {
  const out: Sample[] = [];
  // Generated fixtures belong to whichever codec recognises them (.p3d is ODOL or MLOD).
  const gen = generatedFiles().map((f) => ({ f, id: detectFormat(readBytes(f), f)?.id }));
  for (const codec of allFormats()) {
    // A corpus folder may hold a format's companions (rtm/ has the model.cfg of its skeleton).
    const own = corpusFiles(CORPUS_FOLDER[codec.id]).filter((f) => codec.extensions.some((e) => f.toLowerCase().endsWith(e)));
    const files = [...own, ...gen.filter((g) => g.id === codec.id).map((g) => g.f)];
    for (const file of files) out.push({ codec, file, size: statSync(file).size });
  }
  return out;
}

/**
 * The smallest sample of each registered format that its codec decodes (the quick ones for
 * exit-code tests; files a codec cannot read yet are its own tests' business).
 */
export function smallestPerFormat(): Sample[] {
  const best = new Map<FormatId, Sample>();
  for (const s of [...samples()].sort((a, b) => a.size - b.size)) {
    if (best.has(s.codec.id)) continue;
    try {
      s.codec.decode(readBytes(s.file), { fileName: s.file });
      best.set(s.codec.id, s);
    } catch {
      // try the next larger one
    }
  }
  return [...best.values()];
}
