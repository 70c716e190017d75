/**
 * A deliberately tiny format for CLI tests that need exact control: `TOY1`, u32 count, then
 * count u32 values. Value 0xDEAD is a validation error; value 0xBEEF is written back as 0xBEEE,
 * so a file holding it fails the round trip at a known offset and node. Registered only inside
 * the tests that use it (never in the product).
 */
import { BinaryReader } from '../../../shared/binary/reader.ts';
import { BinaryWriter } from '../../../shared/binary/writer.ts';
import type { FormatCodec, FormatId } from '../../../shared/formats/registry.ts';
import type { OutlineNode } from '../../../shared/model/outline.ts';

export interface ToyDoc {
  values: number[];
}

export const TOY_ID = 'toy' as FormatId;

export function toyBytes(values: number[]): Uint8Array {
  const w = new BinaryWriter();
  w.string('TOY1');
  w.u32(values.length);
  for (const v of values) w.u32(v);
  return w.finish();
}

export const toyCodec: FormatCodec<ToyDoc> = {
  id: TOY_ID,
  label: 'Toy test model',
  extensions: ['.toy'],
  probe: (b) => b.length >= 4 && b[0] === 0x54 && b[1] === 0x4f && b[2] === 0x59 && b[3] === 0x31,
  decode(bytes) {
    const r = new BinaryReader(bytes);
    if (r.string(4) !== 'TOY1') r.fail('bad signature', 0);
    const n = r.within('header', () => r.count(r.u32(), 4, 'value', 4));
    const values: number[] = [];
    for (let i = 0; i < n; i++) values.push(r.within(`values[${i}]`, () => r.u32()));
    if (!r.atEnd) r.fail('trailing bytes');
    return { values };
  },
  encode(doc) {
    return toyBytes(doc.values.map((v) => (v === 0xbeef ? 0xbeee : v)));
  },
  info: (doc, byteLength) => ({ format: TOY_ID, version: 1, bytes: byteLength, meshes: [{ name: 'toy', vertices: doc.values.length, triangles: 0 }], materials: [], bones: [], animations: [], checksum: doc.values.reduce((a, b) => a + b, 0) }),
  validate: (doc) =>
    doc.values.flatMap((v, i) => (v === 0xdead ? [{ severity: 'error' as const, message: 'value 0xDEAD is not allowed', where: `values[${i}]`, offset: 8 + i * 4 }] : [])),
  toScene: (doc) => ({
    nodes: [{ name: 'toy', parent: -1, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], mesh: 0 }],
    meshes: [{ name: 'toy', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), uvs: [], indices: new Uint32Array([0, 1, 2]), groups: [{ start: 0, count: 3, material: -1 }] }],
    materials: [],
    clips: doc.values.length ? [] : [],
  }),
  outline(doc): OutlineNode {
    return {
      path: [],
      name: 'file',
      kind: 'file',
      span: [0, 8 + doc.values.length * 4],
      children: [
        { path: ['header'], name: 'header', kind: 'info', span: [0, 8] },
        ...doc.values.map((_, i): OutlineNode => ({ path: ['values', i], name: `values[${i}]`, kind: 'property', span: [8 + i * 4, 12 + i * 4] })),
      ],
    };
  },
  inspect: () => undefined,
};
