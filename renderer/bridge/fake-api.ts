/**
 * An in-memory LodsmithApi for unit tests and for working on the UI without the host process.
 * It decodes with the real codecs (they are pure TypeScript) and keeps its own undo stacks, so
 * the renderer sees the same snapshots and errors it gets from the real document service. It is
 * not the document service: no files on disk, no change detection, no backups.
 */
import type { AppError, DocSnapshot, EventChannel, EventMap, InvokeChannel, LodsmithApi, Req, Res, Result } from '../../shared/ipc/contract.ts';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { capabilitiesOf } from '../../shared/formats/registry.ts';
import { GAME_TEXTURE_EXTENSIONS } from '../../shared/formats/texture/extensions.ts';
import { applyCommand, canMerge, type EditCommand } from '../../shared/model/commands.ts';
import { getAt } from '../../shared/model/path.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { arrayPage } from '../../shared/model/array-view.ts';

interface FakeDoc {
  id: string;
  path: string;
  codec: FormatCodec;
  doc: object;
  original: Uint8Array;
  undo: { cmd: EditCommand; inverse: EditCommand }[];
  redo: { cmd: EditCommand; inverse: EditCommand }[];
  savedDepth: number;
  revision: number;
}

class Refused extends Error {
  readonly appError: AppError;
  constructor(e: AppError) {
    super(e.message);
    this.appError = e;
  }
}

function toError(e: unknown, file?: string): AppError {
  if (e instanceof Refused) return e.appError;
  const x = e as { name?: string; message?: string; offset?: number; path?: string };
  if (x?.name === 'DecodeError') return { code: 'decode', message: x.message ?? 'decode error', offset: x.offset, path: x.path, file };
  if (x?.name === 'EncodeError') return { code: 'encode', message: x.message ?? 'encode error', path: x.path, file };
  if (x?.name === 'EditError') return { code: 'invalid', message: x.message ?? 'invalid edit' };
  return { code: 'internal', message: x?.message ?? String(e), file };
}

const labelOf = (c: EditCommand): string => c.label ?? (c.op === 'set' ? `Set ${String(c.path[c.path.length - 1])}` : c.op);

export interface FakeApiOptions {
  codecs: FormatCodec[];
  files: Map<string, Uint8Array>;
  sample?: string;
}

/** Builds the fake; `files` maps root-relative paths to bytes and receives saves. */
export function createFakeApi(opts: FakeApiOptions): LodsmithApi & { emit<C extends EventChannel>(c: C, p: EventMap[C]): void } {
  const docs = new Map<string, FakeDoc>();
  const listeners = new Map<EventChannel, Set<(p: any) => void>>();
  let nextId = 1;

  const detect = (bytes: Uint8Array, name: string): FormatCodec | undefined => {
    const ext = name.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';
    const m = opts.codecs.filter((c) => {
      try {
        return c.probe(bytes);
      } catch {
        return false;
      }
    });
    return m.find((c) => c.extensions.includes(ext)) ?? m[0];
  };

  const snapshot = (d: FakeDoc): DocSnapshot => snapshotWith(d, d.codec.outline(d.doc));
  const snapshotWith = (d: FakeDoc, outline: OutlineNode): DocSnapshot => ({
    id: d.id,
    path: d.path,
    fileName: d.path.split('/').pop() ?? d.path,
    format: d.codec.id,
    formatLabel: d.codec.label,
    version: String(d.codec.info(d.doc, d.original.length).version),
    bytes: d.original.length,
    outline,
    caps: capabilitiesOf(d.codec, outline),
    problems: d.codec.validate(d.doc),
    dirty: d.undo.length !== d.savedDepth,
    canUndo: d.undo.length > 0,
    canRedo: d.redo.length > 0,
    undoLabel: d.undo.length ? labelOf(d.undo[d.undo.length - 1]!.cmd) : undefined,
    redoLabel: d.redo.length ? labelOf(d.redo[d.redo.length - 1]!.cmd) : undefined,
    revision: d.revision,
  });

  const get = (id: string): FakeDoc => {
    const d = docs.get(id);
    if (!d) throw new Refused({ code: 'not-found', message: `No open document ${id}` });
    return d;
  };

  const open = (path: string, dropped?: Uint8Array, maxMemory?: number): DocSnapshot => {
    const bytes = dropped ?? opts.files.get(path);
    if (!bytes) throw new Refused({ code: 'not-found', message: `The file does not exist: ${path}`, file: path });
    const codec = detect(bytes, path);
    if (!codec) throw new Refused({ code: 'decode', message: 'Not a model file LodSmith knows (no format matched its first bytes)', offset: 0, file: path });
    let doc: object;
    try {
      doc = codec.decode(bytes, { fileName: path, ...(maxMemory !== undefined ? { maxMemory } : {}) });
    } catch (e) {
      throw new Refused(toError(e, path));
    }
    const d: FakeDoc = { id: `doc${nextId++}`, path, codec, doc, original: bytes, undo: [], redo: [], savedDepth: 0, revision: 1 };
    docs.set(d.id, d);
    return snapshot(d);
  };

  const exec = (d: FakeDoc, cmd: EditCommand): DocSnapshot => {
    const refusal = d.codec.checkEdit?.(d.doc, cmd);
    if (refusal) throw new Refused({ code: 'invalid', message: refusal, path: 'path' in cmd ? cmd.path.join('/') : undefined });
    const inverse = applyCommand(d.doc, cmd);
    const top = d.undo[d.undo.length - 1];
    if (top && canMerge(top.cmd, cmd) && d.savedDepth !== d.undo.length) top.cmd = cmd;
    else d.undo.push({ cmd, inverse });
    d.redo = [];
    d.revision++;
    return snapshot(d);
  };

  const encodeNow = (d: FakeDoc): Uint8Array => {
    try {
      return d.codec.encode(d.doc);
    } catch (e) {
      throw new Refused(toError(e, d.path));
    }
  };

  const settings = { textureRoots: [] as string[] };
  const handlers: { [C in InvokeChannel]: (req: Req<C>) => Res<C> } = {
    'app:info': () => ({ version: 'fake', host: 'browser', sample: opts.sample ?? null, roots: ['.'], importTargets: opts.codecs.flatMap((c) => (c.gltf ? [{ extension: c.gltf.extension, label: c.gltf.label }] : [])), extensions: [...opts.codecs.flatMap((c) => c.extensions), ...GAME_TEXTURE_EXTENSIONS] }),
    'app:recent': () => [],
    // Settings last as long as the fake (no texture files to find in memory anyway).
    'settings:get': () => ({ textureRoots: [...settings.textureRoots] }),
    'settings:set': (r) => {
      settings.textureRoots = [...r.textureRoots];
      return { textureRoots: [...settings.textureRoots] };
    },
    'fs:list': ({ dir }) => {
      const prefix = dir === '' || dir === '.' ? '' : `${dir.replace(/\/$/, '')}/`;
      const seen = new Map<string, { name: string; path: string; dir: boolean; size?: number }>();
      for (const [p, b] of opts.files) {
        if (!p.startsWith(prefix)) continue;
        const rest = p.slice(prefix.length);
        const [head, ...tail] = rest.split('/');
        if (!head) continue;
        seen.set(head, tail.length ? { name: head, path: prefix + head, dir: true } : { name: head, path: p, dir: false, size: b.length });
      }
      return [...seen.values()];
    },
    'dialog:open': () => [],
    'dialog:save': () => null,
    'doc:open': ({ path, maxMemory, scene }) => {
      const snap = open(path, undefined, maxMemory);
      if (!scene) return snap;
      // As the desktop host does: the preview's first scene with the answer, or none when it fails.
      try {
        return { ...snap, scene: handlers['doc:scene']({ id: snap.id }) };
      } catch {
        return snap;
      }
    },
    'doc:openSample': () => {
      if (!opts.sample) throw new Refused({ code: 'not-found', message: 'No sample model is bundled' });
      return open(opts.sample);
    },
    'doc:list': () => [...docs.values()].map(snapshot),
    'doc:close': ({ id }) => {
      docs.delete(id);
    },
    'doc:inspect': ({ id, path }) => {
      const d = get(id);
      return d.codec.inspect(d.doc, path) ?? null;
    },
    'doc:scene': ({ id, lod }) => {
      const d = get(id);
      return d.codec.toScene(d.doc, lod ? { lod } : {});
    },
    'doc:sourcePose': () => ({ sources: [] }),
    'doc:sourceConfig': () => {
      throw new Refused({ code: 'invalid', message: 'Model configs are read by the desktop host only' });
    },
    'doc:query': ({ id, query }) => {
      const d = get(id);
      if (query.kind === 'array') return arrayPage(d.doc, query.path, query.start, query.count, (n, data, at) => d.codec.arrayLayout?.(d.doc, n, data, at)) ?? null;
      return d.codec.query?.(d.doc, query) ?? null;
    },
    'doc:bytes': ({ id, start, end }) => {
      const d = get(id);
      const b = d.undo.length === d.savedDepth ? d.original : encodeNow(d);
      return b.slice(Math.max(0, start), Math.min(b.length, end));
    },
    'doc:edit': ({ id, command }) => {
      const d = get(id);
      try {
        return exec(d, command);
      } catch (e) {
        throw new Refused(toError(e));
      }
    },
    'doc:create': ({ id, parent, kind }) => {
      const d = get(id);
      const cmd = d.codec.create?.(d.doc, parent, kind);
      if (!cmd) throw new Refused({ code: 'invalid', message: `Cannot add ${kind} here` });
      return exec(d, cmd);
    },
    'doc:undo': ({ id }) => {
      const d = get(id);
      const e = d.undo.pop();
      if (e) {
        d.redo.push({ cmd: applyCommand(d.doc, e.inverse), inverse: e.inverse });
        d.revision++;
      }
      return snapshot(d);
    },
    'doc:goto': ({ id, at }) => {
      const d = get(id);
      while (d.undo.length > at && d.undo.length) {
        const e = d.undo.pop()!;
        d.redo.push({ cmd: applyCommand(d.doc, e.inverse), inverse: e.inverse });
      }
      while (d.undo.length < at && d.redo.length) {
        const e = d.redo.pop()!;
        d.undo.push({ cmd: e.cmd, inverse: applyCommand(d.doc, e.cmd) });
      }
      d.revision++;
      return snapshot(d);
    },
    // The fake has no read-only state: a dropped file opens like any other.
    'doc:openBytes': ({ name, bytes }) => open(name, bytes),
    'doc:find': ({ id, query }) => {
      const q = query.toLowerCase();
      const paths: (string | number)[][] = [];
      const walk = (n: DocSnapshot['outline']) => {
        if (n.name.toLowerCase().includes(q) || n.label?.toLowerCase().includes(q)) paths.push([...n.path]);
        for (const c of n.children ?? []) walk(c);
      };
      walk(get(id).codec.outline(get(id).doc));
      return { paths, truncated: false };
    },
    'doc:redo': ({ id }) => {
      const d = get(id);
      const e = d.redo.pop();
      if (e) {
        d.undo.push({ cmd: e.cmd, inverse: applyCommand(d.doc, e.cmd) });
        d.revision++;
      }
      return snapshot(d);
    },
    'doc:save': ({ id }) => {
      const d = get(id);
      const b = encodeNow(d);
      opts.files.set(d.path, b);
      d.original = b;
      d.savedDepth = d.undo.length;
      d.revision++;
      return snapshot(d);
    },
    'doc:saveAs': ({ id, path }) => {
      const d = get(id);
      const b = encodeNow(d);
      opts.files.set(path, b);
      d.path = path;
      d.original = b;
      d.savedDepth = d.undo.length;
      d.revision++;
      return snapshot(d);
    },
    'doc:revert': ({ id }) => {
      const d = get(id);
      d.doc = d.codec.decode(d.original, { fileName: d.path });
      d.undo = [];
      d.redo = [];
      d.savedDepth = 0;
      d.revision++;
      return snapshot(d);
    },
    'doc:exportNode': ({ id, path }) => {
      const d = get(id);
      const node = getAt(d.doc, path) as { $span?: [number, number] } | undefined;
      if (!node?.$span) throw new Refused({ code: 'invalid', message: 'This node has no bytes of its own' });
      return d.original.slice(node.$span[0], node.$span[1]);
    },
    'doc:importNode': () => {
      throw new Refused({ code: 'invalid', message: 'Importing bytes needs the document service' });
    },
    'doc:screenshot': () => {
      throw new Refused({ code: 'invalid', message: 'Screenshots need the document service' });
    },
    'doc:texture': () => null,
    'texture:read': () => {
      throw new Error('textures are not available in the demo');
    },
    'texture:replace': () => {
      throw new Error('textures are not available in the demo');
    },
    'texture:undo': () => {
      throw new Error('textures are not available in the demo');
    },
    'doc:exportGltf': () => undefined,
    'doc:attachAnimation': () => {
      throw new Refused({ code: 'invalid', message: 'Attaching animations needs the document service' });
    },
    'doc:attachAnimationBytes': () => {
      throw new Refused({ code: 'invalid', message: 'Attaching animations needs the document service' });
    },
    'doc:detachAnimation': () => {
      throw new Refused({ code: 'invalid', message: 'Attaching animations needs the document service' });
    },
    'doc:animationCandidates': () => [],
    'doc:newFromGltf': () => {
      throw new Refused({ code: 'invalid', message: 'Importing glTF needs the document service' });
    },
    'doc:replaceFromGltf': () => {
      throw new Refused({ code: 'invalid', message: 'Importing glTF needs the document service' });
    },
  };

  return {
    async invoke<C extends InvokeChannel>(channel: C, req: Req<C>): Promise<Result<Res<C>>> {
      await Promise.resolve();
      try {
        return { ok: true, value: (handlers[channel] as (r: Req<C>) => Res<C>)(req) };
      } catch (e) {
        return { ok: false, error: toError(e) };
      }
    },
    on<C extends EventChannel>(channel: C, listener: (p: EventMap[C]) => void) {
      let s = listeners.get(channel);
      if (!s) listeners.set(channel, (s = new Set()));
      s.add(listener);
      return () => s.delete(listener);
    },
    emit(channel, payload) {
      for (const l of listeners.get(channel) ?? []) l(payload);
    },
  };
}
