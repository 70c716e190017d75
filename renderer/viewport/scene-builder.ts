/**
 * Preview adapter: the neutral {@link Scene} to three.js objects. Kept free of the viewport's
 * camera and event handling so it can be rebuilt whenever the document changes.
 */
import * as THREE from 'three';
import type { AnimationClip, Scene, SceneMaterial, SceneMesh } from '../../shared/scene/scene.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { PreviewSkinnedMesh } from './bounds.ts';
import { decodeBlocks } from '../../shared/formats/texture/dxt.ts';
import { isBlockTexture, pngAlphaNote, unpackBlockTexture, type BlockTexture } from '../../shared/formats/texture/transfer.ts';

export interface BuiltScene {
  root: THREE.Group;
  /** One entry per scene mesh instance placed in the model (a mesh may be placed several times). */
  meshes: { index: number; object: THREE.Mesh; source?: NodePath }[];
  nodes: THREE.Object3D[];
  bones: THREE.Bone[];
  /** Each bone's inverse rest world matrix (the skeleton's bind), so what rides on a bone can follow it. */
  boneInverses: THREE.Matrix4[];
  materials: THREE.MeshPhongMaterial[];
  /** Rest pose of bones (and nodes) so clips can reset to it. */
  rest: Map<THREE.Object3D, { p: THREE.Vector3; q: THREE.Quaternion; s: THREE.Vector3 }>;
  dispose(): void;
}

/** Resolves a texture name to image bytes (document service), or null when not found. */
export type TextureResolver = (name: string) => Promise<Uint8Array | null>;

function setMatrix(o: THREE.Object3D, m: readonly number[] | undefined): void {
  if (!m || m.length !== 16) return;
  const mat = new THREE.Matrix4().fromArray(m as number[]);
  mat.decompose(o.position, o.quaternion, o.scale);
}

function blendingOf(m: SceneMaterial, mat: THREE.MeshPhongMaterial): void {
  switch (m.blending) {
    case 'blend':
      mat.transparent = true;
      mat.depthWrite = false;
      break;
    case 'additive':
      mat.transparent = true;
      mat.blending = THREE.AdditiveBlending;
      mat.depthWrite = false;
      break;
    case 'alphaTest':
      mat.alphaTest = 0.5;
      break;
    case 'modulate':
      mat.transparent = true;
      mat.blending = THREE.MultiplyBlending;
      mat.premultipliedAlpha = true;
      break;
    default:
      break;
  }
  if (m.color[3] < 0.999 && m.blending !== 'opaque' && m.blending !== undefined) mat.transparent = true;
}

/**
 * Decodes image bytes the browser understands (PNG, JPEG, BMP, GIF, WebP), rows top first as the
 * picture shows them: Scene UVs put v = 0 at the top row (see `SceneMesh.uvs`), so the picture is
 * uploaded unflipped, as three.js's GLTFLoader does.
 */
export async function imageFromBytes(bytes: Uint8Array): Promise<ImageBitmap | null> {
  try {
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    return await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
}

function makeMaterial(m: SceneMaterial, wireframe: boolean, onTexture: (mat: THREE.MeshPhongMaterial, m: SceneMaterial) => void): THREE.MeshPhongMaterial {
  const mat = new THREE.MeshPhongMaterial({
    color: new THREE.Color().setRGB(m.color[0], m.color[1], m.color[2], THREE.SRGBColorSpace),
    opacity: m.color[3],
    shininess: Math.max(1, m.shininess ?? 20),
    side: m.doubleSided === false ? THREE.FrontSide : THREE.DoubleSide,
    wireframe,
  });
  if (m.specular) mat.specular.setRGB(m.specular[0], m.specular[1], m.specular[2], THREE.SRGBColorSpace);
  else mat.specular.setRGB(0.15, 0.15, 0.15);
  if (m.emissive) mat.emissive.setRGB(m.emissive[0], m.emissive[1], m.emissive[2], THREE.SRGBColorSpace);
  blendingOf(m, mat);
  mat.name = m.name;
  mat.userData.source = m.source;
  onTexture(mat, m);
  return mat;
}

/** True when every index is below `n` (a plain loop: `some` with a callback costs 5-10x more on millions). */
function indicesBelow(idx: Uint32Array, n: number): boolean {
  for (let i = 0; i < idx.length; i++) if (idx[i]! >= n) return false;
  return true;
}

/**
 * The mesh with only the vertices its triangles use: a codec may leave faces out of the preview
 * (P3D proxy placeholders) while their vertices stay in the shared arrays, and those must not
 * widen the bounds the camera frames. Returns the mesh itself when every vertex is used.
 */
export function usedVerticesOnly(mesh: SceneMesh): SceneMesh {
  const n = mesh.positions.length / 3;
  const remap = new Int32Array(n).fill(-1);
  const idx = mesh.indices;
  for (let i = 0; i < idx.length; i++) if (idx[i]! < n) remap[idx[i]!] = 0;
  let m = 0;
  for (let v = 0; v < n; v++) if (remap[v] === 0) remap[v] = m++;
  if (m === n || m === 0) return mesh;
  const pick = <T extends Float32Array | Uint16Array>(a: T, dim: number, make: (len: number) => T): T => {
    if (a.length !== n * dim) return a;
    const out = make(m * dim);
    for (let v = 0; v < n; v++) {
      const w = remap[v]!;
      if (w >= 0) for (let k = 0; k < dim; k++) out[w * dim + k] = a[v * dim + k]!;
    }
    return out;
  };
  const f32 = (len: number) => new Float32Array(len);
  const indices = new Uint32Array(idx.length);
  // Indices past the vertex list stay past it (makeGeometry drops those triangles).
  for (let i = 0; i < idx.length; i++) indices[i] = idx[i]! < n ? remap[idx[i]!]! : m + idx[i]!;
  return {
    ...mesh,
    positions: pick(mesh.positions, 3, f32),
    ...(mesh.normals ? { normals: pick(mesh.normals, 3, f32) } : {}),
    uvs: mesh.uvs.map((uv) => pick(uv, 2, f32)),
    ...(mesh.colors ? { colors: pick(mesh.colors, 4, f32) } : {}),
    ...(mesh.skin ? { skin: { joints: pick(mesh.skin.joints, 4, (len) => new Uint16Array(len)), weights: pick(mesh.skin.weights, 4, f32) } } : {}),
    ...(mesh.morphs ? { morphs: mesh.morphs.map((t) => ({ ...t, positions: pick(t.positions, 3, f32) })) } : {}),
    indices,
  };
}

function makeGeometry(source: SceneMesh): THREE.BufferGeometry {
  const mesh = usedVerticesOnly(source);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
  const n = mesh.positions.length / 3;
  if (mesh.normals && mesh.normals.length === mesh.positions.length) g.setAttribute('normal', new THREE.BufferAttribute(mesh.normals, 3));
  if (mesh.uvs[0] && mesh.uvs[0].length === n * 2) g.setAttribute('uv', new THREE.BufferAttribute(mesh.uvs[0], 2));
  if (mesh.colors && mesh.colors.length === n * 4) g.setAttribute('color', new THREE.BufferAttribute(mesh.colors, 4));
  // Indices that point past the vertex list would crash the GPU upload: drop bad triangles.
  let idx = mesh.indices;
  if (!indicesBelow(idx, n)) {
    const ok: number[] = [];
    for (let t = 0; t + 2 < idx.length; t += 3) if (idx[t]! < n && idx[t + 1]! < n && idx[t + 2]! < n) ok.push(idx[t]!, idx[t + 1]!, idx[t + 2]!);
    idx = Uint32Array.from(ok);
  }
  g.setIndex(new THREE.BufferAttribute(idx, 1));
  if (!g.getAttribute('normal')) g.computeVertexNormals();
  if (mesh.skin && mesh.skin.joints.length === n * 4 && mesh.skin.weights.length === n * 4) {
    g.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(mesh.skin.joints, 4));
    g.setAttribute('skinWeight', new THREE.BufferAttribute(mesh.skin.weights, 4));
  }
  return g;
}

export interface BuildOptions {
  wireframe: boolean;
  /** The GPU takes S3TC (DXT) textures as they are. */
  compressed?: boolean;
  /** 'textured' (default): textures over material colours; 'colour': material colours; 'solid': plain grey. */
  shading?: 'textured' | 'colour' | 'solid';
  textures?: TextureResolver;
  /** Called when an asynchronously loaded texture arrives (the viewport re-renders). */
  onAsync?: () => void;
}

/** A texture as it arrived: a browser-decoded picture, or DXT blocks with the file's mips. */
type TextureSource = { kind: 'bitmap'; img: ImageBitmap; alpha?: BlockTexture['alpha'] } | { kind: 'blocks'; t: BlockTexture };

const textureCache = new Map<string, Promise<TextureSource | null>>();

async function textureSource(bytes: Uint8Array): Promise<TextureSource | null> {
  if (isBlockTexture(bytes)) {
    try {
      return { kind: 'blocks', t: unpackBlockTexture(bytes) };
    } catch {
      return null;
    }
  }
  const img = await imageFromBytes(bytes);
  const alpha = pngAlphaNote(bytes);
  return img ? { kind: 'bitmap', img, ...(alpha ? { alpha } : {}) } : null;
}

const S3TC: Record<BlockTexture['format'], THREE.CompressedPixelFormat> = {
  bc1: THREE.RGBA_S3TC_DXT1_Format, bc2: THREE.RGBA_S3TC_DXT3_Format, bc3: THREE.RGBA_S3TC_DXT5_Format,
};

/**
 * A three.js texture of a source. Block data goes to the GPU as it is (with the file's mips)
 * where S3TC is supported, else it is decoded here. Pictures, blocks and decoded blocks all
 * arrive rows top first and are uploaded that way (flipY off, no texture matrix), so v = 0 samples
 * the top row: the Scene's UV convention, which is glTF's, so the preview and the glTF export
 * (three.js's GLTFLoader sets flipY off too) map every texel to the same place.
 */
function makeTexture(src: TextureSource, compressed: boolean): THREE.Texture {
  if (src.kind === 'bitmap') {
    const t = new THREE.Texture(src.img);
    t.flipY = false;
    return t;
  }
  const b = src.t;
  let t: THREE.Texture;
  if (compressed) {
    const mipmaps = b.levels.map((data, i) => ({ data, width: Math.max(1, b.width >> i), height: Math.max(1, b.height >> i) }));
    t = new THREE.CompressedTexture(mipmaps as unknown as ImageData[], b.width, b.height, S3TC[b.format]);
    t.minFilter = THREE.LinearMipmapLinearFilter;
  } else {
    const rgba = new Uint8Array(b.width * b.height * 4);
    decodeBlocks(b.format, b.levels[0]!, 0, b.width, b.height, rgba);
    t = new THREE.DataTexture(rgba, b.width, b.height, THREE.RGBAFormat);
    t.generateMipmaps = true;
    t.minFilter = THREE.LinearMipmapLinearFilter;
  }
  t.flipY = false;
  return t;
}

let placeholder: THREE.DataTexture | undefined;
/** The shared 1x1 white map of materials whose texture is on its way. */
function placeholderTexture(): THREE.DataTexture {
  if (!placeholder) {
    placeholder = new THREE.DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1, THREE.RGBAFormat);
    placeholder.colorSpace = THREE.SRGBColorSpace;
    placeholder.wrapS = placeholder.wrapT = THREE.RepeatWrapping;
    placeholder.needsUpdate = true;
  }
  return placeholder;
}

/** Alpha drawn from the texture: blended (with a small cut-out), cut-out at half, or not at all. */
function applyTextureAlpha(mat: THREE.MeshPhongMaterial, how: 'blend' | 'test' | undefined): void {
  mat.transparent = how === 'blend';
  mat.alphaTest = how === 'blend' ? 0.02 : how === 'test' ? 0.5 : 0;
}

/** Drops cached texture images (a document was closed or reloaded). */
export function clearTextureCache(): void {
  textureCache.clear();
}

export function buildScene(scene: Scene, opts: BuildOptions): BuiltScene {
  const root = new THREE.Group();
  root.name = 'model';
  const disposables: { dispose(): void }[] = [];
  const shading = opts.shading ?? 'textured';
  const loadTexture = (mat: THREE.MeshPhongMaterial, m: SceneMaterial) => {
    if (shading === 'solid') {
      mat.color.setRGB(0.6, 0.64, 0.68, THREE.SRGBColorSpace);
      mat.opacity = 1;
      mat.transparent = false;
      return;
    }
    if (shading !== 'textured') return;
    const key = m.textureData ? `embedded:${m.name}:${m.textureData.length}:${m.textureData[0] ?? 0}:${m.textureData[m.textureData.length >> 1] ?? 0}` : m.texture ? `file:${m.texture}` : '';
    if (!key) return;
    let p = textureCache.get(key);
    if (!p) {
      if (m.textureData) p = textureSource(m.textureData);
      else if (m.texture && opts.textures) {
        // LODka keeps a second texture after a colon; the first is the base map. A drive letter
        // (`P:\...` in P3D paths) is not that colon.
        const name = /^(?:[A-Za-z]:[\\/])?[^:]*/.exec(m.texture)![0];
        p = opts.textures(name).then((b) => (b ? textureSource(b) : null)).catch(() => null);
      } else return;
      textureCache.set(key, p);
    }
    // Until the texture arrives the material draws with a 1x1 white map: the first frame then
    // compiles the shader program the textured frame uses (with a map, and the alpha the name
    // suggests), so swapping the real texture in costs its upload, not a second compile.
    mat.map = placeholderTexture();
    const byName = m.blending === undefined && /_ca(\.[a-z]+)?$/i.test(m.texture ?? '');
    if (byName) applyTextureAlpha(mat, 'blend');
    void p.then((src) => {
      // Not found or undecodable: the white map stays (it draws the material colour alone).
      if (!src) return;
      const t = makeTexture(src, opts.compressed ?? false);
      t.colorSpace = THREE.SRGBColorSpace;
      t.wrapS = t.wrapT = THREE.RepeatWrapping;
      t.needsUpdate = true;
      mat.map = t;
      // How the alpha is drawn when the material does not say: as the texture file says (a PAA's
      // FLAG tag: blended or cut-out), else Arma's name rule (`_ca`: colour with alpha, blended
      // with a cut-out so hidden texels do not hide what is behind them).
      if (m.blending === undefined) {
        const said = src.kind === 'blocks' ? src.t.alpha : src.alpha;
        const want = said ?? (byName ? 'blend' : undefined);
        if (want !== (byName ? 'blend' : undefined)) {
          applyTextureAlpha(mat, want);
          mat.needsUpdate = true;
        }
      }
      disposables.push(t);
      opts.onAsync?.();
    });
  };
  const materials = scene.materials.map((m) => makeMaterial(m, opts.wireframe, loadTexture));
  const fallback = new THREE.MeshPhongMaterial({ color: 0x9aa3ad, side: THREE.DoubleSide, wireframe: opts.wireframe, shininess: 20 });
  materials.forEach((m) => disposables.push(m));
  disposables.push(fallback);

  // Skeleton: bones in their own hierarchy under the model root.
  const bones: THREE.Bone[] = (scene.skeleton?.bones ?? []).map((b) => {
    const bone = new THREE.Bone();
    bone.name = b.name;
    setMatrix(bone, b.matrix);
    return bone;
  });
  scene.skeleton?.bones.forEach((b, i) => {
    const parent = b.parent >= 0 && b.parent !== i ? bones[b.parent] : undefined;
    (parent ?? root).add(bones[i]!);
  });
  root.updateMatrixWorld(true);
  let skeleton: THREE.Skeleton | undefined;
  if (bones.length) {
    const inv = scene.skeleton!.bones.map((b) => (b.inverseBind?.length === 16 ? new THREE.Matrix4().fromArray(b.inverseBind) : null));
    skeleton = inv.every((m) => m) ? new THREE.Skeleton(bones, inv as THREE.Matrix4[]) : new THREE.Skeleton(bones);
  }

  const geometries = new Map<number, THREE.BufferGeometry>();
  const geometryOf = (i: number) => {
    let g = geometries.get(i);
    if (!g) {
      g = makeGeometry(scene.meshes[i]!);
      geometries.set(i, g);
      disposables.push(g);
    }
    return g;
  };
  const meshObject = (i: number): THREE.Mesh => {
    const sm = scene.meshes[i]!;
    const g = geometryOf(i);
    const groups = sm.groups.length ? sm.groups : [{ start: 0, count: sm.indices.length, material: -1 }];
    const mats: THREE.Material[] = [];
    g.clearGroups();
    for (const gr of groups) {
      const mat = materials[gr.material] ?? fallback;
      let k = mats.indexOf(mat);
      if (k < 0) k = mats.push(mat) - 1;
      g.addGroup(gr.start, gr.count, k);
    }
    const skinned = skeleton && g.getAttribute('skinIndex');
    // A plain mesh culls and picks with its geometry's bounds; a skinned mesh with its own
    // (PreviewSkinnedMesh), so its geometry's are left to three.js to compute if ever asked.
    if (!skinned) {
      if (!g.boundingBox) g.computeBoundingBox();
      if (!g.boundingSphere) g.computeBoundingSphere();
    }
    const obj = skinned ? new PreviewSkinnedMesh(g, mats) : new THREE.Mesh(g, mats);
    obj.name = sm.name;
    obj.userData.source = sm.source;
    obj.userData.meshIndex = i;
    return obj;
  };

  const meshes: BuiltScene['meshes'] = [];
  const nodes: THREE.Object3D[] = scene.nodes.map((n) => {
    const o = new THREE.Group();
    o.name = n.name;
    setMatrix(o, n.matrix);
    o.visible = n.visible !== false;
    o.userData.source = n.source;
    return o;
  });
  scene.nodes.forEach((n, i) => {
    const parent = n.parent >= 0 && n.parent !== i ? nodes[n.parent] : undefined;
    (parent ?? root).add(nodes[i]!);
    if (n.mesh !== undefined && scene.meshes[n.mesh]) {
      const obj = meshObject(n.mesh);
      // A proxy item selects as itself; a plain node placing a mesh selects the mesh.
      if (n.source) obj.userData.source = n.source;
      obj.userData.meshSource = scene.meshes[n.mesh]!.source;
      nodes[i]!.add(obj);
      meshes.push({ index: n.mesh, object: obj, source: obj.userData.source as NodePath | undefined });
    }
  });
  if (!scene.nodes.some((n) => n.mesh !== undefined)) {
    scene.meshes.forEach((_, i) => {
      const obj = meshObject(i);
      root.add(obj);
      meshes.push({ index: i, object: obj, source: obj.userData.source as NodePath | undefined });
    });
  }
  root.updateMatrixWorld(true);
  for (const m of meshes) if (m.object instanceof THREE.SkinnedMesh && skeleton) m.object.bind(skeleton, m.object.matrixWorld);

  const rest = new Map<THREE.Object3D, { p: THREE.Vector3; q: THREE.Quaternion; s: THREE.Vector3 }>();
  for (const o of [...bones, ...nodes]) rest.set(o, { p: o.position.clone(), q: o.quaternion.clone(), s: o.scale.clone() });

  return {
    root, meshes, nodes, bones, boneInverses: skeleton?.boneInverses ?? [], materials, rest,
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}

function keyIndex(times: Float32Array, t: number): [number, number, number] {
  const n = times.length;
  if (n === 0) return [0, 0, 0];
  if (t <= times[0]!) return [0, 0, 0];
  if (t >= times[n - 1]!) return [n - 1, n - 1, 0];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  const span = times[hi]! - times[lo]!;
  return [lo, hi, span > 0 ? (t - times[lo]!) / span : 0];
}

const qa = new THREE.Quaternion();
const qb = new THREE.Quaternion();
const va = new THREE.Vector3();
const vb = new THREE.Vector3();

/** Poses bones and nodes at time `t` (seconds) of a clip; keys are interpolated linearly. */
export function applyClip(built: BuiltScene, clip: AnimationClip | undefined, t: number): void {
  for (const [o, r] of built.rest) {
    o.position.copy(r.p);
    o.quaternion.copy(r.q);
    o.scale.copy(r.s);
  }
  if (clip) {
    for (const tr of clip.tracks) {
      const target = tr.target === 'node' ? built.nodes[tr.bone] : built.bones[tr.bone];
      if (!target) continue;
      const [a, b, f] = keyIndex(tr.times, t);
      if (tr.translations && tr.translations.length >= (b + 1) * 3) {
        va.fromArray(tr.translations, a * 3);
        vb.fromArray(tr.translations, b * 3);
        target.position.copy(va.lerp(vb, f));
      }
      if (tr.rotations && tr.rotations.length >= (b + 1) * 4) {
        qa.fromArray(tr.rotations, a * 4);
        qb.fromArray(tr.rotations, b * 4);
        target.quaternion.copy(qa.slerp(qb, f).normalize());
      }
      if (tr.scales && tr.scales.length >= (b + 1) * 3) {
        va.fromArray(tr.scales, a * 3);
        vb.fromArray(tr.scales, b * 3);
        target.scale.copy(va.lerp(vb, f));
      }
    }
  }
  built.root.updateMatrixWorld(true);
}
