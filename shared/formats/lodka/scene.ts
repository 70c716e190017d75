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
 *   are passed through. Axes and units are the file's own (no conversion).
 */
import type { AnimationClip, AnimationTrack, LightScheme, Mat4, Scene, SceneCollider, SceneMaterial, SceneMesh, SceneNode, Skeleton } from '../../scene/scene.ts';
import { IDENTITY } from '../../scene/scene.ts';
import type { NodePath } from '../../model/path.ts';
import { weightNextBit } from './layout.ts';
import type {
  Anm1Chunk, Col1Chunk, Lig1Chunk, LodDocument, Mat1Chunk, Mmd1Chunk, Msh1Chunk, Pxi1Chunk, Skl1Chunk, TxtrChunk,
} from './schema.ts';
import { walkChunks } from './views.ts';

// ---- small matrix helpers (column-major 4x4, as the scene wants) ----

function mul(a: Mat4, b: Mat4): Mat4 {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      o[c * 4 + r] = s;
    }
  }
  return o;
}

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
    world[i] = parent >= 0 && parent < i && world[parent] ? mul(world[parent], matrix) : matrix;
    return { name: b.boneName, parent: parent < i ? parent : -1, matrix, inverseBind: invertRigid(world[i]!) };
  });
  return { skeleton: { bones }, byId, world };
}

function buildClip(a: Anm1Chunk, bones: number, path: NodePath): AnimationClip {
  const per = bones * 6;
  const frames = per > 0 ? Math.min(a.count, Math.floor(a.bonesRotPos.length / per)) : 0;
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

/** Per original vertex: up to 4 (bone index, weight) pairs from PntBnAssoc or weight records. */
function vertexInfluences(m: Msh1Chunk, bones: number): [number, number][][] | undefined {
  const nv = m.meshPointsPos.length / 3;
  if (bones === 0) return undefined;
  if (m.pntBnWeightType === 1 && m.weightBoneIds && m.weights && m.weightBoneIds.length > 0) {
    const next = weightNextBit(bones);
    const per = Math.max(1, m.bonesPerVertix ?? 1);
    const out: [number, number][][] = Array.from({ length: nv }, () => []);
    let v = 0;
    let k = 0;
    for (let i = 0; i < m.weightBoneIds.length && v < nv; i++) {
      const id = m.weightBoneIds[i]!;
      out[v]!.push([id & (next - 1), m.weights[i]!]);
      k++;
      if (id & next || k >= per) {
        v++;
        k = 0;
      }
    }
    return out;
  }
  if (m.pntBnAssoc.length === nv && nv > 0) return Array.from(m.pntBnAssoc, (b) => [[b, 1]] as [number, number][]);
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

/**
 * Unwelds one MSH1 into a GPU-ready mesh. `materialOf` maps a face material name to a scene
 * material index (a fallback material is created by the caller for unknown names).
 */
export function meshToScene(m: Msh1Chunk, materialOf: (name: string) => number, bones: number, path: NodePath): SceneMesh {
  const nv = m.meshPointsPos.length / 3;
  const nn = m.meshNormals.length / 3;
  const sets = m.meshTxCrd.length;
  const computed = nn === 0 ? smoothNormals(m) : undefined;
  const influences = vertexInfluences(m, bones);
  // Corner key: a number when the index space fits in 2^53 (fast), else a string.
  const radix = [nv + 1, nn + 1, ...m.meshTxCrd.map((t) => Math.floor(t.length / 2) + 1)];
  const numeric = radix.reduce((a, b) => a * b, 1) < Number.MAX_SAFE_INTEGER;
  const key = new Map<number | string, number>();
  const pos: number[] = [];
  const nrm: number[] = [];
  const uvs: number[][] = Array.from({ length: sets }, () => []);
  const orig: number[] = [];
  // Face groups ordered by material so each material is one contiguous group.
  const order = m.faceGroups.map((g, i) => ({ g, i, mat: materialOf(g.faceMatNames[0] ?? '') })).sort((a, b) => a.mat - b.mat || a.i - b.i);
  const indices: number[] = [];
  const groups: SceneMesh['groups'] = [];
  for (const { g, mat } of order) {
    const start = indices.length;
    const corners = g.vertexIndex.length - (g.vertexIndex.length % 3);
    for (let c = 0; c < corners; c++) {
      const v = g.vertexIndex[c]!;
      if (v >= nv) continue;
      const n = g.normalIndex && g.normalIndex[c]! < nn ? g.normalIndex[c]! : -1;
      let k: number | string;
      if (numeric) {
        k = v * radix[1]! + n + 1;
        for (let t = 0; t < sets; t++) {
          const ti = g.txCrdsInd[t]?.[c];
          k = k * radix[2 + t]! + (ti !== undefined && ti < radix[2 + t]! - 1 ? ti + 1 : 0);
        }
      } else {
        k = `${v}/${n}`;
        for (let t = 0; t < sets; t++) k += `/${g.txCrdsInd[t]?.[c] ?? -1}`;
      }
      let idx = key.get(k);
      if (idx === undefined) {
        idx = pos.length / 3;
        key.set(k, idx);
        pos.push(m.meshPointsPos[v * 3]!, m.meshPointsPos[v * 3 + 1]!, m.meshPointsPos[v * 3 + 2]!);
        if (n >= 0) nrm.push(m.meshNormals[n * 3]!, m.meshNormals[n * 3 + 1]!, m.meshNormals[n * 3 + 2]!);
        else if (computed) nrm.push(computed[v * 3]!, computed[v * 3 + 1]!, computed[v * 3 + 2]!);
        else nrm.push(0, 0, 1);
        for (let t = 0; t < sets; t++) {
          const ti = g.txCrdsInd[t]?.[c];
          const tc = m.meshTxCrd[t]!;
          if (ti !== undefined && ti * 2 + 1 < tc.length) uvs[t]!.push(tc[ti * 2]!, tc[ti * 2 + 1]!);
          else uvs[t]!.push(0, 0);
        }
        orig.push(v);
      }
      indices.push(idx);
    }
    // Drop a partial triangle that an out-of-range corner may have left.
    indices.length -= (indices.length - start) % 3;
    const count = indices.length - start;
    if (count === 0) continue;
    const last = groups[groups.length - 1];
    if (last && last.material === mat && last.start + last.count === start) last.count += count;
    else groups.push({ start, count, material: mat });
  }
  const mesh: SceneMesh = {
    name: m.meshName,
    positions: new Float32Array(pos),
    normals: new Float32Array(nrm),
    uvs: uvs.map((u) => new Float32Array(u)),
    indices: new Uint32Array(indices),
    groups,
    source: path,
  };
  if (influences) {
    const joints = new Uint16Array(orig.length * 4);
    const weights = new Float32Array(orig.length * 4);
    orig.forEach((v, i) => {
      const inf = [...(influences[v] ?? [])].filter(([b]) => b < bones).sort((a, b) => b[1] - a[1]).slice(0, 4);
      const sum = inf.reduce((s, [, w]) => s + w, 0) || 1;
      inf.forEach(([b, w], j) => {
        joints[i * 4 + j] = b;
        weights[i * 4 + j] = w / sum;
      });
      if (inf.length === 0) weights[i * 4] = 1;
    });
    mesh.skin = { joints, weights };
  }
  return Object.assign(mesh, { originalVertex: Uint32Array.from(orig) });
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
  if (skel) scene.skeleton = skel.skeleton;
  const meshChunks = found.filter((f) => f.chunk.id === 'MSH1');
  for (const { chunk, path } of meshChunks) {
    const m = chunk as Msh1Chunk;
    const mesh = meshToScene(m, materialOf, boneCount, path);
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
      if (mesh?.originalVertex && e.mmVertexCount * 3 === (meshChunks[e.mmMeshIndex]?.chunk as Msh1Chunk).meshPointsPos.length) {
        for (let f = 0; f < e.mmFramesCount && at + (f + 1) * e.mmVertexCount * 3 <= md.mmVertices.length; f++) {
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

  for (const { chunk, path } of anims) scene.clips.push(buildClip(chunk as Anm1Chunk, boneCount, path));

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
    for (let i = 0; i + 2 < m.positions.length; i += 3) {
      const v = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!] as [number, number, number];
      if (!min || !max) {
        min = [...v];
        max = [...v];
      } else for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, v[k]!);
        max[k] = Math.max(max[k]!, v[k]!);
      }
    }
  }
  if (min && max) scene.bounds = { min, max };
  return scene;
}

/** Model-space bind matrices of the skeleton (for tests and tools). */
export function bindPoseWorld(doc: LodDocument): Mat4[] {
  const found = [...walkChunks(doc)];
  const skl = found.find((f) => f.chunk.id === 'SKL1')?.chunk as Skl1Chunk | undefined;
  const anm = found.find((f) => f.chunk.id === 'ANM1')?.chunk as Anm1Chunk | undefined;
  return buildSkeleton(skl, anm)?.world ?? [];
}
