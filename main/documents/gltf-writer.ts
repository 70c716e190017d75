/**
 * The editor's glTF export: the shared exporter (also used by `lodsmith convert`) behind the
 * document service's {@link GltfWriter} hook. `.gltf` gets the self-contained JSON form, anything
 * else binary `.glb`.
 */
import { sceneToGltf, writeGlb, writeGltfEmbedded } from '../../shared/export/gltf.ts';
import { modelGltfOptions } from '../../shared/scene/attach.ts';
import type { GltfWriter } from './document-service.ts';

/**
 * Writes `.glb` (or `.gltf` when the target path says so), with the animation files attached to
 * the model: the same options `lodsmith convert --anim` builds.
 */
export const defaultGltfWriter: GltfWriter = async (scene, _name, target, extraClips = []) => {
  const { document } = sceneToGltf(scene, modelGltfOptions(scene, extraClips));
  return /\.gltf$/i.test(target) ? writeGltfEmbedded(document) : writeGlb(document);
};
