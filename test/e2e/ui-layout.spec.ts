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
