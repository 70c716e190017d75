/**
 * Opening documents: from a path (one read shared by quick repeated requests), from the bundled
 * sample, from dropped bytes; reverting to the file on disk; closing. An animation opened alone
 * looks for the model beside it that shapes its skeleton.
 */
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DocId, DocSnapshot, FileEntry } from '../../shared/ipc/contract.ts';
import { allFormats, playsOn } from '../../shared/formats/index.ts';
import type { AnimationClip } from '../../shared/scene/scene.ts';
import { matchAnimation } from '../../shared/scene/attach.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import type { DiskState, DocumentStore, OpenDocument } from './doc-store.ts';
import type { DocumentTextures } from './doc-textures.ts';
import type { DocumentSourceAnimations } from './doc-source-animations.ts';

/** An animation opened alone looks for its model among this many files beside it, each at most this large. */
const RIG_TRIES = 6;
const RIG_MAX_BYTES = 64 << 20;

export class DocumentOpening {
  private readonly s: DocumentStore;
  private readonly textures: DocumentTextures;
  private readonly sources: DocumentSourceAnimations | undefined;

  constructor(s: DocumentStore, textures: DocumentTextures, sources?: DocumentSourceAnimations) {
    this.s = s;
    this.textures = textures;
    this.sources = sources;
  }

  private readonly opening = new Map<string, Promise<DocSnapshot>>();

  /**
   * Opens a file; `maxMemory` is the editor's decoding memory setting (bytes). With
   * `problemsLater` a newly opened document answers without its problems (`problemsPending`) and
   * they follow as a `doc:problems` event (DocumentStore.sendProblemsLater).
   */
  async open(userPath: string, maxMemory?: number, problemsLater = false): Promise<DocSnapshot> {
    const abs = await this.s.paths.resolve(userPath, 'read');
    for (const d of this.s.docs.values()) if (d.abs === abs) return this.s.snapshot(d);
    // Two quick requests for one file (a double click) share one read instead of making two tabs.
    let running = this.opening.get(abs);
    if (!running) {
      running = this.openResolved(abs, maxMemory, problemsLater).finally(() => this.opening.delete(abs));
      this.opening.set(abs, running);
    }
    return running;
  }

  private async openResolved(abs: string, maxMemory: number | undefined, problemsLater: boolean): Promise<DocSnapshot> {
    const display = this.s.paths.display(abs);
    let read: { bytes: Uint8Array; disk: DiskState };
    try {
      read = await this.s.readWithProgress(abs, undefined);
    } catch (e) {
      throw new AppErrorException(toAppError(e, display));
    }
    const fileName = basename(abs);
    const codec = this.s.detect(read.bytes, fileName);
    this.s.emit('doc:progress', { task: 'decode', fraction: -1 });
    const includes = codec.includes ? await this.s.includeReader(abs, fileName) : undefined;
    const tree = this.s.decodeAs(codec, read.bytes, fileName, maxMemory, includes);
    this.s.emit('doc:progress', { task: 'decode', fraction: 1 });
    const id = `doc-${this.s.nextId++}`;
    const d: OpenDocument = {
      id, abs, fileName, codec, tree, original: read.bytes, disk: read.disk,
      undo: [], redo: [], savedSeq: 0, revision: 1, queue: Promise.resolve(), anims: [],
      ...(maxMemory !== undefined ? { maxMemory } : {}),
      ...(includes ? { includes } : {}),
    };
    // An animation file opened alone: the model beside it that it plays on gives it a skeleton.
    if (codec.animation?.role === 'clips') d.rig = await this.findRig(d);
    // A model with source animations (P3D: model.cfg beside it) gets them before its first scene.
    await this.sources?.attach(d);
    this.s.docs.set(id, d);
    await this.s.recent.add(display);
    if (problemsLater) {
      // The texture checks build the scene the preview asks for next (kept for it): they run now,
      // and are kept for the problems sent later. The validation, the modding rules and the rest
      // of the problems wait until the answer has gone out.
      this.textures.textureProblems(d);
    }
    const snap = await this.s.snapshot(d, { problemsLater });
    if (problemsLater) this.s.sendProblemsLater(d);
    this.textures.prefetchTextures(d);
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
    const exts = new Set(allFormats().filter((c) => playsOn(d.codec, c)).flatMap((c) => c.extensions));
    if (!d.abs) return undefined;
    let entries: FileEntry[];
    try {
      entries = await this.s.paths.list(this.s.paths.display(dirname(d.abs)));
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
        const abs = await this.s.paths.resolve(e.path, 'read');
        const bytes = (await this.s.readWithProgress(abs, undefined)).bytes;
        const codec = this.s.detect(bytes, e.name);
        const scene = codec.toScene(this.s.decodeAs(codec, bytes, e.name));
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
    const src = this.s.opts.samplePath;
    if (!src) fail('not-found', 'This build has no bundled sample model');
    const copy = join(this.s.opts.configDir, 'sample', basename(src));
    for (const d of this.s.docs.values()) if (d.abs === copy) return this.s.snapshot(d);
    try {
      await mkdir(dirname(copy), { recursive: true });
      await stat(copy).catch(async () => copyFile(src, copy));
    } catch (e) {
      throw new AppErrorException(toAppError(e, src));
    }
    return this.open(this.s.paths.display(copy));
  }

  /**
   * Opens a document from bytes that came without a file (dropped on the browser host's window).
   * It is read-only: it has no file to save to until Save As puts it inside a root folder, and
   * edits wait until then too, so nothing done to it can be lost with the tab.
   */
  async openBytes(name: string, bytes: Uint8Array): Promise<DocSnapshot> {
    const fileName = basename(name.replace(/\\/g, '/')) || 'dropped';
    const max = this.s.opts.maxFileBytes ?? 1 << 30;
    if (bytes.length > max) fail('invalid', `The file is too large to open (${bytes.length} bytes; the limit is ${max})`);
    const codec = this.s.detect(bytes, fileName);
    const tree = this.s.decodeAs(codec, bytes, fileName);
    const id = `doc-${this.s.nextId++}`;
    const d: OpenDocument = {
      id, abs: null, fileName, codec, tree, original: bytes, disk: null,
      undo: [], redo: [], savedSeq: 0, revision: 1, queue: Promise.resolve(), anims: [],
    };
    this.s.docs.set(id, d);
    return this.s.snapshot(d);
  }

  /** Where `doc:openSample` keeps its working copy (null without a sample). */
  samplePath(): string | null {
    const src = this.s.opts.samplePath;
    return src ? join(this.s.opts.configDir, 'sample', basename(src)) : null;
  }

  async list(): Promise<DocSnapshot[]> {
    return Promise.all([...this.s.docs.values()].map((d) => this.s.snapshot(d)));
  }

  async close(id: DocId): Promise<void> {
    const d = this.s.get(id);
    await this.s.serial(d, async () => undefined);
    this.s.docs.delete(id);
    this.s.emit('doc:closed', { id });
  }

  /** Reloads the file from disk, dropping edits and history. */
  async revert(id: DocId): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      if (d.abs === null) fail('invalid', `${d.fileName} has no file to revert to`);
      const display = this.s.paths.display(d.abs);
      let read;
      try {
        read = await this.s.readWithProgress(d.abs, d.id);
      } catch (e) {
        throw new AppErrorException(toAppError(e, display));
      }
      const codec = this.s.detect(read.bytes, d.fileName);
      const includes = codec.includes ? await this.s.includeReader(d.abs, d.fileName) : undefined;
      const tree = this.s.decodeAs(codec, read.bytes, d.fileName, d.maxMemory, includes);
      Object.assign(d, { codec, tree, includes, original: read.bytes, disk: read.disk, undo: [], redo: [], savedSeq: 0, encoded: undefined });
      return this.s.changed(d);
    });
  }
}
