/**
 * What `lodsmith check` keeps for its whole run may not change what it reports: a worker keeps
 * one disk snapshot (fs-lookup.ts) for every model it checks, with each folder's names indexed
 * for case-insensitive matches, and each folder's rule choices. Checked by checking models one
 * after another in one process (as one worker does), whose path findings must be those of each
 * model checked with a fresh snapshot, where references to the same folders differ in case, a
 * folder holds two names that differ only in case, and one folder lacks the file.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile, type CheckResult } from '../../main/cli/check-file.ts';
import { fsLookup, toSlash } from '../../main/documents/fs-lookup.ts';
import { fileRuleEnvironment, loadTextureCodecs, textureFileSize } from '../../main/documents/rules-env.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import '../../shared/formats/index.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { p3dRuleSet } from '../../shared/formats/p3d/rules.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { findCaseInsensitive, resolveTexture, type TextureLookup } from '../../shared/formats/texture/resolve.ts';
import { runRules } from '../../shared/model/rules.ts';

const root = mkdtempSync(join(tmpdir(), 'lodsmith-check-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A PAA of the given size (a side that is not a power of two breaks texture-not-power-of-two). */
function paa(width: number, height: number): Uint8Array {
  return encodePaa(createPaa({ width, height, data: new Uint8Array(width * height * 4).fill(255) }));
}

/** A cube MLOD whose faces use `texture` (and a material that exists nowhere). */
function model(texture: string): Uint8Array {
  const c = cube(1);
  return encodeMlod(buildMlod([buildLod({
    resolution: 1, points: c.points, faces: c.faces, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]),
    textures: c.faces.map(() => texture), materials: c.faces.map(() => ''),
  })]));
}

function put(rel: string, bytes: Uint8Array): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, bytes);
}

/** Models (path -> texture they name) and textures on disk, in the order one worker checks them. */
const MODELS: [string, string][] = [
  // Found beside the model, in a folder whose names differ in case from the reference.
  ['a/one.p3d', 'data\\box_co.paa'],
  // The same folder, now named in yet another case, and a name found exactly after that.
  ['a/two.p3d', 'DATA\\BOX_CO.PAA'],
  ['a/three.p3d', 'data\\Box_CO.paa'],
  // The same reference from another folder that has its own file, with other case on disk.
  ['b/one.p3d', 'data\\box_co.paa'],
  // A folder without it: missing (after the same written path was found for other models).
  ['c/one.p3d', 'data\\box_co.paa'],
  // A folder with X_co.paa (4x4) and x_co.paa (12x4, not a power of two): each exact name finds its own file.
  ['d/one.p3d', 'data\\x_co.paa'],
  ['d/two.p3d', 'data\\X_co.paa'],
  // No exact name: the first of the two in the folder's listing order, as without the index.
  ['d/three.p3d', 'data\\X_CO.PAA'],
];

put('a/data/Box_CO.paa', paa(4, 4));
put('b/Data/BOX_co.PAA', paa(12, 4));
put('d/data/X_co.paa', paa(4, 4));
put('d/data/x_co.paa', paa(12, 4));
for (const [file, texture] of MODELS) put(file, model(texture));

type Finding = { rule: string; message: string };
const pathFindings = (r: CheckResult): Finding[] => (r.rules?.problems ?? []).filter((p) => p.rule.startsWith('path') || p.rule.startsWith('texture')).map((p) => ({ rule: p.rule, message: p.message }));

/** One model's path findings with a snapshot of its own (what the editor's Problems panel does). */
async function alone(file: string): Promise<Finding[]> {
  await loadTextureCodecs();
  const abs = join(root, file);
  const doc = decodeMlod(new Uint8Array(readFileSync(abs)));
  const env = fileRuleEnvironment(abs, [], (p) => textureFileSize(p));
  return runRules(p3dRuleSet, doc, env).filter((p) => p.rule.startsWith('path') || p.rule.startsWith('texture')).map((p) => ({ rule: p.rule, message: p.message }));
}

describe('check keeps one disk snapshot per worker', () => {
  it('every model gets the path findings it gets alone, whatever the models before it found', async () => {
    const got: Record<string, Finding[]> = {};
    // Twice over, the second pass finding every folder already listed and indexed.
    for (let pass = 0; pass < 2; pass++) {
      for (const [file] of MODELS) {
        const r = await checkFile({ abs: join(root, file), file, strict: true });
        expect(r.result, `${file}: ${r.detail}`).toBe('ok');
        const f = pathFindings(r);
        if (pass === 0) got[file] = f;
        else expect(f, `${file}, second pass`).toEqual(got[file]);
      }
    }
    for (const [file] of MODELS) expect(got[file], file).toEqual(await alone(file));
    const rules = (file: string): string[] => got[file]!.map((p) => p.rule);
    // Found, whatever the case: no finding (a 4x4 texture).
    expect(rules('a/one.p3d')).toEqual([]);
    expect(rules('a/two.p3d')).toEqual([]);
    expect(rules('a/three.p3d')).toEqual([]);
    // b's own 12x4 texture, not a's 4x4 one found for the same written path before.
    expect(rules('b/one.p3d')).toEqual(['texture-not-power-of-two']);
    expect(rules('c/one.p3d')).toEqual(['path-missing']);
    // The exact names: x_co.paa is 12x4, X_co.paa 4x4.
    expect(rules('d/one.p3d')).toEqual(['texture-not-power-of-two']);
    expect(rules('d/two.p3d')).toEqual([]);
    // No exact name: whichever of the two the folder lists first.
    const first = readdirSync(join(root, 'd/data')).find((n) => n.toLowerCase() === 'x_co.paa');
    expect(rules('d/three.p3d')).toEqual(first === 'x_co.paa' ? ['texture-not-power-of-two'] : []);
  });

  it('the indexed folder match answers as the scan of the folder names does', () => {
    const indexed = fsLookup();
    // The same disk without `match`: the resolver scans the listing.
    const plain = fsLookup();
    const scanned: TextureLookup = { list: (d) => plain.list(d), isFile: (p) => plain.isFile(p) };
    const top = toSlash(root);
    const written = [
      ...MODELS.map(([, w]) => w), 'a\\data\\box_co.paa', 'A\\DATA\\BOX_CO.PAA', 'b\\data\\box_co.paa', 'c\\data\\box_co.paa', 'd\\data\\X_CO.PAA', 'D\\Data\\x_CO.tga', 'box_co.paa',
    ];
    for (const dir of ['a', 'b', 'c', 'd', 'd/data']) {
      const ctx = { modelDir: toSlash(join(root, dir)), roots: [top] };
      for (const w of written) expect(resolveTexture(w, ctx, indexed), `${w} from ${dir}`).toEqual(resolveTexture(w, ctx, scanned));
    }
    // Hits that differ in case only: each exact name is its own file.
    expect(findCaseInsensitive(top, ['d', 'data', 'x_co.paa'], indexed)).toBe(`${top}/d/data/x_co.paa`);
    expect(findCaseInsensitive(top, ['d', 'data', 'X_co.paa'], indexed)).toBe(`${top}/d/data/X_co.paa`);
    expect(findCaseInsensitive(top, ['B', 'DATA', 'box_co.paa'], indexed)).toBe(`${top}/b/Data/BOX_co.PAA`);
    expect(findCaseInsensitive(top, ['c', 'data', 'box_co.paa'], indexed)).toBeUndefined();
  });
});
