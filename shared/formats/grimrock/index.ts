/** Legend of Grimrock codecs: `.model` (MDL1) and `.animation` (ANIM). */
export { grimrockModelCodec, removeNodeCommand, blankNode } from './model-codec.ts';
export { grimrockAnimationCodec } from './animation-codec.ts';
export type { GrimrockModel, GrimrockNode, GrimrockAnimation, AnimationItem, MeshData, MeshEntity, VertexArray } from './schema.ts';
