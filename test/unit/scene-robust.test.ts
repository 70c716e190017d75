/**
 * Counts that drive allocations are checked where they are decoded, and scene building and glTF
 * export never throw on a file that decoded: they leave out what they cannot draw, with a warning.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isDecodeError } from '../../shared/errors.ts';
import { sceneToGltf } from '../../shared/export/gltf.ts';
import '../../shared/formats/index.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import type { Anm1Chunk, LodDocument, Mmd1Chunk, Msh1Chunk } from '../../shared/formats/lodka/schema.ts';
import { walkChunks } from '../../shared/formats/lodka/views.ts';
import { SCENE_FAILED } from '../../shared/formats/registry.ts';
import type { Scene } from '../../shared/scene/scene.ts';
import { buildSampleLod, lodkaFixtures } from '../../scripts/fixtures/lodka.ts';
import { runCliIn } from '../cli/helpers/memory-io.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-scene-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(tmp, args);

/** The sample model with its first ANM1's Count field set to `count` (as stored, u32). */
function withAnimCount(count: number): { bytes: Uint8Array; countAt: number; path: string } {
  const bytes = lodkaCodec.encode(buildSampleLod());
  const doc = lodkaCodec.decode(bytes);
  const found = [...walkChunks(doc)].find((f) => f.chunk.id === 'ANM1')!;
  const countAt = found.chunk.$span![0] + 8;
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(countAt, count >>> 0, true);
  return { bytes: out, countAt, path: found.where };
}

describe('LODka ANM1 frame count', () => {
  it('0xffffffff is refused where it is decoded, with the offset of the Count field and the node path', () => {
    const { bytes, countAt } = withAnimCount(0xffffffff);
    let err: unknown;
    try {
      lodkaCodec.decode(bytes);
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    expect((err as Error).message).toMatch(/ANM1 frame count 4294967295 is invalid/);
    expect((err as { offset: number }).offset).toBe(countAt);
    expect((err as { path: string }).path).toMatch(/ANM1/);
  });

  it('every command answers the 0xffffffff file with one line and exit 2, never an internal error', async () => {
    writeFileSync(join(tmp, 'frames.lod'), withAnimCount(0xffffffff).bytes);
    for (const args of [['info', 'frames.lod'], ['validate', 'frames.lod'], ['roundtrip', 'frames.lod'], ['convert', 'frames.lod', 'frames.glb'], ['dump', 'frames.lod']]) {
      const r = await cli(args);
      expect(r.code, args[0]).toBe(2);
      const lines = r.err.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/ANM1 frame count 4294967295 is invalid at offset \d+ \(0x[0-9a-f]+\), node .*ANM1/);
      expect(lines[0]).not.toMatch(/internal error/);
    }
  });

  it('a count past the data decodes, validate reports it with offset and path, and convert draws the frames there are', async () => {
    const { bytes } = withAnimCount(0x7fffffff);
    writeFileSync(join(tmp, 'many.lod'), bytes);
    const v = await cli(['validate', '--json', 'many.lod']);
    expect(v.code).toBe(1);
    const problems = (JSON.parse(v.out) as { problems: { message: string; offset?: number; where: string }[] }).problems;
    const p = problems.find((x) => /expected 2147483647 frames/.test(x.message));
    expect(p).toBeDefined();
    expect(p!.offset).toBeGreaterThan(0);
    expect(p!.where).toMatch(/ANM1/);
    const c = await cli(['convert', 'many.lod', 'many.glb']);
    expect(c.err).not.toMatch(/internal error/);
    expect(c.code).toBe(0);
  });
});

describe('scene building and glTF export skip what they cannot draw', () => {
  it('a damaged mesh or clip in a decoded LODka document becomes a warning, the rest is drawn', () => {
    const doc = lodkaCodec.decode(lodkaCodec.encode(buildSampleLod())) as LodDocument;
    const chunks = [...walkChunks(doc)].map((f) => f.chunk);
    const mesh = chunks.find((c) => c.id === 'MSH1') as Msh1Chunk;
    (mesh as unknown as { meshPointsPos: unknown }).meshPointsPos = undefined;
    // The second clip: the first one also holds the bind pose.
    const anim = chunks.filter((c) => c.id === 'ANM1')[1] as Anm1Chunk;
    (anim as unknown as { bonesRotPos: unknown }).bonesRotPos = undefined;
    let scene: Scene | undefined;
    expect(() => (scene = lodkaCodec.toScene(doc))).not.toThrow();
    expect(scene!.warnings, JSON.stringify(scene!.warnings)).toContainEqual(expect.stringMatching(new RegExp(`^mesh "${mesh.meshName}" left out`)));
    expect(scene!.warnings?.some((w) => w.startsWith(`animation "${anim.animName}" left out`))).toBe(true);
    expect(scene!.meshes.filter((m) => m.positions.length > 0).length).toBeGreaterThan(0);
    const { warnings } = sceneToGltf(scene!);
    expect(warnings.some((w) => w.includes('left out'))).toBe(true);
  });

  it('a codec that throws while building its scene gives an empty scene with a warning (registry guard)', () => {
    const scene = lodkaCodec.toScene({ chunks: null } as unknown as LodDocument);
    expect(scene.meshes).toEqual([]);
    expect(scene.warnings?.[0]).toMatch(new RegExp(`^${SCENE_FAILED}: `));
  });

  it('glTF export leaves out a part that throws and still writes the rest', () => {
    const scene: Scene = {
      nodes: [{ name: 'n', parent: -1, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], mesh: 0 }],
      meshes: [{ name: 'tri', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), uvs: [], indices: new Uint32Array([0, 1, 2]), groups: [{ start: 0, count: 3, material: 0 }] }],
      materials: [{ name: 'm', color: [1, 1, 1, 1] }],
      clips: [{ name: 'broken', duration: 1, frames: 2, tracks: null as never }],
    };
    const { document, warnings } = sceneToGltf(scene);
    expect(document.getRoot().listMeshes()).toHaveLength(1);
    expect(warnings.some((w) => w.startsWith('animation "broken" left out'))).toBe(true);
  });
});

describe('LODka MMD1 morph counts', () => {
  function everyChunk(): { bytes: Uint8Array; entryAt: number } {
    const fx = lodkaFixtures().find((f) => f.name === 'every-chunk.lod')!;
    const bytes = lodkaCodec.encode(fx.doc);
    const doc = lodkaCodec.decode(bytes);
    const mmd = [...walkChunks(doc)].find((f) => f.chunk.id === 'MMD1')!.chunk as Mmd1Chunk;
    // After the 12-byte chunk header and MorphCollType.
    return { bytes, entryAt: mmd.$span![0] + 16 };
  }

  it('a negative frame or vertex count is refused where it is decoded, with its offset', () => {
    for (const [delta, what] of [[0, 'MMFramesCount'], [4, 'MMVertexCount']] as const) {
      const { bytes, entryAt } = everyChunk();
      new DataView(bytes.buffer).setInt32(entryAt + delta, -5, true);
      let err: unknown;
      try {
        lodkaCodec.decode(bytes);
      } catch (e) {
        err = e;
      }
      expect(isDecodeError(err), what).toBe(true);
      expect((err as Error).message).toMatch(new RegExp(`${what} 4294967291 is invalid`));
      expect((err as { offset: number }).offset).toBe(entryAt + delta);
    }
  });

  it('an entry of no vertices and two billion frames draws no morph and ends at once', () => {
    const { bytes } = everyChunk();
    const doc = lodkaCodec.decode(bytes) as LodDocument;
    const found = [...walkChunks(doc)];
    const mmd = found.find((f) => f.chunk.id === 'MMD1')!.chunk as Mmd1Chunk;
    const mesh = found.filter((f) => f.chunk.id === 'MSH1')[mmd.entries[0]!.mmMeshIndex]!.chunk as Msh1Chunk;
    // A mesh with no vertices matches an entry of 0 vertices.
    mesh.meshPointsPos = new Float32Array(0);
    mmd.entries[0]!.mmVertexCount = 0;
    mmd.entries[0]!.mmFramesCount = 0x7fffffff;
    const scene = lodkaCodec.toScene(doc);
    expect(scene.meshes.every((m) => (m.morphs ?? []).length === 0)).toBe(true);
  });
});
