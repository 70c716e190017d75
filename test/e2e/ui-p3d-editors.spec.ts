/**
 * The P3D editors and the array tables end to end, through the UI (roles, labels, keyboard) in
 * Chromium against the browser host: face-group texture and material paths (MLOD and ODOL),
 * proxies moved with the preview following, named selections marked in the viewport, and bulk
 * arrays as paged, editable tables whose selected row is marked. Every edit is saved and the
 * file on disk is decoded to check it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { holdEditReplies, holdEvents } from './fixtures/slow-host.ts';
import { frameDiff, markedPixels, openModel, sceneSettled, viewportPixels } from './fixtures/viewport.ts';
import { buildSampleMlod, withProxy } from '../../scripts/fixtures/mlod.ts';
import { buildOdolDocument } from '../../scripts/fixtures/odol.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/codec.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { p3dProxies } from '../../shared/formats/p3d/editor.ts';
import { buildSampleLod, encodePng } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

// WebGL without a GPU: SwiftShader draws the viewport so its pixels can be checked.
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const SHOTS = process.env.LODSMITH_E2E_OUTPUT ?? 'test-results';

async function putMlod(root: string): Promise<{ rel: string; abs: string }> {
  const abs = join(root, 'crate.p3d');
  await writeFile(abs, encodeMlod(withProxy(buildSampleMlod(), 0, '\\a3\\data_f\\proxies\\lamp', [0.3, 0.6, -0.2])));
  return { rel: 'models/crate.p3d', abs };
}
async function putOdol(root: string): Promise<{ rel: string; abs: string }> {
  const abs = join(root, 'grid.p3d');
  await writeFile(abs, odolCodec.encode(buildOdolDocument({ version: 50 })));
  return { rel: 'models/grid.p3d', abs };
}


/** The active document's revision (it moves once per applied edit). */
async function revision(page: Page): Promise<string> {
  return (await page.locator('[data-testid=doc-tab][aria-selected=true]').getAttribute('data-revision')) ?? '';
}
/** Waits until an edit sent after `before` was read has been applied (a typed value shows before that). */
async function applied(page: Page, before: string): Promise<void> {
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).not.toHaveAttribute('data-revision', before);
}

async function saveWithKeyboard(page: Page): Promise<void> {
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'false');
}

test('P3D materials: LOD names modders know; face-group texture and material paths edited, saved, re-read (MLOD and ODOL)', async ({ page, lodsmith }) => {
  const mlod = await putMlod(lodsmith.root);
  await openModel(page, lodsmith.page({ open: mlod.rel }));
  // The LOD list names resolutions the way Object Builder users know them.
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]')).toHaveCount(4);
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]').first()).toContainText('Visual 1.000');
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]').nth(2)).toContainText('Geometry');

  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const lod = page.getByRole('combobox', { name: 'LOD' });
  await expect(lod.locator('option')).toHaveText(['Visual 1.000 (7 faces)', 'Visual 2.000 (6 faces)', 'Geometry (6 faces)', 'Memory (0 faces)']);
  await expect(page.getByRole('textbox', { name: 'Texture of group 2' })).toHaveValue('data\\box_side_co.paa');
  const tex = page.getByRole('textbox', { name: 'Texture of group 2' });
  // The group being edited is marked in the viewport.
  await tex.focus();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('3 faces: data\\box_side_co.paa');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(100);
  // No such file beside the model: the thumbnail says so.
  const thumb = page.locator('[data-testid=p3d-group]').nth(1).locator('[data-testid=texture-thumb]');
  await expect(thumb).toHaveAttribute('title', /was not found next to the model/);
  await writeFile(join(lodsmith.root, 'crate_side_co.png'), encodePng(4, 4, new Uint8Array(64).fill(200)));
  await tex.fill('data\\crate_side_co.png');
  await tex.press('Enter');
  // The new texture is found beside the model and previewed.
  await expect(thumb).toHaveAttribute('title', 'data\\crate_side_co.png: 4 × 4');
  await expect(thumb.locator('img')).toBeVisible();
  // The group's mark names the new path, not the one it had when the field took the focus.
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('3 faces: data\\crate_side_co.png');
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'true');
  const mat = page.getByRole('textbox', { name: 'Material of group 1' });
  await mat.fill('data\\crate.rvmat');
  await mat.press('Escape');
  await expect(mat).toHaveValue('data\\box.rvmat');
  await mat.fill('data\\crate.rvmat');
  await mat.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Material of group 1' })).toHaveValue('data\\crate.rvmat');
  // The SP3X LOD stores no material: its field is read-only.
  await lod.selectOption({ label: 'Visual 2.000 (6 faces)' });
  // The mark of the other LOD's group goes with it.
  await expect(page.locator('[data-testid=highlight-label]')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Material of group 1' })).toHaveAttribute('readonly', '');
  await page.screenshot({ path: join(SHOTS, 'p3d-materials-mlod.png') });
  await saveWithKeyboard(page);
  const doc = mlodCodec.decode(new Uint8Array(await readFile(mlod.abs))) as MlodDocument;
  const f = doc.lods[0]!.faces;
  expect(Array.from(f.textureIndex, (t) => f.textures[t]).slice(0, 6)).toEqual(['data\\box_co.paa', 'data\\box_co.paa', 'data\\box_co.paa', 'data\\crate_side_co.png', 'data\\crate_side_co.png', 'data\\crate_side_co.png']);
  expect(Array.from(f.materialIndex, (m) => f.materials[m]).slice(0, 6)).toEqual(['data\\crate.rvmat', 'data\\crate.rvmat', 'data\\crate.rvmat', 'data\\box.rvmat', 'data\\box.rvmat', 'data\\box.rvmat']);

  // ODOL: the stored path of a section.
  const odol = await putOdol(lodsmith.root);
  await page.goto(lodsmith.page({ open: odol.rel }));
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('grid.p3d');
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  const otex = page.getByRole('textbox', { name: 'Texture of group 1' });
  await expect(otex).toHaveValue('a3\\data_f\\grid_co.paa');
  await otex.fill('mod\\data\\tiles_co.paa');
  await otex.press('Enter');
  const omat = page.getByRole('textbox', { name: 'Material of group 1' });
  await omat.fill('mod\\data\\tiles.rvmat');
  await omat.press('Enter');
  await expect(omat).toHaveValue('mod\\data\\tiles.rvmat');
  await saveWithKeyboard(page);
  const od = odolCodec.decode(new Uint8Array(await readFile(odol.abs))) as OdolV4xDocument;
  expect(od.lods[0]!.textures[0]).toBe('mod\\data\\tiles_co.paa');
  expect(od.lods[0]!.materials[0]!.name).toBe('mod\\data\\tiles.rvmat');
  // Other LODs untouched.
  expect(od.lods[1]!.textures[0]).toBe('a3\\data_f\\grid_co.paa');
});

test('P3D proxies, keyboard only: pick a proxy, move and turn it; the preview follows; saved file holds it', async ({ page, lodsmith }) => {
  const mlod = await putMlod(lodsmith.root);
  await openModel(page, lodsmith.page({ open: mlod.rel }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await expect(list.getByRole('option')).toHaveText([/lamp/]);
  // Keyboard: focus the list's option and pick it with Enter.
  await list.getByRole('option').first().focus();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Proxy model path' })).toHaveValue('\\a3\\data_f\\proxies\\lamp');
  await expect(page.locator('[data-testid=highlight-label]')).toContainText('lamp');
  await sceneSettled(page);
  await page.locator('[data-testid=frame]').click();
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(5);
  const before = await viewportPixels(page);
  await page.screenshot({ path: join(SHOTS, 'p3d-proxy-before.png') });

  // Position X: Tab from the path field to X, type, Enter.
  await page.getByRole('textbox', { name: 'Proxy model path' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('-0.4');
  let rev = await revision(page);
  await page.keyboard.press('Enter');
  await applied(page, rev);
  await expect(page.locator('[data-testid=p3d-proxy-position-0]')).toHaveValue('-0.4');
  // Orientation: 90 degrees about Y.
  const yaw = page.locator('[data-testid=p3d-proxy-euler-1]');
  await yaw.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('90');
  rev = await revision(page);
  await page.keyboard.press('Enter');
  await applied(page, rev);
  await expect(yaw).toHaveValue('90');
  await sceneSettled(page);
  // The triangle moved and its mark with it.
  await expect.poll(async () => frameDiff(await viewportPixels(page), before)).toBeGreaterThan(0.3);
  await page.screenshot({ path: join(SHOTS, 'p3d-proxy-after.png') });

  // Rename with the keyboard, then save.
  const path = page.getByRole('textbox', { name: 'Proxy model path' });
  await path.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('\\mod\\proxies\\seat');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('option').first()).toContainText('seat');
  await saveWithKeyboard(page);
  const doc = mlodCodec.decode(new Uint8Array(await readFile(mlod.abs))) as MlodDocument;
  const [p] = p3dProxies(doc, 0);
  expect(p!.name).toBe('proxy:\\mod\\proxies\\seat.001');
  expect(p!.position.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([-0.4, 0.6, -0.2]);
  // 90 degrees about y: the proxy's x axis points along -z.
  expect(p!.axes.slice(0, 3).map((v) => Math.round(v * 1e4) / 1e4 + 0)).toEqual([0, 0, -1]);

  // Undo (from the window) puts the name back: one step per committed edit.
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('textbox', { name: 'Proxy model path' })).toHaveValue('\\a3\\data_f\\proxies\\lamp');
});

test('P3D named selections per LOD are marked in the viewport when selected', async ({ page, lodsmith }) => {
  const odol = await putOdol(lodsmith.root);
  await openModel(page, lodsmith.page({ open: odol.rel }));
  await page.getByRole('button', { name: 'Selections', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Named selections' });
  await expect(list.getByRole('option')).toHaveCount(2);
  await page.locator('[data-testid=frame]').click();
  await sceneSettled(page);
  expect(await markedPixels(page)).toBe(0);
  await list.getByRole('option', { name: /^grid/ }).click();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('grid: 289 vertices, 256 faces');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(500);
  await page.screenshot({ path: join(SHOTS, 'p3d-selection.png') });
  // Another LOD: its own selections; the viewport shows that LOD.
  await page.getByRole('combobox', { name: 'LOD' }).selectOption({ label: 'Visual 2.000' });
  await expect(page.locator('[data-testid=lod-select]')).toHaveValue('Visual 2.000');
  await list.getByRole('option', { name: /^grid/ }).click();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('grid: 81 vertices, 64 faces');
});

test('arrays as tables: named columns, pages, jump to row, editable cells with one undo step each, row marked', async ({ page, lodsmith }) => {
  const odol = await putOdol(lodsmith.root);
  await openModel(page, lodsmith.page({ open: odol.rel }));
  await page.locator('[data-testid=tree-filter]').fill('vertices');
  await page.locator(`[data-testid=tree-row][data-path='${JSON.stringify(['lods', 0, 'vertices'])}']`).click();
  const table = page.getByRole('grid', { name: 'vertices table' });
  await expect(table).toBeVisible();
  await expect(table.locator('thead th')).toHaveText(['#', 'x', 'y', 'z']);
  await expect(page.locator('[data-testid=array-pageinfo]').first()).toHaveText('rows 0–24 of 289');
  await page.getByRole('button', { name: 'Next page' }).first().click();
  await expect(page.locator('[data-testid=array-pageinfo]').first()).toHaveText('rows 25–49 of 289');
  // Jump to row 200: its page shows and the row is marked in the viewport.
  await page.locator('[data-testid=frame]').click();
  const jump = page.getByRole('textbox', { name: 'Jump to row' }).first();
  await jump.fill('200');
  await jump.press('Enter');
  await expect(page.locator('[data-testid=array-pageinfo]').first()).toHaveText('rows 200–224 of 289');
  await expect(page.locator('[data-testid=array-row][data-row="200"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('vertex 200');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(0);
  await page.screenshot({ path: join(SHOTS, 'array-table.png') });

  // Two committed cells, two undo steps.
  const y = page.getByRole('textbox', { name: 'y of row 200' });
  const z = page.getByRole('textbox', { name: 'z of row 201' });
  const z0 = await z.inputValue();
  await y.fill('0.5');
  await y.press('Enter');
  await expect(y).toHaveValue('0.5');
  await z.fill('1.25');
  await z.press('Enter');
  await expect(z).toHaveValue('1.25');
  // A value the array cannot hold is refused with the reason.
  await y.fill('abc');
  await y.press('Enter');
  await expect(page.locator('[data-testid=array-error]')).toContainText('must be a number');
  await y.press('Escape');
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+z');
  await expect(z).toHaveValue(z0);
  await expect(y).toHaveValue('0.5');
  await page.keyboard.press('Control+y');
  await expect(z).toHaveValue('1.25');
  await saveWithKeyboard(page);
  const doc = odolCodec.decode(new Uint8Array(await readFile(odol.abs))) as OdolV4xDocument;
  expect(doc.lods[0]!.vertices.data[200 * 3 + 1]).toBe(0.5);
  expect(doc.lods[0]!.vertices.data[201 * 3 + 2]).toBe(1.25);

  // MLOD faces: one face per row, i0..i3.
  const mlod = await putMlod(lodsmith.root);
  await page.goto(lodsmith.page({ open: mlod.rel }));
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('crate.p3d');
  await page.locator('[data-testid=tree-filter]').fill('faces');
  await page.locator(`[data-testid=tree-row][data-path='${JSON.stringify(['lods', 0, 'faces'])}']`).click();
  const faces = page.locator('[data-testid=array-table]', { hasText: 'pointIndex' });
  await faces.getByRole('button', { name: /pointIndex/ }).click();
  await expect(faces.locator('thead th')).toHaveText(['#', 'i0', 'i1', 'i2', 'i3']);
  await faces.getByRole('textbox', { name: 'i0 of row 0' }).focus();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('face 0');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(0);
});

test('a table cell typed while the previous cell\'s edit returns keeps its text when the same change is announced again', async ({ page, lodsmith }) => {
  // The CI race, made to happen every time: an edit's answer and its doc:changed event carry the
  // same snapshot. When the event came after the table had re-read the answer's values, the table
  // read them again and dropped the text being typed in the next cell.
  const events = await holdEvents(page);
  const odol = await putOdol(lodsmith.root);
  await openModel(page, lodsmith.page({ open: odol.rel }));
  await page.locator('[data-testid=tree-filter]').fill('vertices');
  await page.locator(`[data-testid=tree-row][data-path='${JSON.stringify(['lods', 0, 'vertices'])}']`).click();
  const jump = page.getByRole('textbox', { name: 'Jump to row' }).first();
  await jump.fill('200');
  await jump.press('Enter');
  const y = page.getByRole('textbox', { name: 'y of row 200' });
  const z = page.getByRole('textbox', { name: 'z of row 201' });
  const slow = await holdEditReplies(page);
  events.hold();
  await y.fill('0.5');
  await y.press('Enter');
  await expect.poll(() => slow.seen).toBe(1);
  await z.fill('1.25');
  await expect(z).toHaveAttribute('data-draft', 'true');
  // The answer comes and the table re-reads the stored values...
  slow.release();
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'true');
  await expect.poll(() => slow.pending).toBe(0);
  await expect.poll(() => events.held).toBeGreaterThan(0);
  // ...then the event with the same snapshot: nothing is read again for it (the preview's scene,
  // the inspector, the editors' questions), and the typed text stays.
  const reads: string[] = [];
  page.on('request', (r) => {
    const m = /\/api\/doc(?::|%3A)(scene|inspect|query)$/i.exec(r.url());
    if (m) reads.push(m[1]!);
  });
  events.release();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect.poll(() => slow.pending).toBe(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await z.inputValue()).toBe('1.25');
  await expect(z).toHaveAttribute('data-draft', 'true');
  expect(reads).toEqual([]);
  slow.stop();
  await z.press('Enter');
  await expect(z).toHaveValue('1.25');
  await expect(z).not.toHaveAttribute('data-draft', 'true');
  await saveWithKeyboard(page);
  const doc = odolCodec.decode(new Uint8Array(await readFile(odol.abs))) as OdolV4xDocument;
  expect(doc.lods[0]!.vertices.data[200 * 3 + 1]).toBe(0.5);
  expect(doc.lods[0]!.vertices.data[201 * 3 + 2]).toBe(1.25);
});

test('arrays as tables in a LODka model: mesh positions and face indices, a cell edit undone, the row marked', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await openModel(page, lodsmith.page({ open: 'models/robot.lod' }));
  await page.locator('[data-testid=tree-filter]').fill('MSH1');
  await page.locator('[data-testid=tree-row][data-kind=mesh]').first().click();
  const pos = page.locator('[data-testid=array-table]', { hasText: 'meshPointsPos' });
  await pos.getByRole('button', { name: /meshPointsPos/ }).click();
  await expect(pos.locator('thead th')).toHaveText(['#', 'x', 'y', 'z']);
  await page.locator('[data-testid=frame]').click();
  const x0 = pos.getByRole('textbox', { name: 'x of row 0' });
  const before = await x0.inputValue();
  await x0.focus();
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('vertex 0');
  await expect.poll(() => markedPixels(page)).toBeGreaterThan(0);
  await x0.fill('0.125');
  await x0.press('Enter');
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'true');
  await expect(x0).toHaveValue('0.125');
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+z');
  await expect(x0).toHaveValue(before);
  // Face group indices: one triangle per row, marked in the viewport.
  await page.locator('[data-testid=tree-filter]').fill('faceGroups[0]');
  await page.locator('[data-testid=tree-row][data-kind=facegroup]').first().click();
  const idx = page.locator('[data-testid=array-table]', { hasText: 'vertexIndex' });
  await idx.getByRole('button', { name: /vertexIndex/ }).click();
  await expect(idx.locator('thead th')).toHaveText(['#', 'v0', 'v1', 'v2']);
  await idx.getByRole('textbox', { name: 'v0 of row 0' }).focus();
  await expect(page.locator('[data-testid=highlight-label]')).toContainText('triangle 0');
  await page.screenshot({ path: join(SHOTS, 'array-table-lodka.png') });
});

test('ODOL proxies: add one, place it, delete it; the saved file holds the placed proxy', async ({ page, lodsmith }) => {
  const odol = await putOdol(lodsmith.root);
  await openModel(page, lodsmith.page({ open: odol.rel }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Proxies' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  const path = page.getByRole('textbox', { name: 'Proxy model path' });
  await path.fill('\\mod\\proxies\\crate');
  let rev = await revision(page);
  await path.press('Enter');
  await applied(page, rev);
  const z = page.locator('[data-testid=p3d-proxy-position-2]');
  await z.fill('1.5');
  rev = await revision(page);
  await z.press('Enter');
  await applied(page, rev);
  await expect(z).toHaveValue('1.5');
  await expect(page.locator('[data-testid=highlight-label]')).toHaveText('proxy \\mod\\proxies\\crate');
  await saveWithKeyboard(page);
  let doc = odolCodec.decode(new Uint8Array(await readFile(odol.abs))) as OdolV4xDocument;
  expect(doc.lods[0]!.proxies.map((p) => p.name)).toEqual(['\\a3\\data_f\\proxies\\lamp', '\\mod\\proxies\\crate']);
  expect(doc.lods[0]!.proxies[1]!.transform.slice(9)).toEqual([0, 0, 1.5]);
  await list.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option')).toContainText('crate');
  await saveWithKeyboard(page);
  doc = odolCodec.decode(new Uint8Array(await readFile(odol.abs))) as OdolV4xDocument;
  expect(doc.lods[0]!.proxies.map((p) => p.name)).toEqual(['\\mod\\proxies\\crate']);
});
