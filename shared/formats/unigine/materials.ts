/** Unigine's material library: the `.mat` XML files beside a mesh that name each material's textures. */
import type { MaterialLibrary } from '../capabilities.ts';

/**
 * Unigine material libraries (`.mat`, XML): `<material name="x">` with a `<texture name="diffuse">`
 * or `name="albedo"` child -> its path as written.
 */
export function parseUnigineMaterials(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /<material\b([^>]*)>([\s\S]*?)<\/material>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    const name = /\bname\s*=\s*"([^"]*)"/.exec(m[1]!)?.[1];
    const tex = /<texture\b[^>]*\bname\s*=\s*"(?:diffuse|albedo|base_color)"[^>]*>([^<]+)<\/texture>/i.exec(m[2]!)?.[1]?.trim();
    if (name !== undefined && tex) out.set(name, tex);
  }
  return out;
}

/** What a Unigine mesh's materials reference: textures named by the `.mat` material library. */
export const UNIGINE_MATERIALS: MaterialLibrary = { extension: '.mat', parse: parseUnigineMaterials };
