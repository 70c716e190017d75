/**
 * The layers import in one direction (docs/architecture.md, "The layers"), checked on every
 * import of shared/, main/ and renderer/ (type-only, re-exports, dynamic `import()` and the
 * `<script>` of .vue components included):
 *
 * - shared/ imports neither main/ nor renderer/ (it runs in all of them);
 * - renderer/ does not import main/ (it talks to main through bridge/ and the IPC contract only);
 * - shared/binary/ does not import shared/model/ (bytes know nothing of documents);
 * - only a format's own folder knows it: main/, renderer/ and the format-neutral parts of
 *   shared/ never import a family folder (shared/formats/<family>/, the folders with a
 *   family.ts); they ask the codec through the registry (shared/formats/*.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.ts';
import { moduleGraph, scriptOf, staticImports } from '../helpers/import-graph.ts';

interface LayerRule {
  /** Files the rule applies to (repository-relative, `/`-separated prefix). */
  from: string;
  /** Imports they must not make (prefixes). */
  to: readonly string[];
  /** Files under `from` the rule leaves out (prefixes). */
  except?: readonly string[];
  why: string;
}

/** The family folders: every folder of shared/formats/ that declares a family.ts. */
function familyFolders(): string[] {
  const dir = join(repoRoot, 'shared/formats');
  return readdirSync(dir).filter((f) => existsSync(join(dir, f, 'family.ts'))).map((f) => `shared/formats/${f}/`);
}

function rules(): LayerRule[] {
  const families = familyFolders();
  return [
    { from: 'shared/', to: ['main/', 'renderer/'], why: 'shared/ runs in main, renderer, workers and the CLI' },
    { from: 'renderer/', to: ['main/'], why: 'the renderer talks to main through bridge/ and the IPC contract only' },
    { from: 'shared/binary/', to: ['shared/model/'], why: 'the byte layer knows nothing of documents' },
    { from: 'main/', to: families, why: 'main/ asks the codec what a format can do' },
    { from: 'renderer/', to: families, why: 'the renderer asks the document snapshot what its format can do' },
    { from: 'shared/', to: families, except: ['shared/formats/'], why: 'format-neutral shared code asks the registry' },
  ];
}

const rel = (f: string): string => relative(repoRoot, f).split(sep).join('/');

/** Every import that breaks a rule: `file -> import (why)`. */
function violations(graph: Map<string, string[]>, layerRules: readonly LayerRule[]): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    const f = rel(file);
    for (const r of layerRules) {
      if (!f.startsWith(r.from) || r.except?.some((e) => f.startsWith(e))) continue;
      for (const imp of imports) {
        const i = rel(imp);
        if (r.to.some((t) => i.startsWith(t))) out.push(`${f} -> ${i} (${r.why})`);
      }
    }
  }
  return out.sort();
}

describe('import direction between the layers', () => {
  it('the checker catches each kind of violation (static, type-only, dynamic, in a .vue script) and passes clean code', () => {
    const at = (p: string) => join(repoRoot, p);
    const files: Record<string, string> = {
      'shared/scene/x.ts': "import { DocumentService } from '../../main/documents/document-service.ts';",
      'shared/model/y.ts': "import type { Emit } from '../../main/documents/doc-store.ts';",
      'shared/export/z.ts': "export const later = () => import('../../renderer/App.vue');",
      'renderer/components/W.vue': "<template><div /></template>\n<script setup lang=\"ts\">\nimport { fail } from '../../main/documents/app-error.ts';\n</script>",
      'shared/binary/v.ts': "import type { NodePath } from '../model/path.ts';",
      'main/documents/u.ts': "import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';",
      'shared/import/t.ts': "import type { MlodDocument } from '../formats/p3d/mlod/types.ts';",
      // Allowed: the registry from anywhere, a family's folder from its own family.
      'main/documents/ok.ts': "import { allFormats } from '../../shared/formats/index.ts';",
      'shared/formats/lodka/ok.ts': "import type { FormatCodec } from '../registry.ts';\nimport { lodScreenshot } from './screenshot.ts';",
    };
    const graph = new Map(Object.entries(files).map(([f, t]) => [at(f), staticImports(at(f), scriptOf(f, t), { dynamic: true })]));
    const found = violations(graph, rules()).map((v) => v.split(' (')[0]);
    expect(found).toEqual([
      'main/documents/u.ts -> shared/formats/lodka/codec.ts',
      'renderer/components/W.vue -> main/documents/app-error.ts',
      'shared/binary/v.ts -> shared/model/path.ts',
      'shared/export/z.ts -> renderer/App.vue',
      'shared/import/t.ts -> shared/formats/p3d/mlod/types.ts',
      'shared/model/y.ts -> main/documents/doc-store.ts',
      'shared/scene/x.ts -> main/documents/document-service.ts',
    ]);
  });

  it('every family folder is seen (so the format rules are not vacuous)', () => {
    expect(familyFolders().length).toBeGreaterThanOrEqual(4);
    expect(familyFolders()).toContain('shared/formats/p3d/');
  });

  it('shared/, main/ and renderer/ (with their .vue components) import only downwards', () => {
    const graph = moduleGraph(['shared', 'main', 'renderer'].map((d) => join(repoRoot, d)), { dynamic: true, vue: true });
    // The walk saw the components and the document service.
    expect(graph.has(join(repoRoot, 'renderer/App.vue'))).toBe(true);
    expect(graph.has(join(repoRoot, 'main/documents/document-service.ts'))).toBe(true);
    expect(violations(graph, rules())).toEqual([]);
  });
});
