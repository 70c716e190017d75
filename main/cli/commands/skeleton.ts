/**
 * Animations that need a skeleton they do not hold (a binarized RTM): where `convert --skeleton`
 * takes it from, and the rewrite into the format's skeleton-free form (`convert X.rtm OUT.rtm`).
 * The codec says what it can do (`animation.resolve`, `animation.skeletonConfig`); nothing here
 * names a format.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SkeletonBoneRef } from '../../../shared/formats/capabilities.ts';
import type { FormatCodec } from '../../../shared/formats/registry.ts';
import { animationSceneOptions } from '../../../shared/scene/attach.ts';
import { CliFailure, EXIT_OK, FileError } from '../fail.ts';
import { writeAtomically, writeLines, type CliIO } from '../io.ts';
import { loadModel, type Loaded } from '../load.ts';
import { humanBytes } from '../text.ts';

export const SKELETON_HINT = 'give --skeleton MODEL.p3d (a binarized model that carries one) or --skeleton model.cfg#SkeletonName';

/**
 * `--skeleton SOURCE` for an animation of `codec`: a config file the codec reads skeletons from
 * (`model.cfg[#Name]`), else a model file whose scene has a skeleton.
 */
export async function loadSkeleton(spec: string, codec: FormatCodec, cwd: string, maxMemory?: number): Promise<SkeletonBoneRef[]> {
  const hash = spec.lastIndexOf('#');
  const file = hash >= 0 ? spec.slice(0, hash) : spec;
  const config = codec.animation?.skeletonConfig;
  if (config && file.toLowerCase().endsWith(config.extension)) {
    try {
      const text = readFileSync(resolve(cwd, file), 'latin1');
      return config.read(text, hash >= 0 ? spec.slice(hash + 1) : undefined).bones;
    } catch (e) {
      throw new FileError(file, e);
    }
  }
  try {
    const model = await loadModel(file, cwd, maxMemory);
    const skeleton = animationSceneOptions(model.codec.toScene(model.doc)).skeleton;
    if (!skeleton) throw new CliFailure(`holds no skeleton${config ? ` (an MLOD keeps its skeleton in model.cfg: give model.cfg#SkeletonName)` : ''}`);
    return skeleton;
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(file, e);
  }
}

/** `convert X OUT` where OUT is the input's own format: an animation in its skeleton-free form. */
export async function runResolve(model: Loaded, output: string, opts: { skeleton?: string; quiet?: boolean; maxMemory?: number }, io: CliIO): Promise<number> {
  const codec = model.codec;
  const rewrite = codec.animation?.resolve;
  if (!rewrite) throw new CliFailure(`is a ${codec.label}: convert writes .glb or .gltf from it`);
  const needs = codec.info(model.doc, model.bytes.length).needsSkeleton === true;
  if (needs && !opts.skeleton) throw new CliFailure(`${codec.label}: its transforms are relative to parent bones, so it needs a skeleton; ${SKELETON_HINT}`);
  const skeleton = opts.skeleton ? await loadSkeleton(opts.skeleton, codec, io.cwd, opts.maxMemory) : [];
  let bytes: Uint8Array;
  try {
    bytes = rewrite(model.doc, skeleton);
  } catch (e) {
    throw new CliFailure(e instanceof Error ? e.message : String(e));
  }
  try {
    await writeAtomically(resolve(io.cwd, output), bytes);
  } catch (e) {
    throw new FileError(output, e);
  }
  if (!opts.quiet) {
    const info = codec.info(codec.decode(bytes), bytes.length);
    await writeLines(io.stdout, [`wrote ${output} (${humanBytes(bytes.length)}): ${codec.label} ${info.version}, ${info.bones.length} bones, ${info.animations[0]?.frames ?? 0} frames`]);
  }
  return EXIT_OK;
}
