/** The chunked comparison the CLI's round trip uses must find the same first difference as the byte loop. */
import { describe, expect, it } from 'vitest';
import { firstDifferenceFast } from '../../main/cli/verify.ts';
import { firstDifference } from '../../shared/model/compare.ts';

describe('firstDifferenceFast', () => {
  const size = (1 << 20) * 3 + 12345;
  const a = new Uint8Array(size);
  for (let i = 0; i < size; i++) a[i] = (i * 2654435761) >>> 24;

  it('finds the first difference in any chunk, at chunk edges, and in views at an offset', () => {
    expect(firstDifferenceFast(a, a.slice())).toBe(-1);
    for (const at of [0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 2 * (1 << 20) + 77, size - 1]) {
      const b = a.slice();
      b[at] = b[at]! ^ 0xff;
      b[Math.min(size - 1, at + 5)] = b[Math.min(size - 1, at + 5)]! ^ 0x0f;
      expect(firstDifferenceFast(a, b), `changed at ${at}`).toBe(at);
      expect(firstDifferenceFast(a, b)).toBe(firstDifference(a, b));
    }
    const shifted = new Uint8Array(size + 3);
    shifted.set(a, 3);
    expect(firstDifferenceFast(shifted.subarray(3), a)).toBe(-1);
  });

  it('reports the shorter length when one is a prefix of the other', () => {
    expect(firstDifferenceFast(a, a.subarray(0, 1000))).toBe(1000);
    expect(firstDifferenceFast(a.subarray(0, 5), a)).toBe(5);
  });
});
