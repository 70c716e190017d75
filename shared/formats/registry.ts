/**
 * The format registry: every codec declares its id, extensions, a cheap `probe`, decode and encode,
 * and the views the CLI and the editor need (info, validate, scene, outline, inspector).
 */
import type { RuleSet } from '../model/rules.ts';
import { activeBudget, MemoryBudget, withBudget } from '../binary/budget.ts';
import { withSharedInput } from '../binary/share.ts';
import { settleInSitu } from '../model/in-situ.ts';
import { isDecodeError } from '../errors.ts';
import { emptyScene } from '../scene/scene.ts';
import type { Inspection, OutlineNode } from '../model/outline.ts';
import type { EditCommand } from '../model/commands.ts';
import type { NodePath } from '../model/path.ts';
import type { Problem } from '../model/problems.ts';
import type { Scene } from '../scene/scene.ts';
import type { ArrayLayout } from '../model/array-view.ts';
import type { EditorQuery } from '../model/editor-query.ts';
import type { AnimationSupport, DocCapabilities, EditorSupport, GltfImportSupport, SourceAnimationSupport, TextureSupport } from './capabilities.ts';

/** The codec's own toScene, without the registry's guard (the fuzzer wants the real stack). */
export function unguardedScene(codec: FormatCodec): FormatCodec['toScene'] {
  const f = codec.toScene as FormatCodec['toScene'] & { unguarded?: FormatCodec['toScene'] };
  return (f.unguarded ?? f).bind(codec);
}

/** Start of the warning a scene carries when its codec threw while building it (see registerFormat). */
export const SCENE_FAILED = 'the model could not be drawn';

/**
 * A format's id, `<family>-<format>` (`lodka-lod`, `p3d-mlod`): declared by the format's folder
 * (its family.ts and codec), never compared outside it.
 */
export type FormatId = string;

/**
 * A format as its family lists it (`<family>/family.ts`): what recognises a file, without its
 * codec, which is loaded on the first call of `load` (catalog.ts).
 */
export interface FormatEntry {
  id: FormatId;
  label: string;
  /** Lower-case, with the dot. */
  extensions: readonly string[];
  probe(bytes: Uint8Array): boolean;
  /** The codec (its module is imported on the first call). */
  load(): Promise<FormatCodec>;
}

export interface DecodeOptions {
  /** Used in messages only. */
  fileName?: string;
  /**
   * Decoding memory budget in bytes (default: 64 MiB + 16 x the input's size; see
   * shared/binary/budget.ts). The CLI's `--max-memory` and the editor's setting end up here.
   */
  maxMemory?: number;
  /**
   * Let the document's large arrays be views of `bytes` where alignment allows, instead of copies
   * (shared/binary/share.ts): for callers that only read the document and keep `bytes` unchanged
   * while it lives (the CLI's read-only commands). Default false: the document owns its memory.
   * 'in-situ' also gives the bytes away: a codec that allows it (`inSitu`) moves unaligned arrays
   * into alignment inside them instead of copying, and drops `$raw` (`lodsmith info`).
   */
  share?: boolean | 'in-situ';
  /**
   * The caller reads few of the document's values (`lodsmith info`, `roundtrip`): arrays that cost
   * more to make than to check (compressed or parsed from records) may be checked and charged
   * now and made on their first read (shared/model/deferred.ts; `lengthOf` gives their length
   * without making them). Errors in their bytes are still found while decoding. Default false:
   * a caller that reads every value (the editor, `check`) would pay the check and the making.
   */
  defer?: boolean;
  /**
   * Text formats that include other files (model.cfg's `#include`): the text of `path` as included
   * from the file `from` (the main file is `fileName`), or undefined when there is none. Codecs do
   * no I/O; without a reader an include is an error.
   */
  readInclude?: (path: string, from: string) => { name: string; text: string } | undefined;
}

export interface EncodeOptions {
  /**
   * Copy the original bytes of untouched nodes (default true). Round-trip tests also run with
   * false to prove the field encoders reproduce every byte on their own.
   */
  reuseRaw?: boolean;
}

/** What `lodsmith info --json` prints (plus any format-specific keys). */
export interface FormatInfo {
  format: FormatId;
  version: number | string;
  bytes: number;
  meshes: { name: string; vertices: number; triangles: number }[];
  materials: string[];
  bones: string[];
  animations: { name: string; frames: number }[];
  /** An animation whose transforms cannot be shown without a skeleton from elsewhere (binarized RTM). */
  needsSkeleton?: boolean;
  [extra: string]: unknown;
}

export interface SceneOptions {
  /** P3D: which LOD (by resolution name such as `1.000`, `Geometry`). */
  lod?: string;
  /**
   * Animation files: the skeleton of the model the animation plays on (bone names and parent
   * names), for formats whose transforms need it (Arma RTM); others ignore it.
   */
  skeleton?: readonly { name: string; parent: string }[];
  /** Animation files whose timing is relative (RTM phases 0..1): seconds of the whole animation. */
  duration?: number;
  /**
   * Animation files whose transforms are in the model's own space (Arma RTM): where that space's
   * origin lies in the scene of the model the animation plays on (Scene.modelOrigin); others ignore it.
   */
  origin?: readonly [number, number, number];
  /**
   * Models that keep no skeleton of their own (MLOD: it lives in model.cfg): the bones an attached
   * animation drives, to be skinned from what the model has of those names (named selections).
   */
  skinBones?: readonly string[];
}

export interface FormatCodec<D extends object = any> {
  id: FormatId;
  /** Display name, e.g. "LODka 3D model". */
  label: string;
  /** Lower-case, with the dot: `.lod`. */
  extensions: readonly string[];
  /** True when the bytes look like this format (magic and a cheap sanity check). */
  probe(bytes: Uint8Array): boolean;
  /** Decodes or throws DecodeError (offset + node path). Never throws anything else on bad input. */
  decode(bytes: Uint8Array, opts?: DecodeOptions): D;
  /**
   * The decoder never reads the values of an array it has read, only its length, so a decode
   * with `share: 'in-situ'` may hand it arrays whose bytes are moved in only when it returns
   * (shared/binary/share.ts). Without it, 'in-situ' shares as `true` does.
   */
  inSitu?: boolean;
  encode(doc: D, opts?: EncodeOptions): Uint8Array;
  /**
   * The bytes `encode` returns, as pieces in order (views of the document's large arrays and raw
   * bytes, never joined): for output consumed once (the CLI's round-trip comparison). Read them
   * before the document changes. Without it, callers use `[encode(doc, opts)]`.
   */
  encodePieces?(doc: D, opts?: EncodeOptions): Uint8Array[];
  info(doc: D, byteLength: number): FormatInfo;
  validate(doc: D): Problem[];
  toScene(doc: D, opts?: SceneOptions): Scene;
  outline(doc: D): OutlineNode;
  inspect(doc: D, path: NodePath): Inspection | undefined;
  /** The format's text includes other files: decode reads them through `DecodeOptions.readInclude`. */
  includes?: boolean;
  /** Refuses an edit that would produce an invalid document (returns the message). */
  checkEdit?(doc: D, cmd: EditCommand): string | undefined;
  /** A new node for the tree's "add" action (`kind` from OutlineNode.actions.add). */
  create?(doc: D, parent: NodePath, kind: string): EditCommand | undefined;
  /**
   * Table columns of the numeric array at `dataPath` (positions x y z, UVs u v...); undefined lets
   * the generic guess from the array's name decide (`array-view.ts`).
   */
  arrayLayout?(doc: D, name: string, data: ArrayLike<number> & { constructor: { name: string } }, dataPath: NodePath): ArrayLayout | undefined;
  /** The editors' other questions (`editor-query.ts`); undefined when the format has no answer. */
  query?(doc: D, q: EditorQuery): unknown;

  // ---- what the format can do (capabilities.ts); main/, renderer/ and the rest of shared/ ask these ----

  /** glTF import into this format and mesh replacement (the writer is in the format's folder). */
  gltf?: GltfImportSupport;
  /**
   * The edit that stores a preview picture (PNG) in the file's screenshot block, creating the
   * block when needed; undefined when the document cannot hold one.
   */
  screenshot?(doc: D, png: Uint8Array, name?: string): EditCommand | undefined;
  /** Models that take animation files, and animation files that play on them. */
  animation?: AnimationSupport;
  /** Animations driven by named sources (P3D: model.cfg, or compiled into ODOL). */
  sourceAnimations?: SourceAnimationSupport;
  /** What the materials reference on disk (texture files, material files). */
  textures?: TextureSupport;
  /** The editor panels the format offers and how its preview is drawn. */
  editor?: EditorSupport;
  /** The format's modding rules (`shared/model/rules.ts`, docs/rules.md), when it has any. */
  rules?: RuleSet;
}

const codecs = new Map<FormatId, FormatCodec>();
const budgeted = new WeakSet<FormatCodec>();

/**
 * Registers a codec. Its `decode` is wrapped once so that every decode runs inside a decoding
 * memory budget ({@link withBudget}): the caller's budget when one is in force and no explicit
 * `maxMemory` is given, else a fresh one for this input. Every caller (CLI, host, editor, fuzzer,
 * tests) gets the same bound without having to remember it.
 */
export function registerFormat(codec: FormatCodec): void {
  if (!budgeted.has(codec)) {
    const inner = codec.decode;
    const withinBudget = (bytes: Uint8Array, opts?: DecodeOptions) => {
      if (activeBudget() && opts?.maxMemory === undefined) return inner.call(codec, bytes, opts);
      return withBudget(MemoryBudget.forInput(bytes.length, opts?.maxMemory), () => inner.call(codec, bytes, opts));
    };
    codec.decode = function decodeWithinBudget(bytes: Uint8Array, opts?: DecodeOptions) {
      // Sharing is set here for every codec, so no decoder has to pass it to its readers.
      const share = opts?.share;
      if (!share) return withinBudget(bytes, opts);
      return withSharedInput(bytes, () => withinBudget(bytes, opts), share === 'in-situ' && codec.inSitu ? 'in-situ' : 'share', settleInSitu);
    };
    const innerScene = codec.toScene;
    codec.toScene = Object.assign(function sceneOrWarning(doc: object, opts?: SceneOptions): Scene {
      try {
        return innerScene.call(codec, doc, opts);
      } catch (e) {
        // A wrong LOD name (the caller's mistake) and a budget refusal (which names its limit) are
        // DecodeErrors and stay errors. Anything else is a damaged part the codec failed to skip.
        if (isDecodeError(e)) throw e;
        const scene = emptyScene();
        scene.warnings = [`${SCENE_FAILED}: ${e instanceof Error ? e.message : String(e)}`];
        return scene;
      }
    }, { unguarded: innerScene });
    budgeted.add(codec);
  }
  codecs.set(codec.id, codec);
}

export function allFormats(): FormatCodec[] {
  return [...codecs.values()];
}

/** Whether clips of the animation format `clips` may play on models of the format `model` (capabilities.ts). */
export function playsOn(clips: FormatCodec, model: FormatCodec): boolean {
  if (clips.animation?.role !== 'clips' || model.animation?.role !== 'model') return false;
  return !clips.animation.playsOn || clips.animation.playsOn.includes(model.id);
}

export function formatById(id: FormatId): FormatCodec {
  const c = codecs.get(id);
  if (!c) throw new Error(`unknown format ${id}`);
  return c;
}

/** The codec for a file: magic first, extension as the tie-breaker. */
export function detectFormat(bytes: Uint8Array, fileName = ''): FormatCodec | undefined {
  const ext = fileName.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';
  const matches = allFormats().filter((c) => safeProbe(c, bytes));
  return matches.find((c) => c.extensions.includes(ext)) ?? matches[0];
}

export function formatsForExtension(fileName: string): FormatCodec[] {
  const ext = fileName.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';
  return allFormats().filter((c) => c.extensions.includes(ext));
}

function safeProbe(c: FormatCodec, bytes: Uint8Array): boolean {
  try {
    return c.probe(bytes);
  } catch {
    return false;
  }
}

/**
 * What the renderer needs to know of a document's format, from its codec and its outline (the
 * nodes a glTF can replace are found by the codec's own test).
 */
export function capabilitiesOf(codec: FormatCodec, outline: OutlineNode | undefined): DocCapabilities {
  const replaceable: string[] = [];
  const test = codec.gltf?.replaceable;
  if (test && outline) {
    const walk = (n: OutlineNode): void => {
      if (test(n)) replaceable.push(JSON.stringify(n.path));
      for (const c of n.children ?? []) walk(c);
    };
    walk(outline);
  }
  return {
    screenshot: !!codec.screenshot,
    animationFiles: codec.animation?.role === 'model',
    animationExtensions: codec.animation?.role === 'model' ? [...new Set(allFormats().filter((c) => playsOn(c, codec)).flatMap((c) => c.extensions))] : [],
    panels: [...(codec.editor?.panels ?? [])],
    lodChoice: !!codec.editor?.lodChoice,
    replaceable,
  };
}
