/**
 * Field edits on a slow host, made deterministic: every edit the page sends waits on its way to
 * the host until the test releases it (fixtures/slow-host.ts). Typing on while
 * an edit is on its way keeps the text, a second edit sent before the first came back is the one
 * saved and the first one's value never shows in its place, and a colour drag ends on its last move
 * even when the picker was reset by an earlier move's answer. No sleeps: the test waits on state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/index.ts';
import { expectUndoBeforeReRead, holdEditReplies } from './fixtures/slow-host.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { decodeLod } from '../../shared/formats/lodka/decode.ts';

async function openGround(page: Page, root: string, url: string): Promise<string> {
  const file = join(root, 'robot.lod');
  await writeFile(file, encodeLod(buildSampleLod()));
  await page.goto(url);
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Materials', exact: true }).click();
  await page.locator('[data-testid=material-list-item]', { hasText: 'ground' }).click();
  return file;
}

/** Records every value the input shows, frame by frame, from now on (read back with {@link shownValues}). */
async function recordShown(input: Locator): Promise<void> {
  await input.evaluate((el: HTMLInputElement) => {
    const w = window as unknown as { __shown: string[] };
    w.__shown = [el.value];
    const tick = () => {
      if (w.__shown[w.__shown.length - 1] !== el.value) w.__shown.push(el.value);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
const shownValues = (page: Page) => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);

/** The material named `name` in a decoded LODka document. */
function material(doc: unknown, name: string): { options: { shininess: number; diffuse: number[] } } | undefined {
  const seen = new Set<unknown>();
  const walk = (x: unknown): ReturnType<typeof material> => {
    if (!x || typeof x !== 'object' || ArrayBuffer.isView(x) || seen.has(x)) return undefined;
    seen.add(x);
    if ((x as { matName?: string }).matName === name) return x as ReturnType<typeof material>;
    for (const v of Object.values(x)) {
      const m = walk(v);
      if (m) return m;
    }
    return undefined;
  };
  return walk(doc);
}

async function save(page: Page): Promise<void> {
  await page.locator('[data-testid=tree]').focus();
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'false');
}

test('slow host: type 10 Enter, then 20 while the first answer returns, Enter: the 20 typed stays and is saved; two undo steps', async ({ page, lodsmith }) => {
  const file = await openGround(page, lodsmith.root, lodsmith.page({ open: 'models/robot.lod' }));
  const shininess = page.locator('[data-testid=materials-editor] [data-testid=field-shininess] [data-testid=field-input]');
  const slow = await holdEditReplies(page);
  await shininess.fill('10');
  await shininess.press('Enter');
  await expect.poll(() => slow.seen).toBe(1);
  // The edit is on its way: the committed text stays, no longer a draft.
  await expect(shininess).toHaveValue('10');
  await expect(shininess).not.toHaveAttribute('data-draft', 'true');
  // Typing on while the first edit is on its way...
  await page.keyboard.press('Control+a');
  await page.keyboard.type('20');
  await expect(shininess).toHaveAttribute('data-draft', 'true');
  // ...when the host takes it and the editors re-read the stored value (10): wait until every
  // call that set off has been answered, and the page has drawn a frame after them.
  slow.release();
  await expect(page.locator('[data-testid=doc-tab][aria-selected=true]')).toHaveAttribute('data-dirty', 'true');
  await expect.poll(() => slow.pending).toBe(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect.poll(() => slow.pending).toBe(0);
  // What was typed since is the user's next edit: still there, still a draft.
  expect(await shininess.inputValue()).toBe('20');
  await expect(shininess).toHaveAttribute('data-draft', 'true');
  await recordShown(shininess);
  await page.keyboard.press('Enter');
  await expect.poll(() => slow.seen).toBe(2);
  // Committed and on its way: shown, no longer a draft.
  await expect(shininess).toHaveValue('20');
  await expect(shininess).not.toHaveAttribute('data-draft', 'true');
  slow.stop();
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(page.locator('[data-testid=history-step]')).toHaveCount(3);
  await expect(shininess).toHaveValue('20');
  // Not one frame showed anything but the 20 from Enter on.
  expect(await shownValues(page)).toEqual(['20']);
  await save(page);
  const doc = decodeLod(new Uint8Array(await readFile(file)));
  expect(material(doc, 'ground')!.options.shininess).toBe(20);
  // Two committed edits, two undo steps.
  await page.keyboard.press('Control+z');
  await expect(shininess).toHaveValue('10');
});

test('slow host: a colour drag whose picker an earlier answer reset still ends on its last move, as one undo step', async ({ page, lodsmith }) => {
  const file = await openGround(page, lodsmith.root, lodsmith.page({ open: 'models/robot.lod' }));
  const diffuse = page.locator('[data-testid=materials-editor] [data-testid=field-diffuse]');
  const picker = diffuse.locator('[data-testid=color-picker]');
  const before = await picker.inputValue();
  const slow = await holdEditReplies(page);
  const move = (c: string) => picker.evaluate((el: HTMLInputElement, colour) => {
    el.value = colour;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, c);
  await move('#ff0000');
  await expect.poll(() => slow.seen).toBe(1);
  await move('#00ff00');
  await move('#0000ff');
  // The first move reaches the host mid-drag (the queued last move goes out behind it).
  slow.release();
  await expect.poll(() => slow.seen).toBe(2);
  // The picker closes holding the document's older red, as it does when a re-render reset it
  // mid-drag: the drag's answer is still its last move.
  await picker.evaluate((el: HTMLInputElement) => {
    el.value = '#ff0000';
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  slow.stop();
  await expect(picker).toHaveValue('#0000ff');
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(page.locator('[data-testid=history-step]')).toHaveCount(2);
  await save(page);
  const doc = decodeLod(new Uint8Array(await readFile(file)));
  expect(material(doc, 'ground')!.options.diffuse.slice(0, 3)).toEqual([0, 0, 1]);
  // One undo step for the whole drag.
  await page.keyboard.press('Control+z');
  await expect(picker).toHaveValue(before);
});

test('undo right after an edit comes back shows the value from before it, even while the field is re-read', async ({ page, lodsmith }) => {
  // The CI race: 100 Enter, then Ctrl+Z before the inspector re-read the field. The undo puts back
  // the value the field showed before the edit, so the stored value never "changes"; the text sent
  // (100) stayed on screen over the restored 0.
  await openGround(page, lodsmith.root, lodsmith.page({ open: 'models/robot.lod' }));
  const shininess = page.locator('[data-testid=materials-editor] [data-testid=field-shininess] [data-testid=field-input]');
  await expectUndoBeforeReRead(page, shininess, '100');
});

test('slow host: committed edits are separate undo steps however fast they come; only a held arrow key merges', async ({ page, lodsmith }) => {
  await openGround(page, lodsmith.root, lodsmith.page({ open: 'models/robot.lod' }));
  const shininess = page.locator('[data-testid=materials-editor] [data-testid=field-shininess] [data-testid=field-input]');
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const steps = page.locator('[data-testid=history-step]');
  await expect(steps).toHaveCount(1);
  const slow = await holdEditReplies(page);
  // Three committed edits, the last two while the first is still on its way to the host.
  for (const v of ['64', '32', '10']) {
    await shininess.fill(v);
    await shininess.press('Enter');
    if (v === '64') await expect.poll(() => slow.seen).toBe(1);
  }
  slow.stop();
  await expect(steps).toHaveCount(4);
  await expect(shininess).toHaveValue('10');
  await page.keyboard.press('Control+z');
  await expect(shininess).toHaveValue('32');
  await page.keyboard.press('Control+z');
  await expect(shininess).toHaveValue('64');
  await page.keyboard.press('Control+y');
  await page.keyboard.press('Control+y');
  await expect(shininess).toHaveValue('10');

  // Separate presses of an arrow key: one step each, none lost while the previous is on its way.
  await shininess.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(shininess).toHaveValue('12');
  await expect(steps).toHaveCount(6);
  // A held key (its repeats) is one continuous gesture: one step.
  await page.keyboard.down('ArrowUp');
  for (let i = 0; i < 5; i++) await page.keyboard.down('ArrowUp');
  await page.keyboard.up('ArrowUp');
  await expect(shininess).toHaveValue('18');
  await expect(steps).toHaveCount(7);
  await page.keyboard.press('Control+z');
  await expect(shininess).toHaveValue('12');
});
