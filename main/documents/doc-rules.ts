/**
 * The modding rules (docs/rules.md) of an open document as Problems entries, recomputed once per
 * revision: the codec's rules, with the files around the model found the way its textures are
 * (the texture folders from the settings, the host's roots, the model's folders) and the rule
 * choices of the nearest `lodsmith.json`. A dropped document (no folder) gets the rules that need
 * no files; a malformed `lodsmith.json` is itself one problem.
 */
import { dirname } from 'node:path';
import type { Problem } from '../../shared/model/problems.ts';
import { runRules, type RuleConfig } from '../../shared/model/rules.ts';
import type { DocumentStore, OpenDocument } from './doc-store.ts';
import { fileRuleEnvironment, ruleChoices } from './rules-env.ts';

export class DocumentRules {
  private readonly s: DocumentStore;
  private readonly cache = new WeakMap<OpenDocument, { revision: number; problems: Problem[] }>();

  constructor(s: DocumentStore) {
    this.s = s;
  }

  /** Drops what was found for `d` (the texture folders changed: files may be found now). */
  forget(d: OpenDocument): void {
    this.cache.delete(d);
  }

  ruleProblems(d: OpenDocument): Problem[] {
    const set = d.codec.rules;
    if (!set) return [];
    const hit = this.cache.get(d);
    if (hit?.revision === d.revision) return hit.problems;
    let problems: Problem[];
    try {
      let config: RuleConfig = {};
      let env = {};
      if (d.abs !== null) {
        config = ruleChoices(dirname(d.abs), {}, set.rules);
        env = fileRuleEnvironment(d.abs, this.s.textureRoots());
      }
      problems = runRules(set, d.tree, env, config);
    } catch (e) {
      problems = [{ severity: 'warning', message: `Modding rules not run: ${e instanceof Error ? e.message : String(e)}`, where: '' }];
    }
    this.cache.set(d, { revision: d.revision, problems });
    return problems;
  }
}
