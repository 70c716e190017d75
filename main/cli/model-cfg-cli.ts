/**
 * What the CLI commands say and do with a P3D model's model.cfg: `info` lists the class, skeleton,
 * animations and sources; `convert` poses the model (`--pose SOURCE=VALUE`) or writes one glTF
 * animation per source; `validate` adds the config's checks, each with the config's file and line.
 */
import { relative } from 'node:path';
import type { Problem } from '../../shared/model/problems.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import type { SceneOptions } from '../../shared/formats/registry.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { animationSources, checkModelCfg, mlodShape, odolAnimatedScene, odolAnimations, odolSources, poseMlod, riggedMlodScene, type CfgPlace } from '../../shared/formats/p3d/modelcfg/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import type { OdolDocument } from '../../shared/formats/p3d/odol/document.ts';
import { pickLod as pickOdolLod } from '../../shared/formats/p3d/odol/scene.ts';
import { mlodToScene } from '../../shared/formats/p3d/mlod/scene.ts';
import { modelCfgFor, type ModelCfgFor } from '../documents/model-cfg-files.ts';
import { CliFailure } from './fail.ts';

/** Formats whose models model.cfg animates. ODOL models carry their animations compiled in. */
export function isEditableP3d(codecId: string): boolean {
  return codecId === 'p3d-mlod';
}

/** The model.cfg of a model, or undefined; a config that does not parse is a CliFailure naming its file and line. */
export function loadModelCfg(modelPath: string, override: string | undefined): ModelCfgFor | undefined {
  try {
    return modelCfgFor(modelPath, override);
  } catch (e) {
    throw new CliFailure(e instanceof Error ? e.message : String(e));
  }
}

const range = (a: number, b: number): string => `${fmt(a)}..${fmt(b)}`;
const fmt = (x: number): string => String(Math.round(x * 1e6) / 1e6);
export const placeText = (p: CfgPlace, cwd: string): string => `${relative(cwd, p.file) || p.file}:${p.line}`;

/** `info`'s rows and JSON for the model.cfg part. */
export function modelCfgInfo(mc: ModelCfgFor, cwd: string): { rows: [string, string][]; json: Record<string, unknown>; animationRows: string[][] } {
  const m = mc.model;
  const sources = m ? animationSources(m) : [];
  const rows: [string, string][] = [['model.cfg', relative(cwd, mc.file) || mc.file]];
  rows.push(['model class', m ? `${m.name} (${placeText(m.at, cwd)})` : '(none: no class named like the model in CfgModels)']);
  if (m) {
    rows.push(['skeleton', mc.skeleton ? `${mc.skeleton.name}, ${mc.skeleton.bones.length} bone(s)${mc.skeleton.isDiscrete ? '' : ', weighted'}: ${mc.skeleton.bones.map((b) => (b.parent ? `${b.name} < ${b.parent}` : b.name)).join(', ')}` : m.skeletonName ? `${m.skeletonName} (not in CfgSkeletons)` : '(none)']);
    rows.push(['sections', m.sections.length ? m.sections.join(', ') : '(none)']);
    rows.push(['sources', sources.length ? sources.map((s) => `${s.name} ${range(s.min, s.max)}`).join(', ') : '(none)']);
  }
  const animationRows = (m?.animations ?? []).map((a) => [a.name, a.typeText || '?', a.selection, a.source + (a.sourceImplicit ? ' (class name)' : ''), range(a.minValue, a.maxValue), a.type?.startsWith('rotation') || a.type === 'direct' ? range(a.angle0, a.angle1) + ' rad' : a.type?.startsWith('translation') ? range(a.offset0, a.offset1) : a.type === 'hide' ? `hide at ${fmt(a.hideValue)}` : '']);
  const json = {
    file: mc.file,
    class: m?.name ?? null,
    skeleton: mc.skeleton ? { name: mc.skeleton.name, isDiscrete: mc.skeleton.isDiscrete, bones: mc.skeleton.bones.map((b) => ({ name: b.name, parent: b.parent })) } : null,
    sections: m?.sections ?? [],
    animations: (m?.animations ?? []).map((a) => ({ name: a.name, type: a.typeText, selection: a.selection, source: a.source, minValue: a.minValue, maxValue: a.maxValue, angle0: a.angle0, angle1: a.angle1, offset0: a.offset0, offset1: a.offset1, ...(a.axis ? { axis: a.axis } : {}) })),
    sources: sources.map((s) => ({ name: s.name, min: s.min, max: s.max, animations: s.animations })),
  };
  return { rows, json, animationRows };
}

/** `--pose door1=1 door3=0.5` -> source values; a bad pair is a CliFailure. */
export function parsePose(pairs: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of pairs) {
    const m = /^([^=]+)=(.+)$/.exec(p);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new CliFailure(`--pose ${p}: expected SOURCE=NUMBER`);
    out.set(m[1]!.trim().toLowerCase(), v);
  }
  return out;
}

/**
 * The scene `convert` writes for an MLOD model with a model.cfg: posed at `pose` (sources the model
 * does not use are returned in `unused`), or, without a pose, skinned with one clip per source.
 */
export function modelCfgScene(doc: MlodDocument, mc: ModelCfgFor, pose: Map<string, number> | undefined, opts: SceneOptions): { scene: Scene; unused: string[] } {
  const model = mc.model;
  if (!model) return { scene: mlodToScene(doc, opts), unused: pose ? [...pose.keys()] : [] };
  if (!pose) return { scene: riggedMlodScene(doc, model, mc.skeleton, opts), unused: [] };
  const used = new Set(model.animations.map((a) => a.source.toLowerCase()));
  const unused = [...pose.keys()].filter((k) => !used.has(k));
  return { scene: mlodToScene(poseMlod(doc, model, mc.skeleton, pose), opts), unused };
}

/** The config's problems as `validate` prints them: the place is the config file and line. */
export function modelCfgProblems(doc: MlodDocument, mc: ModelCfgFor, modelPath: string, cwd: string): Problem[] {
  return checkModelCfg(mc.cfg, mc.model, mc.skeleton, modelPath, mlodShape(doc), mc.file).map((p) => ({ severity: p.severity, message: p.message, where: placeText(p.at, cwd), path: [] }));
}

/** A binarized P3D with compiled animations (no model.cfg needed). */
export function hasCompiledAnimations(codecId: string, doc: object): doc is OdolV4xDocument {
  return codecId === 'p3d-odol' && Boolean((doc as OdolV4xDocument).hasAnimations && (doc as OdolV4xDocument).animations);
}

/** The ODOL scene posed at `pose`, or with one clip per source of its compiled animations. */
export function compiledAnimationScene(doc: OdolV4xDocument, scene: Scene, pose: Map<string, number> | undefined, lod: string | undefined): { scene: Scene; unused: string[] } {
  const li = pickOdolLod(doc as unknown as OdolDocument, lod);
  const used = new Set(odolSources(doc).map((s) => s.name.toLowerCase()));
  return { scene: odolAnimatedScene(scene, doc, li, pose), unused: pose ? [...pose.keys()].filter((k) => !used.has(k)) : [] };
}

/** `info`'s rows for compiled animations. */
export function compiledAnimationInfo(doc: OdolV4xDocument): { rows: [string, string][]; json: Record<string, unknown>; animationRows: string[][] } {
  const sources = odolSources(doc);
  const anims = odolAnimations(doc, 0);
  const sk = doc.modelInfo.skeleton;
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
  return { rows, json, animationRows };
}
