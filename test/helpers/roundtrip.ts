import { expect } from 'vitest';
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { firstDifference, locateOffset } from '../../shared/model/compare.ts';
import { dropRaw } from '../../shared/model/lossless.ts';

function describeDiff(codec: FormatCodec, doc: object, a: Uint8Array, b: Uint8Array, how: string): string {
  const at = firstDifference(a, b);
  if (at < 0) return '';
  let where: string;
  try {
    where = locateOffset(codec.outline(doc), at);
  } catch {
    where = '?';
  }
  return `${how}: first difference at offset ${at} (0x${at.toString(16)}) in ${where}; sizes ${a.length} vs ${b.length}`;
}

/**
 * Asserts a file survives decode -> encode byte for byte, twice: once reusing untouched raw bytes
 * (what the editor does) and once with every `$raw` dropped (proves the field encoders exact).
 */
export function expectRoundTrip(codec: FormatCodec, bytes: Uint8Array, fileName = ''): object {
  const doc = codec.decode(bytes, { fileName });
  const fast = codec.encode(doc);
  expect(describeDiff(codec, doc, bytes, fast, 'reuseRaw')).toBe('');
  const strictDoc = codec.decode(bytes, { fileName });
  dropRaw(strictDoc);
  const strict = codec.encode(strictDoc, { reuseRaw: false });
  expect(describeDiff(codec, strictDoc, bytes, strict, 'from fields')).toBe('');
  return doc;
}
