/**
 * Edit > Find and Replace Paths…: the paths of every LOD of the open model previewed and replaced
 * in one undo step, then across all open documents; the modding rules' Problems entry for a
 * drive-letter path goes when the path is fixed; the dialog has no serious accessibility
 * violations.
 */
import AxeBuilder from '@axe-core/playwright';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/index.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';

/** Two LODs whose faces name `texture`. */
function model(texture: string): Uint8Array {
  const c = cube(1);
  const lod = (resolution: number) => buildLod({ resolution, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) });
  return encodeMlod(buildMlod([lod(1), lod(2)]));
}

test('find and replace paths: preview, one undo step per document, all open documents', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'a.p3d'), model('P:\\mymod\\data\\box_co.paa'));
  await writeFile(join(lodsmith.root, 'b.p3d'), model('P:\\mymod\\data\\other_co.paa'));
  await page.goto(lodsmith.page({ open: 'models/a.p3d' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  // One modding-rule entry per LOD naming the drive-letter path.
  const ruleRow = page.locator('[data-testid=problem-row]').filter({ hasText: '[path-absolute]' });
  await expect(ruleRow).toHaveCount(2);

  await page.locator('body').focus();
  await page.keyboard.press('Control+h');
  const dialog = page.getByRole('dialog', { name: 'Find and Replace Paths' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Find')).toBeFocused();
  const axe = await new AxeBuilder({ page }).include('[data-testid=repath-dialog]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // The drive letter goes with the prefix: P:\mymod\data -> newmod\art, in both LODs.
  await dialog.getByLabel('Find').fill('P:\\mymod\\data');
  await dialog.getByLabel('Replace with').fill('newmod\\art');
  await dialog.getByTestId('repath-preview-button').click();
  await expect(dialog.getByTestId('repath-change')).toHaveCount(2);
  await expect(dialog.getByTestId('repath-change').first()).toContainText('P:\\mymod\\data\\box_co.paa → newmod\\art\\box_co.paa');
  await dialog.getByTestId('repath-replace').click();
  await expect(dialog.getByTestId('repath-result')).toHaveText('Replaced 2 paths in 1 document');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(ruleRow).toHaveCount(0);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  // One undo step brings both LODs back.
  await page.keyboard.press('Control+z');
  await expect(ruleRow).toHaveCount(2);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');

  // A second document, then every open document at once.
  await page.keyboard.press('Control+o');
  await page.locator('[data-testid=file-entry][data-name="b.p3d"]').dblclick();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(2);
  await page.locator('body').focus();
  await page.keyboard.press('Control+h');
  await dialog.getByLabel('Find').fill('p:/MYMOD/data');
  await dialog.getByLabel('Replace with').fill('newmod\\art');
  await dialog.getByTestId('repath-all').check();
  await dialog.getByTestId('repath-preview-button').click();
  await expect(dialog.getByTestId('repath-preview')).toContainText('a.p3d: 2 paths');
  await expect(dialog.getByTestId('repath-preview')).toContainText('b.p3d: 2 paths');
  await dialog.getByTestId('repath-replace').click();
  await expect(dialog.getByTestId('repath-result')).toHaveText('Replaced 4 paths in 2 documents');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const tabs = page.locator('[data-testid=doc-tab]');
  await expect(tabs.nth(0)).toHaveAttribute('data-dirty', 'true');
  await expect(tabs.nth(1)).toHaveAttribute('data-dirty', 'true');
  // Each document has one step to undo: undoing the active one (b) leaves a changed.
  await page.keyboard.press('Control+z');
  await expect(tabs.nth(1)).toHaveAttribute('data-dirty', 'false');
  await expect(tabs.nth(0)).toHaveAttribute('data-dirty', 'true');
});
