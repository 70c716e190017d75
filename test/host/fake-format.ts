/**
 * A tiny chunked format used to test the document service and the host without depending on a
 * real codec: `FAKE`, u32 item count, then per item u32 value, u32 name length, name bytes.
 * Items keep `$raw`/`$span` like real codecs, so export/import and lossless saving are exercised.
 */
import { DecodeError, EncodeError } from '../../shared/errors.ts';
import { registerFormat, type FormatCodec, type FormatId } from '../../shared/formats/registry.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { getAt } from '../../shared/model/path.ts';

export interface FakeItem {
  $raw?: Uint8Array;
  $span?: [number, number];
  value: number;
  name: string;
}
export interface FakeDoc {
  items: FakeItem[];
}

export const FAKE_ID = 'fake' as FormatId;
const enc = new TextEncoder();
const dec = new TextDecoder();

function encodeItem(it: FakeItem): Uint8Array {
  if (!Number.isInteger(it.value) || it.value < 0 || it.value > 0xffffffff) throw new EncodeError(`value ${it.value} out of range`, 'items');
  const name = enc.encode(it.name);
  const out = new Uint8Array(8 + name.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, it.value, true);
  dv.setUint32(4, name.length, true);
  out.set(name, 8);
  return out;
}

/** Builds a FAKE file from items. */
export function fakeFile(items: { value: number; name: string }[]): Uint8Array {
  const parts = items.map((it) => encodeItem(it));
  const out = new Uint8Array(8 + parts.reduce((n, p) => n + p.length, 0));
  out.set(enc.encode('FAKE'), 0);
  new DataView(out.buffer).setUint32(4, items.length, true);
  let off = 8;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Set to make `encode` write a file `decode` rejects (to test save verification). */
export const fakeControls = { corruptEncode: false };

export const fakeCodec: FormatCodec<FakeDoc> = {
  id: FAKE_ID,
  label: 'Fake test model',
  extensions: ['.fake'],
  probe: (b) => b.length >= 4 && dec.decode(b.subarray(0, 4)) === 'FAKE',
  decode(bytes) {
    if (bytes.length < 8 || dec.decode(bytes.subarray(0, 4)) !== 'FAKE') throw new DecodeError('not a FAKE file', 0, '');
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = dv.getUint32(4, true);
    if (count > (bytes.length - 8) / 8) throw new DecodeError(`item count ${count} exceeds the file`, 4, 'count');
    const items: FakeItem[] = [];
    let off = 8;
    for (let i = 0; i < count; i++) {
      if (off + 8 > bytes.length) throw new DecodeError('item header past the end', off, `items[${i}]`);
      const value = dv.getUint32(off, true);
      const len = dv.getUint32(off + 4, true);
      if (off + 8 + len > bytes.length) throw new DecodeError(`name length ${len} past the end`, off + 4, `items[${i}]/name`);
      const name = dec.decode(bytes.subarray(off + 8, off + 8 + len));
      const end = off + 8 + len;
      items.push({ $raw: bytes.slice(off, end), $span: [off, end], value, name });
      off = end;
    }
    if (off !== bytes.length) throw new DecodeError('trailing bytes', off, '');
    return { items };
  },
  encode(doc, opts) {
    const parts = doc.items.map((it) => (opts?.reuseRaw !== false && it.$raw ? it.$raw : encodeItem(it)));
    const out = new Uint8Array(8 + parts.reduce((n, p) => n + p.length, 0));
    out.set(enc.encode(fakeControls.corruptEncode ? 'BAD!' : 'FAKE'), 0);
    new DataView(out.buffer).setUint32(4, parts.length, true);
    let off = 8;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  },
  info: (doc, bytes) => ({ format: FAKE_ID, version: 1, bytes, meshes: [], materials: [], bones: [], animations: [], items: doc.items.length }),
  validate: (doc) => doc.items.flatMap((it, i) => (it.value > 1000 ? [{ severity: 'warning' as const, message: 'value above 1000', where: `items[${i}]`, path: ['items', i] }] : [])),
  toScene: () => ({ nodes: [], meshes: [], materials: [{ name: 'm', color: [1, 1, 1, 1], texture: 'embedded.png', textureData: new Uint8Array([1, 2, 3]) }], clips: [] }),
  outline(doc): OutlineNode {
    return {
      path: [], name: 'FAKE', kind: 'file',
      children: [{
        path: ['items'], name: 'items', kind: 'array', count: doc.items.length, actions: { add: ['item'] },
        children: doc.items.map((it, i) => ({ path: ['items', i], name: `items[${i}]`, label: it.name, kind: 'record' as const, ...(it.$span ? { span: it.$span } : {}), actions: { remove: true, bytes: true } })),
      }],
    };
  },
  inspect(doc, path) {
    const it = getAt(doc, path) as FakeItem | undefined;
    if (!it || typeof it !== 'object' || !('value' in it)) return undefined;
    return { title: it.name, fields: [{ name: 'value', kind: 'u32', path: [...path, 'value'], value: it.value }, { name: 'name', kind: 'string', path: [...path, 'name'], value: it.name }] };
  },
  checkEdit(_doc, cmd: EditCommand) {
    if (cmd.op === 'set' && cmd.path[cmd.path.length - 1] === 'value' && (typeof cmd.value !== 'number' || cmd.value < 0)) return 'value must be a number >= 0';
    return undefined;
  },
  create(doc, parent, kind) {
    if (kind !== 'item' || JSON.stringify(parent) !== '["items"]') return undefined;
    return { op: 'insert', path: ['items'], index: doc.items.length, value: { value: 0, name: 'new' } };
  },
  // The fake format keeps its "screenshot" in an item named SHOT: set when present, added otherwise.
  screenshot(doc, png, name) {
    const text = `${name ?? 'SHOT'}:${png.length}`;
    const i = doc.items.findIndex((it) => it.name.startsWith('SHOT'));
    return i >= 0
      ? { op: 'set', path: ['items', i, 'name'], value: `SHOT ${text}`, label: 'Screenshot' }
      : { op: 'insert', path: ['items'], index: doc.items.length, value: { value: png.length, name: `SHOT ${text}` }, label: 'Screenshot' };
  },
};

registerFormat(fakeCodec);
