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
import { copyFile, mkdir, open as openFile, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { AppError, DocId, DocSnapshot, EditorSettings, EventChannel, EventMap, FileEntry, FindResult, HistoryInfo, SaveOptions, TextureView } from '../../shared/ipc/contract.ts';
import { detectFormat, formatById, type FormatCodec } from '../../shared/formats/index.ts';
import { gltfInputOf, IMPORT_TARGETS, importGltf, readModel, replaceMeshCommand } from '../../shared/import/index.ts';
import { applyCommand, canMerge, type EditCommand } from '../../shared/model/commands.ts';
import { markDirty } from '../../shared/model/lossless.ts';
import { arrayPage, checkElementEdit } from '../../shared/model/array-view.ts';
import type { EditorQuery } from '../../shared/model/editor-query.ts';
import type { Inspection, OutlineNode } from '../../shared/model/outline.ts';
import { getAt, type NodePath } from '../../shared/model/path.ts';
import type { Problem } from '../../shared/model/problems.ts';
import type { AnimationClip, Scene, UpAxis } from '../../shared/scene/scene.ts';
import { allFormats } from '../../shared/formats/index.ts';
import { animationClips, animationOnRig, attachedClipName, bindClips, matchAnimation } from '../../shared/scene/attach.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import { atomicWriteFile, type AtomicIo, type SaveStepHook } from './atomic-save.ts';
import { LocalPaths, type PathPolicy } from './path-policy.ts';
import { checkWriteTarget, GLTF_EXTENSIONS } from './write-policy.ts';
import { MAX_TEXTURE_ROOTS, SettingsFile } from './settings.ts';
import { RecentFiles } from './recent.ts';
import { screenshotCommand } from './screenshot.ts';
import { measureStage, timedStage } from './stage-timing.ts';
import { applyRvmatStages, fsLookup, toSlash, type MaterialStages } from './scene-textures.ts';
import { describeStages } from '../../shared/formats/texture/rvmat.ts';
import { isTextureName } from '../../shared/formats/texture/index.ts';
import { resolveTexture } from '../../shared/formats/texture/resolve.ts';
import { TexturePictureCache } from './texture-cache.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { decodeTexture, decodeTextureMip, textureInfo, textureMipCount } from '../../shared/formats/texture/index.ts';
import { createPaa, encodePaa, type PaaWriteFormat } from '../../shared/formats/texture/paa.ts';
import { decodeDds } from '../../shared/formats/texture/dds.ts';
import { decodeTga } from '../../shared/formats/texture/tga.ts';
import { replaceDds, replaceTga } from '../../shared/formats/texture/rewrite.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';

/** Sends an event to whoever shows the documents (a window, or the host's WebSocket clients). */
export type Emit = <C extends EventChannel>(channel: C, payload: EventMap[C]) => void;

/** Writes a scene as glTF binary (provided by the glTF exporter; optional so tests can leave it out). */
export type GltfWriter = (scene: Scene, name: string, target: string, extraClips?: readonly AnimationClip[]) => Uint8Array | Promise<Uint8Array>;

/** An animation file attached to a model document (played in the preview, exported with it). */
interface AttachedAnimation {
  /** The path as the renderer shows it. */
  path: string;
  fileName: string;
  clips: AnimationClip[];
}

/** Animation files the picker looks at in one folder, at most (each is decoded to match bones). */
const MAX_CANDIDATES = 200;
/** An animation opened alone looks for its model among this many files beside it, each at most this large. */
const RIG_TRIES = 6;
const RIG_MAX_BYTES = 64 << 20;

export interface DocumentServiceOptions {
  /** Folder for the recent list and the sample's working copy. */
  configDir: string;
  paths?: PathPolicy;
  emit?: Emit;
  /** The bundled sample model; `doc:openSample` opens a working copy of it. */
  samplePath?: string | null;
  gltf?: GltfWriter;
  /** Files larger than this are refused before reading (default 1 GiB). */
  maxFileBytes?: number;
  /** For tests: replace file operations of the save. */
  io?: Partial<AtomicIo>;
  /** For tests: called between the steps of every document save (crash and fault tests). */
  onSaveStep?: SaveStepHook;
  /**
   * Folders searched for the textures a model names before its own folder and parents (the
   * user's texture folders: a P-drive, unpacked mods). The browser host passes its roots.
   */
  textureRoots?: () => readonly string[];
  /** Decode the textures a model names as soon as it is opened (the editors; not the CLI). */
  prefetchTextures?: boolean;
}

interface HistoryEntry {
  /** The command as applied (the last one, for merged drags). */
  command: EditCommand;
  inverse: EditCommand;
  label: string;
  /** Identifies the document state after this entry; the save point refers to it. */
  seq: number;
}

/**
 * What the file on disk looked like when its bytes were last read or written. Its content is
 * `OpenDocument.original` itself, so a touched file is told apart from a changed one by comparing
 * bytes (no hash to compute while opening, which for a 100 MB file took a quarter of a second).
 */
interface DiskState {
  mtimeMs: number;
  size: number;
}

interface OpenDocument {
  id: DocId;
  /** Where the document lives; null for one opened from dropped bytes until it is saved as a file. */
  abs: string | null;
  fileName: string;
  codec: FormatCodec;
  tree: object;
  /** Bytes as last read from or written to disk. */
  original: Uint8Array;
  disk: DiskState | null;
  undo: HistoryEntry[];
  redo: HistoryEntry[];
  /** `seq` of the state that matches the disk (0: the state as opened). */
  savedSeq: number;
  /** The decoding memory budget the document was opened with (bytes; absent: the default). */
  maxMemory?: number;
  revision: number;
  /** Cached encoding of the current state, for `doc:bytes` of a dirty document. */
  encoded?: { revision: number; bytes: Uint8Array };
  /** The pictures the document embeds by texture name, per revision. */
  embedded?: { revision: number; map: Map<string, Uint8Array> };
  /** Texture references that resolve nowhere, per revision (Problems entries). */
  textureProblems?: { revision: number; problems: Problem[] };
  /**
   * The scene the texture prefetch built right after the open, handed to the preview's first
   * scene request instead of building it a second time (see {@link DocumentService.prefetchTextures}).
   */
  sceneAhead?: { revision: number; scene: Scene };
  /** Serialises operations on one document (a save never interleaves with an edit). */
  queue: Promise<unknown>;
  /** Animation files attached to the model, in the order attached. */
  anims: AttachedAnimation[];
  /** An animation document: the model beside it that shapes its skeleton, when one matches. */
  rig?: { fileName: string; scene: Scene };
  /** The outline of the last snapshot (names undo steps without building it again). */
  outline?: OutlineNode;
}

const READ_CHUNK = 4 << 20;
/** Texture files decoded ahead when a model opens (the picture cache keeps 64). */
const PREFETCH_TEXTURES = 16;
/** How long a scene built ahead for the preview's first request is kept for it. */
const SCENE_AHEAD_MS = 30_000;
/** History labels sent with each snapshot (the newest steps; older ones stay undoable). */
const HISTORY_SHOWN = 200;
/** Bounds of `find`: nodes inspected for values, and matches returned. */
const FIND_NODES = 50_000;
const FIND_HITS = 5_000;

/** The image types the texture lookup serves from disk (never other files beside a model). */
export const TEXTURE_EXTENSIONS: readonly string[] = ['.paa', '.pac', '.tga', '.dds', '.edds', '.png', '.jpg', '.jpeg', '.bmp'];

function labelOf(cmd: EditCommand): string {
  if (cmd.label) return cmd.label;
  switch (cmd.op) {
    case 'set': return `Set ${String(cmd.path[cmd.path.length - 1] ?? 'value')}`;
    case 'insert': return 'Add';
    case 'remove': return 'Remove';
    case 'move': return 'Move';
    case 'batch': return 'Edit';
  }
}

/** Names a document's node for an undo step: `material ground`, `proxy item Left arm`. */
function nodeTitle(outline: OutlineNode | undefined, path: NodePath, withKind = true): string | undefined {
  if (!outline) return undefined;
  let best: OutlineNode | undefined;
  const walk = (n: OutlineNode) => {
    if (n.path.length <= path.length && n.path.every((k, i) => k === path[i])) {
      if (!best || n.path.length >= best.path.length) best = n;
      for (const c of n.children ?? []) walk(c);
    }
  };
  walk(outline);
  if (!best || best.path.length === 0) return undefined;
  const name = best.label && best.label !== best.name ? best.label : best.name;
  return withKind && best.kind && !name.toLowerCase().startsWith(best.kind) ? `${best.kind} ${name}` : name;
}

/**
 * The name of an undo step. A label the editor gave wins; otherwise it is made from the command
 * and the node it touches ("Set diffuse of material ground").
 */
function stepName(cmd: EditCommand, outline: OutlineNode | undefined): string {
  if (cmd.label) return cmd.label;
  const base = labelOf(cmd);
  if (cmd.op === 'batch') return base;
  const title = nodeTitle(outline, cmd.op === 'set' ? cmd.path.slice(0, -1) : cmd.path);
  if (!title) return base;
  switch (cmd.op) {
    case 'set': return `${base} of ${title}`;
    case 'remove': return `Delete ${title}`;
    case 'insert': return `Add to ${title}`;
    case 'move': return `Reorder ${title}`;
  }
}

/** Owns every open document of one app instance (one window, or one browser host). */
export class DocumentService {
  readonly recent: RecentFiles;
  readonly paths: PathPolicy;
  private readonly settings: SettingsFile;
  private readonly opts: DocumentServiceOptions;
  private readonly docs = new Map<DocId, OpenDocument>();
  private readonly opening = new Map<string, Promise<DocSnapshot>>();
  private nextId = 1;
  private nextSeq = 1;

  constructor(opts: DocumentServiceOptions) {
    this.opts = opts;
    this.paths = opts.paths ?? new LocalPaths();
    this.recent = new RecentFiles(opts.configDir);
    this.settings = new SettingsFile(opts.configDir);
  }

  /** The settings as the renderer shows them (texture folders as the host displays paths). */
  getSettings(): EditorSettings {
    return { textureRoots: this.settings.get().textureRoots.map((r) => this.paths.display(r)) };
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
        abs = await this.paths.resolve(trimmed, 'list');
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
      await this.settings.set({ textureRoots: roots });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'io', message: `Could not save the settings: ${toAppError(e).message}` });
    }
    for (const d of this.docs.values()) {
      d.textureProblems = undefined;
      try {
        this.emit('doc:changed', await this.snapshot(d));
      } catch {
        /* a document that cannot be shown any more keeps its last snapshot */
      }
    }
    return this.getSettings();
  }

  private emit: Emit = (channel, payload) => {
    try {
      this.opts.emit?.(channel, payload);
    } catch {
      // A window that closed mid-operation must not fail the operation.
    }
  };

  private get(id: DocId): OpenDocument {
    const d = this.docs.get(id);
    if (!d) fail('not-found', `No open document ${JSON.stringify(id)} (it may have been closed)`);
    return d;
  }

  /** Runs `fn` after every earlier operation on the document has finished. */
  private serial<T>(d: OpenDocument, fn: () => Promise<T>): Promise<T> {
    const run = d.queue.then(fn, fn);
    d.queue = run.catch(() => undefined);
    return run;
  }

  private dirty(d: OpenDocument): boolean {
    return (d.undo[d.undo.length - 1]?.seq ?? 0) !== d.savedSeq;
  }

  private async readWithProgress(abs: string, id: DocId | undefined): Promise<{ bytes: Uint8Array; disk: DiskState }> {
    const started = performance.now();
    const fh = await openFile(abs, 'r');
    try {
      const st = await fh.stat();
      if (!st.isFile()) fail('invalid', `Not a regular file: ${this.paths.display(abs)}`);
      const max = this.opts.maxFileBytes ?? 1 << 30;
      if (st.size > max) fail('invalid', `The file is too large to open (${st.size} bytes; the limit is ${max})`);
      const bytes = new Uint8Array(st.size);
      let off = 0;
      while (off < st.size) {
        const { bytesRead } = await fh.read(bytes, off, Math.min(READ_CHUNK, st.size - off), off);
        if (bytesRead === 0) break; // truncated while reading: decode sees the short file
        off += bytesRead;
        this.emit('doc:progress', { id, task: 'read', fraction: off / st.size });
      }
      const data = off === st.size ? bytes : bytes.subarray(0, off);
      return { bytes: data, disk: { mtimeMs: st.mtimeMs, size: off } };
    } finally {
      await fh.close();
      measureStage('host:read', started);
    }
  }

  private decodeAs(codec: FormatCodec, bytes: Uint8Array, fileName: string, maxMemory?: number): object {
    try {
      // Inside the decoding memory budget: the default, or the editor's setting.
      return timedStage('host:decode', () => codec.decode(bytes, { fileName, ...(maxMemory !== undefined ? { maxMemory } : {}) }));
    } catch (e) {
      const err = toAppError(e, fileName);
      // Anything but a DecodeError is a codec bug, but still reported, never a crash.
      throw new AppErrorException(err.code === 'internal' ? { ...err, code: 'decode', message: `Could not read ${fileName}: ${err.message}` } : err);
    }
  }

  private detect(bytes: Uint8Array, fileName: string): FormatCodec {
    const codec = detectFormat(bytes, fileName);
    if (!codec) fail('decode', `${fileName} is not a model file LodSmith knows (unrecognised header)`, { offset: 0, path: '', file: fileName });
    return codec;
  }

  /** Opens a file (or returns the document already open for it). */
  /** Opens a file; `maxMemory` is the editor's decoding memory setting (bytes). */
  async open(userPath: string, maxMemory?: number): Promise<DocSnapshot> {
    const abs = await this.paths.resolve(userPath, 'read');
    for (const d of this.docs.values()) if (d.abs === abs) return this.snapshot(d);
    // Two quick requests for one file (a double click) share one read instead of making two tabs.
    let running = this.opening.get(abs);
    if (!running) {
      running = this.openResolved(abs, maxMemory).finally(() => this.opening.delete(abs));
      this.opening.set(abs, running);
    }
    return running;
  }

  private async openResolved(abs: string, maxMemory?: number): Promise<DocSnapshot> {
    const display = this.paths.display(abs);
    let read: { bytes: Uint8Array; disk: DiskState };
    try {
      read = await this.readWithProgress(abs, undefined);
    } catch (e) {
      throw new AppErrorException(toAppError(e, display));
    }
    const fileName = basename(abs);
    const codec = this.detect(read.bytes, fileName);
    this.emit('doc:progress', { task: 'decode', fraction: -1 });
    const tree = this.decodeAs(codec, read.bytes, fileName, maxMemory);
    this.emit('doc:progress', { task: 'decode', fraction: 1 });
    const id = `doc-${this.nextId++}`;
    const d: OpenDocument = {
      id, abs, fileName, codec, tree, original: read.bytes, disk: read.disk,
      undo: [], redo: [], savedSeq: 0, revision: 1, queue: Promise.resolve(), anims: [],
      ...(maxMemory !== undefined ? { maxMemory } : {}),
    };
    if (codec.id === 'grimrock-animation' || codec.id === 'unigine-anim') d.rig = await this.findRig(d);
    this.docs.set(id, d);
    await this.recent.add(display);
    const snap = await this.snapshot(d);
    this.prefetchTextures(d);
    return snap;
  }

  /**
   * For an animation file: a model in the same folder that has (nearly) all of its target names,
   * whose hierarchy then shapes the skeleton shown. Models whose names share the longest start
   * with the animation's are tried first, a few at most; anything unreadable is skipped.
   */
  private async findRig(d: OpenDocument): Promise<OpenDocument['rig']> {
    let clips: AnimationClip[];
    try {
      clips = d.codec.toScene(d.tree).clips;
    } catch {
      return undefined;
    }
    if (!clips.length) return undefined;
    const exts = new Set(allFormats().filter((c) => c.id === 'grimrock-model' || c.id === 'unigine-mesh').flatMap((c) => c.extensions));
    if (!d.abs) return undefined;
    let entries: FileEntry[];
    try {
      entries = await this.paths.list(this.paths.display(dirname(d.abs)));
    } catch {
      return undefined;
    }
    const own = d.fileName.toLowerCase();
    const shared = (name: string) => {
      const n = name.toLowerCase();
      let k = 0;
      while (k < n.length && k < own.length && n[k] === own[k]) k++;
      return k;
    };
    const models = entries
      .filter((e) => !e.dir && exts.has(e.name.slice(e.name.lastIndexOf('.')).toLowerCase()) && (e.size ?? 0) <= RIG_MAX_BYTES)
      .sort((a, b) => shared(b.name) - shared(a.name) || a.name.localeCompare(b.name))
      .slice(0, RIG_TRIES);
    for (const e of models) {
      try {
        const abs = await this.paths.resolve(e.path, 'read');
        const bytes = (await this.readWithProgress(abs, undefined)).bytes;
        const codec = this.detect(bytes, e.name);
        const scene = codec.toScene(this.decodeAs(codec, bytes, e.name));
        const m = matchAnimation(scene, clips);
        if (m.total > 0 && m.matched >= m.total * 0.8) return { fileName: e.name, scene };
      } catch {
        /* not a model this animation fits */
      }
    }
    return undefined;
  }

  /** Opens a working copy of the bundled sample (so edits never touch the bundled file). */
  async openSample(): Promise<DocSnapshot> {
    const src = this.opts.samplePath;
    if (!src) fail('not-found', 'This build has no bundled sample model');
    const copy = join(this.opts.configDir, 'sample', basename(src));
    for (const d of this.docs.values()) if (d.abs === copy) return this.snapshot(d);
    try {
      await mkdir(dirname(copy), { recursive: true });
      await stat(copy).catch(async () => copyFile(src, copy));
    } catch (e) {
      throw new AppErrorException(toAppError(e, src));
    }
    return this.open(this.paths.display(copy));
  }

  /**
   * Opens a document from bytes that came without a file (dropped on the browser host's window).
   * It is read-only: it has no file to save to until Save As puts it inside a root folder, and
   * edits wait until then too, so nothing done to it can be lost with the tab.
   */
  async openBytes(name: string, bytes: Uint8Array): Promise<DocSnapshot> {
    const fileName = basename(name.replace(/\\/g, '/')) || 'dropped';
    const max = this.opts.maxFileBytes ?? 1 << 30;
    if (bytes.length > max) fail('invalid', `The file is too large to open (${bytes.length} bytes; the limit is ${max})`);
    const codec = this.detect(bytes, fileName);
    const tree = this.decodeAs(codec, bytes, fileName);
    const id = `doc-${this.nextId++}`;
    const d: OpenDocument = {
      id, abs: null, fileName, codec, tree, original: bytes, disk: null,
      undo: [], redo: [], savedSeq: 0, revision: 1, queue: Promise.resolve(), anims: [],
    };
    this.docs.set(id, d);
    return this.snapshot(d);
  }

  /** Where `doc:openSample` keeps its working copy (null without a sample). */
  samplePath(): string | null {
    const src = this.opts.samplePath;
    return src ? join(this.opts.configDir, 'sample', basename(src)) : null;
  }

  async list(): Promise<DocSnapshot[]> {
    return Promise.all([...this.docs.values()].map((d) => this.snapshot(d)));
  }

  async close(id: DocId): Promise<void> {
    const d = this.get(id);
    await this.serial(d, async () => undefined);
    this.docs.delete(id);
    this.emit('doc:closed', { id });
  }

  /** The renderer's view of a document, with problems and whether the disk changed under it. */
  private async snapshot(d: OpenDocument): Promise<DocSnapshot> {
    let problems: Problem[];
    try {
      problems = timedStage('host:validate', () => d.codec.validate(d.tree));
    } catch (e) {
      problems = [{ severity: 'error', message: `Validation failed: ${toAppError(e).message}`, where: '' }];
    }
    problems = [...problems, ...this.textureProblems(d)];
    let outline;
    try {
      outline = timedStage('host:outline', () => d.codec.outline(d.tree));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'internal', message: `Could not build the structure tree: ${toAppError(e).message}` });
    }
    let version: number | string = '';
    try {
      version = d.codec.info(d.tree, d.original.length).version;
    } catch {
      /* shown as unknown */
    }
    d.outline = outline;
    const top = d.undo[d.undo.length - 1];
    const next = d.redo[d.redo.length - 1];
    return {
      id: d.id,
      path: d.abs === null ? d.fileName : this.paths.display(d.abs),
      fileName: d.fileName,
      ...(d.abs === null ? { readOnly: true } : {}),
      history: this.history(d),
      format: d.codec.id,
      formatLabel: d.codec.label,
      version,
      bytes: d.original.length,
      outline,
      problems,
      dirty: this.dirty(d),
      canUndo: d.undo.length > 0,
      canRedo: d.redo.length > 0,
      ...(top ? { undoLabel: top.label } : {}),
      ...(next ? { redoLabel: next.label } : {}),
      revision: d.revision,
      changedOnDisk: await this.changedOnDisk(d),
      ...(d.anims.length ? { animations: d.anims.map((a) => ({ path: a.path, fileName: a.fileName, clips: a.clips.map((c) => c.name) })) } : {}),
    };
  }

  /** The named steps around the current state, for the history list. */
  private history(d: OpenDocument): HistoryInfo {
    const steps = [...d.undo, ...[...d.redo].reverse()];
    const first = Math.max(0, steps.length - HISTORY_SHOWN);
    const savedIndex = d.savedSeq === 0 ? 0 : steps.findIndex((e) => e.seq === d.savedSeq);
    // The saved state is after step i (undo side), or is reached by redoing up to step i.
    const savedAt = savedIndex === 0 && d.savedSeq === 0 ? 0 : savedIndex >= 0 ? savedIndex + 1 : null;
    return { labels: steps.slice(first).map((e) => e.label), first, at: d.undo.length, savedAt };
  }

  private async changedOnDisk(d: OpenDocument): Promise<boolean> {
    if (!d.disk || d.abs === null) return false;
    try {
      const st = await stat(d.abs);
      return st.size !== d.disk.size || st.mtimeMs !== d.disk.mtimeMs;
    } catch {
      return true;
    }
  }

  /** True when the file's content differs from what we last read or wrote (a touch alone is not a change). */
  private async contentChanged(d: OpenDocument): Promise<boolean> {
    if (!d.disk || d.abs === null) return false;
    let st;
    try {
      st = await stat(d.abs);
    } catch {
      return true; // deleted or moved away
    }
    if (st.size === d.disk.size && st.mtimeMs === d.disk.mtimeMs) return false;
    if (st.size !== d.disk.size) return true;
    try {
      return !Buffer.from(d.original.buffer, d.original.byteOffset, d.original.byteLength).equals(await readFile(d.abs));
    } catch {
      return true;
    }
  }

  private async changed(d: OpenDocument): Promise<DocSnapshot> {
    d.revision++;
    const snap = await this.snapshot(d);
    this.emit('doc:changed', snap);
    return snap;
  }

  async getSnapshot(id: DocId): Promise<DocSnapshot> {
    return this.snapshot(this.get(id));
  }

  inspect(id: DocId, path: NodePath): Inspection | null {
    const d = this.get(id);
    try {
      return d.codec.inspect(d.tree, path) ?? null;
    } catch (e) {
      throw new AppErrorException(toAppError(e));
    }
  }

  /**
   * Outline nodes whose name, label or field values contain `query` (text: case-insensitive
   * substring; a number: equal to a numeric field or one of a short tuple's components, within
   * float32 rounding). Bounded: at most FIND_NODES nodes are inspected and FIND_HITS returned.
   */
  find(id: DocId, query: string): FindResult {
    const d = this.get(id);
    const q = query.trim().toLowerCase();
    const out: NodePath[] = [];
    if (!q) return { paths: out, truncated: false };
    const asNumber = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(q) ? Number(q) : NaN;
    const numberHit = (v: unknown) => typeof v === 'number' && Math.abs(v - asNumber) <= 1e-6 * Math.max(1, Math.abs(asNumber));
    const valueHit = (v: unknown): boolean => {
      if (typeof v === 'string') return v.toLowerCase().includes(q);
      if (Number.isFinite(asNumber)) {
        if (numberHit(v)) return true;
        if (Array.isArray(v) && v.length <= 16) return v.some(numberHit);
      }
      return false;
    };
    const outline = d.outline ?? d.codec.outline(d.tree);
    let inspected = 0;
    let truncated = false;
    const walk = (n: OutlineNode): void => {
      if (truncated) return;
      let hit = n.name.toLowerCase().includes(q) || (n.label?.toLowerCase().includes(q) ?? false);
      if (!hit) {
        if (++inspected > FIND_NODES) {
          truncated = true;
          return;
        }
        try {
          hit = d.codec.inspect(d.tree, n.path)?.fields.some((f) => valueHit(f.value)) ?? false;
        } catch {
          /* a node that cannot be inspected just does not match by value */
        }
      }
      if (hit) {
        out.push(n.path);
        if (out.length >= FIND_HITS) {
          truncated = true;
          return;
        }
      }
      for (const c of n.children ?? []) walk(c);
    };
    walk(outline);
    return { paths: out, truncated };
  }

  /** The model's scene with the clips of its attached animation files bound to its bones. */
  scene(id: DocId, lod?: string): Scene {
    const d = this.get(id);
    const ahead = this.takeSceneAhead(d, lod);
    const scene = ahead ?? this.ownScene(d, lod);
    // The prefetch gave the scene built ahead its .rvmat stages already (reading those files).
    if (!ahead) this.materialStages(d, scene);
    if (d.rig) return animationOnRig(scene, d.rig.scene, d.rig.fileName);
    if (!d.anims.length) return scene;
    // Named after their file too: the timeline's clip list is where the user picks one.
    const attached = d.anims.flatMap((a) => bindClips(scene, a.clips).map((c) => ({ ...c, name: attachedClipName(c.name, a.fileName) })));
    return { ...scene, clips: [...scene.clips, ...attached] };
  }

  /**
   * The scene the texture prefetch built, for the preview's request of the same revision and no
   * LOD; dropped by any scene request, so it is handed out once. Only the preview takes it: other
   * users of the model's scene (glTF export, animation matching) want it without .rvmat stages.
   */
  private takeSceneAhead(d: OpenDocument, lod: string | undefined): Scene | undefined {
    const ahead = d.sceneAhead;
    d.sceneAhead = undefined;
    return ahead && lod === undefined && ahead.revision === d.revision ? ahead.scene : undefined;
  }

  /** The document's own scene (no attached animations). */
  private ownScene(d: OpenDocument, lod?: string): Scene {
    try {
      return timedStage('host:scene', () => d.codec.toScene(d.tree, lod === undefined ? {} : { lod }));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), message: `Could not build the 3D preview: ${toAppError(e).message}` });
    }
  }

  /** Reads and decodes an animation file; its clips, or an error naming the file. */
  private async readAnimation(userPath: string): Promise<AttachedAnimation> {
    const abs = await this.paths.resolve(userPath, 'read');
    const display = this.paths.display(abs);
    let bytes: Uint8Array;
    try {
      bytes = (await this.readWithProgress(abs, undefined)).bytes;
    } catch (e) {
      throw new AppErrorException(toAppError(e, display));
    }
    const fileName = basename(abs);
    const codec = this.detect(bytes, fileName);
    const tree = this.decodeAs(codec, bytes, fileName);
    try {
      return { path: display, fileName, clips: animationClips(codec.toScene(tree), `${fileName}: ${codec.label}`) };
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e, display), code: 'invalid' });
    }
  }

  /**
   * Attaches an animation file to a model: its clips play in the preview and go with the glTF
   * export. Refused when none of its tracks names a bone or node of the model.
   */
  async attachAnimation(id: DocId, userPath: string): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      const anim = await this.readAnimation(userPath);
      if (d.anims.some((a) => a.path === anim.path)) return this.snapshot(d);
      const { matched, total } = matchAnimation(this.ownScene(d), anim.clips);
      if (matched === 0) fail('invalid', `${anim.fileName} drives ${total} bones or nodes, and ${d.fileName} has none of them`);
      d.anims.push(anim);
      return this.changed(d);
    });
  }

  /** Detaches the animation file attached as number `index`. */
  async detachAnimation(id: DocId, index: number): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      if (!d.anims[index]) fail('not-found', `No attached animation ${index}`);
      d.anims.splice(index, 1);
      return this.changed(d);
    });
  }

  /**
   * Animation files in the model's folder whose tracks drive the model's bones or nodes, best
   * match first, with how many of their targets the model has. Files that do not decode or match
   * nothing are left out.
   */
  async animationCandidates(id: DocId): Promise<{ path: string; fileName: string; matched: number; total: number }[]> {
    const d = this.get(id);
    const model = this.ownScene(d);
    const exts = new Set(allFormats().filter((c) => c.id === 'grimrock-animation' || c.id === 'unigine-anim').flatMap((c) => c.extensions));
    if (!d.abs) return [];
    let entries: FileEntry[];
    try {
      entries = await this.paths.list(this.paths.display(dirname(d.abs)));
    } catch {
      return [];
    }
    const out: { path: string; fileName: string; matched: number; total: number }[] = [];
    for (const e of entries.filter((x) => !x.dir && exts.has(x.name.slice(x.name.lastIndexOf('.')).toLowerCase())).slice(0, MAX_CANDIDATES)) {
      try {
        const anim = await this.readAnimation(e.path);
        const m = matchAnimation(model, anim.clips);
        if (m.matched > 0) out.push({ path: anim.path, fileName: anim.fileName, ...m });
      } catch {
        /* not an animation this model can play */
      }
    }
    return out.sort((a, b) => b.matched / b.total - a.matched / a.total || a.fileName.localeCompare(b.fileName));
  }

  /**
   * The editors' questions (`editor-query.ts`). Array pages work for every format (the codec may
   * name the columns); the rest is the codec's. Null when there is no answer.
   */
  query(id: DocId, q: EditorQuery): unknown {
    const d = this.get(id);
    try {
      if (q.kind === 'array') {
        const codec = d.codec;
        return arrayPage(d.tree, q.path, q.start, q.count, (name, data, at) => codec.arrayLayout?.(d.tree, name, data, at)) ?? null;
      }
      return d.codec.query?.(d.tree, q) ?? null;
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'invalid' });
    }
  }

  /** The document as it would be saved now (the original bytes while clean). */
  private currentBytes(d: OpenDocument): Uint8Array {
    if (!this.dirty(d)) return d.original;
    if (d.encoded?.revision === d.revision) return d.encoded.bytes;
    let bytes: Uint8Array;
    try {
      bytes = d.codec.encode(d.tree);
    } catch (e) {
      throw new AppErrorException(toAppError(e, d.fileName));
    }
    d.encoded = { revision: d.revision, bytes };
    return bytes;
  }

  /** Bytes [start, end) of the document as it would be saved now. */
  bytes(id: DocId, start: number, end: number): Uint8Array {
    const all = this.currentBytes(this.get(id));
    const s = Math.max(0, Math.min(all.length, Math.floor(start)));
    const e = Math.max(s, Math.min(all.length, Math.floor(end)));
    return all.slice(s, e);
  }

  /** Applies an edit (refused edits leave the document untouched) and records it for undo. */
  async edit(id: DocId, command: EditCommand): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      this.applyEdit(d, command);
      return this.changed(d);
    });
  }

  /**
   * `trusted`: a whole node the importer built (not a user's field value), which field checks
   * would refuse by shape; the caller proves it by encoding and decoding the result instead.
   */
  private applyEdit(d: OpenDocument, command: EditCommand, trusted = false): void {
    if (d.abs === null) fail('denied', `${d.fileName} was dropped on the window and is read-only: use Save As to put it in a folder, then edit it`);
    let refused: string | undefined;
    try {
      // A typed array would store 300 in a byte as 44: such values are refused for every format.
      if (!trusted) refused = checkElementEdit(d.tree, command) ?? d.codec.checkEdit?.(d.tree, command);
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'invalid' });
    }
    if (refused) fail('invalid', refused, { path: JSON.stringify(command.op === 'batch' ? [] : command.path) });
    let inverse: EditCommand;
    try {
      inverse = applyCommand(d.tree, command);
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'invalid' });
    }
    const top = d.undo[d.undo.length - 1];
    // A drag sends many sets on one path: one undo step, unless the save point sits between them.
    if (!trusted && top && d.redo.length === 0 && top.seq !== d.savedSeq && canMerge(top.command, command)) {
      top.command = command;
      top.seq = this.nextSeq++;
    } else {
      d.undo.push({ command, inverse, label: stepName(command, d.outline), seq: this.nextSeq++ });
    }
    d.redo = [];
  }

  /** Adds a node of `kind` under `parent`, as the codec builds it. */
  async create(id: DocId, parent: NodePath, kind: string): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      if (!d.codec.create) fail('invalid', `${d.codec.label} files cannot add nodes here`);
      let cmd: EditCommand | undefined;
      try {
        cmd = d.codec.create(d.tree, parent, kind);
      } catch (e) {
        throw new AppErrorException({ ...toAppError(e), code: 'invalid' });
      }
      if (!cmd) fail('invalid', `Cannot add ${kind} here`, { path: JSON.stringify(parent) });
      const where = nodeTitle(d.outline, parent, false);
      this.applyEdit(d, { ...cmd, label: cmd.label ?? `Add ${kind}${where ? ` to ${where}` : ''}` });
      return this.changed(d);
    });
  }

  private undoStep(d: OpenDocument): void {
    const e = d.undo.pop();
    if (!e) fail('invalid', 'Nothing to undo');
    try {
      applyCommand(d.tree, e.inverse);
    } catch (err) {
      d.undo.push(e);
      throw new AppErrorException({ ...toAppError(err), code: 'internal', message: `Undo failed: ${toAppError(err).message}` });
    }
    d.redo.push(e);
  }

  private redoStep(d: OpenDocument): void {
    const e = d.redo.pop();
    if (!e) fail('invalid', 'Nothing to redo');
    try {
      e.inverse = applyCommand(d.tree, e.command);
    } catch (err) {
      d.redo.push(e);
      throw new AppErrorException({ ...toAppError(err), code: 'internal', message: `Redo failed: ${toAppError(err).message}` });
    }
    d.undo.push(e);
  }

  async undo(id: DocId): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      this.undoStep(d);
      return this.changed(d);
    });
  }

  async redo(id: DocId): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      this.redoStep(d);
      return this.changed(d);
    });
  }

  /**
   * Goes to the state after `at` steps of the history (0: as opened), undoing or redoing as
   * many steps as it takes; the steps after it stay redoable.
   */
  async goto(id: DocId, at: number): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      const total = d.undo.length + d.redo.length;
      if (!Number.isInteger(at) || at < 0 || at > total) fail('invalid', `No step ${at} in the history (it has ${total})`);
      try {
        while (d.undo.length > at) this.undoStep(d);
        while (d.undo.length < at) this.redoStep(d);
      } catch (e) {
        // The steps taken before the failure are real changes: the renderer must see them.
        await this.changed(d);
        throw e;
      }
      return this.changed(d);
    });
  }

  /**
   * Encodes, proves the result decodes, and writes it atomically with a backup. Refuses with
   * 'conflict' when the file changed on disk since it was read, unless told to overwrite.
   */
  private async writeDocument(d: OpenDocument, abs: string, exclusive = false): Promise<void> {
    const name = basename(abs);
    this.emit('doc:progress', { id: d.id, task: 'save', fraction: -1 });
    const bytes = this.currentBytes(d);
    let reread: object | undefined;
    await atomicWriteFile(abs, bytes, {
      io: this.opts.io,
      noFollow: true,
      exclusive,
      ...(this.opts.onSaveStep ? { onStep: this.opts.onSaveStep } : {}),
      verify: (written) => {
        try {
          reread = d.codec.decode(written, { fileName: name, ...(d.maxMemory !== undefined ? { maxMemory: d.maxMemory } : {}) });
        } catch (e) {
          const err = toAppError(e, name);
          throw new AppErrorException({
            ...err,
            code: 'encode',
            message: `Not saved: the encoded file would not open again (${err.message}). The file on disk is unchanged.`,
          });
        }
      },
    });
    const st = await stat(abs);
    d.abs = abs;
    d.fileName = basename(abs);
    d.original = bytes;
    d.disk = { mtimeMs: st.mtimeMs, size: st.size };
    // The re-read tree's spans match the new file, so the hex view and `$raw` stay exact.
    if (reread) d.tree = reread;
    d.encoded = undefined;
    d.savedSeq = d.undo[d.undo.length - 1]?.seq ?? 0;
    this.emit('doc:progress', { id: d.id, task: 'save', fraction: 1 });
  }

  async save(id: DocId, options: SaveOptions = {}): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      if (d.abs === null) fail('invalid', `${d.fileName} has no file yet: use Save As to save it into a folder`);
      const display = this.paths.display(d.abs);
      await this.paths.resolve(display, 'write');
      if (!options.overwriteChanged && (await this.contentChanged(d))) {
        fail('conflict', `${basename(d.abs)} changed on disk since it was opened. Save anyway to overwrite it, or revert to load the version on disk.`, { file: display });
      }
      await this.writeDocument(d, d.abs);
      await this.recent.add(display);
      return this.changed(d);
    });
  }

  /**
   * Writes the document to a new path (see write-policy.ts): only with its format's extension,
   * never a dot name or a link, and over an existing file only with `overwrite`.
   */
  async saveAs(id: DocId, userPath: string, overwrite = false): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      const abs = await this.paths.resolve(userPath, 'write');
      const display = this.paths.display(abs);
      const { exists } = await checkWriteTarget({ abs, display, extensions: d.codec.extensions.map((e) => e.toLowerCase()), overwrite });
      for (const other of this.docs.values()) {
        if (other !== d && other.abs === abs) fail('conflict', `${basename(abs)} is open in another tab; close it first`, { file: userPath });
      }
      await this.writeDocument(d, abs, !exists);
      await this.recent.add(this.paths.display(abs));
      return this.changed(d);
    });
  }

  /** Reloads the file from disk, dropping edits and history. */
  async revert(id: DocId): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      if (d.abs === null) fail('invalid', `${d.fileName} has no file to revert to`);
      const display = this.paths.display(d.abs);
      let read;
      try {
        read = await this.readWithProgress(d.abs, d.id);
      } catch (e) {
        throw new AppErrorException(toAppError(e, display));
      }
      const codec = this.detect(read.bytes, d.fileName);
      const tree = this.decodeAs(codec, read.bytes, d.fileName, d.maxMemory);
      Object.assign(d, { codec, tree, original: read.bytes, disk: read.disk, undo: [], redo: [], savedSeq: 0, encoded: undefined });
      return this.changed(d);
    });
  }

  /**
   * A fresh decode of the document as it would be saved now: spans and `$raw` then describe
   * exactly those bytes, whatever was edited.
   */
  private freshCopy(d: OpenDocument): { bytes: Uint8Array; tree: object } {
    const bytes = this.currentBytes(d);
    return { bytes, tree: this.decodeAs(d.codec, bytes, d.fileName, d.maxMemory) };
  }

  private static nodeBytes(tree: object, bytes: Uint8Array, path: NodePath): Uint8Array | undefined {
    const node = getAt(tree, path) as { $raw?: unknown; $span?: unknown } | undefined;
    if (!node || typeof node !== 'object') return undefined;
    if (node.$raw instanceof Uint8Array) return node.$raw.slice();
    const span = node.$span;
    if (Array.isArray(span) && typeof span[0] === 'number' && typeof span[1] === 'number' && span[0] <= span[1] && span[1] <= bytes.length) {
      return bytes.slice(span[0], span[1]);
    }
    return undefined;
  }

  /** The bytes a node occupies in the file (chunk export). */
  exportNode(id: DocId, path: NodePath): Uint8Array {
    const d = this.get(id);
    const { bytes, tree } = this.freshCopy(d);
    const out = DocumentService.nodeBytes(tree, bytes, path);
    if (!out) fail('invalid', `The node at ${JSON.stringify(path)} has no byte range of its own to export`, { path: JSON.stringify(path) });
    return out;
  }

  /**
   * Replaces a node with bytes decoded as that node (chunk import). The bytes are spliced in as
   * the node's raw bytes, the file re-encoded and decoded again, and the node that comes out must
   * carry exactly the imported bytes; only then is it put in place with an undoable `set`.
   */
  async importNode(id: DocId, path: NodePath, bytes: Uint8Array): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      const where = JSON.stringify(path);
      if (path.length === 0) fail('invalid', 'Open the file instead of importing over the whole document');
      const scratch = this.freshCopy(d).tree;
      const node = getAt(scratch, path) as { $raw?: Uint8Array } | undefined;
      if (!node || typeof node !== 'object' || !('$raw' in node)) fail('invalid', `The node at ${where} cannot be replaced by raw bytes`, { path: where });
      node.$raw = bytes;
      markDirty(scratch, path.slice(0, -1));
      let check: object;
      try {
        const encoded = d.codec.encode(scratch);
        check = d.codec.decode(encoded, { fileName: d.fileName, ...(d.maxMemory !== undefined ? { maxMemory: d.maxMemory } : {}) });
      } catch (e) {
        const err = toAppError(e);
        throw new AppErrorException({ ...err, code: err.code === 'internal' ? 'invalid' : err.code, message: `The imported bytes do not fit at ${where}: ${err.message}` });
      }
      const replaced = getAt(check, path) as { $raw?: Uint8Array } | undefined;
      const got = replaced && typeof replaced === 'object' ? replaced.$raw : undefined;
      if (!got || got.length !== bytes.length || got.some((b, i) => b !== bytes[i])) {
        fail('invalid', `The imported bytes do not decode as the node at ${where}`, { path: where });
      }
      this.applyEdit(d, { op: 'set', path, value: replaced, label: `Import ${String(path[path.length - 1])}` });
      return this.changed(d);
    });
  }

  /**
   * "New from glTF": the glTF becomes a new document of the format `userPath`'s extension names,
   * unsaved (dirty) until the user saves it there. Nothing is written yet.
   */
  async newFromGltf(bytes: Uint8Array, name: string, userPath: string, opts: { version?: string; anim?: string } = {}): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    const abs = await this.paths.resolve(userPath, 'write');
    for (const d of this.docs.values()) if (d.abs === abs) fail('conflict', `${basename(abs)} is open in another tab; close it first`, { file: userPath });
    const ext = (abs.match(/\.[^./\\]+$/)?.[0] ?? '').toLowerCase();
    const format = IMPORT_TARGETS[ext];
    if (!format) fail('invalid', `Choose a file name ending in ${Object.keys(IMPORT_TARGETS).join(', ')}`, { file: userPath });
    // The write policy of Save As: a new document never replaces an existing file.
    await checkWriteTarget({ abs, display: this.paths.display(abs), extensions: Object.keys(IMPORT_TARGETS), overwrite: false });
    let result;
    try {
      result = await importGltf(gltfInputOf(bytes), format, { ...(opts.version ? { version: opts.version } : {}), ...(opts.anim ? { anim: opts.anim } : {}) });
    } catch (e) {
      throw new AppErrorException(toAppError(e, name));
    }
    const codec = formatById(format);
    const tree = this.decodeAs(codec, result.bytes, basename(abs));
    const id = `doc-${this.nextId++}`;
    // savedSeq -1: no saved state matches this document yet, so it shows as unsaved.
    const d: OpenDocument = {
      id, abs, fileName: basename(abs), codec, tree, original: result.bytes, disk: null,
      undo: [], redo: [], savedSeq: -1, revision: 1, queue: Promise.resolve(), anims: [],
    };
    this.docs.set(id, d);
    return { doc: await this.snapshot(d), warnings: result.warnings };
  }

  /** "Replace mesh from glTF": one undoable edit; every other node keeps its bytes. */
  async replaceFromGltf(id: DocId, path: NodePath, bytes: Uint8Array, name: string): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    const d = this.get(id);
    return this.serial(d, async () => {
      let replacement;
      try {
        const model = await readModel(gltfInputOf(bytes));
        replacement = replaceMeshCommand(d.codec.id, d.tree, path, model);
      } catch (e) {
        throw new AppErrorException(toAppError(e, name));
      }
      this.applyEdit(d, replacement.command, true);
      try {
        // The edited document must encode and open again; otherwise the edit is taken back.
        d.codec.decode(d.codec.encode(d.tree), { fileName: d.fileName });
      } catch (e) {
        const top = d.undo.pop()!;
        applyCommand(d.tree, top.inverse);
        throw new AppErrorException({ ...toAppError(e, name), code: 'invalid', message: `The glTF does not fit here: ${toAppError(e).message}` });
      }
      return { doc: await this.changed(d), warnings: replacement.warnings };
    });
  }

  /** Stores a preview screenshot in the document's screenshot block, as an undoable edit. */
  async screenshot(id: DocId, png: Uint8Array, name?: string): Promise<DocSnapshot> {
    const d = this.get(id);
    return this.serial(d, async () => {
      const cmd = screenshotCommand(d.codec.id, d.tree, png, name);
      if (!cmd) fail('invalid', `${d.codec.label} files have no screenshot block`);
      this.applyEdit(d, cmd);
      return this.changed(d);
    });
  }

  private readonly pictures = new TexturePictureCache();

  /** Where a texture reference of this document resolves (the rules of textures.md), or why not. */
  private resolveReference(d: OpenDocument, written: string): ReturnType<typeof resolveTexture> {
    // The user's texture folders first, then the folders the host was given.
    const roots = [...this.settings.get().textureRoots, ...(this.opts.textureRoots?.() ?? [])].map(toSlash);
    // Dropped bytes have no folder of their own to resolve against.
    if (d.abs === null) return { kind: 'missing', written };
    return resolveTexture(written, { modelDir: toSlash(dirname(d.abs)), roots }, fsLookup());
  }

  /**
   * "texture not found" warnings for the files the model's materials name (P3D paths; procedural
   * textures and embedded images need no file), recomputed once per revision.
   */
  private textureProblems(d: OpenDocument): Problem[] {
    if (d.textureProblems?.revision === d.revision) return d.textureProblems.problems;
    const problems: Problem[] = [];
    if (d.codec.id === 'p3d-mlod' || d.codec.id === 'p3d-odol') {
      try {
        const scene = d.codec.toScene(d.tree, {});
        const stages = this.materialStages(d, scene);
        const seen = new Set<string>();
        for (const m of scene.materials) {
          if (!m.texture || m.textureData || seen.has(m.texture)) continue;
          seen.add(m.texture);
          const r = this.resolveReference(d, m.texture);
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
  private materialStages(d: OpenDocument, scene: Scene): MaterialStages[] {
    if (d.abs === null || (d.codec.id !== 'p3d-mlod' && d.codec.id !== 'p3d-odol')) return [];
    const roots = [...this.settings.get().textureRoots, ...(this.opts.textureRoots?.() ?? [])].map(toSlash);
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
    return this.textureOf(this.get(id), name);
  }

  /**
   * The pictures the document embeds, by texture name, built once per revision (a model with
   * many textures asks for each: the scene is not built again for every one).
   */
  private embeddedTextures(d: OpenDocument): Map<string, Uint8Array> {
    if (d.embedded?.revision === d.revision) return d.embedded.map;
    const map = new Map<string, Uint8Array>();
    try {
      for (const m of d.codec.toScene(d.tree, {}).materials) if (m.texture && m.textureData && !map.has(m.texture)) map.set(m.texture, m.textureData);
    } catch {
      /* no scene: files only */
    }
    d.embedded = { revision: d.revision, map };
    return map;
  }

  private async textureOf(d: OpenDocument, name: string): Promise<Uint8Array | null> {
    const embedded = this.embeddedTextures(d).get(name);
    if (embedded) return this.pictures.browserImage(embedded, name);
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
      abs = await this.paths.resolve(this.paths.display(r.path), 'read');
    } catch {
      return null;
    }
    try {
      return await this.pictures.file(abs);
    } catch {
      return null;
    }
  }

  /**
   * Starts reading and decoding the texture files a just-opened model names, once the open has
   * been answered: the renderer asks for them right after the scene, and finds them decoded (or
   * on their way) instead of waiting for the decode after its first frame. Same cache, same
   * rules as {@link texture}; failures are left for that call to meet.
   */
  private prefetchTextures(d: OpenDocument): void {
    if (d.abs === null || !this.opts.prefetchTextures) return;
    setImmediate(() => {
      let scene: Scene;
      const revision = d.revision;
      try {
        scene = d.codec.toScene(d.tree, {});
      } catch {
        return;
      }
      this.materialStages(d, scene);
      // The preview asks for this very scene next: keep it for that request (a large model's
      // scene took as long to build as everything else in its open), but not for long.
      const ahead = { revision, scene };
      d.sceneAhead = ahead;
      setTimeout(() => {
        if (d.sceneAhead === ahead) d.sceneAhead = undefined;
      }, SCENE_AHEAD_MS).unref?.();
      const names = new Set<string>();
      for (const m of scene.materials) if (m.texture && !m.textureData) names.add(/^(?:[A-Za-z]:[\\/])?[^:]*/.exec(m.texture)![0]);
      for (const name of [...names].slice(0, PREFETCH_TEXTURES)) void this.textureOf(d, name).catch(() => null);
    });
  }

  /** A texture file on its own: info and one mip as PNG (the texture view). */
  async readTexture(userPath: string, mip: number): Promise<TextureView> {
    const abs = await this.paths.resolve(userPath, 'read');
    if (!isTextureName(abs)) fail('invalid', `${basename(abs)} is not a texture (.paa, .pac, .dds, .tga)`);
    const st = await stat(abs);
    if (st.size > (this.opts.maxFileBytes ?? 1024 ** 3)) fail('invalid', `${basename(abs)} is too large`);
    const bytes = new Uint8Array(await readFile(abs));
    const v = this.textureView(abs, bytes, mip);
    return this.textureUndo.get(abs)?.length ? { ...v, undo: `Replace ${basename(abs)} from PNG` } : v;
  }

  private textureView(abs: string, bytes: Uint8Array, mip: number): TextureView {
    try {
      return withBudget(MemoryBudget.forInput(bytes.length), () => {
        const doc = decodeTexture(bytes, basename(abs));
        const info = textureInfo(doc, bytes.length);
        const m = Math.min(mip, textureMipCount(doc) - 1);
        return {
          path: this.paths.display(abs), fileName: basename(abs), mip: m, png: encodePng(decodeTextureMip(doc, m), { fast: true }),
          info: { kind: info.kind, type: info.type, width: info.width, height: info.height, bytes: info.bytes, mips: info.mips, tags: info.tags ?? {}, notes: info.notes },
        };
      });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'decode', message: `Could not read ${basename(abs)}: ${toAppError(e).message}` });
    }
  }

  /** The bytes each replaced texture file had, newest last (undo of "Replace from PNG"). */
  private readonly textureUndo = new Map<string, { before: Uint8Array; after: Uint8Array }[]>();

  /**
   * Replaces a texture file with one made from a PNG, written atomically: PAA/PAC as a new PAA
   * (`format` or DXT1/DXT5 by alpha), DDS and TGA in the original's own format (rewrite.ts). The
   * bytes the file had are kept so the replace can be undone (one step per replace).
   */
  async replaceTexture(userPath: string, png: Uint8Array, format?: PaaWriteFormat): Promise<TextureView> {
    const abs = await this.paths.resolve(userPath, 'write');
    const ext = extname(abs).toLowerCase();
    if (!['.paa', '.pac', '.dds', '.tga'].includes(ext)) fail('invalid', 'only .paa, .pac, .dds and .tga textures can be replaced from a PNG');
    let before: Uint8Array;
    try {
      if ((await stat(abs)).size > (this.opts.maxFileBytes ?? 1024 ** 3)) fail('invalid', `${basename(abs)} is too large`);
      before = new Uint8Array(await readFile(abs));
    } catch (e) {
      throw new AppErrorException(toAppError(e, this.paths.display(abs)));
    }
    let out: Uint8Array;
    try {
      out = withBudget(MemoryBudget.forInput(png.length + before.length), () => {
        const img = decodePng(png);
        if (ext === '.dds') return replaceDds(decodeDds(before), img);
        if (ext === '.tga') return replaceTga(decodeTga(before), img);
        return encodePaa(createPaa(img, format ? { format } : {}));
      });
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'decode', message: `Could not replace ${basename(abs)} from that PNG: ${toAppError(e).message}` });
    }
    await atomicWriteFile(abs, out, { io: this.opts.io });
    const stack = this.textureUndo.get(abs) ?? [];
    stack.push({ before, after: out });
    // A few steps per file, and a few files: the bytes of big textures are held in memory.
    if (stack.length > 4) stack.shift();
    this.textureUndo.delete(abs);
    this.textureUndo.set(abs, stack);
    if (this.textureUndo.size > 8) this.textureUndo.delete(this.textureUndo.keys().next().value!);
    return this.textureViewWithUndo(abs, out);
  }

  /** Writes back the bytes a texture file had before its last replace, if it still holds what that replace wrote. */
  async undoTextureReplace(userPath: string): Promise<TextureView> {
    const abs = await this.paths.resolve(userPath, 'write');
    const stack = this.textureUndo.get(abs);
    const top = stack?.[stack.length - 1];
    if (!stack || !top) fail('invalid', `${basename(abs)} has no replace to undo`);
    let now: Uint8Array;
    try {
      now = new Uint8Array(await readFile(abs));
    } catch (e) {
      throw new AppErrorException(toAppError(e, this.paths.display(abs)));
    }
    if (!Buffer.from(now).equals(Buffer.from(top.after))) {
      this.textureUndo.delete(abs);
      fail('conflict', `${basename(abs)} changed on disk since it was replaced; nothing was undone`);
    }
    await atomicWriteFile(abs, top.before, { io: this.opts.io });
    stack.pop();
    if (!stack.length) this.textureUndo.delete(abs);
    return this.textureViewWithUndo(abs, top.before);
  }

  private textureViewWithUndo(abs: string, bytes: Uint8Array): TextureView {
    const v = this.textureView(abs, bytes, 0);
    return this.textureUndo.get(abs)?.length ? { ...v, undo: `Replace ${basename(abs)} from PNG` } : v;
  }

  /**
   * Writes the document's scene as a .glb file. `up` is the up axis the user chose in the
   * viewport; without it the format's guess applies, as in the viewport.
   */
  async exportGltf(id: DocId, userPath: string, lod?: string, up?: UpAxis, overwrite = false): Promise<void> {
    const d = this.get(id);
    if (!this.opts.gltf) fail('internal', 'glTF export is not available in this build');
    const abs = await this.paths.resolve(userPath, 'write');
    const { exists } = await checkWriteTarget({ abs, display: this.paths.display(abs), extensions: GLTF_EXTENSIONS, overwrite });
    // The model's own scene; attached animations go to the exporter as extra clips, as in `convert --anim`.
    const own = this.ownScene(d, lod);
    const scene = up ? { ...own, upAxis: up } : own;
    let glb: Uint8Array;
    try {
      glb = await this.opts.gltf(scene, d.fileName.replace(/\.[^.]+$/, ''), abs, d.anims.flatMap((a) => a.clips));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'encode', message: `glTF export failed: ${toAppError(e).message}` });
    }
    await atomicWriteFile(abs, glb, { io: this.opts.io, noFollow: true, exclusive: !exists });
  }

  async listDir(userDir: string): Promise<FileEntry[]> {
    try {
      return await this.paths.list(userDir);
    } catch (e) {
      throw new AppErrorException(toAppError(e, userDir));
    }
  }

  /** The recent list, without entries that no longer resolve (moved, deleted, outside the roots). */
  async recentFiles(): Promise<string[]> {
    const out: string[] = [];
    for (const p of await this.recent.get()) {
      try {
        await stat(await this.paths.resolve(p, 'read'));
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
