/** `lodsmith validate FILE`: the format's own checks (spec rules, broken references, odd values). */
import { basename, dirname, resolve } from 'node:path';
import type { Problem } from '../../../shared/model/problems.ts';
import { runRules, type RuleProblem } from '../../../shared/model/rules.ts';
import type { FormatCodec } from '../../../shared/formats/registry.ts';
import { animationSceneOptions, bindingProblems, trackTargets } from '../../../shared/scene/attach.ts';
import type { Scene } from '../../../shared/scene/scene.ts';
import { EXIT_OK, EXIT_PROBLEMS, FileError } from '../fail.ts';
import { writeJson, writeLines, type CliIO } from '../io.ts';
import { loadModel } from '../load.ts';
import { plural } from '../text.ts';

export interface ValidateOptions {
  json?: boolean;
  /** --rule / --no-rule: modding rules to run only / to leave out (comma-separated ids). */
  rule?: string | string[];
  skipRule?: string | string[];
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
  /** An animation file: also check its bones against this model's skeleton (warnings). */
  model?: string;
  /** Warnings fail too (exit 1). */
  strict?: boolean;
  /** A P3D model's model.cfg, instead of the one found beside it (--model-cfg). */
  modelCfg?: string;
}

export async function runValidate(file: string, opts: ValidateOptions, io: CliIO): Promise<number> {
  const { codec, doc } = await loadModel(file, io.cwd, opts.maxMemory);
  const problems: Problem[] = [...codec.validate(doc)];
  if (opts.model) problems.push(...(await bindingAgainst(file, codec, doc, opts.model, io.cwd, opts.maxMemory)));
  // A model's source animations (P3D: model.cfg) are checked against it; each problem names the config's file and line.
  const { sourceAnimationProblems, sourceAnimationsOf } = await import('../model-cfg-cli.ts');
  const anims = await sourceAnimationsOf(codec, doc, file, io.cwd, opts.modelCfg);
  if (anims) problems.push(...sourceAnimationProblems(anims, io.cwd));
  if (codec.rules) {
    // Loaded only here: the rules' file look-ups bring texture code that `info` never needs (both sit in the core chunk).
    const { fileRuleEnvironment, loadTextureCodecs, ruleChoices, textureFileSize } = await import('../../documents/rules-env.ts');
    const abs = resolve(io.cwd, file);
    const config = ruleChoices(dirname(abs), opts, codec.rules.rules);
    await loadTextureCodecs();
    problems.push(...runRules(codec.rules, doc, fileRuleEnvironment(abs, [], (p) => textureFileSize(p)), config));
  }
  // Grouped by severity: errors, then warnings, then notes (each group in the order found).
  const rank = { error: 0, warning: 1, info: 2 } as const;
  problems.sort((a, b) => rank[a.severity] - rank[b.severity]);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  if (opts.json) {
    const out = { file, format: codec.id, errors, warnings, problems: problems.map((p) => ({ severity: p.severity, where: p.where, offset: p.offset, message: p.message, path: p.path, ...('rule' in p ? { rule: (p as RuleProblem).rule } : {}) })) };
    await writeJson(io.stdout, out);
  } else {
    // Paths padded to a common width (within reason) so offsets and messages line up.
    const width = Math.min(60, Math.max(0, ...problems.map((p) => (p.where || '(file root)').length)));
    const lines = problems.map((p) => formatProblem(p, width));
    const infos = problems.length - errors - warnings;
    lines.push(problems.length === 0 ? `${file}: no problems found` : `${file}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${infos ? `, ${plural(infos, 'note')}` : ''}`);
    await writeLines(io.stdout, lines);
  }
  return errors > 0 || (opts.strict && warnings > 0) ? EXIT_PROBLEMS : EXIT_OK;
}

/** The animation's bones against a model's skeleton: bones the model lacks, bones never moved. */
async function bindingAgainst(file: string, codec: FormatCodec, doc: object, modelFile: string, cwd: string, maxMemory?: number): Promise<Problem[]> {
  let model: Scene;
  try {
    const m = await loadModel(modelFile, cwd, maxMemory);
    model = m.codec.toScene(m.doc);
    // No skeleton of its own (MLOD): the bones are the named selections the animation's bones name.
    if (!model.skeleton?.bones.length) model = m.codec.toScene(m.doc, { skinBones: trackTargets(codec.toScene(doc).clips) });
  } catch (e) {
    throw new FileError(modelFile, e);
  }
  const clips = codec.toScene(doc, animationSceneOptions(model)).clips;
  if (!model.skeleton?.bones.length) {
    return [{ severity: 'warning', message: `${basename(modelFile)} has no skeleton and no named selection of any bone of ${basename(file)}`, where: basename(file) }];
  }
  return bindingProblems(model, clips, basename(file), basename(modelFile));
}

/** `error    LOD1/MSL1/MSH1[2]  @0x1a2b  message`: severity, node path, offset, message. */
export function formatProblem(p: Problem, pathWidth = 0): string {
  const at = p.offset !== undefined ? `@0x${p.offset.toString(16)}` : '@-';
  return `${p.severity.padEnd(7)}  ${(p.where || '(file root)').padEnd(pathWidth)}  ${at.padEnd(9)}  ${p.message}`;
}
