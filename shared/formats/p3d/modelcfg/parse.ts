/**
 * The config language's grammar over preprocessed tokens:
 *
 *     class Name: Base { ... };   class Name;   delete Name;
 *     name = value;   name[] = { value, { nested }, ... };   name[] += { ... };
 *
 * A value is a string ("a ""quoted"" word"), a number (`1`, `-0.5`, `1e-3`, `0x10`) or anything
 * else up to `;` (or `,` / `}` in an array), which the game takes as the text written (unquoted
 * strings; `-3.14159/2` and `rad 45` are evaluated where a number is wanted, see model.ts).
 */
import { ConfigError, unquote, type Origin, type Token } from './lexer.ts';
import { describe, type SourceFile } from './preprocess.ts';

export interface CfgScalar {
  kind: 'string' | 'number' | 'word';
  /** The value: the string without quotes, the number, or the unquoted text. */
  value: string | number;
  /** The text as written (joined tokens for a word). */
  text: string;
  /** Where the value is. */
  at: Origin;
  /** The characters to replace when the value is edited; absent when a macro or include wrote it. */
  span?: Origin;
}

export interface CfgArray {
  kind: 'array';
  items: CfgValue[];
  at: Origin;
  /** From `{` to `}`, when written in one file without macros. */
  span?: Origin;
}

export type CfgValue = CfgScalar | CfgArray;

export interface CfgProperty {
  type: 'value';
  name: string;
  value: CfgValue;
  /** `name[] += {...}`: appends to the inherited array. */
  append?: boolean;
  /** Where the name is. */
  at: Origin;
}

export interface CfgClass {
  type: 'class';
  name: string;
  base?: string;
  /** `class Name;`: a declaration of a class defined elsewhere (no body). */
  external?: boolean;
  entries: CfgEntry[];
  at: Origin;
}

export interface CfgDelete {
  type: 'delete';
  name: string;
  at: Origin;
}

export type CfgEntry = CfgClass | CfgProperty | CfgDelete;

/** Nesting of classes and arrays allowed (the fuzzer's inputs must not exhaust the stack). */
const MAX_NESTING = 64;

export function parseTokens(tokens: readonly Token[], files: readonly SourceFile[]): CfgClass {
  let i = 0;
  const eofAt = (): Origin => {
    const last = tokens[tokens.length - 1];
    return last ? { ...last.at, start: last.at.end } : { file: 0, start: 0, end: 0 };
  };
  const fail = (message: string, t: Token | undefined): never => {
    const d = describe(files, t?.at ?? eofAt());
    throw new ConfigError(message, d.file, d.line, d.column);
  };
  const peek = (k = 0): Token | undefined => tokens[i + k];
  const expect = (text: string, what: string): Token => {
    const t = tokens[i];
    if (t?.text !== text) fail(`expected ${text} ${what}${t ? `, found ${t.text}` : ', found the end of the file'}`, t);
    i++;
    return t!;
  };
  const ident = (what: string): Token => {
    const t = tokens[i];
    // Class and property names may start with a digit in real configs (`class 1st`); the lexer
    // makes those words; plain numbers are accepted as names too (`class 0`).
    if (t?.kind !== 'id' && t?.kind !== 'num') fail(`expected ${what}${t ? `, found ${t.text}` : ', found the end of the file'}`, t);
    i++;
    return t!;
  };

  /** Span covering tokens [a, b) when they all come from one file and no macro. */
  const spanOf = (a: number, b: number): Origin | undefined => {
    const first = tokens[a];
    const last = tokens[b - 1];
    if (!first || !last || b <= a) return undefined;
    for (let k = a; k < b; k++) if (tokens[k]!.macro !== undefined || tokens[k]!.at.file !== first.at.file) return undefined;
    if (first.at.file !== 0) return undefined;
    return { file: first.at.file, start: first.at.start, end: last.at.end };
  };

  const scalar = (stops: string[]): CfgScalar => {
    const a = i;
    while (i < tokens.length && !stops.includes(tokens[i]!.text)) {
      if (tokens[i]!.text === '{' || tokens[i]!.text === '}') break;
      i++;
    }
    if (i >= tokens.length) fail('value without ;', tokens[a]);
    const toks = tokens.slice(a, i);
    if (toks.length === 0) fail('missing value', tokens[i]);
    const at = toks[0]!.at;
    const span = spanOf(a, i);
    const base = { at, ...(span ? { span } : {}) };
    if (toks.length === 1 && toks[0]!.kind === 'str') return { kind: 'string', value: unquote(toks[0]!.text), text: toks[0]!.text, ...base };
    const numText = toks.length === 1 ? toks[0]!.text : toks.length === 2 && (toks[0]!.text === '-' || toks[0]!.text === '+') && !toks[1]!.space ? toks[0]!.text + toks[1]!.text : '';
    if (numText && (toks[toks.length - 1]!.kind === 'num')) {
      const v = Number(numText);
      if (Number.isFinite(v)) return { kind: 'number', value: v, text: numText, ...base };
    }
    // Two strings side by side, or a string with more: the game keeps the text as written.
    const text = toks.map((t, k) => (k > 0 && t.space ? ' ' : '') + t.text).join('');
    return { kind: 'word', value: text, text, ...base };
  };

  const array = (depth: number): CfgArray => {
    if (depth > MAX_NESTING) fail(`arrays nested deeper than ${MAX_NESTING}`, peek());
    const a = i;
    const open = expect('{', 'to start an array');
    const items: CfgValue[] = [];
    for (;;) {
      const t = peek();
      if (!t) fail('array without }', open);
      if (t!.text === '}') {
        i++;
        break;
      }
      items.push(t!.text === '{' ? array(depth + 1) : scalar([',', '}', ';']));
      const s = peek();
      if (s?.text === ',') i++;
      else if (s?.text !== '}') fail(`expected , or } in an array${s ? `, found ${s.text}` : ''}`, s ?? open);
    }
    const span = spanOf(a, i);
    return { kind: 'array', items, at: open.at, ...(span ? { span } : {}) };
  };

  const body = (depth: number, closing: boolean): CfgEntry[] => {
    if (depth > MAX_NESTING) fail(`classes nested deeper than ${MAX_NESTING}`, peek());
    const entries: CfgEntry[] = [];
    for (;;) {
      const t = peek();
      if (!t) {
        if (closing) fail('class without }', t);
        return entries;
      }
      if (t.text === '}') {
        if (!closing) fail('} without a class', t);
        return entries;
      }
      if (t.text === ';') {
        i++; // stray ; (real configs have `};;`): the game's tools accept it
        continue;
      }
      if (t.kind === 'id' && t.text === 'class') {
        i++;
        const name = ident('a class name');
        if (peek()?.text === ';') {
          i++;
          entries.push({ type: 'class', name: name.text, external: true, entries: [], at: name.at });
          continue;
        }
        let base: string | undefined;
        if (peek()?.text === ':') {
          i++;
          base = ident('a base class name').text;
        }
        expect('{', `after class ${name.text}`);
        const inner = body(depth + 1, true);
        expect('}', `to close class ${name.text}`);
        expect(';', `after class ${name.text}'s }`);
        entries.push({ type: 'class', name: name.text, ...(base !== undefined ? { base } : {}), entries: inner, at: name.at });
        continue;
      }
      if (t.kind === 'id' && t.text === 'delete') {
        i++;
        const name = ident('a class name to delete');
        expect(';', `after delete ${name.text}`);
        entries.push({ type: 'delete', name: name.text, at: name.at });
        continue;
      }
      const name = ident('a class or property name');
      if (peek()?.text === '[') {
        i++;
        expect(']', `after ${name.text}[`);
        let append = false;
        if (peek()?.text === '+' && peek(1)?.text === '=') {
          i += 2;
          append = true;
        } else expect('=', `after ${name.text}[]`);
        const value = array(depth + 1);
        expect(';', `after ${name.text}[]`);
        entries.push({ type: 'value', name: name.text, value, ...(append ? { append } : {}), at: name.at });
        continue;
      }
      expect('=', `after ${name.text}`);
      const value = peek()?.text === '{' ? array(depth + 1) : scalar([';']);
      expect(';', `after the value of ${name.text}`);
      entries.push({ type: 'value', name: name.text, value, at: name.at });
    }
  };

  const entries = body(0, false);
  return { type: 'class', name: '', entries, at: { file: 0, start: 0, end: 0 } };
}
