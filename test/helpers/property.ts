import fc from 'fast-check';
import { expect } from 'vitest';

/** The document without bookkeeping ($raw, $span, kept compressed bytes...), typed arrays as `{ type, values }`. */
export function stripMeta(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return { type: v.constructor.name, values: Array.from(v as unknown as ArrayLike<number>) };
  if (Array.isArray(v)) return v.map(stripMeta);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([k, x]) => !k.startsWith('$') && x !== undefined).map(([k, x]) => [k, stripMeta(x)]));
  }
  return v;
}

/**
 * Random valid documents survive encode -> decode (the same document, bookkeeping aside), and the
 * decoded document re-encodes from its fields alone (`reuseRaw` false) to the same bytes.
 */
export function assertEncodeDecode<D>(arb: fc.Arbitrary<D>, encode: (doc: D, reuseRaw?: boolean) => Uint8Array, decode: (bytes: Uint8Array) => D, numRuns: number): void {
  fc.assert(fc.property(arb, (doc) => {
    const bytes = encode(doc);
    const back = decode(bytes);
    expect(stripMeta(back)).toEqual(stripMeta(doc));
    expect(encode(back, false)).toEqual(bytes);
  }), { numRuns });
}
