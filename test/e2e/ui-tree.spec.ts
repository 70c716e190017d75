/**
 * Structure tree, problems, hex view and viewport picking end to end: keyboard navigation and
 * filtering, the context menu actions, a problem that selects its node, the field under the
 * cursor highlighted in the bytes, and a click in 3D selecting in the tree.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

async function openSample(page: Page, lodsmith: { root: string; page(q?: Record<string, string>): string }): Promise<void> {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
}
const selectedRow = (page: Page) => page.locator('[data-testid=tree-row][aria-selected=true]');
const row = (page: Page, text: string) => page.locator('[data-testid=tree-row]', { hasText: text });

test('keyboard navigation and filtering in the structure tree', async ({ page, lodsmith }) => {
  await openSample(page, lodsmith);
  const tree = page.locator('[data-testid=tree]');
  await tree.focus();
  await page.keyboard.press('Home');
  await expect(selectedRow(page)).toHaveAttribute('data-kind', 'file');
  await page.keyboard.press('ArrowDown');
  await expect(selectedRow(page)).toHaveAttribute('data-kind', 'lod');
  // Down to MAL1 (collapsed), Right expands it, Right again enters its first child.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(selectedRow(page)).toContainText('MAL1');
  await expect(selectedRow(page)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(selectedRow(page)).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(selectedRow(page)).toContainText('MAT1');
  await page.keyboard.press('ArrowLeft');
  await expect(selectedRow(page)).toContainText('MAL1');
  await page.keyboard.press('End');
  await expect(selectedRow(page)).toHaveAttribute('data-kind', 'image');
  await expect(page.locator('[data-testid=status-selection]')).toHaveText(/^LOD1\/IMG1\b/);
  // Single-key view shortcuts work while the tree has the focus, not while typing in a field.
  await page.keyboard.press('w');
  await expect(page.locator('[data-testid=toggle-wireframe]')).toHaveClass(/\bon\b/);
  await page.locator('[data-testid=tree-filter]').focus();
  await page.keyboard.press('w');
  await expect(page.locator('[data-testid=tree-filter]')).toHaveValue('w');
  await expect(page.locator('[data-testid=toggle-wireframe]')).toHaveClass(/\bon\b/);
  await page.locator('[data-testid=tree-filter]').fill('');
  await tree.focus();

  // Filter: only matches and their ancestors stay.
  await page.keyboard.press('Control+f');
  await expect(page.locator('[data-testid=tree-filter]')).toBeFocused();
  await page.keyboard.type('Right arm');
  await expect(row(page, 'Right arm')).toBeVisible();
  await expect(row(page, 'MAL1')).toHaveCount(0);
  await expect(row(page, 'PXL1')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row(page, 'MAL1')).toBeVisible();
});

test('context menu: add, move and delete a collider; the count badge follows', async ({ page, lodsmith }) => {
  await openSample(page, lodsmith);
  await row(page, 'CLL1').locator('[data-testid=tree-twisty]').click();
  const set = row(page, 'COL1[0]');
  const count = Number(await set.locator('[data-testid=tree-count]').textContent());
  await set.click({ button: 'right' });
  await page.locator('[data-testid=menu-add-collider]').click();
  await expect(set.locator('[data-testid=tree-count]')).toHaveText(String(count + 1));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  // The new collider is selected and last; move it up, then delete it.
  const added = selectedRow(page);
  await expect(added).toHaveAttribute('data-kind', 'collider');
  expect(await added.getAttribute('data-path')).toContain(`"colliders",${count}]`);
  await added.click({ button: 'right' });
  await page.locator('[data-testid=menu-move-up]').click();
  await expect(selectedRow(page)).toHaveAttribute('data-path', new RegExp(`"colliders",${count - 1}\\]$`));
  await selectedRow(page).click({ button: 'right' });
  await page.locator('[data-testid=menu-delete]').click();
  await expect(set.locator('[data-testid=tree-count]')).toHaveText(String(count));
  // Three edits, three undo steps back to the saved state.
  for (let i = 0; i < 3; i++) await page.locator('[data-testid=tool-edit-undo]').click();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');
});

test('a problem selects its node; the hovered field lights up in the bytes', async ({ page, lodsmith }) => {
  await openSample(page, lodsmith);
  // Point a proxy item at a mesh that does not exist: validation reports it.
  await page.locator('[data-testid=tab-proxies]').click();
  await page.locator('[data-testid=proxy-item]', { hasText: 'Left arm' }).click();
  // The editor's picker only offers real meshes; the inspector takes any number the field holds.
  const raw = page.locator('[data-testid=inspector] [data-testid=field-sourceMeshIndex] [data-testid=field-input]');
  await page.locator('[data-testid=tab-inspector]').click();
  await raw.fill('99');
  await raw.press('Enter');
  await page.locator('[data-testid=tab-problems]').click();
  const problem = page.locator('[data-testid=problem-row]').first();
  await expect(problem).toBeVisible();
  await page.locator('[data-testid=tree-row]', { hasText: 'IMG1' }).click();
  await problem.getByRole('button').click();
  await expect(selectedRow(page)).toContainText('Left arm');

  // Hex view: hovering a field highlights exactly its bytes.
  await page.locator('[data-testid=tab-hex]').click();
  const field = page.locator('[data-testid=inspector] [data-testid=field-proxyVisible]');
  await field.hover();
  await expect(page.locator('[data-testid=hex-view] .cols .hl')).toHaveCount(1);
  await page.locator('[data-testid=inspector] [data-testid=field-proxyPosition]').hover();
  await expect(page.locator('[data-testid=hex-view] .cols .hl')).toHaveCount(12);
});

test('a click on the model selects it in the tree', async ({ page, lodsmith }) => {
  await openSample(page, lodsmith);
  const canvas = page.locator('[data-testid=viewport-canvas]');
  await expect(canvas).toHaveAttribute('data-scene', /\S/);
  await expect(selectedRow(page)).toHaveCount(0);
  const box = (await canvas.boundingBox())!;
  // The ground grid covers the middle of the framed view.
  await canvas.click({ position: { x: box.width / 2, y: box.height * 0.62 } });
  await expect(selectedRow(page)).toHaveCount(1);
  expect(['mesh', 'proxy', 'facegroup']).toContain(await selectedRow(page).getAttribute('data-kind'));
});
