/** MLOD faces grouped by the paths they name: one grouping for the preview, the editors and the rules. */
import { describe, expect, it } from 'vitest';
import { mlodFaceGroups } from '../../shared/formats/p3d/mlod/face-groups.ts';
import type { MlodFaces } from '../../shared/formats/p3d/mlod/types.ts';

function faces(textureIndex: number[], materialIndex: number[], textures: string[], materials: string[]): MlodFaces {
  return { vertexCount: new Uint8Array(textureIndex.length).fill(3), textureIndex: Uint32Array.from(textureIndex), materialIndex: Uint32Array.from(materialIndex), textures, materials } as unknown as MlodFaces;
}

describe('mlodFaceGroups', () => {
  it('groups by paths in first-use order: a path listed twice is one group, an index past its table names ""', () => {
    const f = faces([0, 1, 2, 0, 9, 2], [0, 0, 0, 1, 0, 0], ['a.paa', 'b.paa', 'a.paa'], ['m.rvmat', 'n.rvmat']);
    const { groupOf, groups } = mlodFaceGroups(f);
    expect(groups).toEqual([
      { texture: 'a.paa', material: 'm.rvmat', faces: 3 },
      { texture: 'b.paa', material: 'm.rvmat', faces: 1 },
      { texture: 'a.paa', material: 'n.rvmat', faces: 1 },
      { texture: '', material: 'm.rvmat', faces: 1 },
    ]);
    expect([...groupOf]).toEqual([0, 1, 0, 2, 3, 0]);
  });

  it('faces left out by keep are in no group, and a group first used by a left-out face comes where its first kept face is', () => {
    const f = faces([1, 0, 1], [0, 0, 0], ['a.paa', 'b.paa'], ['']);
    const { groupOf, groups } = mlodFaceGroups(f, (i) => i !== 0);
    expect(groups.map((g) => [g.texture, g.faces])).toEqual([['a.paa', 1], ['b.paa', 1]]);
    expect([...groupOf]).toEqual([-1, 0, 1]);
  });
});
