/**
 * The file-system side of texture resolution: a cached directory lookup for the pure rules in
 * shared/formats/texture/resolve.ts, the material library the model's codec declares, found near
 * the model, and attaching every resolved texture to a scene as PNG (what glTF export and the
 * viewport take).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { withBudget } from '../../shared/binary/budget.ts';
import { textureBudget } from '../../shared/formats/texture/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { decodeTexture, decodeTextureMip, probeTexture, type RgbaImage } from '../../shared/formats/texture/index.ts';
import { isOpaque } from '../../shared/formats/texture/image.ts';
import { findTag } from '../../shared/formats/texture/paa.ts';
import { encodePng } from '../../shared/formats/texture/png.ts';
import {
  conventionalTextureNames, findCaseInsensitive, parseProcedural,
  resolveTexture, searchRoots, type ResolveContext, type Resolution, type TextureLookup,
} from '../../shared/formats/texture/resolve.ts';
import { fsLookup, toSlash } from './fs-lookup.ts';
import { colourStage, parseRvmat, type RvmatStage } from '../../shared/formats/texture/rvmat.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import type { MaterialLibrary } from '../../shared/formats/capabilities.ts';

/** Largest texture file read for a preview or an export (no real texture comes near). */
const MAX_TEXTURE_FILE = 256 * 1024 * 1024;
/** Material-library scan bounds: folders walked and files read. */
const SCAN_DIRS = 400;
const SCAN_FILES = 200;

/** What a material's .rvmat holds, and which of its stages the preview or export draws. */
export interface MaterialStages {
  material: string;
  /** The .rvmat as written, and where it was found (absent: not found or unreadable). */
  rvmat: string;
  path?: string;
  stages: RvmatStage[];
  /** The stage whose texture was taken because the face names none. */
  drawn?: RvmatStage;
}

/** Largest .rvmat read (real ones are a few kB). */
const MAX_RVMAT = 1 << 20;

/**
 * Reads the .rvmat of every P3D material (found like a texture: roots, the model's folders, by
 * name) and, where the face names no texture, gives the material its colour stage's texture
 * (shared/formats/texture/rvmat.ts). Returns every rvmat's stages so the others can be reported.
 */
export function applyRvmatStages(scene: Scene, ctx: ResolveContext, lookup: TextureLookup): MaterialStages[] {
  const out: MaterialStages[] = [];
  const parsed = new Map<string, { path?: string; stages: RvmatStage[] }>();
  for (const m of scene.materials) {
    if (!m.rvmat) continue;
    let info = parsed.get(m.rvmat);
    if (!info) {
      info = { stages: [] };
      const r = resolveTexture(m.rvmat, ctx, lookup);
      if (r.kind === 'file' && /\.rvmat$/i.test(r.path)) {
        try {
          if (statSync(r.path).size <= MAX_RVMAT) info = { path: r.path, stages: parseRvmat(readFileSync(r.path, 'utf8')) };
        } catch {
          /* unreadable: reported as not found */
        }
      }
      parsed.set(m.rvmat, info);
    }
    const drawn = !m.texture && !m.textureData ? colourStage(info.stages) : undefined;
    if (drawn) m.texture = drawn.texture;
    out.push({ material: m.name, rvmat: m.rvmat, ...(info.path ? { path: info.path } : {}), stages: info.stages, ...(drawn ? { drawn } : {}) });
  }
  return out;
}

export interface TextureReport {
  /** Every P3D material's .rvmat stages (which one is drawn, which are not). */
  materials: MaterialStages[];
  /** Material name, the reference as written, and where it was found. */
  resolved: { material: string; written: string; path: string; via: string }[];
  /** References that found no file (as written), with the material naming them. */
  missing: { material: string; written: string }[];
  /** Files found that would not decode (path and one-line reason). */
  broken: { material: string; path: string; reason: string }[];
}

export interface TextureOptions {
  /** The user's roots (settings, --textures). */
  roots: readonly string[];
  /**
   * The model's material library (its codec's `textures.library`): materials without a texture
   * path find it there, or by conventional file names. Without one they have no texture.
   */
  library?: MaterialLibrary;
  /** Decoding budget limit per texture (default: 64 MiB + 16x the file). */
  maxMemory?: number;
}

/** Reads the format's material library files under the search roots, bounded. */
function materialLibrary(ctx: ResolveContext, lookup: TextureLookup, lib: MaterialLibrary | undefined): Map<string, string> {
  const ext = lib?.extension ?? '';
  const out = new Map<string, string>();
  if (!lib || !ext) return out;
  // The user's roots, and the model's folder with its two nearest parents (a mod's root is rarely higher).
  const starts = [...ctx.roots, ...searchRoots({ modelDir: ctx.modelDir, roots: [] }).slice(0, 3)];
  const seen = new Set<string>();
  let dirs = 0;
  let files = 0;
  const queue = [...starts];
  while (queue.length && dirs < SCAN_DIRS && files < SCAN_FILES) {
    const dir = queue.shift()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    dirs++;
    for (const name of lookup.list(dir) ?? []) {
      const full = dir.endsWith('/') ? dir + name : `${dir}/${name}`;
      if (name.toLowerCase().endsWith(ext) && lookup.isFile(full)) {
        files++;
        try {
          const text = readFileSync(full, 'utf8');
          const found = lib.parse(text);
          for (const [k, v] of found) if (!out.has(k)) out.set(k, v);
        } catch {
          // unreadable library: skip it
        }
      } else if (!name.startsWith('.') && lookup.list(full)) {
        queue.push(full);
      }
    }
  }
  return out;
}

/** Where a material's texture is, following the rules for its format. */
function resolveMaterial(
  written: string | undefined,
  material: string,
  ctx: ResolveContext,
  lookup: TextureLookup,
  library: () => Map<string, string>,
  hasLibrary: boolean,
): { res: Resolution; written: string } | undefined {
  if (written) return { res: resolveTexture(written, ctx, lookup), written };
  if (!hasLibrary) return undefined;
  const fromLib = library().get(material);
  if (fromLib) {
    const r = resolveTexture(fromLib, ctx, lookup);
    return { res: r.kind === 'file' ? { ...r, via: 'material library' } : r, written: fromLib };
  }
  for (const root of [ctx.modelDir, ...ctx.roots]) {
    for (const name of conventionalTextureNames(material)) {
      const hit = findCaseInsensitive(root, [name], lookup);
      if (hit) return { res: { kind: 'file', path: hit, via: 'model folder' }, written: name };
    }
  }
  return { res: { kind: 'missing', written: `${material} (material)` }, written: `${material} (material)` };
}

/** Decodes a texture file to its top mip, under its own budget; `alphaTest` when a PAA's FLAG says 2. */
export function readTexturePicture(path: string, maxMemory?: number): { image: RgbaImage; alphaTest: boolean } {
  const st = statSync(path);
  if (st.size > MAX_TEXTURE_FILE) throw new Error(`${st.size} bytes is larger than any texture`);
  const b = readFileSync(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return withBudget(textureBudget(bytes, probeTexture(bytes, path), maxMemory), () => {
    const doc = decodeTexture(bytes, path);
    const flag = doc.kind === 'paa' ? findTag(doc, 'FLAG')?.data[0] : undefined;
    return { image: decodeTextureMip(doc, 0), alphaTest: flag === 2 };
  });
}

/**
 * Gives every material of the scene that names a texture the texture's top mip as PNG bytes
 * (`textureData`), turns procedural references into the material colour, and re-encodes
 * embedded pictures glTF cannot hold (BMP, TGA) as PNG. Returns what resolved and what did not.
 */
export function attachSceneTextures(scene: Scene, modelPath: string, opts: TextureOptions): TextureReport {
  const lookup = fsLookup();
  const ctx: ResolveContext = { modelDir: toSlash(dirname(modelPath)), roots: opts.roots.map(toSlash) };
  const report: TextureReport = { materials: applyRvmatStages(scene, ctx, lookup), resolved: [], missing: [], broken: [] };
  let lib: Map<string, string> | undefined;
  const library = (): Map<string, string> => (lib ??= materialLibrary(ctx, lookup, opts.library));
  const pngs = new Map<string, { png: Uint8Array; alpha: 'blend' | 'alphaTest' | undefined } | null>();
  for (const m of scene.materials) {
    if (m.textureData && m.textureData.length) {
      const kind = probeTexture(m.textureData, m.texture ?? '');
      if (kind && kind !== 'png' && kind !== 'jpeg') {
        try {
          m.textureData = encodePng(withBudget(textureBudget(m.textureData, kind, opts.maxMemory), () => decodeTextureMip(decodeTexture(m.textureData!, m.texture ?? ''), 0)));
        } catch (e) {
          report.broken.push({ material: m.name, path: '(embedded)', reason: isDecodeError(e) ? e.message : String(e) });
          delete m.textureData;
        }
      }
      continue;
    }
    const procedural = m.texture ? parseProcedural(m.texture) : undefined;
    if (procedural) {
      m.color = [procedural.r / 255, procedural.g / 255, procedural.b / 255, procedural.a / 255];
      delete m.texture;
      continue;
    }
    const found = resolveMaterial(m.texture, m.name, ctx, lookup, library, !!opts.library);
    if (!found) continue;
    const { res, written } = found;
    if (res.kind === 'procedural') {
      m.color = [res.colour.r / 255, res.colour.g / 255, res.colour.b / 255, res.colour.a / 255];
      continue;
    }
    if (res.kind === 'missing') {
      report.missing.push({ material: m.name, written });
      continue;
    }
    if (!pngs.has(res.path)) {
      try {
        const { image, alphaTest } = readTexturePicture(res.path, opts.maxMemory);
        pngs.set(res.path, { png: encodePng(image), alpha: isOpaque(image) ? undefined : alphaTest ? 'alphaTest' : 'blend' });
      } catch (e) {
        pngs.set(res.path, null);
        report.broken.push({ material: m.name, path: res.path, reason: isDecodeError(e) ? e.message : (e as Error).message });
      }
    }
    const png = pngs.get(res.path);
    if (png) {
      m.textureData = png.png;
      // A texture with alpha draws blended (Arma _ca) or cut out (FLAG 2), unless the model says otherwise.
      if (png.alpha && m.blending === undefined) m.blending = png.alpha;
      if (!m.texture) m.texture = written;
      report.resolved.push({ material: m.name, written, path: res.path, via: res.via });
    }
  }
  return report;
}
