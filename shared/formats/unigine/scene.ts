/**
 * Unigine -> neutral scene. Unigine is right-handed and Z-up; the scene is Y-up, so everything is
 * rotated -90 degrees about X, (x, y, z) -> (x, z, -y): vertex data directly, and the skeleton and
 * clips at their root bones (a wrapping root node would not do: glTF ignores the parents of
 * skinned mesh nodes, and skeletons are exported under their own root). Bind poses are local to
 * the parent bone (position, quaternion xyzw, scale); packed quaternions are shorts / 32767.
 * Files carry no frame rate: clips use 30 fps.
 */
import type { AnimationClip, Mat4, Scene, SceneMesh, Skeleton } from '../../scene/scene.ts';
import { composeTRS, multiply, invertOrIdentity } from '../../scene/mat4.ts';
import { expandFrames } from './frames.ts';
import type { AnimClip, UnigineAnim, UnigineBone, UnigineClip, UnigineMesh14, UnigineMeshMr02, UnigineMeshMs, UnigineSurface } from './schema.ts';

/** Frames per second assumed for clips (the files do not store a rate). */
export const UNIGINE_FPS = 30;

/** Column-major rotation taking Unigine's Z-up to the scene's Y-up: (x, y, z) -> (x, z, -y). */
export const Z_UP_TO_Y_UP: Mat4 = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];

function bindTRS(bindPose: Float32Array, i: number): { t: number[]; r: number[]; s: number[] } {
  const o = i * 10;
  const g = (k: number): number => bindPose[o + k] ?? 0;
  return { t: [g(0), g(1), g(2)], r: [g(3), g(4), g(5), g(6)], s: [g(7), g(8), g(9)] };
}

export function skeletonOf(bones: UnigineBone[], bindPose: Float32Array): Skeleton {
  const local = bones.map((_, i) => {
    const p = bindTRS(bindPose, i);
    return composeTRS(p.t, p.r, p.s);
  });
  const world: (number[] | undefined)[] = [];
  const worldOf = (i: number, depth = 0): number[] => {
    const known = world[i];
    if (known) return known;
    const p = bones[i]!.parent;
    // Parents may come after their children (agent.mesh); a broken chain is cut rather than looped.
    const m = p >= 0 && p < bones.length && p !== i && depth < bones.length ? multiply(worldOf(p, depth + 1), local[i]!) : local[i]!;
    world[i] = m;
    return m;
  };
  return {
    bones: bones.map((b, i) => ({
      name: b.name,
      parent: b.parent >= 0 && b.parent < bones.length ? b.parent : -1,
      matrix: local[i]!,
      inverseBind: invertOrIdentity(worldOf(i)),
    })),
  };
}

/** Unit normal from a packed tangent-space quaternion (the basis' third axis). */
function normalFromQuat(x: number, y: number, z: number, w: number, out: Float32Array, o: number): void {
  const l = Math.hypot(x, y, z, w) || 1;
  x /= l; y /= l; z /= l; w /= l;
  out[o] = 2 * (x * z + w * y);
  out[o + 1] = 2 * (y * z - w * x);
  out[o + 2] = 1 - 2 * (x * x + y * y);
}

/**
 * One scene mesh per surface. Vertices are the surface's triangle vertices; each takes its
 * position from the coordinate vertex its first corner names. When one triangle vertex is used
 * with two different coordinate vertices, the mesh is unwelded to one vertex per corner instead.
 */
export function surfaceToMesh(s: UnigineSurface, magic: string, surfaceIndex: number): SceneMesh {
  const mt = s.morphTargets[0];
  const coords = mt?.vertices ?? new Float32Array(0);
  const nCoord = coords.length / 3;
  const tanDim = magic === 'ms10' ? 3 : 4;
  const nTri = (mt?.tangents.length ?? 0) / tanDim;
  const corners = Math.min(s.coordIndices.length, s.triangleIndices.length);
  const map = new Int32Array(nTri).fill(-1);
  let welded = true;
  for (let k = 0; k < corners; k++) {
    const t = s.triangleIndices[k]!, c = s.coordIndices[k]!;
    if (t >= nTri || c >= nCoord) { welded = false; break; }
    if (map[t] === -1) map[t] = c;
    else if (map[t] !== c) { welded = false; break; }
  }
  const n = welded ? nTri : corners;
  const coordOf = (v: number): number => (welded ? Math.max(0, map[v]!) : Math.min(s.coordIndices[v]!, Math.max(0, nCoord - 1)));
  const triOf = (v: number): number => (welded ? v : s.triangleIndices[v]!);
  const positions = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    const c = coordOf(v);
    if (c < nCoord) positions.set(coords.subarray(c * 3, c * 3 + 3), v * 3);
  }
  const normals = mt && nTri > 0 ? new Float32Array(n * 3) : undefined;
  if (normals && mt) {
    for (let v = 0; v < n; v++) {
      const t = Math.min(triOf(v), nTri - 1);
      const x = mt.tangents[t * tanDim]! / 32767, y = mt.tangents[t * tanDim + 1]! / 32767, z = mt.tangents[t * tanDim + 2]! / 32767;
      // ms10 leaves w out; its seventh byte is a handedness sign, not w's (see NOTES.md).
      const w = tanDim === 4 ? mt.tangents[t * 4 + 3]! / 32767 : Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z));
      normalFromQuat(x, y, z, w, normals, v * 3);
    }
  }
  const uvs: Float32Array[] = [];
  for (const set of [s.uv0, s.uv1]) {
    const count = set.length / 2;
    if (count === 0) continue;
    const uv = new Float32Array(n * 2);
    for (let v = 0; v < n; v++) {
      const t = triOf(v);
      if (t < count) {
        uv[v * 2] = set[t * 2]!;
        uv[v * 2 + 1] = set[t * 2 + 1]!;
      }
    }
    uvs.push(uv);
  }
  const indices = welded ? Uint32Array.from(s.triangleIndices.subarray(0, corners - (corners % 3))) : Uint32Array.from({ length: corners - (corners % 3) }, (_, i) => i);
  const mesh: SceneMesh = {
    name: s.name, positions, uvs, indices, groups: [{ start: 0, count: indices.length, material: surfaceIndex }],
    source: ['surfaces', surfaceIndex],
  };
  if (normals) mesh.normals = normals;
  const nColors = s.colors.length / 4;
  if (nColors > 0) {
    const colors = new Float32Array(n * 4).fill(1);
    for (let v = 0; v < n; v++) {
      const t = triOf(v);
      if (t < nColors) for (let k = 0; k < 4; k++) colors[v * 4 + k] = s.colors[t * 4 + k]! / 255;
    }
    mesh.colors = colors;
  }
  if (s.weightCounts.length > 0) {
    // Weights belong to coordinate vertices; records are variable length, so index them first.
    const first = new Uint32Array(s.weightCounts.length + 1);
    for (let i = 0; i < s.weightCounts.length; i++) first[i + 1] = first[i]! + s.weightCounts[i]!;
    const joints = new Uint16Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) {
      const c = coordOf(v);
      if (c >= s.weightCounts.length) continue;
      const k = Math.min(4, s.weightCounts[c]!);
      let sum = 0;
      for (let m = 0; m < k; m++) sum += s.weightValues[first[c]! + m] ?? 0;
      for (let m = 0; m < k; m++) {
        joints[v * 4 + m] = Math.max(0, s.weightBones[first[c]! + m] ?? 0);
        weights[v * 4 + m] = sum > 0 ? (s.weightValues[first[c]! + m] ?? 0) / sum : 0;
      }
    }
    mesh.skin = { joints, weights };
  }
  if (s.morphTargets.length > 1) {
    // Only targets matching target 0 make sense, and the scene's copies (one per scene vertex,
    // which can outnumber coordinate vertices) get a budget tied to the stored data, so a file
    // of many tiny targets cannot make this allocate far beyond its size.
    const valid = s.morphTargets.slice(1).filter((m) => m.vertices.length === coords.length);
    const stored = valid.reduce((sum, m) => sum + m.vertices.length, 0);
    const budget = Math.max(stored * 4, n * 3 * 16);
    mesh.morphs = valid.slice(0, n > 0 ? Math.floor(budget / (n * 3)) : valid.length).map((m) => {
      const p = new Float32Array(n * 3);
      for (let v = 0; v < n; v++) {
        const c = coordOf(v);
        if (c * 3 + 2 < m.vertices.length) p.set(m.vertices.subarray(c * 3, c * 3 + 3), v * 3);
      }
      return { name: m.name, positions: p };
    });
  }
  return mesh;
}

/** A clip with one track per animated bone, carrying the bone name for binding by name. */
export function clipToScene(
  clip: UnigineClip | AnimClip,
  bones: UnigineBone[],
  bindPose: Float32Array,
  path: (string | number)[],
): AnimationClip {
  const nb = clip.bones.length;
  const box = 'translationMin' in clip ? clip : undefined;
  const decT = box
    ? (k: number, v: number): number => box.translationMin[k]! + box.translationSize[k]! * (v / 65535)
    : (_k: number, v: number): number => v;
  const decS = box
    ? (k: number, v: number): number => box.scaleMin[k]! + box.scaleSize[k]! * (v / 65535)
    : (_k: number, v: number): number => v;
  const ex = expandFrames(clip, nb, (b) => bindTRS(bindPose, clip.bones[b]!), decT, decS);
  const times = Float32Array.from({ length: ex.frames }, (_, f) => f / UNIGINE_FPS);
  const tracks = Array.from(clip.bones, (boneIndex, b) => {
    const pick = (src: Float32Array, dim: number): Float32Array => {
      const out = new Float32Array(ex.frames * dim);
      for (let f = 0; f < ex.frames; f++) out.set(src.subarray((f * nb + b) * dim, (f * nb + b) * dim + dim), f * dim);
      return out;
    };
    return {
      bone: boneIndex, targetName: bones[boneIndex]?.name ?? `bone${boneIndex}`, target: 'bone' as const, times,
      translations: pick(ex.translations, 3), rotations: pick(ex.rotations, 4), scales: pick(ex.scales, 3),
    };
  });
  return { name: clip.name, duration: Math.max(0, ex.frames - 1) / UNIGINE_FPS, frames: ex.frames, tracks, source: path };
}

const IDENTITY4: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
/** Inverse of {@link Z_UP_TO_Y_UP}: (x, y, z) -> (x, -z, y). */
const Y_UP_TO_Z_UP: Mat4 = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1];
const S = Math.SQRT1_2;

function rotateVec3s(a: Float32Array): void {
  for (let i = 0; i + 2 < a.length; i += 3) {
    const y = a[i + 1]!;
    a[i + 1] = a[i + 2]!;
    a[i + 2] = -y;
  }
}

/** q' = qR * q with qR = (-sqrt(1/2), 0, 0, sqrt(1/2)), the same rotation as a quaternion. */
function rotateQuats(a: Float32Array): void {
  for (let i = 0; i + 3 < a.length; i += 4) {
    const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!, w = a[i + 3]!;
    a[i] = S * x - S * w;
    a[i + 1] = S * y + S * z;
    a[i + 2] = S * z - S * y;
    a[i + 3] = S * w + S * x;
  }
}

/** Moves a scene built in Unigine coordinates to Y-up (see the file comment). */
function toYUp(scene: Scene): Scene {
  for (const m of scene.meshes) {
    rotateVec3s(m.positions);
    if (m.normals) rotateVec3s(m.normals);
    for (const morph of m.morphs ?? []) rotateVec3s(morph.positions);
  }
  const bones = scene.skeleton?.bones ?? [];
  for (const b of bones) {
    if (b.parent < 0) b.matrix = multiply(Z_UP_TO_Y_UP, b.matrix);
    // world' = R * world, so inverse(world') = inverse(world) * inverse(R).
    if (b.inverseBind) b.inverseBind = multiply(b.inverseBind, Y_UP_TO_Z_UP);
  }
  for (const clip of scene.clips) {
    for (const t of clip.tracks) {
      if ((bones[t.bone]?.parent ?? -1) >= 0) continue;
      if (t.translations) rotateVec3s(t.translations);
      if (t.rotations) rotateQuats(t.rotations);
    }
  }
  return scene;
}

/** mr02 surfaces are plain triangle lists: three vertices per triangle, no indices in the file. */
function mr02ToScene(doc: UnigineMeshMr02): Scene {
  const scene: Scene = { nodes: [], meshes: [], materials: [], clips: [] };
  doc.surfaces.forEach((s, i) => {
    const n = Math.floor(s.positions.length / 3);
    const count = n - (n % 3);
    scene.materials.push({ name: s.name, color: [0.8, 0.8, 0.8, 1], source: ['surfaces', i] });
    scene.meshes.push({
      name: s.name, positions: s.positions.slice(0, n * 3), normals: s.normals.slice(0, n * 3), uvs: [s.uvs.slice(0, n * 2)],
      indices: Uint32Array.from({ length: count }, (_, k) => k), groups: [{ start: 0, count, material: i }], source: ['surfaces', i],
    });
    scene.nodes.push({ name: s.name, parent: -1, matrix: [...IDENTITY4], mesh: i, source: ['surfaces', i] });
  });
  return toYUp(scene);
}

export function meshToScene(doc: UnigineMeshMs | UnigineMesh14 | UnigineMeshMr02): Scene {
  if (doc.magic === 'mr02') return mr02ToScene(doc);
  const scene: Scene = { nodes: [], meshes: [], materials: [], clips: [] };
  doc.surfaces.forEach((s, i) => {
    scene.materials.push({ name: s.name, color: [0.8, 0.8, 0.8, 1], source: ['surfaces', i] });
    scene.meshes.push(surfaceToMesh(s, doc.magic, i));
    scene.nodes.push({ name: s.name, parent: -1, matrix: [...IDENTITY4], mesh: i, source: ['surfaces', i] });
  });
  if (doc.bones.length > 0) scene.skeleton = skeletonOf(doc.bones, doc.bindPose);
  scene.clips = doc.animations.map((a, i) => clipToScene(a, doc.bones, doc.bindPose, ['animations', i]));
  scene.bounds = { min: [doc.boundMin[0]!, doc.boundMin[2]!, -doc.boundMax[1]!], max: [doc.boundMax[0]!, doc.boundMax[2]!, -doc.boundMin[1]!] };
  return toYUp(scene);
}

export function animToScene(doc: UnigineAnim): Scene {
  const scene: Scene = { nodes: [], meshes: [], materials: [], clips: [] };
  if (doc.bones.length > 0) scene.skeleton = skeletonOf(doc.bones, doc.bindPose);
  scene.clips = doc.animations.map((a, i) => clipToScene(a, doc.bones, doc.bindPose, ['animations', i]));
  return toYUp(scene);
}
