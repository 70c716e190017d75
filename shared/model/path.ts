/**
 * Addressing nodes in a decoded document. A document is a tree of plain objects, arrays and typed
 * arrays; a {@link NodePath} is the list of keys from the root to a value. Edits, selection, the
 * inspector and problems all use it.
 */
export type NodePath = readonly (string | number)[];

export function getAt(root: unknown, path: NodePath): unknown {
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

/** The chain of containers from the root down to (and including) the value at `path`. */
export function chainAt(root: unknown, path: NodePath): unknown[] {
  const out: unknown[] = [root];
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') break;
    cur = (cur as Record<string | number, unknown>)[k];
    out.push(cur);
  }
  return out;
}

export function pathKey(path: NodePath): string {
  return JSON.stringify(path);
}

export function samePath(a: NodePath, b: NodePath): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

export function isPrefix(prefix: NodePath, path: NodePath): boolean {
  return prefix.length <= path.length && prefix.every((k, i) => k === path[i]);
}
