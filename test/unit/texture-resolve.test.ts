/** The texture path rules, over an in-memory file tree. */
import { describe, expect, it } from 'vitest';
import {
  parentDir, parseGrimrockMaterials, parseProcedural, parseUnigineMaterials, referenceSegments, resolveTexture, searchRoots, type TextureLookup,
} from '../../shared/formats/texture/resolve.ts';

/** Files as absolute paths; directories are implied. */
function tree(files: string[]): TextureLookup {
  const dirs = new Map<string, Set<string>>();
  for (const f of files) {
    const segs = f.split('/').filter(Boolean);
    let cur = '';
    for (const s of segs) {
      const parent = cur || '/';
      if (!dirs.has(parent)) dirs.set(parent, new Set());
      dirs.get(parent)!.add(s);
      cur = `${cur}/${s}`;
    }
  }
  return { list: (d) => (dirs.has(d) ? [...dirs.get(d)!] : undefined), isFile: (p) => files.includes(p) };
}

describe('texture path resolution', () => {
  const fs = tree([
    '/pdrive/A3/Data_F/X_CO.paa',
    '/mods/@m/addons/m/data/Body_CO.paa',
    '/mods/@m/addons/m/data/body.p3d',
    '/mods/@m/addons/m/data/old_co.paa',
  ]);
  const ctx = { modelDir: '/mods/@m/addons/m/data', roots: ['/pdrive'] };

  it('a root-relative path, case-insensitive, either separator, drive letter dropped', () => {
    expect(resolveTexture('a3\\data_f\\x_co.paa', ctx, fs)).toEqual({ kind: 'file', path: '/pdrive/A3/Data_F/X_CO.paa', via: 'root' });
    expect(resolveTexture('P:\\a3/data_f\\X_co.PAA', ctx, fs)).toMatchObject({ kind: 'file', path: '/pdrive/A3/Data_F/X_CO.paa' });
    expect(resolveTexture('\\a3\\data_f\\x_co.paa', ctx, fs)).toMatchObject({ kind: 'file' });
  });

  it('a parent of the model folder is a root; then the file name beside the model; source extensions swap to .paa', () => {
    expect(resolveTexture('addons\\m\\data\\body_co.paa', ctx, fs)).toEqual({ kind: 'file', path: '/mods/@m/addons/m/data/Body_CO.paa', via: 'root' });
    expect(resolveTexture('z\\other\\layout\\body_co.paa', ctx, fs)).toEqual({ kind: 'file', path: '/mods/@m/addons/m/data/Body_CO.paa', via: 'model folder' });
    expect(resolveTexture('m\\data\\old_co.tga', ctx, fs)).toMatchObject({ kind: 'file', path: '/mods/@m/addons/m/data/old_co.paa' });
  });

  it('missing, .. and empty references stay as written; procedural colours are parsed', () => {
    expect(resolveTexture('a3\\data_f\\nothing.paa', ctx, fs)).toEqual({ kind: 'missing', written: 'a3\\data_f\\nothing.paa' });
    expect(resolveTexture('..\\..\\etc\\x_co.paa', ctx, fs)).toEqual({ kind: 'missing', written: '..\\..\\etc\\x_co.paa' });
    expect(referenceSegments('P:\\')).toBeUndefined();
    expect(resolveTexture('#(argb,8,8,3)color(1,0,0,1,co)', ctx, fs)).toEqual({ kind: 'procedural', colour: { r: 255, g: 0, b: 0, a: 255 } });
    expect(parseProcedural('#(argb,8,8,3)color(0.5,0.5,0.5,0.25,ca)')).toEqual({ r: 128, g: 128, b: 128, a: 64 });
    expect(parseProcedural('a\\b.paa')).toBeUndefined();
  });

  it('roots: the user roots first, then the model folder and each parent', () => {
    expect(searchRoots({ modelDir: '/a/b', roots: ['/r'] })).toEqual(['/r', '/a/b', '/a', '/']);
    expect(parentDir('C:/x')).toBe('C:/');
    expect(parentDir('C:/')).toBeUndefined();
  });

  it('Grimrock Lua and Unigine .mat material libraries', () => {
    const lua = 'defineMaterial{\n\tname = "dagger",\n\tdiffuseMap = "mod_assets/textures/dagger_dif.tga",\n\ttexOffset = {0, 1},\n}\ndefineMaterial{ name = "bare" }';
    expect([...parseGrimrockMaterials(lua)]).toEqual([['dagger', 'mod_assets/textures/dagger_dif.tga']]);
    const mat = '<materials><material name="rock" parent="mesh_base"><texture name="diffuse">textures/rock_d.dds</texture></material></materials>';
    expect([...parseUnigineMaterials(mat)]).toEqual([['rock', 'textures/rock_d.dds']]);
  });
});
