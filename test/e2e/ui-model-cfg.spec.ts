/**
 * model.cfg in the editor: a P3D model opened beside its model.cfg lists one animation per source
 * on the preview's timeline; scrubbing the double doors' source moves the doors and nothing else
 * (few pixels change, the rest of the building stays); an ODOL model plays its compiled animations.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures/index.ts';
import { openModel, viewportIdle, viewportPixels } from './fixtures/viewport.ts';
import { corpusDir } from '../helpers/corpus.ts';

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');
const trap = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');

/** Share of pixels (96x64) whose colour changed by more than a little. */
function changed(a: number[], b: number[]): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3) if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 30) n++;
  return n / (a.length / 3);
}

test('a door source on the timeline opens the doors and moves nothing else', async ({ page, lodsmith }, info) => {
  test.skip(!existsSync(join(house, 'model.cfg')), 'corpus file absent');
  await mkdir(join(lodsmith.root, 'house'), { recursive: true });
  await copyFile(join(house, 'sample_building.p3d'), join(lodsmith.root, 'house', 'sample_building.p3d'));
  await copyFile(join(house, 'model.cfg'), join(lodsmith.root, 'house', 'model.cfg'));
  await openModel(page, lodsmith.page({ open: 'models/house/sample_building.p3d' }));
  await expect(page.getByTestId('timeline')).toBeVisible();
  const options = await page.getByTestId('clip-select').locator('option').allTextContents();
  expect(options.map((o) => o.replace(/ \(.*$/, ''))).toEqual(['Bind pose', 'doorsTwin1', 'door3']);
  await page.getByTestId('frame').click();
  // The default view shows the back of the house: orbit round to the front wall with the doors.
  const box = (await page.locator('[data-testid=viewport-canvas]').boundingBox())!;
  // (From a corner: the proxy labels over the middle of the canvas take the pointer.)
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.9);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.1 + 350, box.y + box.height * 0.9, { steps: 12 });
  await page.mouse.up();
  await page.getByTestId('clip-select').selectOption({ label: options[1]! });
  const slider = page.getByTestId('time-slider');
  await slider.fill('0');
  await viewportIdle(page);
  const closed = await viewportPixels(page);
  await slider.fill(await slider.getAttribute('max') ?? '2');
  await viewportIdle(page);
  await page.screenshot({ path: info.outputPath('doors-open.png') });
  const open = await viewportPixels(page);
  const share = changed(closed, open);
  // The doors swing: some pixels change; the building does not move: most stay.
  expect(share, 'the doors moved').toBeGreaterThan(0.003);
  expect(share, 'only the doors moved').toBeLessThan(0.2);
});

test('an ODOL model with compiled animations: its source plays on the timeline', async ({ page, lodsmith }) => {
  test.skip(!existsSync(trap), 'corpus file absent');
  await copyFile(trap, join(lodsmith.root, 'bear_trap.p3d'));
  await openModel(page, lodsmith.page({ open: 'models/bear_trap.p3d' }));
  await expect(page.getByTestId('timeline')).toBeVisible();
  await page.getByTestId('clip-select').selectOption({ index: 1 });
  await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('user');
  await page.getByTestId('frame').click();
  const slider = page.getByTestId('time-slider');
  await slider.fill('0');
  await viewportIdle(page);
  const open = await viewportPixels(page);
  await slider.fill(await slider.getAttribute('max') ?? '2');
  await viewportIdle(page);
  expect(changed(open, await viewportPixels(page)), 'the jaws closed').toBeGreaterThan(0.01);
});
