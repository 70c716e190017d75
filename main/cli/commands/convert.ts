/** `lodsmith convert IN OUT.glb|OUT.gltf`: a model (and optional animation files) to glTF 2.0. */
import { extname, resolve } from 'node:path';
import { sceneToGltf, writeGlb, writeGltfEmbedded } from '../../../shared/export/gltf.ts';
import type { AnimationClip, Scene } from '../../../shared/scene/scene.ts';
import { parsePose, sourceAnimationsOf } from '../model-cfg-cli.ts';
import { animationClips, modelGltfOptions } from '../../../shared/scene/attach.ts';
import { CliFailure, EXIT_OK, FileError } from '../fail.ts';
import { writeAtomically, writeLines, type CliIO } from '../io.ts';
import { loadModel } from '../load.ts';
import { attachSceneTextures } from '../../documents/scene-textures.ts';
import { describeStages } from '../../../shared/formats/texture/rvmat.ts';
import { humanBytes, plural } from '../text.ts';

export interface ConvertOptions {
  lod?: string;
  anim?: string[];
  /** Up axis of the model's data; 'auto' (the default) takes the codec's guess (`Scene.upAxis`). */
  up?: 'y' | 'z' | 'auto';
  /** Print nothing but errors. */
  quiet?: boolean;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
  /**
   * Texture roots (`--textures DIR`, repeatable). When given, every texture the model names is
   * looked up (these, then the model's folder and its parents) and embedded as PNG.
   */
  textures?: string[];
  /** Source values to pose a P3D model at (`--pose SOURCE=VALUE ...`, from its model.cfg). */
  pose?: string[];
  /** A P3D model's model.cfg, instead of the one found beside it (--model-cfg). */
  modelCfg?: string;
}

export async function runConvert(input: string, output: string, opts: ConvertOptions, io: CliIO): Promise<number> {
  const ext = extname(output).toLowerCase();
  if (ext !== '.glb' && ext !== '.gltf') throw new CliFailure(`${output}: the output must end in .glb or .gltf`);
  const model = await loadModel(input, io.cwd, opts.maxMemory);
  const sceneOpts = opts.lod !== undefined ? { lod: opts.lod } : {};
  const cfgWarnings: string[] = [];
  let scene: Scene | undefined;
  // Source animations (P3D: model.cfg, or compiled in): posed at --pose, else one glTF animation per source.
  const pose = opts.pose ? parsePose(opts.pose) : undefined;
  const anims = await sourceAnimationsOf(model.codec, model.doc, input, io.cwd, opts.modelCfg);
  if (anims) {
    const r = anims.scene(opts.lod, pose);
    scene = r.scene;
    for (const u of r.unused) cfgWarnings.push(`--pose ${u}: the model's animations use no source of that name; nothing moved`);
  } else if (pose) cfgWarnings.push(model.codec.sourceAnimations?.configFile ? `no ${model.codec.sourceAnimations.configFile} found for the model (or no class for it): --pose changes nothing` : "--pose: the model's format has no source animations; nothing moved");
  scene ??= model.codec.toScene(model.doc, sceneOpts);
  const extraClips: AnimationClip[] = [];
  for (const file of opts.anim ?? []) {
    try {
      const anim = await loadModel(file, io.cwd, opts.maxMemory);
      let clips: AnimationClip[];
      try {
        clips = animationClips(anim.codec.toScene(anim.doc), anim.codec.label);
      } catch (e) {
        throw new CliFailure(e instanceof Error ? e.message : String(e));
      }
      extraClips.push(...clips);
    } catch (e) {
      // Name the animation file, not the model, in the one-line error.
      throw new FileError(file, e);
    }
  }
  const textureWarnings: string[] = [];
  const textureNotes: string[] = [];
  if (opts.textures) {
    const report = attachSceneTextures(scene, resolve(io.cwd, input), { roots: opts.textures.map((d) => resolve(io.cwd, d)), ...(model.codec.textures?.library ? { library: model.codec.textures.library } : {}) });
    for (const m of report.missing) textureWarnings.push(`texture not found: ${m.written} (material "${m.material}")`);
    for (const b of report.broken) textureWarnings.push(`texture ${b.path} left out: ${b.reason}`);
    // One line per .rvmat: its stages other than the colour one are not in the glTF.
    const said = new Set<string>();
    for (const m of report.materials) {
      if (said.has(m.rvmat)) continue;
      said.add(m.rvmat);
      if (!m.path) textureNotes.push(`material not found: ${m.rvmat} (its stages are not read)`);
      const rest = m.stages.filter((st) => st !== m.drawn);
      if (rest.length) textureNotes.push(`material ${m.rvmat}: stages not exported: ${describeStages(rest)}`);
    }
  }
  const gltfOptions = modelGltfOptions(scene, extraClips, opts.up === 'y' || opts.up === 'z' ? opts.up : undefined);
  const up = gltfOptions.upAxis;
  const { document, warnings } = sceneToGltf(scene, gltfOptions);
  const bytes = ext === '.glb' ? await writeGlb(document) : await writeGltfEmbedded(document);
  try {
    await writeAtomically(resolve(io.cwd, output), bytes);
  } catch (e) {
    // A write failure is about the output, not the model it came from.
    throw new FileError(output, e);
  }
  if (!opts.quiet) {
    const root = document.getRoot();
    await writeLines(io.stderr, [...[...cfgWarnings, ...textureWarnings, ...warnings].map((w) => `warning: ${w}`), ...textureNotes.map((n) => `note: ${n}`)]);
    const parts = [
      plural(root.listMeshes().length, 'mesh', 'meshes'),
      plural(root.listMaterials().length, 'material'),
      plural(root.listTextures().length, 'texture'),
      plural(root.listSkins().length, 'skin'),
      plural(root.listAnimations().length, 'animation'),
    ];
    // Auto may have chosen Z-up for the user: say so, so a surprise has an explanation.
    const turned = up === 'z' ? '; Z-up, turned Y-up by a root node' : '';
    await writeLines(io.stdout, [`wrote ${output} (${humanBytes(bytes.length)}): ${parts.join(', ')}${turned}`]);
  }
  return EXIT_OK;
}
