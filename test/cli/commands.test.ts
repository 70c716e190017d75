/**
 * The CLI commands run in-process: exit codes, the --json shapes, error lines for corrupt input,
 * round-trip reporting. Real formats come from whatever codecs are registered (corpus and
 * generated fixtures); a tiny toy format, registered only here, pins down the exit-1 paths.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plainText } from '../../main/cli/commands/info.ts';
import { runCli } from '../../main/cli/program.ts';
import { registerFormat } from '../../shared/formats/registry.ts';
import { ANIMATION_FORMATS, smallestPerFormat } from './helpers/formats.ts';
import { memoryIO } from './helpers/memory-io.ts';
import { toyBytes, toyCodec } from './helpers/toy-codec.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string; drains: number }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err(), drains: m.drains() };
}

/** The rule for bad input: exit 2 and exactly one stderr line naming file, offset and node. */
function expectOneLineError(r: { code: number; err: string }, file: string): void {
  expect(r.code).toBe(2);
  const lines = r.err.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(/at offset \d+ \(0x[0-9a-f]+\), node \S/);
  expect(lines[0]).not.toMatch(/\n\s+at /);
}

const samples = smallestPerFormat();

describe('usage', () => {
  it('--help lists every command and the exit codes', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['info', 'dump', 'validate', 'roundtrip', 'convert', 'check']) expect(r.out).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    expect(r.out).toContain('Exit codes:');
  });

  it('no command at all prints the help on stderr, exit 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('Usage: lodsmith');
  });

  it('per-command help explains the options', async () => {
    const r = await run(['help', 'convert']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('--anim <files...>');
    expect(r.out).toContain('--lod <name>');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(pkg.version);
  });

  it('an unknown command or a missing argument is exit 2 with one line', async () => {
    for (const args of [['frobnicate'], ['info'], ['check', tmp, '--jobs', 'zero']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')[0]).toMatch(/^lodsmith: error:/);
    }
  });

  it('a missing file, a folder and an unknown format are exit 2 with one clear line', async () => {
    const text = join(tmp, 'notes.txt');
    writeFileSync(text, 'just some text, not a model');
    const cases: [string[], RegExp][] = [
      [['info', 'missing.lod'], /missing\.lod: no such file or directory$/],
      [['info', tmp], /is a directory/],
      [['info', text], /notes\.txt: unknown format: no supported format recognises this file/],
      [['convert', text, join(tmp, 'x.obj')], /must end in \.glb or \.gltf/],
    ];
    for (const [args, re] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err.trim()).toMatch(re);
    }
  });
});

describe('toy format (exit 1 paths, exact reporting)', () => {
  registerFormat(toyCodec);
  const good = join(tmp, 'good.toy');
  const lossy = join(tmp, 'lossy.toy');
  const invalid = join(tmp, 'invalid.toy');
  const truncated = join(tmp, 'truncated.toy');
  writeFileSync(good, toyBytes([1, 2, 3]));
  writeFileSync(lossy, toyBytes([1, 2, 0xbeef, 4]));
  writeFileSync(invalid, toyBytes([0xdead, 7]));
  writeFileSync(truncated, toyBytes([1, 2, 3]).subarray(0, 13));

  it('roundtrip reports the first differing offset and node, exit 1; OK files exit 0', async () => {
    const ok = await run(['roundtrip', good]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^OK {2}.*good\.toy/m);
    const r = await run(['roundtrip', good, lossy]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^DIFF {2}.*lossy\.toy +first difference at offset 16 \(0x10\), node values\[2\]; 24 bytes \(as saved\)$/m);
    const j = JSON.parse((await run(['roundtrip', '--json', good, lossy])).out);
    expect(j.files.map((f: { result: string }) => f.result)).toEqual(['ok', 'differs']);
    expect(j.files[1].diff).toMatchObject({ offset: 16, path: 'values[2]', mode: 'as saved' });
  });

  it('roundtrip goes on after a corrupt file and exits 2', async () => {
    const r = await run(['roundtrip', truncated, good]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^OK {2}.*good\.toy/m);
    expectOneLineError(r, 'truncated.toy');
    expect(r.err).toMatch(/value count 3 needs at least 12 bytes but only 5 remain at offset 4 \(0x4\), node header$/m);
  });

  it('validate prints severity, node path and offset, exit 1 on errors', async () => {
    const r = await run(['validate', invalid]);
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe('error    values[0]  @0x8       value 0xDEAD is not allowed');
    expect(r.out).toContain('1 error, 0 warnings');
    const j = JSON.parse((await run(['validate', '--json', invalid])).out);
    expect(j).toMatchObject({ format: 'toy', errors: 1, warnings: 0 });
    expect(j.problems[0]).toMatchObject({ severity: 'error', where: 'values[0]', offset: 8 });
    const clean = await run(['validate', good]);
    expect(clean.code).toBe(0);
    expect(clean.out).toContain('no problems found');
  });

  it('info --json keeps the documented keys first and the extra ones after', async () => {
    const r = await run(['info', '--json', good]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual(['format', 'version', 'bytes', 'meshes', 'materials', 'bones', 'animations', 'checksum']);
    expect(j.bytes).toBe(20);
    expect(j.meshes).toEqual([{ name: 'toy', vertices: 3, triangles: 0 }]);
  });

  it('info writes a stored 32-bit float with the digits that identify it, not its 64-bit widening', () => {
    expect(plainText(Math.fround(0.99393939))).toBe('0.9939394');
    expect(plainText(Math.fround(1 / 3))).toBe('0.33333334');
    expect(plainText(Math.fround(0.1))).toBe('0.1');
    // Numbers that are not 32-bit floats, integers and the rest are written as they are.
    expect(plainText(1 / 3)).toBe(String(1 / 3));
    expect(plainText(0.1)).toBe('0.1');
    expect(plainText(16777217)).toBe('16777217');
    expect(plainText(Number.NaN)).toBe('NaN');
    expect(plainText('x')).toBe('x');
    // Every float32 comes back from its text exactly.
    for (const bits of [0x3f7e7e7f, 0x00000001, 0x7f7fffff, 0xbf800001, 0x3dcccccd]) {
      const x = new Float32Array(new Uint32Array([bits]).buffer)[0]!;
      expect(Math.fround(Number(plainText(x)))).toBe(x);
    }
  });

  it('--debug adds the stack trace, otherwise none', async () => {
    const plain = await run(['info', truncated]);
    expectOneLineError(plain, 'truncated.toy');
    const dbg = await run(['info', '--debug', truncated]);
    expect(dbg.code).toBe(2);
    expect(dbg.err).toMatch(/\n\s+at /);
  });
});

describe.skipIf(samples.length === 0)('every registered format', () => {
  for (const s of samples) {
    const name = basename(s.file);
    describe(`${s.codec.id} (${name})`, () => {
      it('info --json prints exactly one object with the documented shape', async () => {
        const r = await run(['info', '--json', s.file]);
        expect(r.code).toBe(0);
        expect(r.err).toBe('');
        const j = JSON.parse(r.out);
        expect(j.format).toBe(s.codec.id);
        expect(j.bytes).toBe(s.size);
        expect(['number', 'string']).toContain(typeof j.version);
        for (const m of j.meshes) {
          expect(typeof m.name).toBe('string');
          expect(Number.isInteger(m.vertices) && Number.isInteger(m.triangles)).toBe(true);
        }
        expect(Array.isArray(j.materials) && Array.isArray(j.bones) && Array.isArray(j.animations)).toBe(true);
        for (const a of j.animations) expect(Number.isInteger(a.frames)).toBe(true);
        const text = await run(['info', s.file]);
        expect(text.code).toBe(0);
        expect(text.out).toContain(s.codec.label);
        expect(text.out).toMatch(new RegExp(`size +.*\\(${s.size.toLocaleString('en').replace(/,/g, ' ')} bytes\\)`));
      });

      it('dump streams valid JSON without raw bytes', async () => {
        const r = await run(['dump', s.file]);
        expect(r.code).toBe(0);
        const j = JSON.parse(r.out);
        expect(j).toMatchObject({ format: s.codec.id, bytes: s.size });
        expect(typeof j.document).toBe('object');
        expect(r.out).not.toContain('"$raw"');
        // More output than the sink's buffer means the writer had to wait for it at least once.
        if (r.out.length > 64 * 1024) expect(r.drains).toBeGreaterThan(0);
      });

      it('validate exit code follows the problems it lists', async () => {
        const r = await run(['validate', '--json', s.file]);
        const j = JSON.parse(r.out);
        expect(r.code).toBe(j.errors > 0 ? 1 : 0);
        expect(j.problems.filter((p: { severity: string }) => p.severity === 'error')).toHaveLength(j.errors);
      });

      it('roundtrip and roundtrip --strict succeed', async () => {
        const r = await run(['roundtrip', '--strict', s.file]);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(r.out).toMatch(/^OK {2}/);
      });

      it('a truncated copy is exit 2 with file, offset and node for every command', async () => {
        const bytes = readFileSync(s.file);
        const cut = join(tmp, `cut-${name}`);
        writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
        for (const args of [['info', cut], ['validate', cut], ['dump', cut], ['roundtrip', cut], ['convert', cut, join(tmp, 'cut.glb')]]) {
          const r = await run(args);
          expectOneLineError(r, `cut-${name}`);
        }
      });

      it('copies with a byte flipped decode, or fail as bad input: never a crash', async () => {
        const bytes = new Uint8Array(readFileSync(s.file));
        const flipped = join(tmp, `flip-${name}`);
        // Spread over the whole file, deterministic so a failure can be replayed.
        for (let k = 1; k <= 12; k++) {
          const at = Math.floor((bytes.length * k) / 13);
          const copy = bytes.slice();
          copy[at] = copy[at]! ^ 0xff;
          writeFileSync(flipped, copy);
          const r = await run(['roundtrip', flipped]);
          expect([0, 1, 2], `byte ${at}`).toContain(r.code);
          expect(r.err, `byte ${at}`).not.toContain('internal error');
          if (r.code === 2) expectOneLineError(r, `flip-${name}`);
        }
      });

      it('a copy with its signature wiped is exit 2', async () => {
        const bytes = new Uint8Array(readFileSync(s.file));
        bytes.fill(0, 0, Math.min(8, bytes.length));
        const wiped = join(tmp, `wiped-${name}`);
        writeFileSync(wiped, bytes);
        const r = await run(['info', wiped]);
        expect(r.code).toBe(2);
        expect(r.err.trim().split('\n')).toHaveLength(1);
        expect(r.err).toContain(`wiped-${name}`);
        expect(r.err).toMatch(/offset \d+/);
      });

      it.skipIf(ANIMATION_FORMATS.includes(s.codec.id))('convert writes a .glb and says what it holds', async () => {
        const out = join(tmp, `${name}.glb`);
        const r = await run(['convert', s.file, out]);
        expect(r.code).toBe(0);
        expect(r.out).toMatch(/^wrote .*\.glb \(.+\): \d+ mesh(es)?, /);
        expect(readFileSync(out).subarray(0, 4).toString('latin1')).toBe('glTF');
      });
    });
  }
});
