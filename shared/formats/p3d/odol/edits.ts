/**
 * Model-level edits for ODOL, each an ordinary EditCommand (so undo, dirty tracking and the
 * lossless encoder treat them like any other edit): LOD resolutions, named properties, texture and
 * material paths, proxies.
 */
import { batchRefusal, type EditCommand } from '../../../model/commands.ts';
import { getAt, type NodePath } from '../../../model/path.ts';
import type { OdolDocument } from './document.ts';
import type { OdolLod } from './lod.ts';
import type { OdolV4xDocument } from './model.ts';
import { blankOf, modelInfoHead, modelInfoTail, proxyStruct, lodBounds, loadableLodInfo, sectionHead } from './schema.ts';
import { v7Footer, v7Proxy, type OdolV7Lod } from './v7.ts';

type AnyLod = OdolLod | OdolV7Lod;

/** Sets the resolution of LOD `lod`. */
export function setResolution(lod: number, value: number): EditCommand {
  return { op: 'set', path: ['lods', lod, 'resolution'], value, label: 'Set LOD resolution' };
}

/** Adds the named property, or changes its value when the LOD already has it. */
export function setNamedProperty(doc: OdolDocument, lod: number, name: string, value: string): EditCommand {
  const props = (doc.lods[lod] as AnyLod).namedProperties;
  const i = props.findIndex((p) => p.name.toLowerCase() === name.toLowerCase());
  if (i >= 0) return { op: 'set', path: ['lods', lod, 'namedProperties', i, 'value'], value, label: `Set property ${name}` };
  return { op: 'insert', path: ['lods', lod, 'namedProperties'], index: props.length, value: { name, value }, label: `Add property ${name}` };
}

/** Removes the named property (undefined when the LOD does not have it). */
export function removeNamedProperty(doc: OdolDocument, lod: number, name: string): EditCommand | undefined {
  const i = (doc.lods[lod] as AnyLod).namedProperties.findIndex((p) => p.name.toLowerCase() === name.toLowerCase());
  return i < 0 ? undefined : { op: 'remove', path: ['lods', lod, 'namedProperties', i], label: `Remove property ${name}` };
}

export interface ReplaceOptions {
  textures?: boolean;
  materials?: boolean;
  /** Case-insensitive match (P3D paths are), default true. */
  ignoreCase?: boolean;
}

/**
 * Replaces texture and/or material paths across every LOD: a path equal to `from` becomes `to`,
 * and a path starting with `from` followed by a backslash has that prefix replaced (folder moves).
 * Returns one batch command, or undefined when nothing matches.
 */
export function replacePaths(doc: OdolDocument, from: string, to: string, opts: ReplaceOptions = {}): EditCommand | undefined {
  const doTex = opts.textures ?? true;
  const doMat = opts.materials ?? true;
  const ic = opts.ignoreCase ?? true;
  const norm = (s: string): string => (ic ? s.toLowerCase() : s);
  const f = norm(from);
  const swap = (p: string): string | undefined => {
    const q = norm(p);
    if (q === f) return to;
    if (q.startsWith(f.endsWith('\\') ? f : `${f}\\`)) return to + p.slice(from.length);
    return undefined;
  };
  const cmds: EditCommand[] = [];
  const set = (path: NodePath, old: string): void => {
    const nv = swap(old);
    if (nv !== undefined && nv !== old) cmds.push({ op: 'set', path, value: nv });
  };
  (doc.lods as AnyLod[]).forEach((lod, i) => {
    if (doTex) lod.textures.forEach((t, k) => set(['lods', i, 'textures', k], t));
    if ('materials' in lod) {
      lod.materials.forEach((m, k) => {
        if (doMat) set(['lods', i, 'materials', k, 'name'], m.name);
        if (doTex) {
          m.stageTextures.forEach((s, j) => set(['lods', i, 'materials', k, 'stageTextures', j, 'texture'], s.texture));
          if (m.stageTI) set(['lods', i, 'materials', k, 'stageTI', 'texture'], m.stageTI.texture);
        }
      });
      if (doMat) lod.sections.forEach((s, k) => s.material !== undefined && set(['lods', i, 'sections', k, 'material'], s.material));
    }
  });
  return cmds.length ? { op: 'batch', commands: cmds, label: `Replace ${from}` } : undefined;
}

/** Renames proxy `index` of LOD `lod` and/or sets its transform (12 numbers: 3x3 rows then position). */
export function setProxy(doc: OdolDocument, lod: number, index: number, change: { name?: string; transform?: number[] }): EditCommand {
  const cmds: EditCommand[] = [];
  if (change.name !== undefined) cmds.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'name'], value: change.name });
  if (change.transform !== undefined) {
    if (doc.version === 7) {
      cmds.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'rotation'], value: change.transform.slice(0, 9) });
      cmds.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'translation'], value: change.transform.slice(9, 12) });
    } else {
      cmds.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'transform'], value: change.transform.slice(0, 12) });
    }
  }
  return { op: 'batch', commands: cmds, label: 'Edit proxy' };
}

/** A new node for the tree's "add" actions: a proxy or a named property at the end of a LOD's list. */
export function createOdolNode(doc: OdolDocument, parent: NodePath, kind: string): EditCommand | undefined {
  if (parent.length !== 3 || parent[0] !== 'lods' || typeof parent[1] !== 'number') return undefined;
  const lod = doc.lods[parent[1]] as AnyLod | undefined;
  if (!lod) return undefined;
  if (kind === 'property' && parent[2] === 'namedProperties') {
    return { op: 'insert', path: parent, index: lod.namedProperties.length, value: { name: 'property', value: '' }, label: 'Add property' };
  }
  if (kind === 'proxy' && parent[2] === 'proxies') {
    const value =
      doc.version === 7
        ? { name: 'proxy', rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] }
        : { ...blankOf(proxyStruct(doc.version)), name: 'proxy', transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], namedSelectionIndex: -1, boneIndex: -1, ...(doc.version >= 40 ? { sectionIndex: -1 } : {}) };
    return { op: 'insert', path: parent, index: lod.proxies.length, value, label: 'Add proxy' };
  }
  return undefined;
}

const isPath = (v: unknown): v is string => typeof v === 'string' && !v.includes('\0');

/** Refuses values that cannot be written: the schema check for fixed records, text without NULs, finite resolutions. */
export function checkOdolEdit(doc: OdolDocument, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return batchRefusal(cmd.commands, (c) => checkOdolEdit(doc, c));
  if (cmd.op !== 'set') {
    // LODs live in several parallel tables (resolutions, offsets, face defaults, ModelInfo LOD
    // indices): a bare list edit would tear them apart.
    const list = cmd.op === 'remove' ? cmd.path.slice(0, -1) : cmd.path;
    if (list.length === 1 && (list[0] === 'lods' || list[0] === 'lodInfo')) return 'LODs cannot be added, removed or reordered by a list edit';
    return undefined;
  }
  const p = cmd.path;
  const key = p[p.length - 1];
  if (p.includes('packed')) return 'the compressed stream is kept as stored: edit the values (they are compressed again on save)';
  const shape = p.map((k) => (typeof k === 'number' ? '#' : k)).join('/');
  if (shape === 'lods/#/resolution') return typeof cmd.value === 'number' && Number.isFinite(cmd.value) ? undefined : 'a resolution must be a finite number';
  if (/^lods\/#\/textures\/#$/.test(shape) || /(name|value|texture|material)$/.test(String(key))) {
    if (typeof getAt(doc, p) === 'string' && !isPath(cmd.value)) return 'must be text without NUL characters';
  }
  if (key === 'transform' && (!Array.isArray(cmd.value) || cmd.value.length !== 12 || cmd.value.some((x) => typeof x !== 'number'))) return 'a proxy transform is 12 numbers';
  const parent = shape.split('/').slice(0, -1).join('/');
  const v = doc.version;
  const schema = v === 7
    ? ({ 'lods/#/proxies/#': v7Proxy, footer: v7Footer } as Record<string, { checkField(n: string, x: unknown): string | undefined }>)[parent]
    : ({
        'modelInfo/head': modelInfoHead(v), 'modelInfo/tail': modelInfoTail(v, doc.lods.length), 'lods/#/bounds': lodBounds(v),
        'lods/#/proxies/#': proxyStruct(v), 'lods/#/sections/#': sectionHead, 'lodInfo/#/info': loadableLodInfo(v),
      } as Record<string, { checkField(n: string, x: unknown): string | undefined }>)[parent];
  if (schema && typeof key === 'string') return schema.checkField(key, cmd.value);
  return undefined;
}

export type { OdolV4xDocument };
