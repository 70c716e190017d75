/**
 * Tokens of the config language (model.cfg, config.cpp) with where they came from, so that the
 * parser can point at file, line and column and the document can write an edited value in place.
 */

/** A place in one source file: the file's index in the preprocessor's file list and a char range. */
export interface Origin {
  file: number;
  start: number;
  end: number;
}

export type TokenKind = 'id' | 'num' | 'str' | 'punct' | 'nl' | 'other';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Where the token's characters are (for a token made by a macro: where the macro was used). */
  at: Origin;
  /** Whitespace or a comment came before it on its line (stringizing and unquoted text keep it). */
  space: boolean;
  /** The outermost macro this token came out of; absent for tokens written in the file itself. */
  macro?: string;
}

/** The error every model.cfg failure throws: file, line and column of the cause. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly detail: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  constructor(detail: string, file: string, line: number, column: number) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.detail = detail;
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

/** Line starts of a text, for offset -> line/column. */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  return out;
}

/** 1-based line and column of `offset` in a text with the given line starts. */
export function lineColumn(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

const isIdStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdPart = (c: number): boolean => isIdStart(c) || isDigit(c);

/**
 * Splits a text into tokens. Comments and whitespace are dropped (they only set `space`);
 * newlines are tokens because directives end at them; a backslash before a newline joins lines.
 * `fail(message, offset)` is called for an unterminated string or comment and must throw.
 */
export function lex(text: string, file: number, fail: (message: string, offset: number) => never): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  let space = false;
  const push = (kind: TokenKind, start: number, end: number): void => {
    out.push({ kind, text: text.slice(start, end), at: { file, start, end }, space });
    space = false;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      push('nl', i, i + 1);
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xfeff) {
      space = true;
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      // Line continuation: backslash, optional CR, newline.
      let j = i + 1;
      if (text.charCodeAt(j) === 13) j++;
      if (text.charCodeAt(j) === 10) {
        space = true;
        i = j + 1;
        continue;
      }
    }
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      space = true;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated /* comment', i);
      // A newline inside a comment still ends a directive line, as it does for the game's tools.
      for (let k = i; k < end; k++) if (text.charCodeAt(k) === 10) push('nl', k, k + 1);
      i = end + 2;
      space = true;
      continue;
    }
    if (c === 34 /* " */) {
      let j = i + 1;
      for (;;) {
        if (j >= n || text.charCodeAt(j) === 10) fail('unterminated string', i);
        if (text.charCodeAt(j) === 34) {
          if (text.charCodeAt(j + 1) === 34) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      push('str', i, j + 1);
      i = j + 1;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(text.charCodeAt(j))) j++;
      push('id', i, j);
      i = j;
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
      const j = numberEnd(text, i);
      // `1st`, `3d_model`: digits running into letters are one word, not a number.
      let k = j;
      while (k < n && isIdPart(text.charCodeAt(k))) k++;
      push(k > j ? 'id' : 'num', i, k);
      i = k;
      continue;
    }
    if (c === 35 /* # */ && text.charCodeAt(i + 1) === 35) {
      push('punct', i, i + 2);
      i += 2;
      continue;
    }
    push('{}[]();:=,+-*/#<>%^!&|.'.includes(text[i]!) ? 'punct' : 'other', i, i + 1);
    i++;
  }
  return out;
}

/** End of the number starting at `i` (decimal with fraction/exponent, or 0x hex). */
export function numberEnd(text: string, i: number): number {
  const n = text.length;
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X') && /[0-9a-fA-F]/.test(text[i + 2] ?? '')) {
    let j = i + 2;
    while (j < n && /[0-9a-fA-F]/.test(text[j]!)) j++;
    return j;
  }
  let j = i;
  while (j < n && isDigit(text.charCodeAt(j))) j++;
  if (text[j] === '.') {
    j++;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  if ((text[j] === 'e' || text[j] === 'E') && (isDigit(text.charCodeAt(j + 1)) || ((text[j + 1] === '+' || text[j + 1] === '-') && isDigit(text.charCodeAt(j + 2))))) {
    j += 2;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  return j;
}

/** The value of a config string token: quotes removed, `""` -> `"`. */
export function unquote(s: string): string {
  return s.slice(1, -1).replace(/""/g, '"');
}

/** A string as the config language writes it. */
export function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
