/**
 * The hall of the document service: the open documents and what every room uses on them
 * (lookup, the per-document queue, reading and decoding a file, snapshots and change events,
 * the bytes as they would be saved). The rooms (doc-open, doc-history, doc-save, doc-scene,
 * doc-textures, doc-gltf, texture-files) each take this store; DocumentService puts them
 * behind the IPC contract.
 */
import { open as openFile, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DocId, DocSnapshot, EventChannel, EventMap, HistoryInfo } from '../../shared/ipc/contract.ts';
import { detectFormat, type FormatCodec } from '../../shared/formats/index.ts';
import { capabilitiesOf } from '../../shared/formats/registry.ts';
import type { ConfigIncludeReader } from '../../shared/formats/capabilities.ts';
import { includeReaderFor } from './model-cfg-files.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import type { Problem } from '../../shared/model/problems.ts';
import type { AnimationClip, Scene } from '../../shared/scene/scene.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import type { AtomicIo, SaveStepHook } from './atomic-save.ts';
import { LocalPaths, type PathPolicy } from './path-policy.ts';
import { SettingsFile } from './settings.ts';
import { RecentFiles } from './recent.ts';
import { measureStage, timedStage } from './stage-timing.ts';
import type { MaterialStages } from './scene-textures.ts';

/** Sends an event to whoever shows the documents (a window, or the host's WebSocket clients). */
export type Emit = <C extends EventChannel>(channel: C, payload: EventMap[C]) => void;

/** Writes a scene as glTF binary (provided by the glTF exporter; optional so tests can leave it out). */
export type GltfWriter = (scene: Scene, name: string, target: string, extraClips?: readonly AnimationClip[]) => Uint8Array | Promise<Uint8Array>;

/** An animation file attached to a model document (played in the preview, exported with it). */
export interface AttachedAnimation {
  /** The path as the renderer shows it. */
  path: string;
  fileName: string;
  clips: AnimationClip[];
  /** Bones it names that the model lacks, bones of the model it never moves (Problems panel). */
  problems?: Problem[];
}

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
  /**
   * Runs work the service puts off until its answer has gone out (a just-opened document's
   * problems). Default: the next turn of the event loop (`setImmediate`); the browser host waits
   * until the answers it is writing have been written, so the work never holds their bytes back.
   */
  afterAnswer?: (task: () => void) => void;
}

export interface HistoryEntry {
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
export interface DiskState {
  mtimeMs: number;
  size: number;
}

export interface OpenDocument {
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
  sceneAhead?: { revision: number; scene: Scene; stages: MaterialStages[] };
  /**
   * The scene `doc:open` just sent with its answer (DocumentService.openWithScene): the texture
   * prefetch takes its texture names from it instead of building the scene again.
   */
  sceneSent?: { revision: number; scene: Scene };
  /** Serialises operations on one document (a save never interleaves with an edit). */
  queue: Promise<unknown>;
  /** Animation files attached to the model, in the order attached. */
  anims: AttachedAnimation[];
  /** Formats whose text includes other files (model.cfg): how this document reads them (every decode of it). */
  includes?: ConfigIncludeReader;
  /** Set for an entry opened from a PBO (doc-archives.ts): where its textures are looked up. */
  archive?: { abs: string; prefix: string; names: readonly string[] };
  /** An animation document: the model beside it that shapes its skeleton, when one matches. */
  rig?: { fileName: string; scene: Scene };
  /** The outline of the last snapshot (names undo steps without building it again). */
  outline?: OutlineNode;
}

const READ_CHUNK = 4 << 20;
/** Folders looked up above a document (its config's includes, the path policy's top). */
const MAX_PARENTS = 64;
/** History labels sent with each snapshot (the newest steps; older ones stay undoable). */
const HISTORY_SHOWN = 200;

/** The open documents of one app instance and the operations every room shares. */
export class DocumentStore {
  readonly recent: RecentFiles;
  readonly paths: PathPolicy;
  readonly settings: SettingsFile;
  readonly opts: DocumentServiceOptions;
  readonly docs = new Map<DocId, OpenDocument>();
  nextId = 1;
  nextSeq = 1;
  /** Problems a snapshot adds to the codec's own (the textures room's unresolved references). */
  problemsOf: (d: OpenDocument) => Problem[] = () => [];
  /** Runs after a document was written to `abs` (a saved config animates the models that use it). */
  onSaved: (abs: string) => Promise<void> = async () => {};

  constructor(opts: DocumentServiceOptions) {
    this.opts = opts;
    this.paths = opts.paths ?? new LocalPaths();
    this.recent = new RecentFiles(opts.configDir);
    this.settings = new SettingsFile(opts.configDir);
  }

  /** A new document id. */
  newId(): DocId {
    return `doc-${this.nextId++}`;
  }

  /** The user's texture folders, then the folders the host was given. */
  textureRoots(): string[] {
    return [...this.settings.get().textureRoots, ...(this.opts.textureRoots?.() ?? [])];
  }

  emit: Emit = (channel, payload) => {
    try {
      this.opts.emit?.(channel, payload);
    } catch {
      // A window that closed mid-operation must not fail the operation.
    }
  };

  get(id: DocId): OpenDocument {
    const d = this.docs.get(id);
    if (!d) fail('not-found', `No open document ${JSON.stringify(id)} (it may have been closed)`);
    return d;
  }

  /** Runs `fn` after every earlier operation on the document has finished. */
  serial<T>(d: OpenDocument, fn: () => Promise<T>): Promise<T> {
    const run = d.queue.then(fn, fn);
    d.queue = run.catch(() => undefined);
    return run;
  }

  dirty(d: OpenDocument): boolean {
    return (d.undo[d.undo.length - 1]?.seq ?? 0) !== d.savedSeq;
  }

  async readWithProgress(abs: string, id: DocId | undefined): Promise<{ bytes: Uint8Array; disk: DiskState }> {
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

  decodeAs(codec: FormatCodec, bytes: Uint8Array, fileName: string, maxMemory?: number, readInclude?: ConfigIncludeReader): object {
    try {
      // Inside the decoding memory budget: the default, or the editor's setting.
      return timedStage('host:decode', () => codec.decode(bytes, { fileName, ...(maxMemory !== undefined ? { maxMemory } : {}), ...(readInclude ? { readInclude } : {}) }));
    } catch (e) {
      const err = toAppError(e, fileName);
      // Anything but a DecodeError is a codec bug, but still reported, never a crash.
      throw new AppErrorException(err.code === 'internal' ? { ...err, code: 'decode', message: `Could not read ${fileName}: ${err.message}` } : err);
    }
  }

  /** What a document at `abs` reads its includes with: relative to it, inside the folders the policy lets the editor read. */
  async includeReader(abs: string, fileName: string): Promise<ConfigIncludeReader> {
    return includeReaderFor(abs, fileName, await this.readableTop(dirname(abs)));
  }

  /** The highest folder above `dir` (or `dir` itself) the path policy lets the editor list. */
  async readableTop(dir: string): Promise<string> {
    let top = dir;
    for (let k = 0, cur = dirname(dir); k < MAX_PARENTS && cur !== top; k++, cur = dirname(cur)) {
      try {
        await this.paths.resolve(this.paths.display(cur), 'list');
        top = cur;
      } catch {
        break;
      }
      if (dirname(cur) === cur) break;
    }
    return top;
  }

  detect(bytes: Uint8Array, fileName: string): FormatCodec {
    const codec = detectFormat(bytes, fileName);
    if (!codec) fail('decode', `${fileName} is not a model file LodSmith knows (unrecognised header)`, { offset: 0, path: '', file: fileName });
    return codec;
  }

  /** Everything the Problems list shows for the document: the codec's validation, then {@link problemsOf}. */
  problems(d: OpenDocument): Problem[] {
    let problems: Problem[];
    try {
      problems = timedStage('host:validate', () => d.codec.validate(d.tree));
    } catch (e) {
      problems = [{ severity: 'error', message: `Validation failed: ${toAppError(e).message}`, where: '' }];
    }
    return [...problems, ...this.problemsOf(d)];
  }

  /**
   * The renderer's view of a document, with problems and whether the disk changed under it. With
   * `problemsLater` the problems are left out (`problemsPending`) and sent as a `doc:problems`
   * event once the answer carrying this snapshot has gone out ({@link sendProblemsLater}).
   */
  async snapshot(d: OpenDocument, opts: { problemsLater?: boolean } = {}): Promise<DocSnapshot> {
    const problems = opts.problemsLater ? [] : this.problems(d);
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
      caps: capabilitiesOf(d.codec, outline),
      version,
      bytes: d.original.length,
      outline,
      problems,
      ...(opts.problemsLater ? { problemsPending: true as const } : {}),
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
  async contentChanged(d: OpenDocument): Promise<boolean> {
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

  /**
   * Finds the problems of `d` after the answer that said `problemsPending` has gone out, and sends
   * them as `doc:problems` for the revision that answer had. Nothing is sent when the document
   * was closed or changed meanwhile: every later snapshot carries its problems itself.
   */
  sendProblemsLater(d: OpenDocument): void {
    const revision = d.revision;
    const task = () => {
      if (this.docs.get(d.id) !== d || d.revision !== revision) return;
      let problems: Problem[];
      try {
        problems = timedStage('host:problems', () => this.problems(d));
      } catch (e) {
        problems = [{ severity: 'error', message: `Problems could not be listed: ${toAppError(e).message}`, where: '' }];
      }
      this.emit('doc:problems', { id: d.id, revision, problems });
    };
    (this.opts.afterAnswer ?? ((t: () => void) => void setImmediate(t)))(task);
  }

  async changed(d: OpenDocument): Promise<DocSnapshot> {
    d.revision++;
    const snap = await this.snapshot(d);
    this.emit('doc:changed', snap);
    return snap;
  }

  /** The document as it would be saved now (the original bytes while clean). */
  currentBytes(d: OpenDocument): Uint8Array {
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
}
