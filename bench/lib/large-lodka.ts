/**
 * The large LODka benchmark input, composed from the public building blocks of
 * scripts/fixtures/lodka.ts (grid, meshChunk, skeleton, ...) and written by our own encoder:
 * one mesh of at least `triangles` triangles with two texture sets and two bone weights per
 * vertex. Used while that module has no large-file builder of its own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../test/helpers/corpus.ts';

interface LodkaFixtures {
  grid(n: number, size: number): { positions: number[]; normals: number[]; uvs: number[]; indices: number[] };
  meshChunk(spec: unknown): unknown;
  skeleton(bones: { name: string; parent: number }[]): unknown;
  container(id: string, children: unknown[]): unknown;
  lodDocument(chunks: unknown[]): unknown;
  materialLibrary(materials: unknown[]): unknown;
  colouredMaterial(name: string, rgb: [number, number, number]): unknown;
}

/** Builds the file, or says why it cannot. */
export async function composeLargeLodka(opts: { triangles: number; bones?: number }): Promise<Uint8Array> {
  const fixtures = join(repoRoot, 'scripts/fixtures/lodka.ts');
  const codecPath = join(repoRoot, 'shared/formats/lodka/codec.ts');
  if (!existsSync(fixtures) || !existsSync(codecPath)) throw new Error('scripts/fixtures/lodka.ts or the LODka codec has not landed');
  const f = (await import(pathToFileURL(fixtures).href)) as LodkaFixtures;
  const { lodkaCodec } = (await import(pathToFileURL(codecPath).href)) as { lodkaCodec: { encode(doc: unknown): Uint8Array } };
  for (const k of ['grid', 'meshChunk', 'skeleton', 'container', 'lodDocument', 'materialLibrary', 'colouredMaterial'] as const) {
    if (typeof f[k] !== 'function') throw new Error(`scripts/fixtures/lodka.ts has no ${k} export`);
  }
  // A grid of n x n cells has 2 n^2 triangles.
  const n = Math.ceil(Math.sqrt(opts.triangles / 2));
  const g = f.grid(n, 100);
  const nv = g.positions.length / 3;
  const bones = opts.bones ?? 64;
  // Two weight records per vertex; the high bit (0x80 below 128 bones) marks a vertex's last one.
  const boneIds = new Uint16Array(nv * 2);
  const weights = new Float32Array(nv * 2);
  for (let v = 0; v < nv; v++) {
    boneIds[2 * v] = v % bones;
    boneIds[2 * v + 1] = ((v * 7 + 3) % bones) | 0x80;
    weights[2 * v] = 0.75;
    weights[2 * v + 1] = 0.25;
  }
  const secondUv = g.uvs.map((u) => u * 0.25);
  const mesh = f.meshChunk({
    name: `grid${n}`,
    geometry: g,
    uvSets: [g.uvs, secondUv],
    groups: [{ name: 'all', materials: ['base', 'detail'], indices: g.indices }],
    weights: { bonesPerVertix: 2, boneIds, weights },
  });
  const skl = f.skeleton(Array.from({ length: bones }, (_, i) => ({ name: `bone${i}`, parent: i - 1 })));
  const doc = f.lodDocument([
    f.container('LOD1', [
      f.container('MAL1', [f.materialLibrary([f.colouredMaterial('base', [0.5, 0.5, 0.5]), f.colouredMaterial('detail', [0.8, 0.7, 0.6])])]),
      skl,
      f.container('MSL1', [mesh]),
    ]),
  ]);
  return lodkaCodec.encode(doc);
}
