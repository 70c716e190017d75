/**
 * Shared state of the P3D editors: the LOD list (names as modders know them) and the LOD being
 * edited, which is also the LOD the viewport shows, so the preview follows the editor.
 */
import { computed, ref, watch, type Ref } from 'vue';
import type { EditorQuery, P3dLodEntry } from '../../shared/model/editor-query.ts';
import { useDocs } from '../stores/use-docs.ts';
import { useView } from '../stores/use-view.ts';
import { latestAnswer } from '../lib/latest-answer.ts';

export function useP3dLods() {
  const docs = useDocs();
  const view = useView();
  const lods = ref<P3dLodEntry[]>([]);
  const answers = latestAnswer();
  watch([() => docs.active?.id, () => docs.active?.revision], async () => {
    const r = await answers.take(docs.query<P3dLodEntry[]>({ kind: 'p3d-lods' }));
    if (r !== answers.stale) lods.value = r ?? [];
  }, { immediate: true });
  /** The viewport's LOD (its label), else the finest visual LOD, else the first. */
  const lod = computed<number>({
    get: () => {
      const want = view.lod.get(docs.active?.id ?? '');
      const byLabel = want ? lods.value.find((l) => l.label === want || l.name === want) : undefined;
      if (byLabel) return byLabel.index;
      const visual = lods.value.filter((l) => l.kind === 'visual').sort((a, b) => a.resolution - b.resolution)[0];
      return visual?.index ?? lods.value[0]?.index ?? 0;
    },
    set: (i: number) => {
      const l = lods.value[i];
      if (l && docs.active) view.lod.set(docs.active.id, l.label);
    },
  });
  return { lods, lod };
}

/** Re-asks a P3D question whenever the document, its revision or the LOD changes. */
export function useP3dView<T>(lod: Ref<number>, make: (lod: number) => EditorQuery): Ref<T | null> {
  const docs = useDocs();
  const out = ref<T | null>(null) as Ref<T | null>;
  const answers = latestAnswer();
  watch([() => docs.active?.id, () => docs.active?.revision, () => lod.value], async () => {
    const r = await answers.take(docs.query<T>(make(lod.value)));
    if (r !== answers.stale) out.value = r;
  }, { immediate: true });
  return out;
}
