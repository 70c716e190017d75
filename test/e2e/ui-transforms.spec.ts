/**
 * The friendlier transform views in the editors: a proxy item's rotation typed in degrees and a
 * collider's size typed instead of its matrix, both written to the stored values and undoable.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { expectUndoBeforeReRead } from './fixtures/slow-host.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

test('proxy rotation in degrees and collider size write the stored quaternion and matrix', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);

  await page.locator('[data-testid=tab-proxies]').click();
  await page.locator('[data-testid=proxy-item]', { hasText: 'Left arm' }).click();
  const rot = page.locator('[data-testid=proxies-editor] [data-testid=field-proxyRotation]');
  const yaw = page.locator('[data-testid=proxy-rotation-1]');
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
  const sizeX = page.locator('[data-testid=collider-scale-0]');
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

test('colliders and proxies share one list-plus-transform block, driven by the keyboard', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);

  for (const [tab, list, prefix] of [['Proxies', 'Proxy items', 'proxy'], ['Colliders', 'Collider sets', 'collider']] as const) {
    await page.getByRole('button', { name: tab, exact: true }).click();
    const tree = page.getByRole('tree', { name: list });
    await tree.focus();
    await page.keyboard.press('Home');
    // The first row is the container (the proxy root, the first collider set); Down enters its first item.
    await page.keyboard.press('ArrowDown');
    const chosen = tree.getByRole('treeitem', { selected: true });
    await expect(chosen).toHaveCount(1);
    await expect(chosen).toHaveAttribute('aria-level', '2');
    // Rows hold no controls of their own: actions sit in the toolbar.
    await expect(tree.getByRole('treeitem').locator('button, input, select')).toHaveCount(0);
    // The same transform rows in both editors; typing a position writes it.
    const x = page.locator(`[data-testid=${prefix}-position-0]`);
    await expect(page.locator(`[data-testid=${prefix}-rotation-0]`)).toBeVisible();
    await expect(page.locator(`[data-testid=${prefix}-scale-0]`)).toBeVisible();
    await x.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('0.25');
    await page.keyboard.press('Enter');
    await expect(x).toHaveValue('0.25');
    await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  }
});

/** Drops the sample model on the window: it opens read-only, so the host refuses every edit. */
async function dropSample(page: import('@playwright/test').Page): Promise<void> {
  const bytes = Array.from(encodeLod(buildSampleLod()));
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], 'dropped_robot.lod'));
    for (const type of ['dragenter', 'dragover', 'drop']) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(page.getByRole('tab', { name: /dropped_robot\.lod, read-only/ })).toBeVisible();
}

test('a transform the host refuses stays typed as a draft with the reason; Escape shows the stored value', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.url);
  await dropSample(page);
  for (const [tab, item, input] of [['proxies', 'proxy-item', 'proxy-position-0'], ['colliders', 'collider-item', 'collider-scale-1']] as const) {
    await page.locator(`[data-testid=tab-${tab}]`).click();
    await page.locator(`[data-testid=${item}]`).nth(1).click();
    const x = page.locator(`[data-testid=${input}]`);
    const stored = await x.inputValue();
    await x.fill('7.5');
    await x.press('Enter');
    await expect(page.locator(`[data-testid=${tab}-editor] [role=alert]`)).toContainText('read-only');
    // The text the document never took is the user's draft again, not a value shown as stored.
    await expect(x).toHaveValue('7.5');
    await expect(x).toHaveAttribute('data-draft', 'true');
    await x.press('Escape');
    await expect(x).toHaveValue(stored);
    await expect(x).not.toHaveAttribute('data-draft', 'true');
  }
});

test('undo right after a transform edit comes back shows the value from before it, even while the editor is re-read', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await page.locator('[data-testid=tab-colliders]').click();
  await page.locator('[data-testid=collider-item]').first().click();
  const sizeX = page.locator('[data-testid=collider-scale-0]');
  await expectUndoBeforeReRead(page, sizeX, '3');
});
