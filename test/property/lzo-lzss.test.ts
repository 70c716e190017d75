import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lzssCompress, lzssDecompress } from '../../shared/binary/lzss.ts';
import { lzo1xCompress, lzo1xDecompress } from '../../shared/binary/lzo1x.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

/** Byte strings with runs and repeats, so both literals and every match kind get exercised. */
const bytesWithRepeats = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.record({ b: fc.integer({ min: 0, max: 255 }), n: fc.integer({ min: 1, max: 600 }) }).map(({ b, n }) => new Uint8Array(n).fill(b)),
      fc.constant(new TextEncoder().encode('Geometry Memory ')),
    ),
    { maxLength: 60 },
  )
  .map(joinBytes);

describe('compression properties', () => {
  it('LZO1X: decompress(compress(x)) = x and uses the whole stream', () => {
    fc.assert(
      fc.property(bytesWithRepeats, (data) => {
        const c = lzo1xCompress(data);
        const r = lzo1xDecompress(c, 0, data.length);
        expect(r.consumed).toBe(c.length);
        expect(Buffer.from(r.data).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('LZSS: decompress(compress(x)) = x for both checksum flavours', () => {
    fc.assert(
      fc.property(bytesWithRepeats, fc.boolean(), (data, signedChecksum) => {
        const c = lzssCompress(data, { signedChecksum });
        const r = lzssDecompress(c, 0, data.length, { signedChecksum });
        expect(r.consumed).toBe(c.length);
        expect(Buffer.from(r.data).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes never make either decoder throw anything but DecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 5000 }), (src, size) => {
        for (const run of [() => lzo1xDecompress(src, 0, size), () => lzssDecompress(src, 0, size)]) {
          try {
            expect(run().data.length).toBe(size);
          } catch (e) {
            expect(isDecodeError(e)).toBe(true);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
