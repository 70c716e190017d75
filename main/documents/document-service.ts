/**
 * The document service: every open model file, its undo history and its saving. Pure Node (no
 * Electron), so the desktop app and the browser host run the very same code; the IPC layer
 * (main/ipc/handlers.ts) only translates channels to these methods.
 *
 * A document keeps the bytes it was opened from (for the hex view, change detection and the
 * lossless encoder's `$raw` spans), the decoded tree, and two stacks of edit commands. Every
 * mutation goes through {@link EditCommand}s, so undo, redo, the dirty marker and the snapshot
 * revision all come from one stream.
 */
import { DocumentRules } from './doc-rules.ts';
import { ARCHIVE_SEPARATOR, DocumentArchives, isArchiveName, splitArchivePath } from './doc-archives.ts';
import { stat } from 'node:fs/promises';
import { SCENE_WITH_OPEN_MAX_BYTES, type AppError, type DocId, type DocSnapshot, type EditorSettings, type FileEntry, type FindResult, type OpenedDoc, type SaveOptions, type SourcePoseAnswer, type TextureView } from '../../shared/ipc/contract.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { EditorQuery } from '../../shared/model/editor-query.ts';
import type { Inspection } from '../../shared/model/outline.ts';
import type { NodePath } from '../../shared/model/path.ts';
import type { Scene, UpAxis } from '../../shared/scene/scene.ts';
import type { PaaWriteFormat } from '../../shared/formats/texture/paa.ts';
import { GAME_TEXTURE_EXTENSIONS } from '../../shared/formats/texture/extensions.ts';
import { allFormats } from '../../shared/formats/index.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import type { PathPolicy } from './path-policy.ts';
import { MAX_TEXTURE_ROOTS } from './settings.ts';
import type { RecentFiles } from './recent.ts';
import { DocumentStore, type DocumentServiceOptions } from './doc-store.ts';
import { DocumentHistory } from './doc-history.ts';
import { DocumentOpening } from './doc-open.ts';
import { DocumentSaving } from './doc-save.ts';
import { DocumentScenes } from './doc-scene.ts';
import { DocumentTextures } from './doc-textures.ts';
import { DocumentSourceAnimations } from './doc-source-animations.ts';
import { DocumentGltf } from './doc-gltf.ts';
import { TextureFiles } from './texture-files.ts';

export type { DocumentServiceOptions, Emit, GltfWriter } from './doc-store.ts';
export { TEXTURE_EXTENSIONS } from './doc-textures.ts';

/**
 * Owns every open document of one app instance (one window, or one browser host). The work is
 * done by the rooms (doc-*.ts, texture-files.ts) around one {@link DocumentStore}; this class is
 * the surface the IPC layer calls, one method per channel.
 */
export class DocumentService {
  readonly recent: RecentFiles;
  readonly paths: PathPolicy;
  private readonly s: DocumentStore;
  private readonly history: DocumentHistory;
  private readonly opening: DocumentOpening;
  private readonly saving: DocumentSaving;
  private readonly scenes: DocumentScenes;
  private readonly textures: DocumentTextures;
  private readonly gltf: DocumentGltf;
  private readonly files: TextureFiles;
  private readonly rules: DocumentRules;
  private readonly archives: DocumentArchives;
  private readonly sources: DocumentSourceAnimations;

  constructor(opts: DocumentServiceOptions) {
    this.s = new DocumentStore(opts);
    this.recent = this.s.recent;
    this.paths = this.s.paths;
    this.textures = new DocumentTextures(this.s);
    this.rules = new DocumentRules(this.s);
    this.archives = new DocumentArchives(this.s);
    this.sources = new DocumentSourceAnimations(this.s);
    // Texture files not found, source animation problems, modding rules, and bones attached animations
    // name that the model lacks (or never move).
    this.s.problemsOf = (d) => [...this.textures.textureProblems(d), ...this.sources.problems(d), ...this.rules.ruleProblems(d), ...d.anims.flatMap((a) => a.problems ?? [])];
    // A config saved in the editor animates the open models that use it at once.
    this.s.onSaved = async (abs) => {
      for (const d of await this.sources.configSaved(abs)) {
        d.sceneAhead = undefined;
        await this.s.changed(d);
      }
    };
    this.history = new DocumentHistory(this.s);
    this.opening = new DocumentOpening(this.s, this.textures, this.sources);
    this.saving = new DocumentSaving(this.s, this.history);
    this.scenes = new DocumentScenes(this.s, this.textures, this.sources);
    this.gltf = new DocumentGltf(this.s, this.history, this.scenes);
    this.files = new TextureFiles(this.s);
  }

  /** The settings as the renderer shows them (texture folders as the host displays paths). */
  getSettings(): EditorSettings {
    return { textureRoots: this.s.settings.get().textureRoots.map((r) => this.s.paths.display(r)) };
  }

  /**
   * Replaces the settings: each texture folder is resolved through the path policy (the browser
   * host's roots) and must be an existing folder, else nothing changes. Then every open
   * document's texture problems are recomputed and sent (`doc:changed`); the renderer reloads
   * the textures of its preview.
   */
  async setSettings(next: EditorSettings): Promise<EditorSettings> {
    const roots: string[] = [];
    for (const given of next.textureRoots) {
      const trimmed = given.trim();
      if (!trimmed) continue;
      let abs: string;
      try {
        abs = await this.s.paths.resolve(trimmed, 'list');
      } catch (e) {
        throw new AppErrorException({ ...toAppError(e), message: `Texture folder ${trimmed}: ${toAppError(e).message}` });
      }
      let dir = false;
      try {
        dir = (await stat(abs)).isDirectory();
      } catch {
        /* missing */
      }
      if (!dir) fail('invalid', `Texture folder ${trimmed} is not an existing folder`);
      if (!roots.includes(abs)) roots.push(abs);
    }
    if (roots.length > MAX_TEXTURE_ROOTS) fail('invalid', `At most ${MAX_TEXTURE_ROOTS} texture folders`);
    try {
      await this.s.settings.set({ textureRoots: roots });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'io', message: `Could not save the settings: ${toAppError(e).message}` });
    }
    for (const d of this.s.docs.values()) {
      d.textureProblems = undefined;
      this.rules.forget(d);
      try {
        this.s.emit('doc:changed', await this.s.snapshot(d));
      } catch {
        /* a document that cannot be shown any more keeps its last snapshot */
      }
    }
    return this.getSettings();
  }

  /**
   * Opens a file (or returns the document already open for it); `maxMemory` is the editor's
   * decoding memory setting (bytes). With `problemsLater` a newly opened file answers without its
   * problems (`problemsPending`) and a `doc:problems` event brings them (see {@link openWithScene}).
   */
  open(userPath: string, maxMemory?: number, problemsLater = false): Promise<DocSnapshot> {
    // An entry of a PBO archive (`addons/x.pbo::data\\box.p3d`) opens read-only (doc-archives.ts).
    const inArchive = splitArchivePath(userPath);
    if (inArchive) return this.archives.open(inArchive.archive, inArchive.inner, (name, bytes) => this.opening.openBytes(name, bytes), maxMemory);
    return this.opening.open(userPath, maxMemory, problemsLater);
  }

  /**
   * {@link open}, and with the answer the scene the preview's `doc:scene` would get next (for
   * files up to SCENE_WITH_OPEN_MAX_BYTES): the editor then draws its first frame after one round
   * trip instead of two. The texture prefetch that follows every open reads the texture names from
   * this scene instead of building it again. A scene that cannot be built is left out: the
   * preview's own `doc:scene` then meets the error and shows it.
   *
   * A file opened here answers without its problems (`problemsPending`): the codec's validation,
   * the modding rules and the config and animation checks run after the answer has gone out and
   * arrive as `doc:problems` (for the largest MLOD of the corpus they were half of the host's
   * work in the open). Any later snapshot (an edit, a save, `doc:list`) carries its problems.
   */
  async openWithScene(userPath: string, maxMemory?: number): Promise<OpenedDoc> {
    const snap = await this.open(userPath, maxMemory, true);
    const d = this.s.docs.get(snap.id);
    if (!d || d.original.length > SCENE_WITH_OPEN_MAX_BYTES) return snap;
    let scene: Scene;
    try {
      scene = this.scenes.scene(d.id);
    } catch {
      return snap;
    }
    const sent = { revision: d.revision, scene };
    d.sceneSent = sent;
    // Taken by the prefetch scheduled in the open (it runs first); dropped otherwise (a document
    // that was open already, prefetching off), so no scene stays held.
    setImmediate(() => {
      if (d.sceneSent === sent) d.sceneSent = undefined;
    });
    return { ...snap, scene };
  }

  /** Opens a working copy of the bundled sample (so edits never touch the bundled file). */
  openSample(): Promise<DocSnapshot> {
    return this.opening.openSample();
  }

  /** Opens a read-only document from bytes that came without a file (dropped on the browser host's window). */
  openBytes(name: string, bytes: Uint8Array): Promise<DocSnapshot> {
    return this.opening.openBytes(name, bytes);
  }

  /** Where `doc:openSample` keeps its working copy (null without a sample). */
  samplePath(): string | null {
    return this.opening.samplePath();
  }

  list(): Promise<DocSnapshot[]> {
    return this.opening.list();
  }

  close(id: DocId): Promise<void> {
    return this.opening.close(id);
  }

  /** Reloads the file from disk, dropping edits and history. */
  revert(id: DocId): Promise<DocSnapshot> {
    return this.opening.revert(id);
  }

  async getSnapshot(id: DocId): Promise<DocSnapshot> {
    return this.s.snapshot(this.s.get(id));
  }

  inspect(id: DocId, path: NodePath): Inspection | null {
    return this.scenes.inspect(id, path);
  }

  find(id: DocId, query: string): FindResult {
    return this.scenes.find(id, query);
  }

  query(id: DocId, q: EditorQuery): unknown {
    return this.scenes.query(id, q);
  }

  /** The model's scene with the clips of its attached animation files bound to its bones. */
  scene(id: DocId, lod?: string): Scene {
    return this.scenes.scene(id, lod);
  }

  attachAnimationBytes(id: DocId, name: string, bytes: Uint8Array): Promise<DocSnapshot> {
    return this.scenes.attachAnimationBytes(id, name, bytes);
  }

  /** The model's animation sources, and with `values` its LOD posed at them all. */
  sourcePose(id: DocId, lod: string | undefined, values: Record<string, number> | undefined): SourcePoseAnswer {
    return this.scenes.sourcePose(id, lod, values);
  }

  /** The editor's override of the model's config file (null: find it as the game does); the model's scene and Problems follow. */
  sourceConfig(id: DocId, userPath: string | null): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      await this.sources.choose(d, userPath);
      d.sceneAhead = undefined;
      return this.s.changed(d);
    });
  }

  attachAnimation(id: DocId, userPath: string): Promise<DocSnapshot> {
    return this.scenes.attachAnimation(id, userPath);
  }

  detachAnimation(id: DocId, index: number): Promise<DocSnapshot> {
    return this.scenes.detachAnimation(id, index);
  }

  animationCandidates(id: DocId): Promise<{ path: string; fileName: string; matched: number; total: number }[]> {
    return this.scenes.animationCandidates(id);
  }

  /** Bytes [start, end) of the document as it would be saved now. */
  bytes(id: DocId, start: number, end: number): Uint8Array {
    return this.saving.bytes(id, start, end);
  }

  edit(id: DocId, command: EditCommand): Promise<DocSnapshot> {
    return this.history.edit(id, command);
  }

  create(id: DocId, parent: NodePath, kind: string): Promise<DocSnapshot> {
    return this.history.create(id, parent, kind);
  }

  undo(id: DocId): Promise<DocSnapshot> {
    return this.history.undo(id);
  }

  redo(id: DocId): Promise<DocSnapshot> {
    return this.history.redo(id);
  }

  goto(id: DocId, at: number): Promise<DocSnapshot> {
    return this.history.goto(id, at);
  }

  save(id: DocId, options: SaveOptions = {}): Promise<DocSnapshot> {
    return this.saving.save(id, options);
  }

  saveAs(id: DocId, userPath: string, overwrite = false): Promise<DocSnapshot> {
    return this.saving.saveAs(id, userPath, overwrite);
  }

  exportNode(id: DocId, path: NodePath): Uint8Array {
    return this.saving.exportNode(id, path);
  }

  importNode(id: DocId, path: NodePath, bytes: Uint8Array): Promise<DocSnapshot> {
    return this.saving.importNode(id, path, bytes);
  }

  newFromGltf(bytes: Uint8Array, name: string, userPath: string, opts: { version?: string; anim?: string } = {}): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    return this.gltf.newFromGltf(bytes, name, userPath, opts);
  }

  replaceFromGltf(id: DocId, path: NodePath, bytes: Uint8Array, name: string): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    return this.gltf.replaceFromGltf(id, path, bytes, name);
  }

  /** What the host opens: every registered format's extensions, then the game textures'. */
  openableExtensions(): string[] {
    return [...new Set([...allFormats().flatMap((c) => c.extensions), ...GAME_TEXTURE_EXTENSIONS])];
  }

  /** The formats "New from glTF" can make (extension and label). */
  importTargets(): { extension: string; label: string }[] {
    return this.gltf.importTargets();
  }

  exportGltf(id: DocId, userPath: string, lod?: string, up?: UpAxis, overwrite = false): Promise<void> {
    return this.gltf.exportGltf(id, userPath, lod, up, overwrite);
  }

  /** Stores a preview screenshot in the document's screenshot block, as an undoable edit. */
  async screenshot(id: DocId, png: Uint8Array, name?: string): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      const cmd = d.codec.screenshot?.(d.tree, png, name);
      if (!cmd) fail('invalid', `${d.codec.label} files have no screenshot block`);
      this.history.applyEdit(d, cmd);
      return this.s.changed(d);
    });
  }

  /** A texture the model references, as an image the renderer can show; null when there is none. */
  texture(id: DocId, name: string): Promise<Uint8Array | null> {
    return this.textures.texture(id, name);
  }

  readTexture(userPath: string, mip: number, maxMemory?: number): Promise<TextureView> {
    return this.files.readTexture(userPath, mip, maxMemory);
  }

  replaceTexture(userPath: string, png: Uint8Array, format?: PaaWriteFormat, maxMemory?: number): Promise<TextureView> {
    return this.files.replaceTexture(userPath, png, format, maxMemory);
  }

  undoTextureReplace(userPath: string, maxMemory?: number): Promise<TextureView> {
    return this.files.undoTextureReplace(userPath, maxMemory);
  }


  async listDir(userDir: string): Promise<FileEntry[]> {
    try {
      // A PBO archive is browsed like a folder (read only); inside one, its entries are listed.
      const inArchive = splitArchivePath(userDir);
      if (inArchive) return await this.archives.list(inArchive.archive, inArchive.inner);
      if (isArchiveName(userDir) && (await stat(await this.s.paths.resolve(userDir, 'read')).catch(() => null))?.isFile()) return await this.archives.list(userDir, '');
      const entries = await this.s.paths.list(userDir);
      return entries.map((e) => (!e.dir && isArchiveName(e.name) ? { ...e, path: `${e.path}${ARCHIVE_SEPARATOR}`, dir: true } : e));
    } catch (e) {
      if (e instanceof AppErrorException) throw e;
      throw new AppErrorException(toAppError(e, userDir));
    }
  }

  /** The recent list, without entries that no longer resolve (moved, deleted, outside the roots). */
  async recentFiles(): Promise<string[]> {
    const out: string[] = [];
    for (const p of await this.s.recent.get()) {
      try {
        await stat(await this.s.paths.resolve(p, 'read'));
        out.push(p);
      } catch {
        /* not shown */
      }
    }
    return out;
  }

  /** The AppError for anything a method threw (used by the IPC layer). */
  static errorOf(e: unknown): AppError {
    return toAppError(e);
  }
}
