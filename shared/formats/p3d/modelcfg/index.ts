/**
 * model.cfg: the Arma model config (CfgSkeletons, CfgModels) read with the config language's
 * preprocessor, kept as a lossless document, and played on P3D models.
 *
 * The API in five calls:
 *
 *     const doc = decodeModelCfg(bytes, { fileName, readInclude });  // or parseModelCfg(text, ...)
 *     const cfg = readModelCfg(doc);       // { skeletons, models, problems }
 *     cfg.skeletons[i]                     // { name, isDiscrete, inherit, bones: [{ name, parent }] }
 *                                          //   bones in order, skeletonInherit's first; parent '' = root
 *     const model = findModelClass(cfg, 'house.p3d');   // CfgModels class named like the model
 *     model.skeletonName / model.sections / model.animations   // resolved with inheritance
 *     skeletonOf(cfg, model)               // the model's CfgSkeletons entry
 *     poseMlod(mlodDoc, model, skeleton, new Map([['door1', 1]]))   // an MLOD copy posed at those source values
 *
 * `readInclude(path, from)` gives the text of `#include`d files (the codec does no I/O); errors
 * are `ConfigError` with file, line and column. `encodeModelCfg(doc)` gives back the bytes read;
 * `setValue(doc, path, value)` writes one value in place. See NOTES.md for what real files do.
 */
export { ConfigError } from './lexer.ts';
export { preprocess, type ReadInclude } from './preprocess.ts';
export { evaluate } from './expression.ts';
export type { CfgClass, CfgEntry, CfgValue } from './parse.ts';
export { decodeModelCfg, encodeModelCfg, parseModelCfg, setValue, entryAt, type ModelCfgDocument, type CfgPath, type CfgEditValue } from './document.ts';
export {
  readModelCfg, findModelClass, skeletonOf, animationSources, ANIMATION_TYPES,
  type ModelCfg, type CfgModel, type CfgSkeleton, type CfgBone, type CfgAnimation, type CfgPlace, type ModelCfgProblem,
} from './model.ts';
export { animationPhase, animationTransform, poseBones, ROTATION_SIGN, type PoseAnimation, type BonePose, type Axis } from './animate.ts';
export { poseMlod, memoryLod, selectionPoints, animationAxis } from './pose-mlod.ts';
export { checkModelCfg, type ModelShape } from './checks.ts';
export { mlodShape } from './pose-mlod.ts';
export { riggedMlodScene } from './scene-clips.ts';
export { odolAnimations, odolAnimatedScene, odolBonePoses, odolSources, odolClips, odolSceneParents, poseOdolScene } from './odol-animations.ts';
