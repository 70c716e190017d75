/**
 * Arma material files (.rvmat, text config): the texture of each stage, and what the stage is
 * for, told from the texture's suffix the way Bohemia's naming rules use it (`_co` colour, `_ca`
 * colour with alpha, `_nohq` normal map, `_smdi` specular, `_as` ambient shadow, `_mc` macro,
 * `_dt` detail, `_ti` thermal, `env_*` environment) or, for a procedural texture, its last argument
 * (`#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)` is a detail stage).
 *
 * The preview draws one texture per material: the face's own texture, else the rvmat's colour
 * stage (Stage0, or a stage whose texture is `_co`/`_ca`). The other stages are reported, not
 * drawn. Only the rvmat's own text is read: `#include`, macros and inheritance are not followed
 * (the stage classes of real rvmats are written out in full).
 */

export type StageRole = 'colour' | 'normal' | 'specular' | 'ambient shadow' | 'macro' | 'detail' | 'thermal' | 'environment' | 'other';

export interface RvmatStage {
  /** The class name: `Stage1`, `StageTI`. */
  name: string;
  /** The texture as written (a path or a procedural texture). */
  texture: string;
  role: StageRole;
  procedural: boolean;
}

const ROLE_BY_SUFFIX: [RegExp, StageRole][] = [
  [/_c[oa]$/i, 'colour'], [/_nohq$|_no$|_nopx$/i, 'normal'], [/_smdi$|_sm$/i, 'specular'], [/_as$/i, 'ambient shadow'],
  [/_mc$|_mco$/i, 'macro'], [/_dt$|_cdt$/i, 'detail'], [/_ti$|_ti_ca$/i, 'thermal'],
];

/** What a stage texture is for, from its suffix (file) or last argument (procedural). */
export function stageRole(texture: string): StageRole {
  const t = texture.trim();
  if (t.startsWith('#')) {
    const arg = /,\s*([A-Za-z]+)\s*\)\s*$/.exec(t)?.[1];
    return arg ? roleOf(`_${arg}`) : 'other';
  }
  const base = t.replace(/\.[a-z0-9]+$/i, '');
  // `default_ti_ca` is a thermal map and `env_land_co` an environment map, whatever their last suffix says.
  if (/_ti_ca$/i.test(base)) return 'thermal';
  if (/(^|[\\/])env_[^\\/]*$/i.test(base)) return 'environment';
  return roleOf(base);
}

function roleOf(base: string): StageRole {
  for (const [re, role] of ROLE_BY_SUFFIX) if (re.test(base)) return role;
  return 'other';
}

/** Most stages read from one rvmat (real ones have up to about 10). */
const MAX_STAGES = 64;

/**
 * The stages of an rvmat's text: every `class Stage...` (any nesting) with a `texture = "..."`
 * directly inside it, in file order. Comments are skipped; anything unparsable is ignored.
 */
export function parseRvmat(text: string): RvmatStage[] {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const stages: RvmatStage[] = [];
  const re = /class\s+(Stage[A-Za-z0-9_]*)\s*(?::\s*[A-Za-z0-9_]+\s*)?\{/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src)) && stages.length < MAX_STAGES) {
    // The class body up to its matching brace.
    let depth = 1;
    let i = re.lastIndex;
    const start = i;
    for (; i < src.length && depth > 0; i++) {
      if (src[i] === '{') depth++;
      else if (src[i] === '}') depth--;
    }
    const body = src.slice(start, i - 1);
    // Only the stage's own `texture`, not one of a nested class.
    const own = body.replace(/\{[^{}]*\}/g, '');
    const t = /(?:^|[;\s])texture\s*=\s*"([^"]*)"/i.exec(own)?.[1];
    if (t === undefined) continue;
    stages.push({ name: m[1]!, texture: t, role: stageRole(t), procedural: t.trim().startsWith('#') });
  }
  return stages;
}

/** The stage the preview draws when the face names no texture: Stage0, else the first colour stage that is a file. */
export function colourStage(stages: readonly RvmatStage[]): RvmatStage | undefined {
  return stages.find((s) => /^stage0$/i.test(s.name) && s.texture && !s.procedural)
    ?? stages.find((s) => s.role === 'colour' && !s.procedural && !/^stageti$/i.test(s.name));
}

/** One line naming the stages that are not drawn: `Stage1 normal (a\b_nohq.paa), Stage2 detail (procedural)`. */
export function describeStages(stages: readonly RvmatStage[]): string {
  return stages.map((s) => `${s.name} ${s.role} (${s.procedural ? 'procedural' : s.texture})`).join(', ');
}
