/**
 * The application's module graph as the import tests see it: every relative import of every
 * module under some folders, resolved to a path. `.vue` components count with the imports of
 * their `<script>` blocks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportOptions {
  /** Count `import('./x.ts')` as well (a load-time edge for the layer rules, not for cycles). */
  dynamic?: boolean;
}

/** Every relative `import ... from` / `export ... from` of one module (type-only included), resolved to a path. */
export function staticImports(file: string, text: string, opts: ImportOptions = {}): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const add = (spec: string | undefined): void => {
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  };
  for (const s of src.statements) {
    add((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : undefined);
  }
  if (opts.dynamic) {
    const walk = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) add(n.arguments[0].text);
      ts.forEachChild(n, walk);
    };
    walk(src);
  }
  return out;
}

/** The script of a `.vue` component (every `<script>` block), or the text itself for a module. */
export function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** Module -> the modules it imports, for every `.ts` (and with `vue`, `.vue`) file under `dirs`. */
export function moduleGraph(dirs: string[], opts: ImportOptions & { vue?: boolean } = {}): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if ((p.endsWith('.ts') && !p.endsWith('.d.ts')) || (opts.vue && p.endsWith('.vue'))) files.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return new Map(files.map((f) => [f, staticImports(f, scriptOf(f, readFileSync(f, 'utf8')), opts)]));
}
