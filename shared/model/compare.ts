import type { OutlineNode } from './outline.ts';

/** First offset where two byte arrays differ, or -1 when they are identical. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * The display path of the deepest outline node whose byte span contains `offset`
 * (e.g. `LOD1/MSL1/MSH1[2]`), or '' when no node covers it.
 */
export function locateOffset(root: OutlineNode, offset: number): string {
  const names: string[] = [];
  let cur: OutlineNode | undefined = root;
  while (cur) {
    names.push(cur.name);
    cur = cur.children?.find((c) => c.span && offset >= c.span[0] && offset < c.span[1]);
  }
  return names.slice(1).join('/') || root.name;
}
