/**
 * Dialogs and the keyboard: every dialog takes the focus when it opens, keeps Tab inside, closes
 * on Escape and gives the focus back; keys pressed in a dialog never reach the tree behind it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

async function open(page: Page, lodsmith: { root: string; page(q?: Record<string, string>): string }) {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await writeFile(join(lodsmith.root, 'other.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
}
const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

test('the Open dialog takes the focus, traps Tab, keeps arrows from the tree, and Escape gives the focus back', async ({ page, lodsmith }) => {
  await open(page, lodsmith);
  const tree = page.getByRole('tree', { name: 'Document structure' });
  await tree.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const selected = tree.getByRole('treeitem', { selected: true });
  const before = await selected.getAttribute('data-path');

  await page.keyboard.press('Control+o');
  const dialog = page.getByRole('dialog', { name: 'Open model' });
  await expect(dialog).toBeVisible();
  const files = dialog.getByRole('listbox');
  await expect(files).toBeFocused();
  // Arrows move in the file list, not in the tree behind.
  await expect(files.getByRole('option', { selected: true })).toHaveCount(1);
  const first = await files.getByRole('option', { selected: true }).getAttribute('data-name');
  await page.keyboard.press('ArrowDown');
  await expect(files.getByRole('option', { selected: true })).not.toHaveAttribute('data-name', first!);
  await page.keyboard.press('ArrowDown');
  expect(await selected.getAttribute('data-path')).toBe(before);
  // Single-key shortcuts of the window are off while the dialog is open.
  await page.keyboard.press('w');
  await expect(page.locator('[data-testid=toggle-wireframe]')).not.toHaveClass(/\bon\b/);
  // Tab and Shift+Tab go round inside the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    expect(await focusInside(dialog)).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(tree).toBeFocused();
  expect(await selected.getAttribute('data-path')).toBe(before);

  // Keyboard only: open another file from the dialog by typing the start of its name.
  await page.keyboard.press('Control+o');
  await expect(files).toBeFocused();
  // From the last entry (once the folder is listed): the search goes round to the top.
  await expect(files.getByRole('option', { selected: true })).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(files.getByRole('option', { selected: true })).not.toHaveAttribute('data-name', 'other.lod');
  await page.keyboard.type('OTH');
  await expect(files.getByRole('option', { selected: true })).toHaveAttribute('data-name', 'other.lod');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(2);
  await expect(page.getByRole('tab', { selected: true })).toContainText('other.lod');
});

test('a model opened from the keyboard on an empty window lands the focus in its structure', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page());
  await expect(page.getByTestId('welcome-open')).toBeVisible();
  // Nothing has the focus yet: the dialog has nowhere to give it back to.
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.press('Control+o');
  const dialog = page.getByRole('dialog', { name: 'Open model' });
  const files = dialog.getByRole('listbox');
  await expect(files).toBeFocused();
  for (let i = 0; i < 8 && (await files.getByRole('option', { selected: true }).getAttribute('data-name')) !== 'robot.lod'; i++) await page.keyboard.press('ArrowDown');
  await expect(files.getByRole('option', { selected: true })).toHaveAttribute('data-name', 'robot.lod');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const tree = page.getByRole('tree', { name: 'Document structure' });
  await expect(tree).toBeFocused();
  // The arrows work at once: Home then Down selects the second row.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-path', /./);
  const second = await page.locator('[data-testid=tree-row]').nth(1).getAttribute('data-path');
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAttribute('data-path', second!);

  // The welcome screen's button is gone once the model is drawn: the focus still lands in the tree.
  await page.keyboard.press('Control+w');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(0);
  await page.getByTestId('welcome-open').focus();
  await page.keyboard.press('Enter');
  await expect(files).toBeFocused();
  await expect(files.getByRole('option', { selected: true })).toHaveCount(1);
  for (let i = 0; i < 8 && (await files.getByRole('option', { selected: true }).getAttribute('data-name')) !== 'robot.lod'; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await expect(tree).toBeFocused();
});

test('the unsaved-changes and Save As dialogs take the focus and close on Escape', async ({ page, lodsmith }) => {
  await open(page, lodsmith);
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const name = page.locator('[data-testid=materials-editor] [data-testid=field-matName] [data-testid=field-input]');
  await name.fill('chrome');
  await name.press('Enter');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');

  await page.keyboard.press('Control+w');
  const confirm = page.getByRole('dialog', { name: /Save changes to robot\.lod/ });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Save', exact: true })).toBeFocused();
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(confirm)).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await expect(name).toBeFocused();

  await page.keyboard.press('Control+Shift+s');
  const saveAs = page.getByRole('dialog', { name: 'Save as' });
  await expect(saveAs.getByRole('textbox', { name: 'File name' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(saveAs).toHaveCount(0);
  await expect(name).toBeFocused();
});
