/**
 * Large Grimrock and Unigine benchmark inputs, composed from the public parts of
 * scripts/fixtures/grimrock.ts and scripts/fixtures/unigine.ts and written by the codecs' own
 * encoders, while those modules have no large-file builder of their own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../test/helpers/corpus.ts';

async function fixtureModule(name: string, needs: readonly string[]): Promise<Record<string, any>> {
  const path = join(repoRoot, 'scripts/fixtures', name);
  if (!existsSync(path)) throw new Error(`scripts/fixtures/${name} has not landed`);
  const mod = (await import(pathToFileURL(path).href)) as Record<string, any>;
  for (const k of needs) if (typeof mod[k] !== 'function') throw new Error(`scripts/fixtures/${name} has no ${k} export`);
  return mod;
}

/** Triangle indices of a grid of `w` x `h` vertices, two triangles per cell. */
function gridIndices(w: number, h: number): Int32Array {
  const out = new Int32Array((w - 1) * (h - 1) * 6);
  let k = 0;
  for (let y = 0; y < h - 1; y++) {
    for (let x = 0; x < w - 1; x++) {
      const a = y * w + x;
      out[k++] = a;
      out[k++] = a + w;
      out[k++] = a + 1;
      out[k++] = a + 1;
      out[k++] = a + w;
      out[k++] = a + w + 1;
    }
  }
  return out;
}

/**
 * A Grimrock model whose one mesh has at least `vertices` vertices (a grid): float positions,
 * normals, tangents, bitangents, byte colours, one UV set, byte bone indices and weights, the
 * layout of the fixture module's all-float model.
 */
export async function composeLargeGrimrock(vertices: number): Promise<Uint8Array> {
  const fx = await fixtureModule('grimrock.ts', ['allFloatModel', 'vertexArray', 'encodeFixture']);
  const side = Math.ceil(Math.sqrt(vertices));
  const n = side * side;
  const va = fx.vertexArray as (t: number, dim: number, stride: number, n: number, v: (v: number, j: number) => number) => unknown;
  const unused = () => ({ dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) });
  const arrays = [
    va(3, 3, 12, n, (v, j) => (j === 0 ? (v % side) * 0.01 : j === 1 ? Math.sin(v * 0.001) * 0.1 : Math.floor(v / side) * 0.01)),
    va(3, 3, 12, n, (_v, j) => (j === 1 ? 1 : 0)),
    va(3, 3, 12, n, (_v, j) => (j === 0 ? 1 : 0)),
    va(3, 3, 12, n, (_v, j) => (j === 2 ? 1 : 0)),
    va(0, 4, 4, n, (v, j) => (v * 10 + j * 60) & 0xff),
    va(3, 2, 8, n, (v, j) => (j === 0 ? (v % side) / side : Math.floor(v / side) / side)),
    ...Array.from({ length: 7 }, unused),
    va(0, 4, 4, n, (v, j) => (j === 0 ? v % 2 : 0)),
    va(0, 4, 4, n, (_v, j) => (j === 0 ? 255 : 0)),
  ];
  const indices = gridIndices(side, side);
  const model = fx.allFloatModel();
  const mesh = model.nodes.find((nd: { mesh?: unknown }) => nd.mesh);
  if (!mesh) throw new Error('allFloatModel has no mesh node');
  const md = mesh.mesh.meshData;
  mesh.mesh.meshData = {
    ...md,
    numVertices: n,
    vertexArrays: arrays,
    numIndices: indices.length,
    indices,
    numSegments: 1,
    segments: [{ material: 'grid', primitiveType: 2, firstIndex: 0, count: indices.length / 3 }],
  };
  return fx.encodeFixture({ name: 'large.model', covers: 'benchmark', kind: 'model', doc: model });
}

/** A Unigine ms11 mesh with one grid surface of at least `vertices` vertices and a second UV set. */
export async function composeLargeUnigine(vertices: number): Promise<Uint8Array> {
  const fx = await fixtureModule('unigine.ts', ['unigineFixtures', 'gridSurface', 'encodeFixture']);
  const side = Math.ceil(Math.sqrt(vertices));
  const template = (fx.unigineFixtures() as { name: string; doc: Record<string, unknown> }[]).find((f) => f.doc.magic === 'ms11' && !f.doc.animations?.toString());
  const base = template ?? (fx.unigineFixtures() as { doc: Record<string, unknown> }[]).find((f) => f.doc.magic === 'ms11');
  if (!base) throw new Error('scripts/fixtures/unigine.ts has no ms11 fixture to start from');
  const doc = { ...base.doc, surfaces: [fx.gridSurface('grid', side, side, { uv1: true })] };
  return fx.encodeFixture({ name: 'large.mesh', covers: 'benchmark', doc });
}
