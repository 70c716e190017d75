/**
 * Undo as a modder relies on it: every committed edit is its own named step (only the moves of
 * one drag merge), Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo the document even from inside a field once
 * its edit is committed, Escape drops an uncommitted entry, and the history list goes back to any
 * step.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

async function openGround(page: Page, lodsmith: { root: string; page(q?: Record<string, string>): string }) {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  await page.locator('[data-testid=material-list-item]', { hasText: 'ground' }).click();
}
const historySteps = (page: Page) => page.locator('[data-testid=history-step]');

test('each committed edit is one undo step; Ctrl+Z in a committed field undoes the document', async ({ page, lodsmith }) => {
  await openGround(page, lodsmith);
  const shininess = page.locator('[data-testid=materials-editor] [data-testid=field-shininess] [data-testid=field-input]');
  const original = await shininess.inputValue();
  await shininess.fill('10');
  await shininess.press('Enter');
  await expect(shininess).toHaveValue('10');
  await shininess.fill('20');
  await shininess.press('Enter');
  await expect(shininess).toHaveValue('20');
  const undoButton = page.locator('[data-testid=tool-edit-undo]');
  await expect(undoButton).toHaveAttribute('title', /^Undo Set shininess of material ground \(Ctrl\+Z\)$/);

  // Still in the field, right after Enter: Ctrl+Z is the document's undo, one step at a time.
  await expect(shininess).toBeFocused();
  await shininess.press('Control+z');
  await expect(shininess).toHaveValue('10');
  await shininess.press('Control+z');
  await expect(shininess).toHaveValue(original);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');
  await shininess.press('Control+Shift+z');
  await expect(shininess).toHaveValue('10');
  await shininess.press('Control+y');
  await expect(shininess).toHaveValue('20');
  await expect(page.locator('[data-testid=tool-edit-redo]')).toBeDisabled();

  // Escape drops what was typed and writes nothing.
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(historySteps(page)).toHaveCount(3);
  await shininess.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('55');
  await page.keyboard.press('Escape');
  await expect(shininess).toHaveValue('20');
  await shininess.blur();
  await expect(historySteps(page)).toHaveCount(3);
  // While text is being typed, Ctrl+Z belongs to the text: the document is not undone.
  await shininess.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('9');
  await page.keyboard.press('Control+z');
  await expect(page.locator('[data-testid=history-step][aria-current=step]')).toHaveAttribute('data-at', '2');
  await page.keyboard.press('Escape');
  await expect(shininess).toHaveValue('20');
});

test('one colour-picker drag is one step; the history list names steps and goes back to any of them', async ({ page, lodsmith }) => {
  await openGround(page, lodsmith);
  const diffuse = page.locator('[data-testid=materials-editor] [data-testid=field-diffuse]');
  const red = diffuse.locator('[data-testid=field-comp-0]');
  const before = await red.inputValue();
  // A drag: several input events, then change when the picker closes.
  await diffuse.locator('[data-testid=color-picker]').evaluate(async (el: HTMLInputElement) => {
    for (const c of ['#ff0000', '#800000', '#400000', '#200000']) {
      el.value = c;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 30));
    }
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect(red).not.toHaveValue(before);
  // Then a typed edit of the same field: a step of its own.
  const green = diffuse.locator('[data-testid=field-comp-1]');
  await green.fill('0.5');
  await green.press('Enter');
  await expect(green).toHaveValue('0.5');

  await page.getByRole('button', { name: 'History', exact: true }).click();
  const steps = historySteps(page);
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toHaveText(/Opened robot\.lod/);
  await expect(steps.nth(1)).toHaveText(/Set diffuse of material ground/);
  await expect(steps.nth(2)).toHaveText(/Set diffuse of material ground/);
  await expect(steps.nth(2)).toHaveAttribute('aria-current', 'step');

  // Back to the state as opened: one click, the file is clean and both steps stay redoable.
  await steps.nth(0).click();
  await expect(red).toHaveValue(before);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');
  await expect(page.locator('[data-testid=tool-edit-redo]')).toHaveAttribute('title', /^Redo Set diffuse of material ground/);
  // Forward to just after the drag: the drag's last colour, not the typed edit.
  await steps.nth(1).click();
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(red).not.toHaveValue(before);
  await expect(green).not.toHaveValue('0.5');
  // One undo from there undoes the whole drag.
  await page.keyboard.press('Control+z');
  await expect(red).toHaveValue(before);
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
});
