/** A few end-to-end runs of the real launcher in a child process (exit codes, streams). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.ts';
import { bundleIsCurrent } from '../../scripts/prebuilt.mjs';
import { smallestPerFormat } from './helpers/formats.ts';

const bin = join(repoRoot, 'bin/lodsmith.cjs');
const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-spawn-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function lodsmith(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: tmp, env, maxBuffer: 64 * 1024 * 1024 }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out, err });
    });
  });
}

const sample = smallestPerFormat()[0];

describe('bin/lodsmith.cjs', () => {
  it('runs the prebuilt CLI, which the test setup keeps current with the sources', async () => {
    expect(bundleIsCurrent(repoRoot, 'out/cli')).toBe(true);
    const r = await lodsmith(['--version'], { ...process.env, LODSMITH_TRACE_LAUNCH: '1' });
    expect(r.code).toBe(0);
    expect(r.err).toBe('lodsmith: running out/cli\n');
    expect(r.out.trim()).toBe(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
  });

  it('prints the version and help', async () => {
    const v = await lodsmith(['--version']);
    expect(v.code).toBe(0);
    expect(v.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const h = await lodsmith(['--help']);
    expect(h.code).toBe(0);
    expect(h.out).toContain('Usage: lodsmith');
  });

  it('exits 2 with one line and no stack for an unknown format', async () => {
    writeFileSync(join(tmp, 'readme.txt'), 'hello');
    const r = await lodsmith(['info', 'readme.txt']);
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lodsmith: readme\.txt: unknown format: no supported format recognises this file/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it.skipIf(!sample)('info --json prints one JSON object; a truncated file exits 2 naming offset and node', async () => {
    const s = sample!;
    const r = await lodsmith(['info', '--json', s.file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).format).toBe(s.codec.id);
    const cut = join(tmp, `cut-${basename(s.file)}`);
    const bytes = readFileSync(s.file);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const bad = await lodsmith(['roundtrip', cut]);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/cut-.*at offset \d+ \(0x[0-9a-f]+\), node /);
  });

  it.skipIf(!sample)('dump writes parseable JSON through a pipe', async () => {
    const r = await lodsmith(['dump', sample!.file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).format).toBe(sample!.codec.id);
  });
});
