/**
 * Which way is up. The Scene is Y-up, but a codec that keeps the file's own axes (LODka, whose
 * files do not record an up axis) may hand over Z-up data. The data stays as it is (files
 * round-trip byte for byte, and the inspector shows the stored numbers); viewers and exporters
 * turn the model upright with one rotation above its root instead.
 */
import { multiply } from './mat4.ts';
import type { Mat4, Scene, UpAxis } from './scene.ts';

/**
 * The root rotation that shows `axis`-up data Y-up: identity for 'y'; for 'z', -90 degrees
 * about X (right-handed), which takes +Z to +Y and +Y to -Z. Column-major, like every Scene matrix.
 */
export function upAxisMatrix(axis: UpAxis): Mat4 {
  return axis === 'z' ? [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1] : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

/** The same rotation as an xyzw quaternion (glTF node rotation). */
export function upAxisQuaternion(axis: UpAxis): [number, number, number, number] {
  return axis === 'z' ? [-Math.SQRT1_2, 0, 0, Math.SQRT1_2] : [0, 0, 0, 1];
}

/** Z must exceed Y by this factor... */
export const TALL_OVER_DEPTH = 2;
/** ...and X by this one. */
export const TALL_OVER_WIDTH = 1.25;

/**
 * Guesses the up axis of a scene whose file does not say, from the shape of the model.
 *
 * Heuristic: take the extents of the mesh vertices (`scene.bounds` when the codec filled it),
 * or of the bone positions in the bind pose when there is no geometry. Guess 'z' only when the
 * model is clearly much taller along Z than along Y (at least {@link TALL_OVER_DEPTH} times) and
 * Z is also its longest side (at least {@link TALL_OVER_WIDTH} times X): a standing character
 * authored Z-up. Everything else guesses 'y', the Scene's convention, including flat models
 * (a floor tile is as long along Z as along X) and compact ones. The guess cannot tell a Y-up
 * model that is long along Z and narrow elsewhere (a spear lying along Z) from a Z-up one; the
 * viewport's up-axis toggle and `convert --up` are there for those.
 */
export function guessUpAxis(scene: Scene): UpAxis {
  const ext = extents(scene);
  if (!ext) return 'y';
  const [x, y, z] = ext;
  return z > 0 && z >= TALL_OVER_DEPTH * y && z >= TALL_OVER_WIDTH * x ? 'z' : 'y';
}

function extents(scene: Scene): [number, number, number] | undefined {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number, z: number): void => {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
    // No array per point: this runs once per vertex of a scene without bounds.
    min[0] = Math.min(min[0]!, x);
    min[1] = Math.min(min[1]!, y);
    min[2] = Math.min(min[2]!, z);
    max[0] = Math.max(max[0]!, x);
    max[1] = Math.max(max[1]!, y);
    max[2] = Math.max(max[2]!, z);
  };
  if (scene.bounds) {
    add(...scene.bounds.min);
    add(...scene.bounds.max);
  } else {
    for (const m of scene.meshes) for (let i = 0; i + 2 < m.positions.length; i += 3) add(m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!);
  }
  const bones = scene.skeleton?.bones ?? [];
  if (min[0] === Infinity && bones.length) {
    // Bind-pose world positions: parents come first in every codec's skeleton, but a damaged
    // parent link (itself, or a later bone) is treated as a root rather than trusted.
    const world: Mat4[] = [];
    bones.forEach((b, i) => {
      const m = b.matrix.length === 16 ? b.matrix : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      const p = b.parent >= 0 && b.parent < i ? world[b.parent] : undefined;
      const w = p ? multiply(p, m) : m;
      world.push(w);
      add(w[12]!, w[13]!, w[14]!);
    });
  }
  if (min[0] === Infinity) return undefined;
  return [max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!];
}

