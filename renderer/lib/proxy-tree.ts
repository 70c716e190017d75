/**
 * Proxy item trees (LODka PXI1): items are a flat list, each naming its parent by index. These
 * helpers turn that into display rows and decide which re-parenting drops are allowed.
 */
export interface ProxyRow {
  index: number;
  depth: number;
}

/** Items in tree order (parents before children); items whose parent is invalid show at the root. */
export function proxyRows(parents: readonly number[]): ProxyRow[] {
  const n = parents.length;
  const kids = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    const key = p >= 0 && p < n && p !== i ? p : -1;
    if (!kids.has(key)) kids.set(key, []);
    kids.get(key)!.push(i);
  }
  const out: ProxyRow[] = [];
  const seen = new Set<number>();
  const walk = (parent: number, depth: number) => {
    for (const i of kids.get(parent) ?? []) {
      if (seen.has(i)) continue;
      seen.add(i);
      out.push({ index: i, depth });
      walk(i, depth + 1);
    }
  };
  walk(-1, 0);
  // Items caught in a parent cycle are unreachable from the root: list them so none is hidden.
  for (let i = 0; i < n; i++) if (!seen.has(i)) {
    seen.add(i);
    out.push({ index: i, depth: 0 });
    walk(i, 1);
  }
  return out;
}

/** True when `a` is `b` or one of b's ancestors (dropping b onto a would then be fine; the reverse makes a cycle). */
export function isAncestor(parents: readonly number[], a: number, b: number): boolean {
  let cur = b;
  for (let guard = 0; cur >= 0 && guard <= parents.length; guard++) {
    if (cur === a) return true;
    cur = parents[cur] ?? -1;
  }
  return false;
}

/** Whether item `item` may become a child of `target` (-1: the root) without a cycle. */
export function canReparent(parents: readonly number[], item: number, target: number): boolean {
  if (item === target) return false;
  if (target < 0) return true;
  return !isAncestor(parents, item, target);
}
