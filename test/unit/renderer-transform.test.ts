import { describe, expect, it } from 'vitest';
import { compose, decompose, eulerDegToQuat, quatToEulerDeg } from '../../renderer/lib/transform.ts';

describe('transform views', () => {
  it('turns a quaternion into Euler degrees and back', () => {
    // 90 degrees about Y.
    const q = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
    expect(quatToEulerDeg(q)).toEqual([0, 90, 0]);
    const back = eulerDegToQuat([0, 90, 0]);
    back.forEach((v, i) => expect(v).toBeCloseTo(q[i]!, 6));
    expect(eulerDegToQuat([0, 0, 0])).toEqual([0, 0, 0, 1]);
  });

  it('splits a matrix into position, rotation and size and rebuilds it', () => {
    const m = compose({ position: [1, 2, 3], rotation: [0, 0, 90], scale: [2, 0.5, 1] });
    // Translation lives in 12..14 (OpenGL / three.js layout, as LODka stores it).
    expect(m.slice(12, 15)).toEqual([1, 2, 3]);
    const t = decompose(m);
    expect(t.position).toEqual([1, 2, 3]);
    expect(t.rotation).toEqual([0, 0, 90]);
    t.scale.forEach((v, i) => expect(v).toBeCloseTo([2, 0.5, 1][i]!, 5));
    expect(decompose([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toEqual({ position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] });
  });
});
