/**
 * Source animations of open documents (capabilities.ts, SourceAnimationSupport): when a model opens,
 * its format's animator is loaded and the config file it names (P3D: model.cfg in the model's
 * folder or the nearest parent) is read through the path policy; the preview's scene then carries
 * one clip per source (the timeline plays and scrubs it), and the config's checks join the
 * document's Problems with the config's file and line. A config that does not parse is one Problem.
 */
import { dirname } from 'node:path';
import type { SourceAnimator, SourceConfig } from '../../shared/formats/capabilities.ts';
import type { Problem } from '../../shared/model/problems.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import type { SourceConfigChoice, SourcePoseSource } from '../../shared/ipc/contract.ts';
import { fail } from './app-error.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import { findConfigFile, includeReaderFor } from './model-cfg-files.ts';
import { existsSync, readFileSync } from 'node:fs';
import { ChosenConfigs } from './chosen-configs.ts';

interface Attached {
  animator: SourceAnimator;
  config?: SourceConfig;
  /** The config could not be read: one problem saying where. */
  error?: Problem;
}


export class DocumentSourceAnimations {
  private readonly s: DocumentStore;
  private readonly attached = new WeakMap<OpenDocument, Attached>();
  /** The config file the user chose for a model (the editor's override of the search). */
  private readonly chosen = new WeakMap<OpenDocument, string>();
  /** The config file a model uses (found or chosen), when there is one. */
  private readonly configOf = new WeakMap<OpenDocument, string>();
  /** The choices of earlier sessions, by model path. */
  private readonly remembered: ChosenConfigs;

  constructor(s: DocumentStore) {
    this.s = s;
    this.remembered = new ChosenConfigs(s.opts.configDir);
  }

  /**
   * The config the user chose for this model, in this session or an earlier one. A remembered
   * file that is gone or that the editor may not read now is left unused (and kept: a drive not
   * mounted today may be back tomorrow); the game's search applies then.
   */
  private async chosenFor(d: OpenDocument): Promise<string | undefined> {
    const now = this.chosen.get(d);
    if (now !== undefined || d.abs === null) return now;
    const before = this.remembered.get(d.abs);
    if (before === undefined || !existsSync(before) || !(await this.allowed(before))) return undefined;
    this.chosen.set(d, before);
    return before;
  }

  /**
   * Loads the animator and reads the config of a document just opened, or again after the user
   * chose another config or saved the one it uses (never throws).
   */
  async attach(d: OpenDocument): Promise<void> {
    this.attached.delete(d);
    this.configOf.delete(d);
    const support = d.codec.sourceAnimations;
    if (!support || d.abs === null) return;
    try {
      const animator = await support.load();
      const a: Attached = { animator };
      if (support.configFile && animator.readConfig) {
        const file = (await this.chosenFor(d)) ?? findConfigFile(d.abs, support.configFile);
        if (file && (await this.allowed(file))) {
          this.configOf.set(d, file);
          // Includes are read only under the highest folder the policy lets the editor read.
          const top = await this.s.readableTop(dirname(file));
          try {
            const bytes = new Uint8Array(readFileSync(file));
            a.config = { file, doc: animator.readConfig(bytes, file, includeReaderFor(file, file, top)) };
          } catch (e) {
            a.error = { severity: 'error', message: e instanceof Error ? e.message : String(e), where: this.s.paths.display(file) };
          }
        }
      }
      // Only a model that has source animations (or a config that failed) is handled here; the
      // rest keep the plain scene (and the scene the texture prefetch builds ahead).
      // A config the user chose is always attached: its checks say why it animates nothing.
      if (a.error || this.chosen.has(d) || a.animator.animations(d.tree, d.abs, a.config)) this.attached.set(d, a);
    } catch {
      /* no source animations: the model shows as before */
    }
  }

  /**
   * Which config a model uses, for formats whose animations live in one (undefined for others):
   * the file as the host shows paths (null when none was found), and whether the user chose it.
   */
  config(d: OpenDocument): SourceConfigChoice | undefined {
    const name = d.codec.sourceAnimations?.configFile;
    if (!name || d.abs === null) return undefined;
    const file = this.configOf.get(d);
    return { name, file: file ? this.s.paths.display(file) : null, chosen: this.chosen.has(d) };
  }

  /** The editor's override: use this config file for the model (null: find it as the game does). */
  async choose(d: OpenDocument, userPath: string | null): Promise<void> {
    if (!d.codec.sourceAnimations?.configFile) fail('invalid', `${d.fileName} takes no config file`);
    if (userPath === null) this.chosen.delete(d);
    else this.chosen.set(d, await this.s.paths.resolve(userPath, 'read'));
    // Remembered for the next time the model opens, in this session or a later one.
    if (d.abs !== null) await this.remembered.set(d.abs, this.chosen.get(d) ?? null);
    await this.attach(d);
  }

  /** A file was saved: the open models that use it as their config read it again; returns them. */
  async configSaved(abs: string): Promise<OpenDocument[]> {
    const out: OpenDocument[] = [];
    for (const d of this.s.docs.values()) {
      if (this.configOf.get(d) !== abs) continue;
      await this.attach(d);
      out.push(d);
    }
    return out;
  }

  /** True when the document's model has source animations attached. */
  has(d: OpenDocument): boolean {
    return this.attached.has(d);
  }

  /** The preview's scene with one clip per source, or undefined when the document has none. */
  scene(d: OpenDocument, lod: string | undefined): Scene | undefined {
    const a = this.attached.get(d);
    if (!a || d.abs === null) return undefined;
    return a.animator.animations(d.tree, d.abs, a.config)?.scene(lod).scene;
  }

  /** The sources (named as in the config, ranged by their animations' values); [] when none. */
  sources(d: OpenDocument): SourcePoseSource[] {
    const a = this.attached.get(d);
    if (!a || d.abs === null) return [];
    try {
      return (a.animator.animations(d.tree, d.abs, a.config)?.sources ?? []).map((x) => ({ name: x.name, min: x.min, max: x.max }));
    } catch {
      return [];
    }
  }

  /** One LOD posed at these source values (names in any case), or undefined when the document has none. */
  posed(d: OpenDocument, lod: string | undefined, values: Readonly<Record<string, number>>): Scene | undefined {
    const a = this.attached.get(d);
    if (!a || d.abs === null) return undefined;
    const pose = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
    return a.animator.animations(d.tree, d.abs, a.config)?.scene(lod, pose).scene;
  }

  /** The config's checks as Problems, each at the config's file and line. */
  problems(d: OpenDocument): Problem[] {
    const a = this.attached.get(d);
    if (!a || d.abs === null) return [];
    if (a.error) return [a.error];
    try {
      const anims = a.animator.animations(d.tree, d.abs, a.config);
      return (anims?.problems() ?? []).map((p) => ({ severity: p.severity, message: p.message, where: `${this.s.paths.display(p.at.file)}:${p.at.line}` }));
    } catch (e) {
      return [{ severity: 'error', message: `model animations: ${e instanceof Error ? e.message : String(e)}`, where: '' }];
    }
  }

  private async allowed(file: string): Promise<boolean> {
    try {
      await this.s.paths.resolve(this.s.paths.display(file), 'read');
      return true;
    } catch {
      return false;
    }
  }
}
