/**
 * Source animations in the CLI (a P3D model's model.cfg, or the animations compiled into an ODOL
 * model): `info` lists class, skeleton, animations and sources; `convert` poses the model
 * (`--pose SOURCE=VALUE`) or writes one glTF animation per source; `validate` adds the config's
 * checks, each at the config's file and line. The codec says whether it has such animations and
 * which config file it reads (capabilities.ts, SourceAnimationSupport).
 */
import { relative, resolve } from 'node:path';
import type { SourceAnimations } from '../../shared/formats/capabilities.ts';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import type { Problem } from '../../shared/model/problems.ts';
import { findConfigFile, readSourceConfig } from '../documents/model-cfg-files.ts';
import type { TextureLookup } from '../../shared/formats/texture/resolve.ts';
import { CliFailure } from './fail.ts';

/**
 * The model's source animations, or undefined when its format has none or it has none. `override`
 * is `--model-cfg`. A config that does not parse is a CliFailure naming its file, line and column.
 * `lookup`: the disk snapshot to find the config with (`check` keeps one for its run).
 */
export async function sourceAnimationsOf(codec: FormatCodec, doc: object, modelPath: string, cwd: string, override?: string, lookup?: TextureLookup): Promise<SourceAnimations | undefined> {
  const support = codec.sourceAnimations;
  if (!support) return undefined;
  const abs = resolve(cwd, modelPath);
  const file = override ? resolve(cwd, override) : support.configFile ? findConfigFile(abs, support.configFile, lookup) : undefined;
  // Animations that live in a config file: none without one (and the animator is not loaded).
  if (support.configFile && !file) return undefined;
  const animator = await support.load();
  let config: { file: string; doc: object } | undefined;
  if (file && animator.readConfig) {
    try {
      config = readSourceConfig(file, animator);
    } catch (e) {
      throw new CliFailure(e instanceof Error ? e.message : String(e));
    }
  }
  return animator.animations(doc, abs, config);
}

/** A path as the user reads it: relative to the working folder. */
const shown = (file: string, cwd: string): string => relative(cwd, file) || file;

/** `info`'s rows, animation table and JSON, with config paths relative to the working folder. */
export function sourceAnimationsInfo(a: SourceAnimations, cwd: string): ReturnType<SourceAnimations['info']> {
  const info = a.info();
  const file = typeof info.json.file === 'string' ? info.json.file : undefined;
  const rows = info.rows.map(([k, v]): [string, string] => [k, file ? v.split(file).join(shown(file, cwd)) : v]);
  return { ...info, rows };
}

/** `--pose door1=1 door3=0.5` -> source values by lower-case name; a bad pair is a CliFailure. */
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

/** The config's problems as `validate` prints them: the place is the config file and line. */
export function sourceAnimationProblems(a: SourceAnimations, cwd: string): Problem[] {
  return a.problems().map((p) => ({ severity: p.severity, message: p.message, where: `${shown(p.at.file, cwd)}:${p.at.line}`, path: [] }));
}

/**
 * For `check`: the first error of the model's source animations (its config does not parse, or a
 * check failed), as one line naming the config's file and line; undefined when there is none.
 */
export async function sourceAnimationError(codec: FormatCodec, doc: object, absModel: string, lookup?: TextureLookup): Promise<string | undefined> {
  if (!codec.sourceAnimations) return undefined;
  let anims: SourceAnimations | undefined;
  try {
    anims = await sourceAnimationsOf(codec, doc, absModel, '/', undefined, lookup);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  const first = anims?.problems().find((p) => p.severity === 'error');
  return first ? `${first.at.file}:${first.at.line}: ${first.message}` : undefined;
}
