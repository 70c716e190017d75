/**
 * Textured preview end to end: a P3D whose faces name a PAA on a P-drive path (lower case, with a
 * drive letter) finds the mixed-case file through the model's parent folders, the viewport draws
 * it, the Shading switch (used from the keyboard) turns it to material colour and solid grey, and
 * a texture that resolves nowhere is a Problems entry naming the path as written.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { viewportMean } from './fixtures/viewport.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

/** A cube whose every face shows the whole texture, naming `texture`. */
function boxModel(texture: string): Uint8Array {
  const c = cube(1);
  // P3D stores normals pointing inwards: the corner directions, negated.
  const normals = c.points.map((v) => -v * Math.SQRT2);
  return encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, normals, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) })]));
}

/** A 64x64 DXT1 PAA: red left half, green right half. */
function redGreenPaa(): Uint8Array {
  const side = 64;
  const data = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) data.set((i % side) < side / 2 ? [230, 20, 20, 255] : [20, 230, 20, 255], i * 4);
  return encodePaa(createPaa({ width: side, height: side, data }));
}

async function settled(page: Page): Promise<void> {
  const tab = page.locator('[data-testid=doc-tab][aria-selected=true]');
  const id = await tab.getAttribute('data-doc-id');
  const rev = await tab.getAttribute('data-revision');
  await expect(page.locator('[data-testid=viewport-canvas]')).toHaveAttribute('data-scene', new RegExp(`^${id}:${rev}:`));
}

test('a P3D draws its PAA texture; the Shading switch works from the keyboard; a missing texture is a problem', async ({ page, lodsmith }) => {
  const dir = join(lodsmith.root, 'MyMod', 'Data');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'Checker_CO.paa'), redGreenPaa());
  await writeFile(join(dir, 'box.p3d'), boxModel('P:\\mymod\\data\\checker_co.paa'));
  await page.goto(lodsmith.page({ open: 'models/MyMod/Data/box.p3d' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await settled(page);
  // Textured: the surface is red and green, hardly any blue.
  await expect.poll(async () => {
    const [r, g, b] = await viewportMean(page);
    return r + g > 4 * b && r > 40 && g > 40;
  }, { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: test.info().outputPath('textured.png') });
  // The problems follow the open (doc:problems): none missing once they are in.
  await expect(page.getByTestId('problems')).toBeVisible();
  await expect(page.getByTestId('problems-pending')).toHaveCount(0);
  await expect(page.locator('[data-testid=problem-row]').filter({ hasText: 'texture not found' })).toHaveCount(0);

  // Keyboard only: focus the Shading select and pick "Solid" with the arrow keys.
  const shading = page.getByRole('combobox', { name: 'Shading' });
  await shading.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(shading).toHaveValue('solid');
  // Solid: one grey (the studio light tints it a little blue), no red/green texture left.
  await expect.poll(async () => {
    const [r, g, b] = await viewportMean(page);
    return Math.abs(r - g) < 15 && b > 0.9 * g && g < 160;
  }, { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: test.info().outputPath('solid.png') });
  // Material colour: the P3D material is white, so the box is lighter than the solid grey.
  await page.keyboard.press('ArrowUp');
  await expect(shading).toHaveValue('colour');
  await expect.poll(async () => {
    const [r, g, b] = await viewportMean(page);
    return Math.abs(r - g) < 15 && b > 0.9 * g && g > 150;
  }, { timeout: 15_000 }).toBe(true);

  // A second model whose texture is nowhere: a Problems entry naming the path as written.
  await writeFile(join(dir, 'lost.p3d'), boxModel('P:\\elsewhere\\data\\gone_co.paa'));
  await page.goto(lodsmith.page({ open: 'models/MyMod/Data/lost.p3d' }));
  await expect(page.locator('[data-testid=problem-row]').filter({ hasText: 'texture not found: P:\\elsewhere\\data\\gone_co.paa' })).toHaveCount(1);
});

test('a PAA opened on its own: mips, channels, tags, export PNG, replace from PNG', async ({ page, lodsmith }) => {
  const { decodePaa, findTag } = await import('../../shared/formats/texture/paa.ts');
  const { encodePng, decodePng } = await import('../../shared/formats/texture/png.ts');
  const side = 64;
  const data = new Uint8Array(side * side * 4);
  // Blue with alpha fading left to right.
  for (let i = 0; i < side * side; i++) data.set([30, 60, 220, Math.round(((i % side) * 255) / (side - 1))], i * 4);
  await writeFile(join(lodsmith.root, 'glass_ca.paa'), encodePaa(createPaa({ width: side, height: side, data })));
  await page.goto(lodsmith.page({ open: 'models/glass_ca.paa' }));
  const viewer = page.getByRole('dialog', { name: 'Texture glass_ca.paa' });
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId('texture-type')).toHaveText('DXT5, 64x64');
  await expect(page.getByTestId('texture-tag-AVGC')).toHaveText(/AVGC#[0-9a-f]{8}/);
  await expect(page.getByTestId('texture-tag-FLAG')).toContainText('1');
  const canvas = page.getByTestId('texture-canvas');
  await expect(canvas).toHaveAttribute('data-mip', '0');
  // Keyboard: the mip select, one step down.
  const mipSelect = page.getByRole('combobox', { name: 'Mip level' });
  await mipSelect.focus();
  await page.keyboard.press('ArrowDown');
  await expect(canvas).toHaveAttribute('data-mip', '1');
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.width)).toBe(32);
  // Alpha alone: grey ramp, dark at the left, light at the right.
  await page.getByRole('combobox', { name: 'Channels' }).selectOption('alpha');
  await expect(canvas).toHaveAttribute('data-channels', 'alpha');
  const [left, right] = await canvas.evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, 1).data;
    return [d[0]!, d[(c.width - 1) * 4]!];
  });
  expect(left).toBeLessThan(40);
  expect(right).toBeGreaterThan(215);
  await page.screenshot({ path: test.info().outputPath('texture-view.png') });
  // Export PNG: a download of the shown mip.
  const download = page.waitForEvent('download');
  await page.getByTestId('texture-export').click();
  const file = await (await download).path();
  const { readFile: read } = await import('node:fs/promises');
  expect(decodePng(new Uint8Array(await read(file))).width).toBe(32);
  // Replace from an opaque PNG: a new DXT1 PAA with its mips, written to disk.
  const opaque = new Uint8Array(128 * 128 * 4).map((_, i) => (i % 4 === 3 ? 255 : 200));
  await page.getByTestId('texture-replace').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: Buffer.from(encodePng({ width: 128, height: 128, data: opaque })) });
  await expect(page.getByTestId('texture-type')).toHaveText('DXT1, 128x128');
  const onDisk = decodePaa(new Uint8Array(await read(join(lodsmith.root, 'glass_ca.paa'))));
  expect(onDisk.type).toBe('dxt1');
  expect(onDisk.mips.length).toBe(6);
  expect(findTag(onDisk, 'FLAG')).toBeUndefined();
  await page.getByTestId('texture-close').click();
  await expect(viewer).toHaveCount(0);
});

test('a DDS and a TGA are replaced from PNG in their own format, and each replace is undone with Ctrl+Z', async ({ page, lodsmith }) => {
  const { readFile: read } = await import('node:fs/promises');
  const { encodePng } = await import('../../shared/formats/texture/png.ts');
  const { decodeDds } = await import('../../shared/formats/texture/dds.ts');
  const { decodeTga } = await import('../../shared/formats/texture/tga.ts');
  const { encodeBlocks } = await import('../../shared/formats/texture/dxt.ts');
  // A 16x16 DXT5 DDS with its 5 mips (green), written here byte by byte.
  const head = new Uint8Array(128);
  const dv = new DataView(head.buffer);
  head.set([0x44, 0x44, 0x53, 0x20]);
  dv.setUint32(4, 124, true); dv.setUint32(8, 0x1007 | 0x20000 | 0x80000, true); dv.setUint32(12, 16, true); dv.setUint32(16, 16, true);
  dv.setUint32(20, 256, true); dv.setUint32(28, 5, true); dv.setUint32(76, 32, true); dv.setUint32(80, 4, true);
  head.set([0x44, 0x58, 0x54, 0x35], 84); dv.setUint32(108, 0x401008, true);
  const levels = [16, 8, 4, 2, 1].map((s) => encodeBlocks('bc3', new Uint8Array(s * s * 4).map((_, i) => [20, 200, 20, 255][i % 4]!), s, s));
  const ddsFile = new Uint8Array([...head, ...levels.flatMap((l) => [...l])]);
  await writeFile(join(lodsmith.root, 'moss_dif.dds'), ddsFile);
  // A 4x2 RLE 24-bit TGA, bottom-up, one grey run per row.
  const tgaFile = new Uint8Array([0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 2, 0, 24, 0, 0x83, 90, 90, 90, 0x83, 90, 90, 90]);
  await writeFile(join(lodsmith.root, 'floor.tga'), tgaFile);
  const red = (w: number, h: number) => Buffer.from(encodePng({ width: w, height: h, data: new Uint8Array(w * h * 4).map((_, i) => [230, 30, 30, 255][i % 4]!) }));

  await page.goto(lodsmith.page({ open: 'models/moss_dif.dds' }));
  await expect(page.getByTestId('texture-type')).toHaveText('DXT5, 16x16');
  await expect(page.getByTestId('texture-replace-note')).toContainText('DXT5');
  await expect(page.getByTestId('texture-undo')).toBeDisabled();
  await page.getByTestId('texture-replace').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: red(32, 32) });
  await expect(page.getByTestId('texture-type')).toHaveText('DXT5, 32x32');
  const replaced = decodeDds(new Uint8Array(await read(join(lodsmith.root, 'moss_dif.dds'))));
  expect([replaced.format, replaced.width, replaced.mips.length]).toEqual(['DXT5', 32, 6]);
  await page.screenshot({ path: test.info().outputPath('dds-replaced.png') });
  // Keyboard: Ctrl+Z in the viewer undoes the replace; the file is the original byte for byte.
  await page.getByTestId('texture-undo').focus();
  await expect(page.getByTestId('texture-undo')).toBeEnabled();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('texture-type')).toHaveText('DXT5, 16x16');
  expect(new Uint8Array(await read(join(lodsmith.root, 'moss_dif.dds')))).toEqual(ddsFile);
  await expect(page.getByTestId('texture-undo')).toBeDisabled();
  await page.keyboard.press('Escape');

  await page.goto(lodsmith.page({ open: 'models/floor.tga' }));
  await expect(page.getByTestId('texture-type')).toContainText('4x2');
  await page.getByTestId('texture-replace').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: red(8, 4) });
  await expect(page.getByTestId('texture-type')).toContainText('8x4');
  const tga = decodeTga(new Uint8Array(await read(join(lodsmith.root, 'floor.tga'))));
  expect([tga.imageType, tga.bitsPerPixel, tga.topDown, tga.width]).toEqual([10, 24, false, 8]);
  await page.getByTestId('texture-undo').click();
  await expect(page.getByTestId('texture-type')).toContainText('4x2');
  expect(new Uint8Array(await read(join(lodsmith.root, 'floor.tga')))).toEqual(tgaFile);
});

test('a LODka TXTR image is shown, and replaced from a file as one undoable edit', async ({ page, lodsmith }) => {
  const { buildSampleLod } = await import('../../scripts/fixtures/lodka.ts');
  const { encodeLod } = await import('../../shared/formats/lodka/encode.ts');
  const { encodePng } = await import('../../shared/formats/texture/png.ts');
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await settled(page);
  await page.getByTestId('tree-filter').fill('ground.png');
  await page.locator('[data-testid=tree-row]', { hasText: 'ground.png' }).first().click();
  const thumb = page.locator('[data-testid=inspector] [data-testid=node-thumb]');
  await expect(thumb).toBeVisible();
  const before = await thumb.evaluate((i: HTMLImageElement) => i.naturalWidth);
  expect(before).toBeGreaterThan(0);
  const png = encodePng({ width: 12, height: 6, data: new Uint8Array(12 * 6 * 4).map((_, i) => (i % 4 === 3 ? 255 : 90)) });
  await page.getByTestId('replace-image').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: Buffer.from(png) });
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(12);
  await page.screenshot({ path: test.info().outputPath('txtr-replaced.png') });
  // One undo step brings the original image back.
  await page.keyboard.press('Control+z');
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(before);
});

test('the P3D Materials tab shows a thumbnail of the DXT PAA the viewport draws, not a "?"', async ({ page, lodsmith }) => {
  const dir = join(lodsmith.root, 'MyMod', 'Data');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'Checker_CO.paa'), redGreenPaa());
  await writeFile(join(dir, 'box.p3d'), boxModel('P:\\mymod\\data\\checker_co.paa'));
  await page.goto(lodsmith.page({ open: 'models/MyMod/Data/box.p3d' }));
  await settled(page);
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const thumb = page.locator('[data-testid=texture-thumb]').first();
  await expect(thumb.locator('img')).toBeVisible();
  await expect(thumb).toHaveAttribute('title', /checker_co\.paa: 64 × 64/);
  // The picture is the texture's: red on the left, green on the right.
  const [left, right] = await thumb.locator('img').evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const px = (x: number) => [...g.getImageData(x, c.height >> 1, 1, 1).data];
    return [px(2), px(c.width - 3)];
  });
  expect(left![0]).toBeGreaterThan(150);
  expect(left![1]).toBeLessThan(80);
  expect(right![1]).toBeGreaterThan(150);
  expect(right![0]).toBeLessThan(80);
});
