/**
 * The Open dialog browses into a PBO archive like a folder and opens an entry read-only: the
 * archive, its folder and the entry are listed, the entry opens in a tab of its own that says it
 * is read-only, and its tree shows.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/index.ts';
import { buildPbo, text } from '../helpers/pbo.ts';

test('open dialog: into an archive, an entry opened read-only', async ({ page, lodsmith }) => {
  const sample = new Uint8Array(await readFile(join(lodsmith.root, 'sample.lod')));
  await writeFile(join(lodsmith.root, 'mymod.pbo'), buildPbo([
    { name: 'config.cpp', data: text('class CfgPatches {};') },
    { name: 'data\\robot.lod', data: sample, compress: true },
  ], { properties: [['prefix', 'mymod']] }));
  await page.goto(lodsmith.page());
  await page.locator('body').focus();
  await page.keyboard.press('Control+o');
  await page.locator('[data-testid=file-entry][data-name="mymod.pbo"]').dblclick();
  await expect(page.locator('[data-testid=file-entry][data-name="data"]')).toBeVisible();
  await page.locator('[data-testid=file-entry][data-name="data"]').dblclick();
  await page.locator('[data-testid=file-entry][data-name="robot.lod"]').dblclick();
  const tab = page.locator('[data-testid=doc-tab]');
  await expect(tab).toHaveCount(1);
  await expect(tab).toContainText('robot.lod');
  await expect(tab).toContainText('read-only');
  await expect(page.locator('[data-testid=tree-row]').first()).toBeVisible();
});
