/**
 * ODOL -> neutral scene. P3D is left-handed (x right, y up, z forward); the scene is right-handed,
 * so z is negated for positions and normals and every triangle's winding is reversed. Quads are
 * split into two triangles; sections become material groups; the skeleton (names and parents
 * only: ODOL stores no bind pose) and the vertex bone weights come along when present.
 */
import { DecodeError } from '../../../errors.ts';
import type { SceneOptions } from '../../registry.ts';
import { IDENTITY, emptyScene, type Scene, type SceneMaterial, type SceneMesh } from '../../../scene/scene.ts';
import { isVisualResolution, parseResolutionName, resolutionName } from '../resolution.ts';
import type { OdolDocument } from './document.ts';
import type { OdolLod } from './lod.ts';
import type { OdolV4xDocument } from './model.ts';
import { lengthOf, i16x, f32x, type PackedArray } from './packed.ts';
import type { OdolV7Lod } from './v7.ts';
import { faceOffsets } from './face-offsets.ts';
import { ODOL_SECTION_HIDDEN, assignPlaceholders, p3dTransformToScene, sceneProxy } from '../proxy.ts';

/** The LOD index `toScene` shows: the named one, else the finest visual LOD, else the first. */
export function pickLod(doc: OdolDocument, name?: string): number {
  const lods = doc.lods as (OdolLod | OdolV7Lod)[];
  if (name !== undefined) {
    const want = parseResolutionName(name);
    const i = lods.findIndex((l) => resolutionName(l.resolution) === name || (want !== undefined && l.resolution === want));
    if (i < 0) throw new DecodeError(`no LOD named ${name}`, 0, 'lods');
    return i;
  }
  let best = -1;
  lods.forEach((l, i) => {
    if (isVisualResolution(l.resolution) && (best < 0 || l.resolution < lods[best]!.resolution)) best = i;
  });
  return best < 0 ? 0 : best;
}

/** Expands a condensed array (fill or full) to `n` elements of `c` values. */
function expand(a: PackedArray, c: number, n: number): ArrayLike<number> {
  if (!a.fill) return a.data;
  const out = new Float64Array(n * c);
  for (let i = 0; i < n; i++) for (let k = 0; k < c; k++) out[i * c + k] = a.data[k]!;
  return out;
}

/** A v45+ normal: three signed 10-bit fields, scaled by -1/511 (wiki "CompressedXYZTriplet"). */
export function unpackNormal(v: number, out: Float32Array, at: number): void {
  for (let k = 0; k < 3; k++) {
    let x = (v >> (10 * k)) & 0x3ff;
    if (x > 511) x -= 1024;
    out[at + k] = x * (-1 / 511);
  }
}

function uvOf(doc: OdolDocument, lod: OdolLod, n: number): Float32Array[] {
  const v = doc.version;
  return lod.uvSets.map((s) => {
    const out = new Float32Array(n * 2);
    if (v >= 45) {
      const src = expand(s.uv, 2, n);
      const [u0, v0, u1, v1] = (s.range ?? [0, 0, 1, 1]).map(Number);
      for (let i = 0; i < n * 2; i++) {
        const lo = i % 2 ? v0! : u0!;
        const hi = i % 2 ? v1! : u1!;
        out[i] = lo + ((src[i]! + 32767) / 65534) * (hi - lo);
      }
    } else {
      out.set(Array.from(expand(s.uv, 2, n)).slice(0, n * 2));
    }
    return out;
  });
}

/** A growable triangle index list (a plain array is slow past a million entries). */
class Indices {
  data: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Uint32Array(Math.max(3, capacity));
  }
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
  }
}

function triangles(sizes: Uint8Array, idx: ArrayLike<number>, from: number, to: number, first: Uint32Array, out: Indices): void {
  for (let f = from; f < to; f++) {
    const c = sizes[f]!;
    const k = first[f]!;
    // Reversed winding for the handedness change; a quad splits along its 0-2 diagonal.
    out.push3(idx[k]!, idx[k + 2]!, idx[k + 1]!);
    if (c === 4) out.push3(idx[k]!, idx[k + 3]!, idx[k + 2]!);
  }
}

export function odolScene(doc: OdolDocument, opts: SceneOptions = {}): Scene {
  const scene = emptyScene();
  if (doc.lods.length === 0) return scene;
  const li = pickLod(doc, opts.lod);
  const lod = doc.lods[li] as OdolLod | OdolV7Lod;
  const name = resolutionName(lod.resolution);
  const pos = 'positions' in lod ? lod.positions.data : lod.vertices.data;
  const n = pos.length / 3;
  const positions = new Float32Array(n * 3);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n * 3; i++) {
    const k = i % 3;
    const x = k === 2 ? -pos[i]! : pos[i]!;
    positions[i] = x;
    if (x < min[k]!) min[k] = x;
    if (x > max[k]!) max[k] = x;
  }
  const sizes = lod.faces.sizes;
  const first = new Uint32Array(sizes.length);
  for (let f = 1; f < sizes.length; f++) first[f] = first[f - 1]! + sizes[f - 1]!;
  const mesh: SceneMesh = { name, positions, uvs: [], indices: new Uint32Array(0), groups: [], source: ['lods', li] };
  let triCount = 0;
  for (let f = 0; f < sizes.length; f++) triCount += sizes[f]! - 2;
  const indices = new Indices(triCount * 3);
  const materials: SceneMaterial[] = [];
  const matKey = new Map<string, number>();
  const material = (texture: string, mat: string, source: (string | number)[]): number => {
    const key = `${texture}|${mat}`;
    let m = matKey.get(key);
    if (m === undefined) {
      m = materials.length;
      matKey.set(key, m);
      materials.push({ name: mat || texture || 'default', color: [1, 1, 1, 1], ...(texture ? { texture } : {}), ...(mat ? { rvmat: mat } : {}), source });
    }
    return m;
  };
  if ('positions' in lod) {
    // v7: per-face texture index, no sections.
    mesh.normals = new Float32Array(n * 3);
    const nd = expand(lod.normals, 3, n);
    for (let i = 0; i < n; i++) {
      mesh.normals[i * 3] = nd[i * 3]!;
      mesh.normals[i * 3 + 1] = nd[i * 3 + 1]!;
      mesh.normals[i * 3 + 2] = -nd[i * 3 + 2]!;
    }
    mesh.uvs = [Float32Array.from(expand(lod.uvs, 2, n))];
    let f = 0;
    while (f < sizes.length) {
      const t = lod.faces.textures[f]!;
      let g = f;
      while (g < sizes.length && lod.faces.textures[g] === t) g++;
      const start = indices.length;
      triangles(sizes, lod.faces.indices, f, g, first, indices);
      mesh.groups.push({ start, count: indices.length - start, material: material(lod.textures[t] ?? '', '', ['lods', li, 'faces']) });
      f = g;
    }
    // v7 proxies: a rotation and a translation each (no placeholder faces known to leave out).
    scene.proxies = (lod.proxies as { name?: unknown; rotation?: ArrayLike<number>; translation?: ArrayLike<number> }[]).map((p, k) =>
      sceneProxy(String(p.name ?? ''), p3dTransformToScene([...Array.from(p.rotation ?? [1, 0, 0, 0, 1, 0, 0, 0, 1]), ...Array.from(p.translation ?? [0, 0, 0])]), ['lods', li, 'proxies', k]));
  } else {
    const v = doc.version;
    const normals = new Float32Array(n * 3);
    const nrm = expand(lod.normals, v >= 45 ? 1 : 3, n);
    for (let i = 0; i < n; i++) {
      if (v >= 45) unpackNormal(nrm[i]!, normals, i * 3);
      else for (let k = 0; k < 3; k++) normals[i * 3 + k] = nrm[i * 3 + k]!;
      normals[i * 3 + 2] = -normals[i * 3 + 2]!;
    }
    mesh.normals = normals;
    if (lengthOf(lod.uvSets[0]?.uv ?? { data: new Float32Array(0) }, v >= 45 ? i16x(2) : f32x(2)) === n) mesh.uvs = uvOf(doc, lod, n);
    const offsets = faceOffsets(sizes, v);
    const faceAt = (off: number): number => {
      let lo = 0;
      let hi = sizes.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (offsets[mid]! < off) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const sections = lod.sections.length ? lod.sections : [{ faceLowerIndex: 0, faceUpperIndex: offsets[sizes.length]!, materialIndex: -1, textureIndex: -1 } as never];
    // Proxy placeholder triangles: the section the binarizer flags hidden, which the proxies name.
    // The game never draws them, so they leave the mesh and ride on the proxies instead.
    const proxied = new Set(lod.proxies.map((p) => p.sectionIndex as number | undefined));
    const placeholders = new Indices(6);
    sections.forEach((s: OdolLod['sections'][number], k: number) => {
      const a = faceAt(s.faceLowerIndex);
      const b = Math.min(sizes.length, faceAt(s.faceUpperIndex));
      if ((Number(s.special ?? 0) & ODOL_SECTION_HIDDEN) !== 0 || proxied.has(k)) {
        triangles(sizes, lod.faces.indices, a, b, first, placeholders);
        return;
      }
      const start = indices.length;
      triangles(sizes, lod.faces.indices, a, b, first, indices);
      const tex = lod.textures[s.textureIndex as number] ?? '';
      const mat = s.materialIndex >= 0 ? (lod.materials[s.materialIndex]?.name ?? '') : (s.material ?? '');
      mesh.groups.push({ start, count: indices.length - start, material: material(tex, mat, ['lods', li, 'sections', k]) });
    });
    scene.proxies = lod.proxies.map((p, k) => sceneProxy(p.name, p3dTransformToScene(p.transform), ['lods', li, 'proxies', k]));
    const tri = new Float32Array(placeholders.length * 3);
    for (let i = 0; i < placeholders.length; i++) {
      const v = placeholders.data[i]!;
      if (v < n) tri.set(positions.subarray(v * 3, v * 3 + 3), i * 3);
    }
    assignPlaceholders(scene.proxies, tri);
    const d = doc as OdolV4xDocument;
    // Auto-centred files keep every position relative to the bounding centre; the model's own
    // origin (its animations' space) is where that centre's negative lies (z mirrored into the
    // scene). A centre that is not a finite point (a damaged file) names none.
    const c = Array.from((d.modelInfo.head.boundingCenter as ArrayLike<number> | undefined) ?? []);
    if (c.length === 3 && c.every(Number.isFinite) && c.some((x) => x !== 0)) scene.modelOrigin = [-c[0]! + 0, -c[1]! + 0, c[2]! + 0];
    const bones = d.modelInfo.skeleton.bones;
    if (bones.length) {
      scene.skeleton = {
        bones: bones.map((b) => ({ name: b.name, parent: bones.findIndex((p) => p.name === b.parent), matrix: [...IDENTITY] })),
      };
      // Each proxy names the skeleton bone it moves with (-1: none).
      lod.proxies.forEach((p, k) => {
        const b = p.boneIndex;
        if (Number.isInteger(b) && b >= 0 && b < bones.length) scene.proxies![k]!.bone = b;
      });
      const refs = lod.vertexBoneRef.data;
      if (refs.length === n * 12) {
        const joints = new Uint16Array(n * 4);
        const weights = new Float32Array(n * 4);
        const view = new DataView(refs.buffer, refs.byteOffset, refs.byteLength);
        const map = lod.subSkeletonsToSkeleton;
        for (let i = 0; i < n; i++) {
          const count = Math.min(4, Math.max(0, view.getInt32(i * 12, true)));
          for (let k = 0; k < count; k++) {
            const sub = refs[i * 12 + 4 + k * 2]!;
            joints[i * 4 + k] = map[sub] ?? sub;
            weights[i * 4 + k] = refs[i * 12 + 5 + k * 2]! / 255;
          }
          if (count === 0) weights[i * 4] = 1;
        }
        mesh.skin = { joints, weights };
      }
    }
  }
  mesh.indices = indices.data.slice(0, indices.length);
  scene.meshes.push(mesh);
  scene.materials = materials;
  scene.nodes.push({ name, parent: -1, matrix: [...IDENTITY], mesh: 0, source: ['lods', li] });
  if (n > 0) scene.bounds = { min, max };
  return scene;
}
