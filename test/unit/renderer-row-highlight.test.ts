/**
 * Row marks for formats without their own (Grimrock, Unigine): the scene mesh built from the
 * array's node gives the row's vertex, placed by the nodes that place the mesh.
 */
import { describe, expect, it } from 'vitest';
import { Matrix4, Vector3 } from 'three';
import { detectFormat, type FormatCodec } from '../../shared/formats/index.ts';
import { arrayPage } from '../../shared/model/array-view.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { rowHighlight } from '../../renderer/lib/row-highlight.ts';
import { encodeFixture as encodeGrimrock, grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { encodeFixture as encodeUnigine, unigineFixtures } from '../../scripts/fixtures/unigine.ts';

function* nodes(n: OutlineNode): Generator<OutlineNode> {
  yield n;
  for (const c of n.children ?? []) yield* nodes(c);
}

const FILES: [string, Uint8Array][] = [
  ...grimrockFixtures().filter((f) => f.kind === 'model').slice(0, 1).map((f): [string, Uint8Array] => [f.name, encodeGrimrock(f)]),
  ...unigineFixtures().filter((f) => f.doc.magic !== 'an10').slice(0, 1).map((f): [string, Uint8Array] => [f.name, encodeUnigine(f)]),
];

describe.each(FILES)('%s', (name, bytes) => {
  it('marks the vertex of a position row where the scene mesh came from that node', () => {
    const codec = detectFormat(bytes, name) as FormatCodec;
    const doc = codec.decode(bytes);
    const scene = codec.toScene(doc);
    let marked = 0;
    for (const n of nodes(codec.outline(doc))) {
      for (const f of codec.inspect(doc, n.path)?.fields ?? []) {
        if (f.kind !== 'array') continue;
        const page = arrayPage(doc, f.path, 0, 1, (nm, data, p) => codec.arrayLayout?.(doc, nm, data, p));
        if (!page || page.columns.join() !== 'x,y,z') continue;
        const h = rowHighlight(scene, page, 1);
        if (!h?.points) continue;
        const k = scene.meshes.findIndex((m) => m.source && m.source.every((s, i) => s === f.path[i]));
        const node = scene.nodes.find((x) => x.mesh === k)!;
        const P = scene.meshes[k]!.positions;
        const world = new Matrix4().fromArray(node.matrix);
        for (let p = node.parent; p >= 0; p = scene.nodes[p]!.parent) world.premultiply(new Matrix4().fromArray(scene.nodes[p]!.matrix));
        const want = new Vector3(P[3]!, P[4]!, P[5]!).applyMatrix4(world).toArray();
        Array.from(h.points).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
        marked++;
      }
    }
    expect(marked).toBeGreaterThan(0);
  });
});
