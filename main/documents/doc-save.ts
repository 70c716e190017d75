/**
 * Saving: encode, prove the result decodes, write atomically with a backup (atomic-save.ts);
 * Save As under the write policy; the bytes as they would be saved (hex view); chunk export and
 * import, which go through a fresh decode of the current bytes.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DocId, DocSnapshot, SaveOptions } from '../../shared/ipc/contract.ts';
import { markDirty } from '../../shared/model/lossless.ts';
import { getAt, type NodePath } from '../../shared/model/path.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import { atomicWriteFile } from './atomic-save.ts';
import { checkWriteTarget } from './write-policy.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import type { DocumentHistory } from './doc-history.ts';
/** The bytes a node occupies: its `$raw`, else its span in `bytes`. */
function nodeBytes(tree: object, bytes: Uint8Array, path: NodePath): Uint8Array | undefined {
  const node = getAt(tree, path) as { $raw?: unknown; $span?: unknown } | undefined;
  if (!node || typeof node !== 'object') return undefined;
  if (node.$raw instanceof Uint8Array) return node.$raw.slice();
  const span = node.$span;
  if (Array.isArray(span) && typeof span[0] === 'number' && typeof span[1] === 'number' && span[0] <= span[1] && span[1] <= bytes.length) {
    return bytes.slice(span[0], span[1]);
  }
  return undefined;
}


export class DocumentSaving {
  private readonly s: DocumentStore;
  private readonly history: DocumentHistory;

  constructor(s: DocumentStore, history: DocumentHistory) {
    this.s = s;
    this.history = history;
  }

  /**
   * Encodes, proves the result decodes, and writes it atomically with a backup. Refuses with
   * 'conflict' when the file changed on disk since it was read, unless told to overwrite.
   */
  private async writeDocument(d: OpenDocument, abs: string, exclusive = false): Promise<void> {
    const name = basename(abs);
    this.s.emit('doc:progress', { id: d.id, task: 'save', fraction: -1 });
    const bytes = this.s.currentBytes(d);
    // Saved elsewhere, the file's includes are read beside its new place.
    const includes = d.codec.includes ? (abs === d.abs && d.includes ? d.includes : await this.s.includeReader(abs, name)) : undefined;
    let reread: object | undefined;
    await atomicWriteFile(abs, bytes, {
      io: this.s.opts.io,
      noFollow: true,
      exclusive,
      ...(this.s.opts.onSaveStep ? { onStep: this.s.opts.onSaveStep } : {}),
      verify: (written) => {
        try {
          reread = d.codec.decode(written, { fileName: name, ...(d.maxMemory !== undefined ? { maxMemory: d.maxMemory } : {}), ...(includes ? { readInclude: includes } : {}) });
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
    if (includes) d.includes = includes;
    d.original = bytes;
    d.disk = { mtimeMs: st.mtimeMs, size: st.size };
    // The re-read tree's spans match the new file, so the hex view and `$raw` stay exact.
    if (reread) d.tree = reread;
    d.encoded = undefined;
    d.savedSeq = d.undo[d.undo.length - 1]?.seq ?? 0;
    this.s.emit('doc:progress', { id: d.id, task: 'save', fraction: 1 });
    // The file is saved whatever its readers make of it (a model.cfg re-read by the models using it).
    await this.s.onSaved(abs).catch(() => undefined);
  }

  async save(id: DocId, options: SaveOptions = {}): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      if (d.abs === null) fail('invalid', `${d.fileName} has no file yet: use Save As to save it into a folder`);
      const display = this.s.paths.display(d.abs);
      await this.s.paths.resolve(display, 'write');
      if (!options.overwriteChanged && (await this.s.contentChanged(d))) {
        fail('conflict', `${basename(d.abs)} changed on disk since it was opened. Save anyway to overwrite it, or revert to load the version on disk.`, { file: display });
      }
      await this.writeDocument(d, d.abs);
      await this.s.recent.add(display);
      return this.s.changed(d);
    });
  }

  /**
   * Writes the document to a new path (see write-policy.ts): only with its format's extension,
   * never a dot name or a link, and over an existing file only with `overwrite`.
   */
  async saveAs(id: DocId, userPath: string, overwrite = false): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      const abs = await this.s.paths.resolve(userPath, 'write');
      const display = this.s.paths.display(abs);
      const { exists } = await checkWriteTarget({ abs, display, extensions: d.codec.extensions.map((e) => e.toLowerCase()), overwrite });
      for (const other of this.s.docs.values()) {
        if (other !== d && other.abs === abs) fail('conflict', `${basename(abs)} is open in another tab; close it first`, { file: userPath });
      }
      await this.writeDocument(d, abs, !exists);
      await this.s.recent.add(this.s.paths.display(abs));
      return this.s.changed(d);
    });
  }

  /**
   * A fresh decode of the document as it would be saved now: spans and `$raw` then describe
   * exactly those bytes, whatever was edited.
   */
  private freshCopy(d: OpenDocument): { bytes: Uint8Array; tree: object } {
    const bytes = this.s.currentBytes(d);
    return { bytes, tree: this.s.decodeAs(d.codec, bytes, d.fileName, d.maxMemory, d.includes) };
  }

  /** The bytes a node occupies in the file (chunk export). */
  exportNode(id: DocId, path: NodePath): Uint8Array {
    const d = this.s.get(id);
    const { bytes, tree } = this.freshCopy(d);
    const out = nodeBytes(tree, bytes, path);
    if (!out) fail('invalid', `The node at ${JSON.stringify(path)} has no byte range of its own to export`, { path: JSON.stringify(path) });
    return out;
  }

  /**
   * Replaces a node with bytes decoded as that node (chunk import). The bytes are spliced in as
   * the node's raw bytes, the file re-encoded and decoded again, and the node that comes out must
   * carry exactly the imported bytes; only then is it put in place with an undoable `set`.
   */
  async importNode(id: DocId, path: NodePath, bytes: Uint8Array): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
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
        check = d.codec.decode(encoded, { fileName: d.fileName, ...(d.maxMemory !== undefined ? { maxMemory: d.maxMemory } : {}), ...(d.includes ? { readInclude: d.includes } : {}) });
      } catch (e) {
        const err = toAppError(e);
        throw new AppErrorException({ ...err, code: err.code === 'internal' ? 'invalid' : err.code, message: `The imported bytes do not fit at ${where}: ${err.message}` });
      }
      const replaced = getAt(check, path) as { $raw?: Uint8Array } | undefined;
      const got = replaced && typeof replaced === 'object' ? replaced.$raw : undefined;
      if (!got || got.length !== bytes.length || got.some((b, i) => b !== bytes[i])) {
        fail('invalid', `The imported bytes do not decode as the node at ${where}`, { path: where });
      }
      this.history.applyEdit(d, { op: 'set', path, value: replaced, label: `Import ${String(path[path.length - 1])}` });
      return this.s.changed(d);
    });
  }

  /** Bytes [start, end) of the document as it would be saved now. */
  bytes(id: DocId, start: number, end: number): Uint8Array {
    const all = this.s.currentBytes(this.s.get(id));
    const s = Math.max(0, Math.min(all.length, Math.floor(start)));
    const e = Math.max(s, Math.min(all.length, Math.floor(end)));
    return all.slice(s, e);
  }
}
