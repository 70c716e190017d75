import { describe, expect, it } from 'vitest';
import {
  checkNumber, editorFor, enumOptions, flagBits, formatNumber, hexToRgba, parseNumber, parseScalar, rgbaToHex, summarize, toggleFlag,
  withComponent,
} from '../../renderer/lib/field-values.ts';
import { hexRows } from '../../renderer/lib/hex.ts';

describe('inspector values', () => {
  it('summarizes a typed array the host sent as a summary in words, never as raw JSON', () => {
    const sum = (a: ArrayLike<number> & { constructor: { name: string } }) => ({ type: a.constructor.name, length: a.length, head: Array.from(a).slice(0, 8) });
    expect(summarize(sum(new Uint8Array(0)))).toBe('none (0 B)');
    expect(summarize(sum(new Float32Array(0)))).toBe('none (0 × Float32)');
    expect(summarize(sum(Uint8Array.of(1, 10, 255)))).toBe('3 B: 01 0a ff');
    expect(summarize(sum(new Uint8Array(4096).fill(7)))).toBe('4,096 B: 07 07 07 07 07 07 07 07 …');
    expect(summarize(sum(Float32Array.of(1, 2.5)))).toBe('2 × Float32: 1, 2.5');
    expect(summarize(sum(new Uint16Array(9)))).toBe('9 × Uint16: 0, 0, 0, 0, 0, 0, 0, 0 …');
    // A record that merely has a field named type is not taken for an array.
    expect(summarize({ type: 'wheel', length: 2, head: [] })).not.toMatch(/B:|×/);
  });

  it('parses decimal, hex and exponent numbers and rejects junk', () => {
    expect(parseNumber('42')).toBe(42);
    expect(parseNumber(' -0x10 ')).toBe(-16);
    expect(parseNumber('1.5e3')).toBe(1500);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('')).toBeNaN();
    expect(parseNumber('12abc')).toBeNaN();
    expect(parseNumber('1,5')).toBeNaN();
  });

  it('refuses values a field cannot hold, with the reason', () => {
    expect(checkNumber('u8', 256)).toBe('must be between 0 and 255');
    expect(checkNumber('u8', 1.5)).toBe('must be a whole number');
    expect(checkNumber('i16', -32768)).toBeUndefined();
    expect(checkNumber('f32', 1e39)).toBe('is too large for a 32-bit float');
    expect(checkNumber('f32', Infinity)).toBe('must be a finite number');
    expect(checkNumber('u8', 129, 0, 128)).toBe('must be at most 128');
    expect(parseScalar({ kind: 'u8', min: 0, max: 128 }, '200')).toEqual({ ok: false, message: 'must be at most 128' });
    expect(parseScalar({ kind: 'i32' }, '-7')).toEqual({ ok: true, value: -7 });
  });

  it('replaces one component of a vector and keeps the others', () => {
    const f = { kind: 'vec3' as const, value: [1, 2, 3] };
    expect(withComponent(f, 1, '5')).toEqual({ ok: true, value: [1, 5, 3] });
    expect(withComponent(f, 1, 'x')).toEqual({ ok: false, message: 'must be a number' });
    expect(f.value).toEqual([1, 2, 3]);
  });

  it('chooses an editor per kind and keeps derived fields read-only', () => {
    expect(editorFor({ kind: 'f32', value: 1 })).toBe('number');
    expect(editorFor({ kind: 'f32', value: 1, readonly: true })).toBe('readonly');
    expect(editorFor({ kind: 'enum', value: 2 })).toBe('enum');
    expect(editorFor({ kind: 'rgba', value: [1, 0, 0, 1] })).toBe('color');
    expect(editorFor({ kind: 'mat4', value: new Array(16).fill(0) })).toBe('tuple');
    expect(editorFor({ kind: 'array', value: 'Float32Array(30)' })).toBe('readonly');
    expect(editorFor({ kind: 'bool', value: 1 })).toBe('bool');
  });

  it('shows float32 values without noise', () => {
    expect(formatNumber(Math.fround(0.3), 'f32')).toBe('0.3');
    expect(formatNumber(7, 'u8')).toBe('7');
  });

  it('keeps unknown enum values selectable and lists unlabelled set flag bits', () => {
    const opts = enumOptions(['a', 'b'], 9);
    expect(opts.map((o) => o.value)).toEqual([0, 1, 9]);
    expect(opts[2]!.label).toBe('9 (unknown)');
    const bits = flagBits(['x', 'y'], 0b101);
    expect(bits.map((b) => [b.label, b.on])).toEqual([['x', true], ['y', false], ['bit 2', true]]);
    expect(toggleFlag(0b101, 1, true)).toBe(0b111);
    expect(toggleFlag(0b101, 0, false)).toBe(0b100);
    expect(toggleFlag(0x80000000, 31, false)).toBe(0);
  });

  it('converts colours for the picker and keeps alpha', () => {
    expect(rgbaToHex([1, 0.5, 0, 0.2])).toBe('#ff8000');
    expect(rgbaToHex([2, -1, 0, 1])).toBe('#ff0000');
    expect(hexToRgba('#ff0000', [0, 0, 0, 0.25])).toEqual([1, 0, 0, 0.25]);
  });

  it('lays bytes out in aligned rows and marks the highlighted field', () => {
    const rows = hexRows(new Uint8Array([0x41, 0x42, 0x00, 0xff]), 14, [14, 18], [15, 16]);
    expect(rows.map((r) => r.offset)).toEqual([0, 16]);
    const cells = rows.flatMap((r) => r.cells).filter((c) => c.hex.trim());
    expect(cells.map((c) => c.offset)).toEqual([14, 15, 16, 17]);
    expect(cells.map((c) => c.ch)).toEqual(['A', 'B', '·', '·']);
    expect(cells.filter((c) => c.highlight).map((c) => c.offset)).toEqual([15]);
  });
});
