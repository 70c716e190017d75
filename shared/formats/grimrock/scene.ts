/**
 * Grimrock -> neutral scene. Grimrock stores Y-up, left-handed data (Direct3D style: the exporters
 * for right-handed tools swap or mirror one axis), so every position, normal, matrix and
 * quaternion is mirrored across Z here and triangle winding is reversed; see NOTES.md.
 * Units are the source's (one Grimrock dungeon cell is 3 units).
 */
import type { AnimationClip, Mat4, Scene, SceneMesh, Skeleton } from '../../scene/scene.ts';
import { composeTRS, invert, multiply } from '../../scene/mat4.ts';
import { packedKind } from './model-io.ts';
import type { GrimrockAnimation, GrimrockModel, MeshData, VertexArray } from './schema.ts';

/** Mat4x3 (baseX, baseY, baseZ, translation) -> column-major 4x4, mirrored to right-handed. */
export function mat4x3ToScene(m: readonly number[]): Mat4 {
  // S M S with S = diag(1, 1, -1): negate the z row and the z column (z,z stays).
  return [
    m[0]!, m[1]!, -m[2]!, 0,
    m[3]!, m[4]!, -m[5]!, 0,
    -m[6]!, -m[7]!, m[8]!, 0,
    m[9]!, m[10]!, -m[11]!, 1,
  ];
}

/** Component j of vertex v of a vertex array as a number (any declared type and stride). */
function reader(a: VertexArray): ((v: number, j: number) => number) | undefined {
  if (a.stride <= 0 || a.dim <= 0) return undefined;
  const kind = packedKind(a.dataType, a.dim, a.stride);
  if (kind) {
    const d = a.data as ArrayLike<number>;
    return (v, j) => d[v * a.dim + j]!;
  }
  const b = a.data instanceof Uint8Array ? a.data : new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const size = [1, 2, 4, 4][a.dataType];
  if (size === undefined) return undefined;
  return (v, j) => {
    const o = v * a.stride + j * size;
    if (o + size > b.length) return 0;
    switch (a.dataType) {
      case 0: return view.getUint8(o);
      case 1: return view.getInt16(o, true);
      case 2: return view.getInt32(o, true);
      default: return view.getFloat32(o, true);
    }
  };
}

function floatArray(a: VertexArray, n: number, dim: number, mirrorZ: boolean): Float32Array | undefined {
  const get = reader(a);
  if (!get) return undefined;
  const out = new Float32Array(n * dim);
  const d = Math.min(dim, a.dim);
  for (let v = 0; v < n; v++) for (let j = 0; j < d; j++) out[v * dim + j] = get(v, j);
  if (mirrorZ && dim >= 3) for (let v = 0; v < n; v++) out[v * dim + 2] = -out[v * dim + 2]!;
  return out;
}

function meshToScene(name: string, md: MeshData, source: (string | number)[], materialIndex: (m: string) => number, jointOf: (i: number) => number): SceneMesh {
  const va = md.vertexArrays;
  // numVertices is only bounded by the file when some array holds data: without positions there is
  // nothing to draw, and a bare count must not size the scene's arrays.
  const n = (va[0]?.stride ?? 0) > 0 ? md.numVertices : 0;
  const positions = floatArray(va[0]!, n, 3, true) ?? new Float32Array(n * 3);
  const normals = floatArray(va[1]!, n, 3, true);
  const uvs: Float32Array[] = [];
  for (let t = 5; t <= 12; t++) {
    const uv = floatArray(va[t]!, n, 2, false);
    if (uv) uvs.push(uv);
  }
  let colors: Float32Array | undefined;
  const colorGet = reader(va[4]!);
  if (colorGet) {
    colors = new Float32Array(n * 4).fill(1);
    const scale = va[4]!.dataType === 0 ? 1 / 255 : 1;
    for (let v = 0; v < n; v++) for (let j = 0; j < Math.min(4, va[4]!.dim); j++) colors[v * 4 + j] = colorGet(v, j) * scale;
  }
  // Reverse the winding: mirroring one axis turns the faces inside out otherwise.
  const indices = new Uint32Array(md.indices.length - (md.indices.length % 3));
  for (let i = 0; i + 2 < md.indices.length; i += 3) {
    indices[i] = md.indices[i]!;
    indices[i + 1] = md.indices[i + 2]!;
    indices[i + 2] = md.indices[i + 1]!;
  }
  const groups = md.segments.map((s) => ({ start: s.firstIndex, count: s.count * 3, material: materialIndex(s.material) }));
  const mesh: SceneMesh = { name, positions, uvs, indices, groups, source };
  if (normals) mesh.normals = normals;
  if (colors) mesh.colors = colors;
  const bi = reader(va[13]!), bw = reader(va[14]!);
  if (bi && bw) {
    const joints = new Uint16Array(n * 4);
    const weights = new Float32Array(n * 4);
    const wScale = va[14]!.dataType === 0 ? 1 / 255 : 1;
    for (let v = 0; v < n; v++) {
      for (let j = 0; j < Math.min(4, va[13]!.dim, va[14]!.dim); j++) {
        joints[v * 4 + j] = Math.max(0, jointOf(bi(v, j)));
        weights[v * 4 + j] = bw(v, j) * wScale;
      }
    }
    mesh.skin = { joints, weights };
  }
  return mesh;
}

/** The node indices any mesh entity uses as bones, in first-use order. */
export function boneNodes(doc: GrimrockModel): number[] {
  const seen = new Set<number>();
  for (const n of doc.nodes) for (const b of n.mesh?.bones ?? []) seen.add(b.boneNodeIndex);
  return [...seen];
}

export function modelToScene(doc: GrimrockModel): Scene {
  const scene: Scene = { nodes: [], meshes: [], materials: [], clips: [] };
  const matIndex = new Map<string, number>();
  const materialIndex = (name: string): number => {
    let i = matIndex.get(name);
    if (i === undefined) {
      i = scene.materials.length;
      matIndex.set(name, i);
      scene.materials.push({ name, color: [0.8, 0.8, 0.8, 1], source: ['nodes'] });
    }
    return i;
  };
  const local = doc.nodes.map((n) => mat4x3ToScene(n.localToParent));
  // Skeleton: the nodes used as bones; a bone's parent is its nearest ancestor that is a bone too,
  // and its matrix is the product of the node transforms between them.
  const bones = boneNodes(doc).sort((a, b) => a - b);
  const boneOfNode = new Map(bones.map((nodeIdx, i) => [nodeIdx, i]));
  const invBind = new Map<number, Mat4>();
  for (const n of doc.nodes) for (const b of n.mesh?.bones ?? []) if (!invBind.has(b.boneNodeIndex)) invBind.set(b.boneNodeIndex, mat4x3ToScene(b.invRestMatrix));
  if (bones.length > 0) {
    const skeleton: Skeleton = { bones: [] };
    for (const nodeIdx of bones) {
      let m = local[nodeIdx] ?? mat4x3ToScene([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
      let p = doc.nodes[nodeIdx]?.parent ?? -1;
      const guard = new Set<number>([nodeIdx]);
      while (p >= 0 && p < doc.nodes.length && !boneOfNode.has(p) && !guard.has(p)) {
        guard.add(p);
        m = multiply(local[p]!, m);
        p = doc.nodes[p]!.parent;
      }
      const bone = { name: doc.nodes[nodeIdx]?.name ?? `node${nodeIdx}`, parent: boneOfNode.get(p) ?? -1, matrix: m } as Skeleton['bones'][number];
      const ib = invBind.get(nodeIdx);
      if (ib) bone.inverseBind = ib;
      skeleton.bones.push(bone);
    }
    scene.skeleton = skeleton;
  }
  const worldOf = nodeWorlds(doc, local);
  doc.nodes.forEach((n, i) => {
    const node: Scene['nodes'][number] = { name: n.name, parent: n.parent, matrix: local[i]!, source: ['nodes', i] };
    if (n.mesh) {
      node.mesh = scene.meshes.length;
      const md = n.mesh.meshData;
      const entityBones = n.mesh.bones;
      const jointOf = (k: number): number => boneOfNode.get(entityBones[k]?.boneNodeIndex ?? -1) ?? 0;
      const mesh = meshToScene(n.name, md, ['nodes', i, 'mesh', 'meshData'], materialIndex, jointOf);
      // A skinned entity's vertices are in model space (its bones' invRestMatrix maps model space
      // to bone space, and the game's own files hold them there: skeleton_warrior_axe's great_axe,
      // a child of hand_r, has its vertices at the hand). The Scene places a skinned mesh with its
      // node's transform before skinning, as glTF's bind does, so take that transform out here;
      // left in, an item parented to a bone lands a second node-transform away from the bone.
      if (mesh.skin && scene.skeleton) toNodeSpace(mesh, worldOf(i));
      scene.meshes.push(mesh);
    }
    scene.nodes.push(node);
  });
  return scene;
}

/**
 * World matrix of each node (scene space), memoised. Walks up without recursion (a file may chain
 * thousands of nodes); a damaged parent chain stops where it loops.
 */
function nodeWorlds(doc: GrimrockModel, local: Mat4[]): (i: number) => Mat4 {
  const memo = new Map<number, Mat4>();
  return (i: number): Mat4 => {
    const chain: number[] = [];
    const seen = new Set<number>();
    let n = i;
    while (n >= 0 && n < doc.nodes.length && !memo.has(n) && !seen.has(n)) {
      seen.add(n);
      chain.push(n);
      n = doc.nodes[n]!.parent;
    }
    let w = memo.get(n);
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k]!;
      w = w ? multiply(w, local[c]!) : local[c]!;
      memo.set(c, w);
    }
    return memo.get(i) ?? local[i]!;
  };
}

/** Model-space vertices into the space of a node placed at `world`: points by its inverse, normals by its transpose. */
function toNodeSpace(mesh: SceneMesh, world: Mat4): void {
  if (world.every((v, k) => v === (k % 5 === 0 ? 1 : 0))) return;
  const inv = invert(world);
  if (!inv) return;
  const P = mesh.positions;
  for (let o = 0; o + 2 < P.length; o += 3) {
    const x = P[o]!, y = P[o + 1]!, z = P[o + 2]!;
    P[o] = inv[0]! * x + inv[4]! * y + inv[8]! * z + inv[12]!;
    P[o + 1] = inv[1]! * x + inv[5]! * y + inv[9]! * z + inv[13]!;
    P[o + 2] = inv[2]! * x + inv[6]! * y + inv[10]! * z + inv[14]!;
  }
  const N = mesh.normals;
  if (!N) return;
  const w = world;
  for (let o = 0; o + 2 < N.length; o += 3) {
    const x = N[o]!, y = N[o + 1]!, z = N[o + 2]!;
    const nx = w[0]! * x + w[1]! * y + w[2]! * z, ny = w[4]! * x + w[5]! * y + w[6]! * z, nz = w[8]! * x + w[9]! * y + w[10]! * z;
    const l = Math.hypot(nx, ny, nz) || 1;
    N[o] = nx / l; N[o + 1] = ny / l; N[o + 2] = nz / l;
  }
}

/**
 * One clip; one track per item with `targetName` = the item's node name so the clip binds to a
 * model by name. The scene also carries a flat skeleton of those names (bone i = item i).
 */
export function animationToScene(doc: GrimrockAnimation): Scene {
  const fps = doc.framesPerSecond > 0 ? doc.framesPerSecond : 30;
  const clip: AnimationClip = { name: doc.name, duration: Math.max(0, doc.numFrames - 1) / fps, frames: doc.numFrames, tracks: [], source: [] };
  const skeleton: Skeleton = { bones: [] };
  doc.items.forEach((it, i) => {
    const times = (count: number): Float32Array => Float32Array.from({ length: count }, (_, k) => k / fps);
    const np = it.positions.length / 3, nr = it.rotations.length / 4, ns = it.scales.length / 3;
    const translations = Float32Array.from(it.positions, (v, k) => (k % 3 === 2 ? -v : v));
    const rotations = Float32Array.from(it.rotations, (v, k) => (k % 4 === 0 || k % 4 === 1 ? -v : v));
    const scales = Float32Array.from(it.scales);
    // The neutral track has one time list: channels with fewer keys (version 2 stores a constant
    // channel once) are held at their last key.
    const n = Math.max(np, nr, ns);
    const hold = (src: Float32Array, dim: number, count: number): Float32Array => {
      if (count === n || count === 0) return src;
      const out = new Float32Array(n * dim);
      for (let k = 0; k < n; k++) out.set(src.subarray(Math.min(k, count - 1) * dim, Math.min(k, count - 1) * dim + dim), k * dim);
      return out;
    };
    const track: AnimationClip['tracks'][number] = { bone: i, targetName: it.node, target: 'bone', times: times(n) };
    if (np) track.translations = hold(translations, 3, np);
    if (nr) track.rotations = hold(rotations, 4, nr);
    if (ns) track.scales = hold(scales, 3, ns);
    clip.tracks.push(track);
    const first = (src: Float32Array, dim: number, def: number[]): number[] => (src.length >= dim ? Array.from(src.subarray(0, dim)) : def);
    skeleton.bones.push({
      name: it.node, parent: -1,
      matrix: composeTRS(first(translations, 3, [0, 0, 0]), first(rotations, 4, [0, 0, 0, 1]), first(scales, 3, [1, 1, 1])),
    });
  });
  return { nodes: [], meshes: [], materials: [], clips: [clip], skeleton };
}
