/**
 * `convert --up`: a Z-up model gets one root node that turns it Y-up, the rest of the file is
 * unchanged, and the result still passes the Khronos validator.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/program.ts';
import { UP_ROOT_NAME } from '../../shared/export/gltf.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { memoryIO } from './helpers/memory-io.ts';
import { gltfErrors } from './helpers/validate-gltf.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-up-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sample = join(tmp, 'sample.lod');
writeFileSync(sample, encodeLod(buildSampleLod()));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIO(tmp);
  const code = await runCli(args, m.io);
  await m.flush();
  return { code, out: m.out(), err: m.err() };
}

interface GltfJson {
  scene?: number;
  scenes: { nodes: number[] }[];
  nodes: { name?: string; rotation?: number[]; children?: number[]; mesh?: number; skin?: number }[];
}

/** Rotates v by an xyzw quaternion. */
function rotate(q: number[], v: [number, number, number]): number[] {
  const [x, y, z, w] = q as [number, number, number, number];
  const [vx, vy, vz] = v;
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

async function convert(input: string, up: string[]): Promise<GltfJson> {
  const out = join(tmp, 'out.gltf');
  const r = await cli(['convert', input, out, ...up]);
  expect(r.err.split('\n').filter((l) => l && !l.startsWith('warning: '))).toEqual([]);
  expect(r.code).toBe(0);
  const bytes = new Uint8Array(readFileSync(out));
  const { errors, report } = await gltfErrors(bytes);
  expect(errors).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
  return JSON.parse(new TextDecoder().decode(bytes)) as GltfJson;
}

const roots = (j: GltfJson): GltfJson['nodes'] => j.scenes[j.scene ?? 0]!.nodes.map((i) => j.nodes[i]!);

describe('convert --up', () => {
  it('--up z puts the model under one root node whose rotation turns +Z into +Y', async () => {
    const plain = await convert(sample, ['--up', 'y']);
    const j = await convert(sample, ['--up', 'z']);
    const [root, ...others] = roots(j);
    expect(others).toEqual([]);
    expect(root!.name).toBe(UP_ROOT_NAME);
    expect(root!.mesh).toBeUndefined();
    const up = rotate(root!.rotation!, [0, 0, 1]);
    [0, 1, 0].forEach((v, i) => expect(up[i]).toBeCloseTo(v, 6));
    const fwd = rotate(root!.rotation!, [0, 1, 0]);
    [0, 0, -1].forEach((v, i) => expect(fwd[i]).toBeCloseTo(v, 6));
    // Under it: exactly what the Y-up export has at its root, in the same order.
    expect(root!.children!.map((i) => j.nodes[i]!.name)).toEqual(roots(plain).map((n) => n.name));
    expect(j.nodes.length).toBe(plain.nodes.length + 1);
  });

  it('auto (the default) follows the format: the LODka sample stays Y-up', async () => {
    for (const args of [[], ['--up', 'auto'], ['--up', 'y']]) {
      expect(roots(await convert(sample, args)).some((n) => n.name === UP_ROOT_NAME)).toBe(false);
    }
  });

  const trinity = join(corpusDir, 'lodka', 'xtreme3d__xtreme3d__TRINITYrage.lod');
  it.skipIf(!existsSync(trinity))('auto turns the Z-up corpus TRINITYrage upright, and says so; --up y leaves it', async () => {
    const out = join(tmp, 'trinity.glb');
    const r = await cli(['convert', trinity, out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Z-up, turned Y-up/);
    expect((await gltfErrors(new Uint8Array(readFileSync(out)))).errors).toEqual([]);
    expect(roots(await convert(trinity, [])).map((n) => n.name)).toEqual([UP_ROOT_NAME]);
    expect(roots(await convert(trinity, ['--up', 'y'])).some((n) => n.name === UP_ROOT_NAME)).toBe(false);
  });

  it('refuses an axis it does not know, in one line', async () => {
    const r = await cli(['convert', sample, join(tmp, 'x.glb'), '--up', 'x']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/expected y, z or auto/);
  });
});
