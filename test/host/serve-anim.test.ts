/**
 * `npm run serve -- MODEL --anim ANIM [--anim ANIM2]`: the host opens the model with the
 * animation files attached, so the page shows them on the timeline at once.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, serve } from '../../main/host/serve.ts';
import type { DocSnapshot } from '../../shared/ipc/contract.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { corpusFiles, hasCorpus } from '../helpers/corpus.ts';

const model = corpusFiles('grimrock_model').find((f) => f.includes('skeleton_warrior_axe.model'));
const anims = corpusFiles('grimrock_animation').filter((f) => /skeleton_warrior_axe_(attack|idle)/.test(f));
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.skipIf(!hasCorpus || !model || anims.length < 2)('serve MODEL --anim ANIM', () => {
  it('opens the model with every --anim file attached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-serve-anim-'));
    dirs.push(dir);
    await copyFile(model!, join(dir, 'warrior.model'));
    await copyFile(anims[0]!, join(dir, 'a.animation'));
    await copyFile(anims[1]!, join(dir, 'b.animation'));
    const args = parseServeArgs(['--root', dir, '--config', join(dir, 'cfg'), '--no-sample', join(dir, 'warrior.model'), '--anim', join(dir, 'a.animation'), '--anim', join(dir, 'b.animation')]);
    const host = await serve(args, () => undefined);
    try {
      const list = await host.dispatch('doc:list', undefined);
      expect(list.ok).toBe(true);
      const docs = (list as { value: DocSnapshot[] }).value;
      expect(docs).toHaveLength(1);
      expect(docs[0]!.animations?.map((a) => a.fileName)).toEqual(['a.animation', 'b.animation']);
      const scene = await host.dispatch('doc:scene', { id: docs[0]!.id });
      const clips = (scene as { value: Scene }).value.clips;
      expect(clips.map((c) => c.name)).toEqual([expect.stringMatching(/^(.+ \()?a\.animation\)?$/), expect.stringMatching(/^(.+ \()?b\.animation\)?$/)]);
      // Bound to the model's bones by name.
      expect(clips[0]!.tracks.length).toBeGreaterThan(20);
      expect(clips[0]!.tracks.every((t) => t.target === 'bone' || t.target === 'node')).toBe(true);
    } finally {
      await host.close();
    }
  });
});

describe('desktop app command line', () => {
  it('opens FILEs and attaches --anim ANIM (repeatable, also --anim=ANIM) as absolute paths', async () => {
    const { parseLaunchArgs } = await import('../../main/documents/launch-args.ts');
    expect(parseLaunchArgs(['m/w.model', '--anim', 'a.animation', '--anim=b.animation', '--no-sandbox', '.'], '/x')).toEqual({
      files: ['/x/m/w.model'], anims: ['/x/a.animation', '/x/b.animation'],
    });
    expect(parseLaunchArgs(['--anim', '--inspect'], '/x')).toEqual({ files: [], anims: [] });
  });
});
