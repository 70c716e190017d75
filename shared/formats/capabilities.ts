/**
 * What a format can do beyond decoding and encoding, declared by its codec (registry.ts's
 * FormatCodec) so that the document service, the renderer and the format-neutral parts of shared/
 * ask the codec instead of comparing format ids. Every member is optional: a format that leaves
 * one out simply does not offer it.
 */
import type { TextEncoding } from '../binary/text.ts';
import type { WriterOptions } from '../import/common.ts';
import type { ImportMesh, ImportModel } from '../import/model.ts';
import type { EditCommand } from '../model/commands.ts';
import type { OutlineNode } from '../model/outline.ts';
import type { NodePath } from '../model/path.ts';
import type { Scene } from '../scene/scene.ts';

/**
 * glTF import into this format: "New from glTF" / `lodsmith import` and "Replace mesh from glTF".
 * The writer lives in the format's folder (`import.ts`) and is loaded on first use, so opening a
 * file never loads glTF code.
 */
export interface GltfImportSupport {
  /** The choice in the "New from glTF" dialog, e.g. "LODka 3D (.lod)". */
  label: string;
  /** The extension a new file of this format gets (one of the codec's extensions, lower case). */
  extension: string;
  /** Outline nodes whose mesh a glTF can replace (the structure tree's "Replace mesh from glTF"). */
  replaceable?(node: OutlineNode): boolean;
  load(): Promise<GltfImporter>;
}

/** The format's import writer (its folder's `import.ts`). */
export interface GltfImporter {
  /** How names are stored (names the encoding cannot hold are replaced before writing). */
  nameEncoding: TextEncoding;
  /** How the glTF is read for this format (P3D: every scene may be a LOD, points without faces kept). */
  modelOptions?: { allScenes?: boolean; keepPoints?: boolean };
  /** The new document; the codec's own encoder writes it (one writer per format). */
  write(model: ImportModel, opts: WriterOptions): { doc: object; warnings: string[] };
  /**
   * The edit that puts the model's geometry at `path`, a node `replaceable` accepts: `mesh` is
   * every mesh of the model merged into one, in world space (shared/import/replace.ts). Throws an
   * ImportError when the node cannot take it. Warnings are added to `warnings`.
   */
  replaceMesh?(doc: object, path: NodePath, model: ImportModel, mesh: ImportMesh, warnings: string[]): EditCommand;
}

/**
 * Models and animation files. A model format with `role: 'model'` takes animation files (the
 * editor's attach list, the glTF export's extra clips) and can give an animation opened alone its
 * skeleton; a format with `role: 'clips'` is such an animation file. A model and an animation are
 * paired by the names of the bones or nodes the animation drives (shared/scene/attach.ts).
 */
export interface AnimationSupport {
  role: 'model' | 'clips';
  /**
   * For `role: 'clips'`: the model formats (ids) its clips play on, when only some do (Arma
   * `.rtm` on P3D models); absent: every `role: 'model'` format whose bone or node names match.
   */
  playsOn?: readonly string[];
}

/**
 * A material library: files found near a model (under the texture folders and the model's folder
 * and its parents) that name the texture of each material by material name.
 */
export interface MaterialLibrary {
  /** Lower case, with the dot: `.lua`, `.mat`. */
  extension: string;
  /** Material name -> texture path as written. */
  parse(text: string): Map<string, string>;
}

/** What the materials of the format's models reference on disk (docs/textures.md). */
export interface TextureSupport {
  /** Texture files named by game path: resolved through the texture folders; unresolved ones are Problems. */
  files?: boolean;
  /** Faces name material files (`.rvmat`), read for their stages (shared/formats/texture/rvmat.ts). */
  materials?: 'rvmat';
  /** Materials without a texture path of their own find it in this library, else by conventional names. */
  library?: MaterialLibrary;
}

/** Editor panels beside the inspector; the renderer maps each id to its component. */
export type EditorPanel = 'face-groups' | 'lod-proxies' | 'selections';

export interface EditorSupport {
  /**
   * The panels the format offers. Without this list the generic panels show for the outline node
   * kinds a document has (materials, proxies, colliders, lights).
   */
  panels?: readonly EditorPanel[];
  /** The preview draws one LOD at a time, picked from the outline's `lod` nodes. */
  lodChoice?: boolean;
}

/** What a document's format offers, as the renderer receives it with every snapshot. */
export interface DocCapabilities {
  /** The file has a screenshot block the editor can fill (`doc:screenshot`). */
  screenshot: boolean;
  /** The model takes animation files (`doc:attachAnimation`). */
  animationFiles: boolean;
  panels: EditorPanel[];
  lodChoice: boolean;
  /** Outline paths (JSON) of the nodes whose mesh a glTF can replace. */
  replaceable: string[];
}


/**
 * Animations driven by named sources (Arma: doors, turrets, hatches), defined in a config file
 * found beside the model (`configFile`: model.cfg) or compiled into the model itself. The
 * evaluator is loaded on first use (shared/formats/p3d/modelcfg/animator.ts).
 */
export interface SourceAnimationSupport {
  /** The config file the animations come from, looked for in the model's folder and its parents. */
  configFile?: string;
  load(): Promise<SourceAnimator>;
}

/** A config file as main read it (with its includes) and the format's parser took it. */
export interface SourceConfig {
  file: string;
  doc: object;
}

/**
 * Reads a file a config includes: `path` as written in the directive, `from` the including file.
 * Returns the file's name (for messages and cycle detection) and text, or undefined.
 */
export type ConfigIncludeReader = (path: string, from: string) => { name: string; text: string } | undefined;

export interface SourceAnimator {
  /** Parses a config file's bytes; `readInclude` gives included files. Throws with file, line and column. */
  readConfig?(bytes: Uint8Array, file: string, readInclude: ConfigIncludeReader): object;
  /** The model's animations, or undefined when it has none (no config, no class, nothing compiled). */
  animations(doc: object, modelPath: string, config: SourceConfig | undefined): SourceAnimations | undefined;
}

/** A place in a config file. */
export interface SourcePlace {
  file: string;
  line: number;
  column: number;
}

export interface SourceAnimations {
  /** The sources, named as in the config, ranged by their animations' values. */
  sources: { name: string; min: number; max: number; animations: string[] }[];
  /** `info`'s summary: label/value rows, one row per animation, and the same as JSON. */
  info(): { rows: [string, string][]; animationRows: string[][]; json: Record<string, unknown> };
  /**
   * The scene of one LOD posed at `pose` (lower-case source -> value), or, without a pose, skinned
   * with one clip per source sweeping its range. `unused` lists posed sources no animation reads.
   */
  scene(lod: string | undefined, pose?: ReadonlyMap<string, number>): { scene: Scene; unused: string[] };
  /** The config checked against the model, each problem at its file and line. */
  problems(): { severity: 'error' | 'warning'; message: string; at: SourcePlace }[];
}
