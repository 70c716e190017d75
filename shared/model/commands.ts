/**
 * Edit commands: plain data (they cross IPC), addressed by node path, each with an inverse so the
 * document service can undo and redo. Applying one marks the edited subtree dirty (see
 * lossless.ts) so the encoder recomputes only what the edit implies.
 */
import { isSharedInput } from '../binary/share.ts';
import { markDirty } from './lossless.ts';
import { getAt, type NodePath } from './path.ts';

/**
 * What every command may carry: `label` names the undo step ("Set diffuse of material ground");
 * `gesture` ties the commands of one continuous user gesture (the moves of one colour-picker or
 * slider drag) together so they become one undo step. Two commands without the same gesture id
 * are always two steps, however alike.
 */
interface CommandMeta {
  label?: string;
  gesture?: string;
}

export type EditCommand =
  /** Replace the value at `path` (a field, or a whole node). */
  | ({ op: 'set'; path: NodePath; value: unknown } & CommandMeta)
  /** Insert `value` into the array at `path` before `index` (index = length appends). */
  | ({ op: 'insert'; path: NodePath; index: number; value: unknown } & CommandMeta)
  /** Remove the element at `path` (its last key is the index in its parent array). */
  | ({ op: 'remove'; path: NodePath } & CommandMeta)
  /** Move an element inside one array. */
  | ({ op: 'move'; path: NodePath; from: number; to: number } & CommandMeta)
  /** Several commands as one undo step (batch replace). */
  | ({ op: 'batch'; commands: EditCommand[] } & CommandMeta);

export class EditError extends Error {
  override readonly name = 'EditError';
}

function parentAndKey(doc: unknown, path: NodePath): [Record<string | number, unknown>, string | number] {
  if (path.length === 0) throw new EditError('cannot replace the document root');
  const parent = getAt(doc, path.slice(0, -1));
  if (!parent || typeof parent !== 'object') throw new EditError(`no node at ${JSON.stringify(path.slice(0, -1))}`);
  return [parent as Record<string | number, unknown>, path[path.length - 1]!];
}

/**
 * parentAndKey, except that an element of a typed array that is a view of a shared decode's input
 * (shared/binary/share.ts) is first replaced by a copy of that array in its own parent: an edit
 * never writes into the file's bytes.
 */
function writableParent(doc: unknown, path: NodePath): [Record<string | number, unknown>, string | number] {
  const [parent, key] = parentAndKey(doc, path);
  if (!ArrayBuffer.isView(parent) || parent instanceof DataView || !isSharedInput(parent)) return [parent, key];
  const [owner, ownerKey] = parentAndKey(doc, path.slice(0, -1));
  const copy = (parent as unknown as { slice(): unknown }).slice() as Record<string | number, unknown>;
  owner[ownerKey] = copy;
  return [copy, key];
}

function arrayAt(doc: unknown, path: NodePath): unknown[] {
  const a = getAt(doc, path);
  if (!Array.isArray(a)) throw new EditError(`no list at ${JSON.stringify(path)}`);
  return a;
}

/** The first refusal `check` gives the commands of a batch, in order, or undefined (every codec's `checkEdit` of a batch). */
export function batchRefusal(commands: readonly EditCommand[], check: (cmd: EditCommand) => string | undefined): string | undefined {
  for (const c of commands) {
    const m = check(c);
    if (m) return m;
  }
  return undefined;
}

/**
 * Applies a command to `doc` in place and returns its inverse. Does not validate values against
 * schemas: the codec's `checkEdit` does that first.
 */
export function applyCommand(doc: object, cmd: EditCommand): EditCommand {
  switch (cmd.op) {
    case 'set': {
      const [parent, key] = writableParent(doc, cmd.path);
      if (!(key in parent)) throw new EditError(`no field ${String(key)} at ${JSON.stringify(cmd.path.slice(0, -1))}`);
      const old = parent[key];
      parent[key] = cmd.value;
      markDirty(doc, cmd.path.slice(0, -1));
      return { op: 'set', path: cmd.path, value: old, label: cmd.label };
    }
    case 'insert': {
      const a = arrayAt(doc, cmd.path);
      if (!Number.isInteger(cmd.index) || cmd.index < 0 || cmd.index > a.length) throw new EditError(`index ${cmd.index} out of range`);
      a.splice(cmd.index, 0, cmd.value);
      markDirty(doc, cmd.path);
      return { op: 'remove', path: [...cmd.path, cmd.index], label: cmd.label };
    }
    case 'remove': {
      const listPath = cmd.path.slice(0, -1);
      const index = cmd.path[cmd.path.length - 1];
      const a = arrayAt(doc, listPath);
      if (typeof index !== 'number' || index < 0 || index >= a.length) throw new EditError(`no element ${String(index)} to remove`);
      const [old] = a.splice(index, 1);
      markDirty(doc, listPath);
      return { op: 'insert', path: listPath, index, value: old, label: cmd.label };
    }
    case 'move': {
      const a = arrayAt(doc, cmd.path);
      if (cmd.from < 0 || cmd.from >= a.length || cmd.to < 0 || cmd.to >= a.length) throw new EditError('move out of range');
      const [x] = a.splice(cmd.from, 1);
      a.splice(cmd.to, 0, x);
      markDirty(doc, cmd.path);
      return { op: 'move', path: cmd.path, from: cmd.to, to: cmd.from, label: cmd.label };
    }
    case 'batch': {
      const inverses: EditCommand[] = [];
      try {
        for (const c of cmd.commands) inverses.unshift(applyCommand(doc, c));
      } catch (e) {
        for (const inv of inverses) applyCommand(doc, inv);
        throw e;
      }
      return { op: 'batch', commands: inverses, label: cmd.label };
    }
  }
}

/**
 * Whether `next` continues the undo step `prev` ended: only the `set`s of one gesture (the same
 * `gesture` id: one drag of a colour picker or slider) on one path. Separate committed edits of
 * the same field (Enter, blur, a button) are separate steps.
 */
export function canMerge(prev: EditCommand, next: EditCommand): boolean {
  return (
    prev.op === 'set' && next.op === 'set' &&
    typeof prev.gesture === 'string' && prev.gesture !== '' && prev.gesture === next.gesture &&
    JSON.stringify(prev.path) === JSON.stringify(next.path)
  );
}
