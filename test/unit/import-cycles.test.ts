/**
 * No static import cycle in the application's own modules (shared/, main/, renderer/), type-only
 * imports included: ODOL's views once imported the document type from codec.ts, which imports
 * every view, so info/validate/scene/views/edits and the codec formed one cycle (the document type
 * now lives in odol/document.ts). A cycle makes load order decide which module sees the other's
 * bindings as undefined, and drags a whole codec into whatever imports one of its views.
 * Dynamic `import()` (the catalog's lazy codec loading) is not a load-time edge and is left out.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.ts';
import { moduleGraph, staticImports } from '../helpers/import-graph.ts';

/** The strongly connected components of more than one module (Tarjan), or a module importing itself. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || graph.get(v)!.includes(v)) found.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('module import graph', () => {
  it('the cycle finder finds a cycle through type-only imports, and only the modules on it', () => {
    const files: Record<string, string> = {
      '/m/codec.ts': "import { info } from './info.ts';\nexport const codec = info;",
      '/m/info.ts': "import type { Doc } from './codec.ts';\nimport { util } from './util.ts';\nexport const info = (d: Doc) => util(d);",
      '/m/util.ts': 'export const util = (x: unknown) => x;',
      '/m/lazy.ts': "export const load = () => import('./codec.ts');",
    };
    const graph = new Map(Object.entries(files).map(([f, t]) => [f, staticImports(f, t)]));
    expect(importCycles(graph)).toEqual([['/m/codec.ts', '/m/info.ts']]);
    // The same modules with the type in its own module: no cycle.
    files['/m/info.ts'] = files['/m/info.ts']!.replace("'./codec.ts'", "'./document.ts'");
    files['/m/document.ts'] = 'export type Doc = object;';
    const fixed = new Map(Object.entries(files).map(([f, t]) => [f, staticImports(f, t)]));
    expect(importCycles(fixed)).toEqual([]);
  });

  it('shared/, main/ and renderer/ have no static import cycle (ODOL codec and its views included)', () => {
    const graph = moduleGraph(['shared', 'main', 'renderer'].map((d) => join(repoRoot, d)));
    // The walk really saw the ODOL codec and the views that once formed the cycle.
    const odol = join(repoRoot, 'shared/formats/p3d/odol');
    for (const m of ['codec', 'edits', 'info', 'scene', 'validate', 'views', 'document']) expect(graph.has(join(odol, `${m}.ts`)), m).toBe(true);
    expect(graph.get(join(odol, 'codec.ts'))).toContain(join(odol, 'views.ts'));
    const cycles = importCycles(graph).map((c) => c.map((f) => relative(repoRoot, f)));
    expect(cycles).toEqual([]);
  });
});
