/**
 * What the editors read from a document: the inspector's fields, find, the editors' queries, the
 * preview's scene, and the animation files attached to a model (kept with the document, not in
 * its file).
 */
import { repathAnswer } from '../../shared/model/repath.ts';
import { basename, dirname } from 'node:path';
import type { DocId, DocSnapshot, FileEntry, FindResult, SourcePoseAnswer } from '../../shared/ipc/contract.ts';
import { allFormats } from '../../shared/formats/index.ts';
import { arrayPage } from '../../shared/model/array-view.ts';
import type { EditorQuery } from '../../shared/model/editor-query.ts';
import type { Inspection, OutlineNode } from '../../shared/model/outline.ts';
import type { NodePath } from '../../shared/model/path.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { animationClips, animationOnRig, animationSceneOptions, attachedClipName, bindClips, bindingProblems, matchAnimation, trackTargets } from '../../shared/scene/attach.ts';
import type { SceneOptions } from '../../shared/formats/registry.ts';
import { AppErrorException, fail, toAppError } from './app-error.ts';
import { timedStage } from './stage-timing.ts';
import type { AttachedAnimation, DocumentStore, OpenDocument } from './doc-store.ts';
import type { DocumentTextures } from './doc-textures.ts';
import type { DocumentSourceAnimations } from './doc-source-animations.ts';

/** Animation files the picker looks at in one folder, at most (each is decoded to match bones). */
const MAX_CANDIDATES = 200;
/** Bounds of `find`: nodes inspected for values, and matches returned. */
const FIND_NODES = 50_000;
const FIND_HITS = 5_000;

export class DocumentScenes {
  private readonly s: DocumentStore;
  private readonly textures: DocumentTextures;
  private readonly sources: DocumentSourceAnimations | undefined;

  constructor(s: DocumentStore, textures: DocumentTextures, sources?: DocumentSourceAnimations) {
    this.s = s;
    this.textures = textures;
    this.sources = sources;
  }

  inspect(id: DocId, path: NodePath): Inspection | null {
    const d = this.s.get(id);
    try {
      return d.codec.inspect(d.tree, path) ?? null;
    } catch (e) {
      throw new AppErrorException(toAppError(e));
    }
  }

  /**
   * Outline nodes whose name, label or field values contain `query` (text: case-insensitive
   * substring; a number: equal to a numeric field or one of a short tuple's components, within
   * float32 rounding). Bounded: at most FIND_NODES nodes are inspected and FIND_HITS returned.
   */
  find(id: DocId, query: string): FindResult {
    const d = this.s.get(id);
    const q = query.trim().toLowerCase();
    const out: NodePath[] = [];
    if (!q) return { paths: out, truncated: false };
    const asNumber = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(q) ? Number(q) : NaN;
    const numberHit = (v: unknown) => typeof v === 'number' && Math.abs(v - asNumber) <= 1e-6 * Math.max(1, Math.abs(asNumber));
    const valueHit = (v: unknown): boolean => {
      if (typeof v === 'string') return v.toLowerCase().includes(q);
      if (Number.isFinite(asNumber)) {
        if (numberHit(v)) return true;
        if (Array.isArray(v) && v.length <= 16) return v.some(numberHit);
      }
      return false;
    };
    const outline = d.outline ?? d.codec.outline(d.tree);
    let inspected = 0;
    let truncated = false;
    const walk = (n: OutlineNode): void => {
      if (truncated) return;
      let hit = n.name.toLowerCase().includes(q) || (n.label?.toLowerCase().includes(q) ?? false);
      if (!hit) {
        if (++inspected > FIND_NODES) {
          truncated = true;
          return;
        }
        try {
          hit = d.codec.inspect(d.tree, n.path)?.fields.some((f) => valueHit(f.value)) ?? false;
        } catch {
          /* a node that cannot be inspected just does not match by value */
        }
      }
      if (hit) {
        out.push(n.path);
        if (out.length >= FIND_HITS) {
          truncated = true;
          return;
        }
      }
      for (const c of n.children ?? []) walk(c);
    };
    walk(outline);
    return { paths: out, truncated };
  }

  /**
   * The editors' questions (`editor-query.ts`). Array pages work for every format (the codec may
   * name the columns); the rest is the codec's. Null when there is no answer.
   */
  query(id: DocId, q: EditorQuery): unknown {
    const d = this.s.get(id);
    try {
      if (q.kind === 'array') {
        const codec = d.codec;
        return arrayPage(d.tree, q.path, q.start, q.count, (name, data, at) => codec.arrayLayout?.(d.tree, name, data, at)) ?? null;
      }
      if (q.kind === 'repath') return repathAnswer(d.tree, q.from, q.to);
      return d.codec.query?.(d.tree, q) ?? null;
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), code: 'invalid' });
    }
  }

  /** The model's scene with the clips of its attached animation files bound to its bones. */
  scene(id: DocId, lod?: string): Scene {
    const d = this.s.get(id);
    // The scene built ahead knows no attached animation (an MLOD skins their bones on request),
    // nor source animation clips: a model with either builds its own.
    const built = this.takeSceneAhead(d, lod);
    const ahead = built && !d.anims.length && !this.sources?.has(d) ? built : undefined;
    const scene = ahead ?? this.ownScene(d, lod);
    // The prefetch gave the scene built ahead its .rvmat stages already (reading those files).
    if (!ahead) this.textures.materialStages(d, scene);
    if (d.rig) return animationOnRig(scene, d.rig.scene, d.rig.fileName);
    if (!d.anims.length) return scene;
    // Named after their file too: the timeline's clip list is where the user picks one.
    const attached = d.anims.flatMap((a) => bindClips(scene, a.clips).map((c) => ({ ...c, name: attachedClipName(c.name, a.fileName) })));
    return { ...scene, clips: [...scene.clips, ...attached] };
  }

  /**
   * The scene the texture prefetch built, for the preview's request of the same revision and no
   * LOD; dropped by any scene request, so it is handed out once. Only the preview takes it: other
   * users of the model's scene (glTF export, animation matching) want it without .rvmat stages.
   */
  private takeSceneAhead(d: OpenDocument, lod: string | undefined): Scene | undefined {
    const ahead = d.sceneAhead;
    d.sceneAhead = undefined;
    return ahead && lod === undefined && ahead.revision === d.revision ? ahead.scene : undefined;
  }

  /** The model's animation sources, and with `values` its LOD posed at them all (with .rvmat stages). */
  sourcePose(id: DocId, lod: string | undefined, values: Record<string, number> | undefined): SourcePoseAnswer {
    const d = this.s.get(id);
    const sources = this.sources?.sources(d) ?? [];
    const config = this.sources?.config(d);
    if (!values || !sources.length) return { sources, ...(config ? { config } : {}) };
    let scene: Scene | undefined;
    try {
      scene = timedStage('host:scene', () => this.sources?.posed(d, lod, values));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), message: `Could not pose the model: ${toAppError(e).message}` });
    }
    if (scene) this.textures.materialStages(d, scene);
    return { sources, ...(scene ? { scene } : {}), ...(config ? { config } : {}) };
  }

  /**
   * The document's own scene (no attached animations). A model without a skeleton of its own
   * (MLOD) is asked to skin the bones its attached animations drive, and `moreBones`; an animation
   * shown on a model beside it (`rig`) gets that model's skeleton (an RTM needs it).
   */
  ownScene(d: OpenDocument, lod?: string, moreBones: readonly string[] = []): Scene {
    const skinBones = [...trackTargets(d.anims.flatMap((a) => a.clips)), ...moreBones];
    const opts: SceneOptions = {
      ...(lod === undefined ? {} : { lod }),
      ...(skinBones.length ? { skinBones } : {}),
      ...(d.rig ? animationSceneOptions(d.rig.scene) : {}),
    };
    try {
      return timedStage('host:scene', () => this.sources?.scene(d, lod) ?? d.codec.toScene(d.tree, opts));
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e), message: `Could not build the 3D preview: ${toAppError(e).message}` });
    }
  }

  /**
   * Reads and decodes an animation file; its clips, or an error naming the file. `model`, the
   * scene it will play on, gives formats that need one the skeleton (animationSceneOptions).
   */
  private async readAnimation(userPath: string, model?: Scene): Promise<AttachedAnimation> {
    const abs = await this.s.paths.resolve(userPath, 'read');
    const display = this.s.paths.display(abs);
    let bytes: Uint8Array;
    try {
      bytes = (await this.s.readWithProgress(abs, undefined)).bytes;
    } catch (e) {
      throw new AppErrorException(toAppError(e, display));
    }
    return this.animationOf(bytes, basename(abs), display, model);
  }

  /** An animation file's clips from its bytes (read from `display`, or dropped), or an error naming it. */
  private animationOf(bytes: Uint8Array, fileName: string, display: string, model?: Scene): AttachedAnimation {
    const codec = this.s.detect(bytes, fileName);
    const tree = this.s.decodeAs(codec, bytes, fileName);
    try {
      return { path: display, fileName, clips: animationClips(codec.toScene(tree, model ? animationSceneOptions(model) : {}), `${fileName}: ${codec.label}`) };
    } catch (e) {
      throw new AppErrorException({ ...toAppError(e, display), code: 'invalid' });
    }
  }


  /**
   * Attaches an animation file to a model: its clips play in the preview and go with the glTF
   * export. Refused when none of its tracks names a bone or node of the model.
   */
  async attachAnimation(id: DocId, userPath: string): Promise<DocSnapshot> {
    return this.attach(id, (model) => this.readAnimation(userPath, model));
  }

  /** An animation file dropped on the window: attached from its bytes (listed by its name). */
  async attachAnimationBytes(id: DocId, name: string, bytes: Uint8Array): Promise<DocSnapshot> {
    return this.attach(id, async (model) => this.animationOf(bytes, name, name, model));
  }

  private async attach(id: DocId, load: (model: Scene) => Promise<AttachedAnimation>): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      let model = this.ownScene(d);
      let anim = await load(model);
      if (d.anims.some((a) => a.path === anim.path)) return this.s.snapshot(d);
      if (!model.skeleton?.bones.length) {
        // No skeleton of its own: the model skins the bones the animation drives, if it can.
        model = this.ownScene(d, undefined, trackTargets(anim.clips));
        if (model.skeleton?.bones.length) anim = await load(model);
      }
      const { matched, total } = matchAnimation(model, anim.clips);
      if (matched === 0) fail('invalid', `${anim.fileName} drives ${total} bones or nodes, and ${d.fileName} has none of them`);
      anim.problems = bindingProblems(model, anim.clips, anim.fileName, d.fileName);
      d.anims.push(anim);
      return this.s.changed(d);
    });
  }


  /** Detaches the animation file attached as number `index`. */
  async detachAnimation(id: DocId, index: number): Promise<DocSnapshot> {
    const d = this.s.get(id);
    return this.s.serial(d, async () => {
      if (!d.anims[index]) fail('not-found', `No attached animation ${index}`);
      d.anims.splice(index, 1);
      return this.s.changed(d);
    });
  }

  /**
   * Animation files in the model's folder whose tracks drive the model's bones or nodes, best
   * match first, with how many of their targets the model has. Files that do not decode or match
   * nothing are left out.
   */
  async animationCandidates(id: DocId): Promise<{ path: string; fileName: string; matched: number; total: number }[]> {
    const d = this.s.get(id);
    const model = this.ownScene(d);
    // Animation formats limited to some model formats (`playsOn`) are offered to those only.
    const exts = new Set(allFormats().filter((c) => c.animation?.role === 'clips' && (c.animation.playsOn?.includes(d.codec.id) ?? true)).flatMap((c) => c.extensions));
    if (!d.abs) return [];
    let entries: FileEntry[];
    try {
      entries = await this.s.paths.list(this.s.paths.display(dirname(d.abs)));
    } catch {
      return [];
    }
    const out: { path: string; fileName: string; matched: number; total: number }[] = [];
    for (const e of entries.filter((x) => !x.dir && exts.has(x.name.slice(x.name.lastIndexOf('.')).toLowerCase())).slice(0, MAX_CANDIDATES)) {
      try {
        const anim = await this.readAnimation(e.path, model);
        const m = matchAnimation(model.skeleton?.bones.length ? model : this.ownScene(d, undefined, trackTargets(anim.clips)), anim.clips);
        if (m.matched > 0) out.push({ path: anim.path, fileName: anim.fileName, ...m });
      } catch {
        /* not an animation this model can play */
      }
    }
    return out.sort((a, b) => b.matched / b.total - a.matched / a.total || a.fileName.localeCompare(b.fileName));
  }
}
