/**
 * A Grimrock item bound to a bone follows that bone while an attached animation plays, in the
 * preview (renderer/viewport/scene-builder.ts, the objects and poses the viewport draws) and in
 * the glTF export read back by three.js's GLTFLoader (what `lodsmith convert --anim` writes).
 *
 * A skinned entity's vertices are in model space (the bones' invRestMatrix maps model space to
 * bone space), whatever node holds the entity; the game's skeleton_warrior_axe keeps its great
 * axe, a child of the hand_r node, at the hand that way. Seen from its bone, a vertex bound only
 * to that bone must therefore sit at invRestMatrix x (the file's position) on every frame.
 */
import * as THREE from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { vertexArray } from '../../scripts/fixtures/grimrock.ts';
import { applyClip, buildScene, type BuiltScene } from '../../renderer/viewport/scene-builder.ts';
import { sceneToGltf, writeGlb } from '../../shared/export/gltf.ts';
import { grimrockAnimationCodec, grimrockModelCodec } from '../../shared/formats/grimrock/index.ts';
import { mat4x3ToScene } from '../../shared/formats/grimrock/scene.ts';
import type { GrimrockAnimation, GrimrockModel, GrimrockNode, VertexArray } from '../../shared/formats/grimrock/schema.ts';
import { bindClips, modelGltfOptions } from '../../shared/scene/attach.ts';
import type { AnimationClip, Scene } from '../../shared/scene/scene.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

const f = Math.fround;

/** What the test looks at: one skinned mesh, one bone, and the vertices bound only to it. */
interface Case {
  model: Scene;
  anim: Scene;
  mesh: string;
  bone: string;
  /** Vertex indices to follow, with their position in the bone's space (file data, scene axes). */
  expected: { v: number; p: THREE.Vector3 }[];
}

function unused(): VertexArray {
  return { dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) };
}

/**
 * root -> arm (1 up) -> item (0.5 along x, turned 90 degrees about Y): the item node holds a
 * small box bound to `arm`, its vertices in model space around the item's place (0.5, 1, 0).
 * The animation swings `arm` about Z over 10 frames.
 */
function generated(): { model: GrimrockModel; anim: GrimrockAnimation } {
  const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const corners: number[][] = [];
  for (const x of [-0.1, 0.1]) for (const y of [-0.1, 0.1]) for (const z of [-0.1, 0.1]) corners.push([f(0.5 + x), f(1 + y), f(z)]);
  const n = corners.length;
  const arrays: VertexArray[] = Array.from({ length: 15 }, unused);
  arrays[0] = vertexArray(3, 3, 12, n, (v, j) => corners[v]![j]!);
  arrays[13] = vertexArray(2, 4, 16, n, () => 0);
  arrays[14] = vertexArray(3, 4, 16, n, (_v, j) => (j === 0 ? 1 : 0));
  const indices = [0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7, 0, 4, 1, 1, 4, 5, 2, 3, 6, 3, 7, 6, 0, 2, 4, 2, 6, 4, 1, 5, 3, 3, 5, 7];
  const item: GrimrockNode = {
    // Turned 90 degrees about Y: base X = (0, 0, -1), base Z = (1, 0, 0).
    name: 'item', parent: 1, type: 0, localToParent: [0, 0, -1, 0, 1, 0, 1, 0, 0, 0.5, 0, 0],
    mesh: {
      meshData: {
        magic: 'MESH', version: 2, numVertices: n, vertexArrays: arrays, numIndices: indices.length, indices: Int32Array.from(indices),
        numSegments: 1, segments: [{ material: 'steel', primitiveType: 2, firstIndex: 0, count: indices.length / 3 }],
        boundCenter: [0.5, 1, 0], boundRadius: f(0.2), boundMin: [f(0.4), f(0.9), f(-0.1)], boundMax: [f(0.6), f(1.1), f(0.1)],
      },
      numBones: 1,
      bones: [{ boneNodeIndex: 1, invRestMatrix: [...I, 0, -1, 0] }],
      emissiveColor: [0, 0, 0], castShadow: 1,
    },
  };
  const model: GrimrockModel = {
    magic: 'MDL1', version: 2, numNodes: 3,
    nodes: [{ name: 'root', parent: -1, type: -1, localToParent: [...I, 0, 0, 0] }, { name: 'arm', parent: 0, type: -1, localToParent: [...I, 0, 1, 0] }, item],
  };
  const frames = 10;
  const anim: GrimrockAnimation = {
    magic: 'ANIM', version: 2, name: 'swing', framesPerSecond: 10, numFrames: frames, numItems: 1,
    items: [{
      node: 'arm',
      positions: Float32Array.from({ length: frames * 3 }, (_, k) => (k % 3 === 1 ? 1 : 0)),
      rotations: Float32Array.from({ length: frames * 4 }, (_, k) => {
        const a = (Math.floor(k / 4) / (frames - 1)) * (Math.PI / 2);
        return k % 4 === 2 ? f(Math.sin(a / 2)) : k % 4 === 3 ? f(Math.cos(a / 2)) : 0;
      }),
      scales: Float32Array.from([1, 1, 1]),
    }],
  };
  return { model, anim };
}

/** The case for `doc`'s skinned mesh on node `meshNode`, bound to node `boneNode`: every vertex whose weight is all on that bone. */
function caseOf(doc: GrimrockModel, anim: GrimrockAnimation, meshNode: string, boneNode: string, maxVertices = 40): Case {
  const node = doc.nodes.find((n) => n.name === meshNode)!;
  const entity = node.mesh!;
  const slot = entity.bones.findIndex((b) => doc.nodes[b.boneNodeIndex]?.name === boneNode);
  expect(slot, `${meshNode} is bound to ${boneNode}`).toBeGreaterThanOrEqual(0);
  const inv = new THREE.Matrix4().fromArray(mat4x3ToScene(entity.bones[slot]!.invRestMatrix));
  const va = entity.meshData.vertexArrays;
  const pos = va[0]!.data as Float32Array;
  const bi = va[13]!.data as Int32Array | Uint8Array;
  const bw = va[14]!.data as Float32Array | Uint8Array;
  const full = va[14]!.dataType === 0 ? 255 : 1;
  const expected: Case['expected'] = [];
  const n = entity.meshData.numVertices;
  const step = Math.max(1, Math.floor(n / maxVertices));
  for (let v = 0; v < n; v += step) {
    if (bi[v * 4] !== slot || Math.abs(bw[v * 4]! - full) > 1e-6) continue;
    // The scene is the file mirrored across Z (right-handed).
    const p = new THREE.Vector3(pos[v * 3]!, pos[v * 3 + 1]!, -pos[v * 3 + 2]!).applyMatrix4(inv);
    expected.push({ v, p });
  }
  expect(expected.length).toBeGreaterThan(0);
  return {
    model: grimrockModelCodec.toScene(doc), anim: grimrockAnimationCodec.toScene(anim), mesh: meshNode, bone: boneNode, expected,
  };
}

function skinnedMesh(root: THREE.Object3D, name: string): THREE.SkinnedMesh {
  let found: THREE.SkinnedMesh | undefined;
  root.traverse((o) => {
    if ((o as THREE.SkinnedMesh).isSkinnedMesh && o.name === name) found = o as THREE.SkinnedMesh;
  });
  expect(found, `skinned mesh ${name}`).toBeDefined();
  return found!;
}

/** Largest distance, over the case's vertices, between where the mesh draws a vertex (in its bone's space) and where the file puts it. */
function worstOffset(mesh: THREE.SkinnedMesh, bone: THREE.Object3D, c: Case): number {
  const toBone = bone.matrixWorld.clone().invert();
  const p = new THREE.Vector3();
  let worst = 0;
  for (const { v, p: want } of c.expected) {
    mesh.getVertexPosition(v, p);
    p.applyMatrix4(mesh.matrixWorld).applyMatrix4(toBone);
    worst = Math.max(worst, p.distanceTo(want));
  }
  return worst;
}

/** Times to look at: the first frame, two in between, the last frame. */
function times(clip: AnimationClip): number[] {
  return [0, clip.duration / 3, (2 * clip.duration) / 3, clip.duration];
}

async function exported(c: Case): Promise<GLTF> {
  const { document } = sceneToGltf(c.model, modelGltfOptions(c.model, c.anim.clips));
  const glb = await writeGlb(document);
  return new Promise((resolve, reject) => new GLTFLoader().parse(glb.slice().buffer, '', resolve, reject));
}

async function check(c: Case): Promise<void> {
  const clips = bindClips(c.model, c.anim.clips);
  expect(clips.length).toBe(1);
  const clip = clips[0]!;
  // The preview: the scene the viewport builds, posed as its timeline poses it.
  const built: BuiltScene = buildScene({ ...c.model, clips: [...c.model.clips, ...clips] }, { wireframe: false, shading: 'solid' });
  const mesh = skinnedMesh(built.root, c.mesh);
  const bone = built.bones.find((b) => b.name === c.bone)!;
  applyClip(built, undefined, 0);
  expect(worstOffset(mesh, bone, c), 'preview, no animation').toBeLessThan(1e-4);
  const boneAt: number[][] = [];
  for (const t of times(clip)) {
    applyClip(built, clip, t);
    boneAt.push(bone.matrixWorld.toArray());
    expect(worstOffset(mesh, bone, c), `preview at ${t.toFixed(3)} s`).toBeLessThan(1e-4);
  }
  // The bone does move: the check above is about following it, not about a still pose.
  const moved = Math.max(...boneAt.map((m) => Math.max(...m.map((v, k) => Math.abs(v - boneAt[0]![k]!)))));
  expect(moved).toBeGreaterThan(0.01);
  // The glTF export, played by three.js.
  const gltf = await exported(c);
  const gMesh = skinnedMesh(gltf.scene, c.mesh);
  const gBone = gMesh.skeleton.bones.find((b) => b.name === c.bone)!;
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(gltf.animations[0]!);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  for (const t of times(clip)) {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    expect(worstOffset(gMesh, gBone, c), `glTF at ${t.toFixed(3)} s`).toBeLessThan(1e-3);
  }
}

describe('a Grimrock item bound to a bone stays at that bone while an animation plays', () => {
  it('generated: a box on a node under the arm, bound to the arm, through a 90 degree swing', async () => {
    const g = generated();
    const doc = grimrockModelCodec.decode(grimrockModelCodec.encode(g.model));
    const anim = grimrockAnimationCodec.decode(grimrockAnimationCodec.encode(g.anim));
    const c = caseOf(doc, anim, 'item', 'arm');
    // The box is where the file puts it (around (0.5, 1, 0)), not a second item transform away.
    const built = buildScene(c.model, { wireframe: false, shading: 'solid' });
    applyClip(built, undefined, 0);
    const box = new THREE.Box3().setFromObject(skinnedMesh(built.root, 'item'), true);
    expect(box.getCenter(new THREE.Vector3()).distanceTo(new THREE.Vector3(0.5, 1, 0))).toBeLessThan(1e-4);
    await check(c);
  });

  it('a skinned entity at the end of a 100 000-node chain: its node space is found without recursion', () => {
    const g = generated().model;
    const item = g.nodes[2]!;
    const chain: GrimrockNode[] = Array.from({ length: 100_000 }, (_, i) => ({ name: `n${i}`, parent: i === 0 ? 1 : i + 2, type: -1, localToParent: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.001, 0] }));
    const doc: GrimrockModel = { ...g, nodes: [g.nodes[0]!, g.nodes[1]!, ...chain.map((n, i) => ({ ...n, parent: i === 0 ? 1 : i + 1 })), { ...item, parent: chain.length + 1 }] };
    doc.numNodes = doc.nodes.length;
    const scene = grimrockModelCodec.toScene(doc);
    const mesh = scene.meshes[0]!;
    // The item's node is 1 + 100 units up (the arm, then the chain) and 0.5 along x; the box's
    // first corner is at (0.4, 0.9, -0.1) in model space, so 0.9 - 101 in y in the node's space.
    expect(mesh.positions[1]).toBeCloseTo(0.9 - 101, 3);
  });

  const model = corpusFiles('grimrock_model').find((p) => p.endsWith('skeleton_warrior_axe.model'));
  const anims = corpusFiles('grimrock_animation').filter((p) => /skeleton_warrior_axe_(attack|hit_back|turn_left)\.animation$/.test(p));
  for (const file of anims.length ? anims : ['(corpus absent)']) {
    it.skipIf(!hasCorpus || !model || !anims.length)(`skeleton_warrior_axe: the great axe stays in the right hand (${file.replace(/^.*__/, '')})`, async () => {
      const doc = grimrockModelCodec.decode(readBytes(model!));
      const anim = grimrockAnimationCodec.decode(readBytes(file));
      await check(caseOf(doc, anim, 'great_axe', 'hand_r'));
    });
  }
});
