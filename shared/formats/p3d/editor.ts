/**
 * What the P3D editors show and edit, for MLOD and ODOL alike: the LOD list with the names
 * modders use, the face groups of a LOD (texture + material), its proxies and its named
 * selections, and the viewport highlight of each. Edits come back as ordinary EditCommands.
 *
 * Where the formats differ:
 * - MLOD faces each store their texture and material path; a face group is the set of faces with
 *   one (texture, material) pair, and editing its path changes exactly those faces.
 * - ODOL stores each path once per LOD (the texture list, the material records) and sections
 *   refer to them by index; editing a group's path edits that stored path, which every section
 *   sharing it follows (the group says how many share it). v7 has textures only.
 * - MLOD proxies are triangles in a `proxy:PATH.NNN` selection: the right-angled corner is the
 *   position, the longer leg points along the proxy's y (up), the shorter along its z (forward).
 *   Moving or turning one moves its three points. ODOL proxies are records with a 4x3 transform.
 */
import type { EditCommand } from '../../model/commands.ts';
import type { ArrayLayout } from '../../model/array-view.ts';
import type { EditorQuery, Highlight, P3dFaceGroup, P3dLodEntry, P3dProxy, P3dSelection } from '../../model/editor-query.ts';
import type { NodePath } from '../../model/path.ts';
import { resolutionKind, resolutionLabel, resolutionName } from './resolution.ts';
import { isMlod, mlodLod, odolLod, type AnyDoc, type OdolAnyLod, type OdolNodeFactory } from './editor-docs.ts';
import { p3dProxies, proxyAddCommand, proxyDeleteCommand, proxyEditCommand, proxyLodCommand, proxyPathOf } from './editor-proxies.ts';
import type { MlodLod } from './mlod/types.ts';
import { isSpecialTagName } from './mlod/types.ts';
import { setFacePathCommand } from './mlod/edits.ts';
import { mlodFaceGroups } from './mlod/face-groups.ts';
import type { OdolDocument } from './odol/document.ts';
import type { OdolLod } from './odol/lod.ts';
import { faceOffsets } from './odol/face-offsets.ts';

export { isMlod, type OdolNodeFactory } from './editor-docs.ts';
export { p3dProxies, proxyAddCommand, proxyDeleteCommand, proxyEditCommand, proxyLodCommand, proxyPathOf } from './editor-proxies.ts';

/** Every LOD with its canonical name and the label modders know. */
export function p3dLods(doc: AnyDoc): P3dLodEntry[] {
  if (isMlod(doc)) {
    return doc.lods.map((l, index) => ({
      index, resolution: l.resolution, name: resolutionName(l.resolution), label: resolutionLabel(l.resolution),
      kind: resolutionKind(l.resolution), faces: l.faces.vertexCount.length, points: l.pointFlags.length,
    }));
  }
  return (doc.lods as OdolAnyLod[]).map((l, index) => {
    const pos = 'positions' in l ? l.positions.data : l.vertices.data;
    return {
      index, resolution: l.resolution, name: resolutionName(l.resolution), label: resolutionLabel(l.resolution),
      kind: resolutionKind(l.resolution), faces: l.faces.sizes.length, points: pos.length / 3,
    };
  });
}

// ---- face groups ----

const SEP = '\u0000';

/** MLOD: faces per (texture, material) pair, in first-use order. */
function mlodGroups(l: MlodLod): { texture: string; material: string; faces: number[] }[] {
  const { groupOf, groups } = mlodFaceGroups(l.faces);
  const out = groups.map((g) => ({ texture: g.texture, material: g.material, faces: [] as number[] }));
  for (let i = 0; i < groupOf.length; i++) out[groupOf[i]!]!.faces.push(i);
  return out;
}

/** MLOD: how many faces use each (texture, material) pair, in first-use order (no list of faces). */
function mlodGroupCounts(l: MlodLod): { texture: string; material: string; faces: number }[] {
  return mlodFaceGroups(l.faces).groups;
}

/** ODOL v4x: one group per section, with the face range it covers. */
function odolSections(doc: OdolDocument, l: OdolLod): { texture: number; material: number; faces: number; section: number }[] {
  const offsets = faceOffsets(l.faces.sizes, doc.version);
  const faceAt = (off: number): number => {
    let lo = 0;
    let hi = l.faces.sizes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid]! < off) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return l.sections.map((s, section) => {
    const a = faceAt(s.faceLowerIndex);
    const b = Math.min(l.faces.sizes.length, faceAt(s.faceUpperIndex));
    return { texture: Number((s as Record<string, unknown>).textureIndex ?? -1), material: s.materialIndex, faces: Math.max(0, b - a), section };
  });
}

/** The face groups of one LOD. */
export function p3dGroups(doc: AnyDoc, lod: number): P3dFaceGroup[] {
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const sp3x = l.signature === 'SP3X';
    return mlodGroupCounts(l).map((g) => ({
      key: g.texture + SEP + g.material, texture: g.texture, material: g.material, faces: g.faces,
      textureEditable: true, materialEditable: !sp3x, source: ['lods', lod, 'faces'],
    }));
  }
  const l = odolLod(doc, lod);
  if ('positions' in l) {
    const counts = new Map<number, number>();
    for (const t of l.faces.textures) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts].map(([t, faces]) => ({
      key: `t${t}`, texture: l.textures[t] ?? '', material: '', faces,
      textureEditable: t < l.textures.length, materialEditable: false, source: ['lods', lod, 'faces'],
    }));
  }
  const secs = odolSections(doc, l);
  const texUse = new Map<number, number>();
  const matUse = new Map<number, number>();
  for (const s of secs) {
    texUse.set(s.texture, (texUse.get(s.texture) ?? 0) + 1);
    if (s.material >= 0) matUse.set(s.material, (matUse.get(s.material) ?? 0) + 1);
  }
  return secs.map((s) => {
    const sec = l.sections[s.section]!;
    const material = s.material >= 0 ? (l.materials[s.material]?.name ?? '') : (sec.material ?? '');
    return {
      key: `s${s.section}`, texture: l.textures[s.texture] ?? '', material, faces: s.faces,
      textureEditable: s.texture >= 0 && s.texture < l.textures.length,
      materialEditable: s.material >= 0 ? s.material < l.materials.length : sec.material !== undefined,
      ...(s.texture >= 0 && texUse.get(s.texture)! > 1 ? { textureShared: texUse.get(s.texture)! - 1 } : {}),
      ...(s.material >= 0 && matUse.get(s.material)! > 1 ? { materialShared: matUse.get(s.material)! - 1 } : {}),
      source: ['lods', lod, 'sections', s.section],
    };
  });
}

/** The command giving face group `key` of LOD `lod` another texture or material path. */
export function groupPathCommand(doc: AnyDoc, lod: number, key: string, field: 'texture' | 'material', value: string): EditCommand {
  const label = `Set ${field} of LOD ${resolutionLabel(doc.lods[lod]?.resolution ?? Number.NaN)} to ${value}`;
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    if (field === 'material' && l.signature === 'SP3X') throw new RangeError('SP3X faces have no material');
    const groups = mlodGroups(l);
    const g = groups.find((x) => x.texture + SEP + x.material === key);
    if (!g) throw new RangeError(`no face group ${JSON.stringify(key.split(SEP))} in LOD ${lod}`);
    const old = field === 'texture' ? g.texture : g.material;
    const table = field === 'texture' ? l.faces.textures : l.faces.materials;
    const ids = field === 'texture' ? l.faces.textureIndex : l.faces.materialIndex;
    // When no other group uses the old path, renaming the table entry is the whole edit.
    const others = groups.some((x) => x !== g && (field === 'texture' ? x.texture : x.material) === old);
    if (!others && !table.includes(value)) {
      const entries = table.flatMap((p, k) => (p === old ? [k] : []));
      if (entries.length && entries.every((k) => g.faces.some((f) => ids[f] === k))) {
        const tableKey = field === 'texture' ? 'textures' : 'materials';
        const commands: EditCommand[] = entries.map((k) => ({ op: 'set', path: ['lods', lod, 'faces', tableKey, k], value }));
        return commands.length === 1 ? { ...commands[0]!, label } : { op: 'batch', commands, label };
      }
    }
    return { ...setFacePathCommand(doc, lod, g.faces, value, field), label };
  }
  const l = odolLod(doc, lod);
  if ('positions' in l) {
    if (field !== 'texture') throw new RangeError('ODOL v7 faces have no material');
    const t = Number(key.slice(1));
    if (!key.startsWith('t') || !(t >= 0 && t < l.textures.length)) throw new RangeError(`no texture group ${key}`);
    return { op: 'set', path: ['lods', lod, 'textures', t], value, label };
  }
  const k = Number(key.slice(1));
  const sec = key.startsWith('s') ? l.sections[k] : undefined;
  if (!sec) throw new RangeError(`no section ${key} in LOD ${lod}`);
  if (field === 'texture') {
    const t = Number((sec as Record<string, unknown>).textureIndex ?? -1);
    if (!(t >= 0 && t < l.textures.length)) throw new RangeError('this section has no texture to rename');
    return { op: 'set', path: ['lods', lod, 'textures', t], value, label };
  }
  if (sec.materialIndex >= 0) {
    if (!l.materials[sec.materialIndex]) throw new RangeError('this section refers to a missing material');
    return { op: 'set', path: ['lods', lod, 'materials', sec.materialIndex, 'name'], value, label };
  }
  if (sec.material === undefined) throw new RangeError('this section has no material');
  return { op: 'set', path: ['lods', lod, 'sections', k, 'material'], value, label };
}

// ---- named selections ----

/** The named selections of one LOD (MLOD: tags not of the form `#...#`; ODOL: the selection records). */
export function p3dSelections(doc: AnyDoc, lod: number): P3dSelection[] {
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const out: P3dSelection[] = [];
    l.tags.forEach((t, k) => {
      if (t.type !== 'selection' || isSpecialTagName(t.name)) return;
      let points = 0;
      for (let i = 0; i < t.points.length; i++) if (t.points[i]) points++;
      let faces = 0;
      for (let i = 0; i < t.faces.length; i++) if (t.faces[i]) faces++;
      out.push({ index: k, name: t.name, points, faces, source: ['lods', lod, 'tags', k] });
    });
    return out;
  }
  const l = odolLod(doc, lod);
  return (l.namedSelections as { name: string; faces: { data: ArrayLike<number> }; vertices: { data: ArrayLike<number> } }[]).map((s, k) => ({
    index: k, name: s.name, points: s.vertices.data.length, faces: s.faces.data.length, source: ['lods', lod, 'namedSelections', k],
  }));
}

// ---- viewport highlight ----

/**
 * A mark is drawn, not edited: beyond these counts (a selection of a whole 500,000-face LOD)
 * the first ones show, which is enough to see where it is and keeps the answer a few MB.
 */
export const MAX_MARK_POINTS = 100_000;
export const MAX_MARK_TRIANGLES = 100_000;

/** Scene space is right-handed: P3D's z is negated (see the scene builders). */
function pushPoint(out: number[], x: number, y: number, z: number): void {
  out.push(x, y, -z);
}

function highlightOf(points: number[], tris: number[], lines: number[], label: string): Highlight {
  return {
    ...(points.length ? { points: Float32Array.from(points) } : {}),
    ...(tris.length ? { triangles: Float32Array.from(tris) } : {}),
    ...(lines.length ? { lines: Float32Array.from(lines) } : {}),
    label,
  };
}

/** Highlight of MLOD faces (by index) and points of one LOD. */
function mlodMarks(l: MlodLod, faces: Iterable<number>, points: Iterable<number>): { pts: number[]; tris: number[] } {
  const P = l.points;
  const f = l.faces;
  const n = l.pointFlags.length;
  const pts: number[] = [];
  const tris: number[] = [];
  for (const p of points) if (p < n && pts.length < MAX_MARK_POINTS * 3) pushPoint(pts, P[p * 3]!, P[p * 3 + 1]!, P[p * 3 + 2]!);
  for (const i of faces) {
    if (tris.length >= MAX_MARK_TRIANGLES * 9) break;
    const vc = f.vertexCount[i]!;
    if (vc !== 3 && vc !== 4) continue;
    const c = [0, 1, 2, 3].slice(0, vc).map((k) => f.pointIndex[i * 4 + k]!);
    if (c.some((p) => p >= n)) continue;
    for (const t of vc === 4 ? [[0, 1, 2], [0, 2, 3]] : [[0, 1, 2]]) for (const k of t) pushPoint(tris, P[c[k]! * 3]!, P[c[k]! * 3 + 1]!, P[c[k]! * 3 + 2]!);
  }
  return { pts, tris };
}

function odolMarks(doc: OdolDocument, l: OdolAnyLod, faces: Iterable<number>, vertices: Iterable<number>): { pts: number[]; tris: number[] } {
  const P = 'positions' in l ? l.positions.data : l.vertices.data;
  const n = P.length / 3;
  const sizes = l.faces.sizes;
  const first = new Uint32Array(sizes.length);
  for (let f = 1; f < sizes.length; f++) first[f] = first[f - 1]! + sizes[f - 1]!;
  const idx = l.faces.indices;
  const pts: number[] = [];
  const tris: number[] = [];
  for (const v of vertices) if (v < n && pts.length < MAX_MARK_POINTS * 3) pushPoint(pts, P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!);
  for (const f of faces) {
    if (tris.length >= MAX_MARK_TRIANGLES * 9) break;
    if (f >= sizes.length) continue;
    const c = Array.from({ length: sizes[f]! }, (_, k) => idx[first[f]! + k]!);
    if (c.length < 3 || c.some((v) => v >= n)) continue;
    for (let k = 1; k + 1 < c.length; k++) for (const v of [c[0]!, c[k]!, c[k + 1]!]) pushPoint(tris, P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!);
  }
  void doc;
  return { pts, tris };
}

function proxyLines(p: P3dProxy, size: number): number[] {
  const out: number[] = [];
  for (let a = 0; a < 3; a++) {
    pushPoint(out, p.position[0], p.position[1], p.position[2]);
    pushPoint(out, p.position[0] + p.axes[a * 3]! * size, p.position[1] + p.axes[a * 3 + 1]! * size, p.position[2] + p.axes[a * 3 + 2]! * size);
  }
  return out;
}

const rowsOf = (row: number | undefined): number[] => (row === undefined ? [] : [row]);

/**
 * What to mark for a node: a named selection's points and faces, a proxy's position and axes,
 * or one row of a points / normals / faces table. Undefined when the node has nothing to show.
 */
export function p3dHighlight(doc: AnyDoc, path: NodePath, row?: number): Highlight | undefined {
  if (path[0] !== 'lods' || typeof path[1] !== 'number') return undefined;
  const lod = path[1];
  const what = path[2];
  if (isMlod(doc)) {
    const l = doc.lods[lod];
    if (!l) return undefined;
    if (what === 'tags' && typeof path[3] === 'number') {
      const t = l.tags[path[3]];
      if (t?.type !== 'selection') return undefined;
      const proxy = p3dProxies(doc, lod).find((p) => p.source[3] === path[3]);
      const faces: number[] = [];
      t.faces.forEach((b, i) => b && faces.push(i));
      const points: number[] = [];
      t.points.forEach((b, i) => b && points.push(i));
      const m = mlodMarks(l, faces, points);
      return highlightOf(m.pts, m.tris, proxy ? proxyLines(proxy, 0.5) : [], `${t.name}: ${points.length} points, ${faces.length} faces`);
    }
    if ((what === 'points' || what === 'normals' || what === 'pointFlags') && row !== undefined) {
      if (what === 'normals') {
        // A normal row: the face corners that use it.
        const pts: number[] = [];
        const f = l.faces;
        for (let i = 0; i < f.normalIndex.length; i++) if (f.normalIndex[i] === row && (i % 4) < f.vertexCount[Math.floor(i / 4)]!) pts.push(f.pointIndex[i]!);
        const m = mlodMarks(l, [], pts);
        return highlightOf(m.pts, [], [], `normal ${row}: ${pts.length} face corners`);
      }
      const m = mlodMarks(l, [], [row]);
      return highlightOf(m.pts, [], [], `point ${row}`);
    }
    if (what === 'faces' && row !== undefined) {
      const m = mlodMarks(l, [row], []);
      return highlightOf([], m.tris, [], `face ${row}`);
    }
    return undefined;
  }
  const l = doc.lods[lod] as OdolAnyLod | undefined;
  if (!l) return undefined;
  if (what === 'namedSelections' && typeof path[3] === 'number') {
    const s = l.namedSelections[path[3]] as { name: string; faces: { data: ArrayLike<number> }; vertices: { data: ArrayLike<number> } } | undefined;
    if (!s) return undefined;
    const proxyName = s.name.toLowerCase().startsWith('proxy:') ? proxyPathOf(s.name).path.toLowerCase() : undefined;
    const proxy = proxyName !== undefined ? p3dProxies(doc, lod).find((p) => p.path.toLowerCase() === proxyName) : undefined;
    const m = odolMarks(doc, l, Array.from(s.faces.data), Array.from(s.vertices.data));
    return highlightOf(m.pts, m.tris, proxy ? proxyLines(proxy, 0.5) : [], `${s.name}: ${s.vertices.data.length} vertices, ${s.faces.data.length} faces`);
  }
  if (what === 'proxies' && typeof path[3] === 'number') {
    const p = p3dProxies(doc, lod)[path[3]];
    if (!p) return undefined;
    const pts: number[] = [];
    pushPoint(pts, p.position[0], p.position[1], p.position[2]);
    return highlightOf(pts, [], proxyLines(p, 0.5), `proxy ${p.path}`);
  }
  if ((what === 'vertices' || what === 'positions' || what === 'normals' || what === 'clip' || what === 'uvSets' || what === 'vertexBoneRef' || what === 'stCoords') && row !== undefined) {
    const m = odolMarks(doc, l, [], rowsOf(row));
    return highlightOf(m.pts, [], [], `vertex ${row}`);
  }
  if (what === 'faces' && row !== undefined) {
    if (path[3] === 'indices') {
      const v = l.faces.indices[row];
      const m = odolMarks(doc, l, [], v === undefined ? [] : [v]);
      return highlightOf(m.pts, [], [], `vertex ${v ?? '?'}`);
    }
    const m = odolMarks(doc, l, [row], []);
    return highlightOf([], m.tris, [], `face ${row}`);
  }
  return undefined;
}

type Numeric = ArrayLike<number> & { constructor: { name: string } };
const cols = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** Table columns of the P3D arrays (undefined: let the generic guess decide). */
export function p3dArrayLayout(doc: AnyDoc, name: string, data: Numeric, path: NodePath): ArrayLayout | undefined {
  const at = path.filter((k) => typeof k === 'string').join('/');
  // The compressed stream as stored: shown, but edits go to the values (the encoder recompresses).
  if (path[path.length - 1] === 'packed') return { stride: 1, columns: ['byte'], editable: false, note: 'The compressed bytes as stored; edit the values instead' };
  if (isMlod(doc)) {
    switch (at) {
      case 'lods/points': return { stride: 3, columns: ['x', 'y', 'z'], note: 'One point per row (P3D axes: y up, z forward)' };
      case 'lods/normals': return { stride: 3, columns: ['nx', 'ny', 'nz'], note: 'One normal per row' };
      case 'lods/pointFlags': return { stride: 1, columns: ['flags'], note: 'Point flags per point' };
      case 'lods/faces/pointIndex': return { stride: 4, columns: cols('i', 4), note: 'One face per row: point index per corner (a triangle\'s i3 is unused)' };
      case 'lods/faces/normalIndex': return { stride: 4, columns: cols('n', 4), note: 'One face per row: normal index per corner' };
      case 'lods/faces/uv': return { stride: 8, columns: ['u0', 'v0', 'u1', 'v1', 'u2', 'v2', 'u3', 'v3'], note: 'One face per row: u, v per corner' };
      case 'lods/faces/vertexCount': return { stride: 1, columns: ['corners'] };
      case 'lods/faces/flags': return { stride: 1, columns: ['flags'] };
      case 'lods/faces/textureIndex': return { stride: 1, columns: ['texture'], note: 'Index into the LOD\'s texture list' };
      case 'lods/faces/materialIndex': return { stride: 1, columns: ['material'], note: 'Index into the LOD\'s material list' };
      case 'lods/tags/points': return { stride: 1, columns: ['weight byte'], note: 'One point per row: 0 not selected, 1 full weight, 2..255 = (256 - b) / 255' };
      case 'lods/tags/faces': return { stride: 1, columns: ['selected'] };
      case 'lods/tags/masses': return { stride: 1, columns: ['kg'], note: 'Mass per point' };
      case 'lods/tags/uv': return { stride: 2, columns: ['u', 'v'], note: 'One face corner per row, in face order' };
      case 'lods/tags/edges': return { stride: 2, columns: ['a', 'b'], note: 'One sharp edge per row: two point indices' };
    }
    return undefined;
  }
  const v4x = doc.version >= 45;
  switch (at) {
    case 'lods/vertices/data':
    case 'lods/positions/data': return { stride: 3, columns: ['x', 'y', 'z'], note: 'One vertex per row (P3D axes: y up, z forward)' };
    case 'lods/normals/data':
      return v4x && doc.version !== 7 ? { stride: 1, columns: ['packed'], note: 'Three signed 10-bit fields per value (x, y, z scaled by -1/511)' } : { stride: 3, columns: ['nx', 'ny', 'nz'] };
    case 'lods/uvSets/uv/data':
      return { stride: 2, columns: ['u', 'v'], note: v4x ? '16-bit values, expanded over the set\'s UV range' : 'One vertex per row' };
    case 'lods/uvs/data': return { stride: 2, columns: ['u', 'v'] };
    case 'lods/faces/indices': return { stride: 1, columns: ['vertex'], note: 'Face corners in face order (see sizes for the corners of each face)' };
    case 'lods/faces/sizes': return { stride: 1, columns: ['corners'] };
    case 'lods/pointToVertex/data': return { stride: 1, columns: ['vertex'] };
    case 'lods/vertexToPoint/data': return { stride: 1, columns: ['point'] };
    case 'lods/clip/data':
    case 'lods/clipOld/data':
    case 'lods/pointFlags/data': return { stride: 1, columns: ['flags'] };
    case 'lods/vertexBoneRef/data': return { stride: 12, columns: ['count', '', '', '', 'b0', 'w0', 'b1', 'w1', 'b2', 'w2', 'b3', 'w3'].map((c, i) => c || `count.${i}`), note: 'One vertex per row: bone count (i32), then bone, weight byte pairs' };
    case 'lods/namedSelections/vertices/data': return { stride: 1, columns: ['vertex'] };
    case 'lods/namedSelections/faces/data': return { stride: 1, columns: ['face'] };
    case 'lods/namedSelections/weights/data': return { stride: 1, columns: ['weight'] };
    case 'modelInfo/massArray/data': return { stride: 1, columns: ['kg'] };
  }
  void name;
  void data;
  return undefined;
}

/** The faces of one face group (see {@link p3dGroups}). */
export function groupHighlight(doc: AnyDoc, lod: number, key: string): Highlight | undefined {
  if (isMlod(doc)) {
    const l = doc.lods[lod];
    const g = l ? mlodGroups(l).find((x) => x.texture + SEP + x.material === key) : undefined;
    if (!l || !g) return undefined;
    const m = mlodMarks(l, g.faces, []);
    return highlightOf([], m.tris, [], `${g.faces.length} faces: ${g.texture || '(no texture)'}`);
  }
  const l = doc.lods[lod] as OdolAnyLod | undefined;
  if (!l) return undefined;
  let faces: number[] = [];
  if ('positions' in l) {
    const t = Number(key.slice(1));
    l.faces.textures.forEach((x, i) => x === t && faces.push(i));
  } else {
    const s = odolSections(doc, l)[Number(key.slice(1))];
    if (!s) return undefined;
    const offsets = faceOffsets(l.faces.sizes, doc.version);
    const sec = l.sections[s.section]!;
    for (let i = 0; i < l.faces.sizes.length; i++) if (offsets[i]! >= sec.faceLowerIndex && offsets[i]! < sec.faceUpperIndex) faces.push(i);
    faces = faces.slice(0, s.faces);
  }
  const m = odolMarks(doc, l, faces, []);
  return highlightOf([], m.tris, [], `${faces.length} faces`);
}

/** Highlight of a proxy by its index in {@link p3dProxies} (the editor's list). */
export function proxyHighlight(doc: AnyDoc, lod: number, index: number): Highlight | undefined {
  const p = p3dProxies(doc, lod)[index];
  if (!p) return undefined;
  if (isMlod(doc)) return p3dHighlight(doc, p.source);
  return p3dHighlight(doc, ['lods', lod, 'proxies', index]);
}

/**
 * Answers the P3D editors' questions (`doc:query`); undefined for a question it does not know.
 * `createOdolNode` is the ODOL codec's record factory (ODOL documents only).
 */
export function p3dQuery(doc: AnyDoc, q: EditorQuery, createOdolNode?: OdolNodeFactory): unknown {
  switch (q.kind) {
    case 'p3d-lods': return p3dLods(doc);
    case 'p3d-groups': return p3dGroups(doc, q.lod);
    case 'p3d-proxies': return p3dProxies(doc, q.lod);
    case 'p3d-selections': return p3dSelections(doc, q.lod);
    case 'p3d-group-path': return groupPathCommand(doc, q.lod, q.group, q.field, q.value);
    case 'p3d-proxy-edit': {
      const change: { path?: string; position?: number[]; axes?: number[] } = {};
      if (q.path !== undefined) change.path = q.path;
      if (q.position !== undefined) change.position = q.position;
      if (q.axes !== undefined) change.axes = q.axes;
      return proxyEditCommand(doc, q.lod, q.proxy, change);
    }
    case 'p3d-proxy-add': return proxyAddCommand(doc, q.lod, q.path, createOdolNode);
    case 'p3d-proxy-delete': return proxyDeleteCommand(doc, q.lod, q.proxy);
    case 'p3d-proxy-lod': return proxyLodCommand(doc, q.lod, q.proxy, q.to);
    case 'highlight': return p3dHighlight(doc, q.path, q.row);
    case 'p3d-group-highlight': return groupHighlight(doc, q.lod, q.group);
    default: return undefined;
  }
}
