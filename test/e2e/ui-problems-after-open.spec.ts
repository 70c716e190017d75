/**
 * The editor's open answers before the model's problems are found (the codec's validation and the
 * modding rules run after the answer, for the first frame's sake) and the Problems panel, the tab's
 * badge and the status bar show them when the host's `doc:problems` event brings them, without
 * the preview building its scene again.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/index.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { decodeEnvelope } from '../../shared/ipc/wire.ts';
import type { OpenedDoc, Result } from '../../shared/ipc/contract.ts';

test('a generated MLOD breaking a modding rule: the open answers without its problems, the Problems panel shows them right after', async ({ page, lodsmith }) => {
  const dir = join(lodsmith.root, 'rules-later');
  await mkdir(dir, { recursive: true });
  const c = cube(1);
  await writeFile(join(dir, 'box.p3d'), encodeMlod(buildMlod([buildLod({
    resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => 'P:/mymod/box_co.paa'),
  })])));
  // The preview's scene came with the open: the problems arriving later ask for none.
  const sceneRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith(`/api/${encodeURIComponent('doc:scene')}`)) sceneRequests.push(r.url());
  });
  await page.goto(lodsmith.page());
  await page.getByTestId('welcome-open').click();
  await page.locator('[data-testid=file-entry][data-name="rules-later"]').dblclick();
  await page.locator('[data-testid=file-entry][data-name="box.p3d"]').click();
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/${encodeURIComponent('doc:open')}`));
  await page.getByTestId('file-dialog-ok').click();

  // The open's answer: the scene, no problems yet.
  const result = decodeEnvelope(new Uint8Array(await (await answer).body())) as Result<OpenedDoc>;
  if (!result.ok) throw new Error(result.error.message);
  expect(result.value.scene?.meshes.length).toBeGreaterThan(0);
  expect(result.value.problemsPending).toBe(true);
  expect(result.value.problems).toEqual([]);

  // Then the rules' findings, each with its id, in the panel, the badge and the status bar.
  await page.getByTestId('tab-problems').click();
  const rows = page.getByTestId('problem-row');
  await expect(rows.filter({ hasText: '[path-absolute]' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '[path-forward-slash]' })).toHaveCount(1);
  await expect(page.getByTestId('problems-pending')).toHaveCount(0);
  const shown = await rows.count();
  await expect(page.getByTestId('tab-problems').locator('.badge')).toHaveText(String(shown));
  await expect(page.getByTestId('status-bar')).toContainText(/\d+ errors?/);
  // The list is the host's own for the document (what any later snapshot carries).
  const listed = await lodsmith.invoke('doc:list', undefined);
  if (!listed.ok) throw new Error(listed.error.message);
  expect(listed.value[0]!.problems).toHaveLength(shown);
  expect(sceneRequests).toEqual([]);
});
