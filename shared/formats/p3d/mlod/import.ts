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
import { parseResolutionName, resolutionKind, resolutionName } from '../resolution.ts';
import { END_OF_FILE, isSpecialTagName, type MlodDocument, type MlodFaces, type MlodLod, type MlodTag } from './types.ts';
import { chargeAllocation } from '../../../binary/budget.ts';
import { ImportError } from '../../../import/errors.ts';
import { requireMeshes, type WriterOptions } from '../../../import/common.ts';
import { warnOnce, worldGeometry, type ImportMesh, type ImportModel } from '../../../import/model.ts';
import type { GltfImporter } from '../../capabilities.ts';
import { deferField } from '../../../model/deferred.ts';
import { setFaceSource, type MlodFaceColumns } from './encode.ts';
import type { EditCommand } from '../../../model/commands.ts';
import type { NodePath } from '../../../model/path.ts';

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

/**
 * Vertices of several arrays seen as one list (global index = an array's base + its own index),
 * each read with some axes negated: the LOD's points (z negated: P3D is left-handed) or normals
 * (x and y negated: P3D stores them pointing inward). No concatenated copy is made.
 */
class Sources {
  readonly arrays: Float32Array[] = [];
  readonly bases: number[] = [];
  total = 0;
  readonly neg: readonly [boolean, boolean, boolean];
  constructor(neg: readonly [boolean, boolean, boolean]) {
    this.neg = neg;
  }
  add(a: Float32Array): void {
    this.arrays.push(a);
    this.bases.push(this.total);
    this.total += a.length / 3;
  }
  /** Vertex `g` with the negations applied, into `out` (a float32 scratch, so -0 stays -0). */
  read(g: number, out: Float32Array): void {
    let lo = 0, hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bases[mid]! <= g) lo = mid;
      else hi = mid - 1;
    }
    const a = this.arrays[lo]!, o = (g - this.bases[lo]!) * 3;
    out[0] = this.neg[0] ? -a[o]! : a[o]!;
    out[1] = this.neg[1] ? -a[o + 1]! : a[o + 1]!;
    out[2] = this.neg[2] ? -a[o + 2]! : a[o + 2]!;
  }
}

/** Welds the sources' xyz triples by exact value: how many are unique, the first vertex of each, and each vertex's unique index. */
function weld(src: Sources, what: string, where: string, scratch?: Int32Array): { count: number; first: Uint32Array; map: Uint32Array; table: Int32Array } {
  const n = src.total;
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  // The hash table of an earlier weld of as many vertices is reused (points, then normals).
  const reuse = scratch !== undefined && scratch.length === cap;
  chargeAllocation((reuse ? 0 : cap * 4) + n * 8, `${what} weld`, 0, where);
  const table = reuse ? scratch.fill(-1) : new Int32Array(cap).fill(-1);
  const map = new Uint32Array(n);
  const first = new Uint32Array(n);
  const a = new Float32Array(3), b = new Float32Array(3);
  const ab = new Uint32Array(a.buffer), bb = new Uint32Array(b.buffer);
  let count = 0;
  for (let i = 0; i < n; i++) {
    src.read(i, a);
    const x = ab[0]!, y = ab[1]!, z = ab[2]!;
    let h = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) >>> 0;
    for (;;) {
      h &= cap - 1;
      const e = table[h]!;
      if (e < 0) { table[h] = count; map[i] = count; first[count++] = i; break; }
      src.read(first[e]!, b);
      if (bb[0] === x && bb[1] === y && bb[2] === z) { map[i] = e; break; }
      h++;
    }
  }
  return { count, first, map, table };
}

/** The welded unique triples as one array (the document's points or normals). */
function uniqueOf(src: Sources, w: { count: number; first: Uint32Array }): Float32Array {
  const out = new Float32Array(w.count * 3);
  const v = new Float32Array(3);
  for (let k = 0; k < w.count; k++) {
    src.read(w.first[k]!, v);
    out[k * 3] = v[0]!; out[k * 3 + 1] = v[1]!; out[k * 3 + 2] = v[2]!;
  }
  return out;
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

function materialPaths(model: ImportModel, i: number, warnings: string[]): { texture: string; rvmat: string } {
  const m = model.materials[i]!;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const rvmat = str(m.extras.rvmat) ?? str(m.extras.material) ?? (/\.rvmat$/i.test(m.name) ? m.name : '');
  // A picture inside the glTF has a name ("duck"), not a path: a P3D face names a texture file.
  if (m.texture && m.textureEmbedded) {
    warnOnce(warnings, `the image "${m.texture}" is stored inside the glTF, not as a file: faces of material ${m.name} get no texture path (give the material extras.texture, or set the path in the Materials tab)`);
    return { texture: '', rvmat };
  }
  return { texture: m.texture ?? '', rvmat };
}

/**
 * The model as an MLOD document. Its LODs' face columns are deferred fields made on first read,
 * and the MLOD encoder writes them from the model a chunk at a time without making them
 * (encode.ts, MlodFaceSource): an import holds the glTF, the file and a few MB beside them,
 * instead of 80 bytes a face of columns next to the file's 74.
 */
export function modelToMlod(model: ImportModel, opts: WriterOptions = {}): { doc: MlodDocument; warnings: string[] } {
  const { lods, warnings } = plan(model, opts);
  return { doc: { signature: 'MLOD', version: 0x101, lods: lods.map((l) => lodDocument(l, true)), trailing: new Uint8Array(0) }, warnings };
}

function plan(model: ImportModel, opts: WriterOptions): { lods: LodPrep[]; warnings: string[] } {
  requireMeshes(model);
  void opts;
  const warnings = [...model.warnings];
  if (model.joints.length) warnOnce(warnings, 'P3D models hold no skin: joints and weights are left out (skinned meshes are placed in their rest pose)');
  if (model.clips.length) warnOnce(warnings, 'animations are left out: P3D animations live in model.cfg');
  return { lods: assignLods(model, warnings).map((l) => prepareLod(model, l, warnings)), warnings };
}

/** One LOD of the given resolution holding the whole model (for replacing a LOD of a document). */
export function mlodLodOf(model: ImportModel, resolution: number, warnings: string[]): MlodLod {
  return lodDocument(prepareLod(model, { resolution, name: resolutionName(resolution), nodes: model.nodes.map((_, i) => i), extras: {} }, warnings));
}

interface FacePart {
  node: number;
  base: number;
  tris: Uint32Array;
  flip: boolean;
  uvs: Float32Array[];
  groups: { start: number; count: number; material: number }[];
  /** Texture and material index of each group (into LodPrep.textures / materials). */
  ids: { ti: number; mi: number }[];
}

/** Everything about one LOD except its face columns: welded points and normals, selections, paths. */
interface LodPrep {
  model: ImportModel;
  l: LodBuild;
  kind: ReturnType<typeof resolutionKind>;
  name: string;
  resolution: number;
  points: Sources;
  pointWeld: { count: number; first: Uint32Array; map: Uint32Array };
  normals: Sources;
  normalWeld: { count: number; first: Uint32Array; map: Uint32Array };
  parts: FacePart[];
  loose: { node: number; base: number }[];
  nFaces: number;
  nPoints: number;
  textures: string[];
  materials: string[];
  /** Selection name -> [face bytes, point bytes], in the order the tags are written. */
  selections: Map<string, [Uint8Array, Uint8Array]>;
  /** Selections of each part (parallel to `parts`). */
  partSelections: [Uint8Array, Uint8Array][][];
  /** Further UV sets (set 1...), u/v per face corner. */
  extraUv: Float32Array[];
  warnings: string[];
}

function prepareLod(model: ImportModel, l: LodBuild, warnings: string[]): LodPrep {
  const kind = resolutionKind(l.resolution);
  const pointLod = kind === 'memory' || kind === 'special';
  const where = `LOD ${l.name}`;
  // World-space geometry of every mesh node, and lone points, as one list (read with z negated:
  // P3D is left-handed), with each vertex's normal in P3D's inward convention beside it.
  const points = new Sources([false, false, true]);
  const normals = new Sources([true, true, false]);
  const parts: FacePart[] = [];
  const loose: { node: number; base: number }[] = [];
  const up = Float32Array.of(0, 1, 0);
  for (const n of l.nodes) {
    const node = model.nodes[n]!;
    if (node.mesh !== undefined) {
      const m = model.meshes[node.mesh]!;
      const g = worldGeometry(model, m);
      parts.push({ node: n, base: points.total, tris: m.indices, flip: g.flip, uvs: m.uvs, groups: m.groups, ids: [] });
      points.add(g.positions);
      normals.add(g.normals);
    } else if (pointLod && n !== l.own) {
      loose.push({ node: n, base: points.total });
      points.add(Float32Array.of(node.world[12]!, node.world[13]!, node.world[14]!));
      normals.add(up);
    }
  }
  const { table, ...pointWeld } = weld(points, 'P3D point', where);
  const nPoints = pointWeld.count;
  const nFaces = parts.reduce((s, p) => s + p.tris.length / 3, 0);
  const { table: _done, ...normalWeld } = weld(normals, 'P3D normal', where, table);
  const textures: string[] = [], materials: string[] = [];
  const tId = new Map<string, number>(), mId = new Map<string, number>();
  const intern = (str: string, table: string[], ids: Map<string, number>): number => {
    let id = ids.get(str);
    if (id === undefined) { id = table.length; table.push(str); ids.set(str, id); }
    return id;
  };
  for (const part of parts) {
    for (const g of part.groups) {
      const { texture, rvmat } = materialPaths(model, g.material, warnings);
      part.ids.push({ ti: intern(texture, textures, tId), mi: intern(rvmat, materials, mId) });
    }
  }
  if (materials.length === 0) materials.push('');
  if (textures.length === 0) textures.push('');
  // Selections in the order their tags are written: every part's names, then the lone points'.
  chargeAllocation(nFaces * 4 + nPoints * 4, 'P3D selections', 0, where);
  const selections = new Map<string, [Uint8Array, Uint8Array]>();
  const select = (name: string): [Uint8Array, Uint8Array] | undefined => {
    if (!name || isSpecialTagName(name)) return undefined;
    let sel = selections.get(name);
    if (!sel) {
      chargeAllocation(nFaces + nPoints, 'P3D selection', 0, where);
      sel = [new Uint8Array(nFaces), new Uint8Array(nPoints)];
      selections.set(name, sel);
    }
    return sel;
  };
  const namesOf = (n: number): string[] => {
    const node = model.nodes[n]!;
    const extra = Array.isArray(node.extras.selections) ? node.extras.selections.filter((x): x is string => typeof x === 'string') : [];
    return [...(n === l.own ? [] : [node.name]), ...extra];
  };
  const partSelections = parts.map((p) => namesOf(p.node).map(select).filter((x) => x !== undefined));
  for (const lp of loose) {
    const p = pointWeld.map[lp.base]!;
    for (const sel of namesOf(lp.node).map(select)) if (sel) sel[1][p] = 1;
  }
  const maxSets = parts.reduce((m, p) => Math.max(m, p.uvs.length), 0);
  chargeAllocation(Math.max(0, maxSets - 1) * nFaces * 24, 'P3D UV sets', 0, where);
  const extraUv = Array.from({ length: Math.max(0, maxSets - 1) }, () => new Float32Array(nFaces * 6));
  return {
    model, l, kind, name: l.name, resolution: l.resolution, points, pointWeld, normals, normalWeld, parts, loose, nFaces, nPoints,
    textures, materials, selections, partSelections, extraUv, warnings,
  };
}

/**
 * Walks the LOD's faces in file order: `face(fi, part, t, corner)` for each, after which the
 * selections, extra UV sets and masses are complete. Returns the masses when any node gives one.
 */
function eachFace(prep: LodPrep, face: (fi: number, part: FacePart, group: number, t: number, corner: readonly number[]) => void): Float32Array | undefined {
  const { model, l, pointWeld, parts, nPoints, extraUv, warnings } = prep;
  const pointOf = pointWeld.map;
  let masses: Float32Array | undefined;
  // Which points a part uses (each counted once), only when a mass is spread over them.
  let stamp: Int32Array | undefined;
  let fi = 0;
  parts.forEach((part, k) => {
    const sels = prep.partSelections[k]!;
    const mass = model.nodes[part.node]!.extras.mass;
    const wantsMass = typeof mass === 'number' && mass > 0;
    const used: number[] = [];
    if (wantsMass && !stamp) stamp = new Int32Array(nPoints).fill(-1);
    const touch = (p: number): void => {
      for (const [, sp] of sels) sp[p] = 1;
      if (stamp && wantsMass && stamp[p] !== k) { stamp[p] = k; used.push(p); }
    };
    const corner = part.flip ? [0, 2, 1] : [0, 1, 2];
    part.groups.forEach((g, gi) => {
      for (let t = g.start; t < g.start + g.count; t += 3) {
        face(fi, part, gi, t, corner);
        for (let c = 0; c < 3; c++) {
          const v = part.tris[t + corner[c]!]!;
          touch(pointOf[part.base + v]!);
          for (let s = 0; s < extraUv.length; s++) {
            const src = part.uvs[s + 1];
            if (src) { extraUv[s]![fi * 6 + c * 2] = src[v * 2]!; extraUv[s]![fi * 6 + c * 2 + 1] = src[v * 2 + 1]!; }
          }
        }
        for (const [sf] of sels) sf[fi] = 1;
        fi++;
      }
    });
    const mesh = model.meshes[model.nodes[part.node]!.mesh!]!;
    for (const v of mesh.points ?? []) touch(pointOf[part.base + v]!);
    if (wantsMass && used.length) {
      if (prep.kind !== 'geometry') warnOnce(warnings, `node "${model.nodes[part.node]!.name}": extras.mass is used in geometry LODs only`);
      else {
        masses ??= new Float32Array(nPoints);
        for (const p of used) masses[p] = masses[p]! + (mass as number) / used.length;
      }
    }
  });
  const lodMass = l.extras.mass;
  if (typeof lodMass === 'number' && lodMass > 0 && prep.kind === 'geometry' && !masses && nPoints) masses = new Float32Array(nPoints).fill(lodMass / nPoints);
  return masses;
}

/** A name or path the file stores NUL-terminated: refused here, as the glTF's fault, when it holds a NUL. */
function nulFree(text: string, what: string): string {
  if (text.includes('\0')) throw new ImportError(`the ${what} "${text.replace(/\0/g, '\\0')}" holds a NUL character`, 'nodes');
  return text;
}

/** The tags after the faces, in order (selections, mass, UV sets, end). */
function lodTags(prep: LodPrep, masses: Float32Array | undefined): MlodTag[] {
  const tags: MlodTag[] = [];
  for (const [name, [faces, points]] of prep.selections) tags.push({ type: 'selection', name: nulFree(name, 'name'), active: 1, points, faces });
  if (masses) tags.push({ type: 'mass', name: '#Mass#', active: 1, masses });
  prep.extraUv.forEach((uv, s) => tags.push({ type: 'uvset', name: '#UVSet#', active: 1, setId: s + 1, uv }));
  tags.push({ type: 'end', name: END_OF_FILE, active: 1, data: new Uint8Array(0) });
  return tags;
}

/** A stretch of the LOD's faces that come from one material group of one part, in file order. */
interface FaceRun {
  first: number;
  count: number;
  part: FacePart;
  group: number;
  corner: readonly number[];
}

/** The LOD's faces as runs, in the order {@link eachFace} walks them. */
function faceRuns(parts: FacePart[]): FaceRun[] {
  const runs: FaceRun[] = [];
  let first = 0;
  for (const part of parts) {
    const corner = part.flip ? [0, 2, 1] : [0, 1, 2];
    part.groups.forEach((g, gi) => {
      const count = Math.ceil(g.count / 3);
      if (count > 0) runs.push({ first, count, part, group: gi, corner });
      first += count;
    });
  }
  return runs;
}

/**
 * Faces `start`..`start + n - 1` into `into`'s columns (row 0 = face `start`): triangles, corner 4
 * empty, flags 0, as the columns of {@link lodDocument} hold them.
 */
function fillFaces(runs: FaceRun[], pointOf: Uint32Array, normalOf: Uint32Array, start: number, n: number, into: MlodFaceColumns): void {
  let lo = 0, hi = runs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (runs[mid]!.first <= start) lo = mid;
    else hi = mid - 1;
  }
  const { vertexCount, pointIndex, normalIndex, uv, flags, textureIndex, materialIndex } = into;
  let r = lo;
  for (let j = 0; j < n; ) {
    const run = runs[r++]!;
    const { part, corner } = run;
    const g = part.groups[run.group]!;
    const ids = part.ids[run.group]!;
    const uv0 = part.uvs[0];
    const tris = part.tris;
    const base = part.base;
    const c0 = corner[0]!, c1 = corner[1]!, c2 = corner[2]!;
    for (let k = start + j - run.first; k < run.count && j < n; k++, j++) {
      const t = g.start + k * 3;
      const v0 = tris[t + c0]!, v1 = tris[t + c1]!, v2 = tris[t + c2]!;
      const j4 = j * 4, j8 = j * 8;
      vertexCount[j] = 3;
      pointIndex[j4] = pointOf[base + v0]!; pointIndex[j4 + 1] = pointOf[base + v1]!; pointIndex[j4 + 2] = pointOf[base + v2]!; pointIndex[j4 + 3] = 0;
      normalIndex[j4] = normalOf[base + v0]!; normalIndex[j4 + 1] = normalOf[base + v1]!; normalIndex[j4 + 2] = normalOf[base + v2]!; normalIndex[j4 + 3] = 0;
      if (uv0) {
        uv[j8] = uv0[v0 * 2]!; uv[j8 + 1] = uv0[v0 * 2 + 1]!;
        uv[j8 + 2] = uv0[v1 * 2]!; uv[j8 + 3] = uv0[v1 * 2 + 1]!;
        uv[j8 + 4] = uv0[v2 * 2]!; uv[j8 + 5] = uv0[v2 * 2 + 1]!;
      } else {
        uv[j8] = 0; uv[j8 + 1] = 0; uv[j8 + 2] = 0; uv[j8 + 3] = 0; uv[j8 + 4] = 0; uv[j8 + 5] = 0;
      }
      uv[j8 + 6] = 0; uv[j8 + 7] = 0;
      flags[j] = 0;
      textureIndex[j] = ids.ti;
      materialIndex[j] = ids.mi;
    }
  }
}

/**
 * The LOD as the MLOD codec's document holds it (face columns). `stream`: the per-face columns are
 * deferred fields, and the encoder writes them from the model in chunks (see {@link modelToMlod});
 * otherwise (a LOD that replaces one in an open document) they are made while walking the faces,
 * which the tests hold the streamed faces to.
 */
function lodDocument(prep: LodPrep, stream = false): MlodLod {
  const { nFaces, nPoints, pointWeld, normalWeld } = prep;
  chargeAllocation(nFaces * 88 + nPoints * 16, 'P3D LOD', 0, `LOD ${prep.name}`);
  const textures = prep.textures.map((t) => nulFree(t, 'texture path'));
  const materials = prep.materials.map((m) => nulFree(m, 'material path'));
  const pointOf = pointWeld.map, normalOf = normalWeld.map;
  const runs = stream ? faceRuns(prep.parts) : [];
  const whole = (): MlodFaceColumns => {
    const cols: MlodFaceColumns = {
      vertexCount: new Uint32Array(nFaces), pointIndex: new Uint32Array(nFaces * 4), normalIndex: new Uint32Array(nFaces * 4),
      uv: new Float32Array(nFaces * 8), flags: new Uint32Array(nFaces), textureIndex: new Uint32Array(nFaces), materialIndex: new Uint32Array(nFaces),
    };
    if (nFaces) fillFaces(runs, pointOf, normalOf, 0, nFaces, cols);
    return cols;
  };
  let faces: MlodFaces;
  let masses: Float32Array | undefined;
  if (!stream) {
    // The columns made while walking the faces (which also fills selections, UV sets, masses).
    faces = {
      vertexCount: new Uint32Array(nFaces).fill(3), pointIndex: new Uint32Array(nFaces * 4), normalIndex: new Uint32Array(nFaces * 4),
      uv: new Float32Array(nFaces * 8), flags: new Uint32Array(nFaces), textures, textureIndex: new Uint32Array(nFaces), materials, materialIndex: new Uint32Array(nFaces),
    };
    const f = faces;
    masses = eachFace(prep, (fi, part, gi, t, corner) => {
      const uv0 = part.uvs[0];
      for (let c = 0; c < 3; c++) {
        const v = part.tris[t + corner[c]!]!;
        f.pointIndex[fi * 4 + c] = pointOf[part.base + v]!;
        f.normalIndex[fi * 4 + c] = normalOf[part.base + v]!;
        if (uv0) { f.uv[fi * 8 + c * 2] = uv0[v * 2]!; f.uv[fi * 8 + c * 2 + 1] = uv0[v * 2 + 1]!; }
      }
      f.textureIndex[fi] = part.ids[gi]!.ti;
      f.materialIndex[fi] = part.ids[gi]!.mi;
    });
  } else {
    // Selections, extra UV sets and masses are filled by walking the faces once.
    masses = eachFace(prep, () => undefined);
    // The same fields in the same order, the per-face ones deferred (one make serves them all).
    let made: MlodFaceColumns | undefined;
    const col = <K extends keyof MlodFaceColumns>(k: K) => (): MlodFaceColumns[K] => (made ??= whole())[k];
    faces = {} as MlodFaces;
    deferField(faces, 'vertexCount', col('vertexCount'), nFaces);
    deferField(faces, 'pointIndex', col('pointIndex'), nFaces * 4);
    deferField(faces, 'normalIndex', col('normalIndex'), nFaces * 4);
    deferField(faces, 'uv', col('uv'), nFaces * 8);
    deferField(faces, 'flags', col('flags'), nFaces);
    faces.textures = textures;
    deferField(faces, 'textureIndex', col('textureIndex'), nFaces);
    faces.materials = materials;
    deferField(faces, 'materialIndex', col('materialIndex'), nFaces);
    setFaceSource(faces, { count: nFaces, vertexTotal: nFaces * 3, fill: (start, n, into) => fillFaces(runs, pointOf, normalOf, start, n, into) });
  }
  const points = uniqueOf(prep.points, pointWeld);
  const normals = uniqueOf(prep.normals, normalWeld);
  // The welds' first-vertex lists were only for the unique points and normals.
  pointWeld.first = new Uint32Array(0);
  normalWeld.first = new Uint32Array(0);
  return {
    signature: 'P3DM', headerSize: 28, version: 0x100, flags: 0, headerExtra: new Uint8Array(0),
    points, pointFlags: new Uint32Array(nPoints), normals, faces,
    tags: lodTags(prep, masses), resolution: prep.resolution,
  };
}

/** "Replace mesh from glTF" on a LOD: the whole glTF becomes that LOD, at its resolution. */
function replaceMlodLod(doc: object, path: NodePath, model: ImportModel, _mesh: ImportMesh, warnings: string[]): EditCommand {
  const mlod = doc as MlodDocument;
  const li = path[0] === 'lods' && typeof path[1] === 'number' ? path[1] : -1;
  const lod = mlod.lods[li];
  if (!lod || path.length !== 2) throw new ImportError('select a LOD to replace', '');
  const replacement = mlodLodOf(model, lod.resolution, warnings);
  return { op: 'set', path, value: replacement };
}

/** The MLOD import writer (capabilities.ts): every glTF scene may be a LOD; the MLOD codec encodes the document. */
export const mlodImporter: GltfImporter = {
  nameEncoding: 'latin1',
  modelOptions: { allScenes: true, keepPoints: true },
  write: (model, opts) => modelToMlod(model, opts),
  replaceMesh: replaceMlodLod,
};
