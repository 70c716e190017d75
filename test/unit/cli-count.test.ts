/** The CLI's digit grouping (main/cli/text.ts count): `12 345`, as every summary prints counts. */
import { describe, expect, it } from 'vitest';
import { count, plural } from '../../main/cli/text.ts';

describe('count', () => {
  it('groups the digits of whole numbers in threes from the right', () => {
    expect(count(0)).toBe('0');
    expect(count(7)).toBe('7');
    expect(count(999)).toBe('999');
    expect(count(1000)).toBe('1 000');
    expect(count(12345)).toBe('12 345');
    expect(count(123456)).toBe('123 456');
    expect(count(1234567)).toBe('1 234 567');
    expect(count(Number.MAX_SAFE_INTEGER)).toBe('9 007 199 254 740 991');
  });

  it('leaves the rest as the grouping pattern always did', () => {
    expect(count(-1234)).toBe('-1 234');
    expect(count(12345.5)).toBe('12 345.5');
    expect(count(Number.NaN)).toBe('NaN');
  });

  it('is what plural prints', () => {
    expect(plural(1, 'triangle')).toBe('1 triangle');
    expect(plural(4096, 'vertex', 'vertices')).toBe('4 096 vertices');
  });
});
