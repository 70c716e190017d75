/**
 * Import -> Arma / OFP editable P3D (MLOD, P3DM LODs).
 *
 * LODs come from a naming convention (docs/import.md): a glTF scene, or a top-level node, whose
 * name (or `extras.lod`) is a LOD resolution name — `1.000`, `LOD 2`, `Geometry`, `Memory`,
 * `Fire Geometry`, `View Geometry`, `ShadowVolume 0`, ... — becomes that LOD with everything
 * below it. Without any such name the whole scene is one visual LOD, `1.000`.
 *
 * Inside a LOD: points are welded by exact position, every triangle is a face (P3D holds
 * triangles and quads; triangles are kept so nothing is guessed), UV set 0 goes on the faces and
 * further sets into `#UVSet#` tags. Each mesh node's name becomes a named selection of its points
 * and faces, plus any names in its `extras.selections`. In Memory and other point LODs, nodes
 * without a mesh become single named points (memory points). In geometry LODs a node's
 * `extras.mass` (kg) is spread over its points as `#Mass#`. Texture and `.rvmat` paths come from
 * the material's `extras.texture` / `extras.rvmat`, else the base-colour image URI and a material
 * name ending in `.rvmat`.
 *
 * Axes: P3D is left-handed; its `toScene` negates z (which also turns its clockwise faces
 * counter-clockwise) and stores normals pointing inward, so this writer negates z and writes
 * normals as (-x, -y, z) of glTF's outward ones, keeping the vertex order.
 */
import { parseResolutionName, resolutionKind, resolutionName } from '../formats/p3d/resolution.ts';
import { END_OF_FILE, isSpecialTagName, type MlodDocument, type MlodLod, type MlodTag } from '../formats/p3d/mlod/types.ts';
import { chargeAllocation } from '../binary/budget.ts';
import { requireMeshes, type WriterOptions } from './common.ts';
import { warnOnce, worldGeometry, type ImportModel } from './model.ts';

/** Resolution a LOD name stands for: P3D names (`1.000`, `Geometry`...) or `LOD n`. */
export function lodResolution(name: unknown): number | undefined {
  if (typeof name === 'number' && Number.isFinite(name)) return Math.fround(name);
  if (typeof name !== 'string') return undefined;
  const m = /^\s*lod\s*[_ ]?\s*(\d+(?:\.\d+)?)\s*$/i.exec(name);
  if (m) return Math.fround(Number(m[1]));
  return parseResolutionName(name);
}

function nodeLod(model: ImportModel, n: number): number | undefined {
  const node = model.nodes[n]!;
  return lodResolution(node.extras.lod) ?? lodResolution(node.extras.resolution) ?? lodResolution(node.name);
}

/** Welds xyz triples by exact value: the unique triples and each input's index among them. */
function weld(a: Float32Array): { unique: Float32Array; map: Uint32Array } {
  const n = a.length / 3;
  const bits = new Uint32Array(a.buffer, a.byteOffset, n * 3);
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const table = new Int32Array(cap).fill(-1);
  const map = new Uint32Array(n);
  const first: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = bits[i * 3]!, y = bits[i * 3 + 1]!, z = bits[i * 3 + 2]!;
    let h = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) >>> 0;
    for (;;) {
      h &= cap - 1;
      const e = table[h]!;
      if (e < 0) { table[h] = first.length; map[i] = first.length; first.push(i); break; }
      const j = first[e]!;
      if (bits[j * 3] === x && bits[j * 3 + 1] === y && bits[j * 3 + 2] === z) { map[i] = e; break; }
      h++;
    }
  }
  const unique = new Float32Array(first.length * 3);
  first.forEach((j, k) => unique.set(a.subarray(j * 3, j * 3 + 3), k * 3));
  return { unique, map };
}

interface LodBuild {
  resolution: number;
  name: string;
  nodes: number[];
  /** Node index of the LOD's own node (its name is the LOD's, not a selection). */
  own?: number;
  extras: Record<string, unknown>;
}

function assignLods(model: ImportModel, warnings: string[]): LodBuild[] {
  const sceneLods = model.scenes.map((s) => lodResolution(s.extras.lod) ?? lodResolution(s.name));
  const subtree = (root: number): number[] => {
    const out: number[] = [];
    const inTree = new Set([root]);
    model.nodes.forEach((n, i) => {
      if (i === root || (n.parent >= 0 && inTree.has(n.parent))) { inTree.add(i); out.push(i); }
    });
    return out;
  };
  const lods = new Map<number, LodBuild>();
  const add = (res: number, nodes: number[], own: number | undefined, extras: Record<string, unknown>): void => {
    const l = lods.get(res);
    if (l) {
      warnOnce(warnings, `two parts of the file name LOD ${resolutionName(res)}; they are merged`);
      l.nodes.push(...nodes);
      return;
    }
    lods.set(res, { resolution: res, name: resolutionName(res), nodes, ...(own !== undefined ? { own } : {}), extras });
  };
  if (model.scenes.length > 1 && sceneLods.some((r) => r !== undefined)) {
    model.scenes.forEach((s, k) => {
      const res = sceneLods[k] ?? Math.fround(1);
      if (sceneLods[k] === undefined) warnOnce(warnings, `scene "${s.name}" names no LOD; its nodes go to LOD 1.000`);
      add(res, model.nodes.map((_, i) => i).filter((i) => model.nodes[i]!.scene === k), undefined, s.extras);
    });
  } else {
    let tops = model.nodes.map((n, i) => (n.parent < 0 ? i : -1)).filter((i) => i >= 0);
    // A single wrapping root (an armature or an axis-turning node) is looked through.
    if (tops.length === 1 && nodeLod(model, tops[0]!) === undefined) {
      const kids = model.nodes.map((n, i) => (n.parent === tops[0] ? i : -1)).filter((i) => i >= 0);
      if (kids.some((k) => nodeLod(model, k) !== undefined)) tops = kids;
    }
    const marked = tops.filter((t) => nodeLod(model, t) !== undefined);
    if (marked.length === 0) add(Math.fround(1), model.nodes.map((_, i) => i), undefined, {});
    else {
      const rest: number[] = [];
      for (const t of tops) {
        const res = nodeLod(model, t);
        if (res === undefined) rest.push(...subtree(t));
        else add(res, subtree(t), t, model.nodes[t]!.extras);
      }
      if (rest.length) {
        warnOnce(warnings, 'nodes outside any LOD-named node go to LOD 1.000');
        add(Math.fround(1), rest, undefined, {});
      }
    }
  }
  return [...lods.values()].sort((a, b) => a.resolution - b.resolution);
}

function materialPaths(model: ImportModel, i: number): { texture: string; rvmat: string } {
  const m = model.materials[i]!;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const rvmat = str(m.extras.rvmat) ?? str(m.extras.material) ?? (/\.rvmat$/i.test(m.name) ? m.name : '');
  return { texture: m.texture ?? '', rvmat };
}

export function modelToMlod(model: ImportModel, opts: WriterOptions = {}): { doc: MlodDocument; warnings: string[] } {
  requireMeshes(model);
  void opts;
  const warnings = [...model.warnings];
  if (model.joints.length) warnOnce(warnings, 'P3D models hold no skin: joints and weights are left out (skinned meshes are placed in their rest pose)');
  if (model.clips.length) warnOnce(warnings, 'animations are left out: P3D animations live in model.cfg');
  const lods = assignLods(model, warnings).map((l) => buildLod(model, l, warnings));
  return { doc: { signature: 'MLOD', version: 0x101, lods, trailing: new Uint8Array(0) }, warnings };
}

/** One LOD of the given resolution holding the whole model (for replacing a LOD of a document). */
export function mlodLodOf(model: ImportModel, resolution: number, warnings: string[]): MlodLod {
  return buildLod(model, { resolution, name: resolutionName(resolution), nodes: model.nodes.map((_, i) => i), extras: {} }, warnings);
}

function buildLod(model: ImportModel, l: LodBuild, warnings: string[]): MlodLod {
  const kind = resolutionKind(l.resolution);
  const pointLod = kind === 'memory' || kind === 'special';
  // World-space geometry of every mesh node, and lone points, in one array (z negated: P3D is
  // left-handed), with each vertex's normal in P3D's inward convention beside it.
  const faceParts: { node: number; base: number; tris: Uint32Array; flip: boolean; uvs: Float32Array[]; groups: { start: number; count: number; material: number }[] }[] = [];
  const loose: { node: number; base: number }[] = [];
  let total = 0;
  for (const n of l.nodes) {
    const node = model.nodes[n]!;
    if (node.mesh !== undefined) total += model.meshes[node.mesh]!.positions.length / 3;
    else if (pointLod && n !== l.own) total += 1;
  }
  const all = new Float32Array(total * 3);
  const allNormals = new Float32Array(total * 3);
  let base = 0;
  for (const n of l.nodes) {
    const node = model.nodes[n]!;
    if (node.mesh !== undefined) {
      const m = model.meshes[node.mesh]!;
      const g = worldGeometry(model, m);
      all.set(g.positions, base * 3);
      allNormals.set(g.normals, base * 3);
      faceParts.push({ node: n, base, tris: m.indices, flip: g.flip, uvs: m.uvs, groups: m.groups });
      base += g.positions.length / 3;
    } else if (pointLod && n !== l.own) {
      all.set([node.world[12]!, node.world[13]!, node.world[14]!], base * 3);
      allNormals[base * 3 + 1] = 1;
      loose.push({ node: n, base });
      base += 1;
    }
  }
  for (let i = 0; i < all.length; i += 3) {
    all[i + 2] = -all[i + 2]!;
    allNormals[i] = -allNormals[i]!;
    allNormals[i + 1] = -allNormals[i + 1]!;
  }
  const { unique: points, map: pointOf } = weld(all);
  const nPoints = points.length / 3;
  const nFaces = faceParts.reduce((s, p) => s + p.tris.length / 3, 0);
  chargeAllocation(nFaces * 88 + nPoints * 16, 'P3D LOD', 0, `LOD ${l.name}`);
  const { unique: normals, map: normalOf } = weld(allNormals);
  const faces = {
    vertexCount: new Uint32Array(nFaces).fill(3), pointIndex: new Uint32Array(nFaces * 4), normalIndex: new Uint32Array(nFaces * 4),
    uv: new Float32Array(nFaces * 8), flags: new Uint32Array(nFaces), textures: [] as string[], textureIndex: new Uint32Array(nFaces),
    materials: [] as string[], materialIndex: new Uint32Array(nFaces),
  };
  const tId = new Map<string, number>(), mId = new Map<string, number>();
  const intern = (s: string, table: string[], ids: Map<string, number>): number => {
    let id = ids.get(s);
    if (id === undefined) { id = table.length; table.push(s); ids.set(s, id); }
    return id;
  };
  const maxSets = faceParts.reduce((s, p) => Math.max(s, p.uvs.length), 0);
  const extraUv = Array.from({ length: Math.max(0, maxSets - 1) }, () => new Float32Array(nFaces * 6));
  const selFaces = new Map<string, Uint8Array>(), selPoints = new Map<string, Uint8Array>();
  const select = (name: string): [Uint8Array, Uint8Array] | undefined => {
    if (!name || isSpecialTagName(name)) return undefined;
    let f = selFaces.get(name), p = selPoints.get(name);
    if (!f || !p) { f = new Uint8Array(nFaces); p = new Uint8Array(nPoints); selFaces.set(name, f); selPoints.set(name, p); }
    return [f, p];
  };
  const namesOf = (n: number): string[] => {
    const node = model.nodes[n]!;
    const extra = Array.isArray(node.extras.selections) ? node.extras.selections.filter((s): s is string => typeof s === 'string') : [];
    return [...(n === l.own ? [] : [node.name]), ...extra];
  };
  const masses = new Float32Array(nPoints);
  let hasMass = false;
  let fi = 0;
  for (const part of faceParts) {
    const sels = namesOf(part.node).map(select).filter((s) => s !== undefined);
    const nodePoints = new Set<number>();
    for (const g of part.groups) {
      const { texture, rvmat } = materialPaths(model, g.material);
      const ti = intern(texture, faces.textures, tId), mi = intern(rvmat, faces.materials, mId);
      for (let t = g.start; t < g.start + g.count; t += 3) {
        const corner = part.flip ? [0, 2, 1] : [0, 1, 2];
        for (let k = 0; k < 3; k++) {
          const v = part.tris[t + corner[k]!]!;
          const p = pointOf[part.base + v]!;
          faces.pointIndex[fi * 4 + k] = p;
          nodePoints.add(p);
          faces.normalIndex[fi * 4 + k] = normalOf[part.base + v]!;
          const uv0 = part.uvs[0];
          if (uv0) { faces.uv[fi * 8 + k * 2] = uv0[v * 2]!; faces.uv[fi * 8 + k * 2 + 1] = uv0[v * 2 + 1]!; }
          extraUv.forEach((set, s) => {
            const src = part.uvs[s + 1];
            if (src) { set[fi * 6 + k * 2] = src[v * 2]!; set[fi * 6 + k * 2 + 1] = src[v * 2 + 1]!; }
          });
        }
        faces.textureIndex[fi] = ti;
        faces.materialIndex[fi] = mi;
        for (const [sf] of sels) sf[fi] = 1;
        fi++;
      }
    }
    const mesh = model.meshes[model.nodes[part.node]!.mesh!]!;
    for (const v of mesh.points ?? []) nodePoints.add(pointOf[part.base + v]!);
    for (const [, sp] of sels) for (const p of nodePoints) sp[p] = 1;
    const mass = model.nodes[part.node]!.extras.mass;
    if (typeof mass === 'number' && mass > 0 && nodePoints.size) {
      if (resolutionKind(l.resolution) !== 'geometry') warnOnce(warnings, `node "${model.nodes[part.node]!.name}": extras.mass is used in geometry LODs only`);
      else {
        for (const p of nodePoints) masses[p] = masses[p]! + mass / nodePoints.size;
        hasMass = true;
      }
    }
  }
  for (const lp of loose) {
    const p = pointOf[lp.base]!;
    for (const s of namesOf(lp.node).map(select)) if (s) s[1][p] = 1;
  }
  const lodMass = l.extras.mass;
  if (typeof lodMass === 'number' && lodMass > 0 && kind === 'geometry' && !hasMass && nPoints) {
    masses.fill(lodMass / nPoints);
    hasMass = true;
  }
  if (faces.materials.length === 0) faces.materials.push('');
  if (faces.textures.length === 0) faces.textures.push('');
  const tags: MlodTag[] = [];
  for (const [name, f] of selFaces) tags.push({ type: 'selection', name, active: 1, points: selPoints.get(name)!, faces: f });
  if (hasMass) tags.push({ type: 'mass', name: '#Mass#', active: 1, masses });
  extraUv.forEach((uv, s) => tags.push({ type: 'uvset', name: '#UVSet#', active: 1, setId: s + 1, uv }));
  tags.push({ type: 'end', name: END_OF_FILE, active: 1, data: new Uint8Array(0) });
  return {
    signature: 'P3DM', headerSize: 28, version: 0x100, flags: 0, headerExtra: new Uint8Array(0),
    points, pointFlags: new Uint32Array(nPoints), normals, faces, tags, resolution: l.resolution,
  };
}
