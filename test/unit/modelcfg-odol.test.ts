import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { formatById } from '../../shared/formats/registry.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { odolAnimatedScene, odolSources } from '../../shared/formats/p3d/modelcfg/index.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';
import { rotateAbout, type V3 as V } from '../helpers/rotate.ts';

function mul(a: readonly number[], b: readonly number[]): number[] {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return o;
}
/** Skinned positions as glTF draws them: sum of weight x world x inverseBind x position. */
function skinned(scene: Scene): Float32Array {
  const bones = scene.skeleton!.bones;
  const world: number[][] = [];
  bones.forEach((b, i) => (world[i] = b.parent >= 0 ? mul(world[b.parent]!, b.matrix) : b.matrix));
  const m = bones.map((b, i) => mul(world[i]!, b.inverseBind ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
  const mesh = scene.meshes[0]!;
  const out = new Float32Array(mesh.positions.length);
  for (let v = 0; v < mesh.positions.length / 3; v++) {
    const [x, y, z] = [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]!];
    for (let k = 0; k < 4; k++) {
      const w = mesh.skin!.weights[v * 4 + k]!;
      if (!w) continue;
      const j = m[mesh.skin!.joints[v * 4 + k]!]!;
      for (let a = 0; a < 3; a++) out[v * 3 + a]! += w * (j[a]! * x + j[4 + a]! * y + j[8 + a]! * z + j[12 + a]!);
    }
  }
  return out;
}

const trapFile = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');

describe.skipIf(!hasCorpus || !existsSync(trapFile))('ODOL compiled animations', () => {
  it('closes the bear trap: each shutter turns about its stored axis by its stored angle, unbound vertices stay', () => {
    const codec = formatById('p3d-odol');
    const doc = codec.decode(new Uint8Array(readFileSync(trapFile))) as OdolV4xDocument;
    expect(odolSources(doc).map((s) => s.name)).toEqual(['user']);
    const rest = codec.toScene(doc);
    const value = 0.7;
    const posed = odolAnimatedScene(rest, doc, 0, new Map([['user', value]]));
    const P = skinned(posed);
    const R = rest.meshes[0]!.positions;
    const refs = (doc.lods[0] as unknown as { vertexBoneRef: { data: Uint8Array } }).vertexBoneRef.data;
    const view = new DataView(refs.buffer, refs.byteOffset, refs.byteLength);
    const cls = doc.animations!.classes;
    const links = doc.animations!.animsToBones[0]!;
    let size = 0;
    for (let i = 0; i < R.length; i++) size = Math.max(size, Math.abs(R[i]!));
    const moved = [0, 0];
    for (let v = 0; v < R.length / 3; v++) {
      // Scene axes are P3D's with z negated.
      const p: V = [R[v * 3]!, R[v * 3 + 1]!, -R[v * 3 + 2]!];
      let want = p;
      if (view.getInt32(v * 12, true) > 0) {
        const bone = doc.lods[0]!.subSkeletonsToSkeleton[refs[v * 12 + 4]!]!;
        const ci = links.findIndex((l) => l.bone === bone);
        const axis = links[ci]!.axis as unknown as { axisPos: V; axisDir: V };
        want = rotateAbout(p, axis.axisPos, axis.axisDir, Number(cls[ci]!.params[1]) * value);
        moved[bone]!++;
      }
      const got: V = [P[v * 3]!, P[v * 3 + 1]!, -P[v * 3 + 2]!];
      for (let a = 0; a < 3; a++) expect(Math.abs(got[a]! - want[a]!)).toBeLessThanOrEqual(1e-5 * size + 1e-6);
    }
    expect(moved[0]).toBeGreaterThan(50);
    expect(moved[1]).toBeGreaterThan(50);
    // The sign of rotation, settled here (NOTES.md): the open trap lies flat and its jaws must close
    // upwards, over the base; the other sign would swing them down through the ground it lies on.
    let lowest = Infinity, highest = -Infinity;
    for (let v = 0; v < P.length / 3; v++) {
      lowest = Math.min(lowest, P[v * 3 + 1]!);
      highest = Math.max(highest, P[v * 3 + 1]!);
    }
    expect(lowest).toBeGreaterThan(-0.05);
    expect(highest).toBeGreaterThan(0.15);
    // One clip per source when not posed.
    const animated = odolAnimatedScene(rest, doc, 0);
    expect(animated.clips.map((c) => c.name)).toEqual(['user']);
    expect(animated.clips[0]!.tracks.map((t) => t.targetName).sort()).toEqual(['left_shutter', 'right_shutter']);
  });
});
