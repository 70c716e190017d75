/**
 * P3D proxies as good as LODka's, end to end through the UI against the browser host: MLOD
 * proxies added and deleted (a triangle and its `proxy:` selection), a proxy moved to another LOD
 * of the same model as one undo step with the preview following (MLOD and ODOL), and a click on a
 * proxy's marker in the viewport selecting it. Saved files are decoded to check them; LODs the
 * edits did not touch must come back byte for byte.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { markedPixels, openModel, sceneSettled } from './fixtures/viewport.ts';
import { buildLod, buildMlod, buildSampleMlod, cube, sampleTags, withProxy } from '../../scripts/fixtures/mlod.ts';
import { buildOdolDocument } from '../../scripts/fixtures/odol.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/codec.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { p3dProxies } from '../../shared/formats/p3d/editor.ts';

// WebGL without a GPU: SwiftShader draws the viewport so its pixels can be checked.
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const SHOTS = process.env.LODSMITH_E2E_OUTPUT ?? 'test-results';

function lodBytes(bytes: Uint8Array): Uint8Array[] {
  const doc = (bytes[0] === 0x4d ? mlodCodec : odolCodec).decode(bytes) as { lods: { $span?: [number, number] }[] };
  return doc.lods.map((l) => bytes.slice(l.$span![0], l.$span![1]));
}

async function putMlod(root: string): Promise<{ rel: string; abs: string; bytes: Uint8Array }> {
  const abs = join(root, 'crate.p3d');
  const bytes = encodeMlod(withProxy(buildSampleMlod(), 0, '\\a3\\data_f\\proxies\\lamp', [0.3, 0.6, -0.2]));
  await writeFile(abs, bytes);
  return { rel: 'models/crate.p3d', abs, bytes };
}

async function saveWithKeyboard(page: Page): Promise<void> {
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'false');
}

/** Pixels of the viewport in the proxy markers' violet. */
async function markerPixels(page: Page): Promise<number> {
  return page.locator('[data-testid=viewport-canvas]').evaluate((c: HTMLCanvasElement) => {
    const tmp = document.createElement('canvas');
    tmp.width = c.width;
    tmp.height = c.height;
    const g = tmp.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, tmp.width, tmp.height).data;
    let n = 0;
    // 0x9f7aff, blended a little over whatever is behind it.
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - 0x9f) < 40 && Math.abs(d[i + 1]! - 0x7a) < 40 && d[i + 2]! > 200) n++;
    return n;
  });
}

/** Where the marker of the proxy labelled `text` sits, in page pixels (its label is offset from it by 8 px right and up). */
async function markerPoint(page: Page, text: RegExp): Promise<{ x: number; y: number }> {
  const label = page.locator('[data-testid=proxy-label]', { hasText: text });
  await expect(label).toBeVisible();
  const layer = (await page.locator('[data-testid=viewport-labels]').boundingBox())!;
  const t = await label.evaluate((el: HTMLElement) => el.style.transform);
  const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(t)!;
  return { x: layer.x + Number(m[1]) - 8, y: layer.y + Number(m[2]) + 8 };
}

test('MLOD proxies: add one, rename it, delete another, move it to the Geometry LOD; one undo step each; saved file checked', async ({ page, lodsmith }) => {
  const mlod = await putMlod(lodsmith.root);
  await openModel(page, lodsmith.page({ open: mlod.rel }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await expect(list.getByRole('option')).toHaveText([/lamp/]);
  await expect(page.locator('[data-testid=proxy-label]')).toHaveCount(1);

  // Add: a triangle and its selection; the new proxy is selected and drawn with a marker.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Proxy model path' })).toHaveValue('proxy');
  await expect(page.locator('[data-testid=proxy-label]')).toHaveCount(2);
  const path = page.getByRole('textbox', { name: 'Proxy model path' });
  await path.fill('\\mod\\proxies\\crate');
  await path.press('Enter');
  await expect(list.getByRole('option').nth(1)).toContainText('crate');

  // Delete the lamp: its selection, triangle and points go.
  await list.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(list.getByRole('option')).toHaveText([/crate/]);
  await expect(page.locator('[data-testid=proxy-label]')).toHaveText([/crate/]);
  await expect(page.locator('[data-testid=tool-edit-undo]')).toHaveAttribute('title', /^Undo Delete proxy lamp /);

  // Move the crate proxy to the Geometry LOD: the editor and the viewport show that LOD, the proxy still selected.
  await list.getByRole('option').first().click();
  await page.getByRole('combobox', { name: 'Proxy LOD' }).selectOption({ label: 'Geometry' });
  await expect(page.getByRole('combobox', { name: 'LOD', exact: true })).toHaveValue('2');
  await expect(page.locator('[data-testid=lod-select]')).toHaveValue('Geometry');
  await expect(list.getByRole('option')).toHaveText([/crate/]);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Proxy LOD' })).toHaveValue('2');
  await sceneSettled(page);
  await expect(page.locator('[data-testid=proxy-label]')).toHaveText([/crate/]);
  await page.locator('[data-testid=frame]').click();
  await expect.poll(() => markerPixels(page)).toBeGreaterThan(3);
  await page.screenshot({ path: join(SHOTS, 'p3d-proxy-moved-lod.png') });

  await expect(page.locator('[data-testid=tool-edit-undo]')).toHaveAttribute('title', /^Undo Move proxy crate to LOD Geometry /);
  // One undo step puts it back in Visual 1.000; redo moves it again.
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+z');
  await expect(list.getByRole('option')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'LOD', exact: true }).selectOption({ label: 'Visual 1.000' });
  await expect(list.getByRole('option')).toHaveText([/crate/]);
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+y');
  await expect(list.getByRole('option')).toHaveCount(0);

  await saveWithKeyboard(page);
  const bytes = new Uint8Array(await readFile(mlod.abs));
  const doc = mlodCodec.decode(bytes) as MlodDocument;
  expect(p3dProxies(doc, 0)).toHaveLength(0);
  expect(p3dProxies(doc, 2).map((p) => p.name)).toEqual(['proxy:\\mod\\proxies\\crate.001']);
  expect(doc.lods[0]!.pointFlags.length).toBe(8);
  expect(doc.lods[2]!.pointFlags.length).toBe(11);
  const a = lodBytes(mlod.bytes);
  const b = lodBytes(bytes);
  for (const i of [1, 3]) expect(b[i], `LOD ${i}`).toEqual(a[i]);
});

test('ODOL proxy moved to another LOD with the keyboard; the preview shows it there; saved file checked', async ({ page, lodsmith }) => {
  const abs = join(lodsmith.root, 'grid.p3d');
  const original = odolCodec.encode(buildOdolDocument({ version: 50 }));
  await writeFile(abs, original);
  await openModel(page, lodsmith.page({ open: 'models/grid.p3d' }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await list.getByRole('option').first().focus();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  const to = page.getByRole('combobox', { name: 'Proxy LOD' });
  await to.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid=lod-select]')).toHaveValue('Visual 2.000');
  // Visual 2.000 had a lamp of its own: the moved one comes after it, selected.
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option').last()).toHaveAttribute('aria-selected', 'true');
  await sceneSettled(page);
  await expect(page.locator('[data-testid=proxy-label]')).toHaveText([/lamp/, /lamp/]);
  // Back in Visual 1.000: no proxy left there, in the editor nor in the preview.
  await page.getByRole('combobox', { name: 'LOD', exact: true }).selectOption({ label: 'Visual 1.000' });
  await expect(list.getByRole('option')).toHaveCount(0);
  await sceneSettled(page);
  await expect(page.locator('[data-testid=proxy-label]')).toHaveCount(0);
  await saveWithKeyboard(page);
  const doc = odolCodec.decode(new Uint8Array(await readFile(abs))) as OdolV4xDocument;
  expect(doc.lods[0]!.proxies).toHaveLength(0);
  expect(doc.lods[1]!.proxies.map((p) => p.name)).toEqual(['\\a3\\data_f\\proxies\\lamp', '\\a3\\data_f\\proxies\\lamp']);
  const a = lodBytes(original);
  const b = lodBytes(new Uint8Array(await readFile(abs)));
  for (let i = 2; i < a.length; i++) expect(b[i], `LOD ${i}`).toEqual(a[i]);
});

test('a click on a proxy marker in the viewport selects the proxy (list, tree and inspector follow); a click beside it does not', async ({ page, lodsmith }) => {
  const mlod = await putMlod(lodsmith.root);
  await openModel(page, lodsmith.page({ open: mlod.rel }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await expect(list.getByRole('option')).toHaveText([/lamp/]);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'false');
  await page.locator('[data-testid=frame]').click();
  await sceneSettled(page);
  const at = await markerPoint(page, /lamp/);
  // Empty space well away from the marker and the model selects no proxy.
  const canvas = (await page.locator('[data-testid=viewport-canvas]').boundingBox())!;
  await page.mouse.click(canvas.x + 6, canvas.y + canvas.height - 6);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'false');
  await page.mouse.click(at.x, at.y);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Proxy model path' })).toHaveValue('\\a3\\data_f\\proxies\\lamp');
  await expect(page.locator('[data-testid=highlight-label]')).toContainText('lamp');
  const source = p3dProxies(mlodCodec.decode(mlod.bytes) as MlodDocument, 0)[0]!.source;
  await expect(page.locator(`[data-testid=tree-row][data-path='${JSON.stringify(source)}']`)).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: join(SHOTS, 'p3d-proxy-marker-click.png') });

  // ODOL: the record's marker.
  await writeFile(join(lodsmith.root, 'grid.p3d'), odolCodec.encode(buildOdolDocument({ version: 50 })));
  await page.goto(lodsmith.page({ open: 'models/grid.p3d' }));
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('grid.p3d');
  await sceneSettled(page);
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  await page.locator('[data-testid=frame]').click();
  const o = await markerPoint(page, /lamp/);
  await page.mouse.click(o.x, o.y);
  await expect(page.locator(`[data-testid=tree-row][data-path='${JSON.stringify(['lods', 0, 'proxies', 0])}']`)).toHaveAttribute('aria-selected', 'true');
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
});

test('item 10 holds for MLOD: LODs named as modders know them, face-group paths per LOD, a named selection marked in the viewport', async ({ page, lodsmith }) => {
  const c = cube(1);
  const tex = (t: string) => c.faces.map(() => t);
  // Resolutions of every kind Object Builder shows, each LOD with a texture of its own.
  const kinds: [number, string][] = [[1, 'Visual 1.000'], [2.5, 'Visual 2.500'], [1e4, 'Shadow Volume 0'], [1e13, 'Geometry'], [1e15, 'Memory'], [6e15, 'View Geometry'], [7e15, 'Fire Geometry']];
  const doc = buildMlod(kinds.map(([r], i) => buildLod({ resolution: r, ...c, textures: tex(`data\\lod${i}_co.paa`), materials: tex('data\\box.rvmat'), tags: i === 0 ? sampleTags('P3DM', 8, c.faces) : [] })));
  const abs = join(lodsmith.root, 'kinds.p3d');
  await writeFile(abs, encodeMlod(doc));
  await openModel(page, lodsmith.page({ open: 'models/kinds.p3d' }));
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]')).toHaveText(kinds.map(([, l]) => new RegExp(l.replace('.', '\\.'))));
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const lod = page.getByRole('combobox', { name: 'LOD', exact: true });
  await expect(lod.locator('option')).toHaveText(kinds.map(([, l]) => `${l} (6 faces)`));
  // Per LOD: Fire Geometry's own group, edited there only.
  await lod.selectOption({ label: 'Fire Geometry (6 faces)' });
  const t = page.getByRole('textbox', { name: 'Texture of group 1' });
  await expect(t).toHaveValue('data\\lod6_co.paa');
  await t.fill('data\\fire_co.paa');
  await t.press('Enter');
  await expect(t).toHaveValue('data\\fire_co.paa');
  // A named selection of Visual 1.000, marked in the viewport when selected.
  await page.getByRole('button', { name: 'Selections', exact: true }).click();
  await page.getByRole('combobox', { name: 'LOD', exact: true }).selectOption({ label: 'Visual 1.000' });
  await expect(page.locator('[data-testid=lod-select]')).toHaveValue('Visual 1.000');
  await page.locator('[data-testid=frame]').click();
  await sceneSettled(page);
  expect(await markedPixels(page)).toBe(0);
  await page.getByRole('listbox', { name: 'Named selections' }).getByRole('option', { name: /^component01/ }).click();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('component01: 2 points, 1 faces');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(100);
  await page.screenshot({ path: join(SHOTS, 'p3d-mlod-selection.png') });
  await saveWithKeyboard(page);
  const back = mlodCodec.decode(new Uint8Array(await readFile(abs))) as MlodDocument;
  expect(back.lods.map((l) => l.faces.textures)).toEqual(kinds.map((_, i) => [i === 6 ? 'data\\fire_co.paa' : `data\\lod${i}_co.paa`]));
});

test('a refused proxy edit (a dropped, read-only file) keeps what was typed as a draft with the reason; Escape brings the stored value back', async ({ page, lodsmith }) => {
  const mlod = await putMlod(lodsmith.root);
  await page.goto(lodsmith.url);
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], 'dropped_crate.p3d'));
    for (const type of ['dragenter', 'dragover', 'drop']) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, Array.from(mlod.bytes));
  await expect(page.getByRole('tab', { name: /dropped_crate\.p3d, read-only/ })).toBeVisible();
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await list.getByRole('option').first().click();
  const x = page.getByRole('textbox', { name: 'Position X' });
  await expect(x).toHaveValue('0.3');
  await x.fill('5');
  await x.press('Enter');
  await expect(page.locator('[data-testid=p3d-proxy-error]')).toContainText('read-only');
  // Not written, and not passed off as written: still the user's draft.
  await expect(x).toHaveValue('5');
  await expect(x).toHaveAttribute('data-draft', 'true');
  await x.press('Escape');
  await expect(x).toHaveValue('0.3');
  const path = page.getByRole('textbox', { name: 'Proxy model path' });
  await path.fill('\\mod\\seat');
  await path.press('Enter');
  await expect(path).toHaveValue('\\mod\\seat');
  await expect(path).toHaveAttribute('data-draft', 'true');
  await path.press('Escape');
  await expect(path).toHaveValue('\\a3\\data_f\\proxies\\lamp');
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
});

test('proxy labels on one spot are decluttered: one shows and counts the rest; none overlap; a hidden one shows with the focus', async ({ page, lodsmith }) => {
  let doc = buildSampleMlod();
  for (let i = 0; i < 10; i++) doc = withProxy(doc, 0, '\\a3\\structures_f\\proxies\\box_c', [0.3, 0.6, -0.2]);
  doc = withProxy(doc, 0, '\\a3\\data_f\\proxies\\lamp', [-0.9, -0.6, 0.5]);
  await writeFile(join(lodsmith.root, 'pile.p3d'), encodeMlod(doc));
  await openModel(page, lodsmith.page({ open: 'models/pile.p3d' }));
  await page.locator('[data-testid=frame]').click();
  await sceneSettled(page);
  const all = page.locator('[data-testid=proxy-label]');
  await expect(all).toHaveCount(11);
  const shown = page.locator('[data-testid=proxy-label]:not(.cluttered)');
  // The ten box_c labels read as one, counting the nine behind it; the lamp has room of its own.
  await expect(shown).toHaveCount(2);
  await expect(shown.filter({ hasText: /^box_c #\d+ \+9$/ })).toHaveCount(1);
  await expect(shown.filter({ hasText: /^lamp/ })).toHaveCount(1);
  const boxes = await shown.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  const [a, b] = boxes as [DOMRect, DOMRect];
  expect(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).toBe(false);
  // Hidden labels show nothing (fully transparent)...
  const hidden = page.locator('[data-testid=proxy-label].cluttered').first();
  expect(await hidden.evaluate((e) => getComputedStyle(e).opacity)).toBe('0');
  // ...but the keyboard still reaches each proxy: focused, it shows over the others.
  await hidden.focus();
  expect(await hidden.evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
  await page.screenshot({ path: test.info().outputPath('decluttered.png') });
});
