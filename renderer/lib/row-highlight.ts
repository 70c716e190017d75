/**
 * The viewport mark for one row of an array table when the format has no answer of its own:
 * the scene mesh built from the array's node (its `source` path is a prefix of the array's path)
 * gives the row's vertex (a table with one row per mesh vertex) or triangle (one row per
 * triangle), placed by the nodes that place the mesh.
 */
import { Matrix4, Vector3 } from 'three';
import type { Highlight } from '../../shared/model/editor-query.ts';
import type { ArrayPage } from '../../shared/model/array-view.ts';
import type { NodePath } from '../../shared/model/path.ts';
import type { Scene } from '../../shared/scene/scene.ts';

function isPrefix(a: NodePath, b: NodePath): boolean {
  return a.length <= b.length && a.every((k, i) => k === b[i]);
}

/** World matrix of the first node placing mesh `m` (identity when none does). */
function meshMatrix(scene: Scene, m: number): Matrix4 {
  let i = scene.nodes.findIndex((n) => n.mesh === m);
  const out = new Matrix4();
  const seen = new Set<number>();
  while (i >= 0 && !seen.has(i)) {
    seen.add(i);
    const n = scene.nodes[i]!;
    out.premultiply(new Matrix4().fromArray(n.matrix));
    i = n.parent;
  }
  return out;
}

export function rowHighlight(scene: Scene | null, page: ArrayPage, row: number): Highlight | null {
  if (!scene) return null;
  let best = -1;
  scene.meshes.forEach((mesh, k) => {
    const src = mesh.source;
    if (src && isPrefix(src, page.path) && (best < 0 || src.length > scene.meshes[best]!.source!.length)) best = k;
  });
  if (best < 0) return null;
  const mesh = scene.meshes[best]!;
  const m = meshMatrix(scene, best);
  const P = mesh.positions;
  const at = (v: number): number[] => new Vector3(P[v * 3]!, P[v * 3 + 1]!, P[v * 3 + 2]!).applyMatrix4(m).toArray();
  const vertices = P.length / 3;
  if (page.rows === vertices && row < vertices) return { points: Float32Array.from(at(row)), label: `vertex ${row}` };
  if (page.rows * 3 === mesh.indices.length && page.stride === 3 && row * 3 + 2 < mesh.indices.length) {
    const tri = [0, 1, 2].flatMap((c) => at(mesh.indices[row * 3 + c]!));
    return { triangles: Float32Array.from(tri), label: `triangle ${row}` };
  }
  return null;
}
