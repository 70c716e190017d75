/**
 * P3D proxies in the viewport: a marker (a small axis tripod in the proxy's frame and a diamond
 * at its origin) with a label naming the proxied model, and on request the placeholder faces the
 * file stores for it, drawn translucent so they read as helpers, never as the model.
 * Labels are DOM buttons over the canvas: they stay crisp at any size, screen readers and the
 * keyboard reach them, and a click selects the proxy in the tree. A click on the marker itself
 * (its diamond or an axis, measured on screen: the marker is a few pixels wide, too thin for a ray)
 * or on a shown placeholder face selects it too.
 */
import * as THREE from 'three';
import type { SceneProxy } from '../../shared/scene/scene.ts';
import type { NodePath } from '../../shared/model/path.ts';
import { declutter, type LabelBox } from '../lib/declutter.ts';

// Violet: apart from the editors' highlight (magenta), the selection (orange), colliders (green)
// and bones (blue and yellow).
const MARKER_COLOR = 0x9f7aff;
const PLACEHOLDER_COLOR = 0x9f7aff;

/** The label text: the model's file name and its number (`ak74 #2`); the full path is the tooltip. */
export function proxyLabel(p: SceneProxy): string {
  const base = p.name.split(/[\\/]/).filter(Boolean).pop() || p.name || 'proxy';
  return p.index !== undefined ? `${base} #${p.index}` : base;
}

interface LabelledProxy { proxy: SceneProxy; obj: THREE.Object3D; label: HTMLButtonElement; text: string; size?: { w: number; h: number } }

/**
 * What a bone has done since the rest pose, in world space (its world matrix times its inverse
 * rest world), or undefined for a bone the model lacks: a proxy that names that bone moves so.
 */
export type BoneMotion = (bone: number) => THREE.Matrix4 | undefined;

export class ProxyMarkers {
  readonly group = new THREE.Group();
  /** Proxies with a label (markers on). */
  private readonly items: LabelledProxy[] = [];
  private readonly disposables: { dispose(): void }[] = [];
  /** Every proxy with its object and placeholder mesh (when faces are drawn), for picking. */
  private readonly all: { proxy: SceneProxy; obj: THREE.Object3D; placeholder?: THREE.Mesh }[] = [];
  /** Length of a marker's axes, in model units. */
  private readonly axisLength: number;
  private readonly markers: boolean;

  /**
   * `size`: the model's diagonal (markers scale with it); `layer`: the element labels go in;
   * `faces`: also draw the placeholder faces; `select`: a label was clicked.
   */
  constructor(proxies: SceneProxy[], size: number, layer: HTMLElement, opts: { markers: boolean; faces: boolean; select: (p: NodePath) => void }) {
    this.group.name = 'proxies';
    this.group.matrixAutoUpdate = false;
    const len = Math.max(size, 1e-3) * 0.04;
    this.axisLength = len;
    this.markers = opts.markers;
    const axes = new THREE.BufferGeometry();
    axes.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, len, 0, 0, 0, 0, 0, 0, len, 0, 0, 0, 0, 0, 0, len], 3));
    axes.setAttribute('color', new THREE.Float32BufferAttribute([1, 0.3, 0.3, 1, 0.3, 0.3, 0.3, 1, 0.3, 0.3, 1, 0.3, 0.4, 0.6, 1, 0.4, 0.6, 1], 3));
    const axesMat = new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true });
    const diamond = new THREE.OctahedronGeometry(len * 0.25);
    const diamondMat = new THREE.MeshBasicMaterial({ color: MARKER_COLOR, depthTest: false, transparent: true, opacity: 0.9 });
    const faceMat = new THREE.MeshBasicMaterial({ color: PLACEHOLDER_COLOR, side: THREE.DoubleSide, transparent: true, opacity: 0.5, depthWrite: false });
    const edgeMat = new THREE.LineBasicMaterial({ color: PLACEHOLDER_COLOR });
    this.disposables.push(axes, axesMat, diamond, diamondMat, faceMat, edgeMat);
    for (const p of proxies) {
      const obj = new THREE.Group();
      obj.userData.proxy = p;
      // Placed by update(): where the proxy's bone has moved it (the identity at rest).
      obj.matrixAutoUpdate = false;
      const entry: { proxy: SceneProxy; obj: THREE.Object3D; placeholder?: THREE.Mesh } = { proxy: p, obj };
      this.all.push(entry);
      if (opts.markers) {
        const frame = new THREE.Group();
        frame.matrixAutoUpdate = false;
        frame.matrix.fromArray(p.matrix);
        // Keep the marker's size whatever the proxy's scale: only the frame's axes and origin count.
        const pos = new THREE.Vector3();
        const rot = new THREE.Quaternion();
        frame.matrix.decompose(pos, rot, new THREE.Vector3());
        frame.matrix.compose(pos, rot, new THREE.Vector3(1, 1, 1));
        const lines = new THREE.LineSegments(axes, axesMat);
        lines.renderOrder = 12;
        const dot = new THREE.Mesh(diamond, diamondMat);
        dot.renderOrder = 12;
        frame.add(lines, dot);
        obj.add(frame);
      }
      if (opts.faces && p.placeholder && p.placeholder.length >= 9) {
        const g = new THREE.BufferGeometry();
        g.setAttribute('position', new THREE.BufferAttribute(p.placeholder, 3));
        const mesh = new THREE.Mesh(g, faceMat);
        mesh.name = 'placeholder';
        entry.placeholder = mesh;
        const edges = new THREE.LineSegments(new THREE.EdgesGeometry(g), edgeMat);
        this.disposables.push(g, edges.geometry);
        obj.add(mesh, edges);
      }
      this.group.add(obj);
      if (!opts.markers) continue;
      const label = document.createElement('button');
      label.type = 'button';
      label.className = 'proxy-label';
      label.dataset.testid = 'proxy-label';
      const text = proxyLabel(p);
      label.textContent = text;
      label.title = `Proxy ${p.name}${p.index !== undefined ? ` (${p.index})` : ''}: select it`;
      label.addEventListener('click', () => p.source && opts.select(p.source));
      layer.append(label);
      this.items.push({ proxy: p, obj, label, text });
    }
  }

  /**
   * Places the model-space markers under `root` (the model's up rotation), each proxy that names
   * a bone where that bone has moved it (`motion`, while an animation plays), and moves the labels;
   * labels that would overlap are decluttered, nearest first.
   */
  update(root: THREE.Matrix4, camera: THREE.Camera, width: number, height: number, motion?: BoneMotion): void {
    this.group.matrix.copy(root);
    this.group.matrixWorldNeedsUpdate = true;
    const rootInverse = root.clone().invert();
    for (const { proxy, obj } of this.all) {
      const moved = proxy.bone !== undefined ? motion?.(proxy.bone) : undefined;
      // In the group's frame (the root's): root^-1 x motion x root.
      if (moved) obj.matrix.copy(rootInverse).multiply(moved).multiply(root);
      else obj.matrix.identity();
      obj.matrixWorldNeedsUpdate = true;
    }
    const v = new THREE.Vector3();
    const onScreen: { it: LabelledProxy; box: LabelBox }[] = [];
    for (const it of this.items) {
      v.set(it.proxy.matrix[12]!, it.proxy.matrix[13]!, it.proxy.matrix[14]!).applyMatrix4(it.obj.matrix).applyMatrix4(root).project(camera);
      const off = v.z > 1 || v.z < -1 || Math.abs(v.x) > 1.05 || Math.abs(v.y) > 1.05;
      const x = ((v.x + 1) / 2) * width + 8;
      const y = ((1 - v.y) / 2) * height - 8;
      it.label.style.transform = `translate(${x}px, ${y}px)`;
      if (off) {
        it.label.style.visibility = 'hidden';
        continue;
      }
      // Measured once with its own text (the count added later does not move where it collides).
      if (!it.size || !it.size.w) it.size = { w: it.label.offsetWidth, h: it.label.offsetHeight };
      onScreen.push({ it, box: { x, y, w: it.size.w, h: it.size.h, depth: v.z } });
    }
    const placed = declutter(onScreen.map((o) => o.box));
    onScreen.forEach(({ it }, i) => {
      const p = placed[i]!;
      it.label.style.visibility = '';
      // A label hidden behind a nearer one stays in the tab order and shows while it has the focus.
      it.label.classList.toggle('cluttered', !p.shown);
      const text = p.hidden ? `${it.text} +${p.hidden}` : it.text;
      if (it.label.textContent !== text) {
        it.label.textContent = text;
        it.label.title = `Proxy ${it.proxy.name}${it.proxy.index !== undefined ? ` (${it.proxy.index})` : ''}: select it${p.hidden ? `. ${p.hidden} more proxy label${p.hidden > 1 ? 's' : ''} hidden here: zoom in, or pick in the Proxies editor` : ''}`;
      }
      it.label.dataset.hides = String(p.hidden);
    });
  }

  /**
   * The proxy under canvas point (x, y) (pixels from the canvas's top left; `width` x `height` the
   * canvas): the nearest marker whose diamond lies within `slop` pixels or one of whose axes passes
   * within half that, else a placeholder face the ray meets. `root` as given to {@link update}.
   */
  pick(root: THREE.Matrix4, camera: THREE.Camera, x: number, y: number, width: number, height: number, slop = 10): SceneProxy | undefined {
    const toScreen = (v: THREE.Vector3): THREE.Vector3 | undefined => {
      v.applyMatrix4(root).project(camera);
      if (v.z > 1 || v.z < -1) return undefined;
      return v.set(((v.x + 1) / 2) * width, ((1 - v.y) / 2) * height, v.z);
    };
    const segment = (a: THREE.Vector3, b: THREE.Vector3): number => {
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / l2)) : 0;
      return Math.hypot(a.x + t * dx - x, a.y + t * dy - y);
    };
    let best: SceneProxy | undefined;
    let bestD = Infinity;
    if (this.markers) {
      for (const { proxy, obj } of this.all) {
        // Where update() last placed it (moved with its bone).
        const m = obj.matrix.clone().multiply(new THREE.Matrix4().fromArray(proxy.matrix));
        const o = new THREE.Vector3().setFromMatrixPosition(m);
        const origin = toScreen(o.clone());
        if (!origin) continue;
        let d = Math.hypot(origin.x - x, origin.y - y);
        if (d > slop) d = Infinity;
        for (let a = 0; a < 3; a++) {
          const dir = new THREE.Vector3().setFromMatrixColumn(m, a).normalize().multiplyScalar(this.axisLength);
          const end = toScreen(o.clone().add(dir));
          // An axis counts a little less than the diamond: the origin wins where both are near.
          if (end && segment(origin, end) <= slop / 2) d = Math.min(d, slop / 2 + segment(origin, end));
        }
        if (d < bestD) {
          bestD = d;
          best = proxy;
        }
      }
    }
    if (best) return best;
    const faces = this.all.filter((e) => e.placeholder).map((e) => e.placeholder!);
    if (!faces.length) return undefined;
    this.group.updateMatrixWorld(true);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(new THREE.Vector2((x / width) * 2 - 1, -(y / height) * 2 + 1), camera);
    const hit = ray.intersectObjects(faces, false)[0];
    return hit ? this.all.find((e) => e.placeholder === hit.object)?.proxy : undefined;
  }

  /** Label texts and their canvas positions (screenshots that include helpers draw them). */
  labels(): { text: string; x: number; y: number }[] {
    return this.items.filter((i) => i.label.style.visibility !== 'hidden' && !i.label.classList.contains('cluttered')).map((i) => {
      const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(i.label.style.transform);
      return { text: i.label.textContent ?? '', x: Number(m?.[1] ?? 0), y: Number(m?.[2] ?? 0) };
    });
  }

  dispose(): void {
    for (const it of this.items) it.label.remove();
    for (const d of this.disposables) d.dispose();
  }
}
