import { basename } from 'node:path';
import { expect } from 'vitest';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { readBytes } from './corpus.ts';

/**
 * Counts triangles wound counter-clockwise around their stored vertex normals versus clockwise,
 * over a whole scene: a codec whose scene mapping mirrors an axis without flipping the winding
 * shows up as mostly clockwise.
 */
export function windingAgreement(scene: { meshes: { positions: Float32Array; normals?: Float32Array; indices: Uint32Array }[] }): [ccw: number, cw: number] {
  let ccw = 0, cw = 0;
  for (const m of scene.meshes) {
    const P = m.positions, N = m.normals, I = m.indices;
    if (!N) continue;
    for (let t = 0; t + 2 < I.length; t += 3) {
      const a = I[t]! * 3, b = I[t + 1]! * 3, c = I[t + 2]! * 3;
      const u = [P[b]! - P[a]!, P[b + 1]! - P[a + 1]!, P[b + 2]! - P[a + 2]!];
      const v = [P[c]! - P[a]!, P[c + 1]! - P[a + 1]!, P[c + 2]! - P[a + 2]!];
      const n = [0, 1, 2].map((k) => N[a + k]! + N[b + k]! + N[c + k]!);
      const d = (u[1]! * v[2]! - u[2]! * v[1]!) * n[0]! + (u[2]! * v[0]! - u[0]! * v[2]!) * n[1]! + (u[0]! * v[1]! - u[1]! * v[0]!) * n[2]!;
      if (d > 0) ccw++;
      else if (d < 0) cw++;
    }
  }
  return [ccw, cw];
}

/** Every file's scene is wound counter-clockwise around its normals, all but 1% of triangles. */
export function expectCounterClockwise(codec: FormatCodec, files: readonly string[]): void {
  for (const file of files) {
    const [ccw, cw] = windingAgreement(codec.toScene(codec.decode(readBytes(file))));
    expect(cw, basename(file)).toBeLessThanOrEqual(Math.ceil((ccw + cw) * 0.01));
  }
}
