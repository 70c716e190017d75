/**
 * The `unigine-mesh` codec (ms10, ms11) and the `unigine-anim` codec (an10), with views, edits and
 * the surface-bounds helper.
 */
import type { EditCommand } from '../../model/commands.ts';
import type { Inspection, OutlineNode } from '../../model/outline.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { Problem } from '../../model/problems.ts';
import type { FormatCodec, FormatInfo } from '../registry.ts';
import { field, structFields } from '../../model/inspect-fields.ts';
import { decodeAnim, encodeAnim, probeAnim } from './anim-io.ts';
import { probeUnigineMesh as probeMesh } from './family.ts';
import { frameCounts } from './frames.ts';
import { UNIGINE_MATERIALS } from './materials.ts';
import { coordVertexCount, decodeMeshMs, encodeMeshMs, encodeMeshMsPieces, triangleVertexCount } from './mesh-io.ts';
import { animToScene, meshToScene } from './scene.ts';
import { decodeMesh14, decodeMeshMr02, encodeMesh14, encodeMeshMr02 } from './mesh14-io.ts';
import { AnimBox, Bounds, type AnimClip, type UnigineAnim, type UnigineBone, type UnigineClip, type UnigineMesh14, type UnigineMeshMr02, type UnigineMeshMs, type UnigineSurface } from './schema.ts';

/** A decoded `.mesh` file of any supported version. */
export type UnigineMesh = UnigineMeshMs | UnigineMesh14 | UnigineMeshMr02;
/** The versions with bones, surfaces records and packed tangents (everything but mr02). */
export type UnigineMeshModern = UnigineMeshMs | UnigineMesh14;

export { probeMesh };

export function decodeMesh(bytes: Uint8Array): UnigineMesh {
  const m = bytes.length >= 4 ? String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) : '';
  if (m === 'ms14') return decodeMesh14(bytes);
  if (m === 'mr02') return decodeMeshMr02(bytes);
  return decodeMeshMs(bytes);
}

export function encodeMesh(doc: UnigineMesh, reuseRaw?: boolean): Uint8Array {
  if (doc.magic === 'ms14') return encodeMesh14(doc, reuseRaw);
  if (doc.magic === 'mr02') return encodeMeshMr02(doc, reuseRaw);
  return encodeMeshMs(doc, reuseRaw);
}

/** The bytes of {@link encodeMesh} as pieces (ms10/ms11: views of the arrays; ms14 and mr02 compress, so one piece). */
export function encodeMeshPieces(doc: UnigineMesh, reuseRaw?: boolean): Uint8Array[] {
  if (doc.magic === 'ms10' || doc.magic === 'ms11') return encodeMeshMsPieces(doc, reuseRaw);
  return [encodeMesh(doc, reuseRaw)];
}

/** Bounds of a surface from morph target 0's vertices: box, box centre and the sphere around it. */
export function computeSurfaceBounds(s: UnigineSurface): { boundMin: number[]; boundMax: number[]; boundCenter: number[]; boundRadius: number } {
  const v = s.morphTargets[0]?.vertices ?? new Float32Array(0);
  if (v.length < 3) return { boundMin: [0, 0, 0], boundMax: [0, 0, 0], boundCenter: [0, 0, 0], boundRadius: 0 };
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < v.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = v[i + k]!;
      if (x < min[k]!) min[k] = x;
      if (x > max[k]!) max[k] = x;
    }
  }
  const c = [0, 1, 2].map((k) => Math.fround((min[k]! + max[k]!) / 2));
  let r2 = 0;
  for (let i = 0; i + 2 < v.length; i += 3) r2 = Math.max(r2, (v[i]! - c[0]!) ** 2 + (v[i + 1]! - c[1]!) ** 2 + (v[i + 2]! - c[2]!) ** 2);
  return { boundMin: min, boundMax: max, boundCenter: c, boundRadius: Math.fround(Math.sqrt(r2)) };
}

/** The edit that sets a surface's bounds to what its vertices imply (one undo step). */
export function recomputeSurfaceBoundsCommand(doc: UnigineMesh, surface: number): EditCommand {
  if (doc.magic === 'mr02') throw new RangeError('mr02 surfaces store no bounds');
  const s = doc.surfaces[surface];
  if (!s) throw new RangeError(`no surface ${surface}`);
  const b = computeSurfaceBounds(s);
  return {
    op: 'batch',
    label: `Recompute bounds of ${s.name}`,
    commands: (['boundMin', 'boundMax', 'boundCenter', 'boundRadius'] as const).map((k) => ({ op: 'set' as const, path: ['surfaces', surface, k], value: b[k] })),
  };
}

function clipFrames(a: UnigineClip): number {
  return a.bones.length > 0 ? a.frameFlags.length / a.bones.length : a.numFrames;
}

export function meshInfo(doc: UnigineMesh, byteLength: number): FormatInfo {
  if (doc.magic === 'mr02') {
    return {
      format: 'unigine-mesh', version: doc.magic, bytes: byteLength,
      meshes: doc.surfaces.map((s) => ({ name: s.name, vertices: s.positions.length / 3, triangles: Math.floor(s.positions.length / 9) })),
      materials: doc.surfaces.map((s) => s.name), bones: [], animations: [],
    };
  }
  return {
    format: 'unigine-mesh',
    version: doc.magic,
    bytes: byteLength,
    meshes: doc.surfaces.map((s) => ({ name: s.name, vertices: coordVertexCount(s), triangles: Math.floor(s.triangleIndices.length / 3) })),
    materials: doc.surfaces.map((s) => s.name),
    bones: doc.bones.map((b) => b.name),
    animations: doc.animations.map((a) => ({ name: a.name, frames: clipFrames(a) })),
    morphTargets: doc.surfaces.reduce((n, s) => n + Math.max(0, s.morphTargets.length - 1), 0),
  };
}

export function animInfo(doc: UnigineAnim, byteLength: number): FormatInfo {
  return {
    format: 'unigine-anim', version: doc.magic, bytes: byteLength, meshes: [], materials: [],
    bones: doc.bones.map((b) => b.name),
    animations: doc.animations.map((a) => ({ name: a.name, frames: clipFrames(a) })),
  };
}

function problem(out: Problem[], severity: Problem['severity'], message: string, path: NodePath, offset?: number): void {
  out.push({ severity, message, where: path.join('/'), path, ...(offset !== undefined ? { offset } : {}) });
}

function validateBones(out: Problem[], bones: UnigineBone[], bindPose: Float32Array): void {
  bones.forEach((b, i) => {
    if (b.parent < -1 || b.parent >= bones.length || b.parent === i) problem(out, 'error', `parent ${b.parent} is not another bone (0..${bones.length - 1} or -1)`, ['bones', i, 'parent'], b.$span?.[0]);
  });
  if (bindPose.length !== bones.length * 10) problem(out, 'error', `bind pose holds ${bindPose.length} floats for ${bones.length} bones`, ['bindPose']);
}

function validateClips(out: Problem[], clips: (UnigineClip | AnimClip)[], numBones: number): void {
  clips.forEach((a, i) => {
    const at = a.$dataSpan?.[0];
    a.bones.forEach((b, k) => {
      if (b < 0 || b >= numBones) problem(out, 'error', `animated bone ${k} is ${b}, not a bone index`, ['animations', i, 'bones'], at);
    });
    if (a.bones.length > 0 && a.frameFlags.length % a.bones.length) problem(out, 'error', 'frame flags are not a whole number of frames', ['animations', i, 'frameFlags'], at);
    const c = frameCounts(a.frameFlags);
    if (c.t !== a.translations.length || c.r * 4 !== a.rotations.length || c.s !== a.scales.length) problem(out, 'error', 'component arrays do not match the frame flags', ['animations', i], at);
    if (a.frameFlags.some((f) => (f & ~a.flag & 0x7f) !== 0)) problem(out, 'warning', 'a frame changes a component the clip flag leaves out', ['animations', i, 'flag'], at);
  });
}

export function validateMesh(doc: UnigineMesh): Problem[] {
  const out: Problem[] = [];
  if (doc.magic === 'mr02') {
    doc.surfaces.forEach((s, i) => {
      const n = s.positions.length / 3;
      if (!Number.isInteger(n) || s.normals.length !== n * 3 || s.uvs.length !== n * 2) problem(out, 'error', 'positions, normals and uvs disagree on the vertex count', ['surfaces', i], s.$span?.[0]);
      if (n % 3) problem(out, 'warning', `${n} vertices is not a whole number of triangles`, ['surfaces', i], s.$span?.[0]);
    });
    return out;
  }
  validateBones(out, doc.bones, doc.bindPose);
  validateClips(out, doc.animations, doc.bones.length);
  doc.surfaces.forEach((s, i) => {
    const p: NodePath = ['surfaces', i];
    const at = s.$dataSpan?.[0];
    const nc = coordVertexCount(s), nt = triangleVertexCount(s, doc.magic);
    if (s.morphTargets.length === 0) problem(out, 'warning', 'surface has no morph target (no vertices)', p, at);
    s.morphTargets.forEach((m, k) => {
      if (m.vertices.length / 3 !== nc) problem(out, 'error', `morph target ${k} has ${m.vertices.length / 3} vertices, target 0 has ${nc}`, [...p, 'morphTargets', k], at);
    });
    if (s.coordIndices.length !== s.triangleIndices.length) problem(out, 'error', `${s.coordIndices.length} coordinate indices but ${s.triangleIndices.length} triangle indices`, p, at);
    if (s.triangleIndices.length % 3) problem(out, 'warning', 'triangle index count is not a multiple of 3', [...p, 'triangleIndices'], at);
    const maxC = s.coordIndices.reduce((m, x) => Math.max(m, x), -1);
    if (maxC >= nc) problem(out, 'error', `coordinate index ${maxC} is out of range (${nc} vertices)`, [...p, 'coordIndices'], at);
    const maxT = s.triangleIndices.reduce((m, x) => Math.max(m, x), -1);
    if (maxT >= nt) problem(out, 'error', `triangle index ${maxT} is out of range (${nt} triangle vertices)`, [...p, 'triangleIndices'], at);
    if (s.uv0.length && s.uv0.length / 2 !== nt) problem(out, 'warning', `first UV set has ${s.uv0.length / 2} entries for ${nt} triangle vertices`, [...p, 'uv0'], at);
    if (s.weightCounts.length && s.weightCounts.length !== nc) problem(out, 'warning', `${s.weightCounts.length} weights for ${nc} vertices`, [...p, 'weightCounts'], at);
    if (s.weightCounts.some((k) => k > 4)) problem(out, 'warning', 'a vertex has more than 4 bone weights', [...p, 'weightCounts'], at);
    if (s.weightBones.some((b) => b < 0 || b >= doc.bones.length)) problem(out, 'error', 'a weight names a bone that does not exist', [...p, 'weightBones'], at);
  });
  return out;
}

export function validateAnim(doc: UnigineAnim): Problem[] {
  const out: Problem[] = [];
  validateBones(out, doc.bones, doc.bindPose);
  validateClips(out, doc.animations, doc.bones.length);
  return out;
}

function bonesOutline(bones: UnigineBone[]): OutlineNode {
  return {
    path: ['bones'], name: 'bones', kind: 'skeleton', count: bones.length,
    children: bones.map((b, i) => ({ path: ['bones', i], name: `bones[${i}]`, label: b.name, kind: 'bone', span: b.$span })),
  };
}

function clipsOutline(clips: (UnigineClip | AnimClip)[]): OutlineNode {
  return {
    path: ['animations'], name: 'animations', kind: 'container', count: clips.length,
    children: clips.map((a, i) => ({ path: ['animations', i], name: `animations[${i}]`, label: a.name, kind: 'animation', count: clipFrames(a), span: a.$dataSpan ?? a.$span })),
  };
}

export function meshOutline(doc: UnigineMesh): OutlineNode {
  if (doc.magic === 'mr02') {
    return {
      path: [], name: 'mr02', label: 'Unigine legacy mesh mr02', kind: 'file', span: doc.$span,
      children: [{
        path: ['surfaces'], name: 'surfaces', kind: 'meshes', count: doc.surfaces.length,
        children: doc.surfaces.map((s, i): OutlineNode => ({ path: ['surfaces', i], name: `surfaces[${i}]`, label: s.name, kind: 'surface', count: Math.floor(s.positions.length / 9), span: s.$span })),
      }],
    };
  }
  return {
    path: [], name: doc.magic, label: `Unigine mesh ${doc.magic}`, kind: 'file', span: doc.$span,
    children: [
      bonesOutline(doc.bones),
      clipsOutline(doc.animations),
      {
        path: ['surfaces'], name: 'surfaces', kind: 'meshes', count: doc.surfaces.length,
        children: doc.surfaces.map((s, i): OutlineNode => ({
          path: ['surfaces', i], name: `surfaces[${i}]`, label: s.name, kind: 'surface', count: Math.floor(s.triangleIndices.length / 3), span: s.$dataSpan,
          children: s.morphTargets.map((m, k) => ({ path: ['surfaces', i, 'morphTargets', k], name: `morphTargets[${k}]`, label: m.name, kind: 'morph', count: m.vertices.length / 3 })),
        })),
      },
    ],
  };
}

export function animOutline(doc: UnigineAnim): OutlineNode {
  return { path: [], name: doc.magic, label: 'Unigine animation', kind: 'file', span: doc.$span, children: [bonesOutline(doc.bones), clipsOutline(doc.animations)] };
}

function inspectCommon(doc: UnigineMeshModern | UnigineAnim, path: NodePath): Inspection | undefined {
  const v = getAt(doc, path) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return undefined;
  if (path.length === 0) {
    return { title: `Unigine ${doc.magic}`, fields: [field('magic', 'string', ['magic'], doc.magic, { readonly: true }), ...structFields(Bounds, v, [])] };
  }
  if (path.length === 2 && path[0] === 'bones') {
    return {
      title: `Bone ${String(v.name)}`,
      fields: [
        field('name', 'string', [...path, 'name'], v.name, { note: 'Bone name (NUL-terminated, compact length)' }),
        field('parent', 'i16', [...path, 'parent'], v.parent, { note: 'Parent bone, -1 for a root' }),
        field('bindPose', 'array', ['bindPose'], Array.from(doc.bindPose.subarray((path[1] as number) * 10, (path[1] as number) * 10 + 10)), { readonly: true, note: 'Position xyz, rotation xyzw, scale xyz' }),
      ],
    };
  }
  if (path.length === 2 && path[0] === 'animations') {
    const a = v as unknown as UnigineClip | AnimClip;
    const fields = [
      field('name', 'string', [...path, 'name'], a.name),
      field('bones', 'array', [...path, 'bones'], a.bones, { readonly: true, note: 'Indices of the bones taking part' }),
      field('flag', 'flags', [...path, 'flag'], a.flag, { readonly: true, flagLabels: ['tx', 'ty', 'tz', 'rotation', 'sx', 'sy', 'sz'] }),
      field('numFrames', 'i32', [...path, 'numFrames'], clipFrames(a), { readonly: true }),
      field('frameFlags', 'array', [...path, 'frameFlags'], a.frameFlags, { readonly: true, note: 'Change flags, one per bone per frame' }),
      field('translations', 'array', [...path, 'translations'], a.translations, { readonly: true }),
      field('rotations', 'array', [...path, 'rotations'], a.rotations, { readonly: true }),
      field('scales', 'array', [...path, 'scales'], a.scales, { readonly: true }),
    ];
    if ('translationMin' in a) fields.splice(2, 0, ...structFields(AnimBox, a as unknown as Record<string, unknown>, path));
    return { title: `Animation ${a.name}`, fields };
  }
  return undefined;
}

export function meshInspect(doc: UnigineMesh, path: NodePath): Inspection | undefined {
  if (doc.magic === 'mr02') {
    if (path.length === 0) return { title: 'Unigine mr02', fields: [field('magic', 'string', ['magic'], doc.magic, { readonly: true }), field('numSurfaces', 'i32', ['surfaces'], doc.surfaces.length, { readonly: true })] };
    const s = path.length === 2 && path[0] === 'surfaces' ? doc.surfaces[path[1] as number] : undefined;
    if (!s) return undefined;
    return {
      title: `Surface ${s.name}`,
      fields: [
        field('name', 'string', [...path, 'name'], s.name, { note: 'char[128], NUL-padded' }),
        field('positions', 'array', [...path, 'positions'], s.positions, { readonly: true }),
        field('normals', 'array', [...path, 'normals'], s.normals, { readonly: true }),
        field('uvs', 'array', [...path, 'uvs'], s.uvs, { readonly: true }),
      ],
    };
  }
  const common = inspectCommon(doc, path);
  if (common) return common;
  const v = getAt(doc, path) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return undefined;
  if (path.length === 2 && path[0] === 'surfaces') {
    const s = v as unknown as UnigineSurface;
    return {
      title: `Surface ${s.name}`,
      fields: [
        field('name', 'string', [...path, 'name'], s.name, { note: 'Surface name' }),
        ...structFields(Bounds, v, path),
        field('numMorphTargets', 'i32', [...path, 'morphTargets'], s.morphTargets.length, { readonly: true }),
        field('weightCounts', 'array', [...path, 'weightCounts'], s.weightCounts, { readonly: true }),
        field('uv0', 'array', [...path, 'uv0'], s.uv0, { readonly: true }),
        field('uv1', 'array', [...path, 'uv1'], s.uv1, { readonly: true }),
        field('colors', 'array', [...path, 'colors'], s.colors, { readonly: true }),
        field('coordIndices', 'array', [...path, 'coordIndices'], s.coordIndices, { readonly: true, note: 'Width 1/2/4 bytes by morph target 0 vertex count' }),
        field('triangleIndices', 'array', [...path, 'triangleIndices'], s.triangleIndices, { readonly: true, note: 'Width 1/2/4 bytes by triangle vertex count' }),
      ],
    };
  }
  if (path.length === 4 && path[2] === 'morphTargets') {
    return {
      title: `Morph target ${String(v.name)}`,
      fields: [
        field('name', 'string', [...path, 'name'], v.name),
        field('vertices', 'array', [...path, 'vertices'], v.vertices, { readonly: true }),
        field('tangents', 'array', [...path, 'tangents'], v.tangents, { readonly: true, note: 'Packed tangent-space quaternions (short / 32767)' }),
      ],
    };
  }
  return undefined;
}

const isName = (v: unknown): string | undefined => (typeof v !== 'string' ? 'must be text' : v.includes('\0') ? 'must not contain a NUL character' : [...v].some((ch) => ch.charCodeAt(0) > 0xff) ? 'must be Latin-1 text' : undefined);

function checkCommon(doc: UnigineMeshModern | UnigineAnim, cmd: EditCommand): string | undefined {
  if (cmd.op !== 'set') return 'only field edits are supported';
  const p = cmd.path;
  if (p.length === 3 && (p[0] === 'bones' || p[0] === 'animations') && p[2] === 'name') return isName(cmd.value);
  if (p.length === 3 && p[0] === 'bones' && p[2] === 'parent') {
    const v = cmd.value;
    return typeof v === 'number' && Number.isInteger(v) && v >= -1 && v < doc.bones.length && v !== p[1] ? undefined : 'parent must be -1 or another bone index';
  }
  if (p.length === 1 && typeof p[0] === 'string' && p[0] in Bounds.shape) return Bounds.checkField(p[0], cmd.value);
  return `${p.join('/')} cannot be edited`;
}

export function checkMeshEdit(doc: UnigineMesh, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return cmd.commands.map((c) => checkMeshEdit(doc, c)).find((m) => m);
  if (doc.magic === 'mr02') {
    if (cmd.op === 'set' && cmd.path.length === 3 && cmd.path[0] === 'surfaces' && cmd.path[2] === 'name') {
      return isName(cmd.value) ?? ((cmd.value as string).length > 128 ? 'name must fit 128 bytes' : undefined);
    }
    return `${cmd.op === 'set' ? cmd.path.join('/') : cmd.op} cannot be edited in mr02 files`;
  }
  if (cmd.op === 'set') {
    const p = cmd.path;
    if (p.length === 3 && p[0] === 'surfaces' && p[2] === 'name') return isName(cmd.value);
    if (p.length === 3 && p[0] === 'surfaces' && typeof p[2] === 'string' && p[2] in Bounds.shape) return Bounds.checkField(p[2], cmd.value);
    if (p.length === 5 && p[0] === 'surfaces' && p[2] === 'morphTargets' && p[4] === 'name') return isName(cmd.value);
  }
  return checkCommon(doc, cmd);
}

export function checkAnimEdit(doc: UnigineAnim, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return cmd.commands.map((c) => checkAnimEdit(doc, c)).find((m) => m);
  return checkCommon(doc, cmd);
}

export const unigineMeshCodec: FormatCodec<UnigineMesh> = {
  id: 'unigine-mesh',
  label: 'Unigine mesh',
  extensions: ['.mesh'],
  probe: probeMesh,
  decode: (bytes) => decodeMesh(bytes),
  // The decoder reads only the lengths of the arrays it reads, never their values (share.ts).
  inSitu: true,
  encode: (doc, opts) => encodeMesh(doc, opts?.reuseRaw),
  encodePieces: (doc, opts) => encodeMeshPieces(doc, opts?.reuseRaw),
  info: meshInfo,
  validate: validateMesh,
  toScene: meshToScene,
  outline: meshOutline,
  inspect: meshInspect,
  checkEdit: checkMeshEdit,
  animation: { role: 'model' },
  textures: { library: UNIGINE_MATERIALS },
  gltf: {
    label: 'Unigine mesh (.mesh)',
    extension: '.mesh',
    replaceable: (n) => n.kind === 'surface' || (n.path[0] === 'surfaces' && n.path.length === 2),
    load: async () => (await import('./import.ts')).unigineMeshImporter,
  },
};

export const unigineAnimCodec: FormatCodec<UnigineAnim> = {
  id: 'unigine-anim',
  label: 'Unigine animation',
  extensions: ['.anim'],
  probe: probeAnim,
  decode: (bytes) => decodeAnim(bytes),
  encode: (doc, opts) => encodeAnim(doc, opts?.reuseRaw),
  info: animInfo,
  validate: validateAnim,
  toScene: animToScene,
  outline: animOutline,
  inspect: (doc, path) => inspectCommon(doc, path),
  checkEdit: checkAnimEdit,
  animation: { role: 'clips' },
  gltf: {
    label: 'Unigine animation (.anim)',
    extension: '.anim',
    load: async () => (await import('./import.ts')).unigineAnimImporter,
  },
};
