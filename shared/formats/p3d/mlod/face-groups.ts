import type { MlodFaces } from './types.ts';

/** An MLOD LOD's faces grouped by the (texture, material) paths they name. */
export interface MlodFaceGroups {
  /** Per face: the index of its group in `groups`, or -1 for a face left out. */
  groupOf: Int32Array;
  /** The groups in the order of their first face, with how many faces each has. */
  groups: { texture: string; material: string; faces: number }[];
}

/**
 * Groups faces by the texture and material paths they name: the preview draws a group with one
 * material, the editors list a group as one row, the modding rules count its faces. Faces name
 * the paths by two table indices, so a face costs a number's look-up (the last face's pair
 * first: faces of one group are mostly in runs); the paths of a pair are joined and looked up
 * once, where a table may list one path twice. An index past its table names ''. `keep(i)` false
 * leaves face i out of every group (the preview's faces it cannot draw).
 */
export function mlodFaceGroups(f: MlodFaces, keep?: (face: number) => boolean): MlodFaceGroups {
  const n = f.vertexCount.length;
  const nt = f.textures.length;
  const nm = f.materials.length;
  const groupOf = new Int32Array(n).fill(-1);
  const groups: MlodFaceGroups['groups'] = [];
  const byPair = new Map<number, number>();
  const byPaths = new Map<string, number>();
  let lastPair = -1;
  let lastGroup = -1;
  for (let i = 0; i < n; i++) {
    if (keep && !keep(i)) continue;
    const t = Math.min(f.textureIndex[i]!, nt);
    const m = Math.min(f.materialIndex[i]!, nm);
    const pair = t * (nm + 1) + m;
    let g = pair === lastPair ? lastGroup : byPair.get(pair);
    if (g === undefined) {
      const texture = f.textures[t] ?? '';
      const material = f.materials[m] ?? '';
      const key = `${texture}\u0000${material}`;
      g = byPaths.get(key);
      if (g === undefined) {
        g = groups.length;
        byPaths.set(key, g);
        groups.push({ texture, material, faces: 0 });
      }
      byPair.set(pair, g);
    }
    lastPair = pair;
    lastGroup = g;
    groupOf[i] = g;
    groups[g]!.faces++;
  }
  return { groupOf, groups };
}
