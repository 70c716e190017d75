/**
 * `lodsmith pbo list|extract` and `check` descending into PBO archives, on archives this test
 * builds (raw and compressed) around the bundled sample, a PAA the project writes and, when the
 * corpus is there, real models: extraction agrees byte for byte with the entries, check reports
 * every model inside as `archive.pbo::path`, unreadable entries are refused with a reason.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckSummary } from '../../main/cli/commands/check.ts';
import { parsePbo } from '../../shared/formats/pbo/pbo.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../helpers/corpus.ts';
import { buildPbo, text, type PboBuildEntry } from '../helpers/pbo.ts';
import { runCliIn } from './helpers/memory-io.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-pbo-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = (args: string[]) => runCliIn(tmp, args);

const sample = readBytes(join(repoRoot, 'build/sample/sample.lod'));
const picture = { width: 8, height: 8, data: new Uint8Array(256).map((_, i) => (i * 37) & 255) };
const paa = encodePaa(createPaa(picture, { format: 'argb8888' }));
/** Real models when the corpus is there: two MLOD, one ODOL. */
const real: PboBuildEntry[] = hasCorpus
  ? [
      ...corpusFiles('p3d_mlod').slice(0, 2).map((f, i) => ({ name: `data\\mlod${i}.p3d`, data: readBytes(f) })),
      ...corpusFiles('p3d_odol').slice(0, 1).map((f) => ({ name: 'data\\odol.p3d', data: readBytes(f) })),
    ]
  : [];

function entries(compress: boolean): PboBuildEntry[] {
  return [
    { name: 'config.cpp', data: text('class CfgPatches { class box {}; };\n'), compress },
    { name: 'data\\sample.lod', data: sample, compress },
    { name: 'data\\box_co.paa', data: paa, compress },
    ...real.map((e) => ({ ...e, compress })),
  ];
}

describe('lodsmith pbo', () => {
  const rawPath = join(tmp, 'raw.pbo');
  const packedPath = join(tmp, 'packed.pbo');
  writeFileSync(rawPath, buildPbo(entries(false), { properties: [['prefix', 'z\\test\\addons\\raw'], ['product', 'arma3']] }));
  writeFileSync(packedPath, buildPbo(entries(true), { properties: [['prefix', 'z\\test\\addons\\packed']] }));

  it('list: properties, then every entry with its size, stored size, packing and time; --json the same', async () => {
    const r = await cli(['pbo', 'list', 'packed.pbo']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^prefix = z\\test\\addons\\packed$/m);
    expect(r.out).toMatch(new RegExp(`^data\\\\sample\\.lod\\s+${sample.length}\\s+\\d+\\s+LZSS\\s+2023-11-14T22:13:20Z$`, 'm'));
    const j = await cli(['pbo', 'list', 'raw.pbo', '--json']);
    const out = JSON.parse(j.out) as { prefix: string; properties: Record<string, string>; entries: { name: string; size: number; stored: number; packing: string }[] };
    expect(out.prefix).toBe('z\\test\\addons\\raw');
    expect(out.properties.product).toBe('arma3');
    expect(out.entries.map((e) => e.name)).toEqual(entries(false).map((e) => e.name));
    for (const e of out.entries) expect(e.stored).toBe(e.size);
    const only = await cli(['pbo', 'list', 'raw.pbo', '*.paa']);
    expect(only.out).toMatch(/1 entry matching \*\.paa/);
  });

  it('extract: every entry byte for byte (raw and compressed), the sizes the listing gave; a pattern picks', async () => {
    for (const [path, dir] of [[rawPath, 'out-raw'], [packedPath, 'out-packed']] as const) {
      const r = await cli(['pbo', 'extract', path, '-o', dir]);
      expect(r.code, r.err).toBe(0);
      const a = parsePbo(readBytes(path));
      for (const e of entries(false)) {
        const got = readBytes(join(tmp, dir, ...e.name.split('\\')));
        expect(Buffer.from(got).equals(Buffer.from(e.data)), e.name).toBe(true);
        expect(got.length).toBe(a.entries.find((x) => x.name === e.name)!.size);
      }
    }
    const one = await cli(['pbo', 'extract', packedPath, 'data\\*.lod', '-o', 'one']);
    expect(one.code).toBe(0);
    expect(readdirSync(join(tmp, 'one', 'data'))).toEqual(['sample.lod']);
    // Existing files are kept unless --force.
    const again = await cli(['pbo', 'extract', packedPath, 'data\\*.lod', '-o', 'one']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/sample\.lod: not extracted: .* exists \(--force replaces it\)/);
    expect((await cli(['pbo', 'extract', packedPath, 'data\\*.lod', '-o', 'one', '--force'])).code).toBe(0);
  });

  it('an obfuscated archive: readable entries extract, the rest are named with the reason and exit 1', async () => {
    writeFileSync(join(tmp, 'obf.pbo'), buildPbo([
      { name: 'data\\sample.lod', data: sample },
      { name: '..\\..\\outside.lod', data: sample },
      { name: 'data\\x\u0007.lod', data: sample },
    ], { properties: [['prefix', 'obf']] }));
    const list = await cli(['pbo', 'list', 'obf.pbo']);
    expect(list.code).toBe(1);
    expect(list.out).toMatch(/\.\.\\\.\.\\outside\.lod: its name leaves the archive/);
    expect(list.out).toMatch(/data\\x\\x07\.lod: its name holds control characters/);
    const r = await cli(['pbo', 'extract', 'obf.pbo', '-o', 'obf']);
    expect(r.code).toBe(1);
    expect(readBytes(join(tmp, 'obf', 'data', 'sample.lod')).length).toBe(sample.length);
    expect(existsSync(join(tmp, 'outside.lod'))).toBe(false);
    expect(r.err).toMatch(/obf\.pbo::\.\.\\\.\.\\outside\.lod: not extracted: its name leaves the archive/);
  });

  it('a file that is no PBO: one line with the offset, exit 2', async () => {
    writeFileSync(join(tmp, 'junk.pbo'), new Uint8Array(40).fill(65));
    const r = await cli(['pbo', 'list', 'junk.pbo']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/junk\.pbo: .* at offset \d+/);
  });
});

describe('lodsmith check over PBO archives', () => {
  it('reports every model and texture inside each archive as archive.pbo::path, ok', async () => {
    const dir = join(tmp, 'mod', 'addons');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'raw.pbo'), buildPbo(entries(false), { properties: [['prefix', 'raw']] }));
    writeFileSync(join(dir, 'packed.pbo'), buildPbo(entries(true), { properties: [['prefix', 'packed']] }));
    const r = await cli(['check', '--json', '--jobs', '2', dir]);
    const s = JSON.parse(r.out) as CheckSummary;
    const want = entries(false).filter((e) => !e.name.endsWith('.cpp')).map((e) => e.name);
    const names = s.files.map((f) => f.file).sort();
    expect(names).toEqual([...want.map((n) => `packed.pbo::${n}`), ...want.map((n) => `raw.pbo::${n}`)].sort());
    for (const f of s.files) expect(f.result, `${f.file}: ${f.detail}`).toBe('ok');
    expect(s.files.find((f) => f.file === 'packed.pbo::data\\sample.lod')!.bytes).toBe(sample.length);
    expect(s.skipped).toBe(2); // the two config.cpp
    expect(r.code).toBe(0);
  });

  it('an archive that does not open and entries that cannot be read are failures with the reason', async () => {
    const dir = join(tmp, 'badmod');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'junk.pbo'), new Uint8Array(40).fill(65));
    writeFileSync(join(dir, 'obf.pbo'), buildPbo([{ name: 'a.lod', data: sample }, { name: 'a.LOD', data: sample }], { properties: [] }));
    const r = await cli(['check', dir]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/junk\.pbo: .* at offset \d+/);
    expect(r.out).toMatch(/obf\.pbo::a\.LOD: cannot be read: the name is used by an earlier entry/);
    expect(r.out).toMatch(/^obf\.pbo::a\.lod\s+lodka-lod/m);
  });

  // No real PBO is in the corpus (its models were extracted from PBOs; see MANIFEST.tsv).
  const realPbos = existsSync(join(corpusDir, 'pbo')) ? readdirSync(join(corpusDir, 'pbo')).filter((f) => f.toLowerCase().endsWith('.pbo')) : [];
  it.skipIf(realPbos.length === 0)('real archives: extraction agrees with the stored sizes (skipped: no corpus pbo/ folder)', async () => {
    for (const f of realPbos) {
      const path = join(corpusDir, 'pbo', f);
      const a = parsePbo(readBytes(path));
      const r = await cli(['pbo', 'extract', path, '-o', `real-${f}`]);
      expect(r.code, r.err).toBe(0);
      for (const e of a.entries) {
        const got = readFileSync(join(tmp, `real-${f}`, ...e.name.split('\\')));
        expect(got.length).toBe(e.size);
        if (e.packing === 'stored') expect(got.equals(Buffer.from(readBytes(path).subarray(e.dataOffset, e.dataOffset + e.dataSize)))).toBe(true);
      }
    }
  });
});
