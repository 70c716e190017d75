/**
 * What the fuzz entry scripts (fuzz/archives.ts, fuzz/modelcfg.ts, fuzz/textures.ts) share: reading
 * their numeric `--flag N` arguments and saving findings under test/fixtures/crashes/.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../test/helpers/corpus.ts';

/**
 * Reads `--flag N` pairs from process.argv into a copy of `defaults`; `flags` maps each flag to
 * its field. `--help`/`-h` prints `usage` and exits 0; an unknown flag or a value that is not a
 * finite number >= 0 prints `<script>: bad argument <flag>` and the usage and exits 2.
 */
export function parseFuzzArgs<T extends Record<string, number>>(
  script: string,
  usage: string,
  defaults: T,
  flags: Record<string, keyof T>,
): T {
  const a = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!;
    const val = Number(argv[i + 1]);
    const field = flags[key] as keyof T | undefined;
    if (key === '--help' || key === '-h') { console.log(usage); process.exit(0); }
    if (!field || !Number.isFinite(val) || val < 0) { console.error(`${script}: bad argument ${key}\n${usage}`); process.exit(2); }
    a[field] = val as T[keyof T];
    i++;
  }
  return a;
}

/**
 * Saves the first 20 findings as test/fixtures/crashes/<prefix>-<hash><ext> with a <prefix>-<hash>.json
 * note beside each, prints `line` for each, and exits 1; returns if there are none.
 */
export function saveFindingsAndExit<F extends { bytes: Uint8Array }>(
  findings: readonly F[],
  prefix: string,
  ext: string,
  note: (f: F) => object,
  line: (f: F) => string,
): void {
  if (!findings.length) return;
  const dir = join(repoRoot, 'test/fixtures/crashes');
  mkdirSync(dir, { recursive: true });
  for (const f of findings.slice(0, 20)) {
    const hash = createHash('sha256').update(f.bytes).digest('hex').slice(0, 12);
    writeFileSync(join(dir, `${prefix}-${hash}${ext}`), f.bytes);
    writeFileSync(join(dir, `${prefix}-${hash}.json`), JSON.stringify(note(f), null, 2));
    console.log(`  ${line(f)}`);
  }
  process.exit(1);
}
