/**
 * What the viewport draws, end to end in Chromium against the browser host: P3D proxies (the
 * game's placeholder triangles are not mesh; markers with labels instead, placeholders on
 * request), every node's byte range inside its file, screenshots (PNG for every format, IMG1 for
 * LODka, clean by default), bones drawn as shapes, an animation opened alone, and models played
 * with attached animations.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { corpusFiles, hasCorpus } from '../helpers/corpus.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

// WebGL without a GPU: SwiftShader draws the viewport so its pixels can be checked.
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const corpus = (folder: string, part: string) => corpusFiles(folder).find((f) => f.includes(part));

/** Copies a corpus file into the host's root (a temporary folder) and returns its root path. */
async function putCorpus(root: string, file: string, as = basename(file).replace(/^.*__/, '')): Promise<string> {
  await copyFile(file, join(root, as));
  return `models/${as}`;
}

/** The viewport scaled to w x h RGB. */
async function viewportPixels(page: Page, w = 160, h = 100): Promise<number[]> {
  return page.locator('[data-testid=viewport-canvas]').evaluate((c: HTMLCanvasElement, [w, h]) => {
    const tmp = document.createElement('canvas');
    tmp.width = w!;
    tmp.height = h!;
    const g = tmp.getContext('2d')!;
    g.drawImage(c, 0, 0, tmp.width, tmp.height);
    return Array.from(g.getImageData(0, 0, tmp.width, tmp.height).data.filter((_, i) => i % 4 !== 3));
  }, [w, h]);
}
/** Share of pixels matching `test`. */
function share(rgb: number[], test: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < rgb.length; i += 3) if (test(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) n++;
  return n / (rgb.length / 3);
}
const dark = (r: number, g: number, b: number) => r + g + b < 40;
const pink = (r: number, g: number, b: number) => r > 150 && b > 120 && g < 140 && r - g > 60;

async function sceneSettled(page: Page): Promise<void> {
  const tab = page.locator('[data-testid=doc-tab][aria-selected=true]');
  const id = await tab.getAttribute('data-doc-id');
  const rev = await tab.getAttribute('data-revision');
  await expect(page.locator('[data-testid=viewport-canvas]')).toHaveAttribute('data-scene', new RegExp(`^${id}:${rev}:`));
}
async function openModel(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await sceneSettled(page);
}
/** Waits until the viewport stops drawing (it draws on demand, so its buffer then holds the last frame). */
async function frames(page: Page): Promise<void> {
  const canvas = page.locator('[data-testid=viewport-canvas]');
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const now = Number(await canvas.getAttribute('data-renders'));
    if (now === last) return;
    last = now;
    await page.waitForTimeout(150);
  }
}

test.describe('P3D proxies', () => {
  for (const part of ['man_bandit', 'annie_original']) {
    test(`${part}: no huge dark triangles; proxies are labelled markers; placeholders on request`, async ({ page, lodsmith }, info) => {
      const src = corpus('p3d_odol', part);
      test.skip(!hasCorpus || !src, 'corpus file absent');
      const file = await putCorpus(lodsmith.root, src!);
      await openModel(page, lodsmith.page({ open: file }));
      await page.locator('[data-testid=frame]').click();
      // Studio light, grid off: the model and the background only.
      await page.locator('[data-testid=toggle-grid]').click();
      await frames(page);
      const clean = await viewportPixels(page);
      await page.screenshot({ path: info.outputPath('proxies-default.png') });
      // The placeholders were drawn as unlit black triangles across the figure: a few percent of the view.
      expect(share(clean, dark), 'near-black pixels').toBeLessThan(0.005);
      expect(share(clean, pink), 'no placeholder faces drawn by default').toBeLessThan(0.001);
      // Every proxy has a label naming its model; clicking one selects it in the tree.
      const labels = page.getByTestId('proxy-label');
      await expect(labels.first()).toBeVisible();
      const count = await labels.count();
      expect(count).toBeGreaterThanOrEqual(6);
      const texts = await labels.allTextContents();
      expect(texts.join(' ')).toMatch(/beretta|ak_47|makarov|flag/i);
      await labels.first().click();
      await expect(page.locator('[data-testid=tree-row][aria-selected=true]')).toHaveAttribute('data-kind', 'proxy');
      // The toggle shows the placeholder faces, translucent.
      await page.getByRole('button', { name: 'Proxy Placeholder Faces' }).click();
      await frames(page);
      await page.screenshot({ path: info.outputPath('proxies-placeholders.png') });
      expect(share(await viewportPixels(page), pink), 'placeholder faces drawn on request').toBeGreaterThan(0.002);
      // Markers off: no labels.
      await page.getByRole('button', { name: 'Proxy Markers' }).click();
      await expect(labels).toHaveCount(0);
    });
  }
});

test('ODOL: every node names a byte range inside the file, the root the whole file', async ({ page, lodsmith }) => {
  const src = corpus('p3d_odol', 'man_bandit');
  test.skip(!hasCorpus || !src, 'corpus file absent');
  const file = await putCorpus(lodsmith.root, src!);
  await openModel(page, lodsmith.page({ open: file }));
  const size = Number((await page.getByTestId('status-bar').textContent())!.match(/\(([\d,]+) bytes\)/)![1]!.replace(/,/g, ''));
  expect(size).toBeGreaterThan(100_000);
  const root = page.locator('[data-testid=tree-row]').first();
  await root.click();
  // Status bar and tooltip: 0 .. file size, never 0x1fffffffffffff.
  await expect(page.getByTestId('status-selection')).toHaveText(new RegExp(`0x0–0x${size.toString(16)} \\(${size} B\\)`));
  await expect(root).toHaveAttribute('title', new RegExp(`bytes 0…${size} \\(${size} B\\)`));
  // Every row's tooltip range lies inside the file.
  const titles = await page.locator('[data-testid=tree-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('title') ?? ''));
  for (const t of titles) {
    const m = /bytes (\d+)…(\d+)/.exec(t);
    if (!m) continue;
    expect(Number(m[1]), t).toBeLessThanOrEqual(Number(m[2]));
    expect(Number(m[2]), t).toBeLessThanOrEqual(size);
  }
  // The hex view pages through the real file, not 2^53 bytes.
  await page.getByTestId('tab-hex').click();
  await expect(page.getByTestId('hex-more')).toHaveText(new RegExp(`Show more \\(${size - 16384} bytes left\\)`));
});

test.describe('screenshots', () => {
  async function putSample(root: string, name = 'robot.lod'): Promise<string> {
    await writeFile(join(root, name), encodeLod(buildSampleLod()));
    return `models/${name}`;
  }
  /** Saves the view as PNG through the screenshot panel; returns the downloaded file's bytes. */
  async function savePng(page: Page): Promise<Buffer> {
    const download = page.waitForEvent('download');
    await page.getByTestId('screenshot-png').click();
    const d = await download;
    const path = await d.path();
    const { readFile } = await import('node:fs/promises');
    return readFile(path);
  }
  /** Decodes a PNG in the page; returns width, height and the share of grid-coloured and selection-coloured pixels. */
  async function pngStats(page: Page, png: Buffer): Promise<{ w: number; h: number; grid: number; sel: number }> {
    return page.evaluate(async (bytes) => {
      const img = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let grid = 0, sel = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, gg, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
        // Grid lines: 0x4a5160 / 0x2c313a; selection box: 0xffa53d.
        if ((Math.abs(r - 74) < 6 && Math.abs(gg - 81) < 6 && Math.abs(b - 96) < 6) || (Math.abs(r - 44) < 4 && Math.abs(gg - 49) < 4 && Math.abs(b - 58) < 4)) grid++;
        if (r > 220 && gg > 140 && gg < 190 && b < 90) sel++;
      }
      const n = d.length / 4;
      return { w: c.width, h: c.height, grid: grid / n, sel: sel / n };
    }, Array.from(png));
  }

  test('every format saves the view as PNG, clean by default, helpers and size on request; IMG1 only for LODka', async ({ page, lodsmith }, info) => {
    const lod = await putSample(lodsmith.root);
    await openModel(page, lodsmith.page({ open: lod }));
    // Select what is under the middle of the view so a selection box is drawn on screen.
    await page.locator('[data-testid=frame]').click();
    await page.getByTestId('viewport-canvas').click();
    await expect(page.getByTestId('status-selection')).not.toHaveText('nothing selected');
    await frames(page);
    await page.screenshot({ path: info.outputPath('screen-with-helpers.png') });
    await page.getByTestId('screenshot').click();
    const panel = page.getByRole('dialog', { name: 'Screenshot' });
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('screenshot-img1')).toBeVisible();
    const clean = await savePng(page);
    await writeFile(info.outputPath('clean.png'), clean);
    const c = await pngStats(page, clean);
    expect(Math.max(c.w, c.h)).toBe(512);
    expect(c.grid, 'no grid in a clean screenshot').toBeLessThan(0.002);
    expect(c.sel, 'no selection box in a clean screenshot').toBeLessThan(0.0005);
    // With helpers, at 1024 px.
    await page.getByTestId('screenshot').click();
    await page.getByTestId('screenshot-size').selectOption('1024');
    await page.getByTestId('screenshot-helpers').check();
    const full = await savePng(page);
    await writeFile(info.outputPath('helpers.png'), full);
    const f = await pngStats(page, full);
    expect(Math.max(f.w, f.h)).toBe(1024);
    expect(f.grid, 'grid drawn when asked').toBeGreaterThan(0.005);
    expect(f.sel, 'selection drawn when asked').toBeGreaterThan(c.sel + 0.0001);
    // A Grimrock model: PNG yes, IMG1 not offered (menu item disabled too).
    const src = corpus('grimrock_model', 'skeleton_warrior_axe');
    test.skip(!hasCorpus || !src, 'corpus file absent');
    const model = await putCorpus(lodsmith.root, src!);
    await page.goto(lodsmith.page({ open: model }));
    await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('skeleton_warrior_axe');
    await sceneSettled(page);
    await page.getByTestId('screenshot').click();
    await expect(page.getByTestId('screenshot-png')).toBeVisible();
    await expect(page.getByTestId('screenshot-img1')).toHaveCount(0);
    const png = await savePng(page);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    await page.getByRole('button', { name: 'View' }).click();
    await expect(page.getByTestId('menu-view-screenshot')).toBeDisabled();
  });

  test('the screenshot panel works from the keyboard: Escape closes it and gives the focus back', async ({ page, lodsmith }) => {
    const lod = await putSample(lodsmith.root);
    await openModel(page, lodsmith.page({ open: lod }));
    const button = page.getByTestId('screenshot');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('screenshot-size')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('screenshot-size')).toHaveValue('1024');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Screenshot' })).toHaveCount(0);
    await expect(button).toBeFocused();
  });
});
