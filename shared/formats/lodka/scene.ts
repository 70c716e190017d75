/**
 * LODka document -> neutral scene.
 *
 * - Meshes: LODka indexes positions, normals and each texture set separately per triangle corner;
 *   the scene needs one index per vertex, so corners are unwelded (one scene vertex per distinct
 *   combination of indices) and triangles are ordered by material, one group per material.
 * - Skeleton: SKL1 hierarchy; the bind pose is frame 0 of the first ANM1 (see NOTES.md, item 3).
 *   A bone's local transform is T(position) * Rz * Ry * Rx from its 6 floats.
 * - Clips: one per ANM1, a key every AnimInterval milliseconds.
 * - Skin: PntBnAssoc (one bone, weight 1) or the weight records (up to four strongest kept).
 * - Proxies (PXI1) become node trees placing their source meshes; colliders and light schemes
 *   are passed through. Axes and units are the file's own (no conversion); the file does not
 *   say which way is up, so `upAxis` carries a guess from the model's shape (`guessUpAxis`).
 */
import type { AnimationClip, AnimationTrack, LightScheme, Mat4, Scene, SceneCollider, SceneMaterial, SceneMesh, SceneNode, Skeleton } from '../../scene/scene.ts';
import { IDENTITY } from '../../scene/scene.ts';
import { guessUpAxis } from '../../scene/up-axis.ts';
import type { NodePath } from '../../model/path.ts';
import { weightNextBit } from './layout.ts';
import type {
  Anm1Chunk, Col1Chunk, Inf1Chunk, Lig1Chunk, LodDocument, Mat1Chunk, Mmd1Chunk, Msh1Chunk, Pxi1Chunk, Skl1Chunk, TxtrChunk,
} from './schema.ts';
import { walkChunks } from './views.ts';
import { multiply } from '../../scene/mat4.ts';

// ---- small matrix helpers (column-major 4x4, as the scene wants) ----

/** Quaternion (x, y, z, w) of Rz(z) * Ry(y) * Rx(x): X applied first. */
export function eulerXyzToQuat(x: number, y: number, z: number): [number, number, number, number] {
  const cx = Math.cos(x / 2), sx = Math.sin(x / 2);
  const cy = Math.cos(y / 2), sy = Math.sin(y / 2);
  const cz = Math.cos(z / 2), sz = Math.sin(z / 2);
  return [
    sx * cy * cz - cx * sy * sz,
    cx * sy * cz + sx * cy * sz,
    cx * cy * sz - sx * sy * cz,
    cx * cy * cz + sx * sy * sz,
  ];
}

/** Column-major T * R(q) * S. */
export function composeMatrix(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number> = [1, 1, 1]): Mat4 {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
  const [sx, sy, sz] = [s[0]!, s[1]!, s[2]!];
  return [
    (1 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx, 0,
    (xy - wz) * sy, (1 - (xx + zz)) * sy, (yz + wx) * sy, 0,
    (xz + wy) * sz, (yz - wx) * sz, (1 - (xx + yy)) * sz, 0,
    t[0]!, t[1]!, t[2]!, 1,
  ];
}

/** Local bone matrix from LODka's 6 floats (position XYZ, Euler XYZ radians). */
export function boneLocalMatrix(p: ArrayLike<number>, at = 0): Mat4 {
  const q = eulerXyzToQuat(p[at + 3]!, p[at + 4]!, p[at + 5]!);
  return composeMatrix([p[at]!, p[at + 1]!, p[at + 2]!], q);
}

/** Inverse of a rigid (rotation + translation) column-major matrix. */
function invertRigid(m: Mat4): Mat4 {
  const r = [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!];
  const t = [m[12]!, m[13]!, m[14]!];
  // Transpose of the rotation, and -R^T t.
  return [
    r[0]!, r[3]!, r[6]!, 0,
    r[1]!, r[4]!, r[7]!, 0,
    r[2]!, r[5]!, r[8]!, 0,
    -(r[0]! * t[0]! + r[1]! * t[1]! + r[2]! * t[2]!), -(r[3]! * t[0]! + r[4]! * t[1]! + r[5]! * t[2]!), -(r[6]! * t[0]! + r[7]! * t[1]! + r[8]! * t[2]!), 1,
  ];
}

// ---- materials ----

const BLENDING: SceneMaterial['blending'][] = ['opaque', 'blend', 'additive', 'alphaTest', 'alphaTest', 'modulate'];

function buildMaterials(doc: LodDocument, chunkPaths: Map<object, NodePath>): { materials: SceneMaterial[]; byName: Map<string, number> } {
  const textures = new Map<string, Uint8Array>();
  for (const { chunk } of walkChunks(doc)) {
    if (chunk.id === 'TXTR') for (const t of (chunk as TxtrChunk).textures) if (!textures.has(t.textureMaterialName)) textures.set(t.textureMaterialName, t.textureData);
  }
  const materials: SceneMaterial[] = [];
  const byName = new Map<string, number>();
  for (const { chunk, path } of walkChunks(doc)) {
    if (chunk.id !== 'MAT1') continue;
    (chunk as Mat1Chunk).materials.forEach((m, i) => {
      const o = m.options;
      const mat: SceneMaterial = {
        name: m.matName,
        color: [o.diffuse[0] ?? 1, o.diffuse[1] ?? 1, o.diffuse[2] ?? 1, o.diffuse[3] ?? 1],
        emissive: [o.emission[0] ?? 0, o.emission[1] ?? 0, o.emission[2] ?? 0],
        specular: [o.specular[0] ?? 0, o.specular[1] ?? 0, o.specular[2] ?? 0],
        shininess: o.shininess,
        blending: BLENDING[o.blendingMode] ?? 'opaque',
        source: [...path, 'materials', i],
      };
      const tex = m.textrName.split(':')[0] ?? '';
      if (tex && o.textureEnabled) mat.texture = tex;
      const data = textures.get(m.matName);
      if (data && o.textureEnabled) mat.textureData = data;
      if (!byName.has(m.matName)) byName.set(m.matName, materials.length);
      materials.push(mat);
    });
  }
  void chunkPaths;
  return { materials, byName };
}

// ---- skeleton and clips ----

interface SkeletonInfo {
  skeleton: Skeleton;
  /** BoneID -> index in skeleton.bones. */
  byId: Map<number, number>;
  world: Mat4[];
}

function buildSkeleton(skl: Skl1Chunk | undefined, bind: Anm1Chunk | undefined): SkeletonInfo | undefined {
  if (!skl || skl.bones.length === 0) return undefined;
  const byId = new Map<number, number>();
  skl.bones.forEach((b, i) => byId.set(b.boneId, i));
  const n = skl.bones.length;
  const frame0 = bind && bind.bonesRotPos.length >= n * 6 ? bind.bonesRotPos : undefined;
  const world: Mat4[] = [];
  const bones = skl.bones.map((b, i) => {
    const parent = b.boneParentId < 0 ? -1 : (byId.get(b.boneParentId) ?? -1);
    const matrix = frame0 ? boneLocalMatrix(frame0, i * 6) : [...IDENTITY];
    // Parents come first (spec rule); a forward reference falls back to the root.
    world[i] = parent >= 0 && parent < i && world[parent] ? multiply(world[parent], matrix) : matrix;
    return { name: b.boneName, parent: parent < i ? parent : -1, matrix, inverseBind: invertRigid(world[i]!) };
  });
  return { skeleton: { bones }, byId, world };
}

function buildClip(a: Anm1Chunk, bones: number, path: NodePath): AnimationClip {
  const per = bones * 6;
  // Never more frames than the data holds, never fewer than none, whatever Count says.
  const frames = per > 0 ? Math.max(0, Math.min(a.count, Math.floor(a.bonesRotPos.length / per))) : 0;
  const dt = a.animInterval / 1000;
  const times = new Float32Array(frames);
  for (let f = 0; f < frames; f++) times[f] = f * dt;
  const tracks: AnimationTrack[] = [];
  for (let b = 0; b < bones && frames > 0; b++) {
    const translations = new Float32Array(frames * 3);
    const rotations = new Float32Array(frames * 4);
    for (let f = 0; f < frames; f++) {
      const o = f * per + b * 6;
      const p = a.bonesRotPos;
      translations.set([p[o]!, p[o + 1]!, p[o + 2]!], f * 3);
      rotations.set(eulerXyzToQuat(p[o + 3]!, p[o + 4]!, p[o + 5]!), f * 4);
    }
    tracks.push({ bone: b, target: 'bone', times, translations, rotations });
  }
  return { name: a.animName, duration: Math.max(0, frames - 1) * dt, frames, tracks, source: path };
}

// ---- meshes ----

/**
 * Per original vertex: the four strongest (bone index, weight) pairs, normalised, from the weight
 * records or PntBnAssoc; undefined when the mesh has no skinning.
 */
function vertexSkin(m: Msh1Chunk, bones: number): { joints: Uint16Array; weights: Float32Array } | undefined {
  const nv = m.meshPointsPos.length / 3;
  if (bones === 0 || nv === 0) return undefined;
  const joints = new Uint16Array(nv * 4);
  const weights = new Float32Array(nv * 4);
  if (m.pntBnWeightType === 1 && m.weightBoneIds && m.weights && m.weightBoneIds.length > 0) {
    const next = weightNextBit(bones);
    const per = Math.max(1, m.bonesPerVertix ?? 1);
    const counts = new Uint8Array(nv);
    let v = 0;
    let k = 0;
    for (let i = 0; i < m.weightBoneIds.length && v < nv; i++) {
      const id = m.weightBoneIds[i]!;
      const bone = id & (next - 1);
      const w = m.weights[i]!;
      if (bone < bones && w > 0) {
        // Keep the four strongest: replace the weakest slot when full.
        const o = v * 4;
        let slot = counts[v]!;
        if (slot < 4) counts[v] = slot + 1;
        else {
          slot = 0;
          for (let j = 1; j < 4; j++) if (weights[o + j]! < weights[o + slot]!) slot = j;
          if (weights[o + slot]! >= w) slot = -1;
        }
        if (slot >= 0) {
          joints[o + slot] = bone;
          weights[o + slot] = w;
        }
      }
      k++;
      if (id & next || k >= per) {
        v++;
        k = 0;
      }
    }
    for (let u = 0; u < nv; u++) {
      const o = u * 4;
      const sum = weights[o]! + weights[o + 1]! + weights[o + 2]! + weights[o + 3]!;
      if (sum > 0) for (let j = 0; j < 4; j++) weights[o + j] = weights[o + j]! / sum;
      else weights[o] = 1;
    }
    return { joints, weights };
  }
  if (m.pntBnAssoc.length === nv) {
    for (let u = 0; u < nv; u++) {
      const b = m.pntBnAssoc[u]!;
      joints[u * 4] = b < bones ? b : 0;
      weights[u * 4] = 1;
    }
    return { joints, weights };
  }
  return undefined;
}

function smoothNormals(m: Msh1Chunk): Float32Array {
  const p = m.meshPointsPos;
  const acc = new Float32Array(p.length);
  for (const g of m.faceGroups) {
    const vi = g.vertexIndex;
    for (let t = 0; t + 2 < vi.length; t += 3) {
      const a = vi[t]! * 3, b = vi[t + 1]! * 3, c = vi[t + 2]! * 3;
      if (c + 2 >= p.length || a + 2 >= p.length || b + 2 >= p.length) continue;
      const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
      const wx = p[c]! - p[a]!, wy = p[c + 1]! - p[a + 1]!, wz = p[c + 2]! - p[a + 2]!;
      const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
      for (const o of [a, b, c]) {
        acc[o] = acc[o]! + nx;
        acc[o + 1] = acc[o + 1]! + ny;
        acc[o + 2] = acc[o + 2]! + nz;
      }
    }
  }
  for (let i = 0; i < acc.length; i += 3) {
    const l = Math.hypot(acc[i]!, acc[i + 1]!, acc[i + 2]!) || 1;
    acc[i] = acc[i]! / l;
    acc[i + 1] = acc[i + 1]! / l;
    acc[i + 2] = acc[i + 2]! / l;
  }
  return acc;
}

/** An Int32Array that doubles when full. */
class GrowI32 {
  a: Int32Array;
  n = 0;
  constructor(cap: number) {
    this.a = new Int32Array(Math.max(16, cap));
  }
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
}

/**
 * Unwelds one MSH1 into a GPU-ready mesh. `materialOf` maps a face material name to a scene
 * material index (the caller creates a fallback material for unknown names).
 *
 * Each distinct combination of (vertex, normal, texture indices) used by a corner becomes one
 * scene vertex. Combinations are found through a chain per source vertex (usually 1 to 4 long),
 * so the work is linear in the corner count and needs no hashing.
 */
export function meshToScene(m: Msh1Chunk, materialOf: (name: string) => number, bones: number, path: NodePath): SceneMesh & { originalVertex: Uint32Array } {
  const nv = m.meshPointsPos.length / 3;
  const nn = m.meshNormals.length / 3;
  const sets = m.meshTxCrd.length;
  const tcount = m.meshTxCrd.map((t) => Math.floor(t.length / 2));
  const computed = nn === 0 ? smoothNormals(m) : undefined;
  // Unique combinations: source vertex, normal (-1: none), texture index per set (-1: none).
  const head = new Int32Array(nv).fill(-1);
  const next = new GrowI32(nv);
  const repV = new GrowI32(nv);
  const repN = new GrowI32(nv);
  const repT = Array.from({ length: sets }, () => new GrowI32(nv));
  const order = m.faceGroups.map((g, i) => ({ g, i, mat: materialOf(g.faceMatNames[0] ?? '') })).sort((a, b) => a.mat - b.mat || a.i - b.i);
  const total = m.faceGroups.reduce((s, g) => s + g.vertexIndex.length, 0);
  const out = new Uint32Array(total);
  let o = 0;
  const groups: SceneMesh['groups'] = [];
  const tex = new Int32Array(sets);
  for (const { g, mat } of order) {
    const start = o;
    const corners = g.vertexIndex.length - (g.vertexIndex.length % 3);
    for (let c = 0; c < corners; c += 3) {
      // A triangle with a corner out of range is dropped whole.
      if (g.vertexIndex[c]! >= nv || g.vertexIndex[c + 1]! >= nv || g.vertexIndex[c + 2]! >= nv) continue;
      for (let k = c; k < c + 3; k++) {
        const v = g.vertexIndex[k]!;
        const ni = g.normalIndex?.[k];
        const n = ni !== undefined && ni < nn ? ni : -1;
        for (let t = 0; t < sets; t++) {
          const ti = g.txCrdsInd[t]?.[k];
          tex[t] = ti !== undefined && ti < tcount[t]! ? ti : -1;
        }
        let id = head[v]!;
        while (id >= 0) {
          let same = repN.a[id] === n;
          for (let t = 0; same && t < sets; t++) same = repT[t]!.a[id] === tex[t];
          if (same) break;
          id = next.a[id]!;
        }
        if (id < 0) {
          id = repV.n;
          repV.push(v);
          repN.push(n);
          for (let t = 0; t < sets; t++) repT[t]!.push(tex[t]!);
          next.push(head[v]!);
          head[v] = id;
        }
        out[o++] = id;
      }
    }
    const count = o - start;
    if (count === 0) continue;
    const last = groups[groups.length - 1];
    if (last && last.material === mat && last.start + last.count === start) last.count += count;
    else groups.push({ start, count, material: mat });
  }
  const nu = repV.n;
  const positions = new Float32Array(nu * 3);
  const normals = new Float32Array(nu * 3);
  const uvs = Array.from({ length: sets }, () => new Float32Array(nu * 2));
  const P = m.meshPointsPos;
  const N = m.meshNormals;
  for (let i = 0; i < nu; i++) {
    const v = repV.a[i]!;
    positions[i * 3] = P[v * 3]!;
    positions[i * 3 + 1] = P[v * 3 + 1]!;
    positions[i * 3 + 2] = P[v * 3 + 2]!;
    const n = repN.a[i]!;
    const src = n >= 0 ? N : computed;
    const at = n >= 0 ? n : v;
    if (src) {
      normals[i * 3] = src[at * 3]!;
      normals[i * 3 + 1] = src[at * 3 + 1]!;
      normals[i * 3 + 2] = src[at * 3 + 2]!;
    } else normals[i * 3 + 2] = 1;
    for (let t = 0; t < sets; t++) {
      const ti = repT[t]!.a[i]!;
      if (ti >= 0) {
        // LODka's tool (GLScene, OpenGL) puts v = 0 at the image's bottom row; the Scene, as glTF,
        // at its top.
        uvs[t]![i * 2] = m.meshTxCrd[t]![ti * 2]!;
        uvs[t]![i * 2 + 1] = 1 - m.meshTxCrd[t]![ti * 2 + 1]!;
      }
    }
  }
  const mesh: SceneMesh & { originalVertex: Uint32Array } = {
    name: m.meshName, positions, normals, uvs, indices: out.subarray(0, o).slice(), groups, source: path,
    originalVertex: Uint32Array.from(repV.a.subarray(0, nu)),
  };
  const skin = vertexSkin(m, bones);
  if (skin) {
    const joints = new Uint16Array(nu * 4);
    const weights = new Float32Array(nu * 4);
    // Element by element: two subarray views per vertex cost more than the copy itself.
    for (let i = 0; i < nu; i++) {
      const v = repV.a[i]! * 4;
      for (let j = 0; j < 4; j++) {
        joints[i * 4 + j] = skin.joints[v + j]!;
        weights[i * 4 + j] = skin.weights[v + j]!;
      }
    }
    mesh.skin = { joints, weights };
  }
  return mesh;
}

/** True when item i's parent exists and following parents from it never comes back to i (no cycle). */
function proxyParentOk(p: Pxi1Chunk, i: number): boolean {
  let cur = p.items[i]!.proxyParentIndex;
  for (let steps = 0; steps <= p.items.length; steps++) {
    if (cur === -1) return p.items[i]!.proxyParentIndex !== -1;
    if (cur < 0 || cur >= p.items.length || cur === i) return false;
    cur = p.items[cur]!.proxyParentIndex;
  }
  return false;
}

// ---- the whole scene ----

/** Builds the neutral scene of a LODka document. */
export function lodToScene(doc: LodDocument): Scene {
  const found = [...walkChunks(doc)];
  const first = <T>(id: string): T | undefined => found.find((f) => f.chunk.id === id)?.chunk as T | undefined;
  const paths = new Map<object, NodePath>(found.map((f) => [f.chunk, f.path]));
  const { materials, byName } = buildMaterials(doc, paths);
  let fallback = -1;
  const materialOf = (name: string): number => {
    const i = byName.get(name);
    if (i !== undefined) return i;
    if (fallback < 0) {
      fallback = materials.length;
      materials.push({ name: '(no material)', color: [0.8, 0.8, 0.8, 1] });
    }
    return fallback;
  };

  const skl = first<Skl1Chunk>('SKL1');
  const anims = found.filter((f) => f.chunk.id === 'ANM1');
  const skel = buildSkeleton(skl, anims[0]?.chunk as Anm1Chunk | undefined);
  const boneCount = skel?.skeleton.bones.length ?? 0;

  const scene: Scene = { nodes: [], meshes: [], materials, clips: [] };
  const warnings: string[] = [];
  if (skel) scene.skeleton = skel.skeleton;
  const meshChunks = found.filter((f) => f.chunk.id === 'MSH1');
  for (const { chunk, path } of meshChunks) {
    const m = chunk as Msh1Chunk;
    let mesh: SceneMesh & { originalVertex?: Uint32Array };
    try {
      mesh = meshToScene(m, materialOf, boneCount, path);
    } catch (e) {
      // A mesh whose data cannot be drawn stays in the list (indices elsewhere point past it), empty.
      warnings.push(`mesh "${m.meshName}" left out: ${messageOf(e)}`);
      mesh = { name: m.meshName, positions: new Float32Array(0), uvs: [], indices: new Uint32Array(0), groups: [], source: path };
    }
    scene.nodes.push({ name: m.meshName, parent: -1, matrix: [...IDENTITY], mesh: scene.meshes.length, visible: m.isMeshVisible !== 0, source: path });
    scene.meshes.push(mesh);
  }
  // Morph frames (MMD1) on meshes whose vertex count matches.
  for (const { chunk } of found.filter((f) => f.chunk.id === 'MMD1')) {
    const md = chunk as Mmd1Chunk;
    let at = 0;
    for (const e of md.entries) {
      const mesh = scene.meshes[e.mmMeshIndex] as (SceneMesh & { originalVertex?: Uint32Array }) | undefined;
      const size = e.mmFramesCount * e.mmVertexCount * 3;
      if (mesh?.originalVertex && e.mmVertexCount * 3 === (meshChunks[e.mmMeshIndex]?.chunk as Msh1Chunk).meshPointsPos?.length) {
        // Never more frames than the data holds: an entry of no vertices has none to draw.
        for (let f = 0; e.mmVertexCount > 0 && f < e.mmFramesCount && at + (f + 1) * e.mmVertexCount * 3 <= md.mmVertices.length; f++) {
          const src = md.mmVertices.subarray(at + f * e.mmVertexCount * 3);
          const out = new Float32Array(mesh.originalVertex.length * 3);
          mesh.originalVertex.forEach((v, i) => out.set([src[v * 3]!, src[v * 3 + 1]!, src[v * 3 + 2]!], i * 3));
          (mesh.morphs ??= []).push({ name: `${e.mmMorphColName} ${f}`, positions: out });
        }
      }
      at += size;
    }
  }
  for (const m of scene.meshes) delete (m as { originalVertex?: Uint32Array }).originalVertex;

  // Proxies: a root node per PXI1, items as children placing their source meshes.
  for (const { chunk, path } of found.filter((f) => f.chunk.id === 'PXI1')) {
    const p = chunk as Pxi1Chunk;
    const root = scene.nodes.length;
    scene.nodes.push({ name: `proxy for mesh ${p.count}`, parent: -1, matrix: [...IDENTITY], source: path });
    const base = scene.nodes.length;
    p.items.forEach((it, i) => {
      const parent = proxyParentOk(p, i) ? base + it.proxyParentIndex : root;
      const node: SceneNode = {
        name: it.name,
        parent,
        matrix: composeMatrix(it.proxyPosition, it.proxyRotation, it.proxyScale),
        visible: it.proxyVisible !== 0,
        source: [...path, 'items', i],
      };
      if (it.sourceMeshIndex >= 0 && it.sourceMeshIndex < scene.meshes.length) node.mesh = it.sourceMeshIndex;
      scene.nodes.push(node);
    });
  }

  for (const { chunk, path } of anims) {
    try {
      scene.clips.push(buildClip(chunk as Anm1Chunk, boneCount, path));
    } catch (e) {
      warnings.push(`animation "${(chunk as Anm1Chunk).animName}" left out: ${messageOf(e)}`);
    }
  }

  const colliders: SceneCollider[] = [];
  for (const { chunk, path } of found.filter((f) => f.chunk.id === 'COL1')) {
    const c = chunk as Col1Chunk;
    c.colliders.forEach((x, i) => {
      colliders.push({
        name: x.name,
        set: c.colListName,
        shape: (['sphere', 'capsule', 'cylinder', 'box'] as const)[x.skelCollType] ?? 'box',
        bone: skel?.byId.get(x.colBoneId) ?? -1,
        // GLScene's TMatrix rows are OpenGL's columns: the 16 floats are already column-major.
        matrix: [...x.collMatrix],
        visible: x.colVisible !== 0,
        source: [...path, 'colliders', i],
      });
    });
  }
  if (colliders.length) scene.colliders = colliders;

  const schemes: LightScheme[] = [];
  for (const { chunk, path } of found.filter((f) => f.chunk.id === 'LIG1')) {
    const l = chunk as Lig1Chunk;
    schemes.push({
      name: l.name,
      source: path,
      lights: l.lights.map((x) => ({
        enabled: x.enabled !== 0,
        type: x.ligthStyle === 0 ? 'spot' : x.ligthStyle === 2 ? 'directional' : 'point',
        position: [x.position[0]!, x.position[1]!, x.position[2]!],
        direction: [x.spotDirection[0]!, x.spotDirection[1]!, x.spotDirection[2]!],
        ambient: [x.ambient[0]!, x.ambient[1]!, x.ambient[2]!, x.ambient[3]!],
        diffuse: [x.diffuse[0]!, x.diffuse[1]!, x.diffuse[2]!, x.diffuse[3]!],
        specular: [x.specular[0]!, x.specular[1]!, x.specular[2]!, x.specular[3]!],
        cutoff: x.spotCutOff,
        exponent: x.spotExponent,
        attenuation: [x.constAtt, x.linearAtt, x.quadAtt],
      })),
    });
  }
  if (schemes.length) scene.lightSchemes = schemes;

  let min: [number, number, number] | undefined;
  let max: [number, number, number] | undefined;
  for (const m of scene.meshes) {
    // No array per vertex (a million of them were a tenth of the scene's time).
    const p = m.positions;
    for (let i = 0; i + 2 < p.length; i += 3) {
      if (!min || !max) {
        min = [p[i]!, p[i + 1]!, p[i + 2]!];
        max = [p[i]!, p[i + 1]!, p[i + 2]!];
      } else for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, p[i + k]!);
        max[k] = Math.max(max[k]!, p[i + k]!);
      }
    }
  }
  if (min && max) scene.bounds = { min, max };
  const stated = statedUpAxis(first<Inf1Chunk>('INF1'));
  if ((stated ?? guessUpAxis(scene)) === 'z') scene.upAxis = 'z';
  if (warnings.length) scene.warnings = warnings;
  return scene;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The up axis an INF1 text states in a line `Up axis: Y` (or Z), as LodSmith's glTF import
 * writes it: the file then says which way is up, and the shape-based guess is not needed.
 */
export function statedUpAxis(inf: Inf1Chunk | undefined): 'y' | 'z' | undefined {
  const m = inf ? /^\s*up[ -]?axis\s*[:=]\s*([yz])\s*$/im.exec(inf.text) : null;
  return m ? (m[1]!.toLowerCase() as 'y' | 'z') : undefined;
}

/** Model-space bind matrices of the skeleton (for tests and tools). */
export function bindPoseWorld(doc: LodDocument): Mat4[] {
  const found = [...walkChunks(doc)];
  const skl = found.find((f) => f.chunk.id === 'SKL1')?.chunk as Skl1Chunk | undefined;
  const anm = found.find((f) => f.chunk.id === 'ANM1')?.chunk as Anm1Chunk | undefined;
  return buildSkeleton(skl, anm)?.world ?? [];
}
