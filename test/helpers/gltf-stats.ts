/**
 * What a glTF shows, measured independently of the importer: triangles drawn, the world-space
 * bounding box of the rest pose (skinned meshes posed by linear blend skinning, as glTF draws
 * them), joint count and animation durations.
 */
import { WebIO, type Document, type Node } from '@gltf-transform/core';
import { expect } from 'vitest';

export interface GltfStats {
  triangles: number;
  min: number[];
  max: number[];
  joints: number;
  /** Nodes of the default scene. */
  nodes: number;
  animations: Map<string, number>;
}

function mul(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return o;
}

export async function readDoc(bytes: Uint8Array): Promise<Document> {
  return new WebIO().readBinary(bytes);
}

export function gltfStats(doc: Document): GltfStats {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  let triangles = 0;
  let nodes = 0;
  const joints = new Set<Node>();
  const visit = (n: Node): void => {
    nodes++;
    const mesh = n.getMesh();
    if (mesh) {
      const skin = n.getSkin();
      const world = n.getWorldMatrix();
      const mats = skin ? skin.listJoints().map((j, k) => mul(j.getWorldMatrix(), skin.getInverseBindMatrices()!.getElement(k, []))) : [];
      if (skin) for (const j of skin.listJoints()) joints.add(j);
      for (const p of mesh.listPrimitives()) {
        const pos = p.getAttribute('POSITION')!;
        if (p.getMode() === 4) triangles += (p.getIndices()?.getCount() ?? pos.getCount()) / 3;
        else continue;
        const J = p.getAttribute('JOINTS_0'), W = p.getAttribute('WEIGHTS_0');
        const v: number[] = [], jj: number[] = [], ww: number[] = [];
        // Only vertices a triangle uses: unreferenced ones are not drawn.
        const idx = p.getIndices();
        const used: number[] = idx ? [...new Set<number>(Array.from(idx.getArray()!))] : Array.from({ length: pos.getCount() }, (_, i) => i);
        for (const i of used) {
          pos.getElement(i, v);
          let m: number[] = [...world];
          if (skin && J && W) {
            J.getElement(i, jj); W.getElement(i, ww);
            m = new Array<number>(16).fill(0);
            for (let k = 0; k < 4; k++) for (let e = 0; e < 16; e++) m[e]! += ww[k]! * mats[jj[k]!]![e]!;
          }
          for (let r = 0; r < 3; r++) {
            const x = m[r]! * v[0]! + m[4 + r]! * v[1]! + m[8 + r]! * v[2]! + m[12 + r]!;
            if (x < min[r]!) min[r] = x;
            if (x > max[r]!) max[r] = x;
          }
        }
      }
    }
    for (const c of n.listChildren()) visit(c);
  };
  for (const n of scene?.listChildren() ?? []) visit(n);
  const animations = new Map<string, number>();
  for (const a of root.listAnimations()) {
    let d = 0;
    for (const s of a.listSamplers()) {
      const t = s.getInput()!;
      d = Math.max(d, t.getScalar(t.getCount() - 1));
    }
    animations.set(a.getName(), d);
  }
  return { triangles, min, max, joints: joints.size, nodes, animations };
}

/** Same triangles, world box within 1e-4 of its largest side, same joint count. */
export function expectSameStats(a: GltfStats, b: GltfStats, what: string): void {
  expect(b.triangles, `${what}: triangles`).toBe(a.triangles);
  if (a.triangles > 0) {
    const size = Math.max(...[0, 1, 2].map((k) => a.max[k]! - a.min[k]!), 1e-6);
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(b.min[k]! - a.min[k]!) / size, `${what}: min[${k}] ${b.min[k]} vs ${a.min[k]}`).toBeLessThan(1e-4);
      expect(Math.abs(b.max[k]! - a.max[k]!) / size, `${what}: max[${k}] ${b.max[k]} vs ${a.max[k]}`).toBeLessThan(1e-4);
    }
  }
  expect(b.joints, `${what}: joints`).toBe(a.joints);
}

