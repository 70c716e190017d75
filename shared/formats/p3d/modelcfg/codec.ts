/**
 * The `p3d-modelcfg` codec: model.cfg opened as a document of its own (the structure tree shows
 * its classes, the inspector their values). The document keeps the text as read
 * (document.ts); the tree the editor edits mirrors its parsed classes entry by entry, and saving
 * writes each changed value in place of its own characters, so an untouched file saves
 * byte-identical and an edited one keeps its comments, layout and macros.
 *
 * Values written by a macro or in an included file have no characters of their own in the file:
 * the inspector shows them read-only and an edit of one is refused, naming where to edit instead.
 */
import { batchRefusal, type EditCommand } from '../../../model/commands.ts';
import type { Inspection, InspectField, OutlineNode } from '../../../model/outline.ts';
import type { NodePath } from '../../../model/path.ts';
import type { Problem } from '../../../model/problems.ts';
import type { Span } from '../../../binary/span.ts';
import { DecodeError, EncodeError } from '../../../errors.ts';
import { emptyScene } from '../../../scene/scene.ts';
import type { DecodeOptions, FormatCodec, FormatInfo } from '../../registry.ts';
import { checkConfigAlone } from './checks.ts';
import { decodeModelCfg, encodeModelCfg, literal, type CfgEditValue, type ModelCfgDocument } from './document.ts';
import { ConfigError, lineStarts, type Origin } from './lexer.ts';
import { animationSources, readModelCfg } from './model.ts';
import type { CfgClass, CfgEntry, CfgValue } from './parse.ts';
import { describe } from './preprocess.ts';
import { probeModelCfg } from './probe.ts';

/** A value as the editor holds it: a number, a text (quoted or not), or an array of values. */
export type CfgPlain = number | string | CfgPlain[];

export interface CfgTreeClass {
  kind: 'class';
  name: string;
  base?: string;
  /** `class Name;`: declared, defined elsewhere. */
  external?: boolean;
  entries: CfgTreeEntry[];
}
export interface CfgTreeProperty {
  kind: 'property';
  name: string;
  /** `name[] += {...}`. */
  append?: boolean;
  value: CfgPlain;
}
export interface CfgTreeDelete {
  kind: 'delete';
  name: string;
}
export type CfgTreeEntry = CfgTreeClass | CfgTreeProperty | CfgTreeDelete;

/** The editor's model.cfg: the classes as plain data, over the text they were read from. */
export interface ModelCfgFile {
  root: CfgTreeClass;
  /** The text as read (never edited: `encode` writes the tree's changes into a copy). */
  source: ModelCfgDocument;
}

function plainOf(v: CfgValue): CfgPlain {
  return v.kind === 'array' ? v.items.map(plainOf) : v.value;
}

function treeOf(c: CfgClass): CfgTreeClass {
  return {
    kind: 'class',
    name: c.name,
    ...(c.base !== undefined ? { base: c.base } : {}),
    ...(c.external ? { external: true } : {}),
    entries: c.entries.map((e): CfgTreeEntry => (e.type === 'class' ? treeOf(e) : e.type === 'value' ? { kind: 'property', name: e.name, ...(e.append ? { append: true } : {}), value: plainOf(e.value) } : { kind: 'delete', name: e.name })),
  };
}

/** Byte offset of a place in the main file (the text's characters are bytes unless it is UTF-8 beyond ASCII). */
function byteOffset(doc: ModelCfgDocument, charOffset: number): number {
  if (doc.encoding === 'latin1') return charOffset;
  let n = 0;
  for (let i = 0; i < charOffset && i < doc.text.length; i++) {
    const c = doc.text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function spanOf(doc: ModelCfgDocument, at: Origin | undefined): Span | undefined {
  if (!at || at.file !== 0) return undefined;
  return [byteOffset(doc, at.start), byteOffset(doc, at.end)];
}

/** A ConfigError (file, line, column) as the codecs' DecodeError: the byte offset in the main file. */
function decodeError(e: ConfigError, text: string, mainName: string, encodingOf: (chars: number) => number): DecodeError {
  let offset = 0;
  if (e.file === mainName) {
    const starts = lineStarts(text);
    const lineStart = starts[e.line - 1] ?? text.length;
    offset = encodingOf(Math.min(text.length, lineStart + e.column - 1));
  }
  return new DecodeError(e.detail, offset, `${e.file}:${e.line}:${e.column}`);
}

export function decodeModelCfgFile(bytes: Uint8Array, opts: DecodeOptions = {}): ModelCfgFile {
  const fileName = opts.fileName ?? 'model.cfg';
  let source: ModelCfgDocument;
  try {
    source = decodeModelCfg(bytes, { fileName, ...(opts.readInclude ? { readInclude: opts.readInclude } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) {
      const { text, encoding } = textOf(bytes);
      throw decodeError(e, text, fileName, (c) => byteOffset({ text, encoding } as ModelCfgDocument, c));
    }
    throw e;
  }
  return { root: treeOf(source.root), source };
}

function textOf(bytes: Uint8Array): { text: string; encoding: ModelCfgDocument['encoding'] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('latin1').decode(bytes), encoding: 'latin1' };
  }
}

function samePlain(a: CfgPlain, b: CfgPlain): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, k) => samePlain(x, b[k]!));
  return a === b || (typeof a === 'number' && typeof b === 'number' && Object.is(a, b));
}

interface Change {
  at: Origin;
  text: string;
}

/** The text changes that turn `orig` into `now`: the smallest spans that hold a difference. */
function valueChanges(now: CfgPlain, orig: CfgValue, where: string, out: Change[]): void {
  if (samePlain(now, plainOf(orig))) return;
  // Same length: only the items that differ are written (an unchanged item a macro wrote stays).
  if (Array.isArray(now) && orig.kind === 'array' && now.length === orig.items.length) {
    now.forEach((x, k) => valueChanges(x, orig.items[k]!, `${where}[${k}]`, out));
    return;
  }
  if (!orig.span || orig.span.file !== 0) throw new EncodeError('the value was written by a macro or in an included file and cannot be changed here', where);
  out.push({ at: orig.span, text: literal(now as CfgEditValue, orig) });
}

function classChanges(now: CfgTreeClass, orig: CfgClass, where: string, out: Change[]): void {
  if (now.entries.length !== orig.entries.length) throw new EncodeError('classes and values can only be edited in place, not added or removed', where);
  now.entries.forEach((e, k) => {
    const o = orig.entries[k]!;
    const at = `${where}/${e.name}`;
    if (e.kind === 'class' && o.type === 'class') classChanges(e, o, at, out);
    else if (e.kind === 'property' && o.type === 'value') valueChanges(e.value, o.value, at, out);
    else if (e.kind !== 'delete' || o.type !== 'delete') throw new EncodeError('an entry changed its kind', at);
  });
}

/** The file's text with the tree's changes written in; the text as read when nothing changed. */
export function currentText(file: ModelCfgFile): string {
  const changes: Change[] = [];
  classChanges(file.root, file.source.root, '', changes);
  if (changes.length === 0) return file.source.text;
  changes.sort((a, b) => b.at.start - a.at.start);
  let text = file.source.text;
  for (const c of changes) text = text.slice(0, c.at.start) + c.text + text.slice(c.at.end);
  return text;
}

export function encodeModelCfgFile(file: ModelCfgFile): Uint8Array {
  const text = currentText(file);
  if (text === file.source.text) return encodeModelCfg(file.source);
  return encodeModelCfg({ ...file.source, text });
}

/** The source entry a tree path names (the tree mirrors the parse entry by entry). */
function sourceAt(file: ModelCfgFile, path: NodePath): CfgEntry | CfgValue | undefined {
  let cur = file.source.root as CfgEntry | CfgValue | undefined;
  for (let k = 1; k < path.length && cur; k++) {
    const seg = path[k];
    const entry: CfgEntry | undefined = 'type' in cur ? cur : undefined;
    const value: CfgValue | undefined = 'kind' in cur ? cur : undefined;
    if (seg === 'entries') {
      const i = path[++k];
      cur = entry?.type === 'class' && typeof i === 'number' ? entry.entries[i] : undefined;
    } else if (seg === 'value') cur = entry?.type === 'value' ? entry.value : undefined;
    else if (typeof seg === 'number') cur = value?.kind === 'array' ? value.items[seg] : undefined;
    else return undefined;
  }
  return cur;
}

/** The document after a re-parse of its current text (the config read for its meaning). */
const current = new WeakMap<ModelCfgFile, { text: string; doc: ModelCfgDocument | ConfigError }>();
function reparsed(file: ModelCfgFile): ModelCfgDocument | ConfigError {
  const text = currentText(file);
  if (text === file.source.text) return file.source;
  const hit = current.get(file);
  if (hit?.text === text) return hit.doc;
  let doc: ModelCfgDocument | ConfigError;
  try {
    doc = decodeModelCfg(encodeModelCfg({ ...file.source, text }), file.source.options);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    doc = e;
  }
  current.set(file, { text, doc });
  return doc;
}

export function modelCfgInfo(file: ModelCfgFile, byteLength: number): FormatInfo {
  const cfg = readModelCfg(file.source);
  return {
    format: 'p3d-modelcfg',
    version: 'text',
    bytes: byteLength,
    meshes: [],
    materials: [],
    bones: [...new Set(cfg.skeletons.flatMap((s) => s.bones.map((b) => b.name)))],
    animations: [],
    encoding: file.source.encoding,
    includes: file.source.files.slice(1).map((f) => f.name),
    macros: file.source.macros.size,
    skeletons: cfg.skeletons.map((s) => ({ name: s.name, isDiscrete: s.isDiscrete, ...(s.inherit ? { inherit: s.inherit } : {}), bones: s.bones.map((b) => (b.parent ? `${b.name} < ${b.parent}` : b.name)) })),
    models: cfg.models.map((m) => ({
      name: m.name,
      skeleton: m.skeletonName,
      sections: m.sections.length,
      animations: m.animations.map((a) => `${a.name} (${a.typeText || '?'}, ${a.selection || 'no selection'}, source ${a.source})`),
      sources: animationSources(m).map((s) => `${s.name} ${s.min}..${s.max}`),
    })),
  };
}

export function validateModelCfgFile(file: ModelCfgFile): Problem[] {
  const doc = reparsed(file);
  if (doc instanceof ConfigError) return [{ severity: 'error', message: doc.detail, where: `${doc.file}:${doc.line}:${doc.column}` }];
  const cfg = readModelCfg(doc);
  return checkConfigAlone(cfg).map((p) => ({ severity: p.severity, message: p.message, where: `${p.at.file}:${p.at.line}:${p.at.column}` }));
}

/** Outline node kinds by the class a class sits in (CfgSkeletons' classes are skeletons, and so on). */
function kindOf(parentName: string, name: string): OutlineNode['kind'] {
  const p = parentName.toLowerCase();
  if (p === 'cfgskeletons') return 'skeleton';
  if (p === 'animations') return 'animation';
  if (p === 'cfgmodels') return 'mesh';
  if (name.toLowerCase() === 'animations') return 'container';
  return 'node';
}

export function modelCfgOutline(file: ModelCfgFile): OutlineNode {
  const walk = (c: CfgTreeClass, o: CfgClass, path: NodePath, parentName: string): OutlineNode[] =>
    c.entries.flatMap((e, k): OutlineNode[] => {
      const src = o.entries[k];
      if (e.kind !== 'class' || src?.type !== 'class') return [];
      const p: NodePath = [...path, 'entries', k];
      const props = e.entries.filter((x) => x.kind === 'property').length;
      const span = spanOf(file.source, src.at);
      const children = walk(e, src, p, e.name);
      return [{
        path: p,
        name: e.name,
        ...(e.base ? { label: `: ${e.base}` } : e.external ? { label: '(declared)' } : {}),
        kind: kindOf(parentName, e.name),
        ...(props ? { count: props } : {}),
        ...(span ? { span } : {}),
        ...(children.length ? { children } : {}),
      }];
    });
  const classes = file.root.entries.filter((e) => e.kind === 'class').length;
  return { path: [], name: file.source.fileName.replace(/^.*[\\/]/, ''), label: `model config, ${classes} top-level class${classes === 1 ? '' : 'es'}`, kind: 'file', children: walk(file.root, file.source.root, ['root'], '') };
}

/** Where a value that cannot be edited here was written, for the inspector's note. */
function writtenElsewhere(doc: ModelCfgDocument, v: CfgValue): string | undefined {
  if (v.span && v.span.file === 0) return undefined;
  const d = describe(doc.files, v.at);
  return d.file === doc.fileName ? `written by the macro (or __EVAL) used at ${d.file}:${d.line}: edit it there` : `written in ${d.file}:${d.line}: edit that file`;
}

function valueFields(file: ModelCfgFile, name: string, now: CfgPlain, orig: CfgValue | undefined, path: NodePath, out: InspectField[]): void {
  if (Array.isArray(now)) {
    if (now.length === 0) {
      out.push({ name: `${name}`, kind: 'array', path, value: '{}', readonly: true, note: 'an empty array' });
      return;
    }
    now.forEach((x, k) => valueFields(file, `${name}[${k}]`, x, orig?.kind === 'array' ? orig.items[k] : undefined, [...path, k], out));
    return;
  }
  const elsewhere = orig ? writtenElsewhere(file.source, orig) : 'not in the file as read';
  const span = orig ? spanOf(file.source, orig.span) : undefined;
  const asNumber = typeof now === 'number';
  const written = orig && orig.kind !== 'array' ? orig.kind : undefined;
  out.push({
    name,
    kind: asNumber ? 'f64' : 'string',
    path,
    value: now,
    ...(span ? { span } : {}),
    ...(elsewhere ? { readonly: true, note: elsewhere } : written === 'word' ? { note: 'written without quotes (the game evaluates it where a number is wanted)' } : written === 'string' && asNumber ? { note: 'a number written as a string' } : {}),
  });
}

export function modelCfgInspect(file: ModelCfgFile, path: NodePath): Inspection | undefined {
  if (path.length === 0) {
    const f = file.source;
    return {
      title: f.fileName.replace(/^.*[\\/]/, ''),
      fields: [
        { name: 'encoding', kind: 'string', path: ['source', 'encoding'], value: f.encoding === 'utf-8' ? 'UTF-8' : 'one byte per character (not UTF-8)', readonly: true },
        { name: 'includes', kind: 'string', path: ['source', 'files'], value: f.files.slice(1).map((x) => x.name).join(', ') || '(none)', readonly: true },
        { name: 'macros', kind: 'u32', path: ['source', 'macros'], value: f.macros.size, readonly: true, note: '#define names known at the end of the file' },
      ],
    };
  }
  let cls: CfgTreeClass | undefined = file.root;
  for (let k = 1; k < path.length; k += 2) {
    const i = path[k + 1];
    const next: CfgTreeEntry | undefined = path[k] === 'entries' && typeof i === 'number' ? cls?.entries[i] : undefined;
    cls = next?.kind === 'class' ? next : undefined;
  }
  const src = sourceAt(file, path);
  if (!cls || !src || !('type' in src) || src.type !== 'class') return undefined;
  const fields: InspectField[] = [];
  if (cls.base !== undefined) fields.push({ name: 'base class', kind: 'string', path: [...path, 'base'], value: cls.base, readonly: true, note: 'class Name: Base' });
  cls.entries.forEach((e, k) => {
    const o = src.entries[k];
    if (e.kind !== 'property' || o?.type !== 'value') return;
    valueFields(file, e.append ? `${e.name}[] +=` : Array.isArray(e.value) ? `${e.name}[]` : e.name, e.value, o.value, [...path, 'entries', k, 'value'], fields);
  });
  const d = describe(file.source.files, src.at);
  return { title: `class ${cls.name}${cls.base ? `: ${cls.base}` : ''} (${d.file.replace(/^.*[\\/]/, '')}:${d.line})`, fields };
}

/** Edits the inspector may make: a number or a text in place of a value that has characters of its own. */
export function checkModelCfgEdit(file: ModelCfgFile, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return batchRefusal(cmd.commands, (c) => checkModelCfgEdit(file, c));
  if (cmd.op !== 'set') return 'classes and values can only be edited in place, not added, removed or moved';
  const i = cmd.path.indexOf('value');
  if (i < 0 || cmd.path[0] !== 'root') return 'only values can be edited';
  const orig = sourceAt(file, cmd.path);
  if (!orig || 'type' in orig) return 'no such value';
  const v = cmd.value;
  const ok = (x: unknown): boolean => (typeof x === 'number' && Number.isFinite(x)) || typeof x === 'string' || (Array.isArray(x) && x.every(ok));
  if (!ok(v)) return 'a value is a finite number, a text or an array of them';
  if (typeof v === 'string' && /[\r\n]/.test(v)) return 'a text value cannot hold a line break';
  if (file.source.encoding === 'latin1' && typeof v === 'string' && [...v].some((c) => c.charCodeAt(0) > 0xff)) return 'the file is not UTF-8: only characters of one byte can be written';
  const elsewhere = writtenElsewhere(file.source, orig);
  if (elsewhere) return `the value was ${elsewhere}`;
  return undefined;
}

export const modelCfgCodec: FormatCodec<ModelCfgFile> = {
  id: 'p3d-modelcfg',
  label: 'Arma model config (model.cfg)',
  extensions: ['.cfg'],
  probe: probeModelCfg,
  decode: decodeModelCfgFile,
  encode: encodeModelCfgFile,
  info: modelCfgInfo,
  validate: validateModelCfgFile,
  toScene: () => ({ ...emptyScene(), warnings: ['a model.cfg draws nothing on its own: open the model beside it to see its animations'] }),
  outline: modelCfgOutline,
  inspect: modelCfgInspect,
  checkEdit: checkModelCfgEdit,
  includes: true,
};
