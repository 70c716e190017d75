/**
 * The preview geometry keeps only the vertices its triangles use (faces a codec left out of the
 * preview, such as P3D proxy placeholders, must not widen what the camera frames).
 */
import { describe, expect, it } from 'vitest';
import { usedVerticesOnly } from '../../renderer/viewport/scene-builder.ts';
import type { SceneMesh } from '../../shared/scene/scene.ts';

const mesh = (): SceneMesh => ({
  name: 'm',
  // Vertices 0..2 drawn; 3..5 a far-away triangle no index uses.
  positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 50, 0, 0, 60, 0, 0, 50, 10, 0),
  normals: new Float32Array(18).fill(1),
  uvs: [Float32Array.of(0, 0, 1, 0, 0, 1, 9, 9, 9, 9, 9, 9)],
  indices: Uint32Array.of(2, 1, 0),
  groups: [{ start: 0, count: 3, material: 0 }],
  skin: { joints: Uint16Array.from({ length: 24 }, (_, i) => i), weights: new Float32Array(24).fill(0.25) },
});

describe('usedVerticesOnly', () => {
  it('drops unused vertices and renumbers the triangles', () => {
    const m = usedVerticesOnly(mesh());
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(m.indices)).toEqual([2, 1, 0]);
    expect(m.normals).toHaveLength(9);
    expect(Array.from(m.uvs[0]!)).toEqual([0, 0, 1, 0, 0, 1]);
    expect(Array.from(m.skin!.joints)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
  it('returns the mesh itself when every vertex is used', () => {
    const all = { ...mesh(), indices: Uint32Array.of(0, 1, 2, 3, 4, 5) };
    expect(usedVerticesOnly(all)).toBe(all);
  });
  it('keeps indices past the vertex list past it (the builder drops those triangles)', () => {
    const m = usedVerticesOnly({ ...mesh(), indices: Uint32Array.of(0, 1, 2, 0, 1, 99) });
    expect(m.indices[5]).toBeGreaterThanOrEqual(m.positions.length / 3);
  });
});
