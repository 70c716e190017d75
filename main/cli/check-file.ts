/** One file of `lodsmith check`: detect, decode, round-trip, time it. Runs inside a worker. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isDecodeError } from '../../shared/errors.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { entryBytes, type PboEntry } from '../../shared/formats/pbo/pbo.ts';
import { runRules, type RuleConfig, type RuleEnvironment, type RuleSet } from '../../shared/model/rules.ts';
import { fsLookup } from '../documents/fs-lookup.ts';
import { PboFile } from '../documents/pbo-file.ts';
import { archiveRuleEnvironment, fileRuleEnvironment, loadTextureCodecs, ruleChoices, textureFileSize } from '../documents/rules-env.ts';
import { codecFor, includeOptions, MAX_INPUT_BYTES, recognisesModel } from './load.ts';
import { describeError, where } from './fail.ts';
import { describeDiff, firstDifferenceFast, roundTrip } from './verify.ts';

export interface CheckResult {
  /** Path relative to the checked folder. */
  file: string;
  format?: string;
  version?: string | number;
  bytes: number;
  result: 'ok' | 'differs' | 'error';
  /** What went wrong, one line (no file name). */
  detail?: string;
  /** Byte offset of the decode error or the first difference. */
  offset?: number;
  /** Node path of the decode error or the first difference. */
  path?: string;
  /** What the modding rules found (docs/rules.md), when the format has rules. */
  rules?: { errors: number; warnings: number; problems: { rule: string; severity: string; where: string; message: string }[] };
  ms: number;
}

type TextureModule = typeof import('../../shared/formats/texture/index.ts');
type TextureBudget = typeof import('../../shared/formats/texture/budget.ts').textureBudget;

export interface CheckJob {
  abs: string;
  /** Shown path: relative to the checked folder; `archive.pbo::path\in\archive.p3d` for a PBO entry. */
  file: string;
  strict: boolean;
  /** Set when the file is an entry of the PBO at `abs`: the entry as the archive's header gave it. */
  pbo?: PboEntry;
  /** The archive's prefix and entry names, for the modding rules' lookups inside it. */
  archive?: { prefix: string; names: string[] };
  /** --rule / --no-rule as given (the worker adds each folder's lodsmith.json). */
  rules?: { rule?: string; skipRule?: string };
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
}

/**
 * The bytes of the file being checked, in one buffer the worker keeps for the next file: a new
 * buffer per file cost a page fault per 4 KiB on first touch (inside `read`), 13% of a worker's
 * time over the corpus on a machine where a fault costs ~10 us. Files above {@link KEEP_BYTES} get a
 * buffer of their own, dropped with them. Safe because a file's document (whose arrays may be
 * views of these bytes) and everything made from it are dropped before the next file is read.
 */
let scratch = new Uint8Array(0);
const KEEP_BYTES = 64 << 20;

export function readReused(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_INPUT_BYTES) throw new Error('file too large');
    let buf = scratch;
    if (size > buf.length) {
      buf = new Uint8Array(size > KEEP_BYTES ? size : Math.min(KEEP_BYTES, Math.max(size, buf.length * 2, 1 << 20)));
      if (size <= KEEP_BYTES) scratch = buf;
    }
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, null);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** A PBO entry's decoded bytes: its stored bytes read from the archive, expanded under the budget. */
function readEntry(job: CheckJob & { pbo: PboEntry }): Uint8Array {
  const e = job.pbo;
  const fd = openSync(job.abs, 'r');
  let stored: Uint8Array;
  try {
    stored = new Uint8Array(e.unreadable ? 0 : e.dataSize);
    let got = 0;
    while (got < stored.length) {
      const n = readSync(fd, stored, got, stored.length - got, e.dataOffset + got);
      if (n === 0) break;
      got += n;
    }
    stored = stored.subarray(0, got);
  } finally {
    closeSync(fd);
  }
  return withBudget(job.maxMemory !== undefined ? new MemoryBudget(job.maxMemory) : MemoryBudget.forInput(e.dataSize), () => entryBytes(e, stored));
}

/**
 * The disk as the rules' path lookups see it, kept for the worker's whole run: the folders each
 * model's references walk through (the model's folder, its parents, the folders its paths name)
 * are mostly the same for every model of a mod, and listing them again for each model was a
 * tenth of a worker's time over the corpus. A check is one pass over a folder that is not being
 * changed under it, the same snapshot the editor takes for one resolution pass.
 */
const runLookup = fsLookup();

/** The rule choices of each folder (its nearest lodsmith.json and the command's --rule) per rule set, for the run. */
const choicesByDir = new Map<RuleSet, Map<string, RuleConfig>>();

function runRuleChoices(dir: string, set: RuleSet, opts: NonNullable<CheckJob['rules']>): RuleConfig {
  let bySet = choicesByDir.get(set);
  if (!bySet) choicesByDir.set(set, (bySet = new Map()));
  const key = `${dir}\u0000${opts.rule ?? ''}\u0000${opts.skipRule ?? ''}`;
  let config = bySet.get(key);
  if (!config) {
    // A bad lodsmith.json or rule id throws here for each of the folder's files, as before.
    config = ruleChoices(dir, opts, set.rules);
    if (bySet.size >= 10_000) bySet.clear();
    bySet.set(key, config);
  }
  return config;
}

/** The modding rules over a decoded model: files beside it, or entries of its archive. */
async function modRules(set: RuleSet, doc: object, job: CheckJob): Promise<NonNullable<CheckResult['rules']>> {
  const config = runRuleChoices(dirname(job.abs), set, job.rules ?? {});
  await loadTextureCodecs();
  let env: RuleEnvironment;
  if (job.pbo && job.archive) {
    const byName = new Map<string, PboEntry>();
    const a = job.archive;
    env = archiveRuleEnvironment(a.prefix, a.names, (name) => {
      // Sizes of textures in the archive: read from it (entries found by name through a fresh header parse).
      if (!byName.size) for (const e of PboFile.open(job.abs).closeAfter((f) => f.archive.entries)) byName.set(e.name, e);
      const e = byName.get(name);
      return e ? textureFileSize(`${job.abs}::${name}`, () => readEntry({ ...job, pbo: e })) : undefined;
    });
  } else {
    env = fileRuleEnvironment(job.abs, [], (p) => textureFileSize(p), runLookup);
  }
  const found = runRules(set, doc, env, config);
  return {
    errors: found.filter((p) => p.severity === 'error').length,
    warnings: found.filter((p) => p.severity === 'warning').length,
    problems: found.map((p) => ({ rule: p.rule, severity: p.severity, where: p.where, message: p.message })),
  };
}

/** The name a codec sees: the file's own name, or a PBO entry's last segment. */
function nameOf(job: CheckJob): string {
  return job.pbo ? job.pbo.name.split(/[\\/]/).pop()! : basename(job.file);
}

export async function checkFile(job: CheckJob): Promise<CheckResult> {
  const t0 = performance.now();
  let bytes = 0;
  let format: string | undefined;
  let version: string | number | undefined;
  try {
    const data = job.pbo ? readEntry(job as CheckJob & { pbo: PboEntry }) : readReused(job.abs);
    bytes = data.length;
    // Texture code (decoders, PNG and JPEG libraries, their tables) loads only once a file that is
    // no model turns up: a worker's start costs ~40 ms of CPU with it, which a folder of models
    // would pay for nothing.
    if (!recognisesModel(data)) {
      const texture = await import('../../shared/formats/texture/index.ts');
      if (texture.probeTexture(data, nameOf(job))) return checkTexture(texture, (await import('../../shared/formats/texture/budget.ts')).textureBudget, job, data, t0);
    }
    const codec = await codecFor(data, nameOf(job));
    format = codec.id;
    const maxMemory = job.maxMemory !== undefined ? { maxMemory: job.maxMemory } : {};
    // Read-only: the document's arrays may be views of the file's bytes (shared/binary/share.ts).
    // A config's includes are read beside it on disk (none for an archive's entry).
    const includes = job.pbo ? {} : includeOptions(codec, job.abs);
    const doc = codec.decode(data, { fileName: nameOf(job), share: true, ...maxMemory, ...includes }) as object;
    version = codec.info(doc, data.length).version;
    const rules = codec.rules ? await modRules(codec.rules, doc, job) : undefined;
    const diff = roundTrip(codec, data, nameOf(job), doc, job.strict, job.maxMemory, includes.readInclude);
    // A model with source animations (P3D: model.cfg) is checked against its config too (files on
    // disk only: an archive entry's model.cfg is not looked up inside the archive).
    const cfgError = !diff && !job.pbo && codec.sourceAnimations ? await (await import('./model-cfg-cli.ts')).sourceAnimationError(codec, doc, job.abs, runLookup) : undefined;
    const ms = performance.now() - t0;
    const withRules = rules ? { rules } : {};
    if (cfgError) return { file: job.file, format, version, bytes, result: 'error', detail: cfgError, ...withRules, ms };
    if (!diff) return { file: job.file, format, version, bytes, result: 'ok', ...withRules, ms };
    return { file: job.file, format, version, bytes, result: 'differs', detail: describeDiff(diff), offset: diff.offset, path: diff.path, ...withRules, ms };
  } catch (e) {
    const r: CheckResult = { file: job.file, format, version, bytes, result: 'error', detail: describeError(e), ms: performance.now() - t0 };
    if (isDecodeError(e)) {
      r.offset = e.offset;
      r.path = e.path;
    }
    return r;
  }
}

/**
 * A texture: decoded, every mip's stored data checked (decompressed, sizes; see validateTexture's
 * `pixels: false`: DXT blocks are not turned into pictures, which cannot fail and cost a quarter
 * of the run), then written back and compared byte for byte.
 */
function checkTexture(texture: TextureModule, budgetOf: TextureBudget, job: CheckJob, data: Uint8Array, t0: number): CheckResult {
  const { decodeTexture, encodeTexture, probeTexture, textureInfo, validateTexture } = texture;
  const kind = probeTexture(data, nameOf(job));
  const base = { file: job.file, format: `texture-${kind}`, bytes: data.length };
  // A texture's budget follows its declared size (a small LZO PAA can hold 4096x4096), or --max-memory.
  return withBudget(budgetOf(data, kind, job.maxMemory), () => {
    const doc = decodeTexture(data, nameOf(job));
    const version = textureInfo(doc, data.length).type;
    const problem = validateTexture(doc, { pixels: false }).find((p) => p.severity === 'error');
    if (problem) {
      return { ...base, version, result: 'error' as const, detail: `${problem.message} ${where(problem.offset ?? 0, problem.where)}`, ...(problem.offset !== undefined ? { offset: problem.offset } : {}), path: problem.where, ms: performance.now() - t0 };
    }
    const out = encodeTexture(doc);
    const at = firstDifferenceFast(data, out);
    if (at < 0) return { ...base, version, result: 'ok' as const, ms: performance.now() - t0 };
    return { ...base, version, result: 'differs' as const, detail: `re-saved texture differs at byte ${at}`, offset: at, path: '', ms: performance.now() - t0 };
  });
}
