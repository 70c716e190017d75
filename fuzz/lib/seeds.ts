/**
 * Fuzz seeds: the real corpus files of every registered format (read in place, never copied) and
 * small files made by the project's fixture builders. Each seed is decoded once up front to find
 * the compressed streams inside it, which the stream mutations then target.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allFormats, detectFormat, type FormatCodec } from '../../shared/formats/index.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../../test/helpers/corpus.ts';
import type { Seed } from './mutate.ts';

/**
 * Compressed streams the decoder kept as views of the input (`packed` in ODOL's arrays): their
 * position in the file is their offset in the input's buffer.
 */
export function findStreams(doc: unknown, input: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || seen.has(node) || depth > 64) return;
    seen.add(node);
    if (ArrayBuffer.isView(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'packed' && v instanceof Uint8Array && v.buffer === input.buffer && v.length > 0) {
        const s = v.byteOffset - input.byteOffset;
        if (s >= 0 && s + v.length <= input.length) out.push([s, s + v.length]);
      } else if (typeof v === 'object') walk(v, depth + 1);
    }
  };
  walk(doc, 0);
  return out;
}

function makeSeed(name: string, codec: FormatCodec, bytes: Uint8Array): Seed {
  let streams: [number, number][] = [];
  try {
    streams = findStreams(codec.decode(bytes, { fileName: name }), bytes);
  } catch {
    // A seed the codec cannot read is still a useful seed (its mutants exercise the error paths).
  }
  return { name, format: codec.id, bytes, streams };
}

export interface SeedOptions {
  /** Seeds larger than this are left out (keeps each input fast). */
  maxBytes: number;
  /** Include the fixture builders' small files. */
  generated: boolean;
}

/** Names of the seeds left out and why, for the report. */
export interface SeedSet {
  seeds: Seed[];
  skipped: string[];
}

/** All seeds of every registered format. */
export async function loadSeeds(opts: SeedOptions): Promise<SeedSet> {
  const seeds: Seed[] = [];
  const skipped: string[] = [];
  const registered = new Set(allFormats().map((c) => c.id));
  if (!hasCorpus) skipped.push('corpus absent: only generated seeds');
  else {
    const unregistered = new Map<string, number>();
    const folders = readdirSync(corpusDir).filter((d) => statSync(join(corpusDir, d)).isDirectory()).sort();
    for (const folder of folders) {
      for (const file of corpusFiles(folder)) {
        const size = statSync(file).size;
        if (size > opts.maxBytes) {
          skipped.push(`${basename(file)} (${size} bytes > ${opts.maxBytes})`);
          continue;
        }
        const bytes = readBytes(file);
        const codec = detectFormat(bytes, file);
        if (!codec || !registered.has(codec.id)) {
          unregistered.set(folder, (unregistered.get(folder) ?? 0) + 1);
          continue;
        }
        seeds.push(makeSeed(basename(file), codec, bytes));
      }
    }
    for (const [folder, n] of unregistered) skipped.push(`${folder}: ${n} file(s), no registered codec claims them`);
  }
  if (opts.generated) seeds.push(...(await generatedSeeds(opts.maxBytes, skipped)));
  return { seeds, skipped };
}

/**
 * Small files from scripts/fixtures/*.ts: every exported `build*` function that takes no required
 * argument and returns bytes a registered codec claims. The large builders are for the benchmark.
 */
async function generatedSeeds(maxBytes: number, skipped: string[]): Promise<Seed[]> {
  const dir = join(repoRoot, 'scripts/fixtures');
  if (!existsSync(dir)) {
    skipped.push('scripts/fixtures has not landed: no generated seeds');
    return [];
  }
  const seeds: Seed[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts')).sort()) {
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(join(dir, f)).href)) as Record<string, unknown>;
    } catch (e) {
      skipped.push(`scripts/fixtures/${f} failed to load: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    for (const [name, fn] of Object.entries(mod).sort(([a], [b]) => a.localeCompare(b))) {
      if (typeof fn !== 'function' || !/^build/.test(name) || /large/i.test(name) || fn.length > 0) continue;
      let bytes: unknown;
      try {
        bytes = (fn as () => unknown)();
        if (bytes instanceof Promise) bytes = await bytes;
      } catch {
        continue;
      }
      if (!(bytes instanceof Uint8Array) || bytes.length === 0 || bytes.length > maxBytes) continue;
      const codec = detectFormat(bytes, '');
      if (!codec) continue;
      seeds.push(makeSeed(`generated:${f.replace(/\.ts$/, '')}.${name}`, codec, bytes));
    }
  }
  return seeds;
}
