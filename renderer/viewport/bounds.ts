/**
 * Bounds of large meshes without a three.js object per vertex. three.js finds the exact bounds
 * of a (skinned) mesh vertex by vertex through `getVertexPosition`, one Vector and Matrix4
 * multiply per bone influence per call; for a model of a million vertices that took 150-180 ms
 * per pass, and opening a file took three passes (culling sphere, model box, camera framing).
 * These functions compute the same numbers, in the same order of operations, over the typed
 * arrays directly, and fall back to three.js for anything they do not cover (morph targets,
 * interleaved or normalised positions, child objects).
 */
import * as THREE from 'three';

/** Position attribute as a plain xyz float array, or undefined when it is stored otherwise. */
function plainPositions(g: THREE.BufferGeometry): ArrayLike<number> | undefined {
  const a = g.getAttribute('position') as THREE.BufferAttribute | THREE.InterleavedBufferAttribute | undefined;
  if (!a || (a as THREE.InterleavedBufferAttribute).isInterleavedBufferAttribute || a.normalized || a.itemSize !== 3) return undefined;
  const arr = (a as THREE.BufferAttribute).array;
  return arr.length >= a.count * 3 ? arr : undefined;
}

function hasActiveMorphs(o: THREE.Mesh): boolean {
  return !!o.geometry.morphAttributes.position && !!o.morphTargetInfluences;
}

/**
 * Vertex positions of `mesh` as `getVertexPosition` returns them (skinned by the current pose
 * for a SkinnedMesh), or undefined when this module does not cover the mesh.
 */
export function vertexPositions(mesh: THREE.Mesh): ArrayLike<number> | undefined {
  const pos = plainPositions(mesh.geometry);
  if (!pos || hasActiveMorphs(mesh)) return undefined;
  if (!(mesh instanceof THREE.SkinnedMesh)) return pos;
  const g = mesh.geometry;
  const si = g.getAttribute('skinIndex') as THREE.BufferAttribute | undefined;
  const sw = g.getAttribute('skinWeight') as THREE.BufferAttribute | undefined;
  const skeleton = mesh.skeleton as THREE.Skeleton | undefined;
  if (!si || !sw || !skeleton || si.itemSize !== 4 || sw.itemSize !== 4 || si.normalized || sw.normalized) return undefined;
  if ((si as unknown as THREE.InterleavedBufferAttribute).isInterleavedBufferAttribute || (sw as unknown as THREE.InterleavedBufferAttribute).isInterleavedBufferAttribute) return undefined;
  const joints = si.array;
  const weights = sw.array;
  const n = mesh.geometry.getAttribute('position').count;
  // Per bone: matrixWorld * boneInverse, as applyBoneTransform multiplies them for each vertex.
  const boneCount = skeleton.bones.length;
  const bm = new Float64Array(boneCount * 16 + 32);
  const m = new THREE.Matrix4();
  for (let b = 0; b < boneCount; b++) {
    const bone = skeleton.bones[b];
    const inv = skeleton.boneInverses[b];
    if (!bone || !inv) return undefined;
    m.multiplyMatrices(bone.matrixWorld, inv);
    bm.set(m.elements, b * 16);
  }
  const B = mesh.bindMatrix.elements;
  const I = mesh.bindMatrixInverse.elements;
  bm.set(B, boneCount * 16);
  bm.set(I, boneCount * 16 + 16);
  // Framing and then culling ask for the same pose one after the other: reuse the last result
  // while every matrix it came from, and the arrays, are the same.
  const last = skinnedCache.get(mesh);
  if (last && last.pos === pos && last.joints === joints && last.weights === weights && sameNumbers(last.key, bm)) return last.out;
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const x = pos[i * 3]!, y = pos[i * 3 + 1]!, z = pos[i * 3 + 2]!;
    // _baseVector.set(x, y, z, 1).applyMatrix4(bindMatrix) (Vector4: no divide)
    const bx = B[0]! * x + B[4]! * y + B[8]! * z + B[12]!;
    const by = B[1]! * x + B[5]! * y + B[9]! * z + B[13]!;
    const bz = B[2]! * x + B[6]! * y + B[10]! * z + B[14]!;
    const bw = B[3]! * x + B[7]! * y + B[11]! * z + B[15]!;
    let tx = 0, ty = 0, tz = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[i * 4 + k]!;
      if (w === 0) continue;
      const j = joints[i * 4 + k]!;
      if (j >= boneCount) return undefined;
      const o = j * 16;
      // target.addScaledVector(_vector4.copy(base).applyMatrix4(bone matrix), weight)
      tx += (bm[o]! * bx + bm[o + 4]! * by + bm[o + 8]! * bz + bm[o + 12]! * bw) * w;
      ty += (bm[o + 1]! * bx + bm[o + 5]! * by + bm[o + 9]! * bz + bm[o + 13]! * bw) * w;
      tz += (bm[o + 2]! * bx + bm[o + 6]! * by + bm[o + 10]! * bz + bm[o + 14]! * bw) * w;
    }
    // target.applyMatrix4(bindMatrixInverse) (Vector3: with the divide)
    const d = 1 / (I[3]! * tx + I[7]! * ty + I[11]! * tz + I[15]!);
    out[i * 3] = (I[0]! * tx + I[4]! * ty + I[8]! * tz + I[12]!) * d;
    out[i * 3 + 1] = (I[1]! * tx + I[5]! * ty + I[9]! * tz + I[13]!) * d;
    out[i * 3 + 2] = (I[2]! * tx + I[6]! * ty + I[10]! * tz + I[14]!) * d;
  }
  skinnedCache.set(mesh, { key: bm, pos, joints, weights, out });
  return out;
}

/** The last skinned positions of each mesh and the matrices (bones, bind, inverse bind) they came from. */
const skinnedCache = new WeakMap<THREE.SkinnedMesh, { key: Float64Array; pos: ArrayLike<number>; joints: ArrayLike<number>; weights: ArrayLike<number>; out: Float64Array }>();

function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  // Object.is: a NaN matrix entry equals itself, and -0 is not +0 (the result could differ).
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Grows `box` by the points of `pos` transformed by `matrix` (or as they are). */
function expandByPoints(box: THREE.Box3, pos: ArrayLike<number>, matrix?: THREE.Matrix4): void {
  let minX = box.min.x, minY = box.min.y, minZ = box.min.z;
  let maxX = box.max.x, maxY = box.max.y, maxZ = box.max.z;
  const n = Math.floor(pos.length / 3);
  const e = matrix?.elements;
  for (let i = 0; i < n; i++) {
    let x = pos[i * 3]!, y = pos[i * 3 + 1]!, z = pos[i * 3 + 2]!;
    if (e) {
      // Vector3.applyMatrix4
      const w = 1 / (e[3]! * x + e[7]! * y + e[11]! * z + e[15]!);
      const wx = (e[0]! * x + e[4]! * y + e[8]! * z + e[12]!) * w;
      const wy = (e[1]! * x + e[5]! * y + e[9]! * z + e[13]!) * w;
      const wz = (e[2]! * x + e[6]! * y + e[10]! * z + e[14]!) * w;
      x = wx;
      y = wy;
      z = wz;
    }
    // Box3.expandByPoint: min.min(p), max.max(p)
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    minZ = Math.min(minZ, z);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
    maxZ = Math.max(maxZ, z);
  }
  box.min.set(minX, minY, minZ);
  box.max.set(maxX, maxY, maxZ);
}

/** `box.expandByObject(object, true)` for a mesh, without a Vector3 per vertex. */
export function expandByObjectPrecise(box: THREE.Box3, object: THREE.Object3D): THREE.Box3 {
  const mesh = object as THREE.Mesh;
  const pos = mesh.isMesh && object.children.length === 0 && !(mesh as THREE.InstancedMesh).isInstancedMesh && !(mesh as unknown as { isBatchedMesh?: boolean }).isBatchedMesh
    ? vertexPositions(mesh)
    : undefined;
  if (!pos) return box.expandByObject(object, true);
  object.updateWorldMatrix(false, false);
  expandByPoints(box, pos, object.matrixWorld);
  return box;
}

/**
 * A SkinnedMesh whose own bounds (frustum culling, ray picking) are computed over the typed
 * arrays; the result is the same as three.js's vertex-by-vertex computation.
 */
export class PreviewSkinnedMesh extends THREE.SkinnedMesh {
  override computeBoundingBox(): void {
    const pos = vertexPositions(this);
    if (!pos) return super.computeBoundingBox();
    this.boundingBox ??= new THREE.Box3();
    this.boundingBox.makeEmpty();
    expandByPoints(this.boundingBox, pos);
  }

  override computeBoundingSphere(): void {
    const pos = vertexPositions(this);
    if (!pos) return super.computeBoundingSphere();
    this.boundingSphere ??= new THREE.Sphere();
    // Sphere.makeEmpty() then Sphere.expandByPoint() for every vertex.
    let cx = 0, cy = 0, cz = 0, r = -1;
    const n = Math.floor(pos.length / 3);
    for (let i = 0; i < n; i++) {
      const x = pos[i * 3]!, y = pos[i * 3 + 1]!, z = pos[i * 3 + 2]!;
      if (r < 0) {
        cx = x;
        cy = y;
        cz = z;
        r = 0;
        continue;
      }
      const vx = x - cx, vy = y - cy, vz = z - cz;
      const lengthSq = vx * vx + vy * vy + vz * vz;
      if (lengthSq > r * r) {
        const length = Math.sqrt(lengthSq);
        const delta = (length - r) * 0.5;
        const f = delta / length;
        cx += vx * f;
        cy += vy * f;
        cz += vz * f;
        r += delta;
      }
    }
    this.boundingSphere.center.set(cx, cy, cz);
    this.boundingSphere.radius = r;
  }
}
