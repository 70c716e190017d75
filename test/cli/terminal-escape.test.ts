/**
 * Terminal injection: names from a file (and file names) reach no terminal as control
 * characters. Every command is run on a model whose mesh, material, bone and animation names hold
 * ESC sequences, BEL, CR and U+009B (a one-character CSI), saved under a file name that holds them
 * too (a Grimrock model: its names are Latin-1, so U+009B is one byte): human output shows readable escapes, JSON output escapes them as \u00XX and stays valid
 * JSON that parses back to the very same names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControls, terminalSafeJson } from '../../main/cli/io.ts';
import { runCli } from '../../main/cli/program.ts';
import '../../shared/formats/index.ts';
import { grimrockModelCodec } from '../../shared/formats/grimrock/index.ts';
import { allFloatModel } from '../../scripts/fixtures/grimrock.ts';
import { memoryIO } from './helpers/memory-io.ts';

/** ESC ] title BEL, an SGR colour, a CR that would overwrite the line, a C1 CSI that clears the screen. */
const HOSTILE = 'a\u001b]0;pwned\u0007\u001b[31mb\rc\u009b2Jd\u007f';
const FILE = `m\u001b[2J\u0007\r\u009b.model`;
/** Every control character but the newline that ends lines. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-esc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The model with hostile node, mesh and material names. */
function hostileModel(): Uint8Array {
  const doc = allFloatModel();
  doc.nodes[0]!.name = `root ${HOSTILE}`;
  doc.nodes[1]!.name = `bone ${HOSTILE}`;
  const mesh = doc.nodes[3]!;
  mesh.name = `mesh ${HOSTILE}`;
  mesh.mesh!.meshData.segments[0]!.material = `mat ${HOSTILE}`;
  return grimrockModelCodec.encode(doc);
}

beforeAll(() => {
  const bytes = hostileModel();
  writeFileSync(join(tmp, FILE), bytes);
  mkdirSync(join(tmp, 'dir'));
  writeFileSync(join(tmp, 'dir', FILE), bytes);
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

function expectClean(r: { out: string; err: string }, what: string): void {
  expect(RAW_CONTROL.exec(r.out)?.[0].charCodeAt(0), `${what}: control character on stdout`).toBeUndefined();
  expect(RAW_CONTROL.exec(r.err)?.[0].charCodeAt(0), `${what}: control character on stderr`).toBeUndefined();
}

describe('escaping helpers', () => {
  it('human text: every C0, DEL and C1 character becomes a readable escape', () => {
    expect(escapeControls('a\u001b[31m\u0007\r\n\t\u009b\u007fz')).toBe('a\\x1b[31m\\x07\\r\\n\\t\\x9b\\x7fz');
    for (let c = 0; c < 0xa0; c++) {
      const out = escapeControls(String.fromCharCode(c));
      expect(RAW_CONTROL.test(out) || out === '\n', `U+${c.toString(16)}`).toBe(false);
    }
  });

  it('JSON: DEL and C1 become \\u00XX, the text stays valid JSON with the same value', () => {
    const value = { name: HOSTILE, [HOSTILE]: 1 };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).toContain('\\u009b');
    expect(RAW_CONTROL.test(json)).toBe(false);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('every command keeps control characters from files off the terminal', () => {
  it('info, human and --json', async () => {
    const human = await cli(['info', FILE]);
    expect(human.code).toBe(0);
    expectClean(human, 'info');
    expect(human.out).toContain('mesh a\\x1b]0;pwned\\x07\\x1b[31mb\\rc\\x9b2Jd\\x7f');
    const json = await cli(['info', '--json', FILE]);
    expectClean(json, 'info --json');
    const parsed = JSON.parse(json.out) as { materials: string[]; meshes: { name: string }[]; bones: string[]; animations: { name: string }[] };
    expect(parsed.meshes.map((m) => m.name)).toContain(`mesh ${HOSTILE}`);
    expect(parsed.materials).toContain(`mat ${HOSTILE}`);
    expect(JSON.stringify(parsed)).toContain(JSON.stringify(`bone ${HOSTILE}`).slice(1, -1));
  });

  it('validate, human and --json', async () => {
    const human = await cli(['validate', FILE]);
    expectClean(human, 'validate');
    expect(human.out).toContain(escapeControls(FILE));
    const json = await cli(['validate', '--json', FILE]);
    expectClean(json, 'validate --json');
    const parsed = JSON.parse(json.out) as { file: string; problems: { message: string }[] };
    expect(parsed.file).toBe(FILE);
  });

  it('dump', async () => {
    const r = await cli(['dump', FILE]);
    expect(r.code).toBe(0);
    expectClean(r, 'dump');
    expect(JSON.stringify(JSON.parse(r.out))).toContain(JSON.stringify(`mesh ${HOSTILE}`).slice(1, -1));
  });

  it('roundtrip, human and --json', async () => {
    const human = await cli(['roundtrip', FILE]);
    expect(human.code).toBe(0);
    expectClean(human, 'roundtrip');
    expect(human.out).toContain(escapeControls(FILE));
    const json = await cli(['roundtrip', '--json', FILE]);
    expectClean(json, 'roundtrip --json');
    expect((JSON.parse(json.out) as { files: { file: string }[] }).files[0]!.file).toBe(FILE);
  });

  it('convert, output name and warnings', async () => {
    const out = `o\u001b[1m\u009b.glb`;
    const r = await cli(['convert', FILE, out]);
    expect(r.code).toBe(0);
    expectClean(r, 'convert');
    expect(r.out).toContain(escapeControls(out));
  });

  it('check, human and --json', async () => {
    const human = await cli(['check', 'dir']);
    expect(human.code).toBe(0);
    expectClean(human, 'check');
    const json = await cli(['check', '--json', 'dir']);
    expectClean(json, 'check --json');
    expect((JSON.parse(json.out) as { files: { file: string }[] }).files[0]!.file).toBe(FILE);
  }, 60_000);

  it('errors: a missing file and a rejected argument', async () => {
    const missing = await cli(['info', `gone\u001b[5m\u009b.model`]);
    expect(missing.code).toBe(2);
    expectClean(missing, 'missing file');
    const bad = await cli([`--bogus\u001b[5m\u009b`]);
    expect(bad.code).toBe(2);
    expectClean(bad, 'unknown option');
  });
});
