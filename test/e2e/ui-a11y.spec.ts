/**
 * Readable and usable without a mouse: axe-core finds no serious or critical violations on the
 * main views (a model loaded, a node selected, each editor tab, a dialog open, an MLOD document
 * open), body text is at least 12 px, and node paths read the same in the status bar, the
 * inspector and the Problems list.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

/**
 * Serious and critical violations, one line each (rule, impact, how many elements, first target).
 * axe's experimental label-content-name-mismatch is on too: a control whose accessible name
 * leaves out words it shows (a tab's format badge) cannot be called by what voice users see.
 */
async function violations(page: Page, view: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${view}: ${v.id} (${v.impact}) on ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The smallest font size of any visible text on the page. */
async function smallestText(page: Page): Promise<{ size: number; text: string }> {
  return page.evaluate(() => {
    let best = { size: Infinity, text: '' };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent?.trim();
      const el = n.parentElement;
      if (!t || !el || !el.getClientRects().length) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      const size = parseFloat(cs.fontSize);
      if (size < best.size) best = { size, text: t.slice(0, 40) };
    }
    return best;
  });
}

test('no serious or critical axe violations on the main views; text at least 12 px', async ({ page, lodsmith }) => {
  // Fourteen full axe scans of a page with a 3D view: about a minute on a quiet machine, four on a shared one.
  test.setTimeout(420_000);
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await writeFile(join(lodsmith.root, 'sample-mlod.p3d'), encodeMlod(buildSampleMlod()));
  const found: string[] = [];
  await page.goto(lodsmith.url);
  await expect(page.getByRole('button', { name: /Open the sample model/ })).toBeVisible();
  found.push(...(await violations(page, 'welcome')));

  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.getByRole('tab', { name: 'robot.lod' })).toBeVisible();
  found.push(...(await violations(page, 'model loaded')));

  await page.locator('[data-testid=tree-row]', { hasText: 'MAL1' }).click();
  await page.getByRole('tree', { name: 'Document structure' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('[data-testid=inspector-title]')).toBeVisible();
  found.push(...(await violations(page, 'node selected')));
  const small = await smallestText(page);
  expect(small.size, `smallest text: "${small.text}"`).toBeGreaterThanOrEqual(12);

  for (const tab of ['Materials', 'Proxies', 'Colliders', 'Lights']) {
    await page.getByRole('button', { name: tab, exact: true }).click();
    const item = { Materials: '[data-testid=material-list-item]', Proxies: '[data-testid=proxy-item]', Colliders: '[data-testid=collider-item]', Lights: '[data-testid=light-expand]' }[tab]!;
    await page.locator(item).first().click();
    found.push(...(await violations(page, `${tab} editor`)));
  }
  for (const tab of ['Bytes', 'History', 'Problems']) {
    await page.getByRole('button', { name: tab, exact: true }).click();
    found.push(...(await violations(page, `${tab} panel`)));
  }

  await page.keyboard.press('Control+o');
  await expect(page.getByRole('dialog', { name: 'Open model' })).toBeVisible();
  await expect(page.locator('[data-testid=file-entry]').first()).toBeVisible();
  found.push(...(await violations(page, 'open dialog')));
  await page.keyboard.press('Escape');

  await page.goto(lodsmith.page({ open: 'models/sample-mlod.p3d' }));
  await expect(page.getByRole('tab', { name: 'sample-mlod.p3d' })).toBeVisible();
  await page.locator('[data-testid=tree-row]').nth(1).click();
  found.push(...(await violations(page, 'MLOD document')));
  // Every editor tab the MLOD document offers (P3D materials, proxies, selections...).
  const tabs = page.locator('.right .tabs [data-testid^=tab-]');
  for (let i = 0; i < (await tabs.count()); i++) {
    const t = tabs.nth(i);
    const name = (await t.textContent())!.trim();
    await t.click();
    found.push(...(await violations(page, `MLOD ${name} tab`)));
  }
  const smallMlod = await smallestText(page);
  expect(smallMlod.size, `smallest text: "${smallMlod.text}"`).toBeGreaterThanOrEqual(12);

  expect(found).toEqual([]);
});

test('a node path is written the same way in the status bar, the inspector and Problems', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  await page.locator('[data-testid=proxy-item]', { hasText: 'Left arm' }).click();
  // Point the item at a mesh that does not exist so Problems reports it.
  await page.getByRole('button', { name: 'Inspector', exact: true }).click();
  const raw = page.locator('[data-testid=inspector] [data-testid=field-sourceMeshIndex] [data-testid=field-input]');
  await raw.fill('99');
  await raw.press('Enter');
  const where = page.locator('[data-testid=problem-where]').first();
  await expect(where).toHaveText(/\S/);
  const inProblems = (await where.textContent())!.trim();
  expect(inProblems).toMatch(/^LOD1\/PXL1\/PXI1\[0\]\/items\[1\]/);
  // The problem names the field; the inspector and the status bar name its node the same way.
  const node = (await page.locator('[data-testid=inspector-path]').textContent())!.split(' · ')[0]!.trim();
  expect(node).toBe('LOD1/PXL1/PXI1[0]/items[1]');
  expect(inProblems.startsWith(`${node}/`)).toBe(true);
  await expect(page.locator('[data-testid=status-selection]')).toHaveText(new RegExp(`^${node.replace(/[[\]/]/g, '\\$&')}\\s`));
});

test('no serious or critical axe violations with every dialog, menu and the texture view open', async ({ page, lodsmith }) => {
  // About fifteen full axe scans on a page with a 3D view.
  test.setTimeout(420_000);
  const { grimrockFixtures, encodeFixture } = await import('../../scripts/fixtures/grimrock.ts');
  const { buildLod, buildMlod, cube } = await import('../../scripts/fixtures/mlod.ts');
  const { createPaa, encodePaa } = await import('../../shared/formats/texture/paa.ts');
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  for (const f of grimrockFixtures().filter((x) => x.name === 'all-float.model' || x.name === 'swing-v1.animation')) await writeFile(join(lodsmith.root, f.name), encodeFixture(f));
  const c = cube(1);
  // A P3D naming a texture that is nowhere (a Problems entry) and a PAA to open on its own.
  await writeFile(join(lodsmith.root, 'lost.p3d'), encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, normals: c.points.map((v) => -v), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map((_, i) => `P:\\nowhere\\${i === 5 ? 'a_rather_long_folder_name\\'.repeat(6) : ''}gone_${i}_co.paa`) }), buildLod({ resolution: 1e13, ...c, tags: [{ type: 'mass', name: '#Mass#', active: 1, masses: new Float32Array(8).fill(10) }] })])));
  // The modding rules (which link their findings to faces) are turned off here, so the list holds
  // only entries that are not links; the rules' own panel tests are in ui-repath and the rule tests.
  const { P3D_RULES } = await import('../../shared/formats/p3d/rules.ts');
  await writeFile(join(lodsmith.root, 'lodsmith.json'), JSON.stringify({ rules: Object.fromEntries(P3D_RULES.map((r) => [r.id, 'off'])) }));
  await writeFile(join(lodsmith.root, 'brick_co.paa'), encodePaa(createPaa({ width: 16, height: 16, data: new Uint8Array(16 * 16 * 4).fill(200) })));
  const found: string[] = [];
  const scan = async (view: string) => found.push(...(await violations(page, view)));

  // The Problems list with more entries than it shows, none of them a link (missing textures name
  // no node), and the main screen around it.
  await page.goto(lodsmith.page({ open: 'models/lost.p3d' }));
  await expect(page.locator('[data-testid=problem-row]').filter({ hasText: 'texture not found' })).toHaveCount(6);
  await expect(page.locator('[data-testid=problem-row] button')).toHaveCount(0);
  await page.getByTestId('tab-problems').click();
  const split = page.locator('.centre > .splitter.h');
  const box = (await split.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 150, { steps: 5 });
  await page.mouse.up();
  const list = page.getByTestId('problems');
  await expect.poll(() => list.evaluate((el) => [el, el.parentElement!].some((e) => e.scrollHeight > e.clientHeight + 4))).toBe(true);
  await scan('Problems with entries');
  // Layout: the columns wrap instead of widening the list, so no message hides behind a
  // horizontal scrollbar, however long the entry's place is.
  expect(await list.evaluate((el) => [el, el.parentElement!].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);
  const right = await list.evaluate((el) => el.getBoundingClientRect().right);
  for (const msg of await page.locator('[data-testid=problem-row] .msg').all()) expect((await msg.boundingBox())!.x + (await msg.boundingBox())!.width).toBeLessThanOrEqual(right + 1);

  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.getByRole('tab', { name: /robot\.lod/ })).toBeVisible();
  const dialogs: [string, string, string][] = [
    ['Control+o', 'Open model', 'Open dialog'],
    ['Control+Shift+s', 'Save as', 'Save As dialog'],
    ['Control+,', 'Settings', 'Settings dialog'],
    ['Control+Shift+i', 'New from glTF', 'glTF import dialog'],
  ];
  for (const [key, name, view] of dialogs) {
    await page.getByRole('tree', { name: 'Document structure' }).focus();
    await page.keyboard.press(key);
    const d = page.getByRole('dialog', { name: new RegExp(name) });
    await expect(d).toBeVisible();
    await page.waitForTimeout(300);
    await scan(view);
    await page.keyboard.press('Escape');
    await expect(d).toHaveCount(0);
  }

  // The tree's context menu and the document tabs' list.
  await page.locator('[data-testid=tree-row]').first().click({ button: 'right' });
  await expect(page.getByRole('menu')).toBeVisible();
  await scan('tree context menu');
  await page.keyboard.press('Escape');

  // Unsaved changes, then the question before closing.
  await page.getByRole('button', { name: 'Lights', exact: true }).click();
  await page.getByRole('button', { name: 'Inspector', exact: true }).click();
  await page.locator('[data-testid=tree-row]', { hasText: 'MAL1' }).click();
  await page.getByRole('tree', { name: 'Document structure' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const input = page.locator('[data-testid=inspector] [data-testid=field-input]').first();
  await expect(input).toBeVisible();
  await input.focus();
  if ((await input.getAttribute('type')) === 'checkbox') await input.press('Space');
  else {
    await input.fill('7');
    await input.press('Enter');
  }
  await expect(page.locator('[data-testid=doc-tab][data-dirty=true]')).toHaveCount(1);
  await page.getByRole('tree', { name: 'Document structure' }).focus();
  await page.keyboard.press('Control+w');
  const ask = page.getByRole('dialog', { name: /Save changes/ });
  await expect(ask).toBeVisible();
  await scan('unsaved changes dialog');
  await page.keyboard.press('Escape');

  // The texture view.
  await page.goto(lodsmith.page({ open: 'models/brick_co.paa' }));
  await expect(page.getByRole('dialog', { name: 'Texture brick_co.paa' })).toBeVisible();
  await scan('texture view');

  // A model that plays animation files: the Animations panel and the attach dialog.
  await page.goto(lodsmith.page({ open: 'models/all-float.model' }));
  await expect(page.getByRole('tab', { name: /all-float\.model/ })).toBeVisible();
  await scan('Grimrock model');
  await page.getByRole('button', { name: /Animations/ }).click();
  await expect(page.getByTestId('attach-other')).toBeVisible();
  await scan('Animations panel');
  await page.getByTestId('attach-other').click();
  const attach = page.getByRole('dialog').first();
  await expect(attach).toBeVisible();
  await page.waitForTimeout(300);
  await scan('attach animation dialog');
  await page.keyboard.press('Escape');

  expect(found).toEqual([]);
});
