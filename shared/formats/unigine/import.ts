/**
 * Import -> Unigine `.mesh` (ms10, ms11, ms14 or mr02) and `.anim` (an10).
 *
 * Unigine is right-handed and Z-up; its `toScene` turns (x, y, z) into (x, z, -y), so this writer
 * applies (x, y, z) -> (x, -z, y) to vertex data and to the root bones' transforms and keys. The
 * format has no node hierarchy: every mesh is placed in world space and each (mesh, material)
 * pair becomes one surface, named after the mesh (and the material when a mesh has several).
 * Normals are stored as tangent-space quaternions (the tangent follows the first UV set).
 * Weights: up to 4 per vertex. Clips are sampled at 30 frames per second (the files store no rate);
 * ms10/ms11 meshes embed every glTF animation, `.anim` holds the chosen one.
 */
import { frameCounts } from './frames.ts';
import { computeSurfaceBounds } from './mesh-codec.ts';
import { UNIGINE_FPS } from './scene.ts';
import type { AnimClip, Mr02Surface, UnigineAnim, UnigineBone, UnigineClip, UnigineMesh14, UnigineMeshMr02, UnigineMeshMs, UnigineSurface } from './schema.ts';
import type { Mat4 } from '../../scene/scene.ts';
import { animationBones, boneBetween, boneFrames, boneParents, boneRest, cappedSkin, requireMeshes, uniqueNames, type WriterOptions } from '../../import/common.ts';
import { ImportError } from '../../import/errors.ts';
import { decompose, multiply } from '../../import/math.ts';
import { warnOnce, worldGeometry, type ImportMesh, type ImportModel } from '../../import/model.ts';
import { boneMap } from '../../import/replace.ts';
import type { GltfImporter } from '../capabilities.ts';
import type { EditCommand } from '../../model/commands.ts';
import type { NodePath } from '../../model/path.ts';
import type { UnigineMesh } from './mesh-codec.ts';
import { pickClip, resample } from '../../import/resample.ts';

/** (x, y, z) -> (x, -z, y): the inverse of the format's Z-up to Y-up turn. */
export const Y_UP_TO_Z_UP: Mat4 = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1];

export const MESH_VERSIONS = ['ms14', 'ms11', 'ms10', 'mr02'] as const;
export type MeshVersion = (typeof MESH_VERSIONS)[number];

const f = Math.fround;

function toZUp(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i + 2 < a.length; i += 3) { out[i] = a[i]!; out[i + 1] = -a[i + 2]!; out[i + 2] = a[i + 1]!; }
  return out;
}

/** A tangent-space quaternion (xyzw) whose basis has `n` as its third axis and `t` (made orthogonal) as its first. */
function frameQuat(nx: number, ny: number, nz: number, tx: number, ty: number, tz: number, out: Int16Array, o: number, dim: 3 | 4): void {
  let l = Math.hypot(nx, ny, nz) || 1;
  nx /= l; ny /= l; nz /= l;
  const d = tx * nx + ty * ny + tz * nz;
  tx -= d * nx; ty -= d * ny; tz -= d * nz;
  l = Math.hypot(tx, ty, tz);
  if (!(l > 1e-6)) {
    // Any direction perpendicular to the normal.
    if (Math.abs(nx) < 0.9) { tx = 0; ty = nz; tz = -ny; } else { tx = -nz; ty = 0; tz = nx; }
    l = Math.hypot(tx, ty, tz) || 1;
  }
  tx /= l; ty /= l; tz /= l;
  const bx = ny * tz - nz * ty, by = nz * tx - nx * tz, bz = nx * ty - ny * tx;
  // Columns t, b, n -> quaternion.
  const m00 = tx, m10 = ty, m20 = tz, m01 = bx, m11 = by, m21 = bz, m02 = nx, m12 = ny, m22 = nz;
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) { const s = Math.sqrt(tr + 1) * 2; w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s; }
  else if (m00 > m11 && m00 > m22) { const s = Math.sqrt(1 + m00 - m11 - m22) * 2; w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s; }
  else if (m11 > m22) { const s = Math.sqrt(1 + m11 - m00 - m22) * 2; w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s; }
  else { const s = Math.sqrt(1 + m22 - m00 - m11) * 2; w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s; }
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  out[o] = Math.round(x * 32767); out[o + 1] = Math.round(y * 32767); out[o + 2] = Math.round(z * 32767);
  if (dim === 4) out[o + 3] = Math.round(w * 32767);
}

/** Per-vertex tangents from the first UV set (zeros without UVs: frameQuat then picks one). */
function tangents(p: Float32Array, uv: Float32Array | undefined, idx: Uint32Array): Float32Array {
  const t = new Float32Array(p.length);
  if (!uv) return t;
  for (let i = 0; i + 2 < idx.length; i += 3) {
    const a = idx[i]!, b = idx[i + 1]!, c = idx[i + 2]!;
    const du1 = uv[b * 2]! - uv[a * 2]!, dv1 = uv[b * 2 + 1]! - uv[a * 2 + 1]!;
    const du2 = uv[c * 2]! - uv[a * 2]!, dv2 = uv[c * 2 + 1]! - uv[a * 2 + 1]!;
    const det = du1 * dv2 - du2 * dv1;
    if (!det) continue;
    const r = 1 / det;
    for (let k = 0; k < 3; k++) {
      const tk = ((p[b * 3 + k]! - p[a * 3 + k]!) * dv2 - (p[c * 3 + k]! - p[a * 3 + k]!) * dv1) * r;
      t[a * 3 + k] = t[a * 3 + k]! + tk;
      t[b * 3 + k] = t[b * 3 + k]! + tk;
      t[c * 3 + k] = t[c * 3 + k]! + tk;
    }
  }
  return t;
}

interface Part {
  name: string;
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array[];
  colors?: Float32Array;
  indices: Uint32Array;
  skin?: { joints: Uint16Array; weights: Float32Array };
}

/** The surfaces' geometry: one part per (mesh, group), compacted to the vertices it uses, Z-up. */
/**
 * The surfaces' geometry. With `consume`, each mesh's arrays are let go as soon as its parts are
 * made (the model is the writer's to use up): a large import then never holds both copies.
 */
function parts(model: ImportModel, opts: WriterOptions, warnings: string[], consume = false): Part[] {
  const out: Part[] = [];
  const names: string[] = [];
  for (const m of model.meshes) {
    const g = worldGeometry(model, m);

    const skin = cappedSkin(m, 4, opts.limitInfluences, 'Unigine mesh', warnings);
    if (m.uvs.length > 2) warnOnce(warnings, `mesh "${m.name}": ${m.uvs.length} UV sets; Unigine holds 2, the rest are left out`);
    for (const grp of m.groups) {
      const remap = new Int32Array(m.positions.length / 3).fill(-1);
      let nu = 0;
      const used = new Uint32Array(Math.min(grp.count, m.positions.length / 3));
      const idx = new Uint32Array(grp.count);
      for (let i = 0; i < grp.count; i++) {
        // Z-up is a rotation: winding stays; a mirroring node transform flips it.
        const corner = g.flip && i % 3 ? (i % 3 === 1 ? i + 1 : i - 1) : i;
        const v = m.indices[grp.start + corner]!;
        if (remap[v] === -1) { remap[v] = nu; used[nu++] = v; }
        idx[i] = remap[v]!;
      }
      const pick = (src: Float32Array, dim: number): Float32Array => {
        const a = new Float32Array(nu * dim);
        for (let k = 0; k < nu; k++) for (let d = 0; d < dim; d++) a[k * dim + d] = src[used[k]! * dim + d]!;
        return a;
      };
      // Picked straight into Z-up: (x, y, z) -> (x, -z, y), no full-size intermediate copy.
      const pickZ = (src: Float32Array): Float32Array => {
        const a = new Float32Array(nu * 3);
        for (let k = 0; k < nu; k++) { const o = used[k]! * 3; a[k * 3] = src[o]!; a[k * 3 + 1] = -src[o + 2]!; a[k * 3 + 2] = src[o + 1]!; }
        return a;
      };
      const part: Part = { name: m.name, positions: pickZ(g.positions), normals: pickZ(g.normals), uvs: m.uvs.slice(0, 2).map((u) => pick(u, 2)), indices: idx };
      if (m.colors) part.colors = pick(m.colors, 4);
      if (skin) {
        const j = new Uint16Array(nu * 4), w = new Float32Array(nu * 4);
        for (let k = 0; k < nu; k++) for (let d = 0; d < 4; d++) { j[k * 4 + d] = skin.joints[used[k]! * 4 + d]!; w[k * 4 + d] = skin.weights[used[k]! * 4 + d]!; }
        part.skin = { joints: j, weights: w };
      }
      out.push(part);
      names.push(m.groups.length > 1 ? `${m.name}_${model.materials[grp.material]!.name}` : m.name);
    }
    if (consume) {
      const none = new Float32Array(0);
      Object.assign(m, { positions: none, normals: none, uvs: [], indices: new Uint32Array(0), groups: [] });
      delete m.colors;
      delete m.skin;
    }
  }
  uniqueNames(names).forEach((n, i) => (out[i]!.name = n));
  return out;
}

function surface(p: Part, magic: 'ms10' | 'ms11' | 'ms14'): UnigineSurface {
  const n = p.positions.length / 3;
  const dim = magic === 'ms10' ? 3 : 4;
  const tan = new Int16Array(n * dim);
  const T = tangents(p.positions, p.uvs[0], p.indices);
  for (let v = 0; v < n; v++) frameQuat(p.normals[v * 3]!, p.normals[v * 3 + 1]!, p.normals[v * 3 + 2]!, T[v * 3]!, T[v * 3 + 1]!, T[v * 3 + 2]!, tan, v * dim, dim);
  let weightCounts = new Uint8Array(0), weightBones = new Int16Array(0), weightValues = new Uint16Array(0);
  if (p.skin) {
    weightCounts = new Uint8Array(n);
    const bones: number[] = [], values: number[] = [];
    for (let v = 0; v < n; v++) {
      let k = 0;
      for (let j = 0; j < 4; j++) {
        const w = p.skin.weights[v * 4 + j]!;
        if (!(w > 0)) continue;
        bones.push(p.skin.joints[v * 4 + j]!);
        values.push(Math.min(65535, Math.round(w * 65535)));
        k++;
      }
      weightCounts[v] = k;
    }
    weightBones = Int16Array.from(bones);
    weightValues = Uint16Array.from(values);
  }
  const colors = p.colors ? Uint8Array.from(p.colors, (c) => Math.max(0, Math.min(255, Math.round(c * 255)))) : new Uint8Array(0);
  const s: UnigineSurface = {
    name: p.name, boundMin: [0, 0, 0], boundMax: [0, 0, 0], boundCenter: [0, 0, 0], boundRadius: 0,
    morphTargets: [{ name: '', vertices: p.positions, tangents: tan, ...(magic === 'ms10' ? { tangentSigns: new Int8Array(n).fill(127) } : {}) }],
    weightCounts, weightBones, weightValues,
    uv0: p.uvs[0] ?? new Float32Array(0), uv1: p.uvs[1] ?? new Float32Array(0), colors,
    // One vertex list serves coordinates and triangle data: both index arrays are the same (read only).
    coordIndices: p.indices, triangleIndices: p.indices,
  };
  if (magic === 'ms14') {
    s.param0 = 0;
    s.param1 = 0;
    s.spatialTree = new Uint8Array(0);
  }
  Object.assign(s, computeSurfaceBounds(s));
  s.boundMin = s.boundMin.map(f);
  s.boundMax = s.boundMax.map(f);
  return s;
}

function docBounds(surfaces: { boundMin: number[]; boundMax: number[] }[], extra: number[][] = []): { boundMin: number[]; boundMax: number[]; boundCenter: number[]; boundRadius: number } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const s of surfaces) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k]!, s.boundMin[k]!); max[k] = Math.max(max[k]!, s.boundMax[k]!); }
  for (const p of extra) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k]!, p[k]!); max[k] = Math.max(max[k]!, p[k]!); }
  if (min[0] === Infinity) return { boundMin: [0, 0, 0], boundMax: [0, 0, 0], boundCenter: [0, 0, 0], boundRadius: 0 };
  const c = [0, 1, 2].map((k) => f((min[k]! + max[k]!) / 2));
  return { boundMin: min.map(f), boundMax: max.map(f), boundCenter: c, boundRadius: f(Math.hypot(max[0]! - c[0]!, max[1]! - c[1]!, max[2]! - c[2]!)) };
}

function bindPoseOf(rest: Mat4[]): Float32Array {
  const out = new Float32Array(rest.length * 10);
  rest.forEach((m, i) => {
    const { t, r, s } = decompose(m);
    out.set([...t, ...r, ...s], i * 10);
  });
  return out;
}

function skeletonOf(model: ImportModel, bones: number[]): { bones: UnigineBone[]; bindPose: Float32Array; between: Mat4[] } {
  if (bones.length > 32767) throw new ImportError(`${bones.length} joints; Unigine bone indices hold 32767`, 'skins');
  const parents = boneParents(model, bones);
  const between = boneBetween(model, bones, Y_UP_TO_Z_UP);
  const names = uniqueNames(bones.map((n) => model.nodes[n]!.name));
  return { bones: bones.map((_, i) => ({ name: names[i]!, parent: parents[i]! })), bindPose: bindPoseOf(boneRest(model, bones, between)), between };
}

/** Per frame, per bone: t (3), r (4), s (3) of the bone relative to its parent bone. */
function clipTRS(model: ImportModel, clip: NonNullable<ReturnType<typeof pickClip>>, bones: number[], between: Mat4[]): { frames: number; t: Float32Array; r: Float32Array; s: Float32Array } {
  const sampled = resample(model, clip, 1 / UNIGINE_FPS, bones);
  const mats = boneFrames(sampled, between);
  const t = new Float32Array(mats.length * 3), r = new Float32Array(mats.length * 4), s = new Float32Array(mats.length * 3);
  mats.forEach((m, i) => {
    const d = decompose(m);
    t.set(d.t, i * 3); r.set(d.r, i * 4); s.set(d.s, i * 3);
  });
  return { frames: sampled.frames, t, r, s };
}

const quantRot = (r: Float32Array): Int16Array => Int16Array.from(r, (x) => Math.max(-32767, Math.min(32767, Math.round(x * 32767))));

function meshClip(name: string, nb: number, c: ReturnType<typeof clipTRS>): UnigineClip<Float32Array> {
  const frameFlags = new Uint8Array(c.frames * nb).fill(0x77 | 0x08);
  const counts = frameCounts(frameFlags);
  if (counts.t !== c.t.length) throw new Error('frame flag count mismatch');
  return { name, bones: Int16Array.from({ length: nb }, (_, i) => i), flag: 0x7f, numFrames: c.frames, frameFlags, translations: c.t, rotations: quantRot(c.r), scales: c.s };
}

/** A surface of `magic`'s layout from one world-space mesh (glTF axes), named `name`; weights with `withSkin`. */
export function unigineSurfaceOf(m: ImportMesh, magic: 'ms10' | 'ms11' | 'ms14' | 'mr02', name: string, withSkin = false): UnigineSurface | Mr02Surface {
  const part: Part = { name, positions: toZUp(m.positions), normals: toZUp(m.normals), uvs: m.uvs.slice(0, 2), indices: m.indices, ...(m.colors ? { colors: m.colors } : {}) };
  // 4 influences per vertex, joints already the document's bone indices.
  if (withSkin && m.skin && m.skin.influences === 4) part.skin = { joints: m.skin.joints, weights: m.skin.weights };
  if (magic !== 'mr02') return surface(part, magic);
  return mr02Surface({ ...part, name });
}

/** An mr02 surface: one vertex per triangle corner (the layout has no index list), name cut to 127 bytes. */
function mr02Surface(p: Part): Mr02Surface {
  const n = p.indices.length;
  const pos = new Float32Array(n * 3), nor = new Float32Array(n * 3), uv = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    const v = p.indices[i]!;
    pos.set(p.positions.subarray(v * 3, v * 3 + 3), i * 3);
    nor.set(p.normals.subarray(v * 3, v * 3 + 3), i * 3);
    if (p.uvs[0]) uv.set(p.uvs[0].subarray(v * 2, v * 2 + 2), i * 2);
  }
  return { name: p.name.slice(0, 127), positions: pos, normals: nor, uvs: uv };
}

export function modelToUnigineMesh(model: ImportModel, opts: WriterOptions = {}): { doc: UnigineMeshMs | UnigineMesh14 | UnigineMeshMr02; warnings: string[] } {
  requireMeshes(model);
  const warnings = [...model.warnings];
  const version = (opts.version ?? 'ms14') as MeshVersion;
  if (!MESH_VERSIONS.includes(version)) throw new ImportError(`--version for .mesh is one of ${MESH_VERSIONS.join(', ')}, not "${opts.version}"`, '');
  const ps = parts(model, opts, warnings, true);
  if (version === 'mr02') {
    if (model.joints.length) warnOnce(warnings, 'mr02 meshes hold no skeleton: joints and weights are left out');
    if (model.clips.length) warnOnce(warnings, 'mr02 meshes hold no animation: animations are left out');
    return {
      doc: {
        magic: 'mr02',
        surfaces: ps.map(mr02Surface),
      },
      warnings,
    };
  }
  const skel = skeletonOf(model, model.joints);
  const surfaces = ps.map((p) => surface(p, version));
  const bounds = docBounds(surfaces);
  if (version === 'ms14') {
    if (model.clips.length) warnOnce(warnings, `ms14 meshes hold no animations: ${model.clips.length} animation(s) left out (import them into a .anim)`);
    return { doc: { magic: 'ms14', version: 4, ...bounds, bones: skel.bones, bindPose: skel.bindPose, animations: [], surfaces, headerTail: new Uint8Array(8) }, warnings };
  }
  const animations = model.joints.length
    ? model.clips.map((c) => meshClip(c.name, model.joints.length, clipTRS(model, c, model.joints, skel.between)))
    : [];
  if (!model.joints.length && model.clips.length) warnOnce(warnings, 'animations without a skin are left out: Unigine meshes animate bones only');
  return { doc: { magic: version, ...bounds, bones: skel.bones, bindPose: skel.bindPose, animations, surfaces }, warnings };
}

/** Quantises values of one component kind into the clip's box (min + size * v / 65535). */
function quantise(values: Float32Array): { min: number[]; size: number[]; q: Uint16Array } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) { const k = i % 3; min[k] = Math.min(min[k]!, values[i]!); max[k] = Math.max(max[k]!, values[i]!); }
  for (let k = 0; k < 3; k++) if (min[k] === Infinity) { min[k] = 0; max[k] = 0; }
  const fmin = min.map(f), size = [0, 1, 2].map((k) => f(max[k]! - fmin[k]!));
  const q = Uint16Array.from(values, (x, i) => {
    const s = size[i % 3]!;
    return s > 0 ? Math.max(0, Math.min(65535, Math.round(((x - fmin[i % 3]!) / s) * 65535))) : 0;
  });
  return { min: fmin, size, q };
}

export function modelToUnigineAnim(model: ImportModel, opts: WriterOptions = {}): { doc: UnigineAnim; warnings: string[] } {
  const warnings = [...model.warnings];
  const clip = pickClip(model, opts.anim);
  if (!clip) {
    if (opts.anim !== undefined) throw new ImportError(`no animation named or numbered "${opts.anim}" (the file has ${model.clips.map((c) => `"${c.name}"`).join(', ') || 'none'})`, 'animations');
    throw new ImportError('the file has no animation', 'animations');
  }
  const bones = animationBones(model, [...new Set(clip.channels.map((c) => c.node))]);
  const skel = skeletonOf(model, bones);
  const c = clipTRS(model, clip, bones, skel.between);
  const nb = bones.length;
  const t = quantise(c.t), s = quantise(c.s);
  const frameFlags = new Uint8Array(c.frames * nb).fill(0x7f);
  const anim: AnimClip = {
    name: clip.name, bones: Int16Array.from({ length: nb }, (_, i) => i),
    translationMin: t.min, translationSize: t.size, scaleMin: s.min, scaleSize: s.size,
    flag: 0x7f, numFrames: c.frames, frameFlags, translations: t.q, rotations: quantRot(c.r), scales: s.q,
  };
  // Bounds: where the bones are at rest (the file's header box).
  const world: Mat4[] = [];
  const parents = boneParents(model, bones);
  const rest = boneRest(model, bones, skel.between);
  rest.forEach((m, i) => world.push(parents[i]! >= 0 ? multiply(world[parents[i]!]!, m) : m));
  const bounds = docBounds([], world.map((m) => [m[12]!, m[13]!, m[14]!]));
  return { doc: { magic: 'an10', ...bounds, bones: skel.bones, bindPose: skel.bindPose, animations: [anim] }, warnings };
}

/** "Replace mesh from glTF" on a surface: a skin comes across when every joint names a bone of the mesh. */
function replaceUnigineSurface(doc: object, path: NodePath, model: ImportModel, mesh: ImportMesh, warnings: string[]): EditCommand {
  const um = doc as UnigineMesh;
  const si = path[0] === 'surfaces' && typeof path[1] === 'number' ? path[1] : -1;
  const s = um.surfaces[si];
  if (!s || path.length !== 2) throw new ImportError('select a surface to replace', '');
  const bones = um.magic === 'mr02' ? [] : um.bones.map((b) => b.name);
  const map = boneMap(model, mesh, bones, warnings);
  const capped = map ? cappedSkin(mesh, 4, true, 'Unigine mesh', warnings) : undefined;
  if (capped) for (let i = 0; i < capped.joints.length; i++) capped.joints[i] = capped.weights[i]! > 0 ? map!(capped.joints[i]!) : 0;
  const replacement = unigineSurfaceOf({ ...mesh, ...(capped ? { skin: { ...capped, influences: 4 } } : {}) }, um.magic, s.name, !!capped);
  return { op: 'set', path, value: replacement };
}

/** The Unigine import writers (capabilities.ts): the mesh (`version` ms10, ms11, ms14 or mr02), and the animation. */
export const unigineMeshImporter: GltfImporter = {
  nameEncoding: 'latin1',
  write: (model, opts) => modelToUnigineMesh(model, opts),
  replaceMesh: replaceUnigineSurface,
};

export const unigineAnimImporter: GltfImporter = {
  nameEncoding: 'latin1',
  write: (model, opts) => modelToUnigineAnim(model, opts),
};
