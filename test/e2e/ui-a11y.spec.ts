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

/** Serious and critical violations, one line each (rule, impact, how many elements, first target). */
async function violations(page: Page, view: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
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
  // Fourteen full axe scans of a page with a 3D view: about a minute on a loaded machine.
  test.setTimeout(240_000);
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
