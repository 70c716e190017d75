import { describe, expect, it } from 'vitest';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { pathKey } from '../../shared/model/path.ts';
import { ancestry, findNode, nearestNode, nodesOfKind, treeKey, visibleRows } from '../../renderer/lib/tree-model.ts';
import { canReparent, proxyRows } from '../../renderer/lib/proxy-tree.ts';

const tree: OutlineNode = {
  path: [], name: 'file', kind: 'file', children: [
    { path: ['chunks', 0], name: 'LOD1', kind: 'lod', children: [
      { path: ['chunks', 0, 'children', 0], name: 'MAL1', kind: 'materials', children: [
        { path: ['chunks', 0, 'children', 0, 'materials', 0], name: 'materials[0]', label: 'Skin', kind: 'material' },
        { path: ['chunks', 0, 'children', 0, 'materials', 1], name: 'materials[1]', label: 'Metal', kind: 'material' },
      ] },
      { path: ['chunks', 0, 'children', 1], name: 'MSL1', kind: 'meshes', children: [
        { path: ['chunks', 0, 'children', 1, 'children', 0], name: 'MSH1', label: 'Body', kind: 'mesh' },
      ] },
    ] },
  ],
};
const k = (...p: (string | number)[]) => pathKey(p);

describe('structure tree model', () => {
  it('shows children of expanded nodes only', () => {
    const rows = visibleRows(tree, new Set([k(), k('chunks', 0)]));
    expect(rows.map((r) => r.node.name)).toEqual(['file', 'LOD1', 'MAL1', 'MSL1']);
    expect(rows.map((r) => r.depth)).toEqual([0, 1, 2, 2]);
  });

  it('filters by name or label and keeps the ancestors of matches', () => {
    const rows = visibleRows(tree, new Set(), 'metal');
    expect(rows.map((r) => r.node.name)).toEqual(['file', 'LOD1', 'MAL1', 'materials[1]']);
    expect(rows.filter((r) => r.match).map((r) => r.node.label)).toEqual(['Metal']);
    expect(visibleRows(tree, new Set(), 'nothing-like-this')).toEqual([]);
  });

  it('moves with the keyboard like a tree', () => {
    const rows = visibleRows(tree, new Set([k(), k('chunks', 0)]));
    expect(treeKey(rows, k(), 'ArrowDown')).toEqual({ select: k('chunks', 0) });
    expect(treeKey(rows, k(), 'End')).toEqual({ select: k('chunks', 0, 'children', 1) });
    expect(treeKey(rows, k('chunks', 0, 'children', 1), 'Home')).toEqual({ select: k() });
    // Right on a collapsed parent expands it; Left on a collapsed child goes to the parent.
    expect(treeKey(rows, k('chunks', 0, 'children', 0), 'ArrowRight')).toEqual({ expand: k('chunks', 0, 'children', 0) });
    expect(treeKey(rows, k('chunks', 0, 'children', 0), 'ArrowLeft')).toEqual({ select: k('chunks', 0) });
    expect(treeKey(rows, k('chunks', 0), 'ArrowLeft')).toEqual({ collapse: k('chunks', 0) });
    expect(treeKey(rows, k('chunks', 0), 'ArrowRight')).toEqual({ select: k('chunks', 0, 'children', 0) });
  });

  it('finds nodes, ancestry and the deepest node holding a field path', () => {
    expect(ancestry(tree, ['chunks', 0, 'children', 1, 'children', 0]).map((n) => n.name)).toEqual(['file', 'LOD1', 'MSL1', 'MSH1']);
    expect(nearestNode(tree, ['chunks', 0, 'children', 0, 'materials', 1, 'options', 'diffuse'])?.label).toBe('Metal');
    expect(nodesOfKind(tree, 'material').map((n) => n.label)).toEqual(['Skin', 'Metal']);
    expect(findNode(tree, ['chunks', 0, 'children', 0, 'materials', 0])?.label).toBe('Skin');
    expect(findNode(tree, ['chunks', 9])).toBeUndefined();
    expect(ancestry(tree, ['chunks', '0'])).toEqual([]);
  });

  it('walks down one branch only to find a node (a path per problem in a large outline)', () => {
    // 200 LODs of 50 faces each: 10,201 nodes, every child read counted.
    let reads = 0;
    const node = (path: (string | number)[], children?: OutlineNode[]): OutlineNode => {
      const n: OutlineNode = { path, name: String(path[path.length - 1] ?? 'file'), kind: 'node' };
      if (children) Object.defineProperty(n, 'children', { get: () => (reads++, children), enumerable: true });
      return n;
    };
    const big = node([], Array.from({ length: 200 }, (_, i) => node(['lods', i], Array.from({ length: 50 }, (_, j) => node(['lods', i, 'faces', j])))));
    expect(ancestry(big, ['lods', 150, 'faces', 7]).map((n) => n.name)).toEqual(['file', '150', '7']);
    expect(reads).toBeLessThanOrEqual(2);
    expect(findNode(big, ['lods', 199, 'faces', 49])?.name).toBe('49');
  });

  it('still finds a node in a tree whose paths do not nest', () => {
    const odd: OutlineNode = { path: [], name: 'file', kind: 'file', children: [
      { path: ['group'], name: 'Visual LODs', kind: 'container', children: [{ path: ['lods', 2], name: 'LOD 2', kind: 'lod' }] },
    ] };
    expect(ancestry(odd, ['lods', 2]).map((n) => n.name)).toEqual(['file', 'Visual LODs', 'LOD 2']);
  });
});

describe('proxy item trees', () => {
  it('orders items parents first and indents children', () => {
    expect(proxyRows([-1, 0, 0, 1])).toEqual([
      { index: 0, depth: 0 }, { index: 1, depth: 1 }, { index: 3, depth: 2 }, { index: 2, depth: 1 },
    ]);
  });
  it('still lists items caught in a parent cycle', () => {
    expect(proxyRows([1, 0]).map((r) => r.index).sort()).toEqual([0, 1]);
  });
  it('refuses drops that would make a cycle', () => {
    const parents = [-1, 0, 1];
    expect(canReparent(parents, 0, 2)).toBe(false);
    expect(canReparent(parents, 1, 1)).toBe(false);
    expect(canReparent(parents, 2, 0)).toBe(true);
    expect(canReparent(parents, 1, -1)).toBe(true);
  });
});
