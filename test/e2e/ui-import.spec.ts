/**
 * glTF import in the editor, through the browser host: "New from glTF…" with the keyboard alone,
 * a .glb dropped on the window, and "Replace Mesh from glTF…" on a mesh as one undoable step.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import { expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import '../../shared/formats/index.ts';

/** A GLB of one regular polygon (a triangle fan of `sides` corners). */
async function polygonGlb(sides: number, size = 1): Promise<Uint8Array> {
  const doc = new Document();
  const buf = doc.createBuffer();
  const pos = new Float32Array(sides * 3);
  for (let i = 0; i < sides; i++) pos.set([Math.cos((i / sides) * Math.PI * 2) * size, Math.sin((i / sides) * Math.PI * 2) * size + size, 0], i * 3);
  const prim = doc.createPrimitive().setMode(6).setMaterial(doc.createMaterial('steel'))
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf));
  doc.createScene().addChild(doc.createNode('poly').setMesh(doc.createMesh('poly').addPrimitive(prim)));
  return new WebIO().writeBinary(doc);
}

test('New from glTF with the keyboard alone: import, save, reopen', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.page());
  await expect(page.locator('[data-testid=menubar]')).toBeVisible();
  await page.keyboard.press('Control+Shift+I');
  const dialog = page.getByRole('dialog', { name: 'New from glTF' });
  await expect(dialog).toBeVisible();
  await expect(page.getByLabel('glTF file')).toBeFocused();
  // A file chooser cannot be typed into: the file is handed to the focused input.
  await page.getByLabel('glTF file').setInputFiles({ name: 'hexagon.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(await polygonGlb(6)) });
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Format')).toBeFocused();
  await page.keyboard.type('Legend of Grimrock m');
  await expect(page.getByLabel('Format')).toHaveValue('.model');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Save as')).toBeFocused();
  await expect(page.getByLabel('Save as')).toHaveValue(/hexagon\.model$/);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const tab = page.locator('[data-testid=doc-tab][aria-selected=true]');
  await expect(tab).toContainText('hexagon.model');
  await expect(tab).toHaveAttribute('data-dirty', 'true');
  await expect(page.locator('[data-testid=status-format]')).toHaveText(/Grimrock/);
  await expect(page.locator('[data-testid=notice]')).toContainText('Imported hexagon.glb');
  await page.screenshot({ path: test.info().outputPath('new-from-gltf.png') });
  await page.keyboard.press('Control+s');
  await expect(tab).toHaveAttribute('data-dirty', 'false');
  const saved = new Uint8Array(await readFile(join(lodsmith.root, 'hexagon.model')));
  const codec = detectFormat(saved, 'hexagon.model')!;
  expect(codec.id).toBe('grimrock-model');
  expect(codec.toScene(codec.decode(saved)).meshes[0]!.indices.length / 3).toBe(4);
});

test('a .glb dropped on the window opens New from glTF with it', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.page());
  await expect(page.locator('[data-testid=menubar]')).toBeVisible();
  const bytes = Array.from(await polygonGlb(5));
  await page.evaluate((b) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], 'pentagon.glb', { type: 'model/gltf-binary' }));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  const dialog = page.getByRole('dialog', { name: 'New from glTF' });
  await expect(dialog).toBeVisible();
  await expect(page.locator('[data-testid=gltf-chosen]')).toHaveText('pentagon.glb');
  await page.getByLabel('Format').selectOption('.p3d');
  await expect(page.getByLabel('Save as')).toHaveValue(/pentagon\.p3d$/);
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toContainText('pentagon.p3d');
  await expect(page.locator('[data-testid=status-format]')).toHaveText(/P3D/);
  await expect(page.locator('[data-testid=tree-row][data-kind=lod]')).toHaveCount(1);
});

test('Replace Mesh from glTF is one undoable edit and the preview follows', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  const tab = page.locator('[data-testid=doc-tab][aria-selected=true]');
  await expect(tab).toHaveAttribute('data-dirty', 'false');
  const canvas = page.locator('[data-testid=viewport-canvas]');
  await expect(canvas).toHaveAttribute('data-scene', /:/);
  const sceneBefore = await canvas.getAttribute('data-scene');
  // Open the mesh list with the keyboard, then the first mesh's menu.
  await page.locator('[data-testid=tree-row][data-kind=meshes]').first().click();
  await page.keyboard.press('ArrowRight');
  const mesh = page.locator('[data-testid=tree-row][data-kind=mesh]').first();
  await mesh.click({ button: 'right' });
  const chooser = page.waitForEvent('filechooser');
  await page.locator('[data-testid=menu-replace-gltf]').click();
  await (await chooser).setFiles({ name: 'big-octagon.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(await polygonGlb(8, 3)) });
  await expect(tab).toHaveAttribute('data-dirty', 'true');
  await expect(page.locator('[data-testid=notice]')).toContainText('Replaced from big-octagon.glb');
  // The preview follows: the viewport is given the new revision's scene.
  await expect(canvas).not.toHaveAttribute('data-scene', sceneBefore!);
  await page.screenshot({ path: test.info().outputPath('replace-mesh.png') });
  await page.keyboard.press('Control+z');
  await expect(tab).toHaveAttribute('data-dirty', 'false');
});
