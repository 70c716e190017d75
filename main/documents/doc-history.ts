/**
 * Edits and their history: every change to a document is an EditCommand applied here, with its
 * inverse kept for undo; drags on one field merge into one step; each step gets a name for the
 * undo tooltips and the history list.
 */
import type { DocId, DocSnapshot } from '../../shared/ipc/contract.ts';
import { applyCommand, canMerge, type EditCommand } from '../../shared/model/commands.ts';
import { checkElementEdit } from '../../shared/model/array-view.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import type { FormatCodec } from '../../shared/formats/index.ts';

/** A raw field key as words, when the schema gives no label: `spotCutoff` -> `spot cutoff`. */
function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
}

/** How a step names the field a `set` writes: the schema's label, else the key in words, with its element. */
type FieldNamer = (path: NodePath) => string | undefined;

function labelOf(cmd: EditCommand, fieldName?: FieldNamer): string {
  if (cmd.label) return cmd.label;
  switch (cmd.op) {
    case 'set': {
      const key = cmd.path[cmd.path.length - 1];
      return `Set ${fieldName?.(cmd.path) ?? (typeof key === 'number' ? `element ${key}` : words(String(key ?? 'value')))}`;
    }
    case 'insert': return 'Add';
    case 'remove': return 'Remove';
    case 'move': return 'Move';
    case 'batch': return 'Edit';
  }
}

/**
 * Names a document's node for an undo step: `material ground`, `proxy item Left arm`. An item
 * whose name a sibling shares (six Omni lights) also gets its index, as the tree shows it:
 * `light 3 (Omni)`.
 */
export function nodeTitle(outline: OutlineNode | undefined, path: NodePath, withKind = true): string | undefined {
  if (!outline) return undefined;
  let best: OutlineNode | undefined;
  let parent: OutlineNode | undefined;
  const walk = (n: OutlineNode, up: OutlineNode | undefined) => {
    if (n.path.length <= path.length && n.path.every((k, i) => k === path[i])) {
      if (!best || n.path.length >= best.path.length) {
        best = n;
        parent = up;
      }
      for (const c of n.children ?? []) walk(c, n);
    }
  };
  walk(outline, undefined);
  if (!best || best.path.length === 0) return undefined;
  const display = (n: OutlineNode) => (n.label && n.label !== n.name ? n.label : n.name);
  const name = display(best);
  const index = best.path[best.path.length - 1];
  const shared = typeof index === 'number' && (parent?.children ?? []).some((c) => c !== best && display(c) === name);
  const kind = withKind && best.kind && !name.toLowerCase().startsWith(best.kind) ? best.kind : '';
  if (shared) return `${kind ? `${kind} ` : ''}${index}${name !== best.name ? ` (${name})` : ''}`;
  return kind ? `${kind} ${name}` : name;
}

/** The label of the field at `path` as the inspector shows it (its schema label, else its key in words). */
function fieldLabel(codec: FormatCodec, tree: object, path: NodePath): string | undefined {
  try {
    const ins = codec.inspect(tree, path.slice(0, -1));
    const f = ins?.fields.find((x) => x.path.length === path.length && x.path.every((k, i) => k === path[i]));
    return f ? (f.label ?? words(f.name)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The name of an undo step. A label the editor gave wins; otherwise it is made from the command,
 * the field's label and the node it touches ("Set diffuse of material ground", "Set style of
 * light 3 (Omni)").
 */
function stepName(cmd: EditCommand, outline: OutlineNode | undefined, fieldName?: FieldNamer): string {
  if (cmd.label) return cmd.label;
  const base = labelOf(cmd, fieldName);
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

export class DocumentHistory {
  private readonly s: DocumentStore;

  constructor(s: DocumentStore) {
    this.s = s;
  }

  /**
   * `trusted`: a whole node the importer built (not a user's field value), which field checks
   * would refuse by shape; the caller proves it by encoding and decoding the result instead.
   */
  applyEdit(d: OpenDocument, command: EditCommand, trusted = false): void {
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
      top.seq = this.s.nextSeq++;
    } else {
      d.undo.push({ command, inverse, label: stepName(command, d.outline, (p) => fieldLabel(d.codec, d.tree, p)), seq: this.s.nextSeq++ });
    }
    d.redo = [];
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

  /** Applies an edit (refused edits leave the document untouched) and records it for undo. */
  async edit(id: DocId, command: EditCommand): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      this.applyEdit(d, command);
      return this.s.changed(d);
    });
  }

  /** Adds a node of `kind` under `parent`, as the codec builds it. */
  async create(id: DocId, parent: NodePath, kind: string): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
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
      return this.s.changed(d);
    });
  }

  async undo(id: DocId): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      this.undoStep(d);
      return this.s.changed(d);
    });
  }

  async redo(id: DocId): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      this.redoStep(d);
      return this.s.changed(d);
    });
  }

  /**
   * Goes to the state after `at` steps of the history (0: as opened), undoing or redoing as
   * many steps as it takes; the steps after it stay redoable.
   */
  async goto(id: DocId, at: number): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      const total = d.undo.length + d.redo.length;
      if (!Number.isInteger(at) || at < 0 || at > total) fail('invalid', `No step ${at} in the history (it has ${total})`);
      try {
        while (d.undo.length > at) this.undoStep(d);
        while (d.undo.length < at) this.redoStep(d);
      } catch (e) {
        // The steps taken before the failure are real changes: the renderer must see them.
        await this.s.changed(d);
        throw e;
      }
      return this.s.changed(d);
    });
  }
}
