/** Unigine codecs: `.mesh` (ms10, ms11) and `.anim` (an10). */
export {
  unigineMeshCodec, unigineAnimCodec, computeSurfaceBounds, recomputeSurfaceBoundsCommand, type UnigineMesh,
} from './mesh-codec.ts';
export type { UnigineAnim, UnigineMeshMs, UnigineSurface, UnigineBone, UnigineClip, AnimClip, MorphTarget } from './schema.ts';
