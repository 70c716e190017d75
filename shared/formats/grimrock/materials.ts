/** Grimrock's material library: the Lua files beside a model that name each material's textures. */
import type { MaterialLibrary } from '../capabilities.ts';

/**
 * Grimrock material definitions in Lua (`defineMaterial{ name = "x", diffuseMap = "mod_assets/...tga" }`):
 * material name -> diffuse map path as written.
 */
export function parseGrimrockMaterials(lua: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /defineMaterial\s*\{/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(lua))) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    while (i < lua.length && depth > 0) {
      const ch = lua[i++];
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
    }
    const body = lua.slice(start, i - 1);
    const name = /\bname\s*=\s*"([^"]*)"/.exec(body)?.[1];
    const diffuse = /\bdiffuseMap\s*=\s*"([^"]*)"/.exec(body)?.[1];
    if (name !== undefined && diffuse) out.set(name, diffuse);
  }
  return out;
}

/** What a Grimrock model's materials reference: textures named by the `.lua` material library. */
export const GRIMROCK_MATERIALS: MaterialLibrary = { extension: '.lua', parse: parseGrimrockMaterials };
