/**
 * Scene -> glTF 2.0, built on glTF Transform's Document and written with its platform-neutral
 * writer (no file system here: the CLI and the editor decide where the bytes go).
 *
 * What is exported: one glTF mesh per Scene mesh (names kept, one primitive per material group),
 * the node hierarchy, materials (base colour, alpha mode, emissive, embedded PNG/JPEG textures),
 * the skeleton as a skin with inverse bind matrices, morph targets, and animations. Geometry stays
 * in the source's units. Light schemes and colliders have no core glTF equivalent and are left out.
 * A Z-up scene (`upAxis`, or the `upAxis` option) gets one extra root node whose rotation turns
 * it Y-up, as glTF wants; the vertex data below it is the source's, unrotated. A scene stored
 * relative to another point than the model's own origin (`modelOrigin`) gets one more, whose
 * translation puts it back in the model's own space: there the animations made for the model
 * (Arma RTM) apply as written, and `lodsmith import` of the file gives them back unchanged.
 *
 * Data from damaged or unusual files is made valid rather than refused, and every such repair is
 * reported in `warnings`: non-finite floats become 0, normals and rotations are normalised, skin
 * weights are renormalised, out-of-range indices drop their triangle, non-increasing key times
 * drop their key. The Khronos validator must find no errors in what this writes.
 */
import { Document, WebIO, type Accessor, type Material, type Mesh, type Node as GltfNode, type Primitive, type Texture } from '@gltf-transform/core';
import type { AnimationClip, AnimationTrack, Mat4, Scene, SceneMaterial, SceneMesh, UpAxis } from '../scene/scene.ts';
import { upAxisQuaternion } from '../scene/up-axis.ts';
import { decompose, finiteMatrix, IDENTITY4, invert, multiply, normalizeQuat, saneParents, worldMatrices } from './math.ts';

export interface GltfExportOptions {
  /**
   * Clips from standalone animation files (Grimrock `.animation`, Unigine `.anim`). Their tracks
   * bind to the scene's bones (or nodes) by `targetName`.
   */
  extraClips?: readonly AnimationClip[];
  /** Written to `asset.generator`. */
  generator?: string;
  /**
   * The up axis of the scene's data (default: the scene's own `upAxis`, else 'y'). 'z' puts every
   * root under one node named {@link UP_ROOT_NAME} rotated -90 degrees about X.
   */
  upAxis?: UpAxis;
}

/** Name of the root node that turns a Z-up model Y-up. */
export const UP_ROOT_NAME = 'Z-up to Y-up';

/**
 * Name of the root node that puts a model stored relative to another point back in its own space
 * (Scene.modelOrigin: an auto-centred ODOL's positions are relative to its bounding centre).
 */
export const ORIGIN_ROOT_NAME = 'Model origin';

export interface GltfExportResult {
  document: Document;
  /** What had to be repaired or left out, one sentence each. */
  warnings: string[];
}

type Accessors = Record<string, Accessor>;

/** Builds the glTF document for a scene. Never throws on odd data; see the module notes. */
export function sceneToGltf(scene: Scene, opts: GltfExportOptions = {}): GltfExportResult {
  return new Exporter(scene, opts).run();
}

class Exporter {
  readonly doc = new Document();
  readonly warnings: string[] = [];
  private buffer: ReturnType<Document['createBuffer']> | undefined;
  private materials: (Material | undefined)[] = [];
  private untextured = new Map<Material, Material>();
  private boneNodes: GltfNode[] = [];
  private sceneNodes: GltfNode[] = [];
  /** One skin per distinct world transform of the nodes that place skinned meshes. */
  private readonly skins = new Map<string, ReturnType<Document['createSkin']>>();
  private skeletonRoot: GltfNode | undefined;
  private readonly roots: GltfNode[] = [];
  private readonly placeholders = new Map<string, GltfNode>();
  private readonly scene: Scene;
  private readonly opts: GltfExportOptions;

  constructor(scene: Scene, opts: GltfExportOptions) {
    this.scene = scene;
    this.opts = opts;
  }

  run(): GltfExportResult {
    this.doc.getRoot().getAsset().generator = this.opts.generator ?? 'LodSmith';
    for (const w of this.scene.warnings ?? []) this.warn(w);
    this.materials = this.scene.materials.map((m, i) => this.attempt(`material ${i}`, () => this.material(m, i)));
    this.attempt('the skeleton', () => this.skeleton());
    const meshes = this.scene.meshes.map((m, i) => this.attempt(`mesh "${m.name || i}"`, () => this.mesh(m, i)));
    this.attempt('the node hierarchy', () => this.nodes(meshes));
    for (const c of this.scene.clips) this.attempt(`animation "${c.name}"`, () => this.clip(c, false));
    for (const c of this.opts.extraClips ?? []) this.attempt(`animation "${c.name}"`, () => this.clip(c, true));
    const roots = [...this.roots, ...this.placeholders.values()];
    // glTF forbids a scene without nodes; a file with nothing to place simply has no scene.
    if (roots.length) {
      const gScene = this.doc.createScene('Scene');
      let top = roots;
      const o = this.scene.modelOrigin;
      if (o && o.length === 3 && o.every((v) => Number.isFinite(Math.fround(v))) && o.some((v) => v !== 0)) {
        const origin = this.doc.createNode(ORIGIN_ROOT_NAME).setTranslation([-o[0] + 0, -o[1] + 0, -o[2] + 0]);
        for (const r of roots) origin.addChild(r);
        top = [origin];
      }
      if ((this.opts.upAxis ?? this.scene.upAxis ?? 'y') === 'z') {
        const up = this.doc.createNode(UP_ROOT_NAME).setRotation(upAxisQuaternion('z'));
        for (const r of top) up.addChild(r);
        gScene.addChild(up);
      } else for (const r of top) gScene.addChild(r);
      this.doc.getRoot().setDefaultScene(gScene);
    }
    return { document: this.doc, warnings: this.warnings };
  }

  /**
   * Runs one part of the export; a part that throws on damaged data is left out with a warning,
   * so an export of a file that decoded never fails as a whole.
   */
  private attempt<T>(what: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      this.warn(`${what} left out: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  private warn(msg: string): void {
    // A damaged file can repeat one problem thousands of times; a modder needs it once.
    if (this.warnings.length < 200 && !this.warnings.includes(msg)) this.warnings.push(msg);
  }

  /** The buffer is created on first use: glTF forbids an empty buffer. */
  private accessor(name: string, type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint32Array): Accessor {
    this.buffer ??= this.doc.createBuffer('data');
    return this.doc.createAccessor(name).setType(type).setArray(array).setBuffer(this.buffer);
  }

  private material(m: SceneMaterial, i: number): Material {
    const name = m.name || `material ${i}`;
    const mat = this.doc.createMaterial(name);
    const color = m.color.map((v) => clamp01(v, 1)) as [number, number, number, number];
    mat.setBaseColorFactor(color);
    if (m.emissive) mat.setEmissiveFactor(m.emissive.map((v) => clamp01(v, 0)) as [number, number, number]);
    const alpha = m.blending === 'blend' || m.blending === 'additive' || m.blending === 'modulate'
      ? 'BLEND'
      : m.blending === 'alphaTest' ? 'MASK' : m.blending === undefined && color[3] < 1 ? 'BLEND' : 'OPAQUE';
    mat.setAlphaMode(alpha);
    if (m.doubleSided) mat.setDoubleSided(true);
    // glTF's default metal/rough (1, 1) reads as dull metal; these sources describe plastic-like
    // Phong materials, so start from non-metallic.
    mat.setMetallicFactor(0);
    mat.setRoughnessFactor(1);
    const extras: Record<string, unknown> = {};
    if (m.texture) extras.texture = m.texture;
    if (m.rvmat) extras.rvmat = m.rvmat;
    if (m.blending) extras.blending = m.blending;
    if (m.specular) extras.specular = m.specular;
    if (m.shininess !== undefined && Number.isFinite(m.shininess)) extras.shininess = m.shininess;
    if (Object.keys(extras).length) mat.setExtras(extras);
    if (m.textureData && m.textureData.length > 0) {
      const mime = imageMime(m.textureData);
      if (mime) mat.setBaseColorTexture(this.texture(m, mime, i));
      else this.warn(`material "${name}": embedded texture is not PNG or JPEG; left out`);
    }
    return mat;
  }

  private texture(m: SceneMaterial, mime: string, i: number): Texture {
    const base = (m.texture ?? m.name ?? 'texture').split(/[\\/]/).pop()!.replace(/\.[^.]*$/, '') || 'texture';
    const safe = base.replace(/[^A-Za-z0-9_.-]+/g, '_');
    // A GLB stores images in the buffer: a model whose only resource is an image (a textured
    // material, no mesh) still needs one.
    this.buffer ??= this.doc.createBuffer('data');
    return this.doc
      .createTexture(base)
      .setImage(m.textureData!)
      .setMimeType(mime)
      .setURI(`${i}_${safe}.${mime === 'image/png' ? 'png' : 'jpg'}`);
  }

  private skeleton(): void {
    const bones = this.scene.skeleton?.bones ?? [];
    if (bones.length === 0) return;
    const parents = saneParents(bones.map((b) => b.parent));
    if (parents.some((p, i) => p !== bones[i]!.parent && bones[i]!.parent !== -1)) this.warn('skeleton: broken bone parent links were made roots');
    this.boneNodes = bones.map((b, i) => trs(this.doc.createNode(b.name || `bone ${i}`), b.matrix));
    const rootBones: GltfNode[] = [];
    parents.forEach((p, i) => (p >= 0 ? this.boneNodes[p]!.addChild(this.boneNodes[i]!) : rootBones.push(this.boneNodes[i]!)));
    // glTF wants every joint of a skin under one common root.
    if (rootBones.length === 1) this.skeletonRoot = rootBones[0]!;
    else {
      this.skeletonRoot = this.doc.createNode('Armature');
      for (const r of rootBones) this.skeletonRoot.addChild(r);
    }
    this.roots.push(this.skeletonRoot);
  }

  /**
   * The skin for a skinned mesh placed with world transform `meshWorld`, created on first use.
   *
   * The Scene (like the three.js preview) applies the placing node's transform to the vertices
   * before skinning, with the bones in scene-root space. glTF ignores the transform of a node
   * holding a skinned mesh, so that transform goes into the inverse bind matrices instead
   * (IBM x meshWorld): the result matches the preview in the bind pose and when animated.
   */
  private getSkin(meshWorld: Mat4): ReturnType<Document['createSkin']> {
    const key = meshWorld.map((v) => v.toPrecision(7)).join(',');
    const existing = this.skins.get(key);
    if (existing) return existing;
    const bones = this.scene.skeleton!.bones;
    const parents = saneParents(bones.map((b) => b.parent));
    const world = worldMatrices(bones.map((b) => b.matrix), parents);
    const identity = meshWorld.every((v, i) => v === IDENTITY4[i]);
    const ibm = new Float32Array(bones.length * 16);
    bones.forEach((b, i) => {
      let m = b.inverseBind && b.inverseBind.length === 16 && b.inverseBind.every(Number.isFinite) ? [...b.inverseBind] : invert(world[i]!);
      if (!m) {
        this.warn(`bone "${b.name}": bind matrix cannot be inverted; identity used`);
        m = finiteMatrix(undefined);
      }
      if (!identity) m = multiply(m, meshWorld);
      // The last row of an inverse bind matrix must be exactly 0 0 0 1.
      m[3] = 0; m[7] = 0; m[11] = 0; m[15] = 1;
      if (!m.every((v) => Number.isFinite(Math.fround(v)))) {
        this.warn(`bone "${b.name}": inverse bind matrix does not fit 32-bit floats; identity used`);
        m = finiteMatrix(undefined);
      }
      ibm.set(m, i * 16);
    });
    const name = this.skins.size ? `skin ${this.skins.size}` : 'skin';
    const skin = this.doc.createSkin(name).setSkeleton(this.skeletonRoot!).setInverseBindMatrices(this.accessor(`${name} inverseBindMatrices`, 'MAT4', ibm));
    for (const n of this.boneNodes) skin.addJoint(n);
    this.skins.set(key, skin);
    return skin;
  }

  private mesh(m: SceneMesh, index: number): { mesh: Mesh; skinned: boolean } | undefined {
    const name = m.name || `mesh ${index}`;
    const vc = Math.floor(m.positions.length / 3);
    if (vc === 0) {
      this.warn(`mesh "${name}": no vertices; left out`);
      return undefined;
    }
    const attrs: Accessors = {};
    attrs.POSITION = this.accessor(`${name} positions`, 'VEC3', finiteCopy(m.positions.subarray(0, vc * 3), 0));
    if (m.normals) {
      if (m.normals.length >= vc * 3) attrs.NORMAL = this.accessor(`${name} normals`, 'VEC3', unitVectors(m.normals.subarray(0, vc * 3)));
      else this.warn(`mesh "${name}": normal count does not match vertex count; normals left out`);
    }
    m.uvs.forEach((uv, k) => {
      if (uv.length >= vc * 2) attrs[`TEXCOORD_${k}`] = this.accessor(`${name} uv${k}`, 'VEC2', finiteCopy(uv.subarray(0, vc * 2), 0));
      else this.warn(`mesh "${name}": UV set ${k} does not match vertex count; left out`);
    });
    if (m.colors && m.colors.length >= vc * 4) {
      const c = finiteCopy(m.colors.subarray(0, vc * 4), 1);
      for (let i = 0; i < c.length; i++) c[i] = Math.min(1, Math.max(0, c[i]!));
      attrs.COLOR_0 = this.accessor(`${name} colors`, 'VEC4', c);
    }
    let skinned = false;
    const bones = this.scene.skeleton?.bones.length ?? 0;
    if (m.skin && bones > 0) {
      if (m.skin.joints.length >= vc * 4 && m.skin.weights.length >= vc * 4) {
        const { joints, weights } = this.skinWeights(m.skin.joints, m.skin.weights, vc, bones, name);
        attrs.JOINTS_0 = this.accessor(`${name} joints`, 'VEC4', joints);
        attrs.WEIGHTS_0 = this.accessor(`${name} weights`, 'VEC4', weights);
        skinned = true;
      } else this.warn(`mesh "${name}": skin weights do not match vertex count; skin left out`);
    }
    const targets = (m.morphs ?? []).filter((t) => t.positions.length >= vc * 3).map((t) => {
      const d = finiteCopy(t.positions.subarray(0, vc * 3), 0);
      const p = attrs.POSITION!.getArray()!;
      for (let i = 0; i < d.length; i++) d[i] = d[i]! - p[i]!;
      return { name: t.name, acc: this.accessor(`${name} morph ${t.name}`, 'VEC3', d) };
    });

    const mesh = this.doc.createMesh(name);
    const groups = m.groups.length ? m.groups : [{ start: 0, count: m.indices.length, material: -1 }];
    for (const g of groups) {
      const tri = this.triangles(m.indices, g.start, g.count, vc, name);
      if (tri.length === 0) continue;
      const prim = this.doc.createPrimitive();
      prim.setIndices(this.accessor(`${name} indices`, 'SCALAR', vc > 65534 ? tri : Uint16Array.from(tri)));
      this.finishPrimitive(prim, attrs, targets, g.material);
      mesh.addPrimitive(prim);
    }
    if (mesh.listPrimitives().length === 0) {
      // Point sets (proxies, memory points) still carry positions worth seeing.
      const prim = this.doc.createPrimitive().setMode(0);
      this.finishPrimitive(prim, attrs, targets, groups[0]?.material ?? -1);
      mesh.addPrimitive(prim);
    }
    if (targets.length) {
      mesh.setWeights(targets.map(() => 0));
      mesh.setExtras({ targetNames: targets.map((t) => t.name) });
    }
    return { mesh, skinned };
  }

  private finishPrimitive(prim: Primitive, attrs: Accessors, targets: { name: string; acc: Accessor }[], material: number): void {
    for (const [k, a] of Object.entries(attrs)) prim.setAttribute(k, a);
    for (const t of targets) prim.addTarget(this.doc.createPrimitiveTarget(t.name).setAttribute('POSITION', t.acc));
    let mat = Number.isInteger(material) ? this.materials[material] : undefined;
    if (mat && mat.getBaseColorTexture() && !attrs.TEXCOORD_0) {
      // A textured material on a primitive without UVs is invalid glTF: use a copy without the texture.
      let plain = this.untextured.get(mat);
      if (!plain) {
        plain = mat.clone().setName(`${mat.getName()} (no UVs)`).setBaseColorTexture(null);
        this.untextured.set(mat, plain);
      }
      mat = plain;
    }
    if (mat) prim.setMaterial(mat);
  }

  private triangles(indices: Uint32Array, start: number, count: number, vc: number, name: string): Uint32Array {
    const s = Math.max(0, Math.min(indices.length, Math.floor(start) || 0));
    const e = Math.max(s, Math.min(indices.length, s + (Math.floor(count) || 0)));
    const n = e - s - ((e - s) % 3);
    const out = new Uint32Array(n);
    let k = 0;
    let dropped = 0;
    for (let i = s; i < s + n; i += 3) {
      const a = indices[i]!, b = indices[i + 1]!, c = indices[i + 2]!;
      if (a >= vc || b >= vc || c >= vc) {
        dropped++;
        continue;
      }
      out[k++] = a; out[k++] = b; out[k++] = c;
    }
    if (dropped) this.warn(`mesh "${name}": ${dropped} triangle(s) point past the last vertex; left out`);
    return out.subarray(0, k);
  }

  private skinWeights(srcJ: Uint16Array, srcW: Float32Array, vc: number, bones: number, name: string): { joints: Uint16Array; weights: Float32Array } {
    const joints = new Uint16Array(vc * 4);
    const weights = new Float32Array(vc * 4);
    let repaired = 0;
    for (let v = 0; v < vc; v++) {
      const js: number[] = [];
      const ws: number[] = [];
      for (let k = 0; k < 4; k++) {
        const j = srcJ[v * 4 + k]!;
        const w = srcW[v * 4 + k]!;
        if (!(w > 0) || !Number.isFinite(w) || j >= bones) continue;
        const at = js.indexOf(j);
        if (at >= 0) ws[at]! += w;
        else { js.push(j); ws.push(w); }
      }
      let sum = ws.reduce((a, b) => a + b, 0);
      if (!(sum > 0) || !Number.isFinite(sum)) {
        js.length = 0; ws.length = 0;
        js.push(0); ws.push(1);
        sum = 1;
        repaired++;
      } else if (Math.abs(sum - 1) > 1e-3) repaired++;
      let best = 0;
      let total = 0;
      for (let k = 0; k < js.length; k++) {
        joints[v * 4 + k] = js[k]!;
        weights[v * 4 + k] = ws[k]! / sum || 1;
        if (weights[v * 4 + k]! > weights[v * 4 + best]!) best = k;
        total += weights[v * 4 + k]!;
      }
      // Put float32 rounding on the largest weight so the sum is 1 to the validator's tolerance.
      weights[v * 4 + best] = weights[v * 4 + best]! + (1 - total);
    }
    if (repaired) this.warn(`mesh "${name}": ${repaired} vertex weight set(s) renormalised`);
    return { joints, weights };
  }

  private nodes(meshes: ({ mesh: Mesh; skinned: boolean } | undefined)[]): void {
    const nodes = this.scene.nodes;
    const parents = saneParents(nodes.map((n) => n.parent));
    const world = worldMatrices(nodes.map((n) => n.matrix), parents);
    const placed = new Set<number>();
    this.sceneNodes = nodes.map((n, i) => {
      const g = trs(this.doc.createNode(n.name || `node ${i}`), n.matrix);
      const m = n.mesh !== undefined ? meshes[n.mesh] : undefined;
      if (m) {
        this.attachMesh(g, m, world[i]!);
        placed.add(n.mesh!);
      }
      if (n.visible === false) g.setExtras({ visible: false });
      return g;
    });
    parents.forEach((p, i) => (p >= 0 ? this.sceneNodes[p]!.addChild(this.sceneNodes[i]!) : this.roots.push(this.sceneNodes[i]!)));
    // Meshes no node places still belong in the file: give each its own root node.
    meshes.forEach((m, i) => {
      if (!m || placed.has(i)) return;
      const g = this.doc.createNode(m.mesh.getName());
      this.attachMesh(g, m, IDENTITY4);
      this.roots.push(g);
    });
  }

  private attachMesh(node: GltfNode, m: { mesh: Mesh; skinned: boolean }, world: Mat4): void {
    node.setMesh(m.mesh);
    if (m.skinned) node.setSkin(this.getSkin(world));
  }

  private target(track: AnimationTrack, byName: boolean): GltfNode | undefined {
    const kind = track.target ?? 'bone';
    const list = kind === 'node' ? this.sceneNodes : this.boneNodes;
    const other = kind === 'node' ? this.boneNodes : this.sceneNodes;
    const name = track.targetName;
    const byIndex = Number.isInteger(track.bone) ? list[track.bone] : undefined;
    // Exact names first; then without case, as the preview binds (bindClips: Arma's bone names).
    const lower = name?.toLowerCase();
    const named = name !== undefined
      ? list.find((n) => n.getName() === name) ?? other.find((n) => n.getName() === name) ?? list.find((n) => n.getName().toLowerCase() === lower)
      : undefined;
    const found = byName ? named ?? (name === undefined ? byIndex : undefined) : byIndex ?? named;
    if (found || name === undefined) return found;
    if (this.boneNodes.length === 0 && this.sceneNodes.length === 0) {
      // A standalone animation file converted on its own: give each target a node to drive.
      let p = this.placeholders.get(name);
      if (!p) {
        p = this.doc.createNode(name);
        this.placeholders.set(name, p);
      }
      return p;
    }
    return undefined;
  }

  private clip(c: AnimationClip, byName: boolean): void {
    const name = c.name || `animation ${this.doc.getRoot().listAnimations().length}`;
    const anim = this.doc.createAnimation(name);
    const used = new Set<string>();
    let unbound = 0;
    for (const t of c.tracks) {
      const node = this.target(t, byName);
      if (!node) {
        unbound++;
        continue;
      }
      const keep = increasingKeys(t.times);
      if (keep.length === 0) continue;
      if (keep.length < t.times.length) this.warn(`animation "${name}": keys with negative or non-increasing times left out`);
      const times = Float32Array.from(keep, (k) => t.times[k]!);
      let input: Accessor | undefined;
      const channel = (path: 'translation' | 'rotation' | 'scale', values: Float32Array | undefined, size: 3 | 4): void => {
        if (!values) return;
        if (values.length < t.times.length * size) {
          this.warn(`animation "${name}": a ${path} track has fewer values than keys; left out`);
          return;
        }
        const id = `${node.getName()}\u0000${path}\u0000${this.boneNodes.indexOf(node)}\u0000${this.sceneNodes.indexOf(node)}`;
        if (used.has(id)) {
          this.warn(`animation "${name}": a second ${path} track for "${node.getName()}" left out`);
          return;
        }
        used.add(id);
        const out = new Float32Array(keep.length * size);
        keep.forEach((k, i) => {
          if (size === 4) {
            const q = normalizeQuat(values[k * 4]!, values[k * 4 + 1]!, values[k * 4 + 2]!, values[k * 4 + 3]!);
            out.set(q, i * 4);
          } else {
            for (let j = 0; j < 3; j++) {
              const v = values[k * 3 + j]!;
              out[i * 3 + j] = Number.isFinite(v) ? v : path === 'scale' ? 1 : 0;
            }
          }
        });
        input ??= this.accessor(`${name} times`, 'SCALAR', times);
        const sampler = this.doc.createAnimationSampler().setInput(input).setOutput(this.accessor(`${name} ${path}`, size === 4 ? 'VEC4' : 'VEC3', out)).setInterpolation('LINEAR');
        anim.addSampler(sampler).addChannel(this.doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
      };
      channel('translation', t.translations, 3);
      channel('rotation', t.rotations, 4);
      channel('scale', t.scales, 3);
    }
    if (unbound) this.warn(`animation "${name}": ${unbound} track(s) name no bone or node of the model; left out`);
    if (anim.listChannels().length === 0) {
      this.warn(`animation "${name}": nothing to animate; left out`);
      anim.dispose();
    }
  }
}

/** Sets a node's TRS from a (possibly damaged) matrix; glTF only accepts decomposable transforms. */
function trs(node: GltfNode, m: number[]): GltfNode {
  const { t, r, s } = decompose(m);
  if (t.some((v) => v !== 0)) node.setTranslation(t);
  if (r[3] !== 1) node.setRotation(r);
  if (s.some((v) => v !== 1)) node.setScale(s);
  return node;
}

function clamp01(v: number, fallback: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : fallback;
}

function finiteCopy(a: Float32Array, fallback: number): Float32Array {
  const out = new Float32Array(a);
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i]!)) out[i] = fallback;
  return out;
}

function unitVectors(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i + 2 < a.length; i += 3) {
    const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!;
    const l = Math.hypot(x, y, z);
    if (l > 1e-12 && Number.isFinite(l)) {
      out[i] = x / l; out[i + 1] = y / l; out[i + 2] = z / l;
    } else out[i + 1] = 1; // a zero normal has no direction; up is as good as any
  }
  return out;
}

/** Key indices with finite, non-negative, strictly increasing times (as float32). */
function increasingKeys(times: Float32Array): number[] {
  const keep: number[] = [];
  let last = -Infinity;
  for (let i = 0; i < times.length; i++) {
    const t = Math.fround(times[i]!);
    if (!Number.isFinite(t) || t < 0 || t <= last) continue;
    keep.push(i);
    last = t;
  }
  return keep;
}

/** PNG or JPEG by magic bytes; glTF core accepts only these two. */
export function imageMime(b: Uint8Array): 'image/png' | 'image/jpeg' | undefined {
  if (b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Binary glTF (`.glb`): one file, JSON and buffer chunks. */
export async function writeGlb(doc: Document): Promise<Uint8Array> {
  return new WebIO().writeBinary(doc);
}

/**
 * JSON glTF (`.gltf`) as one self-contained file: the buffer and the images are embedded as
 * base64 data URIs, so the file can be moved and shared alone.
 */
export async function writeGltfEmbedded(doc: Document): Promise<Uint8Array> {
  const { json, resources } = await new WebIO().writeJSON(doc);
  for (const b of json.buffers ?? []) {
    const data = b.uri !== undefined ? resources[b.uri] : undefined;
    if (data) b.uri = `data:application/octet-stream;base64,${base64(data)}`;
  }
  for (const img of json.images ?? []) {
    const data = img.uri !== undefined ? resources[img.uri] : undefined;
    if (data) img.uri = `data:${img.mimeType ?? imageMime(data) ?? 'application/octet-stream'};base64,${base64(data)}`;
  }
  return new TextEncoder().encode(JSON.stringify(json));
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 without Buffer or btoa, which shared code cannot count on. */
export function base64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
    if (chunk.length >= 65536) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    chunk += `${B64[n >> 18]!}${B64[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    chunk += `${B64[n >> 18]!}${B64[(n >> 12) & 63]!}${B64[(n >> 6) & 63]!}=`;
  }
  parts.push(chunk);
  return parts.join('');
}
