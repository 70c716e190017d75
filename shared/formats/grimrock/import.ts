/**
 * Import -> Legend of Grimrock `.model` (MDL1 v2) and `.animation` (ANIM).
 *
 * Grimrock keeps a node hierarchy, so glTF nodes come across one for one (a synthetic `root`
 * is added when the scene has more than one root, as the first node must be the only root).
 * Axes: Grimrock is left-handed; its `toScene` mirrors Z (positions, normals, matrices and
 * quaternions) and reverses the winding, so this writer does exactly the same in reverse.
 * What the format's page asks for is followed: float32 positions, normals and texcoords (up to 8
 * sets), tangents and bitangents from UV set 0, and int32 bone indices with float32 weights (4 per
 * vertex) as real files store them. Vertex colours are left out: the page says the game does not
 * use them.
 */
import type { GrimrockAnimation, GrimrockModel, GrimrockNode, MeshData, VertexArray } from './schema.ts';
import { ImportError } from '../../import/errors.ts';
import { cappedSkin, requireMeshes, type WriterOptions } from '../../import/common.ts';
import { invertSafe, multiply } from '../../import/math.ts';
import { warnOnce, type ImportMesh, type ImportModel } from '../../import/model.ts';
import type { GltfImporter } from '../capabilities.ts';
import type { EditCommand } from '../../model/commands.ts';
import type { NodePath } from '../../model/path.ts';
import { detectStep, pickClip, resample } from '../../import/resample.ts';
import type { Mat4 } from '../../scene/scene.ts';

const MAX_INFLUENCES = 4;

/** Column-major scene matrix -> Grimrock Mat4x3 (mirrored across Z): the inverse of `mat4x3ToScene`. */
export function sceneToMat4x3(m: readonly number[]): number[] {
  return [m[0]!, m[1]!, -m[2]!, m[4]!, m[5]!, -m[6]!, -m[8]!, -m[9]!, m[10]!, m[12]!, m[13]!, -m[14]!].map(Math.fround);
}

const unused = (): VertexArray => ({ dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) });
const floatArray = (data: Float32Array, dim: number): VertexArray => ({ dataType: 3, dim, stride: dim * 4, data });

export function modelToGrimrock(model: ImportModel, opts: WriterOptions = {}): { doc: GrimrockModel; warnings: string[] } {
  requireMeshes(model);
  const warnings = [...model.warnings];
  const roots = model.nodes.filter((n) => n.parent < 0).length;
  const synthetic = roots !== 1 || model.nodes[0]?.parent !== -1;
  const offset = synthetic ? 1 : 0;
  const nodes: GrimrockNode[] = [];
  if (synthetic) nodes.push({ name: 'root', localToParent: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], parent: -1, type: -1 });
  if (model.clips.length) warnOnce(warnings, `${model.clips.length} animation(s) left out: a .model holds none (import each into a .animation with --anim)`);
  if (model.meshes.some((m) => m.colors)) warnOnce(warnings, 'vertex colours are left out (Legend of Grimrock does not use them)');
  for (const n of model.nodes) {
    const node: GrimrockNode = {
      name: n.name, localToParent: sceneToMat4x3(n.local), parent: n.parent >= 0 ? n.parent + offset : synthetic ? 0 : -1, type: -1,
    };
    if (n.mesh !== undefined) {
      const m = model.meshes[n.mesh]!;
      if (m.indices.length === 0) warnOnce(warnings, `mesh "${m.name}": no triangles`);
      // Skinned meshes were posed in world space, which is where a Grimrock skinned entity keeps
      // its vertices (model space: the bones' invRestMatrix starts from there), whatever node
      // holds it. A mesh without a skin is in its node's space.
      const skin = cappedSkin(m, MAX_INFLUENCES, opts.limitInfluences, 'Grimrock model', warnings);
      let positions = m.positions, normals = m.normals;
      if (m.space === 'world' && !skin) {
        const inv = invertSafe(n.world);
        positions = m.positions.slice();
        normals = m.normals.slice();
        transform(positions, inv, true);
        transform(normals, n.world, false, true);
      }
      node.type = 0;
      node.mesh = {
        meshData: meshData(m.name, positions, normals, m.uvs, m.indices, m.groups.map((g) => ({ ...g, material: model.materials[g.material]!.name })), warnings),
        numBones: 0, bones: [], emissiveColor: [0, 0, 0], castShadow: 1,
      };
      if (skin) {
        // The entity's bone list is the joints this mesh uses; vertex bone indices point into it.
        // Every joint of the skin, as the source lists them, while byte indices can hold them all.
        // Every joint of the skin, as the source lists them. Real files (the game's own
        // included) store int32 indices and float32 weights, not the bytes the format page
        // suggests: those are what is written.
        const used = model.joints.map((_, k) => k);
        const nv = positions.length / 3;
        const bi = new Int32Array(nv * 4), bw = new Float32Array(nv * 4);
        for (let k = 0; k < nv * 4; k++) {
          bw[k] = skin.weights[k]!;
          bi[k] = skin.weights[k]! > 0 ? skin.joints[k]! : 0;
        }
        const md = node.mesh.meshData;
        md.vertexArrays[13] = { dataType: 2, dim: 4, stride: 16, data: bi };
        md.vertexArrays[14] = { dataType: 3, dim: 4, stride: 16, data: bw };
        node.mesh.bones = used.map((j) => ({ boneNodeIndex: model.joints[j]! + offset, invRestMatrix: sceneToMat4x3(invertSafe(model.jointWorld[j]!)) }));
        node.mesh.numBones = used.length;
      }
      // The model is the writer's to use up: let the mesh's arrays go now that the document has
      // its own (a large import then never holds both).
      Object.assign(m, { positions: new Float32Array(0), normals: new Float32Array(0), uvs: [], indices: new Uint32Array(0), groups: [] });
      delete m.skin;
      delete m.colors;
    }
    nodes.push(node);
  }
  return { doc: { magic: 'MDL1', version: 2, numNodes: nodes.length, nodes }, warnings };
}

function transform(a: Float32Array, m: Mat4, point: boolean, normal = false): void {
  // Normals of a point transformed by inverse(W) move with transpose(W).
  const k = normal ? [m[0]!, m[4]!, m[8]!, m[1]!, m[5]!, m[9]!, m[2]!, m[6]!, m[10]!] : [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!];
  for (let o = 0; o + 2 < a.length; o += 3) {
    const x = a[o]!, y = a[o + 1]!, z = a[o + 2]!;
    let nx = k[0]! * x + k[3]! * y + k[6]! * z, ny = k[1]! * x + k[4]! * y + k[7]! * z, nz = k[2]! * x + k[5]! * y + k[8]! * z;
    if (point) { nx += m[12]!; ny += m[13]!; nz += m[14]!; } else {
      const l = Math.hypot(nx, ny, nz) || 1;
      nx /= l; ny /= l; nz /= l;
    }
    a[o] = nx; a[o + 1] = ny; a[o + 2] = nz;
  }
}

/** Mesh data of one (world-space) mesh, for replacing a node's mesh: materials named by `materialNames`. */
export function grimrockMeshData(mesh: ImportMesh, materialNames: string[], warnings: string[]): MeshData {
  return meshData(mesh.name, mesh.positions, mesh.normals, mesh.uvs, mesh.indices, mesh.groups.map((g) => ({ ...g, material: materialNames[g.material]! })), warnings);
}

/**
 * Per-vertex tangent (along +u) and bitangent (along +v) in the file's own space, accumulated
 * over the triangles and made orthogonal to the normal (normal-mapped Grimrock models carry both).
 */
function tangentFrame(P: Float32Array, N: Float32Array, uv: Float32Array, idx: Uint32Array): { t: Float32Array; b: Float32Array } {
  const t = new Float32Array(P.length), b = new Float32Array(P.length);
  for (let i = 0; i + 2 < idx.length; i += 3) {
    const a = idx[i]!, c1 = idx[i + 1]!, c2 = idx[i + 2]!;
    const du1 = uv[c1 * 2]! - uv[a * 2]!, dv1 = uv[c1 * 2 + 1]! - uv[a * 2 + 1]!;
    const du2 = uv[c2 * 2]! - uv[a * 2]!, dv2 = uv[c2 * 2 + 1]! - uv[a * 2 + 1]!;
    const det = du1 * dv2 - du2 * dv1;
    if (!det) continue;
    const r = 1 / det;
    for (let k = 0; k < 3; k++) {
      const e1 = P[c1 * 3 + k]! - P[a * 3 + k]!, e2 = P[c2 * 3 + k]! - P[a * 3 + k]!;
      const tk = (e1 * dv2 - e2 * dv1) * r, bk = (e2 * du1 - e1 * du2) * r;
      for (const v of [a, c1, c2]) { t[v * 3 + k] = t[v * 3 + k]! + tk; b[v * 3 + k] = b[v * 3 + k]! + bk; }
    }
  }
  const ortho = (a: Float32Array, o: number): void => {
    const nx = N[o]!, ny = N[o + 1]!, nz = N[o + 2]!;
    const d = a[o]! * nx + a[o + 1]! * ny + a[o + 2]! * nz;
    let x = a[o]! - d * nx, y = a[o + 1]! - d * ny, z = a[o + 2]! - d * nz;
    let l = Math.hypot(x, y, z);
    if (!(l > 1e-12)) { [x, y, z] = Math.abs(nx) < 0.9 ? [0, nz, -ny] : [-nz, 0, nx]; l = Math.hypot(x, y, z) || 1; }
    a[o] = x / l; a[o + 1] = y / l; a[o + 2] = z / l;
  };
  for (let o = 0; o < P.length; o += 3) { ortho(t, o); ortho(b, o); }
  return { t, b };
}

function meshData(
  name: string, positions: Float32Array, normals: Float32Array, uvs: Float32Array[], indices: Uint32Array,
  groups: { start: number; count: number; material: string }[], warnings: string[],
): MeshData {
  const n = positions.length / 3;
  const P = new Float32Array(n * 3), N = new Float32Array(n * 3);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let o = 0; o < n * 3; o += 3) {
    P[o] = positions[o]!; P[o + 1] = positions[o + 1]!; P[o + 2] = -positions[o + 2]!;
    N[o] = normals[o]!; N[o + 1] = normals[o + 1]!; N[o + 2] = -normals[o + 2]!;
    for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k]!, P[o + k]!); max[k] = Math.max(max[k]!, P[o + k]!); }
  }
  if (n === 0) { min.fill(0); max.fill(0); }
  const arrays: VertexArray[] = Array.from({ length: 15 }, unused);
  arrays[0] = floatArray(P, 3);
  arrays[1] = floatArray(N, 3);
  if (uvs.length > 8) warnOnce(warnings, `mesh "${name}": ${uvs.length} UV sets; Grimrock holds 8, the rest are left out`);
  uvs.slice(0, 8).forEach((uv, k) => (arrays[5 + k] = floatArray(uv, 2)));
  if (uvs[0] && n > 0) {
    const { t, b } = tangentFrame(P, N, uvs[0], indices);
    arrays[2] = floatArray(t, 3);
    arrays[3] = floatArray(b, 3);
  }
  // Mirroring one axis turns faces inside out: reverse the winding as the format's scene does.
  const idx = new Int32Array(indices.length);
  for (let i = 0; i + 2 < indices.length; i += 3) { idx[i] = indices[i]!; idx[i + 1] = indices[i + 2]!; idx[i + 2] = indices[i + 1]!; }
  const center = [0, 1, 2].map((k) => Math.fround((min[k]! + max[k]!) / 2));
  let r = 0;
  for (let o = 0; o < n * 3; o += 3) r = Math.max(r, Math.hypot(P[o]! - center[0]!, P[o + 1]! - center[1]!, P[o + 2]! - center[2]!));
  return {
    magic: 'MESH', version: 2, numVertices: n, vertexArrays: arrays, numIndices: idx.length, indices: idx,
    numSegments: groups.length,
    segments: groups.map((g) => ({ material: g.material, primitiveType: 2, firstIndex: g.start, count: g.count / 3 })),
    boundCenter: center, boundRadius: Math.fround(r), boundMin: min.map(Math.fround), boundMax: max.map(Math.fround),
  };
}

/**
 * One glTF animation -> `.animation`: one item per node the clip drives (bound by node name),
 * a key per frame. The frame rate is the clip's own when its keys are evenly spaced, else 30.
 */
export function modelToGrimrockAnimation(model: ImportModel, opts: WriterOptions = {}): { doc: GrimrockAnimation; warnings: string[] } {
  const warnings = [...model.warnings];
  const clip = pickClip(model, opts.anim);
  if (!clip) {
    if (opts.anim !== undefined) throw new ImportError(`no animation named or numbered "${opts.anim}" (the file has ${model.clips.map((c) => `"${c.name}"`).join(', ') || 'none'})`, 'animations');
    throw new ImportError('the file has no animation', 'animations');
  }
  const version = opts.version === undefined ? 1 : Number(opts.version);
  if (version !== 1 && version !== 2) throw new ImportError(`--version for .animation is 1 or 2, not "${opts.version}"`, '');
  const step = detectStep(clip) ?? 1 / 30;
  const s = resample(model, clip, step);
  const nb = s.nodes.length;
  const items = s.nodes.map((n, b) => {
    const positions = new Float32Array(s.frames * 3), rotations = new Float32Array(s.frames * 4), scales = new Float32Array(s.frames * 3);
    for (let f = 0; f < s.frames; f++) {
      const o = f * nb + b;
      positions[f * 3] = s.translations[o * 3]!; positions[f * 3 + 1] = s.translations[o * 3 + 1]!; positions[f * 3 + 2] = -s.translations[o * 3 + 2]!;
      rotations[f * 4] = -s.rotations[o * 4]!; rotations[f * 4 + 1] = -s.rotations[o * 4 + 1]!; rotations[f * 4 + 2] = s.rotations[o * 4 + 2]!; rotations[f * 4 + 3] = s.rotations[o * 4 + 3]!;
      scales.set(s.scales.subarray(o * 3, o * 3 + 3), f * 3);
    }
    return { node: model.nodes[n]!.name, positions, rotations, scales };
  });
  return {
    doc: { magic: 'ANIM', version, name: clip.name, framesPerSecond: Math.fround(1 / step), numFrames: s.frames, numItems: items.length, items },
    warnings,
  };
}


/** "Replace mesh from glTF" on a node with a mesh: the glTF's space becomes the node's own. */
function replaceGrimrockMesh(doc: object, path: NodePath, model: ImportModel, mesh: ImportMesh, warnings: string[]): EditCommand {
  const gm = doc as GrimrockModel;
  const ni = path[0] === 'nodes' && typeof path[1] === 'number' ? path[1] : -1;
  const gnode = gm.nodes[ni] as GrimrockNode | undefined;
  if (!gnode?.mesh) throw new ImportError('select a node with a mesh to replace', '');
  // The glTF's space becomes the node's own: the new mesh sits where the old one did.
  if (mesh.skin) warnOnce(warnings, 'the skin is left out: a Grimrock mesh replacement keeps the node\'s own bones (weights are not mapped)');
  const md = grimrockMeshData(mesh, model.materials.map((m) => m.name), warnings);
  return { op: 'set', path: ['nodes', ni, 'mesh', 'meshData'], value: md };
}

/** The Grimrock import writers (capabilities.ts): the model, and the animation. */
export const grimrockModelImporter: GltfImporter = {
  nameEncoding: 'latin1',
  write: (model, opts) => modelToGrimrock(model, opts),
  replaceMesh: replaceGrimrockMesh,
};

export const grimrockAnimationImporter: GltfImporter = {
  nameEncoding: 'latin1',
  write: (model, opts) => modelToGrimrockAnimation(model, opts),
};

export { multiply };
