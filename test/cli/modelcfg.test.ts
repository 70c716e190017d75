/**
 * model.cfg in the CLI: `info` lists class, skeleton, animations and sources; `validate` checks
 * the config against the model with file and line; `convert --pose` writes the model posed, and
 * `convert` alone writes one glTF animation per source whose last key is that pose.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/program.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { gltfStats, readDoc } from '../helpers/gltf-stats.ts';
import { memoryIO } from './helpers/memory-io.ts';
import { gltfErrors } from './helpers/validate-gltf.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-modelcfg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const house = join(corpusDir, 'modelcfg', 'dayz_test_building', 'sample_building.p3d');
const trench = join(corpusDir, 'modelcfg', 'grad_trenches_assets', 'trench_short.p3d');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

describe.skipIf(!existsSync(house))('model.cfg in the CLI (corpus pairs)', () => {
  it('info lists the model class, skeleton, animations and sources', async () => {
    const r = await cli(['info', house]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/model class\s+sample_building \(.*model\.cfg:28\)/);
    expect(r.out).toMatch(/skeleton\s+Skeleton_3doors, 3 bone\(s\): door1, door2, door3/);
    expect(r.out).toMatch(/sources\s+doorsTwin1 0\.\.1, door3 0\.\.1/);
    expect(r.out).toMatch(/Door2\s+rotation\s+door2\s+doorsTwin1\s+0\.\.1\s+0\.\.-1\.4 rad/);
    const j = JSON.parse((await cli(['info', '--json', trench])).out) as { modelCfg: { class: string; sources: { name: string; min: number; max: number }[]; animations: { source: string; type: string }[] } };
    expect(j.modelCfg.class).toBe('trench_short');
    expect(j.modelCfg.sources).toEqual([{ name: 'rise', min: -1.2, max: 0, animations: ['rise'] }]);
    expect(j.modelCfg.animations[0]).toMatchObject({ type: 'translationY', source: 'rise' });
  });

  it('convert --pose opens the doors; a source the model does not use warns and exits 0', async () => {
    const rest = gltfStats(await readDoc(readFileSync((await convert([]))!)));
    const open = gltfStats(await readDoc(readFileSync((await convert(['--pose', 'doorsTwin1=1']))!)));
    // The double doors swing out of the front wall (P3D z = 3.43, scene z = -3.43) by their 1.3 m width.
    expect(open.min[2]!).toBeLessThan(rest.min[2]! - 0.4);
    expect(open.triangles).toBe(rest.triangles);
    const out = join(tmp, 'unused.glb');
    const r = await cli(['convert', house, out, '--pose', 'noSuchSource=1']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/--pose nosuchsource: .*nothing moved/);
    const still = gltfStats(await readDoc(readFileSync(out)));
    expect(still.min).toEqual(rest.min);
    expect((await cli(['convert', house, out, '--pose', 'door3'])).code).toBe(2);
  });

  it('convert writes one animation per source; its last key is the pose at the top of the range', async () => {
    const file = join(tmp, 'anim.glb');
    const r = await cli(['convert', house, file]);
    expect(r.code).toBe(0);
    const bytes = new Uint8Array(readFileSync(file));
    expect((await gltfErrors(bytes)).errors).toEqual([]);
    const doc = await readDoc(bytes);
    const anims = doc.getRoot().listAnimations();
    expect(anims.map((a) => a.getName()).sort()).toEqual(['door3', 'doorsTwin1']);
    // Put every channel of doorsTwin1 at its last key and measure what glTF draws.
    for (const ch of anims.find((a) => a.getName() === 'doorsTwin1')!.listChannels()) {
      const out = ch.getSampler()!.getOutput()!;
      const v: number[] = out.getElement(out.getCount() - 1, []);
      const node = ch.getTargetNode()!;
      const path = ch.getTargetPath();
      if (path === 'translation') node.setTranslation(v as [number, number, number]);
      else if (path === 'rotation') node.setRotation(v as [number, number, number, number]);
      else if (path === 'scale') node.setScale(v as [number, number, number]);
    }
    const animated = gltfStats(doc);
    const posed = gltfStats(await readDoc(readFileSync((await convert(['--pose', 'doorsTwin1=1']))!)));
    for (let a = 0; a < 3; a++) {
      expect(animated.min[a]!).toBeCloseTo(posed.min[a]!, 4);
      expect(animated.max[a]!).toBeCloseTo(posed.max[a]!, 4);
    }
  });

  it('validate checks the config against the model, with the config file and line', async () => {
    const cfg = join(tmp, 'broken.cfg');
    writeFileSync(cfg, [
      'class CfgSkeletons { class S { isDiscrete = 1; skeletonInherit = "";',
      '  skeletonBones[] = {"door2", "door1", "door1", "", "door3", "", "nobody", ""}; }; };',
      'class CfgModels { class sample_building { skeletonName = "S"; class Animations {',
      '  class a { type = "rotation"; source = "x"; selection = "door1"; axis = "missing_axis"; angle1 = 1; };',
      '  class b { type = "rotation"; source = "x"; selection = "notabone"; axis = "door1_axis"; angle1 = 1; };',
      '  class c { type = "hide"; source = "x"; selection = "door3"; };',
      '}; }; };',
    ].join('\n'));
    const r = await cli(['validate', house, '--model-cfg', cfg]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/broken\.cfg:2 .*bone door2: parent door1 is declared after it/);
    expect(r.out).toMatch(/broken\.cfg:2 .*bone nobody has no named selection/);
    expect(r.out).toMatch(/broken\.cfg:4 .*animation a: axis missing_axis has no points in the Memory LOD/);
    expect(r.out).toMatch(/broken\.cfg:5 .*animation b: selection notabone is not a bone of S/);
    expect(r.out).toMatch(/broken\.cfg:5 .*animation b: selection notabone is not a named selection of any visual LOD/);
    expect(r.out).toMatch(/broken\.cfg:6 .*hide animation's selection door3 should be in sections\[\]/);
    const none = join(tmp, 'none.cfg');
    writeFileSync(none, 'class CfgModels { class other {}; };');
    expect((await cli(['validate', house, '--model-cfg', none])).out).toMatch(/none\.cfg:1 .*no class sample_building in CfgModels/);
    const bad = join(tmp, 'bad.cfg');
    writeFileSync(bad, 'class CfgModels {\n  class x { a = 1 };\n};');
    const e = await cli(['validate', house, '--model-cfg', bad]);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/bad\.cfg:2:\d+: expected ;/);
  });

  it('an ODOL model plays its compiled animations: the bear trap closes with --pose and has one animation per source', async () => {
    const trap = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');
    if (!existsSync(trap)) return;
    const info = await cli(['info', trap]);
    expect(info.out).toMatch(/sources\s+user 0\.\.1/);
    expect(info.out).toMatch(/LeftShutter\s+rotation\s+left_shutter\s+user/);
    const open = join(tmp, 'trap-open.glb');
    const shut = join(tmp, 'trap-shut.glb');
    expect((await cli(['convert', trap, open])).code).toBe(0);
    expect((await cli(['convert', trap, shut, '--pose', 'user=1'])).code).toBe(0);
    const a = await readDoc(readFileSync(open));
    expect(a.getRoot().listAnimations().map((x) => x.getName())).toEqual(['user']);
    // In its own space (the glTF moves it by its bounding centre) the trap rests on the ground.
    // Open, it lies flat (6 cm high); shut, its jaws stand up 25 cm over the base.
    const openStats = gltfStats(a), shutStats = gltfStats(await readDoc(readFileSync(shut)));
    expect(Math.abs(openStats.min[1]!)).toBeLessThan(0.01);
    expect(openStats.max[1]! - openStats.min[1]!).toBeLessThan(0.08);
    expect(shutStats.max[1]! - shutStats.min[1]!).toBeGreaterThan(0.15);
  });

  it('check fails a model whose model.cfg has an error, with the config file and line', async () => {
    const dir = join(tmp, 'checked');
    mkdirSync(dir, { recursive: true });
    copyFileSync(house, join(dir, 'sample_building.p3d'));
    copyFileSync(join(house, '..', 'model.cfg'), join(dir, 'model.cfg'));
    expect((await cli(['check', '--jobs', '1', dir])).code).toBe(0);
    writeFileSync(join(dir, 'model.cfg'), 'class CfgSkeletons { class S { skeletonBones[] = {"door1", "door2", "door2", ""}; }; };\nclass CfgModels { class sample_building { skeletonName = "S"; }; };\n');
    const r = await cli(['check', '--jobs', '1', '--json', dir]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as { files: { file: string; format?: string; result: string; detail?: string }[] };
    // The model fails with the config's file and line; the config itself is read (it parses).
    expect(j.files.find((f) => f.file.endsWith('.p3d'))).toMatchObject({ result: 'error', detail: expect.stringMatching(/model\.cfg:1: bone door1: parent door2 is declared after it/) });
    expect(j.files.find((f) => f.file.endsWith('.cfg'))).toMatchObject({ format: 'p3d-modelcfg', result: 'ok' });
  });

  async function convert(extra: string[]): Promise<string | undefined> {
    const out = join(tmp, `c${Math.random().toString(36).slice(2)}.glb`);
    const r = await cli(['convert', house, out, ...extra]);
    expect(r.code).toBe(0);
    return out;
  }
});
