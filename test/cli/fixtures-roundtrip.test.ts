/**
 * Every fixture the project generates (npm run fixtures) round-trips byte for byte through the
 * command-line tool, from fields alone as well (`roundtrip --strict`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('npm run fixtures writes files of every format and lodsmith roundtrip --strict passes on all', () => {
  execFileSync(process.execPath, [join(repoRoot, 'scripts/make-fixtures.ts'), dir], { stdio: 'pipe' });
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  const extensions = new Set(files.map((f) => f.slice(f.lastIndexOf('.'))));
  expect([...extensions].sort()).toEqual(['.anim', '.animation', '.cfg', '.lod', '.mesh', '.model', '.p3d', '.rtm']);
  expect(files.length).toBeGreaterThanOrEqual(30);

  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), 'roundtrip', '--strict', ...files], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const ok = r.stdout.split('\n').filter((l) => l.startsWith('OK'));
  expect(ok.length).toBe(files.length);
});
