/**
 * Settings… → Texture folders, through the UI and with the keyboard only: a model whose texture
 * lives on a "P-drive" outside its own folders shows a Problems entry; adding that folder in the
 * settings finds the texture for the open model (the Problems entry goes, the preview draws it);
 * the list is kept by the host between page loads; a folder that does not exist is refused with
 * an error and changes nothing; the dialog has no serious accessibility violations.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { viewportMean } from './fixtures/viewport.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

function boxModel(texture: string): Uint8Array {
  const c = cube(1);
  const normals = c.points.map((v) => -v * Math.SQRT2);
  return encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, normals, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) })]));
}

/** A 32x32 DXT1 PAA, all blue. */
function bluePaa(): Uint8Array {
  const side = 32;
  const data = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) data.set([20, 40, 230, 255], i * 4);
  return encodePaa(createPaa({ width: side, height: side, data }));
}

const isBlue = async (page: Page) => {
  const [r, g, b] = await viewportMean(page);
  return b > 2 * r && b > 1.5 * g && b > 60;
};

test('texture folders: added from the keyboard, found for the open model, kept between sessions, bad folders refused', async ({ page, lodsmith }) => {
  // The model names P:\tex\wall_co.paa; the file is under models/PDrive/tex, which is neither the
  // model's folder, one of its parents, nor a path relative to the host's root.
  await mkdir(join(lodsmith.root, 'PDrive', 'tex'), { recursive: true });
  await mkdir(join(lodsmith.root, 'Mod', 'data'), { recursive: true });
  await writeFile(join(lodsmith.root, 'PDrive', 'tex', 'Wall_CO.paa'), bluePaa());
  await writeFile(join(lodsmith.root, 'Mod', 'data', 'box.p3d'), boxModel('P:\\tex\\wall_co.paa'));
  await page.goto(lodsmith.page({ open: 'models/Mod/data/box.p3d' }));
  const missing = page.locator('[data-testid=problem-row]').filter({ hasText: 'texture not found: P:\\tex\\wall_co.paa' });
  await expect(missing).toHaveCount(1);
  expect(await isBlue(page)).toBe(false);
  // The Materials tab's thumbnail says so too.
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const thumb = page.locator('[data-testid=texture-thumb]').first();
  await expect(thumb).toHaveAttribute('title', /was not found next to the model/);

  // Keyboard only: Ctrl+, opens the settings with the focus in the folder field.
  await page.locator('body').focus();
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel('Add a texture folder');
  await expect(field).toBeFocused();
  await expect(dialog.getByTestId('texture-roots-empty')).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('[data-testid=settings-dialog]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // A folder that does not exist: an error, the dialog stays, nothing is kept.
  await page.keyboard.type('models/NoSuchFolder');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('texture-root')).toHaveText([/models\/NoSuchFolder/]);
  await dialog.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('NoSuchFolder');
  await expect(dialog).toBeVisible();
  // Remove it (Tab to its Remove button), add the real one, save.
  await dialog.getByRole('button', { name: 'Remove models/NoSuchFolder' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('texture-root')).toHaveCount(0);
  await field.focus();
  await page.keyboard.type('models/PDrive');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('texture-root')).toHaveText([/models\/PDrive/]);
  await page.screenshot({ path: test.info().outputPath('settings.png') });
  await dialog.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // The open model finds its texture now: no Problems entry, a blue box, the thumbnail drawn.
  await expect(missing).toHaveCount(0);
  await expect(thumb).toHaveAttribute('title', /32 × 32/);
  await expect(thumb.locator('img')).toHaveCount(1);
  await expect.poll(() => isBlue(page), { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: test.info().outputPath('found.png') });

  // Kept by the host: in its settings file, and in the dialog after a new page load.
  const stored = JSON.parse(await readFile(join(lodsmith.root, '..', 'config', 'settings.json'), 'utf8')) as { textureRoots: string[] };
  expect(stored.textureRoots).toHaveLength(1);
  expect(stored.textureRoots[0]).toMatch(/PDrive$/);
  await page.reload();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await expect(missing).toHaveCount(0);
  await page.locator('body').focus();
  await page.keyboard.press('Control+,');
  await expect(dialog.getByTestId('texture-root')).toHaveText([/models\/PDrive/]);

  // Removing it again brings the problem back (every open document is checked again).
  await dialog.getByRole('button', { name: 'Remove models/PDrive' }).focus();
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(missing).toHaveCount(1);
  await expect.poll(() => isBlue(page), { timeout: 15_000 }).toBe(false);
});
