/**
 * The textures a document's materials reference: embedded pictures, files resolved by the rules
 * of textures.md and decoded to images the renderer shows (cached), the "texture not found"
 * problems, .rvmat material stages, and the prefetch right after an open.
 */
import { dirname, extname, join } from 'node:path';
import type { DocId } from '../../shared/ipc/contract.ts';
import type { Problem } from '../../shared/model/problems.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { describeStages } from '../../shared/formats/texture/rvmat.ts';
import { isTextureName } from '../../shared/formats/texture/index.ts';
import { resolveTexture } from '../../shared/formats/texture/resolve.ts';
import { applyRvmatStages, type MaterialStages } from './scene-textures.ts';
import { fsLookup, toSlash } from './fs-lookup.ts';
import { TexturePictureCache } from './texture-cache.ts';
import { PboFile } from './pbo-file.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';

/** The image types the texture lookup serves from disk (never other files beside a model). */
export const TEXTURE_EXTENSIONS: readonly string[] = ['.paa', '.pac', '.tga', '.dds', '.edds', '.png', '.jpg', '.jpeg', '.bmp'];
/** Texture files decoded ahead when a model opens (the picture cache keeps 64). */
const PREFETCH_TEXTURES = 16;
/** How long a scene built ahead for the preview's first request is kept for it. */
const SCENE_AHEAD_MS = 30_000;

export class DocumentTextures {
  private readonly s: DocumentStore;

  constructor(s: DocumentStore) {
    this.s = s;
  }

  private readonly pictures = new TexturePictureCache();

  /** Where a texture reference of this document resolves (the rules of textures.md), or why not. */
  private resolveReference(d: OpenDocument, written: string): ReturnType<typeof resolveTexture> {
    // The user's texture folders first, then the folders the host was given.
    const roots = this.s.textureRoots().map(toSlash);
    // Dropped bytes have no folder of their own to resolve against.
    if (d.abs === null) return { kind: 'missing', written };
    return resolveTexture(written, { modelDir: toSlash(dirname(d.abs)), roots }, fsLookup());
  }

  /**
   * "texture not found" warnings for the files the model's materials name (P3D paths; procedural
   * textures and embedded images need no file), recomputed once per revision.
   */
  textureProblems(d: OpenDocument): Problem[] {
    if (d.textureProblems?.revision === d.revision) return d.textureProblems.problems;
    const problems: Problem[] = [];
    if (d.codec.textures?.files) {
      try {
        const { scene, stages } = this.plainScene(d);
        const seen = new Set<string>();
        for (const m of scene.materials) {
          if (!m.texture || m.textureData || seen.has(m.texture)) continue;
          seen.add(m.texture);
          const r = d.archive ? { kind: archiveEntryFor(d.archive, m.texture) ? 'file' : 'missing' } : this.resolveReference(d, m.texture);
          if (r.kind === 'missing') problems.push({ severity: 'warning', message: `texture not found: ${m.texture}`, where: `material ${m.name}` });
        }
        // What each .rvmat holds beyond the one texture the preview draws.
        const said = new Set<string>();
        for (const st of stages) {
          if (said.has(st.rvmat)) continue;
          said.add(st.rvmat);
          if (!st.path) {
            problems.push({ severity: 'info', message: `material not found: ${st.rvmat} (its stages are not shown)`, where: `material ${st.material}` });
            continue;
          }
          const rest = st.stages.filter((x) => x !== st.drawn);
          if (rest.length) problems.push({ severity: 'info', message: `material ${st.rvmat}: stages not previewed: ${describeStages(rest)}`, where: `material ${st.material}` });
        }
      } catch {
        /* a model without a scene has no texture references to check */
      }
    }
    d.textureProblems = { revision: d.revision, problems };
    return problems;
  }

  /**
   * Reads the P3D materials' .rvmat files (like textures: the texture folders, the model's
   * folders, by name) and gives each material whose faces name no texture its colour stage.
   * Nothing for other formats or for dropped documents (no folder to look in).
   */
  materialStages(d: OpenDocument, scene: Scene): MaterialStages[] {
    if (d.abs === null || d.codec.textures?.materials !== 'rvmat') return [];
    const roots = this.s.textureRoots().map(toSlash);
    return applyRvmatStages(scene, { modelDir: toSlash(dirname(d.abs)), roots }, fsLookup());
  }

  /**
   * A texture the model references, as an image the renderer can show (PNG, JPEG or BMP): embedded
   * in the file, or the file the reference resolves to (textures.md: the texture roots, the
   * model's folder and parents, then by name beside the model). PAA, DDS and TGA files are decoded
   * here, off the renderer's thread, and cached by path, size and modification time. A resolved
   * file must still pass the path policy (the browser host's roots) and be an image type
   * ({@link TEXTURE_EXTENSIONS}): never `secret.txt` or another model. Null when there is none.
   */
  async texture(id: DocId, name: string): Promise<Uint8Array | null> {
    return this.textureOf(this.s.get(id), name);
  }

  /**
   * The pictures the document embeds, by texture name, built once per revision (a model with
   * many textures asks for each: the scene is not built again for every one).
   */
  private embeddedTextures(d: OpenDocument): Map<string, Uint8Array> {
    if (d.embedded?.revision === d.revision) return d.embedded.map;
    try {
      this.noteEmbedded(d, this.plainScene(d).scene);
    } catch {
      /* no scene: files only */
      d.embedded = { revision: d.revision, map: new Map() };
    }
    return d.embedded!.map;
  }

  private noteEmbedded(d: OpenDocument, scene: Scene): void {
    const map = new Map<string, Uint8Array>();
    for (const m of scene.materials) if (m.texture && m.textureData && !map.has(m.texture)) map.set(m.texture, m.textureData);
    d.embedded = { revision: d.revision, map };
  }

  /**
   * The model's scene as the preview first draws it (default LOD, .rvmat stages given), for the
   * document's revision: the one built ahead when there is one, else built now. The editor keeps
   * a new one ahead (a short while, see {@link keepAhead}), so one open builds its scene once for
   * the texture checks, the embedded pictures, the prefetch and the preview's first request (a
   * P3D's open built it three times before, ~0.7 s each for a 2M-triangle model).
   */
  plainScene(d: OpenDocument): { scene: Scene; stages: MaterialStages[] } {
    const ahead = d.sceneAhead;
    if (ahead?.revision === d.revision) return ahead;
    const scene = d.codec.toScene(d.tree, {});
    const stages = this.materialStages(d, scene);
    this.noteEmbedded(d, scene);
    if (this.s.opts.prefetchTextures && d.abs !== null) this.keepAhead(d, { revision: d.revision, scene, stages });
    return { scene, stages };
  }

  /** Keeps a scene for the preview's first request of its revision (no LOD), but not for long. */
  private keepAhead(d: OpenDocument, ahead: NonNullable<OpenDocument['sceneAhead']>): void {
    d.sceneAhead = ahead;
    setTimeout(() => {
      if (d.sceneAhead === ahead) d.sceneAhead = undefined;
    }, SCENE_AHEAD_MS).unref?.();
  }

  async textureOf(d: OpenDocument, name: string): Promise<Uint8Array | null> {
    const embedded = this.embeddedTextures(d).get(name);
    if (embedded) return this.pictures.browserImage(embedded, name, d.maxMemory);
    if (d.abs === null && d.archive) return this.archiveTexture(d, d.archive, name);
    if (d.abs === null) return null; // dropped bytes: no folder to look in
    let r = this.resolveReference(d, name);
    if (r.kind !== 'file') {
      // Older behaviour kept: a `textures` subfolder beside the model.
      const base = name.split(/[\\/]/).pop() ?? '';
      if (base && base !== '.' && base !== '..') r = resolveTexture(base, { modelDir: toSlash(join(dirname(d.abs), 'textures')), roots: [] }, fsLookup());
    }
    if (r.kind !== 'file' || !isTextureName(r.path) || !TEXTURE_EXTENSIONS.includes(extname(r.path).toLowerCase())) return null;
    let abs: string;
    try {
      abs = await this.s.paths.resolve(this.s.paths.display(r.path), 'read');
    } catch {
      return null;
    }
    try {
      return await this.pictures.file(abs, d.maxMemory);
    } catch {
      return null;
    }
  }

  /**
   * A texture of a model opened from a PBO: the entry its path names under the archive's prefix
   * (`mymod\\data\\x_co.paa` in an archive whose prefix is `mymod`; `.paa` also as `.pac` or
   * `.edds`), read from the archive; null when the archive has none.
   */
  private archiveTexture(d: OpenDocument, a: NonNullable<OpenDocument['archive']>, name: string): Uint8Array | null {
    const hit = archiveEntryFor(a, name);
    if (!hit || !isTextureName(hit)) return null;
    let pbo: PboFile | undefined;
    try {
      pbo = PboFile.open(a.abs);
      const entry = pbo.archive.entries.find((e) => e.name === hit && !e.unreadable);
      if (!entry) return null;
      return this.pictures.browserImage(pbo.read(entry, d.maxMemory), hit, d.maxMemory);
    } catch {
      return null;
    } finally {
      pbo?.close();
    }
  }

  /**
   * Starts reading and decoding the texture files a just-opened model names, once the open has
   * been answered: the renderer asks for them right after the scene, and finds them decoded (or
   * on their way) instead of waiting for the decode after its first frame. Same cache, same
   * rules as {@link texture}; failures are left for that call to meet.
   */
  prefetchTextures(d: OpenDocument): void {
    if (d.abs === null || !this.s.opts.prefetchTextures) return;
    setImmediate(() => {
      let scene: Scene;
      const revision = d.revision;
      const sent = d.sceneSent;
      d.sceneSent = undefined;
      if (sent && sent.revision === revision) {
        // The preview has this scene already (it came with the open's answer).
        scene = sent.scene;
      } else {
        // The preview asks for this very scene next: plainScene keeps it for that request (a
        // large model's scene took as long to build as everything else in its open).
        try {
          scene = this.plainScene(d).scene;
        } catch {
          return;
        }
      }
      const names = new Set<string>();
      for (const m of scene.materials) if (m.texture && !m.textureData) names.add(/^(?:[A-Za-z]:[\\/])?[^:]*/.exec(m.texture)![0]);
      for (const name of [...names].slice(0, PREFETCH_TEXTURES)) void this.textureOf(d, name).catch(() => null);
    });
  }
}

/** The archive entry a texture path names under the archive's prefix (`.paa` also as `.pac` or `.edds`), or undefined. */
export function archiveEntryFor(a: { prefix: string; names: readonly string[] }, name: string): string | undefined {
  const norm = (x: string): string => x.replace(/\//g, '\\').replace(/^[A-Za-z]:/, '').replace(/^\\+/, '').toLowerCase();
  const pre = norm(a.prefix);
  let w = norm(name);
  if (pre && w.startsWith(`${pre}\\`)) w = w.slice(pre.length + 1);
  else if (pre) return undefined;
  const dot = w.lastIndexOf('.');
  const stem = dot > w.lastIndexOf('\\') ? w.slice(0, dot) : w;
  const ext = w.slice(stem.length);
  const tries = [ext, ...(ext === '.paa' ? ['.pac', '.edds'] : ext === '.tga' || ext === '.png' ? ['.paa'] : [])].map((e) => stem + e);
  return a.names.find((n) => tries.includes(n.toLowerCase()));
}
