/**
 * Fuzzing the PBO reader: the header parsed whole and from growing prefixes (as `lodsmith pbo`
 * and `check` read it), every readable entry expanded within the memory budget, and the
 * extraction guard: no entry the reader would extract may name a path outside the output folder.
 * Every entry a model format recognises then goes through the pipeline the editor runs when an
 * archive's model is opened (decode inside the budget, validate, outline, scene, encode: an entry
 * that decodes saves back byte-identical). Every input must end in success or one DecodeError
 * whose offset lies inside the input (or the entry).
 */
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { entryBytes, nameProblem, parsePbo, PboNeedMore, type PboArchive } from '../../shared/formats/pbo/pbo.ts';
import { buildPbo, text } from '../../test/helpers/pbo.ts';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { buildModelCfgSample } from '../../scripts/fixtures/modelcfg.ts';
import { forEachMutant, type Seed } from './mutate.ts';

export interface PboFuzzStats {
  inputs: number;
  read: number;
  refused: number;
  entries: number;
  /** Entries a model format recognised and decoded, then ran through the rest of the pipeline. */
  models: number;
  findings: { seed: string; kind: string; desc: string; message: string; bytes: Uint8Array }[];
}

/** The header as the CLI reads it: 64 bytes first, doubling while the parser asks for more. */
function parseByPrefix(bytes: Uint8Array): PboArchive {
  for (let want = Math.min(64, bytes.length); ; want = Math.min(bytes.length, want * 2)) {
    try {
      return parsePbo(bytes.subarray(0, want), bytes.length);
    } catch (e) {
      if (!(e instanceof PboNeedMore) || want >= bytes.length) throw e;
    }
  }
}

export function runPboInput(bytes: Uint8Array): { outcome: 'ok' | 'refused'; entries: number; models: number; problem?: string } {
  let entries = 0;
  let models = 0;
  try {
    const whole = parsePbo(bytes);
    const prefix = parseByPrefix(bytes);
    if (JSON.stringify(prefix.entries) !== JSON.stringify(whole.entries)) throw new Error('the header read from prefixes differs from the whole read');
    for (const e of whole.entries) {
      if (e.unreadable) continue;
      if (nameProblem(e.name)) throw new Error(`entry ${JSON.stringify(e.name)} would be extracted although its name is unsafe`);
      try {
        const data = withBudget(MemoryBudget.forInput(e.dataSize), () => entryBytes(e, bytes.subarray(e.dataOffset, e.dataOffset + e.dataSize)));
        if (data.length !== e.size) throw new Error(`entry ${e.name} gave ${data.length} bytes, not its size ${e.size}`);
        entries++;
        const model = modelPipeline(data, e.name);
        if (model.problem) return { outcome: 'ok', entries, models, problem: model.problem };
        if (model.decoded) models++;
      } catch (err) {
        if (!isDecodeError(err)) throw err;
        if (!(err.offset >= 0 && err.offset <= bytes.length)) return { outcome: 'refused', entries, models, problem: `entry DecodeError offset ${err.offset} outside the ${bytes.length}-byte input: ${err.message}` };
      }
    }
    return { outcome: 'ok', entries, models };
  } catch (e) {
    if (isDecodeError(e)) {
      if (!(e.offset >= 0 && e.offset <= bytes.length)) return { outcome: 'refused', entries, models, problem: `DecodeError offset ${e.offset} outside the ${bytes.length}-byte input: ${e.message}` };
      return { outcome: 'refused', entries, models };
    }
    return { outcome: 'refused', entries, models, problem: `${(e as Error)?.name ?? 'throw'}: ${(e as Error)?.message ?? String(e)}` };
  }
}

/**
 * An extracted entry as the editor opens an archive's model: what its format's codec makes of it,
 * or a sentence saying what went wrong. A decode may refuse (a DecodeError inside the entry); no
 * later stage may throw, and an entry that decodes must save back byte-identical.
 */
function modelPipeline(data: Uint8Array, name: string): { decoded: boolean; problem?: string } {
  const codec = detectFormat(data, name);
  if (!codec) return { decoded: false };
  let doc: object;
  try {
    doc = codec.decode(data, { fileName: name }) as object;
  } catch (err) {
    if (!isDecodeError(err)) return { decoded: false, problem: `${name} (${codec.id}): decode threw ${(err as Error)?.name}: ${(err as Error)?.message}` };
    return err.offset >= 0 && err.offset <= data.length ? { decoded: false } : { decoded: false, problem: `${name} (${codec.id}): DecodeError offset ${err.offset} outside the ${data.length}-byte entry` };
  }
  let stage = 'validate';
  try {
    codec.validate(doc);
    stage = 'outline';
    codec.outline(doc);
    stage = 'scene';
    codec.toScene(doc);
    stage = 'encode';
    const out = codec.encode(doc);
    if (out.length !== data.length || out.some((b, i) => b !== data[i])) return { decoded: true, problem: `${name} (${codec.id}): the entry decoded but does not save back byte-identical` };
  } catch (err) {
    return { decoded: true, problem: `${name} (${codec.id}): ${stage} threw ${(err as Error)?.name}: ${(err as Error)?.message}` };
  }
  return { decoded: true };
}

/** Archives the project builds: raw and compressed entries (a real model and its model.cfg among them), properties, an OFP one without. */
export function generatedPboSeeds(): Seed[] {
  const body = new Uint8Array(3000).map((_, i) => (i % 61 < 30 ? 97 + (i % 5) : (i * 13) & 255));
  const entries = [
    { name: 'config.cpp', data: text('class CfgPatches { class x { units[] = {}; }; };\n') },
    { name: 'data\\model.p3d', data: body, compress: true },
    { name: 'data\\tex_co.paa', data: body.subarray(0, 700) },
    { name: 'data\\house.p3d', data: mlodCodec.encode(buildSampleMlod()), compress: true },
    { name: 'data\\model.cfg', data: buildModelCfgSample() },
  ];
  return [
    { name: 'generated:arma.pbo', format: 'pbo', bytes: buildPbo(entries, { properties: [['prefix', 'x\\y\\addons\\z'], ['product', 'arma3']] }), streams: [] },
    { name: 'generated:ofp.pbo', format: 'pbo', bytes: buildPbo(entries.map((e) => ({ ...e, method: 0 })), { sha1: false }), streams: [] },
  ];
}

export function fuzzPbo(seeds: readonly Seed[], opts: { inputs: number; seconds: number; seed: number }): PboFuzzStats {
  const stats: PboFuzzStats = { inputs: 0, read: 0, refused: 0, entries: 0, models: 0, findings: [] };
  forEachMutant(seeds, opts, stats, (m, seed) => {
    const r = runPboInput(m.bytes);
    stats.entries += r.entries;
    stats.models += r.models;
    if (r.outcome === 'ok') stats.read++;
    else stats.refused++;
    if (r.problem) stats.findings.push({ seed: seed.name, kind: m.kind, desc: m.desc, message: r.problem, bytes: m.bytes });
  });
  return stats;
}
