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
import { openModel, sceneSettled, viewportIdle } from './fixtures/viewport.ts';
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
/** The proxy placeholder violet (0x9f7aff), alone or translucent over the model or the background. */
const violet = (r: number, g: number, b: number) => b > r + 25 && b > g + 40 && r > g;

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
      await viewportIdle(page);
      const clean = await viewportPixels(page);
      await page.screenshot({ path: info.outputPath('proxies-default.png') });
      // The placeholders were drawn as unlit black triangles across the figure: a few percent of the view.
      expect(share(clean, dark), 'near-black pixels').toBeLessThan(0.005);
      const cleanViolet = share(clean, violet);
      // Every proxy has a label naming its model; clicking one selects it in the tree.
      const labels = page.getByTestId('proxy-label');
      await expect(labels.first()).toBeVisible();
      const count = await labels.count();
      expect(count).toBeGreaterThanOrEqual(6);
      const texts = await labels.allTextContents();
      expect(texts.join(' ')).toMatch(/beretta|ak_47|makarov|flag/i);
      // A label shown (not one decluttered behind a nearer label) takes a click.
      await page.locator('[data-testid=proxy-label]:not(.cluttered)').first().click();
      await expect(page.locator('[data-testid=tree-row][aria-selected=true]')).toHaveAttribute('data-kind', 'proxy');
      // The toggle shows the placeholder faces, translucent.
      await page.getByRole('button', { name: 'Proxy Placeholder Faces' }).click();
      await viewportIdle(page);
      await page.screenshot({ path: info.outputPath('proxies-placeholders.png') });
      expect(share(await viewportPixels(page), violet), 'placeholder faces drawn on request (only the small markers before)').toBeGreaterThan(cleanViolet + 0.01);
      // Markers off (Alt+X): no labels; on again with the toolbar button.
      await page.keyboard.press('Alt+x');
      await expect(labels).toHaveCount(0);
      await page.getByRole('button', { name: 'Proxy Markers' }).click();
      await expect(labels).toHaveCount(count);
    });
  }
});

test('MLOD: proxy triangles are not drawn; each proxy selection is a labelled marker', async ({ page, lodsmith }, info) => {
  const src = corpus('p3d_mlod', 'sample_building');
  test.skip(!hasCorpus || !src, 'corpus file absent');
  const file = await putCorpus(lodsmith.root, src!);
  await openModel(page, lodsmith.page({ open: file }));
  await page.getByTestId('frame').click();
  const labels = page.getByTestId('proxy-label');
  await expect(labels.first()).toBeVisible();
  // A label that hides others behind it counts them (`box_c #1 +9`).
  expect((await labels.allTextContents()).map((t) => t.replace(/ \+\d+$/, ''))).toEqual(expect.arrayContaining(['Ind_Workshop_Window #1', 'box_c #1']));
  await page.getByTestId('toggle-grid').click();
  await viewportIdle(page);
  await page.screenshot({ path: info.outputPath('mlod-proxies.png') });
  const before = share(await viewportPixels(page), violet);
  await page.getByRole('button', { name: 'Proxy Placeholder Faces' }).click();
  await viewportIdle(page);
  expect(share(await viewportPixels(page), violet), 'placeholder faces only on request').toBeGreaterThan(before + 0.0005);
  await page.getByRole('button', { name: 'Proxy Placeholder Faces' }).click();
  // Labels of proxies close together overlap: the keyboard reaches each one.
  await labels.filter({ hasText: /^box_c #1( \+\d+)?$/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('status-selection')).toContainText('tags');
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
    await viewportIdle(page);
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
    // A press outside the panel closes it too, and leaves the focus where the press put it.
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Screenshot' })).toBeVisible();
    await page.getByTestId('shading-select').click();
    await expect(page.getByRole('dialog', { name: 'Screenshot' })).toHaveCount(0);
    await expect(page.getByTestId('shading-select')).toBeFocused();
  });
});

const yellow = (r: number, g: number, b: number) => r > 200 && g > 160 && b < 120;
const blue = (r: number, g: number, b: number) => b > 180 && g > 130 && r < 150;

for (const beside of [true, false]) {
  test(`a Grimrock .animation opened alone shows its skeleton and plays it on the timeline${beside ? ' (bones arranged as the model beside it)' : ' (no model beside it: joints)'}`, async ({ page, lodsmith }, info) => {
    const src = corpus('grimrock_animation', 'skeleton_warrior_axe_attack');
    const model = corpus('grimrock_model', 'skeleton_warrior_axe.model');
    test.skip(!hasCorpus || !src || !model, 'corpus file absent');
    const file = await putCorpus(lodsmith.root, src!);
    if (beside) await putCorpus(lodsmith.root, model!);
    await openModel(page, lodsmith.page({ open: file }));
    await expect(page.getByTestId('timeline')).toBeVisible();
    await expect(page.getByText('Skeleton only: this file holds no geometry')).toBeVisible();
    if (beside) await expect(page.getByText('bones arranged as in skeleton_warrior_axe.model')).toBeVisible();
    await viewportIdle(page);
    await page.screenshot({ path: info.outputPath('animation-alone.png') });
    const rest = await viewportPixels(page);
    // Joints (yellow) are drawn; with the model's hierarchy, bone shapes (blue) join them.
    expect(share(rest, yellow), 'joints drawn').toBeGreaterThan(0.001);
    if (beside) expect(share(rest, blue), 'bone shapes drawn').toBeGreaterThan(0.002);
    // Choose the clip and scrub: the pose changes.
    await page.getByTestId('clip-select').selectOption({ index: 1 });
    const slider = page.getByTestId('time-slider');
    await slider.fill(String(Number(await slider.getAttribute('max')) * 0.6));
    await viewportIdle(page);
    await page.screenshot({ path: info.outputPath('animation-alone-posed.png') });
    const posed = await viewportPixels(page);
    const diff = posed.reduce((s, v, i) => s + Math.abs(v - rest[i]!), 0) / posed.length;
    expect(diff, 'the pose moved the skeleton').toBeGreaterThan(0.1);
    // Play: time advances.
    await page.getByTestId('play').click();
    await expect.poll(async () => (await page.locator('.timeline .time').textContent()) ?? '').not.toMatch(/^0\.00 /);
  });
}

test('bones are drawn as shapes with joints on a skinned model', async ({ page, lodsmith }, info) => {
  const src = corpus('grimrock_model', 'skeleton_warrior_axe');
  test.skip(!hasCorpus || !src, 'corpus file absent');
  const file = await putCorpus(lodsmith.root, src!);
  await openModel(page, lodsmith.page({ open: file }));
  await page.getByTestId('frame').click();
  await viewportIdle(page);
  const before = await viewportPixels(page);
  await page.getByRole('button', { name: 'Skeleton' }).click();
  await viewportIdle(page);
  await page.screenshot({ path: info.outputPath('bones.png') });
  const after = await viewportPixels(page);
  expect(share(after, yellow) - share(before, yellow), 'joint balls').toBeGreaterThan(0.001);
  expect(share(after, blue) - share(before, blue), 'bone shapes').toBeGreaterThan(0.003);
});

test.describe('models with their animations', () => {
  const model = corpus('grimrock_model', 'skeleton_warrior_axe.model');
  const attack = corpus('grimrock_animation', 'skeleton_warrior_axe_attack');
  const idle = corpus('grimrock_animation', 'skeleton_warrior_axe_idle');
  const lever = corpus('grimrock_animation', 'rc_lever_down');

  test('attach matching animations from the folder, play and choose them, export glTF as the CLI does', async ({ page, lodsmith }, info) => {
    // Many steps, a CLI conversion included: more time on a busy machine.
    test.slow();
    test.skip(!hasCorpus || !model || !attack || !idle || !lever, 'corpus files absent');
    const file = await putCorpus(lodsmith.root, model!);
    for (const a of [attack!, idle!, lever!]) await putCorpus(lodsmith.root, a);
    await openModel(page, lodsmith.page({ open: file }));
    await page.getByTestId('frame').click();
    await expect(page.getByTestId('timeline')).toHaveCount(0);
    await page.getByTestId('animations').click();
    const panel = page.getByRole('dialog', { name: 'Animations' });
    // The picker lists the warrior's animations (bone names match), not the lever's.
    const offered = panel.getByTestId('animation-candidate');
    await expect(offered).toHaveCount(2);
    await expect(offered.first()).toContainText('skeleton_warrior_axe_');
    await expect(panel).not.toContainText('rc_lever_down');
    await panel.getByRole('button', { name: 'Attach skeleton_warrior_axe_attack.animation' }).click();
    // Escape closes the panel and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page.getByTestId('animations')).toBeFocused();
    // The timeline appears with the attached clip chosen; scrubbing moves the skinned mesh.
    await expect(page.getByTestId('timeline')).toBeVisible();
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('skeleton_warrior_axe_attack.animation');
    await page.getByTestId('time-slider').fill('0');
    await viewportIdle(page);
    const a0 = await viewportPixels(page);
    await page.getByTestId('time-slider').fill(String(Number(await page.getByTestId('time-slider').getAttribute('max')) * 0.5));
    await viewportIdle(page);
    await page.screenshot({ path: info.outputPath('attached-attack.png') });
    const a1 = await viewportPixels(page);
    expect(a1.reduce((s, v, i) => s + Math.abs(v - a0[i]!), 0) / a1.length, 'the attack moves the mesh').toBeGreaterThan(0.5);
    // A second file; the clip list chooses which plays.
    await page.getByTestId('animations').click();
    await panel.getByRole('button', { name: 'Attach skeleton_warrior_axe_idle.animation' }).click();
    await expect(page.getByTestId('animations')).toContainText('(2)');
    // The new file's clip arrives with the next scene; then choose the first file's clip and back.
    await expect(page.getByTestId('clip-select').locator('option', { hasText: 'skeleton_warrior_axe_idle.animation' })).toHaveCount(1);
    await page.getByTestId('clip-select').selectOption({ index: 1 });
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('attack');
    const labels = await page.getByTestId('clip-select').locator('option').allTextContents();
    await page.getByTestId('clip-select').selectOption({ index: labels.findIndex((l) => l.includes('skeleton_warrior_axe_idle.animation')) });
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('idle');
    await page.getByTestId('play').click();
    await expect.poll(async () => (await page.locator('.timeline .time').textContent()) ?? '').not.toMatch(/^0\.00 /);
    // Export: the same glTF `lodsmith convert MODEL OUT --anim A --anim B` writes.
    await page.getByRole('button', { name: 'File' }).click();
    await page.getByTestId('menu-file-exportGltf').click();
    await expect(page.getByTestId('notice')).toContainText('Exported');
    const { readFile } = await import('node:fs/promises');
    const glb = await readFile(join(lodsmith.root, 'skeleton_warrior_axe.glb'));
    const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')) as { animations?: { name: string }[] };
    expect(json.animations?.length).toBe(2);
    const { runConvert } = await import('../../main/cli/commands/convert.ts');
    const out: string[] = [];
    const io = { cwd: lodsmith.root, stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) } };
    await runConvert('skeleton_warrior_axe.model', 'cli.glb', { anim: ['skeleton_warrior_axe_attack.animation', 'skeleton_warrior_axe_idle.animation'] }, io as never);
    const cli = await readFile(join(lodsmith.root, 'cli.glb'));
    expect(Buffer.compare(glb, cli), 'editor export equals the CLI conversion').toBe(0);
    // Detach one: the model keeps the other.
    await page.getByTestId('animations').click();
    await panel.getByRole('button', { name: 'Detach skeleton_warrior_axe_attack.animation' }).click();
    await expect(page.getByTestId('animations')).toContainText('(1)');
  });

  test('any other file: attach through the file dialog', async ({ page, lodsmith }) => {
    test.skip(!hasCorpus || !model || !attack, 'corpus files absent');
    const file = await putCorpus(lodsmith.root, model!);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(lodsmith.root, 'anims'));
    await copyFile(attack!, join(lodsmith.root, 'anims', 'attack.animation'));
    await openModel(page, lodsmith.page({ open: file }));
    await page.getByTestId('animations').click();
    await expect(page.getByText('No other matching animation files')).toBeVisible();
    await page.getByTestId('attach-other').click();
    const dialog = page.getByRole('dialog', { name: 'Attach animation' });
    await dialog.locator('[data-testid=file-entry][data-name=anims]').dblclick();
    await dialog.locator('[data-testid=file-entry][data-name="attack.animation"]').dblclick();
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('attack.animation');
  });

  test('a Unigine .mesh plays an attached .anim', async ({ page, lodsmith }, info) => {
    const mesh = corpus('unigine_mesh', 'unigine-mockup__agent.mesh');
    const walk = corpus('unigine_anim', 'agent_walk');
    const other = corpus('unigine_anim', 'Demo1__arm.anim');
    test.skip(!hasCorpus || !mesh || !walk || !other, 'corpus files absent');
    const file = await putCorpus(lodsmith.root, mesh!);
    await putCorpus(lodsmith.root, walk!);
    await putCorpus(lodsmith.root, other!);
    await openModel(page, lodsmith.page({ open: file }));
    await page.getByTestId('frame').click();
    await page.getByTestId('animations').click();
    const offered = page.getByTestId('animation-candidate');
    // arm.anim drives another skeleton's bones: not offered.
    await expect(offered).toHaveCount(1);
    await expect(offered).toContainText('agent_walk.anim');
    await expect(offered).toContainText('53/53 bones');
    await offered.getByRole('button').click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('agent_walk.anim');
    await viewportIdle(page);
    const a0 = await viewportPixels(page);
    await page.getByTestId('time-slider').fill(String(Number(await page.getByTestId('time-slider').getAttribute('max')) * 0.5));
    await viewportIdle(page);
    await page.screenshot({ path: info.outputPath('unigine-walk.png') });
    const a1 = await viewportPixels(page);
    expect(a1.reduce((s, v, i) => s + Math.abs(v - a0[i]!), 0) / a1.length, 'the walk moves the legs').toBeGreaterThan(0.1);
  });

  test('LODka skins play their ANS1/ANM1 clips on the timeline', async ({ page, lodsmith }) => {
    await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
    await openModel(page, lodsmith.page({ open: 'models/robot.lod' }));
    await page.getByTestId('frame').click();
    await expect(page.getByTestId('timeline')).toBeVisible();
    // Bind pose, Bind, Idle, Wave: the wave moves an arm.
    await page.getByTestId('clip-select').selectOption({ index: 3 });
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('Wave');
    await viewportIdle(page);
    const a0 = await viewportPixels(page);
    await page.getByTestId('time-slider').fill(String(Number(await page.getByTestId('time-slider').getAttribute('max')) * 0.5));
    await viewportIdle(page);
    const a1 = await viewportPixels(page);
    expect(a1.reduce((s, v, i) => s + Math.abs(v - a0[i]!), 0) / a1.length, "the wave moves the arm").toBeGreaterThan(0.01);
  });
});
