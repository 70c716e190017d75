/**
 * One MLOD LOD -> the neutral scene.
 *
 * Axes: P3D is left-handed (x right, y up, z forward); the scene is right-handed, so z is
 * negated. That mirror also turns P3D's face order (clockwise seen from outside in P3D's own
 * axes: every closed corpus mesh has a negative signed volume as stored) into counter-clockwise
 * seen from outside, which is what glTF and three.js expect, so vertex order is kept.
 * MLOD normals point into the surface (they agree with the stored winding's cross product, which
 * points inward), so they are negated as well as mirrored.
 *
 * Faces are unwelded (each face vertex gets its own position/normal/uv, as MLOD stores UVs per
 * face vertex), quads split along 0-2, and faces are grouped by their texture/material pair.
 */
import { DecodeError } from '../../../errors.ts';
import type { Scene, SceneMaterial, SceneMesh, SceneProxy } from '../../../scene/scene.ts';
import { IDENTITY } from '../../../scene/scene.ts';
import type { SceneOptions } from '../../registry.ts';
import { parseResolutionName, resolutionKind, resolutionName } from '../resolution.ts';
import { selectionWeight, type MlodDocument, type MlodLod, type SelectionTag } from './types.ts';
import { parseProxySelection, sceneProxy, triangleFrame } from '../proxy.ts';
import { mlodFaceGroups } from './face-groups.ts';

/** The LOD `opts.lod` names (resolution name or number), else the first visual LOD, else the first. */
export function pickLod(doc: MlodDocument, lod?: string): number {
  if (lod !== undefined && lod !== '') {
    const byName = doc.lods.findIndex((l) => resolutionName(l.resolution).toLowerCase() === lod.toLowerCase());
    if (byName >= 0) return byName;
    const v = parseResolutionName(lod);
    if (v !== undefined) {
      const byValue = doc.lods.findIndex((l) => Math.fround(l.resolution) === v);
      if (byValue >= 0) return byValue;
    }
    if (/^\d+$/.test(lod) && Number(lod) < doc.lods.length) return Number(lod);
    return -1;
  }
  const visual = doc.lods.findIndex((l) => resolutionKind(l.resolution) === 'visual');
  return visual >= 0 ? visual : doc.lods.length > 0 ? 0 : -1;
}

export function mlodToScene(doc: MlodDocument, opts: SceneOptions = {}): Scene {
  const scene: Scene = { nodes: [], meshes: [], materials: [], clips: [] };
  const li = pickLod(doc, opts.lod);
  if (li < 0) {
    // A DecodeError like the ODOL codec's: the CLI and the editor report it as a user error.
    if (opts.lod) throw new DecodeError(`no LOD named "${opts.lod}"; the model has ${doc.lods.map((l) => resolutionName(l.resolution)).join(', ')}`, 0, 'lods');
    return scene;
  }
  const lod = doc.lods[li]!;
  const proxies = proxyFaces(lod, li);
  const skip = new Uint8Array(lod.faces.vertexCount.length);
  for (const p of proxies) for (const f of p.faces) skip[f] = 1;
  const { mesh, materials, vertexPoint } = lodMesh(lod, li, skip);
  scene.proxies = proxies.map((p) => p.proxy);
  if (opts.skinBones?.length) {
    const boneOf = skinFromSelections(scene, mesh, lod, vertexPoint, opts.skinBones);
    if (boneOf) bindProxies(scene.proxies, proxies.map((p) => p.point), boneOf);
  }
  scene.materials = materials;
  scene.meshes.push(mesh);
  scene.nodes.push({ name: resolutionName(lod.resolution), parent: -1, matrix: [...IDENTITY], mesh: 0, source: ['lods', li] });
  if (mesh.positions.length > 0) {
    const min: [number, number, number] = [Infinity, Infinity, Infinity];
    const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
    const P = mesh.positions;
    for (let i = 0; i < P.length; i += 3) {
      for (let a = 0; a < 3; a++) {
        const x = P[i + a]!;
        if (x < min[a]!) min[a] = x;
        if (x > max[a]!) max[a] = x;
      }
    }
    scene.bounds = { min, max };
  }
  return scene;
}

/**
 * The LOD's proxies: one per `proxy:path.NNN` named selection, placed by its placeholder
 * triangle. Those faces are the game's marker, never drawn, so the mesh leaves them out.
 */
function proxyFaces(lod: MlodLod, li: number): { proxy: SceneProxy; faces: number[]; point?: number }[] {
  const f = lod.faces;
  const nPoints = lod.pointFlags.length;
  const out: { proxy: SceneProxy; faces: number[]; point?: number }[] = [];
  lod.tags.forEach((t, ti) => {
    if (t.type !== 'selection') return;
    const parsed = parseProxySelection(t.name);
    if (!parsed) return;
    const faces: number[] = [];
    const corners: number[] = [];
    let point: number | undefined;
    for (let i = 0; i < t.faces.length && i < f.vertexCount.length; i++) {
      if (!t.faces[i]) continue;
      faces.push(i);
      const vc = f.vertexCount[i]!;
      if (vc !== 3 && vc !== 4) continue;
      const idx = [0, 1, 2, ...(vc === 4 ? [0, 2, 3] : [])].map((k) => f.pointIndex[i * 4 + k]!);
      if (idx.some((p) => p >= nPoints)) continue;
      point ??= idx[0];
      for (const p of idx) corners.push(lod.points[p * 3]!, lod.points[p * 3 + 1]!, -lod.points[p * 3 + 2]!);
    }
    const placeholder = Float32Array.from(corners);
    const matrix = placeholder.length >= 9 ? triangleFrame(placeholder) : [...IDENTITY];
    const proxy = sceneProxy(parsed.name, matrix, ['lods', li, 'tags', ti], parsed.index);
    if (placeholder.length) proxy.placeholder = placeholder;
    out.push({ proxy, faces, ...(point !== undefined ? { point } : {}) });
  });
  return out;
}

/**
 * The point at the first corner of each proxy's placeholder triangle in LOD `li`, in the order of
 * the scene's proxies (undefined for a proxy with no whole triangle): which bone a proxy moves
 * with follows from the selections that hold it.
 */
export function proxyPoints(lod: MlodLod, li: number): (number | undefined)[] {
  return proxyFaces(lod, li).map((p) => p.point);
}

/**
 * A proxy moves with the bone whose named selection holds its triangle (the game's rule): here the
 * bone `boneOf` gives the first corner (`points`, in the order of `proxies`), when there is one.
 */
export function bindProxies(proxies: SceneProxy[] | undefined, points: readonly (number | undefined)[], boneOf: (point: number) => number | undefined): void {
  proxies?.forEach((proxy, k) => {
    const p = points[k];
    const b = p !== undefined ? boneOf(p) : undefined;
    if (b !== undefined) proxy.bone = b;
  });
}

/**
 * MLOD keeps no skeleton (model.cfg does): the bones an animation asks for are the LOD's named
 * selections of those names (without case), each point weighted by its selection weight, as the
 * game skins them. Up to four strongest per vertex, normalised; a vertex in none of them rides on
 * a bone of its own that nothing moves. Returns the strongest bone of a point (undefined: none),
 * or nothing when no bone was found.
 */
function skinFromSelections(scene: Scene, mesh: SceneMesh, lod: MlodLod, vertexPoint: Uint32Array, wanted: readonly string[]): ((point: number) => number | undefined) | undefined {
  const byName = new Map<string, SelectionTag>();
  for (const t of lod.tags) if (t.type === 'selection' && !byName.has(t.name.toLowerCase())) byName.set(t.name.toLowerCase(), t);
  const bones: { name: string; tag: SelectionTag }[] = [];
  const seen = new Set<string>();
  for (const w of wanted) {
    const tag = byName.get(w.toLowerCase());
    if (!tag || seen.has(w.toLowerCase())) continue;
    seen.add(w.toLowerCase());
    bones.push({ name: tag.name, tag });
  }
  if (!bones.length) return undefined;
  const nv = vertexPoint.length;
  const joints = new Uint16Array(nv * 4);
  const weights = new Float32Array(nv * 4);
  const rest = bones.length;
  let unskinned = false;
  const pick: { b: number; w: number }[] = [];
  for (let v = 0; v < nv; v++) {
    const p = vertexPoint[v]!;
    pick.length = 0;
    for (let b = 0; b < bones.length; b++) {
      const w = selectionWeight(bones[b]!.tag.points[p] ?? 0);
      if (w > 0) pick.push({ b, w });
    }
    if (!pick.length) {
      unskinned = true;
      joints[v * 4] = rest;
      weights[v * 4] = 1;
      continue;
    }
    pick.sort((x, y) => y.w - x.w);
    const top = pick.slice(0, 4);
    const sum = top.reduce((a, x) => a + x.w, 0);
    top.forEach((x, k) => { joints[v * 4 + k] = x.b; weights[v * 4 + k] = x.w / sum; });
  }
  scene.skeleton = { bones: bones.map((b) => ({ name: b.name, parent: -1, matrix: [...IDENTITY] })) };
  if (unskinned) scene.skeleton.bones.push({ name: '#unskinned', parent: -1, matrix: [...IDENTITY] });
  mesh.skin = { joints, weights };
  return (point) => {
    let best: number | undefined, most = 0;
    bones.forEach((b, i) => {
      const w = selectionWeight(b.tag.points[point] ?? 0);
      if (w > most) { most = w; best = i; }
    });
    return best;
  };
}

function lodMesh(lod: MlodLod, li: number, skip: Uint8Array): { mesh: SceneMesh; materials: SceneMaterial[]; vertexPoint: Uint32Array } {
  const f = lod.faces;
  const n = f.vertexCount.length;
  const nPoints = lod.pointFlags.length;
  const nNormals = lod.normals.length / 3;
  // Faces grouped by texture/material pair in first-use order (face-groups.ts), leaving out the
  // faces the preview cannot draw: not a triangle or quad, skipped, or naming a point past the
  // table (validate() reports these).
  const { groupOf: faceGroup, groups: faceGroups } = mlodFaceGroups(f, (i) => {
    const vc = f.vertexCount[i]!;
    if ((vc !== 3 && vc !== 4) || skip[i]) return false;
    for (let k = 0; k < vc; k++) if (f.pointIndex[i * 4 + k]! >= nPoints) return false;
    return true;
  });
  const materials: SceneMaterial[] = faceGroups.map(({ texture, material }) => ({
    name: material || texture || '(untextured)',
    color: [1, 1, 1, 1],
    ...(texture && !texture.startsWith('#') ? { texture } : {}),
    ...(texture.startsWith('#') ? { color: proceduralColor(texture) } : {}),
    ...(material ? { rvmat: material } : {}),
    source: ['lods', li, 'faces'],
  }));
  const groupVertices = new Int32Array(materials.length);
  const groupTris = new Int32Array(materials.length);
  let vertexTotal = 0;
  let triTotal = 0;
  for (let i = 0; i < n; i++) {
    const g = faceGroup[i]!;
    if (g < 0) continue;
    const vc = f.vertexCount[i]!;
    groupVertices[g]! += vc;
    groupTris[g]! += vc - 2;
    vertexTotal += vc;
    triTotal += vc - 2;
  }
  const positions = new Float32Array(vertexTotal * 3);
  const normals = new Float32Array(vertexTotal * 3);
  const uvs = new Float32Array(vertexTotal * 2);
  const indices = new Uint32Array(triTotal * 3);
  const vertexPoint = new Uint32Array(vertexTotal);
  const groups: SceneMesh['groups'] = [];
  const P = lod.points;
  const N = lod.normals;
  // The groups one after another, each with its faces in file order: one pass over the faces,
  // each written at its group's cursor (vertices and indices), where one pass per group was made.
  const vertexAt = new Int32Array(materials.length);
  const triangleAt = new Int32Array(materials.length);
  for (let g = 0, vs = 0, ts = 0; g < materials.length; g++) {
    vertexAt[g] = vs;
    triangleAt[g] = ts * 3;
    groups.push({ start: ts * 3, count: groupTris[g]! * 3, material: g });
    vs += groupVertices[g]!;
    ts += groupTris[g]!;
  }
  for (let i = 0; i < n; i++) {
    const g = faceGroup[i]!;
    if (g < 0) continue;
    let v = vertexAt[g]!;
    let t = triangleAt[g]!;
    const vc = f.vertexCount[i]!;
    const first = v;
    // Geometric normal in scene axes, used where a face vertex has no valid stored normal.
    const a = f.pointIndex[i * 4]!, b = f.pointIndex[i * 4 + 1]!, c = f.pointIndex[i * 4 + 2]!;
    const ux = P[b * 3]! - P[a * 3]!, uy = P[b * 3 + 1]! - P[a * 3 + 1]!, uz = -(P[b * 3 + 2]! - P[a * 3 + 2]!);
    const wx = P[c * 3]! - P[a * 3]!, wy = P[c * 3 + 1]! - P[a * 3 + 1]!, wz = -(P[c * 3 + 2]! - P[a * 3 + 2]!);
    let gx = uy * wz - uz * wy, gy = uz * wx - ux * wz, gz = ux * wy - uy * wx;
    const len = Math.hypot(gx, gy, gz) || 1;
    gx /= len; gy /= len; gz /= len;
    for (let k = 0; k < vc; k++) {
      const pi = f.pointIndex[i * 4 + k]!;
      vertexPoint[v] = pi;
      positions[v * 3] = P[pi * 3]!;
      positions[v * 3 + 1] = P[pi * 3 + 1]!;
      positions[v * 3 + 2] = -P[pi * 3 + 2]!;
      const ni = f.normalIndex[i * 4 + k]!;
      if (ni < nNormals) {
        normals[v * 3] = -N[ni * 3]!;
        normals[v * 3 + 1] = -N[ni * 3 + 1]!;
        normals[v * 3 + 2] = N[ni * 3 + 2]!;
      } else {
        normals[v * 3] = gx;
        normals[v * 3 + 1] = gy;
        normals[v * 3 + 2] = gz;
      }
      uvs[v * 2] = f.uv[i * 8 + k * 2]!;
      uvs[v * 2 + 1] = f.uv[i * 8 + k * 2 + 1]!;
      v++;
    }
    indices[t++] = first; indices[t++] = first + 1; indices[t++] = first + 2;
    if (vc === 4) {
      indices[t++] = first; indices[t++] = first + 2; indices[t++] = first + 3;
    }
    vertexAt[g] = v;
    triangleAt[g] = t;
  }
  return {
    mesh: { name: resolutionName(lod.resolution), positions, normals, uvs: [uvs], indices, groups, source: ['lods', li] },
    materials,
    vertexPoint,
  };
}

/** `#(argb,8,8,3)color(r,g,b,a)` procedural textures: the colour they fill with. */
function proceduralColor(texture: string): [number, number, number, number] {
  const m = /color\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+))?/i.exec(texture);
  if (!m) return [1, 1, 1, 1];
  const c = (s: string | undefined, d: number): number => {
    const x = s === undefined ? d : Number(s);
    return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : d;
  };
  return [c(m[1], 1), c(m[2], 1), c(m[3], 1), c(m[4], 1)];
}
