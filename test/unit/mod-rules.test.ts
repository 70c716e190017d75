/**
 * Modding rules (shared/formats/p3d/rules.ts): a clean model the project builds breaks none of
 * them; for every rule, a file made from it (encoded and decoded again) that breaks exactly that
 * rule is reported under that rule's id alone; rule choices (only, off, levels, lodsmith.json);
 * and the real corpus models: no errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import type { MlodDocument, MlodTag } from '../../shared/formats/p3d/mlod/types.ts';
import { P3D_RULES, p3dRuleSet } from '../../shared/formats/p3d/rules.ts';
import { parseRuleConfig, runRules, unknownRuleIds, type RuleEnvironment } from '../../shared/model/rules.ts';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import { fileRuleEnvironment } from '../../main/documents/rules-env.ts';
import { decodeTexture, textureSize } from '../../shared/formats/texture/index.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

/** Files exist unless their name says `missing`; textures are 256x256 unless named `npot`. */
const env: RuleEnvironment = {
  exists: (w) => !/missing/i.test(w),
  textureSize: (w) => (/npot/i.test(w) ? { width: 300, height: 256 } : { width: 256, height: 256 }),
};

const a = { active: 1 };
/** A cube's triangles (12), closed, for the Shadow Volume. */
function triangles(faces: readonly (readonly number[])[]): number[][] {
  return faces.flatMap((f) => [[f[0]!, f[1]!, f[2]!], [f[0]!, f[2]!, f[3]!]]);
}

interface Parts {
  visualTexture?: string;
  visualMaterial?: string;
  uv?: number[];
  geometryTags?: MlodTag[];
  geometryFaces?: number[][];
  geometryPoints?: number[];
  shadowFaces?: number[][];
  extraLod?: number;
  visualTags?: MlodTag[];
  visualFaces?: number[][];
  visualPoints?: number[];
}

/** Visual LOD (textured cube), Geometry (cube, mass, Component01), Shadow Volume (closed triangles). */
function model(p: Parts = {}): MlodDocument {
  const c = cube(1);
  const vf = p.visualFaces ?? c.faces;
  const uvs = vf.map(() => p.uv ?? [0, 0, 1, 0, 1, 1, 0, 1]);
  const all8 = new Uint8Array(8).fill(1);
  const gf = p.geometryFaces ?? c.faces;
  const lods = [
    buildLod({
      resolution: 1, points: p.visualPoints ?? c.points, faces: vf, uvs,
      textures: vf.map(() => p.visualTexture ?? 'mymod\\data\\box_co.paa'),
      materials: vf.map(() => p.visualMaterial ?? 'mymod\\data\\box.rvmat'),
      tags: p.visualTags ?? [{ type: 'selection', name: 'door', ...a, points: Uint8Array.of(1, 1, 0, 0, 0, 0, 0, 0), faces: new Uint8Array(vf.length) }],
    }),
    buildLod({
      resolution: 1e13, points: p.geometryPoints ?? c.points, faces: gf,
      tags: p.geometryTags ?? [
        { type: 'mass', name: '#Mass#', ...a, masses: new Float32Array(8).fill(10) },
        { type: 'selection', name: 'Component01', ...a, points: all8, faces: new Uint8Array(gf.length).fill(1) },
      ],
    }),
    buildLod({ resolution: 10000, points: c.points, faces: p.shadowFaces ?? triangles(c.faces) }),
  ];
  if (p.extraLod !== undefined) lods.push(buildLod({ resolution: p.extraLod, points: c.points, faces: c.faces }));
  // A file, as a modder's tool would have written it, read back.
  return decodeMlod(encodeMlod(buildMlod(lods)));
}

const rulesOf = (doc: MlodDocument): string[] => [...new Set(runRules(p3dRuleSet, doc, env).map((p) => p.rule))].sort();

/** Each rule and a model that breaks it alone. */
const BREAKERS: Record<string, () => MlodDocument> = {
  'path-absolute': () => model({ visualTexture: 'P:\\mymod\\data\\box_co.paa' }),
  'path-leading-backslash': () => model({ visualMaterial: '\\mymod\\data\\box.rvmat' }),
  'path-forward-slash': () => model({ visualTexture: 'mymod/data/box_co.paa' }),
  'path-missing': () => model({ visualTexture: 'mymod\\data\\missing_co.paa' }),
  'texture-not-power-of-two': () => model({ visualTexture: 'mymod\\data\\npot_co.paa' }),
  'lod-duplicate-resolution': () => model({ extraLod: 1 }),
  'geometry-no-mass': () => model({ geometryTags: [{ type: 'selection', name: 'Component01', ...a, points: new Uint8Array(8).fill(1), faces: new Uint8Array(6).fill(1) }] }),
  'geometry-no-components': () => model({ geometryTags: [{ type: 'mass', name: '#Mass#', ...a, masses: new Float32Array(8).fill(10) }] }),
  'geometry-component-open': () => model({ geometryFaces: cube(1).faces.slice(0, 5) }),
  // The cube with one corner pushed in: still closed, no longer convex.
  'geometry-component-concave': () => model({ geometryPoints: cube(1).points.map((v, i) => (i >= 21 ? 0.1 : v)) }),
  'shadow-non-triangle': () => model({ shadowFaces: [...triangles(cube(1).faces).slice(0, 10), cube(1).faces[5]!] }),
  'shadow-open': () => model({ shadowFaces: triangles(cube(1).faces).slice(0, 11) }),
  'face-too-many-vertices': () => {
    const doc = model();
    doc.lods[0]!.faces.vertexCount[2] = 5;
    return doc;
  },
  'face-degenerate': () => model({ visualFaces: [...cube(1).faces, [0, 1, 1, 2]] }),
  'proxy-missing': () => {
    const c = cube(1);
    const sel = new Uint8Array(9);
    sel.set([1, 1, 1], 0);
    return model({ visualTags: [{ type: 'selection', name: 'proxy:\\mymod\\proxies\\missing_seat.001', ...a, points: new Uint8Array(8).fill(0).map((_, i) => (i < 3 ? 1 : 0)), faces: new Uint8Array(c.faces.length) }] });
  },
  'selection-empty': () => model({ visualTags: [{ type: 'selection', name: 'nothing', ...a, points: new Uint8Array(8), faces: new Uint8Array(6) }] }),
  'uv-nan': () => model({ uv: [0, 0, NaN, 0, 1, 1, 0, 1] }),
  'uv-far-outside': () => model({ uv: [0, 0, 4000, 0, 1, 1, 0, 1] }),
};

describe('modding rules', () => {
  it('every rule has a breaker here, and docs/rules.md describes it', () => {
    expect(Object.keys(BREAKERS).sort()).toEqual(P3D_RULES.map((r) => r.id).sort());
    const doc = readFileSync(join(__dirname, '../../docs/rules.md'), 'utf8');
    for (const r of P3D_RULES) expect(doc, r.id).toContain(`\`${r.id}\``);
  });

  it('the clean model breaks none', () => {
    expect(rulesOf(model())).toEqual([]);
  });

  for (const [id, make] of Object.entries(BREAKERS)) {
    it(`${id}: a file that breaks it alone is reported under it alone, with where and why`, () => {
      const problems = runRules(p3dRuleSet, make(), env);
      expect([...new Set(problems.map((p) => p.rule))]).toEqual([id]);
      const p = problems[0]!;
      expect(p.severity).toBe(P3D_RULES.find((r) => r.id === id)!.severity);
      expect(p.where).toMatch(/^LOD /);
      expect(p.message).toContain(`[${id}]`);
      expect(p.message.split('\n')).toHaveLength(1);
    });
  }

  it('choices: --rule keeps only those, --no-rule drops, lodsmith.json levels change or turn off', () => {
    const doc = model({ visualTexture: 'P:\\mymod\\data\\missing/box_co.paa' });
    expect(rulesOf(doc)).toEqual(['path-absolute', 'path-forward-slash', 'path-missing']);
    expect(runRules(p3dRuleSet, doc, env, { only: ['path-missing'] }).map((p) => p.rule)).toEqual(['path-missing']);
    expect(runRules(p3dRuleSet, doc, env, { off: ['path-missing', 'path-absolute'] }).map((p) => p.rule)).toEqual(['path-forward-slash']);
    const config = parseRuleConfig({ rules: { 'path-absolute': 'warning', 'path-missing': 'off' } });
    if (typeof config === 'string') throw new Error(config);
    expect(runRules(p3dRuleSet, doc, env, config).map((p) => `${p.severity} ${p.rule}`)).toEqual(['warning path-absolute', 'warning path-forward-slash']);
    expect(parseRuleConfig({ rules: { x: 'loud' } })).toMatch(/"loud" is not/);
    expect(unknownRuleIds({ only: ['path-missing', 'no-such-rule'] }, P3D_RULES)).toEqual(['no-such-rule']);
  });

  it('grouped by severity: errors come first', () => {
    const doc = model({ visualTexture: 'P:/mymod/data/box_co.paa' });
    const sev = runRules(p3dRuleSet, doc, env).map((p) => p.severity);
    expect(sev).toEqual([...sev].sort((x, y) => (x === y ? 0 : x === 'error' ? -1 : 1)));
  });

  it.skipIf(!hasCorpus)('real corpus models the game accepts: no errors (warnings only where true)', () => {
    const sizeOf = (p: string) => {
      try {
        return textureSize(decodeTexture(readBytes(p), p));
      } catch {
        return undefined;
      }
    };
    const files = [...corpusFiles('p3d_mlod'), ...corpusFiles('p3d_odol'), join(corpusDir, 'textured/quikclot/@ace321/addons/ace_medical/data/QuikClot.p3d')];
    let checked = 0;
    for (const f of files) {
      const bytes = readBytes(f);
      const codec = detectFormat(bytes, f)!;
      const doc = codec.decode(bytes) as object;
      const errors = runRules(codec.rules!, doc, fileRuleEnvironment(f, [], sizeOf)).filter((p) => p.severity === 'error');
      expect(errors.map((e) => `${f}: ${e.where}: ${e.message}`)).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });
});
