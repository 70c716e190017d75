/**
 * The Arma animation parts of `lodsmith convert`: where a skeleton comes from (`--skeleton
 * MODEL.p3d` or `model.cfg#Name`), and BMTR -> plain RTM (`convert X.rtm OUT.rtm`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodePlain } from '../../../shared/formats/p3d/rtm/io.ts';
import { bmtrToPlain, type SkeletonBone } from '../../../shared/formats/p3d/rtm/pose.ts';
import { cfgSkeleton } from '../../../shared/formats/p3d/rtm/skeleton.ts';
import type { RtmDocument } from '../../../shared/formats/p3d/rtm/types.ts';
import { CliFailure, EXIT_OK, FileError } from '../fail.ts';
import { writeAtomically, writeLines, type CliIO } from '../io.ts';
import { loadModel } from '../load.ts';
import { humanBytes } from '../text.ts';

export const SKELETON_HINT = 'give --skeleton MODEL.p3d (a binarized model that carries one) or --skeleton model.cfg#SkeletonName';

/** The bones of a model's scene skeleton as name/parent pairs. */
export function sceneSkeletonBones(bones: readonly { name: string; parent: number }[]): SkeletonBone[] {
  return bones.map((b) => ({ name: b.name, parent: bones[b.parent]?.name ?? '' }));
}

/**
 * `--skeleton` as bones: `model.cfg[#Name]` (any file whose name, before `#`, ends in `.cfg`)
 * read with the CfgSkeletons reader, else a model file whose scene has a skeleton.
 */
export async function loadSkeleton(spec: string, cwd: string, maxMemory?: number): Promise<SkeletonBone[]> {
  const hash = spec.lastIndexOf('#');
  const file = hash >= 0 ? spec.slice(0, hash) : spec;
  if (/\.cfg$/i.test(file)) {
    try {
      const text = readFileSync(resolve(cwd, file), 'latin1');
      return cfgSkeleton(text, hash >= 0 ? spec.slice(hash + 1) : undefined).bones;
    } catch (e) {
      throw new FileError(file, e);
    }
  }
  try {
    const model = await loadModel(file, cwd, maxMemory);
    const bones = model.codec.toScene(model.doc).skeleton?.bones ?? [];
    if (bones.length === 0) throw new CliFailure('holds no skeleton (an MLOD keeps its skeleton in model.cfg: give model.cfg#SkeletonName)');
    return sceneSkeletonBones(bones);
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(file, e);
  }
}

/** `convert X.rtm OUT.rtm [--skeleton ...]`: a binarized RTM as a plain one (what A3OB's converter does). */
export async function runRtmToPlain(input: string, output: string, opts: { skeleton?: string; quiet?: boolean; maxMemory?: number }, io: CliIO): Promise<number> {
  const model = await loadModel(input, io.cwd, opts.maxMemory);
  if (model.codec.id !== 'p3d-rtm') throw new CliFailure(`is a ${model.codec.label}, not an RTM animation: only an RTM converts to .rtm`);
  const doc = model.doc as RtmDocument;
  let bytes: Uint8Array;
  if (doc.kind === 'rtm') bytes = model.codec.encode(doc);
  else {
    if (!opts.skeleton) throw new CliFailure(`is a binarized RTM (BMTR v${doc.version}): its transforms are relative to parent bones; ${SKELETON_HINT}`);
    const skeleton = await loadSkeleton(opts.skeleton, io.cwd, opts.maxMemory);
    const plain = bmtrToPlain(doc, skeleton);
    try {
      bytes = encodePlain(plain);
    } catch (e) {
      throw new CliFailure(e instanceof Error ? e.message : String(e));
    }
  }
  try {
    await writeAtomically(resolve(io.cwd, output), bytes);
  } catch (e) {
    throw new FileError(output, e);
  }
  if (!opts.quiet) await writeLines(io.stdout, [`wrote ${output} (${humanBytes(bytes.length)}): plain RTM, ${doc.bones.length} bones, ${doc.frames.length} frames, ${doc.properties.length} properties`]);
  return EXIT_OK;
}
