/**
 * Animation files on a model: matching by bone and node names, re-addressing tracks to the model,
 * and the document service's attach / detach / candidates (refusing a file that drives nothing).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { attachedClipName, bindClips, isAttachedClipOf, matchAnimation } from '../../shared/scene/attach.ts';
import { IDENTITY, type AnimationClip, type Scene } from '../../shared/scene/scene.ts';
import { corpusFiles, hasCorpus } from '../helpers/corpus.ts';

const model: Scene = {
  nodes: [{ name: 'root', parent: -1, matrix: [...IDENTITY] }, { name: 'door', parent: 0, matrix: [...IDENTITY] }],
  meshes: [], materials: [], clips: [],
  skeleton: { bones: [{ name: 'hip', parent: -1, matrix: [...IDENTITY] }, { name: 'knee', parent: 0, matrix: [...IDENTITY] }] },
};
const track = (name: string) => ({ bone: 99, targetName: name, times: Float32Array.of(0, 1), translations: new Float32Array(6) });
const clip: AnimationClip = { name: 'walk', duration: 1, frames: 2, tracks: [track('knee'), track('door'), track('tail')] };

describe('binding animation clips to a model by name', () => {
  it('counts the targets the model has', () => {
    expect(matchAnimation(model, [clip])).toEqual({ matched: 2, total: 3 });
    expect(matchAnimation(model, [{ ...clip, tracks: [track('wing')] }])).toEqual({ matched: 0, total: 1 });
  });
  it('names attached clips by their file', () => {
    expect(attachedClipName('walk', 'ogre.animation')).toBe('walk (ogre.animation)');
    expect(attachedClipName('', 'ogre.animation')).toBe('ogre.animation');
    expect(isAttachedClipOf('walk (ogre.animation)', 'ogre.animation')).toBe(true);
    expect(isAttachedClipOf('ogre.animation', 'ogre.animation')).toBe(true);
    expect(isAttachedClipOf('walk (big_ogre.animation)', 'ogre.animation')).toBe(false);
  });
  it('re-addresses tracks to bones, then nodes, and leaves out the rest', () => {
    const [bound] = bindClips(model, [clip]);
    expect(bound!.tracks.map((t) => [t.targetName, t.target, t.bone])).toEqual([['knee', 'bone', 1], ['door', 'node', 1]]);
    expect(bindClips(model, [{ ...clip, tracks: [track('wing')] }])).toEqual([]);
  });
});

const warrior = corpusFiles('grimrock_model').find((f) => f.includes('skeleton_warrior_axe.model'));
const attack = corpusFiles('grimrock_animation').find((f) => f.includes('skeleton_warrior_axe_attack'));
const lever = corpusFiles('grimrock_animation').find((f) => f.includes('rc_lever_down'));
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.skipIf(!hasCorpus || !warrior || !attack || !lever)('document service: attached animations', () => {
  it('lists matching files, attaches, plays in the scene, refuses a stranger, detaches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-attach-'));
    dirs.push(dir);
    await copyFile(warrior!, join(dir, 'w.model'));
    await copyFile(attack!, join(dir, 'attack.animation'));
    await copyFile(lever!, join(dir, 'lever.animation'));
    const svc = new DocumentService({ configDir: join(dir, 'cfg') });
    const doc = await svc.open(join(dir, 'w.model'));
    const found = await svc.animationCandidates(doc.id);
    expect(found.map((c) => c.fileName)).toEqual(['attack.animation']);
    expect(found[0]!.matched).toBe(found[0]!.total);
    await expect(svc.attachAnimation(doc.id, join(dir, 'lever.animation'))).rejects.toMatchObject({ appError: { message: expect.stringMatching(/has none of them/) } });
    const snap = await svc.attachAnimation(doc.id, join(dir, 'attack.animation'));
    expect(snap.animations?.map((a) => a.fileName)).toEqual(['attack.animation']);
    expect(snap.revision).toBeGreaterThan(doc.revision);
    // Listed by file (the corpus clip has no name of its own).
    expect(svc.scene(doc.id).clips.map((c) => c.name)).toEqual(['attack.animation']);
    const after = await svc.detachAnimation(doc.id, 0);
    expect(after.animations).toBeUndefined();
    expect(svc.scene(doc.id).clips).toEqual([]);
  });
});
