/**
 * model.cfg checked against the model it animates (`validate`, `check`, the Problems panel):
 * each problem names the model.cfg file and line.
 */
import type { Vec3 } from './animate.ts';
import type { CfgModel, CfgPlace, CfgSkeleton, ModelCfg, ModelCfgProblem } from './model.ts';

/** What the checks need of a model: per LOD its kind and named selections; Memory LOD points by selection. */
export interface ModelShape {
  lods: { name: string; visual: boolean; selections: readonly string[] }[];
  /** Points of a Memory LOD selection (empty when missing). */
  memoryPoints(selection: string): Vec3[];
}

const NEEDS_AXIS = new Set(['rotation', 'translation']);

/**
 * Problems of `model` (the class found for the model file; undefined when CfgModels has none).
 * `cfgFile` names the config for a problem with no line of its own.
 */
export function checkModelCfg(cfg: ModelCfg, model: CfgModel | undefined, skeleton: CfgSkeleton | undefined, modelName: string, shape: ModelShape, cfgFile: string): ModelCfgProblem[] {
  const out: ModelCfgProblem[] = [...cfg.problems];
  const top: CfgPlace = { file: cfgFile, line: 1, column: 1 };
  if (!model) {
    out.push({ severity: 'error', message: `no class ${modelName.replace(/^.*[\\/]/, '').replace(/\.p3d$/i, '')} in CfgModels: the model gets no skeleton, sections or animations`, at: top });
    return out;
  }
  if (model.skeletonName && !skeleton) out.push({ severity: 'error', message: `${model.name}: skeletonName "${model.skeletonName}" is not in CfgSkeletons`, at: model.at });
  const bones = skeleton ? checkBones(skeleton, out) : new Map<string, number>();
  const inLods = (name: string, visualOnly: boolean): boolean => {
    const lower = name.toLowerCase();
    return shape.lods.some((l) => (!visualOnly || l.visual) && l.selections.some((s) => s.toLowerCase() === lower));
  };
  for (const b of skeleton?.bones ?? []) {
    if (!inLods(b.name, false)) out.push({ severity: 'warning', message: `bone ${b.name} has no named selection in any LOD: it moves nothing`, at: b.at });
  }
  const sections = new Set(model.sections.map((s) => s.toLowerCase()));
  for (const a of model.animations) {
    if (!a.type) continue;
    const at = a.places.selection ?? a.at;
    if (!a.selection) out.push({ severity: 'error', message: `animation ${a.name}: no selection`, at: a.at });
    else {
      if (!bones.has(a.selection.toLowerCase())) out.push({ severity: 'error', message: `animation ${a.name}: selection ${a.selection} is not a bone of ${skeleton?.name ?? 'the skeleton (the model has none)'}`, at });
      if (!inLods(a.selection, true)) out.push({ severity: 'warning', message: `animation ${a.name}: selection ${a.selection} is not a named selection of any visual LOD`, at });
      if (a.type === 'hide' && !sections.has(a.selection.toLowerCase())) out.push({ severity: 'warning', message: `animation ${a.name}: a hide animation's selection ${a.selection} should be in sections[] (the faces are drawn as their own section only then)`, at });
    }
    const axisAt = a.places.axis ?? a.places.begin ?? a.at;
    if (a.memory && (NEEDS_AXIS.has(a.type) || a.axis || a.begin)) {
      let pts: Vec3[] = [];
      let what = '';
      if (a.begin || a.end) {
        const b = shape.memoryPoints(a.begin)[0];
        const e = shape.memoryPoints(a.end)[0];
        what = `begin ${a.begin} / end ${a.end}`;
        if (b && e) pts = [b, e];
      } else if (a.axis) {
        pts = shape.memoryPoints(a.axis);
        what = `axis ${a.axis}`;
      }
      if (!what) out.push({ severity: 'error', message: `animation ${a.name}: a ${a.type} needs an axis (or begin and end)`, at: a.at });
      else if (pts.length === 0) out.push({ severity: NEEDS_AXIS.has(a.type) ? 'error' : 'warning', message: `animation ${a.name}: ${what} has no points in the Memory LOD${NEEDS_AXIS.has(a.type) ? '' : ` (a ${a.type} does not need it)`}`, at: axisAt });
      else if (NEEDS_AXIS.has(a.type) && pts.length < 2) out.push({ severity: 'error', message: `animation ${a.name}: ${what} has one point; a ${a.type} needs two`, at: axisAt });
      else if (NEEDS_AXIS.has(a.type) && Math.hypot(pts[1]![0] - pts[0]![0], pts[1]![1] - pts[0]![1], pts[1]![2] - pts[0]![2]) < 1e-6) out.push({ severity: 'error', message: `animation ${a.name}: the two points of ${what} coincide`, at: axisAt });
    }
  }
  return out;
}

/**
 * A skeleton's own problems (a bone declared twice, a parent missing or declared after its child),
 * pushed to `out`; returns the bones' indices by lower-case name.
 */
function checkBones(skeleton: CfgSkeleton, out: ModelCfgProblem[]): Map<string, number> {
  const bones = new Map<string, number>();
  skeleton.bones.forEach((b, i) => {
    const key = b.name.toLowerCase();
    if (bones.has(key)) out.push({ severity: 'warning', message: `bone ${b.name} is declared twice in ${skeleton.name}`, at: b.at });
    else bones.set(key, i);
  });
  skeleton.bones.forEach((b, i) => {
    if (!b.parent) return;
    const pi = bones.get(b.parent.toLowerCase());
    if (pi === undefined) out.push({ severity: 'error', message: `bone ${b.name}: parent ${b.parent} is not a bone of ${skeleton.name}`, at: b.at });
    else if (pi >= i) out.push({ severity: 'error', message: `bone ${b.name}: parent ${b.parent} is declared after it (a parent must come first)`, at: b.at });
  });
  return bones;
}

/**
 * The checks a model.cfg allows on its own, without a model (the config opened as a document):
 * what the reader found, every skeleton's bones, and per model class its skeleton and the
 * animations' selections and axes as far as the config alone says.
 */
export function checkConfigAlone(cfg: ModelCfg): ModelCfgProblem[] {
  const out: ModelCfgProblem[] = [...cfg.problems];
  const skeletons = new Map<string, { skeleton: CfgSkeleton; bones: Map<string, number> }>();
  for (const sk of cfg.skeletons) skeletons.set(sk.name.toLowerCase(), { skeleton: sk, bones: checkBones(sk, out) });
  for (const model of cfg.models) {
    const sk = model.skeletonName ? skeletons.get(model.skeletonName.toLowerCase()) : undefined;
    if (model.skeletonName && !sk) out.push({ severity: 'error', message: `${model.name}: skeletonName "${model.skeletonName}" is not in CfgSkeletons`, at: model.at });
    for (const a of model.animations) {
      if (!a.type) continue;
      if (!a.selection) out.push({ severity: 'error', message: `${model.name}: animation ${a.name} has no selection`, at: a.at });
      else if (sk && !sk.bones.has(a.selection.toLowerCase())) out.push({ severity: 'error', message: `${model.name}: animation ${a.name}: selection ${a.selection} is not a bone of ${sk.skeleton.name}`, at: a.places.selection ?? a.at });
      if (NEEDS_AXIS.has(a.type) && !a.axis && !(a.begin && a.end)) out.push({ severity: 'error', message: `${model.name}: animation ${a.name}: a ${a.type} needs an axis (or begin and end)`, at: a.at });
    }
  }
  return out;
}
