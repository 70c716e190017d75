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
export function nodeTitle(outline: OutlineNode | undefined, path: NodePath, withKind = true): string | undefined {
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
      d.undo.push({ command, inverse, label: stepName(command, d.outline), seq: this.s.nextSeq++ });
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
