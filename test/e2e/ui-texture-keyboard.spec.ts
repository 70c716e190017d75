/**
 * The texture view from the keyboard alone: a texture picked in the Open dialog opens with the
 * focus inside the view (not left on the page behind), Tab stays inside, Escape returns to the
 * models, and Ctrl+O, whether pressed after that or while the texture view is still open, shows
 * the Open dialog on top, where it has the focus and can be seen.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';

const focusInside = (l: Locator) => l.evaluate((d) => d.contains(document.activeElement));
/** Whether the middle of `l` is drawn by `l` itself (nothing covers it). */
const onTop = (l: Locator) =>
  l.evaluate((d) => {
    const r = d.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && d.contains(hit);
  });

async function pickInOpenDialog(page: Page, name: string): Promise<void> {
  const files = page.getByRole('dialog', { name: 'Open model' }).getByRole('listbox');
  await expect(files).toBeFocused();
  await expect(files.getByRole('option', { selected: true })).toHaveCount(1);
  for (let i = 0; i < 20 && (await files.getByRole('option', { selected: true }).getAttribute('data-name')) !== name; i++) await page.keyboard.press('ArrowDown');
  await expect(files.getByRole('option', { selected: true })).toHaveAttribute('data-name', name);
  await page.keyboard.press('Enter');
}

test('a texture opened from the Open dialog is driven by the keyboard: focus inside, Escape back, Ctrl+O shows the Open dialog', async ({ page, lodsmith }) => {
  const side = 32;
  const data = new Uint8Array(side * side * 4).map((_, i) => [200, 40, 40, 255][i % 4]!);
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await writeFile(join(lodsmith.root, 'brick_co.paa'), encodePaa(createPaa({ width: side, height: side, data })));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.getByRole('tab', { name: /robot\.lod/ })).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Document structure' });
  await tree.focus();

  await page.keyboard.press('Control+o');
  await pickInOpenDialog(page, 'brick_co.paa');
  const viewer = page.getByRole('dialog', { name: 'Texture brick_co.paa' });
  await expect(viewer).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Open model' })).toHaveCount(0);
  // Read it: the focus is inside the view, and its facts are there to read.
  await expect.poll(() => focusInside(viewer)).toBe(true);
  await expect(viewer.getByTestId('texture-type')).toHaveText('DXT1, 32x32');
  // Tab and Shift+Tab go round inside the view; keys never reach the tree behind.
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press(i % 4 === 3 ? 'Shift+Tab' : 'Tab');
    expect(await focusInside(viewer), `after key ${i}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  // Back at the models: the document and its tree are there, the focus where it was before.
  await expect(page.getByRole('tab', { name: /robot\.lod/ })).toBeVisible();
  await expect(tree).toBeFocused();

  await page.keyboard.press('Control+o');
  const open = page.getByRole('dialog', { name: 'Open model' });
  await expect(open).toBeVisible();
  expect(await onTop(open)).toBe(true);
  await expect.poll(() => focusInside(open)).toBe(true);

  // Ctrl+O while the texture view is still open: the Open dialog is the one shown, on top.
  await pickInOpenDialog(page, 'brick_co.paa');
  await expect(viewer).toBeVisible();
  await expect.poll(() => focusInside(viewer)).toBe(true);
  await page.keyboard.press('Control+o');
  await expect(open).toBeVisible();
  await expect(viewer).toHaveCount(0);
  expect(await onTop(open)).toBe(true);
  await expect.poll(() => focusInside(open)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(open).toHaveCount(0);
});
