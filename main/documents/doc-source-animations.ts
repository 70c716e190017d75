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
import type { SourcePoseSource } from '../../shared/ipc/contract.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import { findConfigFile, includeReaderFor } from './model-cfg-files.ts';
import { readFileSync } from 'node:fs';

interface Attached {
  animator: SourceAnimator;
  config?: SourceConfig;
  /** The config could not be read: one problem saying where. */
  error?: Problem;
}


export class DocumentSourceAnimations {
  private readonly s: DocumentStore;
  private readonly attached = new WeakMap<OpenDocument, Attached>();

  constructor(s: DocumentStore) {
    this.s = s;
  }

  /** Loads the animator and reads the config of a document just opened (never throws). */
  async attach(d: OpenDocument): Promise<void> {
    const support = d.codec.sourceAnimations;
    if (!support || d.abs === null) return;
    try {
      const animator = await support.load();
      const a: Attached = { animator };
      if (support.configFile && animator.readConfig) {
        const file = findConfigFile(d.abs, support.configFile);
        if (file && (await this.allowed(file))) {
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
      if (a.error || a.animator.animations(d.tree, d.abs, a.config)) this.attached.set(d, a);
    } catch {
      /* no source animations: the model shows as before */
    }
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
