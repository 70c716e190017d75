/**
 * Text typed into the inputs of one row (a field, a vector, a table page, a path list), kept while
 * its edit makes the round trip to the document service.
 *
 * Each input shows, in order: its draft (text being typed, not yet committed), else the text it
 * sent (committed, on its way: shown until the new value arrives, so the old value never flashes
 * back), else the stored value. When the row's own edit comes back, text typed meanwhile is the
 * user's next edit and stays: on a slow host the previous edit often returns mid-typing. Any other
 * change of the value (an undo, another node) drops the drafts. Escape drops the input's draft and
 * shows the stored value again; a refused edit turns what was sent back into a draft.
 *
 * Inputs carry `data-draft` while they hold a draft: App.vue leaves Ctrl+Z to the browser's text
 * undo there, and makes it the document's undo everywhere else.
 */
import { ref } from 'vue';

export type DraftKey = string | number;

/**
 * `stored`: the text of input `k`'s stored value. `busy`: whether the row still has an edit on its
 * way (a queued one after the one that just came back); while it does, text sent and not yet
 * stored stays shown, so a quick second edit never flashes the first one's value.
 */
export function useDrafts<K extends DraftKey>(stored: (k: K) => string, busy?: () => boolean) {
  const drafts = ref<Record<string, string>>({});
  const sent = ref<Record<string, string>>({});
  const at = (k: K): string => String(k);
  /** The key each sent text was sent under (record keys are strings; `stored` wants the key). */
  const sentKeys = new Map<string, K>();

  /** The text input `k` shows. */
  const text = (k: K): string => drafts.value[at(k)] ?? sent.value[at(k)] ?? stored(k);
  /** The draft of input `k`, if one is being typed. */
  const draft = (k: K): string | undefined => drafts.value[at(k)];
  const has = (k: K): boolean => drafts.value[at(k)] !== undefined;
  /** The `data-draft` attribute of input `k`. */
  const attr = (k: K): 'true' | undefined => (has(k) ? 'true' : undefined);
  /** The user typed into input `k`. */
  function input(k: K, value: string): void {
    drafts.value[at(k)] = value;
  }
  /** The draft needs no edit (it says what is stored, or it was refused here): forget it. */
  function drop(k: K): void {
    delete drafts.value[at(k)];
  }
  /** Input `k` committed `value` (default: its draft): shown until the value comes back. */
  function send(k: K, value?: string): void {
    const v = drafts.value[at(k)] ?? value;
    delete drafts.value[at(k)];
    if (v !== undefined) {
      sent.value[at(k)] = v;
      sentKeys.set(at(k), k);
    }
  }
  /** The edit was refused: what was sent is the user's uncommitted text again. */
  function refused(): void {
    for (const [k, v] of Object.entries(sent.value)) drafts.value[k] = v;
    sent.value = {};
  }
  /** The value changed: the row's own edit arrived (drafts typed since stay), or something else did (drafts go). */
  function arrived(): void {
    const keys = Object.keys(sent.value);
    if (keys.length === 0) {
      drafts.value = {};
      return;
    }
    const waiting = busy?.() ?? false;
    for (const k of keys) {
      const key = sentKeys.get(k);
      if (!waiting || key === undefined || sent.value[k] === stored(key)) delete sent.value[k];
    }
  }
  /**
   * The document changed again after the row's own edit came back (an undo, another row's edit):
   * what was sent is no longer news, even when the stored value reads the same as before the edit
   * (an undo of it), which {@link arrived} never hears of. Drafts being typed stay.
   */
  function forgetSent(): void {
    sent.value = {};
  }
  // The document revision the row's own last accepted edit made (see revisionIs).
  let ownRevision: number | undefined;
  /** The row's own edit was accepted and left the document at revision `rev`. */
  function landed(rev: number | undefined): void {
    ownRevision = rev;
  }
  /**
   * The document is at revision `rev`. A later revision than the row's own edit's, while nothing of
   * the row's is on its way, is someone else's change (Ctrl+Z right after Enter, before the row
   * re-read its value, puts back the value the row showed before, so the value never "changes"
   * and {@link arrived} is never called): the sent text's time on screen is over.
   */
  function revisionIs(rev: number | undefined): void {
    if (ownRevision === undefined || rev === undefined || rev <= ownRevision || (busy?.() ?? false)) return;
    ownRevision = undefined;
    forgetSent();
  }
  /** Another node is shown in this row: nothing typed carries over. */
  function reset(): void {
    drafts.value = {};
    sent.value = {};
  }
  /**
   * Escape in input `k`: drops its draft and shows the stored value. Returns false (and leaves the
   * key to others, e.g. a dialog's Escape) when there was nothing to cancel and `force` is not set.
   */
  function cancel(e: KeyboardEvent, k: K, force = false): boolean {
    if (!has(k) && !force) return false;
    e.stopPropagation();
    drop(k);
    // The binding may already hold the stored value (the draft never reached it): put it back by hand.
    const el = e.target as HTMLInputElement;
    void Promise.resolve().then(() => {
      el.value = text(k);
    });
    return true;
  }
  return { text, draft, has, attr, input, drop, send, refused, arrived, forgetSent, landed, revisionIs, reset, cancel };
}
