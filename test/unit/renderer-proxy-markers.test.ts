/**
 * Proxy markers ride on their bones: a proxy that names a skeleton bone is drawn, labelled and
 * picked where that bone has moved it while an animation plays (a character's binoculars in its
 * left hand), and a proxy without a bone stays where the file puts it.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { ProxyMarkers } from '../../renderer/viewport/proxy-markers.ts';
import type { SceneProxy } from '../../shared/scene/scene.ts';

const at = (x: number, y: number, z: number) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
/** A small placeholder triangle around (x, y, z), as the file stores one per proxy. */
const tri = (x: number, y: number, z: number) => Float32Array.of(x - 0.1, y - 0.1, z, x + 0.1, y - 0.1, z, x, y + 0.1, z);

describe('proxy markers on an animated skeleton', () => {
  const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100);
  // Off every axis, so no placeholder triangle is seen edge-on.
  camera.position.set(3, 4, 8);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld(true);
  const size = 200;
  /** The canvas pixel of world point p. */
  const pixel = (p: THREE.Vector3) => {
    const v = p.clone().project(camera);
    return [((v.x + 1) / 2) * size, ((1 - v.y) / 2) * size] as const;
  };
  const inHand: SceneProxy = { name: '\\ca\\weapons\\binocular', matrix: at(1, 0, 0), placeholder: tri(1, 0, 0), bone: 1 };
  const loose: SceneProxy = { name: '\\ca\\misc\\flag', matrix: at(-1, -1, 0), placeholder: tri(-1, -1, 0) };
  // The hand bone has turned a quarter turn about z (about the model origin): (1, 0, 0) -> (0, 1, 0).
  const turned = new THREE.Matrix4().makeRotationZ(Math.PI / 2);
  const motion = (bone: number) => (bone === 1 ? turned : bone === 0 ? new THREE.Matrix4() : undefined);

  it('a proxy on a bone is picked where the bone moved it; one without stays', () => {
    const markers = new ProxyMarkers([inHand, loose], 2, {} as HTMLElement, { markers: false, faces: true, select: () => {} });
    const root = new THREE.Matrix4();
    markers.update(root, camera, size, size, motion);
    const pick = (p: THREE.Vector3) => markers.pick(root, camera, ...pixel(p), size, size);
    expect(pick(new THREE.Vector3(0, 1, 0))).toBe(inHand);
    expect(pick(new THREE.Vector3(1, 0, 0))).toBeUndefined();
    expect(pick(new THREE.Vector3(-1, -1, 0))).toBe(loose);
    // Back at rest (no animation): where the file puts it.
    markers.update(root, camera, size, size);
    expect(pick(new THREE.Vector3(1, 0, 0))).toBe(inHand);
    expect(pick(new THREE.Vector3(0, 1, 0))).toBeUndefined();
    markers.dispose();
  });

  it('under an up-axis root the bone motion (world space) moves the proxy the same way', () => {
    const markers = new ProxyMarkers([inHand], 2, {} as HTMLElement, { markers: false, faces: true, select: () => {} });
    // A Z-up model turned Y-up: the root is a quarter turn about x; the bone's motion is in world space.
    const root = new THREE.Matrix4().makeRotationX(-Math.PI / 2);
    const rest = new THREE.Vector3(1, 0, 0).applyMatrix4(root);
    markers.update(root, camera, size, size, motion);
    const moved = rest.clone().applyMatrix4(turned);
    expect(markers.pick(root, camera, ...pixel(moved), size, size)).toBe(inHand);
    expect(markers.pick(root, camera, ...pixel(rest), size, size)).toBeUndefined();
    markers.dispose();
  });
});
