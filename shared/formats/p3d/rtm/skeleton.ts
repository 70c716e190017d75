/**
 * A skeleton's bone hierarchy from an Arma `model.cfg`, for composing BMTR animations. The config
 * is read by the model.cfg reader (`../modelcfg/`: preprocessor, class inheritance,
 * `skeletonInherit`); this file only picks the skeleton and states what is missing in one line.
 */
import { parseModelCfg } from '../modelcfg/document.ts';
import { readModelCfg, type CfgSkeleton } from '../modelcfg/model.ts';
import type { SkeletonBone } from './pose.ts';

export class CfgError extends Error {
  override readonly name = 'CfgError';
}

/** The skeletons a model.cfg defines (`#include` has no file reader here and is an error). */
function skeletonsOf(text: string): CfgSkeleton[] {
  try {
    return readModelCfg(parseModelCfg(text)).skeletons;
  } catch (e) {
    throw new CfgError(e instanceof Error ? e.message : String(e));
  }
}

export function cfgSkeletonNames(text: string): string[] {
  return skeletonsOf(text).map((s) => s.name);
}

/**
 * The bones of skeleton `name` (case-insensitive) of a model.cfg, parents before children as
 * written: the inherited skeleton's bones (`skeletonInherit`) first, then its own. Without a
 * name, the only skeleton there is. Throws {@link CfgError} naming what is there when it is not.
 */
export function cfgSkeleton(text: string, name?: string): { name: string; bones: SkeletonBone[] } {
  const all = skeletonsOf(text);
  if (all.length === 0) throw new CfgError('the model.cfg defines no skeleton (class CfgSkeletons)');
  let s: CfgSkeleton | undefined;
  if (name === undefined || name === '') {
    if (all.length > 1) throw new CfgError(`the model.cfg defines ${all.length} skeletons; name one: ${all.map((c) => c.name).join(', ')}`);
    s = all[0];
  } else s = all.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!s) throw new CfgError(`no skeleton "${name}" in the model.cfg (it defines ${all.map((c) => c.name).join(', ')})`);
  if (s.inherit && !all.some((c) => c.name.toLowerCase() === s.inherit.toLowerCase())) {
    throw new CfgError(`skeleton ${s.name} inherits "${s.inherit}", which the model.cfg does not define`);
  }
  return { name: s.name, bones: s.bones.map((b) => ({ name: b.name, parent: b.parent })) };
}
