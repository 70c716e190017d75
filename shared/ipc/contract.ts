/**
 * The typed contract between the main process (or the browser host) and the renderer:
 * one invoke map (request -> response) and one event map (main -> renderer), channel names
 * `domain:verb`. The preload and the host client are generated from these maps; the main side
 * validates every request on arrival (see main/ipc/validate.ts).
 *
 * Everything here crosses a process boundary: plain data, typed arrays, no class instances.
 */
import type { EditCommand } from '../model/commands.ts';
import type { EditorQuery } from '../model/editor-query.ts';
import type { Inspection, OutlineNode } from '../model/outline.ts';
import type { NodePath } from '../model/path.ts';
import type { Problem } from '../model/problems.ts';
import type { Scene, UpAxis } from '../scene/scene.ts';
import type { FormatId } from '../formats/registry.ts';
import type { DocCapabilities } from '../formats/capabilities.ts';

export type { DocCapabilities, EditorPanel } from '../formats/capabilities.ts';

export type DocId = string;

/**
 * `doc:open`'s answer. Asked with `scene: true` (the editor's preview), it also carries the scene
 * `doc:scene` would give for the new document (default LOD), when the file is small enough that
 * building it does not hold the document's first view back (SCENE_WITH_OPEN_MAX_BYTES): one
 * round trip from the click to the first frame instead of two, as a glTF viewer fetches one file.
 */
export type OpenedDoc = DocSnapshot & { scene?: Scene };

/** Files up to this size send their first scene with `doc:open` (when asked). */
export const SCENE_WITH_OPEN_MAX_BYTES = 16 << 20;

/** What the renderer knows of an open document; sent after every change. */
export interface DocSnapshot {
  id: DocId;
  /** Full path (Electron) or root-relative path (browser host). */
  path: string;
  fileName: string;
  format: FormatId;
  formatLabel: string;
  /** What the format offers (declared by its codec): the renderer asks this, never the format id. */
  caps?: DocCapabilities;
  version: number | string;
  bytes: number;
  outline: OutlineNode;
  problems: Problem[];
  /**
   * The problems are still being found: `problems` is empty and a `doc:problems` event for this
   * revision brings them. Set on the answer of `doc:open` with `scene: true` (the editor's open):
   * the validation and the modding rules run after the answer, so the first frame does not wait
   * for them.
   */
  problemsPending?: true;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  undoLabel?: string;
  redoLabel?: string;
  /** The named undo steps, for the history list. */
  history?: HistoryInfo;
  /** Opened from dropped bytes: no file to save to until Save As puts it in a folder; edits wait until then. */
  readOnly?: boolean;
  /** Increments on every change; the renderer refetches the scene when it moves. */
  revision: number;
  /** The file changed on disk since it was opened or saved. */
  changedOnDisk?: boolean;
  /** Animation files attached to the model (played in the preview, exported with it). */
  animations?: AttachedAnimationInfo[];
}

export interface AttachedAnimationInfo {
  path: string;
  fileName: string;
  /** Names of its clips. */
  clips: string[];
}

/** An animation file the model can play: `matched` of its `total` target names are the model's. */
export interface AnimationCandidate {
  path: string;
  fileName: string;
  matched: number;
  total: number;
}

/**
 * The undo history of a document as one list of named steps: `labels[i]` is step `first + i`;
 * the document is in the state after `at` steps (steps from `at` on are redoable), and the file
 * on disk matches the state after `savedAt` steps (null: no state in the history).
 */
export interface HistoryInfo {
  labels: string[];
  first: number;
  at: number;
  savedAt: number | null;
}

/** A codec or file-system failure as the renderer shows it. */
export interface AppError {
  code: 'decode' | 'encode' | 'io' | 'invalid' | 'conflict' | 'not-found' | 'denied' | 'internal';
  message: string;
  /** Byte offset and node path from the codec, when known. */
  offset?: number;
  path?: string;
  file?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export interface FindResult {
  paths: NodePath[];
  /** The search stopped early (too many nodes or matches); the paths are the first ones found. */
  truncated: boolean;
}

export interface FileEntry {
  name: string;
  path: string;
  dir: boolean;
  size?: number;
}

export interface SaveOptions {
  /** Save even though the file changed on disk since it was opened. */
  overwriteChanged?: boolean;
}

/** The editor's settings kept by the main process between sessions. */
export interface EditorSettings {
  /**
   * Texture folders (a P-drive, unpacked mods), searched in this order for the textures every
   * open model names, before the model's own folder and its parents. Paths as the host shows them.
   */
  textureRoots: string[];
}

/** Request -> response for every invoke channel. */
export interface InvokeMap {
  /**
   * `importTargets`: the formats "New from glTF" can make (extension and label, from their
   * codecs); `extensions`: what the host opens (every registered format's and the textures').
   */
  'app:info': { req: void; res: { version: string; host: 'electron' | 'browser'; sample: string | null; roots: string[]; importTargets?: { extension: string; label: string }[]; extensions?: string[] } };
  'app:recent': { req: void; res: string[] };
  'settings:get': { req: void; res: EditorSettings };
  /**
   * Replaces the settings. Every texture folder must be an existing folder the host may read
   * (else an 'invalid' or 'denied' error naming it, and nothing changes). Open documents'
   * problems are recomputed and sent as `doc:changed`.
   */
  'settings:set': { req: EditorSettings; res: EditorSettings };
  /** Lists a folder (browser host: only inside the allowed roots). */
  'fs:list': { req: { dir: string }; res: FileEntry[] };
  /** Electron: native open dialog; browser host: not available (use fs:list). */
  'dialog:open': { req: void; res: string[] };
  'dialog:save': { req: { suggested: string }; res: string | null };

  /**
   * `maxMemory`: the editor's decoding memory setting in bytes (default: 64 MiB + 16 x the file's
   * size, see shared/binary/budget.ts). It stays with the document for its reloads. `scene`: the
   * preview's first scene comes with the answer (see {@link OpenedDoc}), and a newly opened
   * document's problems follow it as a `doc:problems` event (`problemsPending`).
   */
  'doc:open': { req: { path: string; maxMemory?: number; scene?: boolean }; res: OpenedDoc };
  'doc:openSample': { req: void; res: DocSnapshot };
  'doc:list': { req: void; res: DocSnapshot[] };
  'doc:close': { req: { id: DocId }; res: void };
  'doc:inspect': { req: { id: DocId; path: NodePath }; res: Inspection | null };
  'doc:scene': { req: { id: DocId; lod?: string }; res: Scene };
  /**
   * Source animations (model.cfg, or compiled into an ODOL): the model's sources, and with
   * `values` (source -> value) the scene of one LOD posed at all of them at once (no clips).
   */
  'doc:sourcePose': { req: { id: DocId; lod?: string; values?: Record<string, number> }; res: SourcePoseAnswer };
  /** Use this config file for the model's animations (null: find it beside the model, as the game does). */
  'doc:sourceConfig': { req: { id: DocId; path: string | null }; res: DocSnapshot };
  /**
   * The editors' questions (`editor-query.ts`): array table pages, viewport highlights, the P3D
   * editors' views, and planned edit commands (sent back through doc:edit). Null: no answer.
   */
  'doc:query': { req: { id: DocId; query: EditorQuery }; res: unknown };
  /** Bytes of the original file (or the re-encoded document when dirty) in [start, end). */
  'doc:bytes': { req: { id: DocId; start: number; end: number }; res: Uint8Array };
  'doc:edit': { req: { id: DocId; command: EditCommand }; res: DocSnapshot };
  /** Asks the codec for the command that adds a node of `kind` under `parent`. */
  'doc:create': { req: { id: DocId; parent: NodePath; kind: string }; res: DocSnapshot };
  'doc:undo': { req: { id: DocId }; res: DocSnapshot };
  'doc:redo': { req: { id: DocId }; res: DocSnapshot };
  /** Undoes or redoes until the document is in the state after `at` history steps. */
  'doc:goto': { req: { id: DocId; at: number }; res: DocSnapshot };
  /** Opens a document from bytes without a file (dropped on the window); read-only until Save As. */
  'doc:openBytes': { req: { name: string; bytes: Uint8Array }; res: DocSnapshot };
  /** Paths of the outline nodes whose name, label or field values contain `query`. */
  'doc:find': { req: { id: DocId; query: string }; res: FindResult };
  'doc:save': { req: { id: DocId; options?: SaveOptions }; res: DocSnapshot };
  /**
   * Writes the document to `path` (its format's extension only; never a dot name or a link).
   * An existing file is replaced only with `overwrite: true` (the UI asks first); otherwise the
   * answer is a 'conflict' error and nothing is written.
   */
  'doc:saveAs': { req: { id: DocId; path: string; overwrite?: boolean }; res: DocSnapshot };
  'doc:revert': { req: { id: DocId }; res: DocSnapshot };
  /** Raw bytes of a node (chunk export). */
  'doc:exportNode': { req: { id: DocId; path: NodePath }; res: Uint8Array };
  /** Replaces a node with bytes the codec decodes as that node (chunk import). */
  'doc:importNode': { req: { id: DocId; path: NodePath; bytes: Uint8Array }; res: DocSnapshot };
  /** Writes a preview screenshot (PNG) into the document's screenshot block (LODka IMG1). */
  'doc:screenshot': { req: { id: DocId; png: Uint8Array; name?: string }; res: DocSnapshot };
  /** Bytes of a texture referenced by the model (embedded or found next to the file). */
  'doc:texture': { req: { id: DocId; name: string }; res: Uint8Array | null };
  /**
   * "New from glTF": imports a glTF (`.glb` or self-contained `.gltf` bytes) as a new, unsaved
   * document that will be saved to `path` (its extension picks the format).
   */
  'doc:newFromGltf': { req: { bytes: Uint8Array; name: string; path: string; version?: string; anim?: string }; res: { doc: DocSnapshot; warnings: string[] } };
  /** "Replace mesh from glTF": the mesh, LOD or surface at `path` takes the glTF's geometry (one undoable edit). */
  'doc:replaceFromGltf': { req: { id: DocId; path: NodePath; bytes: Uint8Array; name: string }; res: { doc: DocSnapshot; warnings: string[] } };
  /** Exports the document (or one LOD) as glTF (`.glb` or `.gltf`) with its attached animations; `overwrite` as for doc:saveAs. */
  'doc:exportGltf': { req: { id: DocId; path: string; lod?: string; up?: UpAxis; overwrite?: boolean }; res: void };
  /** Attaches an animation file (Grimrock .animation, Unigine .anim) to a model document. */
  'doc:attachAnimation': { req: { id: DocId; path: string }; res: DocSnapshot };
  /** Attaches an animation file dropped on the window (its bytes and name; no path behind it). */
  'doc:attachAnimationBytes': { req: { id: DocId; name: string; bytes: Uint8Array }; res: DocSnapshot };
  'doc:detachAnimation': { req: { id: DocId; index: number }; res: DocSnapshot };
  /** Animation files in the model's folder whose bone names match the model's. */
  'doc:animationCandidates': { req: { id: DocId }; res: AnimationCandidate[] };
  /**
   * A texture file opened on its own (.paa/.pac/.dds/.tga): its facts and one mip as PNG.
   * `maxMemory` (here and in replace and undo) is the editor's Memory limit, as for `doc:open`;
   * without it a texture decodes within the bound its declared size sets (up to 8192 x 8192).
   */
  'texture:read': { req: { path: string; mip?: number; maxMemory?: number }; res: TextureView };
  /**
   * Replaces a texture file with one made from a PNG, written atomically: a PAA/PAC as a new PAA
   * (full mip chain and tags; `format` picks its type), a DDS or TGA in the original's own format
   * (docs/textures.md). Answers the new view of mip 0, which can be undone.
   */
  'texture:replace': { req: { path: string; png: Uint8Array; format?: 'dxt1' | 'dxt5' | 'argb8888'; maxMemory?: number }; res: TextureView };
  /** Undoes the last replace of this texture file: the bytes it had are written back (refused if the file changed since). */
  'texture:undo': { req: { path: string; maxMemory?: number }; res: TextureView };
}

/** What the texture view shows: the texture's facts (as `lodsmith info --json`) and one mip as PNG. */
export interface TextureView {
  path: string;
  fileName: string;
  info: {
    kind: string;
    type: string;
    width: number;
    height: number;
    bytes: number;
    mips: { width: number; height: number; compression?: string; bytes?: number }[];
    tags?: Record<string, unknown>;
    notes: string[];
  };
  mip: number;
  png: Uint8Array;
  /** A replace of this file can be undone (the label names it). */
  undo?: string;
}

/** Main -> renderer events. */
export interface EventMap {
  /** A menu item or accelerator: `file:open`, `edit:undo`, `view:wireframe`... */
  'menu:command': { command: string };
  'doc:changed': DocSnapshot;
  'doc:closed': { id: DocId };
  /** The problems of a document whose snapshot said `problemsPending`, for that revision. */
  'doc:problems': { id: DocId; revision: number; problems: Problem[] };
  /** Long work (open, save): fraction 0..1, or -1 when unknown. */
  'doc:progress': { id?: DocId; task: string; fraction: number };
  /** A file was opened from outside (command line, second instance, drag onto the dock icon). */
  'app:openRequested': { path: string };
}

export type InvokeChannel = keyof InvokeMap;
export type EventChannel = keyof EventMap;
/** One animation source: its name as in the config and its animations' value range. */
export interface SourcePoseSource {
  name: string;
  min: number;
  max: number;
}

/** The config file a model's animations come from (P3D: model.cfg), as found or as chosen in the editor. */
export interface SourceConfigChoice {
  /** The file name the format looks for (`model.cfg`). */
  name: string;
  /** The file used, as the host shows paths; null when none was found. */
  file: string | null;
  /** True when the user chose the file (`doc:sourceConfig`) instead of the game's search. */
  chosen: boolean;
}

export interface SourcePoseAnswer {
  sources: SourcePoseSource[];
  /** For formats whose animations live in a config file: which one the model uses. */
  config?: SourceConfigChoice;
  /** The posed scene, when values were sent and the model has sources. */
  scene?: Scene;
}

export type Req<C extends InvokeChannel> = InvokeMap[C]['req'];
export type Res<C extends InvokeChannel> = InvokeMap[C]['res'];

export const INVOKE_CHANNELS = [
  'app:info', 'app:recent', 'settings:get', 'settings:set', 'fs:list', 'dialog:open', 'dialog:save',
  'doc:open', 'doc:openSample', 'doc:list', 'doc:close', 'doc:inspect', 'doc:scene', 'doc:sourcePose', 'doc:sourceConfig', 'doc:query', 'doc:bytes',
  'doc:edit', 'doc:create', 'doc:undo', 'doc:redo', 'doc:goto', 'doc:openBytes', 'doc:find', 'doc:save', 'doc:saveAs', 'doc:revert',
  'doc:exportNode', 'doc:importNode', 'doc:screenshot', 'doc:texture', 'doc:exportGltf', 'doc:newFromGltf', 'doc:replaceFromGltf',
  'texture:read', 'texture:replace', 'texture:undo',
  'doc:attachAnimation', 'doc:attachAnimationBytes', 'doc:detachAnimation', 'doc:animationCandidates',
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = [
  'menu:command', 'doc:changed', 'doc:closed', 'doc:problems', 'doc:progress', 'app:openRequested',
] as const satisfies readonly EventChannel[];

/**
 * The API the preload exposes as `window.lodsmith` (and the browser host client implements the
 * same): invoke returns a Result so errors arrive as data with offset and path.
 */
export interface LodsmithApi {
  invoke<C extends InvokeChannel>(channel: C, req: Req<C>): Promise<Result<Res<C>>>;
  on<C extends EventChannel>(channel: C, listener: (payload: EventMap[C]) => void): () => void;
}
