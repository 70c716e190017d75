/**
 * The viewport compiles, while the window waits for its first file, the shader programs a
 * textured model and the floor grid draw with, and keeps them: the first frames of a textured
 * P3D (before and after its PAA arrives) compile no program of their own. three.js deletes a
 * program when the last material using it is disposed, which had made the warm-up useless.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { sceneSettled, viewportIdle, viewportMean } from './fixtures/viewport.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { lodkaFixtures } from '../../scripts/fixtures/lodka.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

/**
 * Opens the page, waits for the viewport's warm-up and gives the programs it compiled, then opens
 * `folder/name` through the Open dialog.
 */
async function warmThenOpen(page: Page, url: string, folder: string, name: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('lodsmith:viewport:warm').length > 0);
  const canvas = page.locator('[data-testid=viewport-canvas]');
  // The empty view draws once more when the warm-up is done: the count includes its programs:
  // textured (3 blends x 2 sides), untextured (2 sides), skinned (with and without a map), the grid.
  await expect.poll(async () => Number(await canvas.getAttribute('data-programs'))).toBeGreaterThanOrEqual(11);
  const warmed = Number(await canvas.getAttribute('data-programs'));
  await page.getByTestId('welcome-open').click();
  await page.locator(`[data-testid=file-entry][data-name="${folder}"]`).dblclick();
  await page.locator(`[data-testid=file-entry][data-name="${name}"]`).click();
  await page.getByTestId('file-dialog-ok').click();
  return warmed;
}

const programs = async (page: Page): Promise<number> => Number(await page.locator('[data-testid=viewport-canvas]').getAttribute('data-programs'));

test('a textured model\'s first frames find their shader programs compiled while the window waited', async ({ page, lodsmith }) => {
  const dir = join(lodsmith.root, 'warm');
  await mkdir(dir, { recursive: true });
  const side = 64;
  const blue = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) blue.set([20, 40, 230, 255], i * 4);
  await writeFile(join(dir, 'blue_co.paa'), encodePaa(createPaa({ width: side, height: side, data: blue })));
  const c = cube(1);
  await writeFile(join(dir, 'box.p3d'), encodeMlod(buildMlod([buildLod({
    resolution: 1, ...c, normals: c.points.map((v) => -v * Math.SQRT2), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => 'P:\\warm\\blue_co.paa'),
  })])));

  const warmed = await warmThenOpen(page, lodsmith.page(), 'warm', 'box.p3d');
  // Drawn with its texture: blue dominates.
  await expect.poll(async () => {
    const [r, g, b] = await viewportMean(page);
    return b > 2 * (r + g) / 2 && b > 40;
  }, { timeout: 15_000 }).toBe(true);
  await viewportIdle(page);
  expect(await programs(page)).toBe(warmed);
});

for (const kind of ['untextured', 'skinned'] as const) {
  test(`${kind === 'untextured' ? 'an' : 'a'} ${kind} model's first frame finds its shader programs compiled while the window waited`, async ({ page, lodsmith }) => {
    const dir = join(lodsmith.root, `warm-${kind}`);
    await mkdir(dir, { recursive: true });
    const c = cube(1);
    // A P3D whose faces name no texture; a LODka grid skinned to a chain of ten bones.
    const name = kind === 'untextured' ? 'plain.p3d' : 'skin.lod';
    await writeFile(join(dir, name), kind === 'untextured'
      ? encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, normals: c.points.map((v) => -v * Math.SQRT2), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => '') })]))
      : encodeLod(lodkaFixtures().find((f) => f.name === 'skeleton-10-weights.lod')!.doc));

    const warmed = await warmThenOpen(page, lodsmith.page(), `warm-${kind}`, name);
    await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toBeVisible();
    await sceneSettled(page);
    await viewportIdle(page);
    expect(Number(await page.locator('[data-testid=viewport-canvas]').getAttribute('data-renders'))).toBeGreaterThan(0);
    expect(await programs(page)).toBe(warmed);
  });
}

test('the first frame of a just-opened model is on screen: no welcome overlay over it, the panels fill in after', async ({ page, lodsmith }) => {
  const dir = join(lodsmith.root, 'first-frame');
  await mkdir(dir, { recursive: true });
  const c = cube(1);
  await writeFile(join(dir, 'plain.p3d'), encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, normals: c.points.map((v) => -v * Math.SQRT2), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => '') })])));
  // What the page holds when the viewport draws its first frame of a new scene.
  await page.addInitScript(() => {
    const w = window as unknown as { __firstFrame?: { welcome: boolean; scene: string } };
    let scene0: string | null = null;
    let renders0 = 0;
    new MutationObserver(() => {
      const c = document.querySelector('[data-testid=viewport-canvas]');
      if (!c || w.__firstFrame) return;
      const scene = c.getAttribute('data-scene') ?? '';
      const renders = Number(c.getAttribute('data-renders') ?? 0);
      if (scene0 === null) {
        if (scene) {
          scene0 = scene;
          renders0 = renders;
        }
      } else if (renders > renders0) w.__firstFrame = { welcome: !!document.querySelector('[data-testid=welcome-open]'), scene };
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-scene', 'data-renders'] });
  });
  await warmThenOpen(page, lodsmith.page(), 'first-frame', 'plain.p3d');
  await sceneSettled(page);
  const first = await page.evaluate(() => (window as unknown as { __firstFrame?: { welcome: boolean; scene: string } }).__firstFrame);
  expect(first?.scene).toMatch(/^doc-\d+:1:$/);
  expect(first?.welcome).toBe(false);
  // Then the document is the active one, and its scene is the one drawn first.
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('plain.p3d');
  await expect(page.locator('[data-testid=viewport-canvas]')).toHaveAttribute('data-scene', first!.scene);
  await expect(page.getByTestId('welcome-open')).toHaveCount(0);
});
