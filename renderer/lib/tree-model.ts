/**
 * Structure-tree logic (flattening, filtering, keyboard moves) apart from the component, so the
 * tree stays a thin view over a list of visible rows and the rules are unit-tested.
 */
import type { OutlineNode } from '../../shared/model/outline.ts';
import { isPrefix, pathKey, samePath, type NodePath } from '../../shared/model/path.ts';

export interface TreeRow {
  node: OutlineNode;
  key: string;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** The row matched the filter itself (ancestors of matches are shown too, dimmed). */
  match: boolean;
}

export function nodeMatches(n: OutlineNode, q: string): boolean {
  const s = q.toLowerCase();
  return n.name.toLowerCase().includes(s) || (n.label?.toLowerCase().includes(s) ?? false) || n.kind.includes(s);
}

/**
 * Visible rows in display order. Without a filter, children show under expanded rows; with one,
 * every match shows with its ancestors, whatever the expansion state. A node matches by its name,
 * label or kind, or when its key is in `found` (the document service's matches by field value).
 */
export function visibleRows(root: OutlineNode | undefined, expanded: ReadonlySet<string>, filter = '', found?: ReadonlySet<string>): TreeRow[] {
  const out: TreeRow[] = [];
  if (!root) return out;
  const q = filter.trim();
  const walk = (n: OutlineNode, depth: number): boolean => {
    const key = pathKey(n.path);
    const kids = n.children ?? [];
    if (!q) {
      const open = expanded.has(key);
      out.push({ node: n, key, depth, hasChildren: kids.length > 0, expanded: open, match: false });
      if (open) for (const c of kids) walk(c, depth + 1);
      return true;
    }
    const at = out.length;
    const self = nodeMatches(n, q) || (found?.has(key) ?? false);
    out.push({ node: n, key, depth, hasChildren: kids.length > 0, expanded: true, match: self });
    let any = false;
    for (const c of kids) any = walk(c, depth + 1) || any;
    if (!self && !any) out.length = at;
    return self || any;
  };
  walk(root, 0);
  return out;
}

/**
 * A node's path as the user reads it, the one way the status bar, the inspector and the
 * Problems list write it: the tree's names from the root down, `LOD1/MAL1/MAT1[2]`. Paths
 * below the last outline node (a field) add their keys; the root alone is `/`.
 */
export function displayPath(root: OutlineNode | undefined, path: NodePath): string {
  const chain = ancestryOrNearest(root, path);
  const names = chain.filter((n) => n.path.length > 0).map((n) => n.name);
  const last = chain[chain.length - 1];
  const rest = last ? path.slice(last.path.length) : path;
  for (const k of rest) {
    if (typeof k === 'number' && names.length) names[names.length - 1] += `[${k}]`;
    else names.push(String(k));
  }
  return names.length ? names.join('/') : '/';
}
function ancestryOrNearest(root: OutlineNode | undefined, path: NodePath): OutlineNode[] {
  const exact = ancestry(root, path);
  if (exact.length) return exact;
  const near = nearestNode(root, path);
  return near ? ancestry(root, near.path) : [];
}

/** Finds a node by path. */
export function findNode(root: OutlineNode | undefined, path: NodePath): OutlineNode | undefined {
  const chain = ancestry(root, path);
  return chain[chain.length - 1];
}

/**
 * Ancestor chain (root first) of the node at `path`, ending with that node. A node's path
 * extends its parent's, so the walk goes down only the branch whose path starts the one looked
 * for (the Problems list writes a path per problem: a walk of the whole outline for each was
 * most of what it cost to show a large model's problems); a tree that breaks that rule is walked
 * whole.
 */
export function ancestry(root: OutlineNode | undefined, path: NodePath): OutlineNode[] {
  if (!root) return [];
  const chain: OutlineNode[] = [];
  const walk = (n: OutlineNode, prune: boolean): boolean => {
    if (prune && !isPrefix(n.path, path)) return false;
    chain.push(n);
    if (samePath(n.path, path)) return true;
    for (const c of n.children ?? []) if (walk(c, prune)) return true;
    chain.pop();
    return false;
  };
  return walk(root, true) || walk(root, false) ? chain : [];
}

/**
 * The deepest outline node containing `path` (a field path or a scene source path may point
 * below the nodes the tree shows).
 */
export function nearestNode(root: OutlineNode | undefined, path: NodePath): OutlineNode | undefined {
  if (!root) return undefined;
  let best: OutlineNode | undefined;
  const walk = (n: OutlineNode) => {
    if (n.path.length <= path.length && n.path.every((k, i) => k === path[i])) {
      if (!best || n.path.length >= best.path.length) best = n;
      for (const c of n.children ?? []) walk(c);
    }
  };
  walk(root);
  return best;
}

/** All nodes of some kinds, depth first. */
export function nodesOfKind(root: OutlineNode | undefined, ...kinds: OutlineNode['kind'][]): OutlineNode[] {
  const out: OutlineNode[] = [];
  const walk = (n: OutlineNode) => {
    if (kinds.includes(n.kind)) out.push(n);
    for (const c of n.children ?? []) walk(c);
  };
  if (root) walk(root);
  return out;
}

export type TreeKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End' | 'PageUp' | 'PageDown';

/**
 * Keyboard navigation: the row to select and the expansion change to make for a key, following
 * the usual tree conventions (Left collapses or goes to the parent, Right expands or goes to the
 * first child).
 */
export function treeKey(
  rows: readonly TreeRow[],
  current: string | undefined,
  key: TreeKey,
  page = 10,
): { select?: string; expand?: string; collapse?: string } {
  if (!rows.length) return {};
  const i = Math.max(0, rows.findIndex((r) => r.key === current));
  const row = rows[i]!;
  const at = (j: number) => rows[Math.min(rows.length - 1, Math.max(0, j))]!.key;
  switch (key) {
    case 'ArrowUp': return { select: current === undefined ? at(0) : at(i - 1) };
    case 'ArrowDown': return { select: current === undefined ? at(0) : at(i + 1) };
    case 'Home': return { select: at(0) };
    case 'End': return { select: at(rows.length - 1) };
    case 'PageUp': return { select: at(i - page) };
    case 'PageDown': return { select: at(i + page) };
    case 'ArrowRight':
      if (row.hasChildren && !row.expanded) return { expand: row.key };
      if (row.hasChildren && rows[i + 1]?.depth === row.depth + 1) return { select: rows[i + 1]!.key };
      return {};
    case 'ArrowLeft': {
      if (row.hasChildren && row.expanded) return { collapse: row.key };
      for (let j = i - 1; j >= 0; j--) if (rows[j]!.depth < row.depth) return { select: rows[j]!.key };
      return {};
    }
  }
}
