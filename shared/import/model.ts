/**
 * glTF Transform Document -> the importers' neutral model: what every format writer starts from.
 *
 * - Space: glTF's (right-handed, Y up, metres as given). Writers convert to their format's axes
 *   exactly as that format's `toScene` converts back, so `convert` returns the same geometry.
 * - Nodes: the chosen scene(s), parents before children, with local and world matrices and extras.
 * - Meshes: one per node that places a mesh; the mesh's primitives are merged into one vertex
 *   set with one group per primitive (material). Strips and fans are triangulated; normals are
 *   computed where absent; every UV set and COLOR_0 are kept.
 * - Skinned meshes are posed as glTF draws them at rest (linear blend skinning with the joints'
 *   rest transforms), so their vertices are in world space at rest, and each joint's inverse bind
 *   is the inverse of its world rest matrix. Weights are normalised; up to 8 influences are kept
 *   (JOINTS_0/1), strongest first.
 * - Animations keep glTF's channels (node, path, key times, values); `resample.ts` turns them into
 *   the fixed-rate frames the formats store.
 */
import type { Accessor, Document, Material, Mesh, Node as GNode, Primitive, Skin } from '@gltf-transform/core';
import { chargeAllocation } from '../binary/budget.ts';
import type { Mat4 } from '../scene/scene.ts';
import { ImportError } from './errors.ts';
import { isInputView } from './read.ts';
import { composeTRS, decompose, IDENTITY, invertSafe, multiply } from './math.ts';

export interface ImportNode {
  name: string;
  /** Index into model.nodes, -1 for a root. */
  parent: number;
  local: Mat4;
  world: Mat4;
  /** Rest translation, rotation (xyzw), scale: what animation channels override. */
  t: number[];
  r: number[];
  s: number[];
  mesh?: number;
  extras: Record<string, unknown>;
  /** Which chosen scene the node belongs to (index into model.scenes). */
  scene: number;
  /** For messages: `nodes[3] "Arm"`. */
  path: string;
}

export interface ImportMesh {
  name: string;
  /** The node that places it. */
  node: number;
  path: string;
  /** 'local': vertices in the node's space; 'world': already posed in world space (skinned meshes). */
  space: 'local' | 'world';
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array[];
  /** rgba 0..1 per vertex. */
  colors?: Float32Array;
  /** Triangle list. */
  indices: Uint32Array;
  /** POINTS primitives' vertices (kept only when asked: P3D memory points). */
  points?: Uint32Array;
  groups: { start: number; count: number; material: number }[];
  skin?: {
    /** `influences` per vertex: index into model.joints. */
    joints: Uint16Array;
    /** Normalised, strongest first; 0 where unused. */
    weights: Float32Array;
    influences: number;
  };
}

export interface ImportMaterial {
  name: string;
  color: [number, number, number, number];
  /** The base-colour texture's path (image URI, or `extras.texture`). */
  texture?: string;
  /**
   * True when `texture` is only the name of an image stored inside the glTF (a .glb's embedded
   * picture has no URI): a name, not a file path. Writers whose files name texture files (P3D)
   * must not write it as one.
   */
  textureEmbedded?: boolean;
  alpha: 'OPAQUE' | 'BLEND' | 'MASK';
  doubleSided: boolean;
  extras: Record<string, unknown>;
}

export interface ImportChannel {
  node: number;
  path: 'translation' | 'rotation' | 'scale';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  times: Float32Array;
  values: Float32Array;
}

export interface ImportClip {
  name: string;
  /** Seconds from 0 to the last key. */
  duration: number;
  channels: ImportChannel[];
}

export interface ImportModel {
  scenes: { name: string; extras: Record<string, unknown> }[];
  nodes: ImportNode[];
  meshes: ImportMesh[];
  materials: ImportMaterial[];
  /** Node indices of every skin joint, parents before children. */
  joints: number[];
  /** World rest matrix of each joint (same order as `joints`). */
  jointWorld: Mat4[];
  clips: ImportClip[];
  warnings: string[];
}

export interface ModelOptions {
  /** Every scene instead of the default one (P3D: scenes can be LODs). */
  allScenes?: boolean;
  /** Keep POINTS primitives' vertices (P3D memory points); otherwise they are refused. */
  keepPoints?: boolean;
}

/** Limits the warning list: a big file can repeat one problem thousands of times. */
export function warnOnce(list: string[], msg: string): void {
  if (list.length < 200 && !list.includes(msg)) list.push(msg);
}

const EXTRAS = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** An accessor as floats, integer types scaled to 0..1 / -1..1 when normalised. */
export function floats(a: Accessor, path: string): Float32Array {
  const arr = a.getArray();
  if (!arr) throw new ImportError('the accessor has no data', path);
  if (arr instanceof Float32Array) return arr;
  chargeAllocation(arr.length * 4, 'glTF attribute as floats', 0, path);
  const out = new Float32Array(arr.length);
  if (!a.getNormalized()) {
    for (let i = 0; i < arr.length; i++) out[i] = arr[i]!;
    return out;
  }
  const max = arr instanceof Int8Array ? 127 : arr instanceof Uint8Array ? 255 : arr instanceof Int16Array ? 32767 : arr instanceof Uint16Array ? 65535 : 4294967295;
  const signed = arr instanceof Int8Array || arr instanceof Int16Array;
  for (let i = 0; i < arr.length; i++) out[i] = signed ? Math.max(arr[i]! / max, -1) : arr[i]! / max;
  return out;
}

function mat4Of(n: GNode): Mat4 {
  return composeTRS(n.getTranslation(), n.getRotation(), n.getScale());
}

export function gltfToModel(doc: Document, opts: ModelOptions = {}): ImportModel {
  const root = doc.getRoot();
  const model: ImportModel = { scenes: [], nodes: [], meshes: [], materials: [], joints: [], jointWorld: [], clips: [], warnings: [] };
  const warn = (m: string): void => warnOnce(model.warnings, m);
  const allNodes = root.listNodes();
  const gIndex = new Map(allNodes.map((n, i) => [n, i]));
  const nodeIndex = new Map<GNode, number>();

  // ---- nodes ----
  const scenes = root.listScenes();
  const chosen = opts.allScenes ? scenes : [root.getDefaultScene() ?? scenes[0]].filter((s) => s !== undefined);
  if (!opts.allScenes && scenes.length > 1) warn(`the file has ${scenes.length} scenes; only "${chosen[0]!.getName() || 'scene 0'}" (the default) is imported`);
  const visit = (n: GNode, parent: number, scene: number): void => {
    if (nodeIndex.has(n)) return;
    const i = model.nodes.length;
    nodeIndex.set(n, i);
    const gi = gIndex.get(n) ?? i;
    const local = mat4Of(n);
    const name = n.getName() || `node ${gi}`;
    model.nodes.push({
      name, parent, local, world: parent >= 0 ? multiply(model.nodes[parent]!.world, local) : local,
      t: [...n.getTranslation()], r: [...n.getRotation()], s: [...n.getScale()],
      extras: EXTRAS(n.getExtras()), scene, path: `nodes[${gi}] "${name}"`,
    });
    for (const c of n.listChildren()) visit(c, i, scene);
  };
  if (chosen.length) {
    chosen.forEach((s, k) => {
      model.scenes.push({ name: s.getName(), extras: EXTRAS(s.getExtras()) });
      for (const n of s.listChildren()) visit(n, -1, k);
    });
  } else {
    model.scenes.push({ name: '', extras: {} });
    for (const n of allNodes) if (!n.getParentNode()) visit(n, -1, 0);
  }

  // ---- materials ----
  const matIndex = new Map<Material | null, number>();
  const materialOf = (m: Material | null): number => {
    let i = matIndex.get(m);
    if (i !== undefined) return i;
    i = model.materials.length;
    matIndex.set(m, i);
    if (!m) {
      model.materials.push({ name: 'default', color: [0.8, 0.8, 0.8, 1], alpha: 'OPAQUE', doubleSided: false, extras: {} });
      return i;
    }
    const extras = EXTRAS(m.getExtras());
    const tex = m.getBaseColorTexture();
    const texture = typeof extras.texture === 'string' && extras.texture ? extras.texture : tex ? tex.getURI() || tex.getName() || undefined : undefined;
    const c = m.getBaseColorFactor();
    const mat: ImportMaterial = {
      name: m.getName() || `material ${root.listMaterials().indexOf(m)}`,
      color: [c[0], c[1], c[2], c[3]], alpha: m.getAlphaMode(), doubleSided: m.getDoubleSided(), extras,
    };
    if (texture) mat.texture = texture;
    if (texture && !(typeof extras.texture === 'string' && extras.texture) && tex && !tex.getURI()) mat.textureEmbedded = true;
    model.materials.push(mat);
    return i;
  };

  // ---- joints (every skin's, in node order so parents come first) ----
  const skinsUsed = new Set<Skin>();
  for (const [n] of nodeIndex) {
    const s = n.getSkin();
    if (s && n.getMesh()) skinsUsed.add(s);
  }
  const jointSet = new Set<number>();
  for (const s of skinsUsed) {
    for (const j of s.listJoints()) {
      const ni = nodeIndex.get(j);
      if (ni === undefined) throw new ImportError(`joint "${j.getName()}" of skin "${s.getName()}" is not in the imported scene`, `skins[${root.listSkins().indexOf(s)}]`);
      jointSet.add(ni);
    }
  }
  model.joints = [...jointSet].sort((a, b) => a - b);
  model.jointWorld = model.joints.map((j) => model.nodes[j]!.world);
  const jointOfNode = new Map(model.joints.map((n, i) => [n, i]));

  // ---- meshes ----
  const meshList = root.listMeshes();
  const adopted = new Set<ArrayLike<number>>();
  for (const [n, ni] of nodeIndex) {
    const mesh = n.getMesh();
    if (!mesh) continue;
    const node = model.nodes[ni]!;
    const im = buildMesh(mesh, `meshes[${meshList.indexOf(mesh)}]`, node, ni, materialOf, opts, warn, adopted);
    const skin = n.getSkin();
    if (skin && im.skin) poseSkinned(im, skin, model, nodeIndex, jointOfNode, root.listSkins().indexOf(skin));
    else if (im.skin) {
      warn(`mesh "${im.name}" has joints and weights but its node has no skin; weights left out`);
      delete im.skin;
    }
    node.mesh = model.meshes.length;
    model.meshes.push(im);
  }

  // ---- animations ----
  root.listAnimations().forEach((a, ai) => {
    const clip: ImportClip = { name: a.getName() || `animation ${ai}`, duration: 0, channels: [] };
    let outside = 0;
    for (const ch of a.listChannels()) {
      const target = ch.getTargetNode();
      const path = ch.getTargetPath();
      const sampler = ch.getSampler();
      if (!target || !sampler || !path) continue;
      if (path === 'weights') {
        warn(`animation "${clip.name}": morph weight channels are left out`);
        continue;
      }
      const node = nodeIndex.get(target);
      if (node === undefined) { outside++; continue; }
      const input = sampler.getInput(), output = sampler.getOutput();
      const where = `animations[${ai}]/samplers[${a.listSamplers().indexOf(sampler)}]`;
      if (!input || !output) throw new ImportError('a sampler has no input or output', where);
      const times = floats(input, where);
      let values = floats(output, where);
      const dim = path === 'rotation' ? 4 : 3;
      const interpolation = sampler.getInterpolation();
      if (interpolation === 'CUBICSPLINE') {
        warn(`animation "${clip.name}": cubic spline keys are resampled linearly (their tangents are left out)`);
        const v = new Float32Array(times.length * dim);
        for (let k = 0; k < times.length; k++) v.set(values.subarray((k * 3 + 1) * dim, (k * 3 + 2) * dim), k * dim);
        values = v;
      }
      if (values.length < times.length * dim) throw new ImportError(`the output holds ${values.length / dim} values for ${times.length} key times`, where);
      for (let k = 1; k < times.length; k++) if (!(times[k]! >= times[k - 1]!)) throw new ImportError('key times do not increase', where);
      if (times.length) clip.duration = Math.max(clip.duration, times[times.length - 1]!);
      clip.channels.push({ node, path, interpolation: interpolation === 'STEP' ? 'STEP' : interpolation === 'CUBICSPLINE' ? 'LINEAR' : 'LINEAR', times, values });
    }
    if (outside) warn(`animation "${clip.name}": ${outside} channel(s) drive nodes outside the imported scene; left out`);
    if (clip.channels.length) model.clips.push(clip);
  });
  return model;
}

function buildMesh(
  mesh: Mesh, meshPath: string, node: ImportNode, nodeIdx: number, materialOf: (m: Material | null) => number,
  opts: ModelOptions, warn: (m: string) => void, adopted: Set<ArrayLike<number>>,
): ImportMesh {
  const prims = mesh.listPrimitives();
  const name = mesh.getName() || node.name;
  const parts: { prim: Primitive; path: string; tris?: Uint32Array; points?: Uint32Array; count: number }[] = [];
  let total = 0, uvSets = 0, hasColor = false, jointSets = 0;
  prims.forEach((prim, pi) => {
    const path = `${node.path}/${meshPath}/primitives[${pi}]`;
    const pos = prim.getAttribute('POSITION');
    if (!pos) throw new ImportError('the primitive has no POSITION attribute', path);
    const count = pos.getCount();
    for (const sem of prim.listSemantics()) {
      const acc = prim.getAttribute(sem)!;
      if (acc.getCount() !== count) throw new ImportError(`attribute ${sem} has ${acc.getCount()} elements, POSITION has ${count}`, path);
    }
    const mode = prim.getMode();
    const idxAcc = prim.getIndices();
    const idx = idxAcc ? idxAcc.getArray() : undefined;
    if (idxAcc && !idx) throw new ImportError('the index accessor has no data', path);
    for (let i = 0; idx && i < idx.length; i++) if (idx[i]! >= count) throw new ImportError(`index ${idx[i]} at ${i} is past the last vertex (${count - 1})`, path);
    const n = idx ? idx.length : count;
    const at = (i: number): number => (idx ? idx[i]! : i);
    let tris: Uint32Array | undefined, points: Uint32Array | undefined;
    if (mode === 4) {
      if (idx instanceof Uint32Array && n % 3 === 0) tris = idx; // read only: no copy needed
      else {
        tris = new Uint32Array(n - (n % 3));
        for (let i = 0; i < tris.length; i++) tris[i] = at(i);
      }
      if (n % 3) warn(`${path}: ${n % 3} trailing index(es) do not make a triangle; left out`);
    } else if (mode === 5 || mode === 6) {
      const nt = Math.max(0, n - 2);
      tris = new Uint32Array(nt * 3);
      for (let i = 0; i < nt; i++) {
        if (mode === 5) {
          // Every other strip triangle is stored reversed: flip it back to the strip's winding.
          const even = i % 2 === 0;
          tris[i * 3] = at(i); tris[i * 3 + 1] = at(even ? i + 1 : i + 2); tris[i * 3 + 2] = at(even ? i + 2 : i + 1);
        } else {
          tris[i * 3] = at(0); tris[i * 3 + 1] = at(i + 1); tris[i * 3 + 2] = at(i + 2);
        }
      }
    } else if (mode === 0 && opts.keepPoints) {
      points = new Uint32Array(n);
      for (let i = 0; i < n; i++) points[i] = at(i);
    } else {
      const label = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP'][mode] ?? `mode ${mode}`;
      throw new ImportError(`primitive mode ${label} cannot be made into triangles`, path);
    }
    let sets = 0;
    while (prim.getAttribute(`TEXCOORD_${sets}`)) sets++;
    uvSets = Math.max(uvSets, sets);
    if (prim.getAttribute('COLOR_0')) hasColor = true;
    let js = 0;
    while (prim.getAttribute(`JOINTS_${js}`) && prim.getAttribute(`WEIGHTS_${js}`)) js++;
    jointSets = Math.max(jointSets, js);
    parts.push({ prim, path, tris, points, count });
    total += count;
  });
  const triTotal = parts.reduce((s, p) => s + (p.tris?.length ?? 0), 0);
  const pointTotal = parts.reduce((s, p) => s + (p.points?.length ?? 0), 0);
  const influences = jointSets * 4;
  chargeAllocation(total * (24 + uvSets * 8 + (hasColor ? 16 : 0) + influences * 6) + (triTotal + pointTotal) * 4, 'imported mesh', 0, `${node.path}/${meshPath}`);
  // One primitive (the usual case): its arrays, which glTF Transform already copied out of the
  // file, become the mesh's own instead of being copied again; `adopted` makes sure no array is
  // taken by two meshes (a mesh placed twice, an accessor shared), since skinning poses in place.
  // Only an accessor of this one primitive, of a mesh only this node places, may be taken over.
  const soleUse = (a: Accessor | null | undefined): boolean => !!a && a.listParents().filter((x) => x.propertyType === 'Primitive').length === 1;
  const meshOnce = mesh.listParents().filter((x) => x.propertyType === 'Node').length === 1;
  const one = parts.length === 1 && meshOnce ? parts[0]! : undefined;
  const take = (a: Float32Array | Uint32Array | undefined, length: number): typeof a => {
    if (!a || a.length !== length || adopted.has(a)) return undefined;
    adopted.add(a);
    return a;
  };
  const attr = (name: string, dim: number): Float32Array | undefined => {
    const a = one?.prim.getAttribute(name);
    return a && soleUse(a) ? (take(floats(a, one!.path), total * dim) as Float32Array | undefined) : undefined;
  };
  const positions = attr('POSITION', 3) ?? new Float32Array(total * 3);
  const normals = attr('NORMAL', 3) ?? new Float32Array(total * 3);
  const uvs = Array.from({ length: uvSets }, (_, k) => attr(`TEXCOORD_${k}`, 2) ?? new Float32Array(total * 2));
  const colors = hasColor ? new Float32Array(total * 4).fill(1) : undefined;
  // The triangle list is the index accessor's array only when it was used as is (uint32 triangles).
  const idxAcc = one?.prim.getIndices();
  const indices = (one?.tris && (one.tris !== idxAcc?.getArray() || soleUse(idxAcc)) ? (take(one.tris, triTotal) as Uint32Array | undefined) : undefined) ?? new Uint32Array(triTotal);
  const points = pointTotal ? new Uint32Array(pointTotal) : undefined;
  const skinJ = influences ? new Uint16Array(total * influences) : undefined;
  const skinW = influences ? new Float32Array(total * influences) : undefined;
  const groups: ImportMesh['groups'] = [];
  let base = 0, ti = 0, pi = 0, missingNormals = false;
  for (const part of parts) {
    const { prim, path, count } = part;
    const copy = (dst: Float32Array, a: Accessor, dim: number): void => {
      const src = floats(a, path);
      if (src !== dst) dst.set(src.subarray(0, count * dim), base * dim);
    };
    copy(positions, prim.getAttribute('POSITION')!, 3);
    const nAcc = prim.getAttribute('NORMAL');
    if (nAcc) copy(normals, nAcc, 3);
    else missingNormals = true;
    for (let k = 0; k < uvSets; k++) {
      const a = prim.getAttribute(`TEXCOORD_${k}`);
      if (a) copy(uvs[k]!, a, 2);
      else warn(`${path}: has no TEXCOORD_${k} while another primitive of the mesh has; zeros used`);
    }
    const cAcc = prim.getAttribute('COLOR_0');
    if (cAcc && colors) {
      const c = floats(cAcc, path);
      const dim = cAcc.getElementSize();
      for (let v = 0; v < count; v++) for (let k = 0; k < dim; k++) colors[(base + v) * 4 + k] = c[v * dim + k]!;
    }
    if (skinJ && skinW) {
      for (let s = 0; s < jointSets; s++) {
        const ja = prim.getAttribute(`JOINTS_${s}`), wa = prim.getAttribute(`WEIGHTS_${s}`);
        if (!ja || !wa) continue;
        const jArr = ja.getArray()!, w = floats(wa, path);
        for (let v = 0; v < count; v++) {
          for (let k = 0; k < 4; k++) {
            skinJ[(base + v) * influences + s * 4 + k] = jArr[v * 4 + k]!;
            skinW[(base + v) * influences + s * 4 + k] = w[v * 4 + k]!;
          }
        }
      }
    }
    const start = ti;
    if (part.tris === indices) ti = indices.length;
    else if (part.tris) for (let i = 0; i < part.tris.length; i++) indices[ti++] = part.tris[i]! + base;
    if (part.points && points) for (let i = 0; i < part.points.length; i++) points[pi++] = part.points[i]! + base;
    if (ti > start) groups.push({ start, count: ti - start, material: materialOf(prim.getMaterial()) });
    if (missingNormals && nAcc === null) computeNormals(positions, normals, indices.subarray(start, ti), base, base + count);
    base += count;
  }
  if (missingNormals) warn(`mesh "${name}": normals computed (the file has none)`);
  const im: ImportMesh = { name, node: nodeIdx, path: `${node.path}/${meshPath}`, space: 'local', positions, normals, uvs, indices, groups };
  if (colors) im.colors = colors;
  if (points) im.points = points;
  if (skinJ && skinW) im.skin = { joints: skinJ, weights: skinW, influences };
  return im;
}

/** Area-weighted vertex normals for vertices [from, to) from the given triangles. */
export function computeNormals(p: Float32Array, out: Float32Array, tris: Uint32Array, from: number, to: number): void {
  out.fill(0, from * 3, to * 3);
  for (let t = 0; t + 2 < tris.length; t += 3) {
    const a = tris[t]! * 3, b = tris[t + 1]! * 3, c = tris[t + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const wx = p[c]! - p[a]!, wy = p[c + 1]! - p[a + 1]!, wz = p[c + 2]! - p[a + 2]!;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    for (const o of [a, b, c]) { out[o] = out[o]! + nx; out[o + 1] = out[o + 1]! + ny; out[o + 2] = out[o + 2]! + nz; }
  }
  for (let v = from; v < to; v++) {
    const o = v * 3;
    const l = Math.hypot(out[o]!, out[o + 1]!, out[o + 2]!);
    if (l > 0) { out[o] = out[o]! / l; out[o + 1] = out[o + 1]! / l; out[o + 2] = out[o + 2]! / l; } else out[o + 1] = 1;
  }
}

/**
 * Poses a skinned mesh at rest in world space (what glTF draws) and turns its joint indices into
 * model joint indices; weights are normalised and sorted strongest first.
 */
function poseSkinned(im: ImportMesh, skin: Skin, model: ImportModel, nodeIndex: Map<GNode, number>, jointOfNode: Map<number, number>, skinIdx: number): void {
  const sk = im.skin!;
  const joints = skin.listJoints();
  const path = `skins[${skinIdx}]`;
  const ibmAcc = skin.getInverseBindMatrices();
  const ibm = ibmAcc ? floats(ibmAcc, path) : undefined;
  if (ibm && ibm.length < joints.length * 16) throw new ImportError(`inverseBindMatrices holds ${ibm.length / 16} matrices for ${joints.length} joints`, path);
  const skinMats = joints.map((j, k) => {
    const world = model.nodes[nodeIndex.get(j)!]!.world;
    return ibm ? multiply(world, Array.from(ibm.subarray(k * 16, k * 16 + 16))) : [...IDENTITY];
  });
  const remap = joints.map((j) => jointOfNode.get(nodeIndex.get(j)!)!);
  const n = im.positions.length / 3;
  const inf = sk.influences;
  // Posed in place: arrays read as views of the input file are copied first (never written to).
  for (const k of ['positions', 'normals'] as const) {
    if (isInputView(im[k])) {
      chargeAllocation(im[k].byteLength, 'skinned mesh posed', 0, im.path);
      im[k] = im[k].slice();
    }
  }
  const P = im.positions, N = im.normals;
  let unweighted = 0;
  const m = new Array<number>(12);
  const order: number[] = [];
  for (let v = 0; v < n; v++) {
    const o = v * inf;
    let sum = 0;
    for (let k = 0; k < inf; k++) {
      const w = sk.weights[o + k]!;
      if (!(w > 0) || !Number.isFinite(w)) sk.weights[o + k] = 0;
      else if (sk.joints[o + k]! >= joints.length) throw new ImportError(`vertex ${v} names joint ${sk.joints[o + k]} of a skin with ${joints.length}`, im.path);
      else sum += w;
    }
    if (!(sum > 0)) {
      unweighted++;
      sk.joints[o] = 0; sk.weights[o] = 1; sum = 1;
      for (let k = 1; k < inf; k++) sk.weights[o + k] = 0;
    }
    m.fill(0);
    for (let k = 0; k < inf; k++) {
      const w = sk.weights[o + k]! / sum;
      sk.weights[o + k] = w;
      if (!w) continue;
      const s = skinMats[sk.joints[o + k]!]!;
      for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) m[c * 3 + r]! += w * s[c * 4 + r]!;
      for (let r = 0; r < 3; r++) m[9 + r]! += w * s[12 + r]!;
    }
    const x = P[v * 3]!, y = P[v * 3 + 1]!, z = P[v * 3 + 2]!;
    P[v * 3] = m[0]! * x + m[3]! * y + m[6]! * z + m[9]!;
    P[v * 3 + 1] = m[1]! * x + m[4]! * y + m[7]! * z + m[10]!;
    P[v * 3 + 2] = m[2]! * x + m[5]! * y + m[8]! * z + m[11]!;
    // Normals: the inverse transpose of the blended matrix; for the rigid skins of real rigs the
    // matrix itself does, renormalised.
    const nx = N[v * 3]!, ny = N[v * 3 + 1]!, nz = N[v * 3 + 2]!;
    const ax = m[0]! * nx + m[3]! * ny + m[6]! * nz, ay = m[1]! * nx + m[4]! * ny + m[7]! * nz, az = m[2]! * nx + m[5]! * ny + m[8]! * nz;
    const l = Math.hypot(ax, ay, az) || 1;
    N[v * 3] = ax / l; N[v * 3 + 1] = ay / l; N[v * 3 + 2] = az / l;
    // Model joint indices, strongest first.
    order.length = 0;
    for (let k = 0; k < inf; k++) order.push(k);
    order.sort((a, b) => sk.weights[o + b]! - sk.weights[o + a]!);
    const js = order.map((k) => (sk.weights[o + k]! > 0 ? remap[sk.joints[o + k]!]! : 0));
    const ws = order.map((k) => sk.weights[o + k]!);
    for (let k = 0; k < inf; k++) { sk.joints[o + k] = js[k]!; sk.weights[o + k] = ws[k]!; }
  }
  if (unweighted) model.warnings.push(`mesh "${im.name}": ${unweighted} vertex(es) without weights were bound to joint "${joints[0]?.getName()}"`);
  im.space = 'world';
}

/** World-space geometry of a mesh (positions, normals, and whether its winding must flip). */
export function worldGeometry(model: ImportModel, m: ImportMesh): { positions: Float32Array; normals: Float32Array; flip: boolean; matrix: Mat4 } {
  // Already in world space (or placed by an identity): the mesh's own arrays, not copies. Writers
  // treat them as read-only.
  const w = m.space === 'world' ? IDENTITY : model.nodes[m.node]!.world;
  if (w.every((v, i) => v === IDENTITY[i])) return { positions: m.positions, normals: m.normals, flip: false, matrix: [...IDENTITY] };
  const positions = m.positions.slice();
  const normals = m.normals.slice();
  const [a, b, c, , e, f, g, , i, j, k, , x, y, z] = w;
  for (let o = 0; o < positions.length; o += 3) {
    const px = positions[o]!, py = positions[o + 1]!, pz = positions[o + 2]!;
    positions[o] = a! * px + e! * py + i! * pz + x!;
    positions[o + 1] = b! * px + f! * py + j! * pz + y!;
    positions[o + 2] = c! * px + g! * py + k! * pz + z!;
  }
  const inv = invertSafe(w);
  // Normal matrix = transpose of the inverse.
  const [n0, n1, n2, , n4, n5, n6, , n8, n9, n10] = inv;
  for (let o = 0; o < normals.length; o += 3) {
    const px = normals[o]!, py = normals[o + 1]!, pz = normals[o + 2]!;
    const nx = n0! * px + n1! * py + n2! * pz, ny = n4! * px + n5! * py + n6! * pz, nz = n8! * px + n9! * py + n10! * pz;
    const l = Math.hypot(nx, ny, nz) || 1;
    normals[o] = nx / l; normals[o + 1] = ny / l; normals[o + 2] = nz / l;
  }
  const det = a! * (f! * k! - g! * j!) - e! * (b! * k! - c! * j!) + i! * (b! * g! - c! * f!);
  return { positions, normals, flip: det < 0, matrix: w };
}

export { decompose };
