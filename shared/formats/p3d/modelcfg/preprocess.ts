/**
 * The config language's preprocessor, as the game's tools (and HEMTT, armake) run it before
 * parsing: `#define` with and without parameters, `#undef`, `#include "file"` / `<file>`,
 * `#ifdef` / `#ifndef` / `#if` / `#else` / `#endif`, `#` (stringize) and `##` (paste) in macro
 * bodies, `__EVAL(expr)`, `__EXEC(name = expr)`, `__LINE__`, `__FILE__`.
 *
 * Pure: files named by `#include` come through the caller's `readInclude` (the CLI and main give
 * one that reads relative to the including file; tests give a map).
 *
 * Bounded: a macro that expands to itself (directly or through others) is an error, not a silent
 * stop as in C; so is an include cycle. Expansion depth, include depth and the number of tokens
 * the expansion may produce are capped, so no input expands without end.
 */
import { evaluate, ExpressionError } from './expression.ts';
import { ConfigError, lex, lineColumn, lineStarts, quote, unquote, type Origin, type Token } from './lexer.ts';

export interface SourceFile {
  /** The name the file was opened or included by (the main file's name as given). */
  name: string;
  text: string;
  starts: number[];
}

/**
 * Reads an included file. `path` is as written in the directive (backslashes kept), `from` the
 * including file's name. Returns the file's name (used for cycle detection and messages) and text,
 * or undefined when there is no such file.
 */
export type ReadInclude = (path: string, from: string) => { name: string; text: string } | undefined;

export interface PreprocessOptions {
  /** The main file's name, for messages and as `from` of its includes. */
  fileName?: string;
  readInclude?: ReadInclude;
  /** Macros defined before the file (name -> body text). */
  defines?: Record<string, string>;
  /**
   * Tokens the whole expansion may produce (default 100,000 + 4 per character of the main file:
   * several times what any real file's macros make, and linear in the input, so a few bytes of
   * exploding macros stop within a fraction of a second).
   */
  maxTokens?: number;
}

export interface Macro {
  name: string;
  /** Parameter names; undefined for an object-like macro. */
  params?: string[];
  body: Token[];
  at: Origin;
}

export interface Preprocessed {
  /** The expanded tokens, newlines dropped. */
  tokens: Token[];
  /** Every file read; index 0 is the main file. */
  files: SourceFile[];
  /** Macros defined at the end of the main file. */
  macros: Map<string, Macro>;
}

const MAX_EXPANSION_DEPTH = 64;
const MAX_INCLUDE_DEPTH = 32;
const MAX_INCLUDES = 256;
const BUILTINS = new Set(['__EVAL', '__EXEC', '__LINE__', '__FILE__']);

/** Position of an origin as file, line and column (1-based). */
export function describe(files: readonly SourceFile[], at: Origin): { file: string; line: number; column: number } {
  const f = files[at.file];
  if (!f) return { file: '?', line: 1, column: 1 };
  return { file: f.name, ...lineColumn(f.starts, at.start) };
}

export function preprocess(text: string, opts: PreprocessOptions = {}): Preprocessed {
  const files: SourceFile[] = [];
  const macros = new Map<string, Macro>();
  const variables = new Map<string, number>();
  const out: Token[] = [];
  const maxTokens = opts.maxTokens ?? 100_000 + 4 * text.length;
  let produced = 0;
  let includes = 0;

  const fail = (message: string, at: Origin): never => {
    const d = describe(files, at);
    throw new ConfigError(message, d.file, d.line, d.column);
  };
  const charge = (n: number, at: Origin): void => {
    produced += n;
    if (produced > maxTokens) fail(`macro expansion produces more than ${maxTokens} tokens`, at);
  };
  const addFile = (name: string, body: string): number => {
    files.push({ name, text: body, starts: lineStarts(body) });
    return files.length - 1;
  };
  const lexFile = (fi: number): Token[] => lex(files[fi]!.text, fi, (m, off) => fail(m, { file: fi, start: off, end: off }));

  const main = addFile(opts.fileName ?? 'model.cfg', text);
  for (const [name, body] of Object.entries(opts.defines ?? {})) {
    const fi = addFile(`<define ${name}>`, body);
    macros.set(name, { name, body: lexFile(fi).filter((t) => t.kind !== 'nl'), at: { file: fi, start: 0, end: 0 } });
  }

  /** Arguments of a call whose `(` is at `open`: split at top-level commas; returns index after `)`. */
  const collectArgs = (list: Token[], open: number, at: Origin): { args: Token[][]; next: number } => {
    const args: Token[][] = [[]];
    let depth = 0;
    for (let j = open + 1; j < list.length; j++) {
      const t = list[j]!;
      if (t.kind === 'nl') continue;
      if (t.text === '(') depth++;
      else if (t.text === ')') {
        if (depth === 0) return { args, next: j + 1 };
        depth--;
      } else if (t.text === ',' && depth === 0) {
        args.push([]);
        continue;
      }
      args[args.length - 1]!.push(t);
    }
    return fail('macro call without closing )', at);
  };

  const joinText = (tokens: readonly Token[]): string => tokens.map((t, k) => (k > 0 && t.space ? ' ' : '') + t.text).join('');

  const made = (kind: Token['kind'], text: string, like: Token): Token => ({ kind, text, at: like.at, space: like.space, ...(like.macro ? { macro: like.macro } : {}) });

  const numberToken = (v: number, like: Token): Token => {
    if (!Number.isFinite(v)) fail(`__EVAL gives ${v}`, like.at);
    return made('num', String(Math.round(v * 1e6) / 1e6 === v ? v : Number(v.toPrecision(9))), like);
  };

  /** Expands the macro call at list[i]; undefined when list[i] is a function macro's name without `(`. */
  const expandAt = (list: Token[], i: number, active: ReadonlySet<string>, depth: number): { out: Token[]; next: number } | undefined => {
    const head = list[i]!;
    const name = head.text;
    const m = macros.get(name);
    const takesArgs = m ? m.params !== undefined : name === '__EVAL' || name === '__EXEC';
    let args: Token[][] = [];
    let next = i + 1;
    if (takesArgs) {
      let j = i + 1;
      while (list[j]?.kind === 'nl') j++;
      if (list[j]?.text !== '(') return undefined;
      ({ args, next } = collectArgs(list, j, head.at));
    }
    if (active.has(name)) fail(`macro ${name} expands to itself`, head.at);
    if (depth > MAX_EXPANSION_DEPTH) fail(`macros nested deeper than ${MAX_EXPANSION_DEPTH}`, head.at);
    if (!m) {
      // A built-in's value is computed, not written: it is labelled as a macro's (never edited in place).
      const builtin: Token = { ...head, macro: head.macro ?? name };
      if (name === '__LINE__') return { out: [made('num', String(describe(files, head.at).line), builtin)], next };
      if (name === '__FILE__') return { out: [made('str', quote(files[head.at.file]?.name ?? ''), builtin)], next };
      const expr = joinText(expandList(args.flatMap((a, k) => (k > 0 ? [made('punct', ',', head), ...a] : a)), active, depth + 1));
      if (name === '__EXEC') {
        const mm = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/s.exec(expr);
        if (!mm) fail('__EXEC takes name = expression', head.at);
        variables.set(mm![1]!.toLowerCase(), evalOrFail(mm![2]!, head));
        return { out: [], next };
      }
      return { out: [numberToken(evalOrFail(expr, head), builtin)], next };
    }
    let body: Token[];
    if (m.params === undefined) body = m.body;
    else {
      if (args.length === 1 && args[0]!.length === 0 && m.params.length === 0) args = [];
      if (args.length !== m.params.length) fail(`macro ${name} takes ${m.params.length} argument(s), given ${args.length}`, head.at);
      body = substitute(m, args, active, depth, head);
    }
    const inner = new Set(active).add(name);
    charge(body.length, head.at);
    const expanded = expandList(body, inner, depth + 1);
    // Only a call written in the file relabels its tokens: nested calls are relabelled by it once.
    if (depth > 0) return { out: expanded, next };
    return { out: expanded.map((t) => ({ ...t, at: head.at, macro: head.macro ?? name, space: t === expanded[0] ? head.space : t.space })), next };
  };

  const evalOrFail = (expr: string, head: Token): number => {
    try {
      return evaluate(expr, variables);
    } catch (e) {
      return fail(`${head.text}: ${e instanceof ExpressionError ? e.message : String(e)} in "${expr}"`, head.at);
    }
  };

  const substitute = (m: Macro, args: Token[][], active: ReadonlySet<string>, depth: number, head: Token): Token[] => {
    const params = m.params!;
    const body = m.body;
    const res: (Token | 'paste')[] = [];
    for (let k = 0; k < body.length; k++) {
      const t = body[k]!;
      if (t.text === '##') {
        res.push('paste');
        continue;
      }
      if (t.text === '#' && body[k + 1]?.kind === 'id' && params.includes(body[k + 1]!.text)) {
        const arg = args[params.indexOf(body[k + 1]!.text)]!;
        res.push(made('str', quote(joinText(arg)), { ...head, space: t.space }));
        k++;
        continue;
      }
      const p = t.kind === 'id' ? params.indexOf(t.text) : -1;
      if (p < 0) {
        res.push(t);
        continue;
      }
      const raw = args[p]!;
      const pasted = body[k - 1]?.text === '##' || body[k + 1]?.text === '##';
      const value = pasted ? raw : expandList(raw, active, depth + 1);
      // Charged as it grows, so an exploding macro stops at the limit, not a whole level later.
      charge(value.length, head.at);
      value.forEach((v, n) => res.push(n === 0 ? { ...v, space: t.space } : v));
    }
    // Paste: join the last token before each ## with the first after it and lex the result again.
    const joined: Token[] = [];
    for (let k = 0; k < res.length; k++) {
      const t = res[k]!;
      if (t !== 'paste') {
        joined.push(t);
        continue;
      }
      const right = res[k + 1];
      if (right === undefined || right === 'paste') continue;
      k++;
      const left = joined.pop();
      if (!left) {
        joined.push(right);
        continue;
      }
      const text = left.text + right.text;
      const relexed = lex(text, head.at.file, () => fail(`## makes an invalid token ${text}`, head.at)).filter((x) => x.kind !== 'nl');
      relexed.forEach((x, n) => joined.push({ ...x, at: head.at, space: n === 0 ? left.space : x.space }));
    }
    return joined;
  };

  const expandList = (list: Token[], active: ReadonlySet<string>, depth: number): Token[] => {
    const res: Token[] = [];
    for (let i = 0; i < list.length; ) {
      const t = list[i]!;
      if (t.kind === 'id' && (macros.has(t.text) || BUILTINS.has(t.text))) {
        const r = expandAt(list, i, active, depth);
        if (r) {
          for (const x of r.out) res.push(x);
          i = r.next;
          continue;
        }
      }
      res.push(t);
      i++;
    }
    return res;
  };

  const define = (line: Token[], hash: Token): void => {
    const nameTok = line[1];
    if (nameTok?.kind !== 'id') fail('#define needs a name', nameTok?.at ?? hash.at);
    const name = nameTok!.text;
    let k = 2;
    let params: string[] | undefined;
    // Parameters only when ( follows the name with no space between.
    if (line[2]?.text === '(' && !line[2].space) {
      params = [];
      k = 3;
      for (;;) {
        const t = line[k];
        if (!t) fail(`#define ${name}: parameter list without )`, nameTok!.at);
        if (t!.text === ')') {
          k++;
          break;
        }
        if (t!.kind !== 'id') fail(`#define ${name}: bad parameter ${t!.text}`, t!.at);
        params.push(t!.text);
        k++;
        if (line[k]?.text === ',') k++;
      }
    }
    macros.set(name, { name, ...(params ? { params } : {}), body: line.slice(k), at: nameTok!.at });
  };

  const processFile = (fi: number, includeStack: string[]): void => {
    const toks = lexFile(fi);
    const conds: { on: boolean; parentOn: boolean; sawElse: boolean; at: Origin }[] = [];
    const on = (): boolean => conds.length === 0 || conds[conds.length - 1]!.on;
    let lineStart = true;
    for (let i = 0; i < toks.length; ) {
      const t = toks[i]!;
      if (t.kind === 'nl') {
        lineStart = true;
        i++;
        continue;
      }
      if (lineStart && t.text === '#') {
        let j = i + 1;
        while (j < toks.length && toks[j]!.kind !== 'nl') j++;
        const line = toks.slice(i + 1, j);
        i = j;
        const d = line[0]?.text ?? '';
        if (d === 'ifdef' || d === 'ifndef') {
          const nm = line[1];
          if (nm?.kind !== 'id') fail(`#${d} needs a name`, line[0]!.at);
          const has = macros.has(nm!.text);
          conds.push({ on: on() && (d === 'ifdef' ? has : !has), parentOn: on(), sawElse: false, at: t.at });
        } else if (d === 'if') {
          let v = false;
          if (on()) {
            const expr = expandList(line.slice(1), new Set(), 0).map((x) => (x.kind === 'id' ? '0' : x.text)).join(' ');
            v = evalOrFail(expr, line[0]!) !== 0;
          }
          conds.push({ on: on() && v, parentOn: on(), sawElse: false, at: t.at });
        } else if (d === 'else') {
          const c = conds[conds.length - 1];
          if (!c || c.sawElse) fail('#else without #ifdef', t.at);
          c!.sawElse = true;
          c!.on = c!.parentOn && !c!.on;
        } else if (d === 'endif') {
          if (!conds.pop()) fail('#endif without #ifdef', t.at);
        } else if (!on()) {
          // Any other directive in a skipped branch is skipped, whatever it is.
        } else if (d === 'define') define(line, t);
        else if (d === 'undef') {
          if (line[1]?.kind !== 'id') fail('#undef needs a name', t.at);
          macros.delete(line[1]!.text);
        } else if (d === 'include') include(line, t, fi, includeStack);
        else fail(d ? `unknown directive #${d}` : 'lone #', t.at);
        lineStart = true;
        continue;
      }
      lineStart = false;
      if (!on()) {
        i++;
        continue;
      }
      if (t.kind === 'id' && (macros.has(t.text) || BUILTINS.has(t.text))) {
        const r = expandAt(toks, i, new Set(), 0);
        if (r) {
          for (const x of r.out) out.push(x);
          i = r.next;
          continue;
        }
      }
      out.push(t);
      charge(1, t.at);
      i++;
    }
    if (conds.length) fail('#ifdef without #endif', conds[conds.length - 1]!.at);
  };

  const include = (line: Token[], hash: Token, fi: number, stack: string[]): void => {
    let path: string;
    if (line[1]?.kind === 'str') path = unquote(line[1].text);
    else if (line[1]?.text === '<') {
      const src = files[fi]!.text;
      const close = line.findIndex((x, k) => k > 1 && x.text === '>');
      if (close < 0) fail('#include <...> without >', hash.at);
      path = src.slice(line[1].at.end, line[close]!.at.start);
    } else return fail('#include needs "file" or <file>', hash.at);
    if (!opts.readInclude) fail(`#include "${path}": no file reader given`, hash.at);
    if (stack.length >= MAX_INCLUDE_DEPTH) fail(`includes nested deeper than ${MAX_INCLUDE_DEPTH}`, hash.at);
    if (++includes > MAX_INCLUDES) fail(`more than ${MAX_INCLUDES} includes`, hash.at);
    const got = opts.readInclude!(path, files[fi]!.name);
    if (!got) fail(`#include "${path}": file not found`, hash.at);
    const key = got!.name.toLowerCase();
    if (stack.includes(key)) fail(`#include "${path}" includes itself (${[...stack, key].join(' -> ')})`, hash.at);
    processFile(addFile(got!.name, got!.text), [...stack, key]);
  };

  processFile(main, [(opts.fileName ?? 'model.cfg').toLowerCase()]);
  return { tokens: out, files, macros };
}
