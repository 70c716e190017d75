/**
 * model.cfg in the editor: a P3D model opened beside its model.cfg lists one animation per source
 * on the preview's timeline; scrubbing the double doors' source moves the doors and nothing else
 * (few pixels change, the rest of the building stays); an ODOL model plays its compiled animations.
 * The source sliders pose the model at every source value at once: the door slider changes pixels
 * only where the timeline swung the doors.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures/index.ts';
import { openModel, viewportIdle, viewportPixels } from './fixtures/viewport.ts';
import { corpusDir } from '../helpers/corpus.ts';

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');
const trap = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');

const W = 96;
const H = 64;

/** The pixels (96x64) whose colour changed by more than a little. */
function mask(a: number[], b: number[]): boolean[] {
  const m: boolean[] = [];
  for (let i = 0; i < a.length; i += 3) m.push(Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 30);
  return m;
}

/** The changed pixels' box, grown by `pad` pixels. */
function region(m: boolean[], pad: number): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = W, y0 = H, x1 = -1, y1 = -1;
  m.forEach((on, i) => {
    if (!on) return;
    const x = i % W, y = Math.floor(i / W);
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  });
  return { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad };
}

async function axeClean(page: Page, selector: string): Promise<void> {
  const r = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

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

  // The source sliders: one per source, named and ranged as in the config, usable by keyboard.
  const panel = page.getByTestId('source-sliders');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('slider')).toHaveCount(2);
  const twin = panel.getByRole('slider', { name: 'doorsTwin1' });
  await expect(twin).toBeVisible();
  await expect(panel.getByRole('slider', { name: 'door3' })).toBeVisible();
  await axeClean(page, '[data-testid=source-sliders]');
  // The doors' area on screen, as the timeline's clip swung them.
  const doors = region(mask(closed, open), 8);
  await page.getByTestId('clip-select').selectOption({ index: 0 });
  // The ground grid follows the model's bounds (which the open doors change): off, for the model alone.
  if ((await page.getByTestId('toggle-grid').getAttribute('aria-pressed')) === 'true') await page.getByTestId('toggle-grid').click();
  await twin.fill(await twin.getAttribute('min') ?? '0');
  await viewportIdle(page);
  const shut = await viewportPixels(page);
  await twin.focus();
  await page.keyboard.press('End');
  await viewportIdle(page);
  await page.screenshot({ path: info.outputPath('doors-slider.png') });
  const moved = mask(shut, await viewportPixels(page));
  const n = moved.filter(Boolean).length / moved.length;
  expect(n, 'the slider swung the doors').toBeGreaterThan(0.003);
  const outside = moved.filter((on, i) => on && !((i % W) >= doors.x0 && (i % W) <= doors.x1 && Math.floor(i / W) >= doors.y0 && Math.floor(i / W) <= doors.y1)).length;
  expect(outside / moved.length, 'nothing moved outside the doors').toBeLessThan(0.002);
  // A second source on top of the first: the pose combines them (the twin doors stay open).
  const both = await viewportPixels(page);
  const door3 = panel.getByRole('slider', { name: 'door3' });
  await door3.fill(await door3.getAttribute('max') ?? '1');
  await viewportIdle(page);
  expect(changed(shut, await viewportPixels(page)), 'the twin doors still open').toBeGreaterThan(0.003);
  expect(changed(both, await viewportPixels(page)), 'nothing but doors moved').toBeLessThan(0.2);
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

  // Its source has a slider too.
  await page.getByTestId('clip-select').selectOption({ index: 0 });
  const source = page.getByTestId('source-sliders').getByRole('slider', { name: 'user' });
  await expect(source).toBeVisible();
  await source.fill(await source.getAttribute('min') ?? '0');
  await viewportIdle(page);
  const before = await viewportPixels(page);
  await source.fill(await source.getAttribute('max') ?? '1');
  await viewportIdle(page);
  expect(changed(before, await viewportPixels(page)), 'the slider closed the jaws').toBeGreaterThan(0.01);
  // Play sweeps the source: its slider and the jaws move by themselves; Stop resets them.
  const shut = await viewportPixels(page);
  await page.getByTestId('source-play').click();
  await expect.poll(async () => Number(await source.inputValue())).toBeLessThan(Number(await source.getAttribute('max')));
  await page.getByTestId('source-play').click();
  await viewportIdle(page);
  expect(changed(shut, await viewportPixels(page)), 'the sweep moved the jaws').toBeGreaterThan(0);
  await page.getByTestId('source-reset').click();
  await expect(source).toHaveValue(await source.getAttribute('min') ?? '0');
  await axeClean(page, '[data-testid=source-sliders]');
});
