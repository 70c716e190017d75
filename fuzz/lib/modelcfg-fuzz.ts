/**
 * Fuzzing model.cfg text through the whole pipeline: preprocess (with includes that may include
 * each other), parse, byte-identical re-save, reading skeletons and models, the checks, and the
 * evaluator at random source values; then the editor's document (the p3d-modelcfg codec): its
 * checks, outline and inspector, one random value edited in place (the saved text must read back
 * with that value) and undone (the bytes must come back). Every input must end in success or one ConfigError with a
 * line and column inside the input (or an included file); anything else is a finding, and so is an
 * input that takes longer than a second (unbounded expansion). Mutations mix the byte-level ones
 * of the model harness with config-aware ones: inserted directives, self-including files,
 * recursive and exploding macros, unbalanced braces and quotes.
 *
 * `npm run fuzz:modelcfg` drives it; test/unit/modelcfg-fuzz.test.ts runs a short campaign.
 */
import { ConfigError } from '../../shared/formats/p3d/modelcfg/lexer.ts';
import { decodeModelCfg, encodeModelCfg } from '../../shared/formats/p3d/modelcfg/document.ts';
import { readModelCfg, skeletonOf, animationSources } from '../../shared/formats/p3d/modelcfg/model.ts';
import { checkModelCfg } from '../../shared/formats/p3d/modelcfg/checks.ts';
import { playable } from '../../shared/formats/p3d/modelcfg/pose-mlod.ts';
import { poseBones } from '../../shared/formats/p3d/modelcfg/animate.ts';
import type { ReadInclude } from '../../shared/formats/p3d/modelcfg/preprocess.ts';
import { modelCfgCodec, type ModelCfgFile } from '../../shared/formats/p3d/modelcfg/codec.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import type { InspectField, OutlineNode } from '../../shared/model/outline.ts';
import { getAt } from '../../shared/model/path.ts';
import { mutate, type Seed } from './mutate.ts';
import { Prng } from './prng.ts';

export interface ModelCfgFinding {
  seed: string;
  desc: string;
  message: string;
  bytes: Uint8Array;
}

export interface ModelCfgFuzzStats {
  inputs: number;
  parsed: number;
  refused: number;
  findings: ModelCfgFinding[];
}

/** Longest an input may take (a campaign on a loaded machine stays well under it). */
const SLOW_MS = 1000;

/** Text pieces the config-aware mutations insert. */
const PIECES = [
  '#define A A\nA\n', '#define F(x) F(x)\nF(1)\n', '#define B(x) x x x x x x x x\n#define C B(B(B(B(B(B(1))))))\nC\n',
  '#include "self.hpp"\n', '#include "a.hpp"\n', '#include <b.hpp>\n', '#ifdef X\n', '#ifndef X\n', '#else\n', '#endif\n', '#if 1\n',
  '#define Q(x) #x\n', '#define P(a,b) a##b\n', 'Q(door)', 'P(do,or)', '__EVAL(1+2*3)', '__EVAL(rad 45)', '__EXEC(n = 2)', '__LINE__',
  'class X: Y {', 'class Z;', 'delete Z;', '};', '{', '}', ';', '"', '""', '/*', '*/', '//', '\\\n', 'a[] += {1, {2, 3}};',
  'angle1 = "rad 90";', 'minValue = -3.14159/2;', 'type = "hide";', 'sourceAddress = "mirror";', 'skeletonInherit = "Default";',
  '(((((((((((', ')))))', '-'.repeat(300), '\u0000', '\ufeff', '\r\n',
];

const INCLUDES: Record<string, string> = {
  'self.hpp': '#include "self.hpp"\n',
  'a.hpp': '#include "b.hpp"\nclass FromA {};\n',
  'b.hpp': '#include "a.hpp"\n',
};

const reader: ReadInclude = (path) => {
  const name = path.replace(/^.*[\\/]/, '').toLowerCase();
  const text = INCLUDES[name];
  return text === undefined ? undefined : { name, text };
};

/** Runs one input; returns what went wrong, if anything. */
export function runModelCfgInput(bytes: Uint8Array, rnd: Prng): { outcome: 'ok' | 'refused'; problem?: string } {
  const t0 = performance.now();
  const slow = (): string | undefined => {
    const ms = performance.now() - t0;
    return ms > SLOW_MS ? `took ${Math.round(ms)} ms (unbounded work?)` : undefined;
  };
  try {
    const doc = decodeModelCfg(bytes, { fileName: 'model.cfg', readInclude: reader });
    const again = encodeModelCfg(doc);
    if (again.length !== bytes.length || again.some((b, i) => b !== bytes[i])) return { outcome: 'ok', problem: 'untouched model.cfg did not re-save byte for byte' };
    const cfg = readModelCfg(doc);
    for (const model of cfg.models) {
      const skeleton = skeletonOf(cfg, model);
      checkModelCfg(cfg, model, skeleton, `${model.name}.p3d`, { lods: [{ name: '1.000', visual: true, selections: ['door1', 'rise'] }], memoryPoints: () => [[0, 0, 0], [0, 1, 0]] }, 'model.cfg');
      const values = new Map(animationSources(model).map((s) => [s.name.toLowerCase(), (rnd.int(2001) - 1000) / 100] as const));
      const poses = poseBones(skeleton?.bones ?? [], playable(model), values, () => ({ begin: [0, 0, 0], end: [0, 1, 0] }));
      for (const p of poses) if (p.matrix.length !== 16) return { outcome: 'ok', problem: `bone ${p.name}: a matrix of ${p.matrix.length} numbers` };
    }
    const docProblem = editorDocument(bytes, rnd);
    if (docProblem) return { outcome: 'ok', problem: docProblem };
    const s = slow();
    return s ? { outcome: 'ok', problem: s } : { outcome: 'ok' };
  } catch (e) {
    const s = slow();
    if (s) return { outcome: 'refused', problem: s };
    if (e instanceof ConfigError) {
      if (!(e.line >= 1 && e.column >= 1)) return { outcome: 'refused', problem: `ConfigError without a place: ${e.message}` };
      return { outcome: 'refused' };
    }
    return { outcome: 'refused', problem: `${(e as Error)?.name ?? 'throw'}: ${(e as Error)?.message ?? String(e)}` };
  }
}

/** The editor's document of a text that parses: checks, tree, inspector, one edit and its undo. */
function editorDocument(bytes: Uint8Array, rnd: Prng): string | undefined {
  const file = modelCfgCodec.decode(bytes, { fileName: 'model.cfg', readInclude: reader }) as ModelCfgFile;
  modelCfgCodec.validate(file);
  const fields: InspectField[] = [];
  const walk = (n: OutlineNode): void => {
    fields.push(...(modelCfgCodec.inspect(file, n.path)?.fields ?? []));
    n.children?.forEach(walk);
  };
  walk(modelCfgCodec.outline(file));
  const editable = fields.filter((f) => !f.readonly && (typeof f.value === 'number' || typeof f.value === 'string'));
  if (!editable.length) return undefined;
  const f = editable[rnd.int(editable.length)]!;
  const value = typeof f.value === 'number' ? f.value + 1 + rnd.int(100) / 8 : ['open', 'a "quoted" word', 'rad 45', ''][rnd.int(4)]!;
  const cmd = { op: 'set' as const, path: f.path, value };
  const refused = modelCfgCodec.checkEdit!(file, cmd);
  if (refused) return `an inspector field that is not read-only was refused: ${refused}`;
  const inverse = applyCommand(file, cmd);
  const saved = modelCfgCodec.encode(file);
  // The edited text reads back with the value written (a text that parsed before still parses).
  let again: ModelCfgFile;
  try {
    again = modelCfgCodec.decode(saved, { fileName: 'model.cfg', readInclude: reader }) as ModelCfgFile;
  } catch (e) {
    return `setting ${f.path.join('/')} to ${JSON.stringify(value)} made a file that does not read back: ${(e as Error).message}`;
  }
  const got = getAt(again, f.path);
  if (got !== value) return `setting ${f.path.join('/')} to ${JSON.stringify(value)} read back as ${JSON.stringify(got)}`;
  applyCommand(file, inverse);
  const undone = modelCfgCodec.encode(file);
  if (undone.length !== bytes.length || undone.some((b, i) => b !== bytes[i])) return `undoing the edit of ${f.path.join('/')} did not give the bytes back`;
  return undefined;
}

function configMutation(rnd: Prng, seed: Seed): { bytes: Uint8Array; desc: string } {
  let text = '';
  for (let i = 0; i < seed.bytes.length; i += 8192) text += String.fromCharCode(...seed.bytes.subarray(i, i + 8192));
  const n = 1 + rnd.int(4);
  let out = text;
  const descs: string[] = [];
  for (let k = 0; k < n; k++) {
    const at = rnd.int(out.length + 1);
    const op = rnd.int(3);
    if (op === 0) {
      const piece = PIECES[rnd.int(PIECES.length)]!;
      out = out.slice(0, at) + piece + out.slice(at);
      descs.push(`insert ${JSON.stringify(piece.slice(0, 20))} at ${at}`);
    } else if (op === 1) {
      const len = rnd.int(40);
      out = out.slice(0, at) + out.slice(at + len);
      descs.push(`delete ${len} at ${at}`);
    } else {
      const len = rnd.int(200);
      const from = rnd.int(out.length + 1);
      out = out.slice(0, at) + out.slice(from, from + len) + out.slice(at);
      descs.push(`copy ${len} from ${from} to ${at}`);
    }
  }
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i) & 0xff;
  return { bytes, desc: descs.join(', ') };
}

/** Mutates the seeds `inputs` times (or until `seconds` pass) and runs each mutant. */
export function fuzzModelCfg(seeds: readonly Seed[], opts: { inputs: number; seconds: number; seed: number }): ModelCfgFuzzStats {
  const rnd = new Prng(opts.seed);
  const stats: ModelCfgFuzzStats = { inputs: 0, parsed: 0, refused: 0, findings: [] };
  const t0 = performance.now();
  while (stats.inputs < opts.inputs && performance.now() - t0 < opts.seconds * 1000) {
    const seed = seeds[rnd.int(seeds.length)]!;
    const m = rnd.int(3) === 0 ? (() => { const x = mutate(rnd, seed, seeds[rnd.int(seeds.length)]!); return { bytes: x.bytes, desc: `${x.kind} ${x.desc}` }; })() : configMutation(rnd, seed);
    stats.inputs++;
    const r = runModelCfgInput(m.bytes, rnd);
    if (r.outcome === 'ok') stats.parsed++;
    else stats.refused++;
    if (r.problem) stats.findings.push({ seed: seed.name, desc: m.desc, message: r.problem, bytes: m.bytes });
  }
  return stats;
}

/** model.cfg texts the project writes itself: every construct the reader takes. */
export function generatedModelCfgSeeds(): Seed[] {
  const texts: Record<string, string> = {
    'generated:macros.cfg': [
      '#define ROT(name, sel, src, a) class name { type = "rotation"; selection = #sel; source = src; axis = #sel##_axis; angle1 = a; };',
      '#ifndef NOPE', '#define DEG 90', '#else', '#define DEG 0', '#endif',
      'class CfgSkeletons { class Default { isDiscrete = 1; skeletonInherit = ""; skeletonBones[] = {}; };',
      '  class S: Default { skeletonInherit = "Default"; skeletonBones[] = {"door1", "", "handle", "door1"}; }; };',
      'class CfgModels { class Default { sections[] = {}; sectionsInherit = ""; skeletonName = ""; };',
      '  class house: Default { skeletonName = "S"; sections[] += {"door1"}; class Animations {',
      '    ROT(Door1, door1, "door", "rad DEG")',
      '    class Handle { type = "rotationZ"; selection = "handle"; minValue = -1; maxValue = 1; angle0 = __EVAL(-DEG / 180 * 3.14159); angle1 = 0.5; sourceAddress = "loop"; };',
      '    class Hide { type = "hide"; selection = "handle"; source = "damage"; hideValue = 0.3; unHideValue = 0.9; };',
      '    class Slide { type = "translation"; selection = "door1"; begin = "b"; end = "e"; offset1 = "0.5"; };',
      '  }; }; };',
    ].join('\n'),
  };
  return Object.entries(texts).map(([name, t]) => ({ name, format: 'modelcfg', bytes: new TextEncoder().encode(t), streams: [] }));
}
