/**
 * A toolbar button's popover panel (the viewport's Screenshot and Animations panels): one `open`
 * flag; a press anywhere outside `root` closes it and leaves the focus where the user put it;
 * Escape closes it wherever the focus is and gives the focus back to the button; opening focuses
 * the first control of the panel.
 */
import { nextTick, onBeforeUnmount, ref, watch } from 'vue';

export function usePopover(firstControl = 'select, input, button') {
  const open = ref(false);
  const button = ref<HTMLButtonElement | null>(null);
  const panel = ref<HTMLElement | null>(null);
  const root = ref<HTMLElement | null>(null);

  function outside(e: PointerEvent) {
    if (root.value && !root.value.contains(e.target as Node)) open.value = false;
  }
  // Escape is heard on the document: the control that had the focus may be gone (an Attach
  // button vanishes once its file is attached).
  function escape(e: KeyboardEvent) {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    close();
  }
  function listen(on: boolean) {
    if (on) {
      document.addEventListener('pointerdown', outside, true);
      document.addEventListener('keydown', escape, true);
    } else {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('keydown', escape, true);
    }
  }
  watch(open, listen);
  onBeforeUnmount(() => listen(false));

  /** Puts the focus on the panel's first control (after the panel has rendered). */
  async function focusFirst() {
    await nextTick();
    panel.value?.querySelector<HTMLElement>(firstControl)?.focus();
  }
  /** Opens or closes; `beforeFocus` runs after opening, before the first control is focused. */
  async function toggle(beforeFocus?: () => Promise<void>) {
    open.value = !open.value;
    if (!open.value) return;
    await beforeFocus?.();
    await focusFirst();
  }
  function close() {
    open.value = false;
    button.value?.focus();
  }
  return { open, button, panel, root, toggle, close, focusFirst };
}
