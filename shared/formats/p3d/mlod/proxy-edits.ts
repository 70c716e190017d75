/**
 * Adding and deleting MLOD proxies. A proxy is a named selection `proxy:PATH.NNN` over a
 * placeholder triangle (3 points, 1 face), so adding one appends the points, the face and the
 * selection, and deleting one removes the selection, its faces and the points (and normals,
 * texture and material entries) that nothing else uses any more. Everything per point or per face
 * in the LOD follows: the other selections' bytes, `#Mass#`, `#UVSet#` corners, `#Animation#`
 * frames and `#SharpEdges#` point pairs.
 *
 * The command sets whole columns (points, flags, normals, the face block, the tag list) rather
 * than elements: each column changes length, and a set of the whole column is what the codec's
 * edit check accepts before any of the batch is applied. Tags and LODs the edit does not touch
 * keep their objects (and so their stored bytes); a deleted proxy that was just added gives the
 * LOD back byte for byte.
 */
import type { EditCommand } from '../../../model/commands.ts';
import { parseProxySelection } from '../proxy.ts';
import type { MlodFaces, MlodLod, MlodTag, SelectionTag } from './types.ts';
import { END_OF_FILE, isSpecialTagName } from './types.ts';

type V3 = readonly [number, number, number];

/** A proxy to add: its selection name and the triangle's corners (right-angle corner, end of the y leg, end of the z leg). */
export interface NewMlodProxy {
  name: string;
  corners: readonly [V3, V3, V3];
}

/** What {@link mlodProxyCommands} changes in one LOD. */
export interface MlodProxyChange {
  /** Tag index of a proxy selection to delete. */
  remove?: number;
  add?: NewMlodProxy;
}

const strip = <T extends object>(o: T): T => {
  const out = { ...o } as Record<string, unknown>;
  delete out.$raw;
  delete out.$span;
  return out as T;
};

function keepIndex(length: number, drop: ReadonlySet<number>): { keep: number[]; map: Int32Array } {
  const keep: number[] = [];
  const map = new Int32Array(length).fill(-1);
  for (let i = 0; i < length; i++) if (!drop.has(i)) map[i] = keep.push(i) - 1;
  return { keep, map };
}

/** Picks rows `keep` of a column with `stride` values per row, then appends `extra`. */
function pick<T extends Float32Array | Uint32Array | Uint8Array>(a: T, stride: number, keep: readonly number[], extra: ArrayLike<number> = []): T {
  const out = new (a.constructor as new (n: number) => T)(keep.length * stride + extra.length);
  let o = 0;
  for (const r of keep) {
    out.set(a.subarray(r * stride, r * stride + stride), o);
    o += stride;
  }
  out.set(extra, o);
  return out;
}

/** The next free `.NNN` for a proxy selection in this LOD (three digits, as Object Builder writes them). */
export function nextProxyName(l: MlodLod, path: string): string {
  let max = 0;
  for (const t of l.tags) {
    const p = t.type === 'selection' ? parseProxySelection(t.name) : undefined;
    if (p?.index !== undefined && p.name.toLowerCase() === path.toLowerCase()) max = Math.max(max, p.index);
  }
  return `proxy:${path}.${String(max + 1).padStart(3, '0')}`;
}

/**
 * The commands that delete a proxy selection (with its faces and the points only it used) and/or
 * add a new proxy triangle and selection, in LOD `li`. Faces keep their order; new points, the
 * face and the selection go at the end (the selection before `#EndOfFile#`).
 */
export function mlodProxyCommands(l: MlodLod, li: number, change: MlodProxyChange): EditCommand[] {
  const f = l.faces;
  const nPoints = l.pointFlags.length;
  const nFaces = f.vertexCount.length;
  const nNormals = l.normals.length / 3;
  const dropFaces = new Set<number>();
  const dropPoints = new Set<number>();
  const dropNormals = new Set<number>();
  let removed: SelectionTag | undefined;
  if (change.remove !== undefined) {
    const t = l.tags[change.remove];
    if (t?.type !== 'selection' || !parseProxySelection(t.name)) throw new RangeError(`tag ${change.remove} of LOD ${li} is not a proxy selection`);
    removed = t;
    for (let i = 0; i < nFaces && i < t.faces.length; i++) if (t.faces[i]) dropFaces.add(i);
    // Points and normals of the dropped faces that no kept face uses, nor any other named selection.
    const candidates = new Set<number>();
    const normals = new Set<number>();
    for (const i of dropFaces) {
      for (let k = 0; k < f.vertexCount[i]! && k < 4; k++) {
        candidates.add(f.pointIndex[i * 4 + k]!);
        normals.add(f.normalIndex[i * 4 + k]!);
      }
    }
    for (let i = 0; i < nFaces; i++) {
      if (dropFaces.has(i)) continue;
      for (let k = 0; k < f.vertexCount[i]! && k < 4; k++) {
        candidates.delete(f.pointIndex[i * 4 + k]!);
        normals.delete(f.normalIndex[i * 4 + k]!);
      }
    }
    for (const tag of l.tags) {
      if (tag === t || tag.type !== 'selection' || isSpecialTagName(tag.name)) continue;
      for (const p of candidates) if (tag.points[p]) candidates.delete(p);
    }
    for (const p of candidates) if (p < nPoints) dropPoints.add(p);
    for (const n of normals) if (n < nNormals) dropNormals.add(n);
  }
  const add = change.add;
  if (add && (!add.name.toLowerCase().startsWith('proxy:') || add.name.includes('\0'))) throw new RangeError('a proxy selection is named proxy:PATH.NNN, without NUL');
  if (add && !add.corners.every((c) => c.length === 3 && c.every(Number.isFinite))) throw new RangeError('proxy corners must be finite');

  const pts = keepIndex(nPoints, dropPoints);
  const nrm = keepIndex(nNormals, dropNormals);
  const fcs = keepIndex(nFaces, dropFaces);
  const newPoint = pts.keep.length; // index of the first added point
  const remapPoint = (p: number): number => (p < nPoints ? pts.map[p]! : p);
  const remapNormal = (n: number): number => (n < nNormals ? nrm.map[n]! : n);

  // Points, flags, normals.
  const cornerXyz = add ? add.corners.flatMap((c) => [...c]) : [];
  const commands: EditCommand[] = [];
  const path = (k: string): (string | number)[] => ['lods', li, k];
  if (dropPoints.size || add) {
    commands.push({ op: 'set', path: path('points'), value: pick(l.points, 3, pts.keep, cornerXyz) });
    commands.push({ op: 'set', path: path('pointFlags'), value: pick(l.pointFlags, 1, pts.keep, add ? [0, 0, 0] : []) });
  }
  let newNormal = 0;
  // A LOD without normals (an SP3X file may have none: every face refers to normal 0) gets none.
  const addNormal = add !== undefined && nNormals > 0;
  if (dropNormals.size || addNormal) {
    let extra: number[] = [];
    if (addNormal) {
      // The triangle's own normal (P3D stores normals pointing into the model: see NOTES.md).
      const [a, b, c] = add.corners;
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
      const len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
      extra = n.map((x) => x / len + 0);
      newNormal = nrm.keep.length;
    }
    commands.push({ op: 'set', path: path('normals'), value: pick(l.normals, 3, nrm.keep, extra) });
  }

  // The face block.
  const faces = strip(f) as MlodFaces;
  if (dropFaces.size || dropPoints.size || dropNormals.size || add) {
    faces.vertexCount = pick(f.vertexCount, 1, fcs.keep, add ? [3] : []);
    const pointIndex = pick(f.pointIndex, 4, fcs.keep);
    const normalIndex = pick(f.normalIndex, 4, fcs.keep);
    for (let i = 0; i < fcs.keep.length; i++) {
      const vc = Math.min(4, faces.vertexCount[i]!);
      // Only the used slots: a triangle's fourth slot holds whatever the exporter left there.
      for (let k = 0; k < vc; k++) {
        pointIndex[i * 4 + k] = remapPoint(pointIndex[i * 4 + k]!);
        normalIndex[i * 4 + k] = remapNormal(normalIndex[i * 4 + k]!);
      }
    }
    faces.pointIndex = add ? pick(pointIndex, 1, Array.from(pointIndex.keys()), [newPoint, newPoint + 1, newPoint + 2, 0]) : pointIndex;
    faces.normalIndex = add ? pick(normalIndex, 1, Array.from(normalIndex.keys()), [newNormal, newNormal, newNormal, 0]) : normalIndex;
    faces.uv = pick(f.uv, 8, fcs.keep, add ? new Float32Array(8) : []);
    faces.flags = pick(f.flags, 1, fcs.keep, add ? [0] : []);
    // Texture and material tables: entries only the dropped faces used go; the new face uses ''.
    const table = (names: string[], ids: Uint32Array, fixed: boolean): { names: string[]; ids: Uint32Array } => {
      const kept = pick(ids, 1, fcs.keep);
      let out = names;
      let idx = kept;
      if (!fixed && dropFaces.size) {
        const usedBefore = new Set(ids);
        const usedAfter = new Set(kept);
        const gone = new Set([...usedBefore].filter((x) => !usedAfter.has(x)));
        if (gone.size) {
          const m = keepIndex(names.length, gone);
          out = m.keep.map((k) => names[k]!);
          idx = kept.map((x) => (x < names.length ? m.map[x]! : x));
        }
      }
      if (!add) return { names: out, ids: idx };
      let e = fixed ? 0 : out.indexOf('');
      if (e < 0) {
        out = [...out, ''];
        e = out.length - 1;
      }
      return { names: out, ids: pick(idx, 1, Array.from(idx.keys()), [e]) };
    };
    const sp3x = l.signature === 'SP3X';
    const tex = table(f.textures, f.textureIndex, false);
    faces.textures = tex.names;
    faces.textureIndex = tex.ids;
    // SP3X faces have no material: every face refers to the single entry.
    const mat = table(f.materials, f.materialIndex, sp3x);
    faces.materials = mat.names;
    faces.materialIndex = mat.ids;
    if (f.textureFields && dropFaces.size) faces.textureFields = pick(f.textureFields, 32, fcs.keep.filter((i) => i * 32 < f.textureFields!.length));
    commands.push({ op: 'set', path: path('faces'), value: faces });
  }

  // Tags: per point and per face data follows; the deleted selection goes, the new one comes.
  const corners = (i: number): number => Math.min(4, f.vertexCount[i]!);
  const tags: MlodTag[] = [];
  let changedTags = removed !== undefined || add !== undefined;
  for (const t of l.tags) {
    if (t === removed) continue;
    if (t.type === 'end' && add) {
      const sel: SelectionTag = {
        type: 'selection', name: add.name, ...(l.signature === 'P3DM' ? { active: 1 } : {}),
        points: pick(new Uint8Array(nPoints), 1, pts.keep, [1, 1, 1]), faces: pick(new Uint8Array(nFaces), 1, fcs.keep, [1]),
      };
      tags.push(sel);
    }
    if (!dropPoints.size && !dropFaces.size && !add) {
      tags.push(t);
      continue;
    }
    switch (t.type) {
      case 'selection':
        if (t.points.length !== nPoints || t.faces.length !== nFaces) break; // already inconsistent: kept as is
        tags.push({ ...strip(t), points: pick(t.points, 1, pts.keep, add ? [0, 0, 0] : []), faces: pick(t.faces, 1, fcs.keep, add ? [0] : []) });
        changedTags = true;
        continue;
      case 'mass':
        if (t.masses.length !== nPoints) break;
        tags.push({ ...strip(t), masses: pick(t.masses, 1, pts.keep, add ? [0, 0, 0] : []) });
        continue;
      case 'animation':
        if (t.points.length !== nPoints * 3) break;
        tags.push({ ...strip(t), points: pick(t.points, 3, pts.keep, cornerXyz) });
        continue;
      case 'uvset': {
        // u, v per face corner in face order.
        const rows: number[] = [];
        let at = 0;
        for (let i = 0; i < nFaces; i++) {
          const n = corners(i);
          if (!dropFaces.has(i)) for (let k = 0; k < n; k++) rows.push(at + k);
          at += n;
        }
        if (at * 2 !== t.uv.length) break;
        tags.push({ ...strip(t), uv: pick(t.uv, 2, rows, add ? new Float32Array(6) : []) });
        continue;
      }
      case 'sharpEdges': {
        if (!dropPoints.size) break;
        const edges: number[] = [];
        for (let i = 0; i + 1 < t.edges.length; i += 2) {
          const a = t.edges[i]!;
          const b = t.edges[i + 1]!;
          if (dropPoints.has(a) || dropPoints.has(b)) continue;
          edges.push(remapPoint(a), remapPoint(b));
        }
        tags.push({ ...strip(t), edges: Uint32Array.from(edges) });
        continue;
      }
      default:
        break;
    }
    tags.push(t);
  }
  if (add && !l.tags.some((t) => t.type === 'end')) throw new RangeError(`LOD ${li} has no ${END_OF_FILE} tag to add a selection before`);
  if (changedTags || dropPoints.size || dropFaces.size) commands.push({ op: 'set', path: path('tags'), value: tags });
  return commands;
}
