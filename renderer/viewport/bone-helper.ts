/**
 * Bones drawn the way rigging tools draw them: a ball at every joint and, from each bone to each
 * child, a tapered octahedral bone shape (wide near the parent, pointed at the child). Drawn with
 * instanced meshes over the model (no depth test) so the skeleton shows through the skin, in a
 * size relative to the model so it reads at any zoom. three.js's SkeletonHelper draws one-pixel
 * lines only between parented bones: thin on a big model, and nothing at all for a skeleton whose
 * bones have no parents (a Grimrock `.animation` opened alone).
 */
import * as THREE from 'three';

const BONE_COLOR = 0x5fb8ff;
const JOINT_COLOR = 0xffd24a;

/** A unit bone: base at the origin, tip at +Y (length 1), widest a fifth of the way up. */
function boneGeometry(): THREE.BufferGeometry {
  const w = 0.1;
  const h = 0.2;
  const v = [0, 0, 0, w, h, w, -w, h, w, -w, h, -w, w, h, -w, 0, 1, 0];
  const idx = [0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4, 5, 1, 2, 5, 2, 3, 5, 3, 4, 5, 4, 1];
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(v, 3));
  g.setIndex(idx);
  g.computeVertexNormals();
  return g;
}

const up = new THREE.Vector3(0, 1, 0);
const a = new THREE.Vector3();
const b = new THREE.Vector3();
const d = new THREE.Vector3();
const q = new THREE.Quaternion();
const s = new THREE.Vector3();
const m = new THREE.Matrix4();

export class BoneHelper extends THREE.Group {
  private readonly bones: THREE.Bone[];
  private readonly links: [child: number, parent: number][] = [];
  private readonly joints: THREE.InstancedMesh;
  private readonly shapes: THREE.InstancedMesh | undefined;
  private readonly disposables: { dispose(): void }[] = [];
  /** Joint radius in world units. */
  private readonly radius: number;

  /** `size`: the model's diagonal (or the skeleton's), which scales joints and bone widths. */
  constructor(bones: THREE.Bone[], size: number) {
    super();
    this.name = 'bones';
    this.bones = bones;
    bones.forEach((bone, i) => {
      const p = bones.indexOf(bone.parent as THREE.Bone);
      if (p >= 0) this.links.push([i, p]);
    });
    this.radius = Math.max(size, 1e-3) * 0.008;
    const matOpts = { depthTest: false, depthWrite: false, transparent: true };
    const jointGeo = new THREE.SphereGeometry(1, 12, 8);
    const jointMat = new THREE.MeshBasicMaterial({ color: JOINT_COLOR, ...matOpts, opacity: 0.95 });
    this.joints = new THREE.InstancedMesh(jointGeo, jointMat, Math.max(1, bones.length));
    this.joints.count = bones.length;
    this.joints.renderOrder = 11;
    this.joints.frustumCulled = false;
    this.add(this.joints);
    this.disposables.push(jointGeo, jointMat);
    if (this.links.length) {
      const boneGeo = boneGeometry();
      // Unlit: the bones read the same under any light scheme.
      const boneMat = new THREE.MeshBasicMaterial({ color: BONE_COLOR, ...matOpts, opacity: 0.7 });
      this.shapes = new THREE.InstancedMesh(boneGeo, boneMat, this.links.length);
      this.shapes.renderOrder = 10;
      this.shapes.frustumCulled = false;
      this.add(this.shapes);
      this.disposables.push(boneGeo, boneMat);
    }
    this.matrixAutoUpdate = false;
    this.update();
  }

  /** Follows the bones' current pose (call after posing, before drawing). */
  update(): void {
    const r = this.radius;
    this.bones.forEach((bone, i) => {
      bone.getWorldPosition(a);
      m.compose(a, q.identity(), s.set(r, r, r));
      this.joints.setMatrixAt(i, m);
    });
    this.joints.instanceMatrix.needsUpdate = true;
    if (!this.shapes) return;
    this.links.forEach(([c, p], k) => {
      this.bones[p]!.getWorldPosition(a);
      this.bones[c]!.getWorldPosition(b);
      d.subVectors(b, a);
      const len = d.length();
      if (len < 1e-9) {
        m.makeScale(0, 0, 0);
      } else {
        q.setFromUnitVectors(up, d.divideScalar(len));
        // Width follows length, within bounds, so long bones stay slim and short ones visible.
        const w = Math.min(Math.max(len, r * 4), r * 15);
        m.compose(a, q, s.set(w, len, w));
      }
      this.shapes!.setMatrixAt(k, m);
    });
    this.shapes.instanceMatrix.needsUpdate = true;
  }

  override dispose(): void {
    for (const x of this.disposables) x.dispose();
  }
}
