/**
 * Editors show many nodes at once (all lights of a scheme, all items of a proxy tree): this
 * inspects a list of nodes and keeps the results current as the document's revision moves.
 */
import { shallowRef, watch, type ShallowRef } from 'vue';
import type { InspectField, Inspection } from '../../shared/model/outline.ts';
import { pathKey, type NodePath } from '../../shared/model/path.ts';
import { useDocs } from '../stores/use-docs.ts';
import { latestAnswer } from '../lib/latest-answer.ts';

export function useInspections(paths: () => NodePath[]): ShallowRef<Map<string, Inspection>> {
  const docs = useDocs();
  const out = shallowRef(new Map<string, Inspection>());
  const answers = latestAnswer();
  watch(
    () => [docs.active?.id, docs.active?.revision, paths().map(pathKey).join('|')],
    async () => {
      const list = paths();
      const results = await answers.take(Promise.all(list.map((p) => docs.inspect(p))));
      if (results === answers.stale) return;
      const m = new Map<string, Inspection>();
      list.forEach((p, i) => {
        const r = results[i];
        if (r) m.set(pathKey(p), r);
      });
      out.value = m;
    },
    { immediate: true },
  );
  return out;
}

/** A field of an inspection by name (the schema's field name). */
export function field(ins: Inspection | undefined, name: string): InspectField | undefined {
  return ins?.fields.find((f) => f.name === name);
}

/** A field's number value, or a fallback. */
export function num(ins: Inspection | undefined, name: string, fallback = 0): number {
  const v = field(ins, name)?.value;
  return typeof v === 'number' ? v : fallback;
}
