/**
 * Deliberately broken codecs that prove the fuzz harness catches what it claims to catch: a hang,
 * a non-DecodeError exception, an allocation blow-up and an encoder that loses bytes. Loaded into
 * the fuzz workers only by the harness's own test; never registered in the product.
 */
import { DecodeError } from '../../shared/errors.ts';
import { registerFormat, type FormatCodec } from '../../shared/formats/registry.ts';

/**
 * Behaviour by the first byte: 1 hangs, 2 throws a TypeError, 3 allocates 256 MB, 4 re-encodes
 * wrong, 5 decodes but its scene throws, 0 is refused, else ok.
 */
export const SELF_TEST_FORMAT = 'selftest-broken';

let sink: unknown;

const codec = {
  id: SELF_TEST_FORMAT,
  label: 'fuzz harness self-test',
  extensions: ['.selftest'],
  probe: () => false,
  decode(bytes: Uint8Array) {
    switch (bytes[0]) {
      case 0:
        throw new DecodeError('refused', 0, '');
      case 1:
        for (;;) sink = bytes.length;
      case 2:
        return (undefined as unknown as { x: { y: number } }).x;
      case 3:
        sink = new Uint8Array(256 * 1024 * 1024);
        return { bytes };
      default:
        return { bytes };
    }
  },
  encode(doc: { bytes: Uint8Array }) {
    return doc.bytes[0] === 4 ? doc.bytes.subarray(1) : doc.bytes;
  },
  info: (doc: { bytes: Uint8Array }) => ({ format: SELF_TEST_FORMAT, version: 1, bytes: doc.bytes.length, meshes: [], materials: [], bones: [], animations: [] }),
  validate: () => [],
  outline: () => ({ path: [], name: 'file', kind: 'file' }),
  inspect: () => ({ title: 'file', fields: [] }),
  toScene(doc: { bytes: Uint8Array }) {
    if (doc.bytes[0] === 5) return (undefined as unknown as { x: never }).x.y;
    return { nodes: [], meshes: [], materials: [], clips: [] };
  },
} as unknown as FormatCodec;

registerFormat(codec);
export const keep = () => sink;
