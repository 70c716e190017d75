/**
 * The preview's typed-array bounds (renderer/viewport/bounds.ts) give exactly what three.js's
 * vertex-by-vertex computation gives: model boxes for framing, and a skinned mesh's own box and
 * sphere for culling and picking, in the bind pose and in an animated pose.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { expandByObjectPrecise, PreviewSkinnedMesh, vertexPositions } from '../../renderer/viewport/bounds.ts';
import { buildScene } from '../../renderer/viewport/scene-builder.ts';
import type { Scene } from '../../shared/scene/scene.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function skinnedScene(vertices: number): Scene {
  const r = rng(7);
  const positions = Float32Array.from({ length: vertices * 3 }, () => (r() - 0.5) * 20);
  const joints = new Uint16Array(vertices * 4);
  const weights = new Float32Array(vertices * 4);
  for (let v = 0; v < vertices; v++) {
    // 1-4 influences, some weights zero, not normalised (three.js does not normalise either).
    const k = 1 + (v % 4);
    for (let j = 0; j < k; j++) {
      joints[v * 4 + j] = Math.floor(r() * 3);
      weights[v * 4 + j] = j === 1 && v % 5 === 0 ? 0 : r();
    }
  }
  const indices = Uint32Array.from({ length: (vertices - 2) * 3 }, (_, i) => Math.floor(i / 3) + (i % 3));
  const rot = (a: number): number[] => new THREE.Matrix4().makeRotationZ(a).setPosition(1, 2, 0).toArray();
  const bones = [
    { name: 'root', parent: -1, matrix: rot(0.3) },
    { name: 'mid', parent: 0, matrix: rot(-0.7) },
    { name: 'tip', parent: 1, matrix: new THREE.Matrix4().makeScale(1.5, 1, 0.5).setPosition(0, 3, 1).toArray() },
  ];
  return {
    nodes: [
      { name: 'skinned', parent: -1, matrix: new THREE.Matrix4().makeRotationX(-Math.PI / 2).toArray(), mesh: 0 },
      { name: 'plain', parent: -1, matrix: new THREE.Matrix4().makeRotationY(0.4).setPosition(5, 0, -2).toArray(), mesh: 1 },
    ],
    meshes: [
      { name: 'skinned', positions, uvs: [], indices, groups: [], skin: { joints, weights } },
      { name: 'plain', positions: positions.slice(0, 300), uvs: [], indices: Uint32Array.from([0, 1, 2, 3, 4, 5]), groups: [] },
    ],
    materials: [],
    skeleton: { bones },
    clips: [],
  };
}

const boxOf = (b: THREE.Box3) => [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z];

describe('preview bounds', () => {
  const built = buildScene(skinnedScene(2000), { wireframe: false });
  const skinned = built.meshes.find((m) => m.object.name === 'skinned')!.object;
  const plain = built.meshes.find((m) => m.object.name === 'plain')!.object;

  it('builds skinned meshes as PreviewSkinnedMesh', () => {
    expect(skinned).toBeInstanceOf(PreviewSkinnedMesh);
    expect(skinned).toBeInstanceOf(THREE.SkinnedMesh);
    expect(plain).not.toBeInstanceOf(THREE.SkinnedMesh);
  });

  const check = () => {
    built.root.updateMatrixWorld(true);
    for (const o of [skinned, plain]) {
      expect(boxOf(expandByObjectPrecise(new THREE.Box3(), o))).toEqual(boxOf(new THREE.Box3().expandByObject(o, true)));
    }
    const s = skinned as PreviewSkinnedMesh;
    s.computeBoundingSphere();
    s.computeBoundingBox();
    const fast = { c: s.boundingSphere!.center.toArray(), r: s.boundingSphere!.radius, b: boxOf(s.boundingBox!) };
    THREE.SkinnedMesh.prototype.computeBoundingSphere.call(s);
    THREE.SkinnedMesh.prototype.computeBoundingBox.call(s);
    expect(fast).toEqual({ c: s.boundingSphere!.center.toArray(), r: s.boundingSphere!.radius, b: boxOf(s.boundingBox!) });
  };

  it('gives the same boxes and sphere as three.js in the bind pose', check);

  it('gives the same boxes and sphere as three.js in a moved pose, under a turned root', () => {
    built.root.quaternion.setFromAxisAngle(new THREE.Vector3(1, 0, 0), -Math.PI / 2);
    built.bones[1]!.rotation.z += 0.9;
    built.bones[2]!.position.x -= 2;
    check();
  });

  it('leaves meshes it does not cover to three.js (morph targets)', () => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));
    g.morphAttributes.position = [new THREE.BufferAttribute(Float32Array.from([0, 0, 5, 1, 0, 5, 0, 1, 5]), 3)];
    const m = new THREE.Mesh(g);
    m.updateMorphTargets();
    m.morphTargetInfluences![0] = 0.5;
    expect(vertexPositions(m)).toBeUndefined();
    expect(boxOf(expandByObjectPrecise(new THREE.Box3(), m))).toEqual(boxOf(new THREE.Box3().expandByObject(m, true)));
    expect(expandByObjectPrecise(new THREE.Box3(), m).max.z).toBe(2.5);
  });
});
