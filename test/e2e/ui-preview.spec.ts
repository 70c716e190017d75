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
