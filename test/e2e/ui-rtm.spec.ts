/**
 * Arma animations played on P3D models, end to end in Chromium against the browser host: an RTM
 * attached to an ODOL character (corpus) and to an MLOD model (generated: its named selections are
 * the bones) through the Animations panel moves the mesh while the timeline scrubs, the bones of
 * the scene sit where the RTM's matrices put them, and a mismatched pair lists the missing bones
 * in Problems.
 */
import { readFileSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumArgs, chromiumPath, expect, test, type LodsmithHost } from './fixtures/index.ts';
import { frameDiff, openModel, viewportIdle, viewportPixels } from './fixtures/viewport.ts';
import { corpusFiles, hasCorpus } from '../helpers/corpus.ts';
import { buildPuppetRtm, buildRtmPuppet } from '../../scripts/fixtures/rtm.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { decodeRtm, encodeRtm } from '../../shared/formats/p3d/rtm/io.ts';
import { formatById } from '../../shared/formats/index.ts';
import { rtmToScene } from '../../shared/formats/p3d/rtm/pose.ts';
import type { PlainRtmDocument } from '../../shared/formats/p3d/rtm/types.ts';
import { aboutPoint } from '../../shared/scene/mat4.ts';
import { boneWorldsAtKey } from '../helpers/skinning.ts';
import type { Scene } from '../../shared/scene/scene.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const corpus = (folder: string, part: string) => corpusFiles(folder).find((f) => f.includes(part));
const odolCodec = formatById('p3d-odol');

/** Attaches `fileName` from the Animations panel's list of matching files beside the model. */
async function attach(page: Page, fileName: string): Promise<void> {
  await page.getByTestId('animations').click();
  const panel = page.getByRole('dialog', { name: 'Animations' });
  await panel.getByRole('button', { name: `Attach ${fileName}` }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText(fileName);
}

/** The canvas at the start and in the middle of the clip differ: the mesh (or the joints) moves. */
async function expectMoves(page: Page, least = 0.3): Promise<void> {
  await page.getByTestId('time-slider').fill('0');
  await viewportIdle(page);
  const a = await viewportPixels(page);
  await page.getByTestId('time-slider').fill(String(Number(await page.getByTestId('time-slider').getAttribute('max')) * 0.6));
  await viewportIdle(page);
  const b = await viewportPixels(page);
  expect(frameDiff(a, b), 'the animation moves the mesh').toBeGreaterThan(least);
}

/**
 * The scene the page plays (through the host API): at each frame's time, each RTM bone's world
 * matrix (its track's TRS composed down the skeleton) is the RTM matrix in scene axes, turned
 * about the model's own origin where the model is stored relative to another point (`origin`:
 * an auto-centred ODOL's, Scene.modelOrigin).
 */
async function expectBonesFollow(lodsmith: LodsmithHost, fileName: string, rtm: PlainRtmDocument, bones: readonly string[], origin?: [number, number, number]): Promise<void> {
  const list = await lodsmith.invoke('doc:list', undefined as never);
  if (!list.ok) throw new Error(list.error.message);
  const doc = list.value.find((d) => !d.fileName.endsWith('.rtm'))!;
  const res = await lodsmith.invoke('doc:scene', { id: doc.id });
  if (!res.ok) throw new Error(res.error.message);
  const scene = res.value as Scene;
  const clip = scene.clips.find((c) => c.name.includes(fileName))!;
  expect(clip).toBeDefined();
  const skel = scene.skeleton!.bones;
  for (const k of [0, Math.floor(rtm.frames.length / 2), rtm.frames.length - 1]) {
    // One key per frame, at the same time in every track.
    const time = clip.tracks[0]!.times[k]!;
    for (const t of clip.tracks) if (t.target === 'bone') expect(t.times[k]).toBeCloseTo(time, 6);
    const world = boneWorldsAtKey(scene.skeleton!, clip, k);
    for (const name of bones) {
      const i = skel.findIndex((b) => b.name.toLowerCase() === name.toLowerCase());
      expect(i, name).toBeGreaterThanOrEqual(0);
      const matrix = rtmToScene(rtm.frames[k]!.matrices, rtm.bones.indexOf(name) * 12);
      const want = origin ? aboutPoint(matrix, origin) : matrix;
      world[i]!.forEach((v, j) => expect(Math.abs(v - want[j]!), `${name} at frame ${k}`).toBeLessThan(2e-3));
    }
  }
}

test.describe('RTM animations on P3D models', () => {
  test('an RTM plays on an ODOL character; a mismatched pair lists its missing bones in Problems', async ({ page, lodsmith }) => {
    test.slow();
    const man = corpus('p3d_odol', 'man_bandit');
    const gesture = corpus('rtm', 'map_in.rtm');
    test.skip(!hasCorpus || !man || !gesture, 'corpus files absent');
    await copyFile(man!, join(lodsmith.root, 'man_bandit.p3d'));
    await copyFile(gesture!, join(lodsmith.root, 'map_in.rtm'));
    await openModel(page, lodsmith.page({ open: 'models/man_bandit.p3d' }));
    await page.getByTestId('frame').click();
    await attach(page, 'map_in.rtm');
    await expectMoves(page);
    // Proxies ride on the bones the file names: the binoculars in the left hand the gesture
    // raises to the chest move with it; the launcher on its own bone, which the gesture leaves, stays.
    const labelAt = async (text: string): Promise<[number, number]> => {
      const style = await page.getByTestId('proxy-label').filter({ hasText: text }).getAttribute('style');
      const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(style ?? '');
      expect(m, `${text} label placed`).not.toBeNull();
      return [Number(m![1]), Number(m![2])];
    };
    const slider = page.getByTestId('time-slider');
    await slider.fill('0');
    await viewportIdle(page);
    const [handRest, launcherRest] = [await labelAt('dalekohled_proxy'), await labelAt('rpg7_proxy')];
    await slider.fill(String(Number(await slider.getAttribute('max')) * 0.6));
    await viewportIdle(page);
    const [handMid, launcherMid] = [await labelAt('dalekohled_proxy'), await labelAt('rpg7_proxy')];
    expect(Math.hypot(handMid[0] - handRest[0], handMid[1] - handRest[1]), 'the binoculars move with the hand').toBeGreaterThan(20);
    expect(Math.hypot(launcherMid[0] - launcherRest[0], launcherMid[1] - launcherRest[1]), 'the launcher stays').toBeLessThan(2);
    const rtm = decodeRtm(new Uint8Array(readFileSync(gesture!))) as PlainRtmDocument;
    // The man is auto-centred: the RTM turns his parts about his own origin, not his bounding centre.
    const origin = odolCodec.toScene!(odolCodec.decode(new Uint8Array(readFileSync(man!)))).modelOrigin;
    expect(origin).toBeDefined();
    await expectBonesFollow(lodsmith, 'map_in.rtm', rtm, ['Spine', 'RightHand', 'LeftForeArm', 'Head'], origin);
    // The mod's weapon bones are not the character's: both are listed, with the file they come from.
    await page.locator('[data-testid=tab-problems]').click();
    const rows = page.getByTestId('problem-row');
    await expect(rows.filter({ hasText: 'bone "M136" of map_in.rtm does not exist in the skeleton of man_bandit.p3d' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'bone "M16A2" of map_in.rtm does not exist' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'are never moved by map_in.rtm' })).toHaveCount(1);
  });

  test('an RTM plays on an MLOD model whose named selections are its bones', async ({ page, lodsmith }) => {
    test.slow();
    await writeFile(join(lodsmith.root, 'puppet.p3d'), encodeMlod(buildRtmPuppet()));
    const rtm = buildPuppetRtm();
    await writeFile(join(lodsmith.root, 'puppet.rtm'), encodeRtm(rtm));
    await openModel(page, lodsmith.page({ open: 'models/puppet.p3d' }));
    await page.getByTestId('frame').click();
    await attach(page, 'puppet.rtm');
    await expectMoves(page);
    await expectBonesFollow(lodsmith, 'puppet.rtm', rtm, rtm.bones);
    await page.locator('[data-testid=tab-problems]').click();
    await expect(page.getByTestId('problem-row').filter({ hasText: 'does not exist' })).toHaveCount(0);
  });

  test('an .rtm opened alone shows its bones moving on the timeline', async ({ page, lodsmith }) => {
    test.slow();
    await writeFile(join(lodsmith.root, 'puppet.rtm'), encodeRtm(buildPuppetRtm()));
    await openModel(page, lodsmith.page({ open: 'models/puppet.rtm' }));
    await expect(page.getByTestId('timeline')).toBeVisible();
    await page.getByTestId('clip-select').selectOption({ index: 1 });
    // Only the joints are drawn (a few pixels each): a smaller change than a moving mesh.
    await expectMoves(page, 0.02);
    // The tree shows the file's parts: properties, bones, frames.
    await expect(page.getByTestId('tree')).toContainText('RTM_MDAT');
    await expect(page.getByTestId('tree')).toContainText('frames');
  });

  test('an .rtm dropped on an open P3D model is attached to it', async ({ page, lodsmith }) => {
    test.slow();
    await writeFile(join(lodsmith.root, 'puppet.p3d'), encodeMlod(buildRtmPuppet()));
    await openModel(page, lodsmith.page({ open: 'models/puppet.p3d' }));
    const bytes = Array.from(encodeRtm(buildPuppetRtm()));
    await page.evaluate((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'dropped_puppet.rtm'));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    }, bytes);
    await expect(page.locator('[data-testid=notice]')).toContainText('Attached dropped_puppet.rtm');
    // Attached to the model (no new tab), and it plays.
    await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
    await expect(page.getByTestId('timeline')).toBeVisible();
    await expect(page.getByTestId('clip-select').locator('option:checked')).toContainText('dropped_puppet.rtm');
    await page.getByTestId('frame').click();
    await expectMoves(page);
  });
});
