/**
 * The friendlier transform views in the editors: a proxy item's rotation typed in degrees and a
 * collider's size typed instead of its matrix, both written to the stored values and undoable.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

test('proxy rotation in degrees and collider size write the stored quaternion and matrix', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);

  await page.locator('[data-testid=tab-proxies]').click();
  await page.locator('[data-testid=proxy-item]', { hasText: 'Left arm' }).click();
  const rot = page.locator('[data-testid=proxies-editor] [data-testid=field-proxyRotation]');
  const yaw = page.locator('[data-testid=proxy-euler-1]');
  await yaw.fill('90');
  await yaw.press('Enter');
  await expect(yaw).toHaveValue('90');
  // The stored quaternion is a 90 degree turn about Y whatever the other angles were.
  await expect.poll(async () => Math.abs(Number(await rot.locator('[data-testid=field-comp-3]').inputValue()))).toBeLessThan(0.9999);
  await page.locator('[data-testid=tool-edit-undo]').click();
  await expect(yaw).not.toHaveValue('90');

  await page.locator('[data-testid=tab-colliders]').click();
  await page.locator('[data-testid=collider-item]').first().click();
  const matrix = page.locator('[data-testid=colliders-editor] [data-testid=field-collMatrix]');
  const sizeX = page.locator('[data-testid=collider-size-0]');
  await sizeX.fill('2');
  await sizeX.press('Enter');
  await expect(sizeX).toHaveValue('2');
  // No rotation on the sample collider: the matrix diagonal is the size.
  await expect(matrix.locator('[data-testid=field-comp-0]')).toHaveValue('2');
  await sizeX.fill('abc');
  await sizeX.press('Enter');
  await expect(page.locator('[data-testid=colliders-editor] [role=alert]')).toContainText('not written');
  await expect(matrix.locator('[data-testid=field-comp-0]')).toHaveValue('2');
});
