/**
 * Open documents, the selection in each, the inspection of the selected node, errors and progress.
 * Every change to a document goes through `doc:edit` (or a verb such as undo/save) and comes back
 * as a fresh {@link DocSnapshot}; the store never edits a document itself.
 */
import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef } from 'vue';
import type { AppError, DocId, DocSnapshot, InvokeChannel, OpenedDoc, Req, Res, TextureView } from '../../shared/ipc/contract.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { EditorQuery, RepathAnswer } from '../../shared/model/editor-query.ts';
import type { Inspection, OutlineNode } from '../../shared/model/outline.ts';
import type { Problem } from '../../shared/model/problems.ts';
import { pathKey, type NodePath } from '../../shared/model/path.ts';
import { api } from '../bridge/index.ts';
import { useSettings } from './use-settings.ts';
import { ancestry, findNode } from '../lib/tree-model.ts';
import { latestAnswer } from '../lib/latest-answer.ts';

export interface ShownError {
  /** What the user was doing: "Open failed", "Save failed"... */
  title: string;
  error: AppError;
}

interface DocUi {
  selected: NodePath | null;
  expanded: Set<string>;
  /** The structure tree's filter text: each document keeps its own. */
  filter: string;
}

export type Span = [number, number];

const samePrefix = (a: NodePath, b: NodePath): boolean =>
  a.length === b.length && a.slice(0, -1).every((k, i) => k === b[i]);

/** Readable one-line form of an AppError with its offset and node path. */
export function describeError(e: AppError): string {
  const parts = [e.message];
  if (e.offset !== undefined && !e.message.includes('offset')) parts.push(`at offset ${e.offset} (0x${e.offset.toString(16)})`);
  if (e.path && !e.message.includes(e.path)) parts.push(`in ${e.path}`);
  return parts.join(' ');
}

export const useDocs = defineStore('docs', () => {
  const docs = ref<DocSnapshot[]>([]);
  const activeId = ref<DocId | null>(null);
  const ui = reactive(new Map<DocId, DocUi>());
  const inspection = shallowRef<Inspection | null>(null);
  const inspectionFor = ref<string>('');
  /** Byte range of the field under the cursor in the inspector (highlighted in the hex view). */
  const hoverSpan = ref<Span | null>(null);
  const error = ref<ShownError | null>(null);
  const notice = ref<string | null>(null);
  const progress = ref<{ task: string; fraction: number } | null>(null);
  const busy = ref(0);

  const active = computed(() => docs.value.find((d) => d.id === activeId.value) ?? null);
  const activeUi = computed(() => (activeId.value ? ui.get(activeId.value) ?? null : null));
  const selectedPath = computed(() => activeUi.value?.selected ?? null);
  const selectedNode = computed<OutlineNode | undefined>(() =>
    active.value && selectedPath.value ? findNode(active.value.outline, selectedPath.value) : undefined,
  );

  /** Calls the API; failures become the error banner unless `quiet`, and resolve to undefined. */
  async function call<C extends InvokeChannel>(channel: C, req: Req<C>, title: string, quiet = false): Promise<Res<C> | undefined> {
    busy.value++;
    try {
      const r = await api().invoke(channel, req);
      if (r.ok) return r.value;
      if (!quiet) error.value = { title, error: r.error };
      lastError = r.error;
      return undefined;
    } catch (e) {
      const err: AppError = { code: 'internal', message: e instanceof Error ? e.message : String(e) };
      lastError = err;
      if (!quiet) error.value = { title, error: err };
      return undefined;
    } finally {
      busy.value--;
    }
  }
  let lastError: AppError | undefined;

  /** Takes a snapshot from any source (reply or `doc:changed`). */
  function accept(s: DocSnapshot): void {
    if (s.problemsPending) {
      // Its problems may have come before it (the event and the answer travel apart).
      const key = `${s.id}:${s.revision}`;
      const early = earlyProblems.get(key);
      earlyProblems.delete(key);
      if (early) s = withProblems(s, early);
    }
    const i = docs.value.findIndex((d) => d.id === s.id);
    if (i >= 0) {
      const had = docs.value[i]!;
      if (had.revision > s.revision) return;
      if (had.revision === s.revision) {
        sameRevision(had, s);
        return;
      }
      docs.value.splice(i, 1, s);
    } else {
      docs.value.push(s);
      ui.set(s.id, { selected: null, filter: '', expanded: new Set([pathKey(s.outline.path), ...s.outline.children?.map((c) => pathKey(c.path)) ?? []]) });
    }
    if (s.id === activeId.value) void refreshInspection();
  }

  /**
   * A snapshot of the revision the store already has: an edit's answer and its `doc:changed` event
   * carry the same one, and Settings sends one with new texture problems. The document's content,
   * its outline and what the inspector shows are what the store has; what else differs is written
   * into the snapshot the store holds, field by field, as acceptProblems does: a new object would
   * be a new active document to every view of it, and each would ask for its part again.
   */
  function sameRevision(had: DocSnapshot, s: DocSnapshot): void {
    // Still waiting for its problems: the store's (arrived, or on their way by doc:problems) stand.
    if (s.problemsPending) return;
    const into = had as unknown as Record<string, unknown>;
    const from = s as unknown as Record<string, unknown>;
    for (const k of new Set([...Object.keys(had), ...Object.keys(s)])) {
      if (k === 'outline') continue;
      if (!(k in from)) delete into[k];
      else if (JSON.stringify(into[k]) !== JSON.stringify(from[k])) into[k] = from[k];
    }
  }

  /**
   * `doc:problems`: the problems of a snapshot that said `problemsPending` (a just-opened file).
   * Taken only by that very revision while it still waits for them (every later snapshot has its
   * own); kept a short while when the snapshot has not arrived yet.
   */
  const earlyProblems = new Map<string, Problem[]>();
  function acceptProblems(p: { id: DocId; revision: number; problems: Problem[] }): void {
    const d = docs.value.find((x) => x.id === p.id);
    if (!d) {
      earlyProblems.set(`${p.id}:${p.revision}`, p.problems);
      for (const k of earlyProblems.keys()) if (earlyProblems.size > 4) earlyProblems.delete(k);
      return;
    }
    if (d.revision !== p.revision || !d.problemsPending) return;
    // In place: only what reads the problems updates. A new snapshot object would be a new
    // active document to every watcher of it (the preview asked for its scene again).
    d.problems = p.problems;
    delete d.problemsPending;
  }
  function withProblems(s: DocSnapshot, problems: Problem[]): DocSnapshot {
    const { problemsPending: _pending, ...rest } = s;
    return { ...rest, problems };
  }

  async function opened(answer: OpenedDoc | DocSnapshot | undefined): Promise<DocSnapshot | undefined> {
    if (!answer) return undefined;
    // The scene that came with the open goes to the preview, never into reactive state.
    const { scene, ...s } = answer as OpenedDoc;
    if (scene) {
      openedScenes.set(`${s.id}:${s.revision}`, scene);
      // Never more than a few held (a preview that is not shown takes none).
      for (const k of openedScenes.keys()) if (openedScenes.size > 2) openedScenes.delete(k);
      // The preview draws the model first; the document's panels (tree, inspector, Problems)
      // render after that frame instead of in the same task before it.
      if (firstScene) await firstScene(s, scene).catch(() => undefined);
    }
    accept(s);
    activate(s.id);
    return docs.value.find((d) => d.id === s.id) ?? s;
  }

  /**
   * Scenes that came with `doc:open` answers, by document and revision: the preview takes each
   * once ({@link takeOpenedScene}) instead of asking `doc:scene`. Plain data, outside the store's
   * reactive state (a scene's vertex arrays must not be made reactive).
   */
  const openedScenes = new Map<string, Scene>();
  /**
   * Set by the preview: shows a just-opened document's scene and resolves once that frame is
   * drawn, before the document becomes the active one.
   */
  let firstScene: ((doc: DocSnapshot, scene: Scene) => Promise<void>) | null = null;
  function onFirstScene(show: ((doc: DocSnapshot, scene: Scene) => Promise<void>) | null): void {
    firstScene = show;
  }

  /** The scene that came with the document's open, for its first preview (default LOD), once. */
  function takeOpenedScene(id: DocId, revision: number): Scene | undefined {
    const key = `${id}:${revision}`;
    const scene = openedScenes.get(key);
    openedScenes.delete(key);
    // Older ones for this document are of no use any more.
    for (const k of openedScenes.keys()) if (k.startsWith(`${id}:`)) openedScenes.delete(k);
    return scene;
  }

  /** A texture file opened on its own (shown in the texture view, not as a document). */
  const textureView = ref<TextureView | null>(null);
  /** The status bar's Memory limit as a request field (none: the default budget). */
  function memoryLimit(): { maxMemory?: number } {
    const maxMemory = useSettings().maxMemoryBytes;
    return maxMemory !== undefined ? { maxMemory } : {};
  }
  async function openTexture(path: string, mip = 0): Promise<void> {
    // The Memory limit the texture view's error banner points to applies here too.
    const v = await call('texture:read', { path, mip, ...memoryLimit() }, `Could not open ${path}`);
    if (v) textureView.value = v;
  }
  async function replaceTexture(png: Uint8Array, format?: 'dxt1' | 'dxt5' | 'argb8888'): Promise<void> {
    const cur = textureView.value;
    if (!cur) return;
    const v = await call('texture:replace', { path: cur.path, png, ...(format ? { format } : {}), ...memoryLimit() }, `Could not replace ${cur.fileName}`);
    if (v) textureView.value = v;
  }
  /** Undoes the last "Replace from PNG" of the open texture (the file gets its old bytes back). */
  async function undoTextureReplace(): Promise<void> {
    const cur = textureView.value;
    if (!cur?.undo) return;
    const v = await call('texture:undo', { path: cur.path, ...memoryLimit() }, `Could not undo the replace of ${cur.fileName}`);
    if (v) textureView.value = v;
  }
  function closeTexture(): void {
    textureView.value = null;
  }

  async function open(path: string): Promise<DocSnapshot | undefined> {
    if (/\.(paa|pac|dds|tga)$/i.test(path)) {
      await openTexture(path);
      return undefined;
    }
    const existing = docs.value.find((d) => d.path === path);
    if (existing) {
      activate(existing.id);
      return existing;
    }
    // The editor's decoding memory setting goes with the request (absent: the default rule).
    const maxMemory = useSettings().maxMemoryBytes;
    // The preview's first scene comes with the answer (one round trip to the first frame).
    return opened(await call('doc:open', { path, scene: true, ...(maxMemory !== undefined ? { maxMemory } : {}) }, `Could not open ${path}`));
  }

  /** Opens a file dropped on the window from its bytes: read-only until saved into a folder. */
  async function openDropped(name: string, bytes: Uint8Array): Promise<DocSnapshot | undefined> {
    const s = await opened(await call('doc:openBytes', { name, bytes }, `Could not open ${name}`));
    if (s) notice.value = `${s.fileName} is open read-only: use Save As to put it in a folder and edit it`;
    return s;
  }

  async function openSample(): Promise<DocSnapshot | undefined> {
    return opened(await call('doc:openSample', undefined, 'Could not open the sample'));
  }

  /** Picks up documents the service already holds (a reload of the window). */
  async function restore(): Promise<void> {
    const list = await call('doc:list', undefined, 'Could not list open documents', true);
    // A page opened without the address's token (a new tab, a bookmark): say what to do.
    if (!list && lastError?.code === 'denied') error.value = { title: 'The host refused this page', error: lastError };
    for (const s of list ?? []) accept(s);
    if (!activeId.value && docs.value[0]) activate(docs.value[0].id);
  }

  function activate(id: DocId): void {
    activeId.value = id;
    hoverSpan.value = null;
    void refreshInspection();
  }

  async function close(id: DocId): Promise<void> {
    await call('doc:close', { id }, 'Could not close the document');
    forget(id);
  }

  function forget(id: DocId): void {
    for (const k of openedScenes.keys()) if (k.startsWith(`${id}:`)) openedScenes.delete(k);
    for (const k of earlyProblems.keys()) if (k.startsWith(`${id}:`)) earlyProblems.delete(k);
    const i = docs.value.findIndex((d) => d.id === id);
    if (i < 0) return;
    docs.value.splice(i, 1);
    ui.delete(id);
    if (activeId.value === id) {
      const next = docs.value[Math.min(i, docs.value.length - 1)];
      activeId.value = next?.id ?? null;
      void refreshInspection();
    }
  }

  function select(path: NodePath | null, reveal = true): void {
    const u = activeUi.value;
    if (!u) return;
    u.selected = path ? [...path] : null;
    hoverSpan.value = null;
    if (path && reveal && active.value) {
      for (const n of ancestry(active.value.outline, path).slice(0, -1)) u.expanded.add(pathKey(n.path));
    }
    void refreshInspection();
  }

  function toggleExpanded(key: string, open?: boolean): void {
    const u = activeUi.value;
    if (!u) return;
    const want = open ?? !u.expanded.has(key);
    if (want) u.expanded.add(key);
    else u.expanded.delete(key);
  }

  const inspectAnswers = latestAnswer();
  async function refreshInspection(): Promise<void> {
    const d = active.value;
    const path = selectedPath.value;
    const current = inspectAnswers.ask();
    if (!d || !path) {
      inspection.value = null;
      inspectionFor.value = '';
      return;
    }
    const res = await call('doc:inspect', { id: d.id, path }, 'Could not inspect the node', true);
    if (!current()) return;
    inspection.value = res ?? null;
    inspectionFor.value = `${d.id}:${d.revision}:${pathKey(path)}`;
  }

  /** Inspects any node of the active document without changing the selection (editors). */
  async function inspect(path: NodePath): Promise<Inspection | null> {
    const d = active.value;
    if (!d) return null;
    return (await call('doc:inspect', { id: d.id, path }, 'Could not inspect the node', true)) ?? null;
  }

  /** Asks the document an editor question (`editor-query.ts`); null when there is no answer or it failed. */
  async function query<T>(q: EditorQuery): Promise<T | null> {
    const d = active.value;
    if (!d) return null;
    return ((await call('doc:query', { id: d.id, query: q }, 'Could not read the document', true)) as T | undefined) ?? null;
  }

  /**
   * Asks the codec to plan an edit (`p3d-group-path`, `p3d-proxy-edit`) and sends it through
   * doc:edit: the one command path, so undo and checkEdit apply. Returns the refusal, if any.
   */
  async function editPlanned(q: EditorQuery): Promise<AppError | undefined> {
    const d = active.value;
    if (!d) return { code: 'invalid', message: 'No document is open' };
    const cmd = (await call('doc:query', { id: d.id, query: q }, 'Edit refused', true)) as EditCommand | null | undefined;
    if (!cmd) return lastError ?? { code: 'invalid', message: 'Nothing to change' };
    return edit(cmd);
  }

  /**
   * Sends one edit. Returns the refusal (the codec's message, offset and path) instead of showing
   * it, so the inspector can put it next to the field; nothing is written when refused.
   */
  async function edit(command: EditCommand): Promise<AppError | undefined> {
    const d = active.value;
    if (!d) return { code: 'invalid', message: 'No document is open' };
    const s = await inOrder(() => call('doc:edit', { id: d.id, command }, 'Edit refused', true));
    if (!s) return lastError;
    accept(s);
    return undefined;
  }

  /**
   * Find and replace paths (`repath` query) in one open document: the changes, and the batch
   * command that makes them (null: nothing starts with `from`).
   */
  async function planRepath(id: DocId, from: string, to: string): Promise<RepathAnswer | null> {
    return ((await call('doc:query', { id, query: { kind: 'repath', from, to } }, 'Could not search the paths', true)) as RepathAnswer | undefined) ?? null;
  }

  /** Sends one edit to any open document (in the one edit queue); returns the refusal, if any. */
  async function editIn(id: DocId, command: EditCommand): Promise<AppError | undefined> {
    const s = await inOrder(() => call('doc:edit', { id, command }, 'Edit refused', true));
    if (!s) return lastError;
    accept(s);
    return undefined;
  }

  /** A node's name as the tree shows it, for naming undo steps. */
  function nodeName(path: NodePath): string {
    const n = active.value ? findNode(active.value.outline, path) : undefined;
    return n ? (n.label && n.label !== n.name ? n.label : n.name) : String(path[path.length - 1] ?? '');
  }

  async function verb(channel: 'doc:undo' | 'doc:redo' | 'doc:save' | 'doc:revert', title: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await inOrder(() => call(channel, { id: d.id }, title));
    if (s) accept(s);
    return !!s;
  }
  const undo = () => verb('doc:undo', 'Undo failed');
  const redo = () => verb('doc:redo', 'Redo failed');

  /** Goes to the state after `at` steps of the active document's history (the history list). */
  async function goto(at: number): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await inOrder(() => call('doc:goto', { id: d.id, at }, 'Could not go to that step'));
    if (s) accept(s);
    return !!s;
  }

  /**
   * Edits, undo and redo leave in the order they were made: an Enter in a field followed at
   * once by Ctrl+Z must undo that edit, not overtake it on the way to the service.
   */
  let chain: Promise<unknown> = Promise.resolve();
  function inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  }
  const revert = () => verb('doc:revert', 'Revert failed');

  /** A save refused because the file changed on disk: the window asks before overwriting. */
  const conflict = ref<{ id: DocId; message: string } | null>(null);

  async function save(overwriteChanged = false): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:save', { id: d.id, options: { overwriteChanged } }, `Could not save ${d.fileName}`, true);
    if (!s && lastError?.code === 'conflict' && !overwriteChanged) {
      conflict.value = { id: d.id, message: lastError.message };
      return false;
    }
    if (!s && lastError) error.value = { title: `Could not save ${d.fileName}`, error: lastError };
    if (s) {
      accept(s);
      notice.value = `Saved ${s.fileName}`;
    }
    return !!s;
  }

  /**
   * A Save As or export whose target already exists: the window asks before replacing it, and
   * `run` repeats the request with `overwrite` once the user agrees.
   */
  const replace = ref<{ path: string; message: string; run: () => Promise<unknown> } | null>(null);

  /** Shows the last failure (of a quiet call) in the error banner. */
  function showLastError(title: string): void {
    if (lastError) error.value = { title, error: lastError };
  }

  /** Asks to replace when `lastError` says the target exists; true when it did. */
  function askReplace(path: string, run: () => Promise<unknown>): boolean {
    if (lastError?.code !== 'conflict' || !/already exists/.test(lastError.message)) return false;
    replace.value = { path, message: lastError.message, run };
    return true;
  }

  /** Saves the active document as `path`; an existing file is replaced only with `overwrite` (else the window asks). */
  async function saveAs(path: string, overwrite = false): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const title = `Could not save as ${path}`;
    const s = await call('doc:saveAs', { id: d.id, path, ...(overwrite ? { overwrite } : {}) }, title, true);
    if (!s && !overwrite && askReplace(path, async () => {
      activate(d.id);
      await saveAs(path, true);
    })) return false;
    if (!s && lastError) error.value = { title, error: lastError };
    if (s) {
      accept(s);
      notice.value = `Saved ${s.fileName}`;
    }
    return !!s;
  }

  async function create(parent: NodePath, kind: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const before = findNode(d.outline, parent)?.children?.length ?? 0;
    const s = await call('doc:create', { id: d.id, parent, kind }, `Could not add ${kind}`);
    if (!s) return false;
    accept(s);
    // Select what was added: the parent's child list grew by one, usually at the end.
    const kids = findNode(s.outline, parent)?.children ?? [];
    if (kids.length > before) select(kids[kids.length - 1]!.path);
    else select(parent);
    return true;
  }

  async function remove(path: NodePath): Promise<boolean> {
    // The document service names the step after the node ("Delete collider Body").
    const err = await edit({ op: 'remove', path });
    if (err) error.value = { title: 'Could not delete', error: err };
    else select(path.slice(0, -1));
    return !err;
  }

  /** Moves an element of a list one place up or down (the node path ends with its index). */
  async function move(path: NodePath, delta: -1 | 1): Promise<boolean> {
    const index = path[path.length - 1];
    if (typeof index !== 'number') return false;
    const to = index + delta;
    const err = await edit({ op: 'move', path: path.slice(0, -1), from: index, to, label: `Move ${nodeName(path)} ${delta < 0 ? 'up' : 'down'}` });
    if (err) error.value = { title: 'Could not move', error: err };
    else select([...path.slice(0, -1), to]);
    return !err;
  }

  async function exportNode(path: NodePath): Promise<Uint8Array | undefined> {
    const d = active.value;
    if (!d) return undefined;
    return call('doc:exportNode', { id: d.id, path }, 'Could not export the bytes');
  }

  async function importNode(path: NodePath, bytes: Uint8Array): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:importNode', { id: d.id, path, bytes }, 'Could not import the bytes');
    if (s) accept(s);
    return !!s;
  }

  /** "New from glTF": a new unsaved document of the format `path`'s extension names. */
  async function newFromGltf(bytes: Uint8Array, name: string, path: string, version?: string): Promise<DocSnapshot | undefined> {
    const r = await call('doc:newFromGltf', { bytes, name, path, ...(version ? { version } : {}) }, `Could not import ${name}`);
    if (!r) return undefined;
    if (r.warnings.length) notice.value = `Imported ${name} with ${r.warnings.length} warning(s): ${r.warnings.join('; ')}`;
    else notice.value = `Imported ${name}`;
    return opened(r.doc);
  }

  /** "Replace mesh from glTF" on the node at `path`: one undoable edit. */
  async function replaceFromGltf(path: NodePath, bytes: Uint8Array, name: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const r = await call('doc:replaceFromGltf', { id: d.id, path, bytes, name }, `Could not replace the mesh from ${name}`);
    if (!r) return false;
    accept(r.doc);
    notice.value = r.warnings.length ? `Replaced from ${name} with ${r.warnings.length} warning(s): ${r.warnings.join('; ')}` : `Replaced from ${name}`;
    return true;
  }

  /**
   * Copies a list element: a new element of the same kind is added next to the original, then
   * takes the original's bytes (chunks) or, where bytes cannot be imported (records inside a
   * chunk), the original's field values in one batch edit.
   */
  async function duplicate(node: OutlineNode, parent: OutlineNode, kind: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const original = await inspect(node.path);
    const bytes = node.actions?.bytes ? await call('doc:exportNode', { id: d.id, path: node.path }, 'Could not export the bytes', true) : undefined;
    if (!(await create(parent.path, kind))) return false;
    const added = selectedPath.value;
    if (!added) return false;
    let copied = false;
    if (bytes) {
      const s = await call('doc:importNode', { id: d.id, path: added, bytes }, 'Could not import the bytes', true);
      if (s) {
        accept(s);
        copied = true;
      }
    }
    if (!copied && original) {
      const base = node.path.length;
      const commands: EditCommand[] = original.fields
        .filter((f) => !f.readonly && f.path.length > base && (typeof f.value !== 'string' || f.kind === 'string'))
        .map((f) => ({ op: 'set', path: [...added, ...f.path.slice(base)], value: f.value }));
      const err = commands.length ? await edit({ op: 'batch', commands, label: `Copy ${node.label ?? node.name}` }) : undefined;
      if (err) {
        error.value = { title: 'Could not copy every field of the original', error: err };
        return false;
      }
    }
    // Next to the original, where a user expects the copy.
    const from = added[added.length - 1];
    const at = node.path[node.path.length - 1];
    if (typeof from === 'number' && typeof at === 'number' && from !== at + 1 && samePrefix(added, node.path)) {
      const err = await edit({ op: 'move', path: added.slice(0, -1), from, to: at + 1, label: 'Place the copy' });
      if (!err) select([...added.slice(0, -1), at + 1]);
    }
    return true;
  }

  async function screenshot(png: Uint8Array, name?: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:screenshot', { id: d.id, png, ...(name ? { name } : {}) }, 'Could not store the screenshot');
    if (s) {
      accept(s);
      notice.value = 'Screenshot stored in the model';
    }
    return !!s;
  }

  /** Attaches an animation file to the active model; its clips join the timeline. */
  async function attachAnimation(path: string): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:attachAnimation', { id: d.id, path }, 'Could not attach the animation');
    if (s) {
      accept(s);
      notice.value = `Attached ${path.split(/[\\/]/).pop()}`;
    }
    return !!s;
  }
  /** Uses this config file for the active model's animations (null: find it beside the model again). */
  async function useSourceConfig(path: string | null): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:sourceConfig', { id: d.id, path }, 'Could not use the model config');
    if (s) {
      accept(s);
      notice.value = path === null ? 'The model config is found beside the model again' : `Animating with ${path.split(/[\\/]/).pop()}`;
    }
    return !!s;
  }
  /** Attaches an animation file dropped on the window (its bytes) to the active model. */
  async function attachAnimationBytes(name: string, bytes: Uint8Array): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:attachAnimationBytes', { id: d.id, name, bytes }, `Could not attach ${name}`);
    if (s) {
      accept(s);
      notice.value = `Attached ${name}`;
    }
    return !!s;
  }
  async function detachAnimation(index: number): Promise<boolean> {
    const d = active.value;
    if (!d) return false;
    const s = await call('doc:detachAnimation', { id: d.id, index }, 'Could not detach the animation');
    if (s) accept(s);
    return !!s;
  }

  async function bytes(start: number, end: number): Promise<Uint8Array | undefined> {
    const d = active.value;
    if (!d) return undefined;
    return call('doc:bytes', { id: d.id, start, end }, 'Could not read the bytes', true);
  }

  async function texture(name: string, id = active.value?.id): Promise<Uint8Array | null> {
    if (!id) return null;
    return (await call('doc:texture', { id, name }, 'Could not load the texture', true)) ?? null;
  }

  let unsubscribe: (() => void)[] = [];
  /** Listens to the service's events (call once at start-up). */
  function listen(onMenu: (command: string) => void): void {
    const a = api();
    unsubscribe = [
      a.on('doc:changed', (s) => accept(s)),
      a.on('doc:closed', ({ id }) => forget(id)),
      a.on('doc:problems', (p) => acceptProblems(p)),
      a.on('doc:progress', (p) => {
        progress.value = p.fraction >= 1 ? null : { task: p.task, fraction: p.fraction };
      }),
      a.on('menu:command', ({ command }) => onMenu(command)),
      a.on('app:openRequested', ({ path }) => void open(path)),
    ];
  }
  function unlisten(): void {
    for (const u of unsubscribe) u();
    unsubscribe = [];
  }

  return {
    docs, activeId, active, activeUi, selectedPath, selectedNode, inspection, inspectionFor, hoverSpan,
    error, notice, progress, busy, conflict, replace, askReplace, showLastError,
    call, accept, open, takeOpenedScene, onFirstScene, openDropped, openSample, restore, activate, close, forget, select, toggleExpanded,
    refreshInspection, inspect, query, editPlanned, edit, planRepath, editIn, undo, redo, goto, revert, save, saveAs, create, remove, move, attachAnimation, attachAnimationBytes, detachAnimation, useSourceConfig,
    exportNode, importNode, duplicate, screenshot, bytes, texture, listen, unlisten,
    newFromGltf, replaceFromGltf,
    textureView, openTexture, replaceTexture, undoTextureReplace, closeTexture,
  };
});

/**
 * Image bytes held by an image node (LODka IMG1 screenshot): the largest `bytes` field of the
 * node's inspection, read through its span. Null when the node holds no image.
 */
export async function nodeImageBytes(docs: ReturnType<typeof useDocs>, path: NodePath): Promise<Uint8Array | null> {
  const ins = await docs.inspect(path);
  const candidates = (ins?.fields ?? []).filter((f) => f.kind === 'bytes' && f.span && f.span[1] > f.span[0]);
  candidates.sort((a, b) => (b.span![1] - b.span![0]) - (a.span![1] - a.span![0]));
  const best = candidates.find((f) => /data|image|png|screenshot/i.test(f.name)) ?? candidates[0];
  if (best?.span) return (await docs.bytes(best.span[0], best.span[1])) ?? null;
  // No field span: the image file sits inside the node's own bytes; find it by its signature.
  const raw = await docs.call('doc:exportNode', { id: docs.active?.id ?? '', path }, 'Could not read the image', true);
  return raw ? findImage(raw) : null;
}

/** The first PNG, JPEG or BMP file inside some bytes (a chunk with a header around the image). */
export function findImage(b: Uint8Array): Uint8Array | null {
  for (let i = 0; i + 8 <= b.length; i++) {
    if (b[i] === 0x89 && b[i + 1] === 0x50 && b[i + 2] === 0x4e && b[i + 3] === 0x47 && b[i + 4] === 0x0d && b[i + 5] === 0x0a) {
      // PNG ends after the IEND chunk (its 4-byte CRC follows the type).
      for (let j = i + 8; j + 8 <= b.length; j++) {
        if (b[j] === 0x49 && b[j + 1] === 0x45 && b[j + 2] === 0x4e && b[j + 3] === 0x44) return b.slice(i, j + 8);
      }
      return b.slice(i);
    }
    if (b[i] === 0xff && b[i + 1] === 0xd8 && b[i + 2] === 0xff) return b.slice(i);
    if (b[i] === 0x42 && b[i + 1] === 0x4d) {
      const size = b[i + 2]! | (b[i + 3]! << 8) | (b[i + 4]! << 16) | (b[i + 5]! << 24);
      if (size > 26 && i + size <= b.length) return b.slice(i, i + size);
    }
  }
  return null;
}

/** Sniffs an image type from its first bytes (for blob URLs and file names). */
export function imageType(b: Uint8Array): { mime: string; ext: string } {
  if (b[0] === 0x89 && b[1] === 0x50) return { mime: 'image/png', ext: 'png' };
  if (b[0] === 0xff && b[1] === 0xd8) return { mime: 'image/jpeg', ext: 'jpg' };
  if (b[0] === 0x42 && b[1] === 0x4d) return { mime: 'image/bmp', ext: 'bmp' };
  if (b[0] === 0x47 && b[1] === 0x49) return { mime: 'image/gif', ext: 'gif' };
  return { mime: 'application/octet-stream', ext: 'bin' };
}
