/**
 * What model.cfg means: CfgSkeletons (bones and their parents) and CfgModels (per model class its
 * skeleton, sections and animations), with class inheritance (`class B: A`), `+=` arrays,
 * `skeletonInherit` and `sectionsInherit` resolved as the game's binarizer does.
 */
import type { Origin } from './lexer.ts';
import type { ModelCfgDocument } from './document.ts';
import { tryEvaluate } from './expression.ts';
import type { CfgClass, CfgProperty, CfgValue } from './parse.ts';
import { describe } from './preprocess.ts';

/** A place in model.cfg (or a file it included), for messages and the Problems panel. */
export interface CfgPlace {
  file: string;
  line: number;
  column: number;
}

export interface CfgBone {
  name: string;
  /** '' for a root bone. */
  parent: string;
  at: CfgPlace;
}

export interface CfgSkeleton {
  name: string;
  isDiscrete: boolean;
  /** `skeletonInherit`: the skeleton whose bones come first. */
  inherit: string;
  /** Bones in order, inherited ones first. */
  bones: CfgBone[];
  at: CfgPlace;
}

export type AnimationType =
  | 'rotation' | 'rotationX' | 'rotationY' | 'rotationZ'
  | 'translation' | 'translationX' | 'translationY' | 'translationZ'
  | 'direct' | 'hide';

export const ANIMATION_TYPES: readonly AnimationType[] = ['rotation', 'rotationX', 'rotationY', 'rotationZ', 'translation', 'translationX', 'translationY', 'translationZ', 'direct', 'hide'];

export type SourceAddress = 'clamp' | 'loop' | 'mirror';

/**
 * How an animation maps its source value to motion: the same parameters in model.cfg's
 * CfgAnimation and in the evaluator's PoseAnimation (animate.ts), which ODOL's compiled records
 * also give.
 */
export interface AnimationParams {
  minValue: number;
  maxValue: number;
  minPhase: number;
  maxPhase: number;
  sourceAddress: SourceAddress;
  angle0: number;
  angle1: number;
  offset0: number;
  offset1: number;
  hideValue: number;
  unHideValue?: number;
  /** `direct`: axis position and direction, angle in radians, offset along the axis. */
  axisPos?: [number, number, number];
  axisDir?: [number, number, number];
  angle?: number;
  axisOffset?: number;
}

export interface CfgAnimation extends AnimationParams {
  /** The class name. */
  name: string;
  /** As written; `type` below is the known type it names (case-insensitive), or undefined. */
  typeText: string;
  type?: AnimationType;
  /** The animation source; the class name when the class has none (scripts drive it with animateSource). */
  source: string;
  /** True when `source` was not written. */
  sourceImplicit: boolean;
  selection: string;
  /** Memory LOD selection of the axis (two points, or one point: a centre for rotationX/Y/Z). */
  axis: string;
  begin: string;
  end: string;
  /** Axis points are in the Memory LOD (1, the default) or in the animated LOD itself (0). */
  memory: boolean;
  at: CfgPlace;
  /** Where each property was written, by lower-case name (for checks that point at a line). */
  places: Record<string, CfgPlace>;
}

export interface CfgModel {
  name: string;
  skeletonName: string;
  sectionsInherit: string;
  /** Own sections, then inherited (sectionsInherit) ones. */
  sections: string[];
  animations: CfgAnimation[];
  at: CfgPlace;
}

export interface ModelCfgProblem {
  severity: 'error' | 'warning';
  message: string;
  at: CfgPlace;
}

/** A model.cfg read for its meaning. */
export interface ModelCfg {
  skeletons: CfgSkeleton[];
  models: CfgModel[];
  /** What could not be read as the game reads it (bad numbers, unknown types, loops). */
  problems: ModelCfgProblem[];
}

interface Scope {
  cls: CfgClass;
  parent?: Scope;
}

const MAX_INHERITANCE = 64;

/** Reads the document's CfgSkeletons and CfgModels. Never throws on a parsed document. */
export function readModelCfg(doc: ModelCfgDocument): ModelCfg {
  const problems: ModelCfgProblem[] = [];
  const place = (at: Origin): CfgPlace => describe(doc.files, at);
  const rootScope: Scope = { cls: doc.root };

  /** Class named `name` declared in `scope` (last definition wins), case-insensitive. */
  const own = (cls: CfgClass, name: string): CfgClass | undefined => {
    const lower = name.toLowerCase();
    for (let k = cls.entries.length - 1; k >= 0; k--) {
      const e = cls.entries[k]!;
      if (e.type === 'class' && e.name.toLowerCase() === lower) return e;
    }
    return undefined;
  };
  /** The base of `cls` (declared in `scope`): searched from the declaring scope outwards. */
  const baseOf = (cls: CfgClass, scope: Scope | undefined): { cls: CfgClass; scope: Scope | undefined } | undefined => {
    if (!cls.base) return undefined;
    for (let s = scope; s; s = s.parent) {
      const found = own(s.cls, cls.base);
      if (found && found !== cls) return { cls: found, scope: s };
    }
    problems.push({ severity: 'error', message: `class ${cls.name}: base class ${cls.base} is not defined`, at: place(cls.at) });
    return undefined;
  };
  /** A property with inheritance; `+=` arrays join the inherited items. */
  const prop = (cls: CfgClass, scope: Scope | undefined, name: string, depth = 0): CfgValue | undefined => {
    if (depth > MAX_INHERITANCE) {
      problems.push({ severity: 'error', message: `class ${cls.name}: inheritance deeper than ${MAX_INHERITANCE} (a loop?)`, at: place(cls.at) });
      return undefined;
    }
    const lower = name.toLowerCase();
    let p: CfgProperty | undefined;
    for (let k = cls.entries.length - 1; k >= 0 && !p; k--) {
      const e = cls.entries[k]!;
      if (e.type === 'value' && e.name.toLowerCase() === lower) p = e;
    }
    const b = p && !p.append ? undefined : baseOf(cls, scope);
    const inherited = b ? prop(b.cls, b.scope, name, depth + 1) : undefined;
    if (!p) return inherited;
    if (p.append && p.value.kind === 'array') return { ...p.value, items: [...(inherited?.kind === 'array' ? inherited.items : []), ...p.value.items] };
    return p.value;
  };
  const placeOfProp = (cls: CfgClass, scope: Scope | undefined, name: string, depth = 0): CfgPlace | undefined => {
    if (depth > MAX_INHERITANCE) return undefined;
    const lower = name.toLowerCase();
    for (let k = cls.entries.length - 1; k >= 0; k--) {
      const e = cls.entries[k]!;
      if (e.type === 'value' && e.name.toLowerCase() === lower) return place(e.value.at);
    }
    const b = baseOf(cls, scope);
    return b ? placeOfProp(b.cls, b.scope, name, depth + 1) : undefined;
  };
  /** Subclasses with inheritance: own ones plus the base's that are not redefined. */
  const classes = (cls: CfgClass, scope: Scope | undefined, depth = 0): { cls: CfgClass; scope: Scope }[] => {
    const here: Scope = { cls, ...(scope ? { parent: scope } : {}) };
    const b = depth < MAX_INHERITANCE ? baseOf(cls, scope) : undefined;
    const out = b ? classes(b.cls, b.scope, depth + 1) : [];
    for (const e of cls.entries) {
      if (e.type === 'delete') {
        const k = out.findIndex((o) => o.cls.name.toLowerCase() === e.name.toLowerCase());
        if (k >= 0) out.splice(k, 1);
      }
      if (e.type !== 'class' || e.external) continue;
      const k = out.findIndex((o) => o.cls.name.toLowerCase() === e.name.toLowerCase());
      if (k >= 0) out[k] = { cls: e, scope: here };
      else out.push({ cls: e, scope: here });
    }
    return out;
  };

  const str = (v: CfgValue | undefined): string => (v === undefined || v.kind === 'array' ? '' : String(v.value));
  const num = (v: CfgValue | undefined, def: number, what: string, owner: CfgClass): number => {
    if (v === undefined) return def;
    if (v.kind === 'number') return v.value as number;
    if (v.kind !== 'array') {
      const x = tryEvaluate(String(v.value));
      if (x !== undefined && Number.isFinite(x)) return x;
    }
    problems.push({ severity: 'error', message: `${owner.name}.${what}: ${v.kind === 'array' ? 'an array' : JSON.stringify(v.value)} is not a number`, at: place(v.at) });
    return def;
  };
  const strings = (v: CfgValue | undefined): { value: string; at: Origin }[] => (v?.kind === 'array' ? v.items.flatMap((x) => (x.kind === 'array' ? [] : [{ value: String(x.value), at: x.at }])) : []);
  const vec3 = (v: CfgValue | undefined, owner: CfgClass, what: string): [number, number, number] | undefined => {
    if (v?.kind !== 'array') return undefined;
    const xs = v.items.map((x) => num(x, 0, what, owner));
    return [xs[0] ?? 0, xs[1] ?? 0, xs[2] ?? 0];
  };

  const cfgSkeletons = own(doc.root, 'CfgSkeletons');
  const cfgModels = own(doc.root, 'CfgModels');
  const skelScope: Scope | undefined = cfgSkeletons ? { cls: cfgSkeletons, parent: rootScope } : undefined;

  // Skeletons: own bones of each class (inheritance for skeletonBones[] itself), then skeletonInherit.
  const rawSkeletons = cfgSkeletons ? classes(cfgSkeletons, rootScope) : [];
  const ownBones = new Map<string, { cls: CfgClass; scope: Scope; bones: CfgBone[]; inherit: string; discrete: boolean }>();
  for (const { cls, scope } of rawSkeletons) {
    const list = strings(prop(cls, scope, 'skeletonBones'));
    const bones: CfgBone[] = [];
    for (let k = 0; k + 1 < list.length; k += 2) bones.push({ name: list[k]!.value, parent: list[k + 1]!.value, at: place(list[k]!.at) });
    if (list.length % 2) problems.push({ severity: 'error', message: `${cls.name}.skeletonBones has an odd number of names (bone, parent pairs)`, at: place(list[list.length - 1]!.at) });
    ownBones.set(cls.name.toLowerCase(), { cls, scope, bones, inherit: str(prop(cls, scope, 'skeletonInherit')), discrete: num(prop(cls, scope, 'isDiscrete'), 1, 'isDiscrete', cls) !== 0 });
  }
  const skeletonBones = (name: string, seen: string[]): CfgBone[] => {
    const s = ownBones.get(name.toLowerCase());
    if (!s) return [];
    if (seen.includes(name.toLowerCase())) {
      problems.push({ severity: 'error', message: `skeletonInherit loop: ${[...seen, name].join(' -> ')}`, at: place(s.cls.at) });
      return [];
    }
    const inherited = s.inherit ? skeletonBones(s.inherit, [...seen, name.toLowerCase()]) : [];
    return [...inherited, ...s.bones];
  };
  const skeletons: CfgSkeleton[] = [...ownBones.values()].map((s) => {
    if (s.inherit && !ownBones.has(s.inherit.toLowerCase())) problems.push({ severity: 'error', message: `${s.cls.name}: skeletonInherit "${s.inherit}" is not in CfgSkeletons`, at: placeOfProp(s.cls, s.scope, 'skeletonInherit') ?? place(s.cls.at) });
    return { name: s.cls.name, isDiscrete: s.discrete, inherit: s.inherit, bones: skeletonBones(s.cls.name, []), at: place(s.cls.at) };
  });
  void skelScope;

  // Models.
  const rawModels = cfgModels ? classes(cfgModels, rootScope) : [];
  const modelInfo = new Map<string, { cls: CfgClass; scope: Scope }>();
  for (const m of rawModels) modelInfo.set(m.cls.name.toLowerCase(), m);
  const sectionsOf = (name: string, seen: string[]): string[] => {
    const m = modelInfo.get(name.toLowerCase());
    if (!m || seen.includes(name.toLowerCase()) || seen.length > MAX_INHERITANCE) return [];
    const mine = strings(prop(m.cls, m.scope, 'sections')).map((s) => s.value).filter((s) => s !== '');
    const inh = str(prop(m.cls, m.scope, 'sectionsInherit'));
    return [...mine, ...(inh ? sectionsOf(inh, [...seen, name.toLowerCase()]) : [])];
  };
  const models: CfgModel[] = rawModels.map(({ cls, scope }) => {
    const here: Scope = { cls, parent: scope };
    const animations: CfgAnimation[] = [];
    const animClass = classes(cls, scope).find((c) => c.cls.name.toLowerCase() === 'animations');
    for (const { cls: a, scope: as } of animClass ? classes(animClass.cls, animClass.scope) : []) {
      const P = (n: string): CfgValue | undefined => prop(a, as, n);
      const typeText = str(P('type'));
      const type = ANIMATION_TYPES.find((t) => t.toLowerCase() === typeText.toLowerCase());
      const places: Record<string, CfgPlace> = {};
      for (const n of ['type', 'selection', 'source', 'axis', 'begin', 'end', 'sourceAddress']) {
        const p = placeOfProp(a, as, n);
        if (p) places[n.toLowerCase()] = p;
      }
      if (!type) problems.push({ severity: 'error', message: `animation ${a.name}: ${typeText ? `unknown type "${typeText}"` : 'no type'}`, at: places.type ?? place(a.at) });
      const minValue = num(P('minValue'), 0, 'minValue', a);
      const maxValue = num(P('maxValue'), 1, 'maxValue', a);
      const addrText = str(P('sourceAddress')).toLowerCase();
      const sourceAddress: SourceAddress = addrText === 'loop' || addrText === 'mirror' ? addrText : 'clamp';
      if (addrText && addrText !== sourceAddress) problems.push({ severity: 'warning', message: `animation ${a.name}: unknown sourceAddress "${addrText}" (clamp used)`, at: places.sourceaddress ?? place(a.at) });
      const source = str(P('source'));
      const unHide = P('unHideValue');
      const anim: CfgAnimation = {
        name: a.name,
        typeText,
        ...(type ? { type } : {}),
        source: source || a.name,
        sourceImplicit: !source,
        selection: str(P('selection')),
        axis: str(P('axis')),
        begin: str(P('begin')),
        end: str(P('end')),
        memory: num(P('memory'), 1, 'memory', a) !== 0,
        minValue,
        maxValue,
        minPhase: num(P('minPhase'), minValue, 'minPhase', a),
        maxPhase: num(P('maxPhase'), maxValue, 'maxPhase', a),
        sourceAddress,
        angle0: num(P('angle0'), 0, 'angle0', a),
        angle1: num(P('angle1'), 0, 'angle1', a),
        offset0: num(P('offset0'), 0, 'offset0', a),
        offset1: num(P('offset1'), 0, 'offset1', a),
        hideValue: num(P('hideValue'), 0.5, 'hideValue', a),
        ...(unHide !== undefined ? { unHideValue: num(unHide, 0, 'unHideValue', a) } : {}),
        at: place(a.at),
        places,
      };
      if (type === 'direct') {
        const pos = vec3(P('axisPos'), a, 'axisPos');
        const dir = vec3(P('axisDir'), a, 'axisDir');
        if (pos) anim.axisPos = pos;
        if (dir) anim.axisDir = dir;
        anim.angle = num(P('angle'), 0, 'angle', a);
        anim.axisOffset = num(P('axisOffset'), 0, 'axisOffset', a);
      }
      animations.push(anim);
    }
    void here;
    return {
      name: cls.name,
      skeletonName: str(prop(cls, scope, 'skeletonName')),
      sectionsInherit: str(prop(cls, scope, 'sectionsInherit')),
      sections: sectionsOf(cls.name, []),
      animations,
      at: place(cls.at),
    };
  });
  return { skeletons, models, problems };
}

/** The model class the game uses for a model file: the class named like the file (case-insensitive). */
export function findModelClass(cfg: ModelCfg, modelFileName: string): CfgModel | undefined {
  const base = modelFileName.replace(/^.*[\\/]/, '').replace(/\.p3d$/i, '').toLowerCase();
  return cfg.models.find((m) => m.name.toLowerCase() === base);
}

/** The skeleton a model class names, or undefined. */
export function skeletonOf(cfg: ModelCfg, model: CfgModel): CfgSkeleton | undefined {
  if (!model.skeletonName) return undefined;
  const lower = model.skeletonName.toLowerCase();
  return cfg.skeletons.find((s) => s.name.toLowerCase() === lower);
}

/** The distinct sources a model's animations read, in first-use order, with their value range. */
export function animationSources(model: CfgModel): { name: string; min: number; max: number; animations: string[] }[] {
  const out = new Map<string, { name: string; min: number; max: number; animations: string[] }>();
  for (const a of model.animations) {
    const key = a.source.toLowerCase();
    const lo = Math.min(a.minValue, a.maxValue);
    const hi = Math.max(a.minValue, a.maxValue);
    const s = out.get(key);
    if (!s) out.set(key, { name: a.source, min: lo, max: hi, animations: [a.name] });
    else {
      s.min = Math.min(s.min, lo);
      s.max = Math.max(s.max, hi);
      s.animations.push(a.name);
    }
  }
  return [...out.values()];
}
