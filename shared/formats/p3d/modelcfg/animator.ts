/**
 * The P3D codecs' source animations (capabilities.ts, SourceAnimator): an MLOD model animated by
 * its model.cfg, an ODOL model by the animations compiled into it. main/ asks the codec for these
 * and never names a format: it reads the config file the codec names and hands it over.
 */
import type { SourceAnimations, SourceAnimator, SourceConfig } from '../../capabilities.ts';
import type { Scene } from '../../../scene/scene.ts';
import { mlodToScene } from '../mlod/scene.ts';
import type { MlodDocument } from '../mlod/types.ts';
import type { OdolV4xDocument } from '../odol/model.ts';
import { odolScene, pickLod as pickOdolLod } from '../odol/scene.ts';
import type { OdolDocument } from '../odol/document.ts';
import { checkModelCfg } from './checks.ts';
import { decodeModelCfg, type ModelCfgDocument } from './document.ts';
import { animationSources, findModelClass, readModelCfg, skeletonOf } from './model.ts';
import { odolAnimatedScene, odolAnimations, odolSources } from './odol-animations.ts';
import { mlodShape, poseMlod } from './pose-mlod.ts';
import { riggedMlodScene } from './scene-clips.ts';

const fmt = (x: number): string => String(Math.round(x * 1e6) / 1e6);
const range = (a: number, b: number): string => `${fmt(a)}..${fmt(b)}`;

function unusedOf(pose: ReadonlyMap<string, number> | undefined, sources: readonly { name: string }[]): string[] {
  const used = new Set(sources.map((s) => s.name.toLowerCase()));
  return pose ? [...pose.keys()].filter((k) => !used.has(k)) : [];
}

/** Editable models: the class of model.cfg named like the file. */
export const mlodAnimator: SourceAnimator = {
  readConfig: (bytes, file, readInclude) => decodeModelCfg(bytes, { fileName: file, readInclude }),
  animations(doc, modelPath, config): SourceAnimations | undefined {
    if (!config) return undefined;
    const mlod = doc as MlodDocument;
    const cfg = readModelCfg(config.doc as ModelCfgDocument);
    const model = findModelClass(cfg, modelPath);
    const skeleton = model ? skeletonOf(cfg, model) : undefined;
    const sources = model ? animationSources(model) : [];
    return {
      sources,
      info() {
        const rows: [string, string][] = [['model.cfg', config.file]];
        rows.push(['model class', model ? `${model.name} (${model.at.file}:${model.at.line})` : '(none: no class named like the model in CfgModels)']);
        if (model) {
          rows.push(['skeleton', skeleton ? `${skeleton.name}, ${skeleton.bones.length} bone(s)${skeleton.isDiscrete ? '' : ', weighted'}: ${skeleton.bones.map((b) => (b.parent ? `${b.name} < ${b.parent}` : b.name)).join(', ')}` : model.skeletonName ? `${model.skeletonName} (not in CfgSkeletons)` : '(none)']);
          rows.push(['sections', model.sections.length ? model.sections.join(', ') : '(none)']);
          rows.push(['sources', sources.length ? sources.map((s) => `${s.name} ${range(s.min, s.max)}`).join(', ') : '(none)']);
        }
        const animationRows = (model?.animations ?? []).map((a) => [a.name, a.typeText || '?', a.selection, a.source + (a.sourceImplicit ? ' (class name)' : ''), range(a.minValue, a.maxValue), a.type?.startsWith('rotation') || a.type === 'direct' ? range(a.angle0, a.angle1) + ' rad' : a.type?.startsWith('translation') ? range(a.offset0, a.offset1) : a.type === 'hide' ? `hide at ${fmt(a.hideValue)}` : '']);
        const json = {
          file: config.file,
          class: model?.name ?? null,
          skeleton: skeleton ? { name: skeleton.name, isDiscrete: skeleton.isDiscrete, bones: skeleton.bones.map((b) => ({ name: b.name, parent: b.parent })) } : null,
          sections: model?.sections ?? [],
          animations: (model?.animations ?? []).map((a) => ({ name: a.name, type: a.typeText, selection: a.selection, source: a.source, minValue: a.minValue, maxValue: a.maxValue, angle0: a.angle0, angle1: a.angle1, offset0: a.offset0, offset1: a.offset1, ...(a.axis ? { axis: a.axis } : {}) })),
          sources,
        };
        return { rows, animationRows, json };
      },
      scene(lod, pose) {
        const opts = lod === undefined ? {} : { lod };
        if (!model) return { scene: mlodToScene(mlod, opts), unused: unusedOf(pose, []) };
        if (!pose) return { scene: riggedMlodScene(mlod, model, skeleton, opts), unused: [] };
        return { scene: mlodToScene(poseMlod(mlod, model, skeleton, pose), opts), unused: unusedOf(pose, sources) };
      },
      problems: () => checkModelCfg(cfg, model, skeleton, modelPath, mlodShape(mlod), config.file),
    };
  },
};

/** Binarized models: the compiled animations (no config needed). */
export const odolAnimator: SourceAnimator = {
  animations(doc, _modelPath, _config: SourceConfig | undefined): SourceAnimations | undefined {
    const odol = doc as OdolV4xDocument;
    if (!odol.hasAnimations || !odol.animations || !odol.modelInfo) return undefined;
    const sources = odolSources(odol);
    return {
      sources,
      info() {
        const anims = odolAnimations(odol, 0);
        const sk = odol.modelInfo.skeleton;
        const rows: [string, string][] = [
          ['skeleton', `${sk.name}, ${sk.bones.length} bone(s)${sk.isDiscrete ? '' : ', weighted'}: ${sk.bones.map((b) => (b.parent ? `${b.name} < ${b.parent}` : b.name)).join(', ')}`],
          ['sources', sources.length ? sources.map((s) => `${s.name} ${range(s.min, s.max)}`).join(', ') : '(none)'],
        ];
        const animationRows = anims.map(({ anim: a }) => [a.name, a.type, a.selection, a.source, range(a.minValue, a.maxValue), a.type.startsWith('rotation') ? range(a.angle0, a.angle1) + ' rad' : a.type.startsWith('translation') ? range(a.offset0, a.offset1) : a.type === 'hide' ? `hide at ${fmt(a.hideValue)}` : '']);
        const json = {
          compiled: true,
          skeleton: { name: sk.name, isDiscrete: Boolean(sk.isDiscrete), bones: sk.bones.map((b) => ({ name: b.name, parent: b.parent })) },
          animations: anims.map(({ anim: a }) => ({ name: a.name, type: a.type, selection: a.selection, source: a.source, minValue: a.minValue, maxValue: a.maxValue })),
          sources,
        };
        return { rows, animationRows, json };
      },
      scene(lod, pose) {
        const base: Scene = odolScene(odol as unknown as OdolDocument, lod === undefined ? {} : { lod });
        const li = pickOdolLod(odol as unknown as OdolDocument, lod);
        return { scene: odolAnimatedScene(base, odol, li, pose), unused: unusedOf(pose, sources) };
      },
      problems: () => [],
    };
  },
};
