/**
 * LODka arrays as tables: column names of the mesh arrays, and what to mark in the viewport for
 * one row (a vertex of MeshPointsPos or PntBnAssoc, a triangle of a face group's index arrays).
 * The LODka scene keeps the file's axes and places each mesh with an identity node, so marks are
 * the stored positions.
 */
import type { ArrayLayout } from '../../model/array-view.ts';
import type { EditorQuery, Highlight } from '../../model/editor-query.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { FaceGroup, LodDocument, Msh1Chunk } from './schema.ts';

const tri = (p: string): ArrayLayout => ({ stride: 3, columns: [`${p}0`, `${p}1`, `${p}2`], note: 'One triangle per row: an index per corner' });

/** Columns of the MSH1 arrays (the rest is left to the name-based guess). */
export function lodArrayLayout(_doc: LodDocument, _name: string, data: ArrayLike<number>, path: NodePath): ArrayLayout | undefined {
  const last = path[path.length - 1];
  const key = typeof last === 'number' ? path[path.length - 2] : last;
  const fits3 = data.length % 3 === 0;
  switch (key) {
    case 'meshPointsPos': return { stride: 3, columns: ['x', 'y', 'z'], note: 'One vertex per row' };
    case 'meshNormals': return { stride: 3, columns: ['nx', 'ny', 'nz'], note: 'One normal per row' };
    case 'meshTxCrd': return { stride: 2, columns: ['u', 'v'], note: 'One texture coordinate per row' };
    case 'pntBnAssoc': return { stride: 1, columns: ['bone'], note: 'The bone of each vertex' };
    case 'weightBoneIds': return { stride: 1, columns: ['bone id'], note: 'High bit set: the next record starts the next vertex' };
    case 'weights': return { stride: 1, columns: ['w'], note: 'Weight per record' };
    case 'vertexIndex': return fits3 ? tri('v') : undefined;
    case 'normalIndex': return fits3 ? tri('n') : undefined;
    case 'txCrdsInd': return fits3 ? tri('t') : undefined;
    case 'smoothData': return { stride: 1, columns: ['smoothing bits'], note: 'One triangle per row' };
  }
  return undefined;
}

function mesh(doc: LodDocument, path: NodePath): { m: Msh1Chunk; rest: NodePath } | undefined {
  for (let i = path.length; i > 0; i--) {
    const n = getAt(doc, path.slice(0, i)) as Partial<Msh1Chunk> | undefined;
    if (n && typeof n === 'object' && n.id === 'MSH1') return { m: n as Msh1Chunk, rest: path.slice(i) };
  }
  return undefined;
}

/** The viewport mark for one row of a MSH1 array. */
export function lodHighlight(doc: LodDocument, path: NodePath, row: number | undefined): Highlight | undefined {
  if (row === undefined) return undefined;
  const found = mesh(doc, path);
  if (!found) return undefined;
  const { m, rest } = found;
  const P = m.meshPointsPos;
  const point = (v: number): number[] => (v * 3 + 2 < P.length ? [P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!] : []);
  if (rest[0] === 'meshPointsPos' || rest[0] === 'pntBnAssoc') {
    const p = point(row);
    return p.length ? { points: Float32Array.from(p), label: `vertex ${row}` } : undefined;
  }
  if (rest[0] === 'faceGroups' && typeof rest[1] === 'number' && (rest[2] === 'vertexIndex' || rest[2] === 'smoothData' || rest[2] === 'normalIndex' || rest[2] === 'txCrdsInd')) {
    const g: FaceGroup | undefined = m.faceGroups[rest[1]];
    const vi = g?.vertexIndex;
    if (!vi || row * 3 + 2 >= vi.length) return undefined;
    const t = [0, 1, 2].flatMap((c) => point(vi[row * 3 + c]!));
    return t.length === 9 ? { triangles: Float32Array.from(t), label: `triangle ${row} of ${g.faceName || `face group ${rest[1]}`}` } : undefined;
  }
  return undefined;
}

export function lodQuery(doc: LodDocument, q: EditorQuery): unknown {
  return q.kind === 'highlight' ? lodHighlight(doc, q.path, q.row) : undefined;
}
