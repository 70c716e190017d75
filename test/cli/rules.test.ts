/**
 * The modding rules on the command line: `validate` (ids in brackets, errors first, --rule,
 * --no-rule, lodsmith.json, unknown ids), and `check` (a rules column, exit 1 on a rule error,
 * lookups inside a PBO by its prefix), on MLOD files the project builds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckSummary } from '../../main/cli/commands/check.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { buildPbo } from '../helpers/pbo.ts';
import { runCliIn } from './helpers/memory-io.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-rules-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = (args: string[]) => runCliIn(tmp, args);

/** A cube whose faces name `texture` (and no material), with a Geometry LOD that has mass and a component. */
function model(texture: string): Uint8Array {
  const c = cube(1);
  return encodeMlod(buildMlod([
    buildLod({ resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) }),
    buildLod({
      resolution: 1e13, ...c,
      tags: [
        { type: 'mass', name: '#Mass#', active: 1, masses: new Float32Array(8).fill(5) },
        { type: 'selection', name: 'Component01', active: 1, points: new Uint8Array(8).fill(1), faces: new Uint8Array(6).fill(1) },
      ],
    }),
  ]));
}
const paa = encodePaa(createPaa({ width: 8, height: 8, data: new Uint8Array(256).fill(200) }, { format: 'argb8888' }));

describe('modding rules on the command line', () => {
  mkdirSync(join(tmp, 'mymod', 'data'), { recursive: true });
  writeFileSync(join(tmp, 'mymod', 'data', 'box_co.paa'), paa);
  writeFileSync(join(tmp, 'mymod', 'data', 'good.p3d'), model('mymod\\data\\box_co.paa'));
  writeFileSync(join(tmp, 'mymod', 'data', 'drive.p3d'), model('P:\\mymod\\data\\box_co.paa'));

  it('validate: a clean model has no rule findings; a drive letter is an error with its id, the LOD and the path', async () => {
    const good = await cli(['validate', 'mymod/data/good.p3d']);
    expect(good.code, good.out).toBe(0);
    expect(good.out).not.toMatch(/\[path-/);
    const bad = await cli(['validate', 'mymod/data/drive.p3d']);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^error +LOD 1\.000, texture P:\\mymod\\data\\box_co\.paa .*is absolute .*\[path-absolute\]$/m);
    const json = JSON.parse((await cli(['validate', '--json', 'mymod/data/drive.p3d'])).out) as { problems: { rule?: string; severity: string }[] };
    expect(json.problems.find((p) => p.rule === 'path-absolute')?.severity).toBe('error');
  });

  it('validate: --no-rule and --rule choose; an unknown id is exit 2; lodsmith.json sets levels', async () => {
    expect((await cli(['validate', '--no-rule', 'path-absolute', 'mymod/data/drive.p3d'])).code).toBe(0);
    const only = await cli(['validate', '--rule', 'path-missing', 'mymod/data/drive.p3d']);
    expect(only.code).toBe(0);
    expect(only.out).not.toMatch(/path-absolute/);
    const typo = await cli(['validate', '--rule', 'path-absolut', 'mymod/data/drive.p3d']);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/no modding rule is called path-absolut/);
    writeFileSync(join(tmp, 'mymod', 'lodsmith.json'), JSON.stringify({ rules: { 'path-absolute': 'warning' } }));
    try {
      const relaxed = await cli(['validate', 'mymod/data/drive.p3d']);
      expect(relaxed.code).toBe(0);
      expect(relaxed.out).toMatch(/^warning .*\[path-absolute\]$/m);
      writeFileSync(join(tmp, 'mymod', 'lodsmith.json'), '{"rules": {"path-absolute": "loud"}}');
      const broken = await cli(['validate', 'mymod/data/drive.p3d']);
      expect(broken.code).toBe(2);
      expect(broken.err).toMatch(/lodsmith\.json: rule path-absolute: "loud" is not/);
    } finally {
      rmSync(join(tmp, 'mymod', 'lodsmith.json'));
    }
  });

  it('check: a rules column, the rule errors listed, exit 1; --no-rule clears it', async () => {
    const r = await cli(['check', '--jobs', '1', 'mymod']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^data\/drive\.p3d .* ok +1E 0W/m);
    expect(r.out).toMatch(/^data\/good\.p3d .* ok +ok /m);
    expect(r.out).toMatch(/^ {2}data\/drive\.p3d: LOD 1\.000, texture P:.*\[path-absolute\]$/m);
    expect((await cli(['check', '--jobs', '1', '--no-rule', 'path-absolute', 'mymod'])).code).toBe(0);
  });

  it('check inside a PBO: paths resolve among its entries under its prefix', async () => {
    const dir = join(tmp, 'addons');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mymod.pbo'), buildPbo([
      { name: 'data\\found.p3d', data: model('mymod\\data\\box_co.paa') },
      { name: 'data\\lost.p3d', data: model('mymod\\data\\gone_co.paa'), compress: true },
      { name: 'data\\box_co.paa', data: paa },
    ], { properties: [['prefix', 'mymod']] }));
    const s = JSON.parse((await cli(['check', '--json', '--jobs', '1', dir])).out) as CheckSummary;
    const byName = new Map(s.files.map((f) => [f.file, f]));
    expect(byName.get('mymod.pbo::data\\found.p3d')!.rules!.problems).toEqual([]);
    expect(byName.get('mymod.pbo::data\\lost.p3d')!.rules!.problems.map((p) => p.rule)).toEqual(['path-missing']);
  });
});
