/**
 * The 3D preview: a plain class around a three.js renderer that only draws when something asked
 * for it (camera move, new scene, option change, animation frame). Helpers (grid, bounds, normals,
 * skeleton, colliders, selection) live in their own scene drawn over the model, so picking and
 * framing see only the model. A Z-up model is stood upright by rotating the model root (and the
 * light scheme with it), never its data; everything that reads world positions follows.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';
import type { LightScheme, Scene, SceneCollider, UpAxis } from '../../shared/scene/scene.ts';
import { upAxisMatrix } from '../../shared/scene/up-axis.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { applyClip, buildScene, type BuiltScene, type TextureResolver } from './scene-builder.ts';
import { expandByObjectPrecise } from './bounds.ts';
import { BoneHelper } from './bone-helper.ts';
import { ProxyMarkers } from './proxy-markers.ts';
import { buildHighlight, disposeHighlight } from './highlight.ts';
import type { Highlight } from '../../shared/model/editor-query.ts';
import { markStage } from '../lib/stage-marks.ts';

export interface ViewOptions {
  wireframe: boolean;
  /** Textures over material colours, material colours only, or plain grey. */
  shading?: 'textured' | 'colour' | 'solid';
  normals: boolean;
  bounds: boolean;
  grid: boolean;
  skeleton: boolean;
  colliders: boolean;
  /** P3D proxies: labelled markers. */
  proxies: boolean;
  /** P3D proxies: their placeholder faces (the game never draws them). */
  placeholders: boolean;
  /** Scene mesh indices not drawn. */
  hidden: ReadonlySet<number>;
}

const related = (a: NodePath | undefined, b: NodePath | undefined): boolean => {
  if (!a || !b) return false;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
};

const SELECT_COLOR = 0xffa53d;
const COLLIDER_COLOR = 0x3ddc97;

export class Viewport {
  readonly canvas: HTMLCanvasElement;
  readonly renderer: THREE.WebGLRenderer;
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  private readonly scene = new THREE.Scene();
  private readonly helpers = new THREE.Scene();
  private readonly studio = new THREE.Group();
  private readonly schemeLights = new THREE.Group();
  private built: BuiltScene | undefined;
  private source: Scene | undefined;
  private grid: THREE.GridHelper | undefined;
  private boundsHelper: THREE.Box3Helper | undefined;
  private selectionHelper: THREE.Box3Helper | undefined;
  private normalsHelpers: VertexNormalsHelper[] = [];
  private skeletonHelper: BoneHelper | undefined;
  private proxyMarkers: ProxyMarkers | undefined;
  /** DOM layer over the canvas for labels (proxy names). */
  readonly labelLayer: HTMLElement;
  /** A label or marker asked to select a document node. */
  onSelect: ((path: NodePath) => void) | undefined;
  private colliderGroup = new THREE.Group();
  private colliderObjects: { obj: THREE.Object3D; c: SceneCollider }[] = [];
  private opts: ViewOptions = { wireframe: false, normals: false, bounds: false, grid: true, skeleton: false, colliders: true, proxies: true, placeholders: false, hidden: new Set() };
  private selected: NodePath | null = null;
  private highlight: THREE.Group | undefined;
  private up: UpAxis = 'y';
  private clipIndex = -1;
  private time = 0;
  private frame = 0;
  private resize: ResizeObserver;
  private textures: TextureResolver | undefined;
  /** Called after every drawn frame (tests and the status bar count them). */
  onRender: (() => void) | undefined;
  renders = 0;
  /** A texture was applied since the last frame. */
  private newTexture = false;
  /** A scene was set and has not been drawn yet (for the `scene:drawn` timing mark). */
  private newScene = false;
  /** The warm-up's materials (and map), kept so that their compiled programs stay; see warmUp. */
  private readonly warmed: { dispose(): void }[] = [];

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    // preserveDrawingBuffer: screenshots (IMG1) and pixel checks read the canvas after drawing.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, alpha: false });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.setClearColor(0x1b1e23, 1);
    this.renderer.autoClear = false;
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.camera.position.set(3, 2, 4);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.requestRender());

    // Default studio light: a sky/ground fill plus a key light riding with the camera.
    const hemi = new THREE.HemisphereLight(0xdfe8ff, 0x303030, 1.6);
    const key = new THREE.DirectionalLight(0xffffff, 1.8);
    key.position.set(0.5, 1, 0.8);
    this.camera.add(key);
    this.studio.add(hemi);
    this.scene.add(this.studio, this.schemeLights, this.camera);
    this.helpers.add(this.colliderGroup);
    this.labelLayer = document.createElement('div');
    this.labelLayer.className = 'vp-labels';
    this.labelLayer.dataset.testid = 'viewport-labels';
    (canvas.parentElement ?? document.body).append(this.labelLayer);

    this.resize = new ResizeObserver(() => this.fitSize());
    this.resize.observe(canvas.parentElement ?? canvas);
    this.fitSize();
    this.warmUp();
  }

  /**
   * Compiles, while the window waits for its first file, the shader programs a textured model
   * draws with under the studio lights (a map, opaque / blended with a cut-out / cut-out, both
   * sides / front only; no map; skinned, with and without a map) and the floor grid's, so the first textured frame of a model does not stop for them. Done
   * with the browser's parallel compile where it has one; a program that is not used costs
   * nothing but the compile. The materials are kept (not drawn) for as long as the viewport
   * lives: three.js deletes a program when the last material using it is disposed, and the
   * warmed programs were deleted that way the moment they were ready, so the first frame of a
   * model compiled them again. Marks `lodsmith:viewport:warm` when done (the benchmark opens
   * its file once the window has started, as a user would).
   */
  private warmUp(): void {
    const holder = new THREE.Group();
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
    g.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(9), 3));
    g.setAttribute('uv', new THREE.BufferAttribute(new Float32Array(6), 2));
    const map = new THREE.DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1, THREE.RGBAFormat);
    map.colorSpace = THREE.SRGBColorSpace;
    for (const side of [THREE.DoubleSide, THREE.FrontSide]) {
      for (const alpha of ['none', 'blend', 'test'] as const) {
        const m = new THREE.MeshPhongMaterial({ map, side, transparent: alpha === 'blend', alphaTest: alpha === 'blend' ? 0.02 : alpha === 'test' ? 0.5 : 0 });
        this.warmed.push(m);
        holder.add(new THREE.Mesh(g, m));
      }
      // No map: a model whose textures are not found (or not there yet), and one that has none.
      const plain = new THREE.MeshPhongMaterial({ side });
      this.warmed.push(plain);
      holder.add(new THREE.Mesh(g, plain));
    }
    // A skinned model (LODka, Grimrock and Unigine characters), with and without its map.
    const sg = g.clone();
    sg.setAttribute('skinIndex', new THREE.BufferAttribute(new Uint16Array(12), 4));
    sg.setAttribute('skinWeight', new THREE.BufferAttribute(new Float32Array(12).fill(0.25), 4));
    const bone = new THREE.Bone();
    for (const withMap of [true, false]) {
      const m = new THREE.MeshPhongMaterial({ ...(withMap ? { map } : {}), side: THREE.DoubleSide });
      this.warmed.push(m);
      const skinned = new THREE.SkinnedMesh(sg, m);
      skinned.add(bone);
      skinned.bind(new THREE.Skeleton([bone]));
      holder.add(skinned);
    }
    // The floor grid's line program, which every model's first frame draws too (in the helpers'
    // scene, which has no lights: a program's key counts the lights).
    const grid = new THREE.GridHelper(1, 2);
    this.warmed.push(map, grid.material);
    this.scene.add(holder);
    this.helpers.add(grid);
    const done = () => {
      this.scene.remove(holder);
      this.helpers.remove(grid);
      g.dispose();
      sg.dispose();
      grid.geometry.dispose();
      markStage('viewport:warm');
      // One more frame of the empty view, so `onRender` listeners see the warmed programs.
      this.requestRender();
    };
    try {
      void Promise.all([this.renderer.compileAsync(this.scene, this.camera), this.renderer.compileAsync(this.helpers, this.camera)]).then(done, done);
    } catch {
      done();
    }
  }

  setTextureResolver(r: TextureResolver): void {
    this.textures = r;
  }

  private fitSize(): void {
    const el = this.canvas.parentElement ?? this.canvas;
    const w = Math.max(1, el.clientWidth);
    const h = Math.max(1, el.clientHeight);
    this.renderer.setSize(w, h, false);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /** Schedules one frame; several requests before it is drawn make one frame. */
  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Draws now (screenshots need the frame in the buffer at once). */
  render(): void {
    this.syncHelpers();
    this.renderer.clear();
    this.renderer.render(this.scene, this.camera);
    // The model's depth stays: the grid and bounds hide behind geometry; skeleton and colliders
    // draw with depthTest off so they show through.
    this.renderer.render(this.helpers, this.camera);
    if (this.newScene) {
      this.newScene = false;
      markStage('scene:drawn');
    }
    if (this.newTexture) {
      this.newTexture = false;
      markStage('texture:drawn');
    }
    this.renders++;
    this.onRender?.();
  }

  /** Replaces the model. The camera stays where it is unless `frame` (a new document). */
  setScene(scene: Scene, frame: boolean): void {
    this.source = scene;
    if (this.built) {
      this.scene.remove(this.built.root);
      this.built.dispose();
    }
    this.built = buildScene(scene, {
      wireframe: this.opts.wireframe, shading: this.opts.shading ?? 'textured', textures: this.textures,
      compressed: this.renderer.extensions.has('WEBGL_compressed_texture_s3tc'),
      onAsync: () => {
        // A texture arrived: the next frame is a textured one (the benchmark's "first textured frame").
        this.newTexture = true;
        this.requestRender();
      },
    });
    markStage('scene:objects');
    this.orient();
    this.scene.add(this.built.root);
    this.applyPose();
    // One pass over the vertices serves the grid, the bounds helper and the framing.
    const box = this.rebuildHelpers();
    if (frame) this.frameBox(box);
    this.newScene = true;
    this.requestRender();
  }

  /** The up axis the model is shown with. */
  get upAxis(): UpAxis {
    return this.up;
  }

  /**
   * Shows the model's data as `axis`-up: 'z' turns the model root -90 degrees about X so the
   * grid stays the floor. `frame` fits the camera to the turned model.
   */
  setUpAxis(axis: UpAxis, frame: boolean): void {
    if (axis === this.up) return;
    this.up = axis;
    if (!this.built) return;
    this.orient();
    this.applyPose();
    const box = this.rebuildHelpers();
    if (frame) this.frameBox(box);
    this.requestRender();
  }

  private orient(): void {
    const m = new THREE.Matrix4().fromArray(upAxisMatrix(this.up));
    // Scheme lights are placed in the file's axes too.
    for (const o of [this.built?.root, this.schemeLights]) {
      if (!o) continue;
      o.quaternion.setFromRotationMatrix(m);
      o.updateMatrixWorld(true);
    }
  }

  /** Shader programs the renderer holds (compiled and kept): the warm-up's and the models'. */
  get programCount(): number {
    return this.renderer.info.programs?.length ?? 0;
  }

  get hasModel(): boolean {
    return !!this.built && this.built.meshes.length > 0;
  }

  setOptions(o: ViewOptions): void {
    const rebuild = o.wireframe !== this.opts.wireframe || (o.shading ?? 'textured') !== (this.opts.shading ?? 'textured');
    this.opts = { ...o, hidden: new Set(o.hidden) };
    if (rebuild && this.source) {
      this.setScene(this.source, false);
      return;
    }
    this.rebuildHelpers();
    this.requestRender();
  }

  /** Lights the model with a light scheme (LODka LGS1), or the studio light when null. */
  setLightScheme(scheme: LightScheme | null): void {
    this.schemeLights.clear();
    this.studio.visible = !scheme;
    const key = this.camera.children[0];
    if (key) key.visible = !scheme;
    if (scheme) {
      const ambient = new THREE.Color(0, 0, 0);
      for (const l of scheme.lights) {
        if (!l.enabled) continue;
        ambient.r += l.ambient[0];
        ambient.g += l.ambient[1];
        ambient.b += l.ambient[2];
        const color = new THREE.Color().setRGB(l.diffuse[0], l.diffuse[1], l.diffuse[2], THREE.SRGBColorSpace);
        const pos = new THREE.Vector3(...l.position);
        let light: THREE.Light;
        if (l.type === 'directional') {
          const d = new THREE.DirectionalLight(color, Math.PI);
          // OpenGL directional lights shine from `position` toward the origin.
          d.position.copy(pos.lengthSq() > 0 ? pos : new THREE.Vector3(...l.direction).negate());
          light = d;
        } else if (l.type === 'spot' && l.cutoff < 180) {
          const s = new THREE.SpotLight(color, Math.PI, 0, THREE.MathUtils.degToRad(Math.min(89.9, Math.max(0.1, l.cutoff))), 0.3, 0);
          s.position.copy(pos);
          s.target.position.copy(pos.clone().add(new THREE.Vector3(...l.direction)));
          this.schemeLights.add(s.target);
          light = s;
        } else {
          const p = new THREE.PointLight(color, Math.PI, 0, 0);
          p.position.copy(pos);
          light = p;
        }
        this.schemeLights.add(light);
      }
      this.schemeLights.add(new THREE.AmbientLight(ambient, Math.PI));
    }
    this.requestRender();
  }

  setSelection(path: NodePath | null): void {
    this.selected = path;
    this.rebuildSelection();
    this.requestRender();
  }

  /** Marks points, faces or axes an editor selected (scene space, under the model root); null clears. */
  setHighlight(h: Highlight | null): void {
    if (this.highlight) {
      this.helpers.remove(this.highlight);
      disposeHighlight(this.highlight);
      this.highlight = undefined;
    }
    if (h && (h.points?.length || h.triangles?.length || h.lines?.length)) {
      this.highlight = buildHighlight(h);
      this.highlight.matrixAutoUpdate = false;
      this.helpers.add(this.highlight);
    }
    this.requestRender();
  }

  /** Plays a clip at a time (seconds); -1 shows the bind pose. */
  setPose(clip: number, time: number): void {
    this.clipIndex = clip;
    this.time = time;
    this.applyPose();
    this.requestRender();
  }

  private applyPose(): void {
    if (!this.built || !this.source) return;
    applyClip(this.built, this.source.clips[this.clipIndex], this.time);
  }

  /** Document path of the mesh or proxy item under a canvas point, if any. */
  pick(clientX: number, clientY: number): NodePath | undefined {
    if (!this.built) return undefined;
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    // Proxy markers draw over the model, so they are picked first.
    if (this.proxyMarkers) {
      const root = this.built.root.matrixWorld;
      const p = this.proxyMarkers.pick(root, this.camera, clientX - r.left, clientY - r.top, r.width, r.height);
      if (p?.source) return p.source;
    }
    const targets = this.built.meshes.filter((m) => m.object.visible && !this.opts.hidden.has(m.index)).map((m) => m.object);
    const hit = ray.intersectObjects(targets, false)[0];
    if (hit) return hit.object.userData.source as NodePath | undefined;
    if (this.opts.colliders && this.colliderObjects.length) {
      const ch = ray.intersectObjects(this.colliderObjects.map((c) => c.obj), true)[0];
      let o: THREE.Object3D | null = ch?.object ?? null;
      while (o && !o.userData.collider) o = o.parent;
      if (o) return (o.userData.collider as SceneCollider).source;
    }
    return undefined;
  }

  /** Fits the camera to the whole model. */
  frameAll(): void {
    this.frameBox(this.modelBox());
  }

  /** Fits the camera to the selection (or the whole model when nothing 3D is selected). */
  frameSelection(): void {
    const box = this.highlight ? new THREE.Box3().setFromObject(this.highlight, true) : this.selectionBox();
    this.frameBox(box && !box.isEmpty() ? box : this.modelBox());
  }

  private frameBox(box: THREE.Box3): void {
    if (box.isEmpty()) return;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const r = Math.max(sphere.radius, 1e-3);
    // Fit the bounding sphere into the narrower side of the view (portrait windows too).
    const halfFov = Math.atan(Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2)) * Math.min(1, this.camera.aspect));
    const dist = (r / Math.sin(halfFov)) * 1.02;
    const dir = this.camera.position.clone().sub(this.controls.target);
    if (dir.lengthSq() < 1e-12) dir.set(1, 0.6, 1.2);
    dir.normalize();
    this.controls.target.copy(sphere.center);
    this.camera.position.copy(sphere.center).addScaledVector(dir, dist);
    this.camera.near = Math.max(dist / 1000, 1e-4);
    this.camera.far = dist * 100 + r * 10;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  modelBox(): THREE.Box3 {
    const box = new THREE.Box3();
    if (!this.built) return box;
    this.built.root.updateMatrixWorld(true);
    for (const m of this.built.meshes) {
      if (this.opts.hidden.has(m.index) || !visibleInTree(m.object)) continue;
      expandByObjectPrecise(box, m.object);
    }
    // Animation-only files: frame the skeleton.
    if (box.isEmpty() && this.built.bones.length) {
      const v = new THREE.Vector3();
      for (const b of this.built.bones) box.expandByPoint(b.getWorldPosition(v));
      if (!box.isEmpty() && box.getSize(v).length() < 1e-6) box.expandByScalar(0.5);
    }
    if (box.isEmpty() && this.source?.bounds) {
      box.min.fromArray(this.source.bounds.min);
      box.max.fromArray(this.source.bounds.max);
      box.applyMatrix4(this.built.root.matrixWorld);
    }
    return box;
  }

  private selectionBox(): THREE.Box3 | undefined {
    if (!this.built || !this.selected) return undefined;
    const box = new THREE.Box3();
    for (const m of this.built.meshes) {
      if (related(this.selected, m.source) || related(this.selected, m.object.userData.meshSource as NodePath | undefined)) expandByObjectPrecise(box, m.object);
    }
    for (const c of this.colliderObjects) if (related(this.selected, c.c.source)) box.expandByObject(c.obj, true);
    const picked = this.selected.length >= 3 ? (this.source?.proxies ?? []).filter((p) => related(this.selected!, p.source)) : [];
    if (this.built && picked.length) {
      const marker = this.modelBox().getSize(new THREE.Vector3()).length() * 0.03;
      for (const p of picked) {
        // The proxy's placeholder (or, without one, a small box at its origin), in world space.
        const at = new THREE.Vector3(p.matrix[12], p.matrix[13], p.matrix[14]).applyMatrix4(this.built.root.matrixWorld);
        const pb = new THREE.Box3().setFromCenterAndSize(at, new THREE.Vector3().setScalar(marker));
        if (p.placeholder) for (let i = 0; i + 2 < p.placeholder.length; i += 3) pb.expandByPoint(new THREE.Vector3(p.placeholder[i], p.placeholder[i + 1], p.placeholder[i + 2]).applyMatrix4(this.built.root.matrixWorld));
        box.union(pb);
      }
    }
    return box.isEmpty() ? undefined : box;
  }

  private rebuildSelection(): void {
    if (this.selectionHelper) {
      this.helpers.remove(this.selectionHelper);
      this.selectionHelper.dispose();
      this.selectionHelper = undefined;
    }
    // The root path relates to everything: selecting the file is not a 3D selection.
    if (!this.selected || this.selected.length === 0) return;
    const box = this.selectionBox();
    if (box) {
      this.selectionHelper = new THREE.Box3Helper(box, SELECT_COLOR);
      this.helpers.add(this.selectionHelper);
    }
    for (const c of this.colliderObjects) {
      const on = related(this.selected, c.c.source);
      c.obj.traverse((o) => {
        const mat = (o as THREE.LineSegments).material as THREE.LineBasicMaterial | undefined;
        if (mat?.color) mat.color.set(on ? SELECT_COLOR : COLLIDER_COLOR);
      });
    }
  }

  /** Rebuilds the helpers; returns the model box it measured (framing reuses it). */
  private rebuildHelpers(): THREE.Box3 {
    for (const h of [this.grid, this.boundsHelper, this.skeletonHelper, ...this.normalsHelpers]) {
      if (!h) continue;
      this.helpers.remove(h);
      h.dispose();
    }
    if (this.proxyMarkers) {
      this.helpers.remove(this.proxyMarkers.group);
      this.proxyMarkers.dispose();
      this.proxyMarkers = undefined;
    }
    this.normalsHelpers = [];
    this.grid = this.boundsHelper = this.skeletonHelper = undefined;
    this.colliderGroup.clear();
    this.colliderObjects = [];
    if (this.built) for (const m of this.built.meshes) m.object.visible = !this.opts.hidden.has(m.index);
    const box = this.modelBox();
    const size = box.isEmpty() ? 2 : box.getSize(new THREE.Vector3()).length();
    // No grid on an empty view (the welcome screen); models without meshes still get one.
    if (this.opts.grid && this.source && (this.source.meshes.length || this.source.skeleton || this.source.nodes.length)) {
      const step = 10 ** Math.floor(Math.log10(Math.max(size, 1e-3) / 4));
      const cells = 20;
      this.grid = new THREE.GridHelper(step * cells, cells, 0x4a5160, 0x2c313a);
      if (!box.isEmpty()) this.grid.position.set((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
      this.helpers.add(this.grid);
    }
    if (this.opts.bounds && !box.isEmpty()) {
      this.boundsHelper = new THREE.Box3Helper(box, 0x6aa7ff);
      this.helpers.add(this.boundsHelper);
    }
    if (this.opts.normals && this.built) {
      for (const m of this.built.meshes) {
        if (!m.object.visible) continue;
        const h = new VertexNormalsHelper(m.object, size * 0.015, 0x5fd1ff);
        this.normalsHelpers.push(h);
        this.helpers.add(h);
      }
    }
    // Without meshes the skeleton is all there is to see: show it whatever the toggle says.
    if ((this.opts.skeleton || !this.built?.meshes.length) && this.built?.bones.length) {
      this.skeletonHelper = new BoneHelper(this.built.bones, size);
      this.helpers.add(this.skeletonHelper);
    }
    const proxies = this.source?.proxies ?? [];
    if (proxies.length && (this.opts.proxies || this.opts.placeholders)) {
      this.proxyMarkers = new ProxyMarkers(proxies, size, this.labelLayer, {
        markers: this.opts.proxies, faces: this.opts.placeholders, select: (p) => this.onSelect?.(p),
      });
      this.helpers.add(this.proxyMarkers.group);
    }
    if (this.opts.colliders && this.source?.colliders) {
      for (const c of this.source.colliders) {
        if (c.visible === false) continue;
        const obj = colliderShape(c);
        obj.userData.collider = c;
        obj.matrixAutoUpdate = false;
        this.colliderGroup.add(obj);
        this.colliderObjects.push({ obj, c });
      }
    }
    this.rebuildSelection();
    return box;
  }

  /** Keeps helpers that ride on animated objects in place. */
  private syncHelpers(): void {
    const bones = this.built?.bones ?? [];
    const root = this.built?.root.matrixWorld ?? new THREE.Matrix4();
    for (const { obj, c } of this.colliderObjects) {
      const local = new THREE.Matrix4().fromArray(c.matrix);
      const bone = c.bone >= 0 ? bones[c.bone] : undefined;
      // Bones already carry the model root's up rotation; free colliders take it here.
      obj.matrix.copy((bone ? bone.matrixWorld : root).clone().multiply(local));
      obj.matrixWorldNeedsUpdate = true;
    }
    for (const h of this.normalsHelpers) h.update();
    if (this.highlight) {
      this.highlight.matrix.copy(root);
      this.highlight.matrixWorldNeedsUpdate = true;
    }
    this.skeletonHelper?.update();
    if (this.proxyMarkers) {
      const el = this.canvas;
      const inverses = this.built?.boneInverses ?? [];
      const motion = (i: number): THREE.Matrix4 | undefined => {
        const bone = bones[i];
        return bone && inverses[i] ? bone.matrixWorld.clone().multiply(inverses[i]) : undefined;
      };
      this.proxyMarkers.update(root, this.camera, el.clientWidth, el.clientHeight, motion);
    }
  }

  /**
   * PNG of the current view. Clean by default: the model alone, without the grid, colliders,
   * bones, proxy markers, normals, bounds or the selection; `helpers` draws them too (and the
   * proxy labels). The view is drawn again with its longer side `size` pixels long.
   */
  async capturePng(opts: { helpers?: boolean; size?: number } = {}): Promise<Uint8Array> {
    const size = Math.max(16, Math.min(4096, Math.round(opts.size ?? 512)));
    const src = this.canvas;
    const cssW = Math.max(1, src.clientWidth);
    const cssH = Math.max(1, src.clientHeight);
    // Draw at the asked size (same aspect, so the same view), not a scaled copy of the screen.
    const k = size / Math.max(cssW, cssH);
    const w = Math.max(1, Math.round(cssW * k));
    const h = Math.max(1, Math.round(cssH * k));
    const ratio = this.renderer.getPixelRatio();
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(w, h, false);
    this.syncHelpers();
    this.renderer.clear();
    this.renderer.render(this.scene, this.camera);
    if (opts.helpers) this.renderer.render(this.helpers, this.camera);
    const out = document.createElement('canvas');
    out.width = w;
    out.height = h;
    const g = out.getContext('2d')!;
    g.drawImage(src, 0, 0, w, h, 0, 0, w, h);
    this.renderer.setPixelRatio(ratio);
    this.renderer.setSize(cssW, cssH, false);
    if (opts.helpers && this.proxyMarkers) {
      // Labels are DOM over the canvas; draw them into the picture at the same places.
      g.font = `${Math.max(9, Math.round(12 * k))}px sans-serif`;
      g.fillStyle = '#b9a0ff';
      for (const l of this.proxyMarkers.labels()) g.fillText(l.text, l.x * k, (l.y + 12) * k);
    }
    // Put the on-screen frame back (with its helpers) at once.
    this.render();
    const blob = await new Promise<Blob | null>((res) => out.toBlob(res, 'image/png'));
    if (!blob) throw new Error('The browser could not encode the screenshot');
    return new Uint8Array(await blob.arrayBuffer());
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.controls.dispose();
    this.built?.dispose();
    this.proxyMarkers?.dispose();
    this.skeletonHelper?.dispose();
    this.labelLayer.remove();
    for (const w of this.warmed) w.dispose();
    this.renderer.dispose();
  }
}

function visibleInTree(o: THREE.Object3D): boolean {
  for (let p: THREE.Object3D | null = o; p; p = p.parent) if (!p.visible) return false;
  return true;
}

/** Unit-size wireframe of a collider shape (the collider matrix carries its size). */
function colliderShape(c: SceneCollider): THREE.Object3D {
  const mat = new THREE.LineBasicMaterial({ color: COLLIDER_COLOR, depthTest: false, transparent: true, opacity: 0.9 });
  let geo: THREE.BufferGeometry;
  switch (c.shape) {
    case 'sphere': geo = new THREE.SphereGeometry(0.5, 16, 10); break;
    case 'capsule': geo = new THREE.CapsuleGeometry(0.5, 1, 4, 12); break;
    case 'cylinder': geo = new THREE.CylinderGeometry(0.5, 0.5, 1, 16, 1); break;
    default: geo = new THREE.BoxGeometry(1, 1, 1); break;
  }
  const lines = new THREE.LineSegments(new THREE.WireframeGeometry(geo), mat);
  geo.dispose();
  lines.name = c.name;
  const g = new THREE.Group();
  g.add(lines);
  return g;
}
