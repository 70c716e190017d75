/**
 * Fuzz seeds: the real corpus files of every registered format (read in place, never copied) and
 * small files made by the project's fixture builders. Each seed is decoded once up front to find
 * the compressed streams inside it, which the stream mutations then target.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allFormats, detectFormat, type FormatCodec } from '../../shared/formats/index.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../../test/helpers/corpus.ts';
import { sceneToGltf, writeGlb, writeGltfEmbedded } from '../../shared/export/gltf.ts';
import type { Seed } from './mutate.ts';

/**
 * Compressed streams the decoder kept as views of the input (`packed` in ODOL's arrays, `stream`
 * in BMTR's): their
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
      // `packed`: ODOL's arrays; `stream`: a BMTR array's LZO stream (inside its `packed` record).
      if ((k === 'packed' || k === 'stream') && v instanceof Uint8Array && v.buffer === input.buffer && v.length > 0) {
        const s = v.byteOffset - input.byteOffset;
        if (s >= 0 && s + v.length <= input.length) out.push([s, s + v.length]);
      } else if (typeof v === 'object') walk(v, depth + 1);
    }
  };
  walk(doc, 0);
  return out;
}

/** At most this many field offsets are kept per seed (spread over the whole file). */
const MAX_FIELDS = 4096;

/**
 * Where the decoded nodes start and end (`$span`): at a node's start sit its counts, sizes,
 * offsets and chunk headers (id, length, count), which the structure-aware mutations forge.
 */
export function findFields(doc: unknown, length: number): number[] {
  const out = new Set<number>();
  const seen = new Set<unknown>();
  const walk = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || seen.has(node) || depth > 64) return;
    seen.add(node);
    if (ArrayBuffer.isView(node)) return;
    const span = (node as { $span?: unknown }).$span;
    if (Array.isArray(span) && typeof span[0] === 'number' && typeof span[1] === 'number') {
      if (span[0] >= 0 && span[0] < length) out.add(span[0]);
      if (span[1] - 4 >= 0 && span[1] - 4 < length) out.add(span[1] - 4);
    }
    for (const [k, v] of Object.entries(node)) if (k !== '$raw' && typeof v === 'object') walk(v, depth + 1);
  };
  walk(doc, 0);
  const all = [...out].sort((a, b) => a - b);
  if (all.length <= MAX_FIELDS) return all;
  const step = all.length / MAX_FIELDS;
  return Array.from({ length: MAX_FIELDS }, (_, i) => all[Math.floor(i * step)]!);
}

function makeSeed(name: string, codec: FormatCodec, bytes: Uint8Array): Seed {
  let streams: [number, number][] = [];
  let fields: number[] = [];
  try {
    const doc = codec.decode(bytes, { fileName: name });
    streams = findStreams(doc, bytes);
    fields = findFields(doc, bytes.length);
  } catch {
    // A seed the codec cannot read is still a useful seed (its mutants exercise the error paths).
  }
  return { name, format: codec.id, bytes, streams, fields };
}

export interface SeedOptions {
  /** Seeds larger than this are left out (keeps each input fast). */
  maxBytes: number;
  /** Include the fixture builders' small files. */
  generated: boolean;
  /**
   * Also seed the glTF import stage (format {@link GLTF_IMPORT}): GLB and self-contained glTF
   * files our exporter writes from the other seeds, and the corpus's glTF files. Default true.
   */
  gltf?: boolean;
}

/** The pseudo-format of glTF import inputs: a .glb or .gltf imported into a model format. */
export const GLTF_IMPORT = 'gltf-import';

/** Exported seeds per model format (the smallest ones: an import input costs more than a decode). */
const GLTF_SEEDS_PER_FORMAT = 6;

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
      // glTF files are import seeds (gltfSeeds), not files of a model format.
      if (folder === 'gltf' && opts.gltf !== false) continue;
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
  if (opts.gltf !== false) seeds.push(...(await gltfSeeds(seeds, opts.maxBytes, skipped)));
  return { seeds, skipped };
}

/**
 * Small files from scripts/fixtures/*.ts: every exported `build*` function that takes no required
 * argument, and every `*Fixtures()` list, whose result is bytes or a document a registered codec
 * (or the module's own `encodeFixture`) can write. The large builders are for the benchmark.
 */
async function generatedSeeds(maxBytes: number, skipped: string[]): Promise<Seed[]> {
  const dir = join(repoRoot, 'scripts/fixtures');
  if (!existsSync(dir)) {
    skipped.push('scripts/fixtures has not landed: no generated seeds');
    return [];
  }
  const seeds: Seed[] = [];
  const seen = new Set<string>();
  const add = (name: string, bytes: Uint8Array) => {
    if (bytes.length === 0 || bytes.length > maxBytes) return;
    // Two builders often make the same file (a sample and the list that includes it).
    const key = createHash('sha1').update(bytes).digest('hex');
    if (seen.has(key)) return;
    seen.add(key);
    const codec = detectFormat(bytes, name);
    if (codec) seeds.push(makeSeed(name, codec, bytes));
  };
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts')).sort()) {
    const module = f.replace(/\.ts$/, '');
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(join(dir, f)).href)) as Record<string, unknown>;
    } catch (e) {
      skipped.push(`scripts/fixtures/${f} failed to load: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    const encodeFixture = typeof mod.encodeFixture === 'function' ? (mod.encodeFixture as (fx: unknown) => Uint8Array) : undefined;
    for (const [name, fn] of Object.entries(mod).sort(([a], [b]) => a.localeCompare(b))) {
      if (typeof fn !== 'function' || fn.length > 0 || /large/i.test(name)) continue;
      try {
        if (/^build/.test(name)) {
          const bytes = toBytes(await (fn as () => unknown)());
          if (bytes) add(`generated:${module}.${name}`, bytes);
        } else if (/Fixtures$/.test(name)) {
          const list = (await (fn as () => unknown)()) as { name?: string; doc?: unknown }[];
          if (!Array.isArray(list)) continue;
          for (const fx of list) {
            const bytes = encodeFixture ? encodeFixture(fx) : toBytes(fx.doc);
            if (bytes) add(`generated:${module}/${fx.name ?? '?'}`, bytes);
          }
        }
      } catch {
        // A builder that throws gives no seed; its own tests report it.
      }
    }
  }
  return seeds;
}

/**
 * glTF import seeds: each model format's smallest seeds that decode, exported by our own glTF
 * writer (as GLB, and the first of each format also as a self-contained .gltf, whose JSON the
 * mutations then break), and the corpus's .glb and self-contained .gltf files.
 */
async function gltfSeeds(modelSeeds: readonly Seed[], maxBytes: number, skipped: string[]): Promise<Seed[]> {
  const out: Seed[] = [];
  const add = (name: string, bytes: Uint8Array) => {
    if (bytes.length > 0 && bytes.length <= maxBytes) out.push({ name, format: GLTF_IMPORT, bytes, streams: [] });
  };
  const byFormat = new Map<string, Seed[]>();
  for (const s of modelSeeds) (byFormat.get(s.format) ?? byFormat.set(s.format, []).get(s.format)!).push(s);
  for (const [format, list] of [...byFormat].sort(([a], [b]) => a.localeCompare(b))) {
    const codec = allFormats().find((c) => c.id === format);
    if (!codec) continue;
    let made = 0;
    for (const s of [...list].sort((a, b) => a.bytes.length - b.bytes.length)) {
      if (made >= GLTF_SEEDS_PER_FORMAT) break;
      try {
        const scene = codec.toScene(codec.decode(s.bytes, { fileName: s.name }));
        if (scene.meshes.length === 0 && scene.clips.length === 0) continue;
        const { document } = sceneToGltf(scene, { generator: 'LodSmith fuzz seed' });
        add(`exported:${s.name}.glb`, await writeGlb(document));
        if (made === 0) add(`exported:${s.name}.gltf`, await writeGltfEmbedded(document));
        made++;
      } catch {
        // A seed that does not export gives no glTF seed; the export's own tests report it.
      }
    }
  }
  if (hasCorpus && existsSync(join(corpusDir, 'gltf'))) {
    for (const file of corpusFiles('gltf')) {
      const bytes = readBytes(file);
      // A .gltf that names files beside it cannot be fuzzed alone.
      if (file.endsWith('.gltf') && /"uri"\s*:\s*"(?!data:)/.test(new TextDecoder().decode(bytes))) {
        skipped.push(`${basename(file)}: refers to files beside it`);
        continue;
      }
      add(basename(file), bytes);
    }
  }
  return out;
}

/** Bytes as they are, or a document (with a registered `format`) written by its codec. */
function toBytes(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (v && typeof v === 'object' && typeof (v as { format?: unknown }).format === 'string') {
    const codec = allFormats().find((c) => c.id === (v as { format: string }).format);
    if (codec) return codec.encode(v as object);
  }
  return undefined;
}
