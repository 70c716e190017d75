/**
 * The editor window end to end, in Chromium against the browser host: open, edit in the
 * inspector and the dedicated editors, see the viewport change, screenshot into IMG1, undo/redo,
 * save, reopen, and find every edit.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { frameDiff, openModel, sceneSettled, viewportPixels } from './fixtures/viewport.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';

// WebGL without a GPU: SwiftShader draws the viewport so its pixels can be checked.
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

/** Writes the sample model (meshes, materials, skeleton, animation, proxies, colliders, light schemes, IMG1) into the host root. */
async function putSample(root: string, name = 'robot.lod'): Promise<string> {
  await writeFile(join(root, name), encodeLod(buildSampleLod()));
  return `models/${name}`;
}

/** Mean colour of the viewport's drawing buffer (the canvas keeps it for screenshots). */
async function viewportMean(page: Page): Promise<[number, number, number]> {
  const rgb = await viewportPixels(page);
  const s = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += 3) {
    s[0]! += rgb[i]!;
    s[1]! += rgb[i + 1]!;
    s[2]! += rgb[i + 2]!;
  }
  const n = rgb.length / 3;
  return [s[0]! / n, s[1]! / n, s[2]! / n];
}
const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

test('opens a model: tree, viewport, status bar and IMG1 thumbnail', async ({ page, lodsmith }) => {
  const file = await putSample(lodsmith.root);
  await openModel(page, lodsmith.page({ open: file }));
  await expect(page.locator('[data-testid=status-format]')).toHaveText(/LODka/);
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]')).toBeVisible();
  // The IMG1 screenshot shows as a thumbnail in the tree.
  const thumb = page.locator('[data-testid=tree-row][data-kind=image] [data-testid=node-thumb]');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(128);
  // The model is drawn: the viewport is not just the background colour.
  await expect.poll(async () => distance(await viewportMean(page), [27, 30, 35])).toBeGreaterThan(3);
});

test('edits in the editors show in the viewport, undo/redo, save, and survive a reopen', async ({ page, lodsmith }) => {
  const file = await putSample(lodsmith.root);
  await openModel(page, lodsmith.page({ open: file }));
  await page.locator('[data-testid=frame]').click();

  // ---- light schemes: switching the scheme relights the preview ----
  await page.locator('[data-testid=tab-lights]').click();
  await sceneSettled(page);
  const schemes = page.locator('[data-testid=light-scheme]');
  await schemes.nth(0).check();
  await expect(page.locator('[data-testid=light-scheme-select]')).toHaveValue('0');
  const day = await viewportPixels(page);
  await schemes.nth(1).check();
  await expect(page.locator('[data-testid=light-scheme-select]')).toHaveValue('1');
  await expect.poll(async () => frameDiff(await viewportPixels(page), day)).toBeGreaterThan(2);
  await page.locator('[data-testid=light-scheme-studio]').check();
  await expect(page.locator('[data-testid=light-scheme-select]')).toHaveValue('-1');

  // ---- material colour: pick pure blue for the ground, the viewport turns bluer ----
  await page.locator('[data-testid=tab-materials]').click();
  await page.locator('[data-testid=material-list-item]', { hasText: 'ground' }).click();
  await sceneSettled(page);
  const before = await viewportMean(page);
  const diffuse = page.locator('[data-testid=materials-editor] [data-testid=field-diffuse]');
  await diffuse.locator('[data-testid=color-picker]').fill('#0000ff');
  await expect(diffuse.locator('[data-testid=field-comp-2]')).toHaveValue('1');
  await expect(diffuse.locator('[data-testid=field-comp-0]')).toHaveValue('0');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  await sceneSettled(page);
  await expect.poll(async () => {
    const now = await viewportMean(page);
    return now[2] - now[0] - (before[2] - before[0]);
  }).toBeGreaterThan(1);

  // ---- a value the field cannot hold is refused and not written ----
  const shininess = page.locator('[data-testid=materials-editor] [data-testid=field-shininess] [data-testid=field-input]');
  const shininessBefore = await shininess.inputValue();
  await shininess.fill('500');
  await shininess.press('Enter');
  await expect(page.locator('[data-testid=materials-editor] [data-testid=field-error]')).toContainText('not written');
  await shininess.fill('100');
  await shininess.press('Enter');
  await expect(page.locator('[data-testid=materials-editor] [data-testid=field-error]')).toHaveCount(0);

  // ---- undo and redo (Ctrl+Z / Ctrl+Y from the window) ----
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+z');
  await expect(shininess).toHaveValue(shininessBefore);
  await page.keyboard.press('Control+z');
  await expect(diffuse.locator('[data-testid=field-comp-0]')).not.toHaveValue('0');
  await page.keyboard.press('Control+y');
  await expect(diffuse.locator('[data-testid=field-comp-0]')).toHaveValue('0');
  await page.keyboard.press('Control+y');
  await expect(shininess).toHaveValue('100');

  // ---- proxies: drag "Right arm" onto "Left arm" to re-parent it ----
  await page.locator('[data-testid=tab-proxies]').click();
  const left = page.locator('[data-testid=proxy-item]', { hasText: 'Left arm' });
  const right = page.locator('[data-testid=proxy-item]', { hasText: 'Right arm' });
  const leftIndex = await left.getAttribute('data-index');
  expect(await right.getAttribute('data-parent')).not.toBe(leftIndex);
  await right.dragTo(left);
  await expect(right).toHaveAttribute('data-parent', leftIndex!);

  // ---- colliders: add one to the first set ----
  await page.locator('[data-testid=tab-colliders]').click();
  const set = page.locator('[data-testid=collider-set]').first();
  const setKey = (await set.getAttribute('data-set'))!;
  const inSet = page.locator(`[data-testid=collider-item][data-set='${setKey}']`);
  const colliders = await inSet.count();
  await set.click();
  await page.locator('[data-testid=collider-add]').click();
  await expect(inSet).toHaveCount(colliders + 1);

  // ---- screenshot into IMG1: the tree thumbnail becomes the captured view ----
  const thumb = page.locator('[data-testid=tree-row][data-kind=image] [data-testid=node-thumb]');
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(128);
  await page.locator('[data-testid=screenshot]').click();
  await page.locator('[data-testid=screenshot-img1]').click();
  await expect(page.locator('[data-testid=notice]')).toContainText('Screenshot');
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(512);

  // ---- save, close, reopen through the file dialog, and find every edit ----
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');
  await page.locator('[data-testid=tab-close]').click();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(0);
  await page.keyboard.press('Control+o');
  await page.locator('[data-testid=file-entry][data-name="robot.lod"]').dblclick();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');

  await page.locator('[data-testid=tab-materials]').click();
  await page.locator('[data-testid=material-list-item]', { hasText: 'ground' }).click();
  await expect(diffuse.locator('[data-testid=field-comp-0]')).toHaveValue('0');
  await expect(diffuse.locator('[data-testid=field-comp-2]')).toHaveValue('1');
  await expect(shininess).toHaveValue('100');
  await page.locator('[data-testid=tab-proxies]').click();
  await expect(page.locator('[data-testid=proxy-item]', { hasText: 'Right arm' })).toHaveAttribute('data-parent', leftIndex!);
  await page.locator('[data-testid=tab-colliders]').click();
  await expect(inSet).toHaveCount(colliders + 1);
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(512);
});

test('a corrupt file gives a plain error with its offset and node path', async ({ page, lodsmith }) => {
  const good = encodeLod(buildSampleLod());
  // Keep the signature and the LOD1 header, then cut the file short in the middle of a chunk.
  await writeFile(join(lodsmith.root, 'corrupt.lod'), good.subarray(0, 200));
  await page.goto(lodsmith.page({ open: 'models/corrupt.lod' }));
  const banner = page.locator('[data-testid=error-banner]');
  await expect(banner).toBeVisible();
  await expect(page.locator('[data-testid=error-title]')).toContainText('corrupt.lod');
  await expect(page.locator('[data-testid=error-offset]')).toContainText(/offset \d+ \(0x[0-9a-f]+\)/);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(0);
  await page.locator('[data-testid=error-dismiss]').click();
  await expect(banner).toHaveCount(0);
});

test('saving over a file changed on disk asks first, then overwrites', async ({ page, lodsmith }) => {
  const file = await putSample(lodsmith.root);
  await openModel(page, lodsmith.page({ open: file }));
  await page.locator('[data-testid=tab-materials]').click();
  const name = page.locator('[data-testid=materials-editor] [data-testid=field-matName] [data-testid=field-input]');
  await name.fill('chrome');
  await name.press('Enter');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  // Another program rewrites the file meanwhile.
  const other = buildSampleLod();
  other.chunks.push({ id: 'USER', size: 0, count: 0, data: new Uint8Array([1, 2, 3, 4]) } as never);
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(other));
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-testid=conflict-confirm]')).toBeVisible();
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'true');
  await page.locator('[data-testid=conflict-overwrite]').click();
  await expect(page.locator('[data-testid=conflict-confirm]')).toHaveCount(0);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveAttribute('data-dirty', 'false');
  // The file on disk is ours again: the edit is in it, the other program's chunk is not.
  const saved = lodkaCodec.decode(new Uint8Array(await readFile(join(lodsmith.root, 'robot.lod'))));
  const outline = lodkaCodec.outline(saved);
  expect(JSON.stringify(outline)).not.toContain('USER');
  expect(JSON.stringify(outline)).toContain('"label":"chrome"');
});
