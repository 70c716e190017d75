/**
 * model.cfg as a lossless document: the text as read, and the class tree parsed from its
 * preprocessed tokens. Saving an untouched document gives back the bytes it was read from; an
 * edited value replaces only its own characters in the text (comments, layout, macros and every
 * other value stay as written), and the tree is parsed again from the new text.
 */
import { ConfigError, quote, type Origin } from './lexer.ts';
import { parseTokens, type CfgClass, type CfgEntry, type CfgProperty, type CfgValue } from './parse.ts';
import { describe, preprocess, type Macro, type PreprocessOptions, type ReadInclude, type SourceFile } from './preprocess.ts';

export interface ModelCfgDocument {
  fileName: string;
  /** The main file's text. */
  text: string;
  /** How `text` maps to bytes: UTF-8 when the bytes are valid UTF-8, else one byte per char. */
  encoding: 'utf-8' | 'latin1';
  /** The root class: top-level entries (CfgSkeletons, CfgModels, ...). */
  root: CfgClass;
  /** The main file (index 0) and every file it included. */
  files: SourceFile[];
  macros: Map<string, Macro>;
  /** What the document was read with, for parsing again after an edit. */
  options: ModelCfgReadOptions;
}

export interface ModelCfgReadOptions {
  fileName?: string;
  readInclude?: ReadInclude;
  defines?: PreprocessOptions['defines'];
  maxTokens?: number;
}

/** Parses model.cfg text. Throws ConfigError (file, line, column). */
export function parseModelCfg(text: string, opts: ModelCfgReadOptions = {}, encoding: ModelCfgDocument['encoding'] = 'utf-8'): ModelCfgDocument {
  const fileName = opts.fileName ?? 'model.cfg';
  const pre = preprocess(text, { ...opts, fileName });
  const root = parseTokens(pre.tokens, pre.files);
  return { fileName, text, encoding, root, files: pre.files, macros: pre.macros, options: opts };
}

/** Bytes -> document. The text keeps a BOM as its first character so it is written back. */
export function decodeModelCfg(bytes: Uint8Array, opts: ModelCfgReadOptions = {}): ModelCfgDocument {
  const { text, encoding } = bytesToText(bytes);
  return parseModelCfg(text, opts, encoding);
}

export function bytesToText(bytes: Uint8Array): { text: string; encoding: ModelCfgDocument['encoding'] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    let s = '';
    for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return { text: s, encoding: 'latin1' };
  }
}

export function encodeModelCfg(doc: ModelCfgDocument): Uint8Array {
  if (doc.encoding === 'utf-8') return new TextEncoder().encode(doc.text);
  const out = new Uint8Array(doc.text.length);
  for (let i = 0; i < doc.text.length; i++) out[i] = doc.text.charCodeAt(i) & 0xff;
  return out;
}

/** A path to an entry: class names down to a property, then array indices. Case-insensitive. */
export type CfgPath = readonly (string | number)[];

/** The entry a path names in the tree as written (no inheritance), or undefined. */
export function entryAt(root: CfgClass, path: CfgPath): CfgEntry | CfgValue | undefined {
  let cur: CfgEntry | CfgValue | undefined = root;
  for (const seg of path) {
    if (cur === undefined) return undefined;
    if (typeof seg === 'number') {
      const v: CfgValue | undefined = 'kind' in cur ? cur : cur.type === 'value' ? cur.value : undefined;
      cur = v?.kind === 'array' ? v.items[seg] : undefined;
    } else if ('type' in cur && cur.type === 'class') {
      const lower = seg.toLowerCase();
      cur = [...cur.entries].reverse().find((e) => e.name.toLowerCase() === lower);
    } else return undefined;
  }
  return cur;
}

/** A value the inspector may write: a number, a string, or an array of them. */
export type CfgEditValue = number | string | CfgEditValue[];

/** A word the game reads back as the same unquoted text (`rad 45`, `-3.14159/2`; no comment, quote or separator). */
const wordSafe = (v: string): boolean => v !== '' && v.trim() === v && /^[^";,{}\r\n]+$/.test(v) && !/\/[/*]/.test(v);

/**
 * The text that writes `v` where `like` was: arrays item by item; a number where a string was stays
 * a string, an unquoted word stays unquoted when it can be read back unchanged, anything else is quoted.
 */
export function literal(v: CfgEditValue, like: CfgValue | undefined): string {
  if (Array.isArray(v)) {
    const items = like?.kind === 'array' ? like.items : [];
    return `{${v.map((x, k) => literal(x, items[k] ?? items[0])).join(', ')}}`;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`${v} is not a value a config can hold`);
    // A number written as a string stays a string ("-1.2" -> "0.5"): the file's style is kept.
    return like?.kind === 'string' ? quote(String(v)) : String(v);
  }
  if (like?.kind === 'word' && wordSafe(v)) return v;
  return quote(v);
}

/**
 * Writes `value` in place of the value at `path` (a property, or an item of an array property)
 * and parses the document again. Throws ConfigError when the value was written by a macro or in
 * an included file (edit the #define or that file instead), or when the new text does not parse.
 */
export function setValue(doc: ModelCfgDocument, path: CfgPath, value: CfgEditValue): ModelCfgDocument {
  const e = entryAt(doc.root, path);
  const target: CfgValue | undefined = e && 'type' in e ? (e.type === 'value' ? e.value : undefined) : (e as CfgValue | undefined);
  const where = (at: Origin): ConfigError => {
    const d = describe(doc.files, at);
    return new ConfigError(`${path.join('/')}: the value was written by a macro or in an included file; edit it there`, d.file, d.line, d.column);
  };
  if (!target) throw new ConfigError(`${path.join('/')}: no such value`, doc.fileName, 1, 1);
  if (!target.span || target.span.file !== 0) throw where(target.at);
  const text = doc.text.slice(0, target.span.start) + literal(value, target) + doc.text.slice(target.span.end);
  return parseModelCfg(text, doc.options, doc.encoding);
}

/** The property entries of a class as written (no inheritance), by lower-case name, last wins. */
export function ownProperties(c: CfgClass): Map<string, CfgProperty> {
  const m = new Map<string, CfgProperty>();
  for (const e of c.entries) if (e.type === 'value') m.set(e.name.toLowerCase(), e);
  return m;
}
