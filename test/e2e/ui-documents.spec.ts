/**
 * Working with many documents: tabs beyond what fits scroll and are all listed in a menu, titles
 * show the file name (the folder on hover), Ctrl+Tab / Ctrl+Shift+Tab / Ctrl+W work; each
 * document keeps its own tree filter, which matches names and values; the lights list highlights
 * the scheme that lights the preview; files dropped on the window open read-only until saved.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const activeTab = (page: Page) => page.getByRole('tab', { selected: true });

test('many documents: tabs scroll, all are listed, Ctrl+Tab / Ctrl+Shift+Tab / Ctrl+W', async ({ page, lodsmith }) => {
  const bytes = encodeLod(buildSampleLod());
  const names: string[] = [];
  for (let i = 1; i <= 9; i++) {
    const folder = `vehicles/tank_${i}`;
    await mkdir(join(lodsmith.root, folder), { recursive: true });
    await writeFile(join(lodsmith.root, folder, `tank_turret_variant_${i}.lod`), bytes);
    const r = await lodsmith.invoke('doc:open', { path: `models/${folder}/tank_turret_variant_${i}.lod` });
    expect(r.ok).toBe(true);
    names.push(`tank_turret_variant_${i}.lod`);
  }
  await page.goto(lodsmith.url);
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(9);
  // Titles: the file name; the folder shows on hover.
  await expect(tabs.nth(2).locator('.name')).toHaveText(names[2]!);
  await expect(tabs.nth(2)).toHaveAttribute('title', /tank_turret_variant_3\.lod\nin models\/vehicles\/tank_3/);
  // Nine tabs do not fit: the strip scrolls, and the list names every document.
  const strip = page.getByRole('tablist', { name: 'Open documents' });
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await page.getByRole('button', { name: 'All open documents (9)' }).click();
  const entries = page.locator('[data-testid=doc-list-entry]');
  await expect(entries).toHaveCount(9);
  await entries.nth(8).click();
  await expect(activeTab(page)).toContainText(names[8]!);
  // The chosen tab is scrolled into view.
  const inView = async () => {
    const s = (await strip.boundingBox())!;
    const t = (await activeTab(page).boundingBox())!;
    return t.x >= s.x - 1 && t.x + t.width <= s.x + s.width + 1;
  };
  await expect.poll(inView).toBe(true);

  // Ctrl+Tab wraps to the first, Ctrl+Shift+Tab goes back.
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+Tab');
  await expect(activeTab(page)).toContainText(names[0]!);
  await expect.poll(inView).toBe(true);
  await page.keyboard.press('Control+Tab');
  await expect(activeTab(page)).toContainText(names[1]!);
  await page.keyboard.press('Control+Shift+Tab');
  await expect(activeTab(page)).toContainText(names[0]!);
  // Arrow keys on the focused tab move between tabs.
  await activeTab(page).focus();
  await page.keyboard.press('ArrowRight');
  await expect(activeTab(page)).toContainText(names[1]!);
  await expect(activeTab(page)).toBeFocused();
  // Ctrl+W closes the active document.
  await page.keyboard.press('Control+w');
  await expect(tabs).toHaveCount(8);
  await expect(page.getByRole('tab', { name: names[1]! })).toHaveCount(0);
});

test('the tree filter belongs to each document and matches names and values', async ({ page, lodsmith }) => {
  const bytes = encodeLod(buildSampleLod());
  await writeFile(join(lodsmith.root, 'a.lod'), bytes);
  await writeFile(join(lodsmith.root, 'b.lod'), bytes);
  expect((await lodsmith.invoke('doc:open', { path: 'models/a.lod' })).ok).toBe(true);
  expect((await lodsmith.invoke('doc:open', { path: 'models/b.lod' })).ok).toBe(true);
  await page.goto(lodsmith.url);
  await expect(page.getByRole('tab')).toHaveCount(2);
  await page.getByRole('tab', { name: 'a.lod' }).click();
  const filter = page.getByRole('searchbox', { name: /Filter the structure/ });
  const rows = page.locator('[data-testid=tree-row]');
  // A value: the ground material's texture file name is in no node's name or label.
  await filter.fill('ground.png');
  await expect(page.locator('[data-testid=tree-row][data-kind=material]')).toHaveCount(1);
  await expect(page.locator('[data-testid=tree-row][data-kind=material]')).toContainText('ground');
  // A number: the steel material's shininess.
  await filter.fill('64');
  await expect(page.locator('[data-testid=tree-row][data-kind=material]', { hasText: 'steel' })).toBeVisible();
  // Names still match.
  await filter.fill('Right arm');
  await expect(rows.filter({ hasText: 'Right arm' })).toBeVisible();
  // The other document has its own (empty) filter; coming back restores this one.
  await page.getByRole('tab', { name: 'b.lod' }).click();
  await expect(filter).toHaveValue('');
  await expect(rows.filter({ hasText: 'MAL1' })).toBeVisible();
  await page.getByRole('tab', { name: 'a.lod' }).click();
  await expect(filter).toHaveValue('Right arm');
  await expect(rows.filter({ hasText: 'MAL1' })).toHaveCount(0);
});

test('the lights list highlights the scheme that lights the preview, however it was switched', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await page.getByRole('button', { name: 'Lights', exact: true }).click();
  const rows = page.locator('[data-testid=light-scheme-row]');
  const radios = page.locator('[data-testid=light-scheme]');
  const toolbar = page.locator('[data-testid=light-scheme-select]');
  await radios.nth(1).check();
  await expect(rows.nth(1)).toHaveAttribute('data-active', 'true');
  // Switching from the viewport's toolbar moves the highlight (and the listed lights) with it.
  await toolbar.selectOption('0');
  await expect(rows.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(rows.nth(1)).toHaveAttribute('data-active', 'false');
  await expect(radios.nth(0)).toBeChecked();
  await toolbar.selectOption('-1');
  await expect(page.locator('[data-testid=light-scheme-row][data-active=true]')).toHaveCount(0);
  await expect(page.locator('[data-testid=light-scheme-row-studio]')).toHaveClass(/\bactive\b/);
  // Selecting a light of scheme 1 in the tree lights scheme 1.
  const lgs = page.locator('[data-testid=tree-row]', { hasText: 'LGS1' });
  const lgsPath = (await lgs.getAttribute('data-path'))!;
  await lgs.click();
  await page.keyboard.press('ArrowRight');
  const scheme1 = page.locator(`[data-testid=tree-row][data-path='${lgsPath.slice(0, -1)},"children",1]']`);
  await scheme1.click();
  await expect(scheme1).toHaveAttribute('aria-selected', 'true');
  await expect(toolbar).toHaveValue('1');
  await expect(rows.nth(1)).toHaveAttribute('data-active', 'true');
});

test('a file dropped on the window opens read-only until Save As puts it in a folder', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.url);
  const bytes = Array.from(encodeLod(buildSampleLod()));
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], 'dropped_robot.lod'));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, bytes);
  const tab = page.getByRole('tab', { name: /dropped_robot\.lod, read-only/ });
  await expect(tab).toBeVisible();
  await expect(page.locator('[data-testid=notice]')).toContainText('read-only');
  // Edits wait for a file.
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const name = page.locator('[data-testid=materials-editor] [data-testid=field-matName] [data-testid=field-input]');
  await name.fill('chrome');
  await name.press('Enter');
  await expect(page.locator('[data-testid=materials-editor] [data-testid=field-error]')).toContainText('read-only');
  await name.press('Escape');
  // Ctrl+S asks where, as Save As does.
  await page.keyboard.press('Control+s');
  const dialog = page.getByRole('dialog', { name: 'Save as' });
  const fileName = dialog.getByRole('textbox', { name: 'File name' });
  await expect(fileName).toHaveValue('dropped_robot.lod');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  // The tab loses its read-only mark once the save has come back (a substring match would not wait).
  await expect(page.getByRole('tab', { name: /dropped_robot\.lod, read-only/ })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /dropped_robot\.lod/ })).toBeVisible();
  expect(existsSync(join(lodsmith.root, 'dropped_robot.lod'))).toBe(true);
  expect(new Uint8Array(await readFile(join(lodsmith.root, 'dropped_robot.lod')))).toEqual(new Uint8Array(bytes));
  // Now it edits like any file.
  await name.fill('chrome');
  await name.press('Enter');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
});
