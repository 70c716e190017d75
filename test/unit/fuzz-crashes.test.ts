/**
 * Every failure the fuzzer ever found becomes a regression input in test/fixtures/crashes/ (a
 * mutated file our fuzzer made, with a .json note). A fixed one must now end in success or a
 * DecodeError; one whose codec is not fixed yet is an honest todo naming the finding.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_FINDINGS, knownFinding } from '../../fuzz/known-findings.ts';
import { FuzzPool } from '../../fuzz/lib/pool.ts';
import { FAILURES } from '../../fuzz/lib/protocol.ts';
import { repoRoot } from '../helpers/corpus.ts';

const dir = join(repoRoot, 'test/fixtures/crashes');
const notes = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];

interface Note {
  format: string;
  signature?: string;
  outcome: string;
  message: string;
  status: 'open' | 'fixed';
  seed: string;
  mutation: string;
  /** glTF import inputs: the format they were imported into (an index, see FuzzRequest). */
  importTarget?: number;
}

let pool: FuzzPool | undefined;
const getPool = () => (pool ??= new FuzzPool({ size: 2, maxOldGenerationSizeMb: 512, baseMs: 5000, msPerMB: 2000 }));
afterAll(async () => {
  await pool?.close();
});

describe('fuzz regression inputs', () => {
  for (const file of notes) {
    const note = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Note;
    const bin = join(dir, file.replace(/\.json$/, '.bin'));
    const name = `${file.replace(/\.json$/, '')}: ${note.outcome} (${note.message.slice(0, 80)})`;
    if (note.status !== 'fixed') {
      // An open finding already listed in fuzz/known-findings.ts shows once, under its id below.
      if (!note.signature || !knownFinding(note.signature)) it.todo(`open finding ${name}`);
      continue;
    }
    it(name, async () => {
      const bytes = new Uint8Array(readFileSync(bin));
      // Through the Khronos validator too: some findings are glTF the validator refuses.
      const r = await getPool().run({ id: 1, format: note.format, bytes, encode: true, memFactor: 32, memSlackBytes: 64 << 20, gltfCheck: true, importTarget: note.importTarget });
      expect(FAILURES, `${r.outcome}: ${r.message}\n${r.stack ?? ''}`).not.toContain(r.outcome);
    });
  }
  for (const k of KNOWN_FINDINGS) it.todo(`open finding ${k.id} (${k.format}): ${k.summary}`);
  if (notes.length === 0 && KNOWN_FINDINGS.length === 0) {
    it('has no findings recorded yet (the folder fills when the fuzzer finds one)', () => {
      expect(notes).toEqual([]);
    });
  }
});
