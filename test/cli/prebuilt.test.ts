/** The prebuilt CLI's stamp: which sources it covers, and that any change to one makes it stale. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleIsCurrent, canRunSources, STAMP, STAMP_FORM, wrapCommonJs } from '../../scripts/prebuilt.mjs';
import { repoRoot } from '../helpers/corpus.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-prebuilt-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('prebuilt bundle stamp', () => {
  it('lists the CLI, the codecs it loads lazily and the lock file', () => {
    const { inputs } = JSON.parse(readFileSync(join(repoRoot, 'out/cli', STAMP), 'utf8')) as { inputs: [string, number, number][] };
    const files = inputs.map(([f]) => f);
    for (const f of ['main/cli/program.ts', 'main/cli/command-table.ts', 'main/cli/check-worker.ts', 'shared/formats/p3d/mlod/decode.ts', 'shared/formats/p3d/odol/packed.ts', 'shared/formats/lodka/decode.ts', 'package-lock.json']) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
  });

  it('is stale once an input changes size or time, or goes missing', () => {
    const src = join(tmp, 'src.ts');
    writeFileSync(src, 'export const a = 1;\n');
    mkdirSync(join(tmp, 'out'));
    const stamp = (): void => {
      const st = { size: readFileSync(src).length, mtimeMs: 1_700_000_000_000 };
      utimesSync(src, st.mtimeMs / 1000, st.mtimeMs / 1000);
      writeFileSync(join(tmp, 'out', STAMP), JSON.stringify({ form: STAMP_FORM, inputs: [['src.ts', st.size, st.mtimeMs]] }));
    };
    stamp();
    expect(bundleIsCurrent(tmp, 'out')).toBe(true);
    // A bundle of the form an older build made (no wrapper the launcher can compile as read).
    writeFileSync(join(tmp, 'out', STAMP), JSON.stringify({ inputs: [['src.ts', readFileSync(src).length, 1_700_000_000_000]] }));
    expect(bundleIsCurrent(tmp, 'out')).toBe(false);
    stamp();
    utimesSync(src, 1_700_000_001, 1_700_000_001);
    expect(bundleIsCurrent(tmp, 'out')).toBe(false);
    stamp();
    writeFileSync(src, 'export const a = 22;\n');
    utimesSync(src, 1_700_000_000, 1_700_000_000);
    expect(bundleIsCurrent(tmp, 'out')).toBe(false);
    stamp();
    rmSync(src);
    expect(bundleIsCurrent(tmp, 'out')).toBe(false);
    expect(bundleIsCurrent(tmp, 'missing')).toBe(false);
  });

  it('the launcher runs the bundle only while its sources are unchanged, an edit in place included', () => {
    // A checkout of its own: the real launcher, a one-line bundle and one source file.
    const root = join(tmp, 'checkout');
    mkdirSync(join(root, 'bin'), { recursive: true });
    mkdirSync(join(root, 'out/cli'), { recursive: true });
    copyFileSync(join(repoRoot, 'bin/lodsmith.cjs'), join(root, 'bin/lodsmith.cjs'));
    writeFileSync(join(root, 'out/cli/lodsmith.cjs'), wrapCommonJs("process.stdout.write('bundle ran\\n');\n"));
    const src = join(root, 'src.ts');
    writeFileSync(src, 'export const a = 1;\n');
    utimesSync(src, 1_700_000_000, 1_700_000_000);
    writeFileSync(join(root, 'out/cli', STAMP), JSON.stringify({ form: STAMP_FORM, inputs: [['src.ts', readFileSync(src).length, 1_700_000_000_000]] }));
    const run = () => spawnSync(process.execPath, [join(root, 'bin/lodsmith.cjs'), '--version'], { encoding: 'utf8', env: { ...process.env, LODSMITH_TRACE_LAUNCH: '1', LODSMITH_CODE_CACHE: 'off' } });
    const current = run();
    expect(current.stderr).toBe('lodsmith: running out/cli\n');
    expect(current.stdout).toBe('bundle ran\n');
    // Same size, same folder (whose time an in-place write does not change), new content and time.
    writeFileSync(src, 'export const a = 2;\n');
    const stale = run();
    expect(stale.stdout).not.toContain('bundle ran');
    if (canRunSources()) expect(stale.stderr).toContain('lodsmith: running sources\n');
    else expect(stale.stderr).toContain('needs Node 22.18+');
  });

  it('wraps a CommonJS file so that the launcher compiles it as read and Node can still require it', () => {
    const file = join(tmp, 'wrapped.cjs');
    writeFileSync(file, wrapCommonJs('exports.name = require("node:path").basename(__filename);\nmodule.exports.self = this === exports;\n'));
    const required = spawnSync(process.execPath, ['-e', `const m = require(${JSON.stringify(file)}); process.stdout.write(JSON.stringify(m));`], { encoding: 'utf8' });
    expect(JSON.parse(required.stdout)).toEqual({ name: 'wrapped.cjs', self: true });
    const body = spawnSync(process.execPath, ['-e', `const f = require('node:vm').runInThisContext(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8')); const m = { exports: {} }; f.call(m.exports, m.exports, require, m, 'x.cjs', '.'); process.stdout.write(typeof f + JSON.stringify(m.exports));`], { encoding: 'utf8' });
    expect(body.stdout).toBe('function{"name":"x.cjs","self":true}');
  });

  it('knows which Node versions run the sources', () => {
    expect(canRunSources('22.18.0')).toBe(true);
    expect(canRunSources('24.1.0')).toBe(true);
    expect(canRunSources('22.17.1')).toBe(false);
    expect(canRunSources('20.20.2')).toBe(false);
  });
});
