/**
 * Modding rules: checks of what the game (not the file format) needs, each with a stable id, a
 * default severity and a one-line reason per finding (docs/rules.md lists them and says why the
 * game cares). A format declares its rules on its codec (`FormatCodec.rules`); this module runs
 * them with the user's choices: `--rule`/`--no-rule` on the command line, a `lodsmith.json`
 * beside the files, the editor's settings.
 *
 * Checks that need files beside the model (a texture or proxy that must exist, a texture's size)
 * ask the {@link RuleEnvironment}; where it cannot answer (no lookup given) they stay silent.
 */
import type { NodePath } from './path.ts';
import type { Problem, Severity } from './problems.ts';

export interface RuleInfo {
  /** Stable id, kebab-case: `path-absolute`, `geometry-no-mass`. */
  id: string;
  severity: Severity;
  /** What it checks, one line. */
  title: string;
}

/** What a rule found. `where` names the LOD, and the selection or face when there is one. */
export interface RuleFinding {
  rule: string;
  message: string;
  where: string;
  path?: NodePath;
  offset?: number;
}

/** A problem that comes from a modding rule: its id travels with it (Problems panel, JSON). */
export interface RuleProblem extends Problem {
  rule: string;
}

export interface RuleEnvironment {
  /**
   * Whether a path a model names exists (`texture` and `material` as the textures issue resolves
   * them; `model` for a proxy, `.p3d` added). Undefined: not known (no lookup), so not reported.
   */
  exists?(written: string, kind: 'texture' | 'material' | 'model'): boolean | undefined;
  /** The pixel size of the texture a path names, when it can be read. */
  textureSize?(written: string): { width: number; height: number } | undefined;
}

export interface RuleSet {
  rules: readonly RuleInfo[];
  run(doc: object, env: RuleEnvironment): RuleFinding[];
}

/** The user's choices. `only` (from --rule) keeps just those; `levels` (lodsmith.json) set or turn off. */
export interface RuleConfig {
  only?: readonly string[];
  off?: readonly string[];
  levels?: Readonly<Record<string, Severity | 'off'>>;
}

/** Ids in `config` that name no rule of `known` (a typo the user should hear about). */
export function unknownRuleIds(config: RuleConfig, known: readonly RuleInfo[]): string[] {
  const ids = new Set(known.map((r) => r.id));
  return [...(config.only ?? []), ...(config.off ?? []), ...Object.keys(config.levels ?? {})].filter((id) => !ids.has(id));
}

/** The severity a rule has under `config`, or 'off'. */
export function ruleLevel(rule: RuleInfo, config: RuleConfig): Severity | 'off' {
  if (config.only && config.only.length && !config.only.includes(rule.id)) return 'off';
  if (config.off?.includes(rule.id)) return 'off';
  return config.levels?.[rule.id] ?? rule.severity;
}

/** Runs a format's rules and turns the findings into problems, errors first, each rule's findings together. */
export function runRules(set: RuleSet, doc: object, env: RuleEnvironment, config: RuleConfig = {}): RuleProblem[] {
  const level = new Map(set.rules.map((r) => [r.id, ruleLevel(r, config)]));
  if ([...level.values()].every((l) => l === 'off')) return [];
  const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  const out: RuleProblem[] = [];
  for (const f of set.run(doc, env)) {
    const sev = level.get(f.rule);
    if (sev === undefined || sev === 'off') continue;
    out.push({ rule: f.rule, severity: sev, message: `${f.message} [${f.rule}]`, where: f.where, ...(f.path ? { path: f.path } : {}), ...(f.offset !== undefined ? { offset: f.offset } : {}) });
  }
  const ruleOrder = new Map(set.rules.map((r, i) => [r.id, i]));
  return out.sort((a, b) => order[a.severity] - order[b.severity] || ruleOrder.get(a.rule)! - ruleOrder.get(b.rule)!);
}

/**
 * `lodsmith.json` (or the editor's settings): `{"rules": {"path-forward-slash": "off",
 * "uv-far-outside": "error"}}`. Anything else in the file is left for other uses; a malformed
 * rules entry is an error message, not a silent default.
 */
export function parseRuleConfig(json: unknown): RuleConfig | string {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'lodsmith.json must hold a JSON object';
  const rules = (json as { rules?: unknown }).rules;
  if (rules === undefined) return {};
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return '"rules" must be an object of rule id -> "error", "warning", "info" or "off"';
  const levels: Record<string, Severity | 'off'> = {};
  for (const [id, v] of Object.entries(rules)) {
    if (v !== 'error' && v !== 'warning' && v !== 'info' && v !== 'off') return `rule ${id}: "${String(v)}" is not "error", "warning", "info" or "off"`;
    levels[id] = v;
  }
  return { levels };
}
