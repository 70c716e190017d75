/**
 * Edit helpers for MLOD: each returns a plain EditCommand (usually a batch) that the document
 * service applies and can undo; `checkMlodEdit` refuses edits that would make an invalid file.
 */
import { batchRefusal, type EditCommand } from '../../../model/commands.ts';
import { getAt, type NodePath } from '../../../model/path.ts';
import { parseResolutionName, resolutionName } from '../resolution.ts';
import { encodeText } from '../../../binary/text.ts';
import {
  END_OF_FILE, isSpecialTagName, weightByte,
  type MassTag, type MlodDocument, type MlodLod, type MlodTag, type PropertyTag, type SelectionTag,
} from './types.ts';

function lodAt(doc: MlodDocument, lod: number): MlodLod {
  const l = doc.lods[lod];
  if (!l) throw new RangeError(`no LOD ${lod}`);
  return l;
}

/** Index of the tag list slot before `#EndOfFile#` (where new tags go). */
function insertionIndex(lod: MlodLod): number {
  const end = lod.tags.findIndex((t) => t.type === 'end');
  return end >= 0 ? end : lod.tags.length;
}

/** Sets a LOD's resolution from a number or a name such as `Geometry` or `ShadowVolume 0`. */
export function setResolutionCommand(doc: MlodDocument, lod: number, resolution: number | string): EditCommand {
  lodAt(doc, lod);
  const value = typeof resolution === 'number' ? resolution : parseResolutionName(resolution);
  if (value === undefined) throw new RangeError(`"${String(resolution)}" is not a LOD resolution`);
  return { op: 'set', path: ['lods', lod, 'resolution'], value, label: `Set LOD ${lod} to ${resolutionName(value)}` };
}

/** Adds a named property, or changes its value when the LOD already has it (names compare case-insensitively). */
export function setPropertyCommand(doc: MlodDocument, lod: number, key: string, value: string): EditCommand {
  const l = lodAt(doc, lod);
  const i = l.tags.findIndex((t) => t.type === 'property' && t.key.toLowerCase() === key.toLowerCase());
  if (i >= 0) return { op: 'set', path: ['lods', lod, 'tags', i, 'value'], value, label: `Set property ${key}` };
  // After the last property, or before #EndOfFile#: where Object Builder keeps them.
  let at = -1;
  l.tags.forEach((t, k) => { if (t.type === 'property') at = k + 1; });
  if (at < 0) at = insertionIndex(l);
  const tag: PropertyTag = { type: 'property', name: '#Property#', key, value, ...(l.signature === 'P3DM' ? { active: 1 } : {}) };
  return { op: 'insert', path: ['lods', lod, 'tags'], index: at, value: tag, label: `Add property ${key}` };
}

/** Removes every property named `key` (case-insensitive); undefined when there is none. */
export function removePropertyCommand(doc: MlodDocument, lod: number, key: string): EditCommand | undefined {
  const l = lodAt(doc, lod);
  const idx = l.tags.flatMap((t, k) => (t.type === 'property' && t.key.toLowerCase() === key.toLowerCase() ? [k] : []));
  if (idx.length === 0) return undefined;
  // Highest index first so earlier indices stay valid while the batch runs.
  return { op: 'batch', commands: idx.reverse().map((k) => ({ op: 'remove', path: ['lods', lod, 'tags', k] })), label: `Remove property ${key}` };
}

export interface ReplacePathOptions {
  /** Which table: texture paths (default) or material paths. */
  kind?: 'texture' | 'material';
  /** Only these LODs (default: all). */
  lods?: number[];
  /** Compare case-insensitively and treat / and \ alike (default true: the game does). */
  loose?: boolean;
}

function normalisePath(p: string, loose: boolean): string {
  return loose ? p.replace(/\//g, '\\').toLowerCase() : p;
}

/**
 * Batch replace of a texture or material path in every LOD (one undo step). Faces refer to a
 * per-LOD table of distinct paths, so each matching table entry is one `set`.
 * Returns undefined when nothing matches.
 */
export function replacePathCommand(doc: MlodDocument, from: string, to: string, opts: ReplacePathOptions = {}): EditCommand | undefined {
  const kind = opts.kind ?? 'texture';
  const loose = opts.loose ?? true;
  const want = normalisePath(from, loose);
  const commands: EditCommand[] = [];
  doc.lods.forEach((l, li) => {
    if (opts.lods && !opts.lods.includes(li)) return;
    const table = kind === 'texture' ? l.faces.textures : l.faces.materials;
    table.forEach((p, k) => {
      if (normalisePath(p, loose) === want && p !== to) {
        commands.push({ op: 'set', path: ['lods', li, 'faces', kind === 'texture' ? 'textures' : 'materials', k], value: to });
      }
    });
  });
  if (commands.length === 0) return undefined;
  return { op: 'batch', commands, label: `Replace ${kind} ${from} -> ${to}` };
}

/** Replaces several paths at once (a mapping old -> new), as one undo step. */
export function replacePathsCommand(doc: MlodDocument, mapping: Record<string, string>, opts: ReplacePathOptions = {}): EditCommand | undefined {
  const commands: EditCommand[] = [];
  for (const [from, to] of Object.entries(mapping)) {
    const c = replacePathCommand(doc, from, to, opts);
    if (c && c.op === 'batch') commands.push(...c.commands);
  }
  return commands.length ? { op: 'batch', commands, label: `Replace ${commands.length} paths` } : undefined;
}

/** Gives the listed faces of one LOD a texture (or material) path, adding it to the table if new. */
export function setFacePathCommand(doc: MlodDocument, lod: number, faces: readonly number[], path: string, kind: 'texture' | 'material' = 'texture'): EditCommand {
  const l = lodAt(doc, lod);
  const table = kind === 'texture' ? l.faces.textures : l.faces.materials;
  const tableKey = kind === 'texture' ? 'textures' : 'materials';
  const indexKey = kind === 'texture' ? 'textureIndex' : 'materialIndex';
  const commands: EditCommand[] = [];
  let id = table.indexOf(path);
  if (id < 0) {
    id = table.length;
    commands.push({ op: 'insert', path: ['lods', lod, 'faces', tableKey], index: id, value: path });
  }
  const next = l.faces[indexKey].slice();
  for (const f of faces) {
    if (!Number.isInteger(f) || f < 0 || f >= next.length) throw new RangeError(`no face ${f} in LOD ${lod}`);
    next[f] = id;
  }
  commands.push({ op: 'set', path: ['lods', lod, 'faces', indexKey], value: next });
  return { op: 'batch', commands, label: `Set ${kind} of ${faces.length} faces` };
}

function findTag(l: MlodLod, name: string): number {
  return l.tags.findIndex((t) => t.name === name);
}

/**
 * Adds points (with a weight, 1 = full) and faces to a named selection, or removes them
 * (weight 0). Creates the selection when it does not exist.
 */
export function setSelectionMembershipCommand(
  doc: MlodDocument, lod: number, name: string,
  members: { points?: readonly number[]; faces?: readonly number[]; weight?: number },
): EditCommand {
  const l = lodAt(doc, lod);
  const nPoints = l.pointFlags.length;
  const nFaces = l.faces.vertexCount.length;
  const i = findTag(l, name);
  const existing = i >= 0 ? l.tags[i] : undefined;
  if (existing && existing.type !== 'selection') throw new RangeError(`tag ${name} is not a selection`);
  const points = existing ? existing.points.slice() : new Uint8Array(nPoints);
  const faces = existing ? existing.faces.slice() : new Uint8Array(nFaces);
  const b = weightByte(members.weight ?? 1);
  for (const p of members.points ?? []) {
    if (!Number.isInteger(p) || p < 0 || p >= nPoints) throw new RangeError(`no point ${p} in LOD ${lod}`);
    points[p] = b;
  }
  for (const f of members.faces ?? []) {
    if (!Number.isInteger(f) || f < 0 || f >= nFaces) throw new RangeError(`no face ${f} in LOD ${lod}`);
    faces[f] = b === 0 ? 0 : 1;
  }
  if (existing) {
    return {
      op: 'batch',
      commands: [
        { op: 'set', path: ['lods', lod, 'tags', i, 'points'], value: points },
        { op: 'set', path: ['lods', lod, 'tags', i, 'faces'], value: faces },
      ],
      label: `Edit selection ${name}`,
    };
  }
  const tag: SelectionTag = { type: 'selection', name, points, faces, ...(l.signature === 'P3DM' ? { active: 1 } : {}) };
  return { op: 'insert', path: ['lods', lod, 'tags'], index: insertionIndex(l), value: tag, label: `Add selection ${name}` };
}

/**
 * Sets point masses (kg) in a LOD (usually Geometry): `points` omitted means every point.
 * Creates `#Mass#` when missing.
 */
export function setMassCommand(doc: MlodDocument, lod: number, mass: number, points?: readonly number[]): EditCommand {
  const l = lodAt(doc, lod);
  const n = l.pointFlags.length;
  const i = l.tags.findIndex((t) => t.type === 'mass');
  const masses = i >= 0 ? (l.tags[i] as MassTag).masses.slice() : new Float32Array(n);
  for (const p of points ?? Array.from({ length: n }, (_, k) => k)) {
    if (!Number.isInteger(p) || p < 0 || p >= n) throw new RangeError(`no point ${p} in LOD ${lod}`);
    masses[p] = mass;
  }
  if (i >= 0) return { op: 'set', path: ['lods', lod, 'tags', i, 'masses'], value: masses, label: 'Set mass' };
  const tag: MassTag = { type: 'mass', name: '#Mass#', masses, ...(l.signature === 'P3DM' ? { active: 1 } : {}) };
  return { op: 'insert', path: ['lods', lod, 'tags'], index: insertionIndex(l), value: tag, label: 'Add mass' };
}

/** Total mass of a LOD (sum of `#Mass#`), 0 when it has none. */
export function totalMass(lod: MlodLod): number {
  let s = 0;
  for (const t of lod.tags) if (t.type === 'mass') for (const m of t.masses) s += m;
  return s;
}

/** A new empty P3DM LOD (no geometry, only `#EndOfFile#`). */
export function blankLod(resolution: number): MlodLod {
  return {
    signature: 'P3DM', headerSize: 28, version: 0x100, flags: 0, headerExtra: new Uint8Array(0),
    points: new Float32Array(0), pointFlags: new Uint32Array(0), normals: new Float32Array(0),
    faces: {
      vertexCount: new Uint32Array(0), pointIndex: new Uint32Array(0), normalIndex: new Uint32Array(0), uv: new Float32Array(0),
      flags: new Uint32Array(0), textures: [], textureIndex: new Uint32Array(0), materials: [], materialIndex: new Uint32Array(0),
    },
    tags: [{ type: 'end', name: END_OF_FILE, active: 1, data: new Uint8Array(0) }],
    resolution,
  };
}

const TEXT_FIELDS = new Set(['key', 'value']);

function isU32(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** Refuses edits that would break the file (returns the reason). */
export function checkMlodEdit(doc: MlodDocument, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return batchRefusal(cmd.commands, (c) => checkMlodEdit(doc, c));
  const p: NodePath = cmd.path;
  if (p[0] === 'signature') return 'the signature is fixed';
  if (p[0] !== 'lods') return p[0] === 'version' && cmd.op === 'set' && !(Number.isInteger(cmd.value) && (cmd.value as number) >= 0) ? 'version must be a whole number' : undefined;
  if (cmd.op === 'remove' && p.length === 4 && p[2] === 'tags') {
    const tag = doc.lods[p[1] as number]?.tags[p[3] as number];
    if (tag?.type === 'end') return `${END_OF_FILE} ends the tag list and cannot be removed`;
    return undefined;
  }
  if (cmd.op === 'insert' && p.length === 3 && p[2] === 'tags') {
    const l = doc.lods[p[1] as number];
    const tag = cmd.value as MlodTag;
    if (!l || !tag || typeof tag !== 'object' || typeof tag.name !== 'string') return 'not a tag';
    if (cmd.index > insertionIndex(l)) return `tags go before ${END_OF_FILE}`;
    if (tag.type === 'selection' && (tag.points.length !== l.pointFlags.length || tag.faces.length !== l.faces.vertexCount.length)) {
      return 'a selection needs one byte per point and per face';
    }
    return undefined;
  }
  if (cmd.op !== 'set') return undefined;
  const last = p[p.length - 1];
  const v = cmd.value;
  // A whole tag list (a proxy added, deleted or moved): SP3X stores names in 64-byte fields.
  if (p.length === 3 && last === 'tags') {
    if (!Array.isArray(v) || !v.every((t) => t && typeof t === 'object' && typeof (t as MlodTag).name === 'string')) return 'not a tag list';
    if (doc.lods[p[1] as number]?.signature === 'SP3X') {
      const long = (v as MlodTag[]).find((t) => encodeText(t.name).length > 64);
      if (long) return `SP3X tag names are limited to 64 bytes: ${long.name}`;
    }
    return undefined;
  }
  if (last === 'resolution') return typeof v === 'number' && Number.isFinite(v) ? undefined : 'resolution must be a number';
  if (p.length === 3 && (last === 'signature' || last === 'headerSize')) return `${last} is fixed (converting between P3DM and SP3X is not supported)`;
  if (p.length === 3 && (last === 'version' || last === 'flags')) return isU32(v) ? undefined : `${last} must be a whole number from 0 to 4294967295`;
  // One element of a bulk array (a point coordinate, a face index, a selection weight...).
  if (typeof last === 'number') {
    const parent = getAt(doc, p.slice(0, -1));
    if (ArrayBuffer.isView(parent) && !(parent instanceof DataView)) {
      if (typeof v !== 'number' || last < 0 || last >= (parent as unknown as ArrayLike<number>).length) return 'no such element';
      if (parent instanceof Float32Array) return Number.isFinite(v) || Number.isNaN(v) ? undefined : 'must be a number';
      if (parent instanceof Uint8Array) return Number.isInteger(v) && v >= 0 && v <= 255 ? undefined : 'must be a whole number from 0 to 255';
      if (parent instanceof Uint32Array) return isU32(v) ? undefined : 'must be a whole number from 0 to 4294967295';
    }
  }
  if (p[2] === 'faces' && (p[3] === 'textures' || p[3] === 'materials') && p.length === 5) {
    if (typeof v !== 'string') return 'paths are text';
    if (v.includes('\0')) return 'paths must not contain NUL';
    if (p[3] === 'textures' && doc.lods[p[1] as number]?.signature === 'SP3X' && v.length > 32) return 'SP3X texture paths are limited to 32 bytes';
    return undefined;
  }
  if (p[2] === 'tags' && p.length === 5 && typeof last === 'string') {
    const tag = doc.lods[p[1] as number]?.tags[p[3] as number];
    if (!tag) return 'no such tag';
    if (tag.type === 'property' && TEXT_FIELDS.has(last)) {
      if (typeof v !== 'string') return 'must be text';
      return v.length > 64 ? 'property names and values are limited to 64 bytes' : v.includes('\0') ? 'must not contain NUL' : undefined;
    }
    if (last === 'name') {
      if (typeof v !== 'string' || v === '' || v.includes('\0')) return 'a tag name is non-empty text without NUL';
      if (doc.lods[p[1] as number]?.signature === 'SP3X' && encodeText(v).length > 64) return 'SP3X tag names are limited to 64 bytes';
      if (tag.type === 'selection' && isSpecialTagName(v)) return 'a named selection cannot be named #...#';
      return tag.type === 'selection' ? undefined : 'only selections can be renamed';
    }
    if (tag.type === 'selection' && (last === 'points' || last === 'faces')) {
      const l = doc.lods[p[1] as number]!;
      const n = last === 'points' ? l.pointFlags.length : l.faces.vertexCount.length;
      return v instanceof Uint8Array && v.length === n ? undefined : `needs ${n} bytes`;
    }
    if (tag.type === 'mass' && last === 'masses') {
      const n = doc.lods[p[1] as number]!.pointFlags.length;
      return v instanceof Float32Array && v.length === n ? undefined : `needs ${n} floats`;
    }
  }
  return undefined;
}

/** New nodes for the tree's "add" action. */
export function createMlodNode(doc: MlodDocument, parent: NodePath, kind: string): EditCommand | undefined {
  if (kind === 'lod') {
    let r = 1;
    const used = new Set(doc.lods.map((l) => Math.fround(l.resolution)));
    while (used.has(r)) r++;
    return { op: 'insert', path: ['lods'], index: doc.lods.length, value: blankLod(r), label: `Add LOD ${resolutionName(r)}` };
  }
  const lod = typeof parent[1] === 'number' ? parent[1] : 0;
  if (!doc.lods[lod]) return undefined;
  if (kind === 'property') return setPropertyCommand(doc, lod, 'newProperty', '');
  if (kind === 'selection') {
    let k = 1;
    while (doc.lods[lod]!.tags.some((t) => t.name === `selection${k}`)) k++;
    return setSelectionMembershipCommand(doc, lod, `selection${k}`, {});
  }
  return undefined;
}
