import { nextTick } from 'vue';

/**
 * After a model is opened from a dialog, a keyboard user lands in its structure tree, as if they
 * had clicked into it: a dialog gives the focus back to what had it before, and when that was
 * nothing (the window had just started) or is gone (the welcome screen's button), the focus would
 * otherwise sit on the page, where arrows and Enter do nothing. Focus the user put somewhere on
 * purpose in the meantime is left alone.
 */
export async function landInStructure(): Promise<void> {
  // The document's panels render in the tick after it becomes the active one.
  await nextTick();
  const at = document.activeElement;
  if (at && at !== document.body && at.isConnected) return;
  document.querySelector<HTMLElement>('[data-testid="tree"]')?.focus();
}
