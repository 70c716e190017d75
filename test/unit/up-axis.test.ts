/**
 * The up-axis helpers: the root rotation that stands Z-up data upright, and the guess LODka makes
 * from a model's shape (its files do not say which way is up).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { emptyScene, type Mat4, type Scene } from '../../shared/scene/scene.ts';
import { guessUpAxis, upAxisMatrix, upAxisQuaternion } from '../../shared/scene/up-axis.ts';
import { corpusDir, readBytes } from '../helpers/corpus.ts';

const apply = (m: Mat4, v: [number, number, number]): number[] =>
  [0, 1, 2].map((r) => m[r]! * v[0] + m[4 + r]! * v[1] + m[8 + r]! * v[2] + m[12 + r]!);

/** Rotates v by an xyzw quaternion (q v q*). */
function rotate(q: [number, number, number, number], v: [number, number, number]): number[] {
  const [x, y, z, w] = q;
  const [vx, vy, vz] = v;
  // t = 2 q.xyz x v; v' = v + w t + q.xyz x t
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

/** A scene with one box mesh of the given size, centred on the origin. */
function boxScene(sx: number, sy: number, sz: number): Scene {
  const s = emptyScene();
  const p: number[] = [];
  for (const x of [-sx / 2, sx / 2]) for (const y of [-sy / 2, sy / 2]) for (const z of [-sz / 2, sz / 2]) p.push(x, y, z);
  s.meshes.push({ name: 'box', positions: new Float32Array(p), uvs: [], indices: new Uint32Array([0, 1, 2]), groups: [] });
  s.nodes.push({ name: 'box', parent: -1, matrix: upAxisMatrix('y'), mesh: 0 });
  return s;
}

const close = (a: number[], b: number[]): void => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 12));

describe('upAxisMatrix / upAxisQuaternion', () => {
  it("'y' is the identity", () => {
    expect(upAxisMatrix('y')).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(upAxisQuaternion('y')).toEqual([0, 0, 0, 1]);
  });

  it("'z' turns +Z into +Y and +Y into -Z, keeping X (right-handed, -90 degrees about X)", () => {
    const m = upAxisMatrix('z');
    close(apply(m, [0, 0, 1]), [0, 1, 0]);
    close(apply(m, [0, 1, 0]), [0, 0, -1]);
    close(apply(m, [1, 0, 0]), [1, 0, 0]);
    // A proper rotation: determinant +1 (no mirroring).
    const det = m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
    expect(det).toBe(1);
  });

  it('the quaternion is the same rotation as the matrix', () => {
    const q = upAxisQuaternion('z');
    for (const v of [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0.3, -2, 5]] as [number, number, number][]) close(rotate(q, v), apply(upAxisMatrix('z'), v));
    expect(Math.hypot(...q)).toBeCloseTo(1, 12);
  });
});

describe('guessUpAxis', () => {
  it('guesses z for a model much taller along Z than along Y', () => {
    expect(guessUpAxis(boxScene(1, 0.5, 5))).toBe('z');
  });

  it('guesses y for the same model standing along Y', () => {
    expect(guessUpAxis(boxScene(1, 5, 0.5))).toBe('y');
  });

  it('guesses y for flat and compact models, and for nothing at all', () => {
    expect(guessUpAxis(boxScene(10, 0.1, 10))).toBe('y'); // a floor tile: Z no longer than X
    expect(guessUpAxis(boxScene(1, 1, 1))).toBe('y');
    expect(guessUpAxis(boxScene(1, 1, 1.5))).toBe('y'); // taller along Z, but not clearly
    expect(guessUpAxis(emptyScene())).toBe('y');
  });

  it('uses the bind-pose bones when there is no geometry', () => {
    const s = emptyScene();
    const at = (z: number): Mat4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, 0.1, z, 1];
    s.skeleton = { bones: [{ name: 'hips', parent: -1, matrix: at(0) }, { name: 'spine', parent: 0, matrix: at(3) }, { name: 'head', parent: 1, matrix: at(3) }] };
    expect(guessUpAxis(s)).toBe('z');
    // A damaged parent link (a later bone) does not loop or throw.
    s.skeleton.bones[0]!.parent = 2;
    expect(guessUpAxis(s)).toBe('z');
  });

  it('prefers the scene bounds when the codec filled them, and ignores non-finite numbers', () => {
    const s = boxScene(1, 1, 1);
    s.bounds = { min: [0, 0, 0], max: [1, 1, 8] };
    expect(guessUpAxis(s)).toBe('z');
    s.bounds = { min: [0, 0, 0], max: [Number.NaN, 1, 8] };
    expect(guessUpAxis(s)).toBe('y');
  });
});

describe('LODka scenes carry the guess', () => {
  it('the generated sample stays Y-up', () => {
    const scene = lodkaCodec.toScene(lodkaCodec.decode(lodkaCodec.encode(buildSampleLod())));
    expect(scene.upAxis ?? 'y').toBe('y');
  });

  const trinity = join(corpusDir, 'lodka', 'xtreme3d__xtreme3d__TRINITYrage.lod');
  it.skipIf(!existsSync(trinity))('the corpus TRINITYrage (a character 73 units tall along Z) guesses Z-up; its bytes are untouched', () => {
    const bytes = readBytes(trinity);
    const doc = lodkaCodec.decode(bytes);
    const scene = lodkaCodec.toScene(doc);
    expect(scene.upAxis).toBe('z');
    expect(guessUpAxis(scene)).toBe('z');
    expect(Buffer.compare(Buffer.from(lodkaCodec.encode(doc)), Buffer.from(bytes))).toBe(0);
  });
});
