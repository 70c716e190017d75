/**
 * glTF in and out: a new document from a glTF, a mesh replaced from a glTF (one undoable edit),
 * and the document's scene exported as .glb/.gltf with its attached animations.
 */
import { basename } from 'node:path';
import type { DocId, DocSnapshot } from '../../shared/ipc/contract.ts';
import { allFormats, formatById } from '../../shared/formats/index.ts';
import { gltfInputOf, importGltf, importTargetsOf, readModel, replaceMeshCommand } from '../../shared/import/index.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import type { NodePath } from '../../shared/model/path.ts';
import type { UpAxis } from '../../shared/scene/scene.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import { atomicWriteFile } from './atomic-save.ts';
import { checkWriteTarget, GLTF_EXTENSIONS } from './write-policy.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import type { DocumentHistory } from './doc-history.ts';
import type { DocumentScenes } from './doc-scene.ts';

export class DocumentGltf {
  private readonly s: DocumentStore;
  private readonly history: DocumentHistory;
  private readonly scenes: DocumentScenes;

  constructor(s: DocumentStore, history: DocumentHistory, scenes: DocumentScenes) {
    this.s = s;
    this.history = history;
    this.scenes = scenes;
  }

  /**
   * "New from glTF": the glTF becomes a new document of the format `userPath`'s extension names,
   * unsaved (dirty) until the user saves it there. Nothing is written yet.
   */
  async newFromGltf(bytes: Uint8Array, name: string, userPath: string, opts: { version?: string; anim?: string } = {}): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    const abs = await this.s.paths.resolve(userPath, 'write');
    for (const d of this.s.docs.values()) if (d.abs === abs) fail('conflict', `${basename(abs)} is open in another tab; close it first`, { file: userPath });
    const ext = (abs.match(/\.[^./\\]+$/)?.[0] ?? '').toLowerCase();
    const targets = importTargetsOf(allFormats());
    const format = targets.find((t) => t.extension === ext)?.format;
    if (!format) fail('invalid', `Choose a file name ending in ${targets.map((t) => t.extension).join(', ')}`, { file: userPath });
    // The write policy of Save As: a new document never replaces an existing file.
    await checkWriteTarget({ abs, display: this.s.paths.display(abs), extensions: targets.map((t) => t.extension), overwrite: false });
    let result;
    try {
      result = await importGltf(gltfInputOf(bytes), format, { ...(opts.version ? { version: opts.version } : {}), ...(opts.anim ? { anim: opts.anim } : {}) });
    } catch (e) {
      throw new AppErrorException(toAppError(e, name));
    }
    const codec = formatById(format);
    const tree = this.s.decodeAs(codec, result.bytes, basename(abs));
    const id = `doc-${this.s.nextId++}`;
    // savedSeq -1: no saved state matches this document yet, so it shows as unsaved.
    const d: OpenDocument = {
      id, abs, fileName: basename(abs), codec, tree, original: result.bytes, disk: null,
      undo: [], redo: [], savedSeq: -1, revision: 1, queue: Promise.resolve(), anims: [],
    };
    this.s.docs.set(id, d);
    return { doc: await this.s.snapshot(d), warnings: result.warnings };
  }

  /** "Replace mesh from glTF": one undoable edit; every other node keeps its bytes. */
  async replaceFromGltf(id: DocId, path: NodePath, bytes: Uint8Array, name: string): Promise<{ doc: DocSnapshot; warnings: string[] }> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      let replacement;
      try {
        const model = await readModel(gltfInputOf(bytes));
        replacement = await replaceMeshCommand(d.codec, d.tree, path, model);
      } catch (e) {
        throw new AppErrorException(toAppError(e, name));
      }
      this.history.applyEdit(d, replacement.command, true);
      try {
        // The edited document must encode and open again; otherwise the edit is taken back.
        d.codec.decode(d.codec.encode(d.tree), { fileName: d.fileName });
      } catch (e) {
        const top = d.undo.pop()!;
        applyCommand(d.tree, top.inverse);
        throw new AppErrorException({ ...toAppError(e, name), code: 'invalid', message: `The glTF does not fit here: ${toAppError(e).message}` });
      }
      return { doc: await this.s.changed(d), warnings: replacement.warnings };
    });
  }

  /** The formats "New from glTF" can make, as the dialog offers them. */
  importTargets(): { extension: string; label: string }[] {
    return importTargetsOf(allFormats()).map((t) => ({ extension: t.extension, label: t.label }));
  }

  /**
   * Writes the document's scene as a .glb file. `up` is the up axis the user chose in the
   * viewport; without it the format's guess applies, as in the viewport.
   */
  async exportGltf(id: DocId, userPath: string, lod?: string, up?: UpAxis, overwrite = false): Promise<void> {
    const d = this.s.get(id);
    if (!this.s.opts.gltf) fail('internal', 'glTF export is not available in this build');
    const abs = await this.s.paths.resolve(userPath, 'write');
    const { exists } = await checkWriteTarget({ abs, display: this.s.paths.display(abs), extensions: GLTF_EXTENSIONS, overwrite });
    // The model's own scene; attached animations go to the exporter as extra clips, as in `convert --anim`.
    const own = this.scenes.ownScene(d, lod);
    const scene = up ? { ...own, upAxis: up } : own;
    let glb: Uint8Array;
    try {
      glb = await this.s.opts.gltf(scene, d.fileName.replace(/\.[^.]+$/, ''), abs, d.anims.flatMap((a) => a.clips));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'encode', message: `glTF export failed: ${toAppError(e).message}` });
    }
    await atomicWriteFile(abs, glb, { io: this.s.opts.io, noFollow: true, exclusive: !exists });
  }
}
