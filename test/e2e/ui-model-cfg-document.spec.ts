/**
 * model.cfg as a document in the editor (browser host, Chromium): its classes in the structure
 * tree, their values in the inspector, a value edited and saved in place (every other byte as it
 * was), a macro's value shown read-only; and the Animations panel's choice of the config that
 * animates a model (the sliders follow) and its Open button.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { openModel } from './fixtures/viewport.ts';
import { buildModelCfgSample, MODEL_CFG_SAMPLE } from '../../scripts/fixtures/modelcfg.ts';
import { corpusDir } from '../helpers/corpus.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');

test('a model.cfg opens as a class tree, a value edited in the inspector is saved in place', async ({ page, lodsmith }, info) => {
  await mkdir(join(lodsmith.root, 'cfg'), { recursive: true });
  const file = join(lodsmith.root, 'cfg', 'model.cfg');
  await writeFile(file, buildModelCfgSample());
  await page.goto(lodsmith.page({ open: 'models/cfg/model.cfg' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  const rows = page.locator('[data-testid=tree-row]');
  await expect(rows.filter({ hasText: 'CfgSkeletons' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'CfgModels' })).toHaveCount(1);

  // Keyboard only: filter the tree to the hatch animation and select it.
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+f');
  await page.keyboard.type('hatch');
  await page.keyboard.press('Enter');
  const hatch = rows.filter({ hasText: /^\s*hatch/ });
  await expect(hatch).toHaveCount(1);
  await hatch.click();
  await expect(page.getByTestId('inspector-title')).toContainText('class hatch');
  const offset1 = page.locator('[data-testid=inspector] [data-testid=field-offset1] [data-testid=field-input]');
  await expect(offset1).toHaveValue('0.5');
  await offset1.fill('0.75');
  await offset1.press('Enter');
  await expect(offset1).toHaveValue('0.75');
  await page.screenshot({ path: info.outputPath('model-cfg-document.png') });
  await page.keyboard.press('Control+s');
  await expect.poll(async () => readFile(file, 'utf8')).toBe(MODEL_CFG_SAMPLE.replace('offset1 = 0.5;', 'offset1 = 0.75;'));

  // A value a macro wrote is shown, read-only, with where to edit it.
  await page.locator('[data-testid=tree-filter]').fill('door_1');
  await rows.filter({ hasText: /^\s*door_1/ }).first().click();
  const axis = page.locator('[data-testid=inspector] [data-testid=field-axis]');
  await expect(axis).toContainText('door_1_axis');
  await expect(axis.locator('[data-testid=field-input]')).toHaveCount(0);
});

test('the Animations panel chooses the model.cfg that animates a model, and opens it', async ({ page, lodsmith }, info) => {
  test.skip(!existsSync(join(house, 'model.cfg')), 'corpus file absent');
  await mkdir(join(lodsmith.root, 'house'), { recursive: true });
  await mkdir(join(lodsmith.root, 'configs'), { recursive: true });
  await copyFile(join(house, 'sample_building.p3d'), join(lodsmith.root, 'house', 'sample_building.p3d'));
  await copyFile(join(house, 'model.cfg'), join(lodsmith.root, 'configs', 'house.cfg'));
  await openModel(page, lodsmith.page({ open: 'models/house/sample_building.p3d' }));
  await expect(page.getByTestId('source-sliders')).toHaveCount(0);
  await page.getByTestId('animations').click();
  const panel = page.getByRole('dialog', { name: 'Animations' });
  await expect(panel.getByTestId('source-config')).toContainText('No model.cfg beside the model');
  await panel.getByRole('button', { name: 'Choose the model.cfg that animates this model' }).click();
  const dialog = page.getByTestId('file-dialog');
  await expect(dialog).toContainText('Use model config');
  // It starts in the model's folder: up one, into configs.
  await dialog.getByRole('button', { name: 'models /' }).click();
  await dialog.locator('[data-testid=file-entry][data-name=configs]').dblclick();
  await dialog.locator('[data-testid=file-entry][data-name="house.cfg"]').click();
  await dialog.getByTestId('file-dialog-ok').click();
  await expect(page.getByTestId('source-sliders')).toBeVisible();
  await expect(page.getByTestId('source-slider-door3')).toBeVisible();
  await page.getByTestId('animations').click();
  await expect(panel.getByTestId('source-config')).toContainText('house.cfg');
  await expect(panel.getByTestId('source-config')).toContainText('chosen');
  await page.screenshot({ path: info.outputPath('model-config-chosen.png') });
  await panel.getByRole('button', { name: 'Open house.cfg' }).click();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(2);
  await expect(page.locator('[data-testid=tree-row]').filter({ hasText: 'CfgModels' })).toHaveCount(1);
});
