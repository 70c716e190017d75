/**
 * `doc:sourcePose`: the model's animation sources (model.cfg, or compiled into an ODOL) and its
 * LOD posed at several source values at once, as the preview's source sliders ask for it.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, serve } from '../../main/host/serve.ts';
import type { DocSnapshot, SourcePoseAnswer } from '../../shared/ipc/contract.ts';
import { corpusDir } from '../helpers/corpus.ts';

const house = join(corpusDir, 'modelcfg', 'dayz_test_building');
const trap = join(corpusDir, 'p3d_odol', 'SplenectomY__WeedWizards-DayzEpoch__bear_trap.p3d');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function withModel(files: [string, string][], open: string, run: (ask: (req: object) => Promise<SourcePoseAnswer>) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'lodsmith-source-pose-'));
  dirs.push(dir);
  for (const [from, to] of files) {
    await mkdir(join(dir, to, '..'), { recursive: true });
    await copyFile(from, join(dir, to));
  }
  const host = await serve(parseServeArgs(['--root', dir, '--config', join(dir, 'cfg'), '--no-sample', join(dir, open)]), () => undefined);
  try {
    const docs = (await host.dispatch('doc:list', undefined) as { value: DocSnapshot[] }).value;
    const id = docs[0]!.id;
    await run(async (req) => {
      const r = await host.dispatch('doc:sourcePose', { id, ...req });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      return (r as { value: SourcePoseAnswer }).value;
    });
  } finally {
    await host.close();
  }
}

/** The posed points, and the bones' matrices (a compiled ODOL poses by its skeleton). */
const positions = (a: SourcePoseAnswer): number[] => [...a.scene!.meshes.flatMap((m) => [...m.positions]), ...(a.scene!.skeleton?.bones.flatMap((b) => [...b.matrix]) ?? [])];
const moved = (a: number[], b: number[]): number => {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1e-4) n++;
  return n;
};

describe.skipIf(!existsSync(join(house, 'model.cfg')))('doc:sourcePose, a P3D beside its model.cfg', () => {
  it('lists the sources and poses several of them at once', async () => {
    await withModel([[join(house, 'sample_building.p3d'), 'h/sample_building.p3d'], [join(house, 'model.cfg'), 'h/model.cfg']], 'h/sample_building.p3d', async (ask) => {
      const list = await ask({});
      expect(list.sources.map((s) => s.name)).toEqual(['doorsTwin1', 'door3']);
      expect(list.scene).toBeUndefined();
      const [twin, door3] = list.sources;
      const rest = positions(await ask({ values: { doorsTwin1: twin!.min, door3: door3!.min } }));
      const one = positions(await ask({ values: { doorsTwin1: twin!.max, door3: door3!.min } }));
      const both = positions(await ask({ values: { doorsTwin1: twin!.max, door3: door3!.max } }));
      const oneMoved = moved(rest, one);
      expect(oneMoved).toBeGreaterThan(0);
      expect(oneMoved).toBeLessThan(rest.length / 4);
      // The second source adds its own points to the first's.
      expect(moved(rest, both)).toBeGreaterThan(oneMoved);
      // Any LOD, the Memory LOD too.
      const memory = await ask({ lod: 'Memory', values: { doorsTwin1: twin!.max } });
      expect(memory.scene).toBeDefined();
    });
  });
});

describe.skipIf(!existsSync(trap))('doc:sourcePose, an ODOL with compiled animations', () => {
  it('poses its source', async () => {
    await withModel([[trap, 'trap.p3d']], 'trap.p3d', async (ask) => {
      const list = await ask({});
      expect(list.sources.length).toBeGreaterThan(0);
      const s = list.sources[0]!;
      const a = positions(await ask({ values: { [s.name]: s.min } }));
      const b = positions(await ask({ values: { [s.name]: s.max } }));
      expect(moved(a, b)).toBeGreaterThan(0);
      // Every bone has its inverse bind, so the preview skins with the posed matrices.
      expect((await ask({ values: { [s.name]: s.max } })).scene!.skeleton!.bones.every((x) => x.inverseBind?.length === 16)).toBe(true);
    });
  });
});
