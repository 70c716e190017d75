/**
 * The window's panes keep to themselves: the viewport's toolbar wraps onto a second line when its
 * pane is narrow instead of running under the editor panel beside it (where it hid the first
 * editor tab). Checked with a P3D model, whose toolbar is the widest (LOD picker, proxy toggles).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/index.ts';
import { openModel } from './fixtures/viewport.ts';
import { buildSampleMlod, withProxy } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';

test('the viewport toolbar stays inside its pane and every editor tab can be clicked', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'crate.p3d'), encodeMlod(withProxy(buildSampleMlod(), 0, '\\a3\\data_f\\proxies\\lamp', [0.3, 0.6, -0.2])));
  await openModel(page, lodsmith.page({ open: 'models/crate.p3d' }));
  const panel = (await page.locator('[data-testid=viewport-panel]').boundingBox())!;
  const screenshot = page.locator('[data-testid=viewport-panel]').getByRole('button', { name: 'Screenshot', exact: true });
  const shot = (await screenshot.boundingBox())!;
  expect(shot.x + shot.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
  for (const name of ['Inspector', 'Materials', 'Proxies', 'Selections']) {
    const tab = page.getByRole('button', { name, exact: true });
    const box = (await tab.boundingBox())!;
    // What a click at the tab's centre would hit is the tab itself.
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent?.trim() ?? '', [box.x + box.width / 2, box.y + box.height / 2]);
    expect(hit.toLowerCase(), name).toBe(name.toLowerCase());
  }
  await page.getByRole('button', { name: 'Inspector', exact: true }).click();
});

test('the timeline shows a long clip name whole, and the "Saved" notice leaves its controls free', async ({ page, lodsmith }) => {
  const { animation, encodeFixture } = await import('../../scripts/fixtures/grimrock.ts');
  const anim = animation(1, 20, ['joint_1', 'joint_2']);
  anim.name = 'skeleton_warrior_axe_attack_overhead_long';
  await writeFile(join(lodsmith.root, 'long.animation'), encodeFixture({ name: 'long.animation', kind: 'animation', doc: anim, covers: '' }));
  await page.goto(lodsmith.page({ open: 'models/long.animation' }));
  const clipSelect = page.getByTestId('clip-select');
  await expect(clipSelect).toBeVisible();
  await clipSelect.selectOption({ index: 1 });
  // The chosen clip's name fits in the list's box (the arrow takes about 24 px of it).
  const fit = await clipSelect.evaluate((el: HTMLSelectElement) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    return { text: ctx.measureText(el.selectedOptions[0]!.text).width, box: el.clientWidth };
  });
  expect(fit.text + 20, JSON.stringify(fit)).toBeLessThanOrEqual(fit.box);

  // Save: the notice appears, and the speed control is still what a click there hits.
  await page.getByRole('tree', { name: 'Document structure' }).focus();
  await page.keyboard.press('Control+s');
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText('Saved');
  const speed = page.getByRole('combobox', { name: 'Playback speed' });
  const a = (await notice.boundingBox())!;
  const b = (await speed.boundingBox())!;
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, `notice ${JSON.stringify(a)} speed ${JSON.stringify(b)}`).toBe(false);
  expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.getAttribute('aria-label'), [b.x + b.width / 2, b.y + b.height / 2])).toBe('Playback speed');

});

test('the "meshes · tris" line and a long selection label share the foot of the view without overlapping', async ({ page, lodsmith }) => {
  const long = `\\a3\\${'structures_f\\'.repeat(8)}proxies\\a_lamp_with_a_rather_long_name`;
  await writeFile(join(lodsmith.root, 'crate.p3d'), encodeMlod(withProxy(buildSampleMlod(), 0, long, [0.3, 0.6, -0.2])));
  await openModel(page, lodsmith.page({ open: 'models/crate.p3d' }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  await page.getByRole('listbox', { name: 'Proxies' }).getByRole('option').first().click();
  const mark = page.getByTestId('highlight-label');
  await expect(mark).toContainText('lamp');
  const stats = page.locator('[data-testid=viewport-panel] .vp-stats');
  await expect(stats).toContainText('tris');
  const a = (await stats.boundingBox())!;
  const b = (await mark.boundingBox())!;
  expect(a.x + a.width, `stats ${JSON.stringify(a)} label ${JSON.stringify(b)}`).toBeLessThanOrEqual(b.x);
  // Both stay inside the view.
  const vp = (await page.getByTestId('viewport-canvas').boundingBox())!;
  expect(b.x + b.width).toBeLessThanOrEqual(vp.x + vp.width + 0.5);
  // The whole label is still there to read on hover.
  await expect(mark).toHaveAttribute('title', /a_lamp_with_a_rather_long_name/);
});
