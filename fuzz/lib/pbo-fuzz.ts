/**
 * Fuzzing the PBO reader: the header parsed whole and from growing prefixes (as `lodsmith pbo`
 * and `check` read it), every readable entry expanded within the memory budget, and the
 * extraction guard: no entry the reader would extract may name a path outside the output folder.
 * Every input must end in success or one DecodeError whose offset lies inside the input.
 */
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { entryBytes, nameProblem, parsePbo, PboNeedMore, type PboArchive } from '../../shared/formats/pbo/pbo.ts';
import { buildPbo, text } from '../../test/helpers/pbo.ts';
import { forEachMutant, type Seed } from './mutate.ts';

export interface PboFuzzStats {
  inputs: number;
  read: number;
  refused: number;
  entries: number;
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

export function runPboInput(bytes: Uint8Array): { outcome: 'ok' | 'refused'; entries: number; problem?: string } {
  let entries = 0;
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
      } catch (err) {
        if (!isDecodeError(err)) throw err;
        if (!(err.offset >= 0 && err.offset <= bytes.length)) return { outcome: 'refused', entries, problem: `entry DecodeError offset ${err.offset} outside the ${bytes.length}-byte input: ${err.message}` };
      }
    }
    return { outcome: 'ok', entries };
  } catch (e) {
    if (isDecodeError(e)) {
      if (!(e.offset >= 0 && e.offset <= bytes.length)) return { outcome: 'refused', entries, problem: `DecodeError offset ${e.offset} outside the ${bytes.length}-byte input: ${e.message}` };
      return { outcome: 'refused', entries };
    }
    return { outcome: 'refused', entries, problem: `${(e as Error)?.name ?? 'throw'}: ${(e as Error)?.message ?? String(e)}` };
  }
}

/** Archives the project builds: raw and compressed entries, properties, an OFP one without. */
export function generatedPboSeeds(): Seed[] {
  const body = new Uint8Array(3000).map((_, i) => (i % 61 < 30 ? 97 + (i % 5) : (i * 13) & 255));
  const entries = [
    { name: 'config.cpp', data: text('class CfgPatches { class x { units[] = {}; }; };\n') },
    { name: 'data\\model.p3d', data: body, compress: true },
    { name: 'data\\tex_co.paa', data: body.subarray(0, 700) },
  ];
  return [
    { name: 'generated:arma.pbo', format: 'pbo', bytes: buildPbo(entries, { properties: [['prefix', 'x\\y\\addons\\z'], ['product', 'arma3']] }), streams: [] },
    { name: 'generated:ofp.pbo', format: 'pbo', bytes: buildPbo(entries.map((e) => ({ ...e, method: 0 })), { sha1: false }), streams: [] },
  ];
}

export function fuzzPbo(seeds: readonly Seed[], opts: { inputs: number; seconds: number; seed: number }): PboFuzzStats {
  const stats: PboFuzzStats = { inputs: 0, read: 0, refused: 0, entries: 0, findings: [] };
  forEachMutant(seeds, opts, stats, (m, seed) => {
    const r = runPboInput(m.bytes);
    stats.entries += r.entries;
    if (r.outcome === 'ok') stats.read++;
    else stats.refused++;
    if (r.problem) stats.findings.push({ seed: seed.name, kind: m.kind, desc: m.desc, message: r.problem, bytes: m.bytes });
  });
  return stats;
}
