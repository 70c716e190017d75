import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { BinaryWriter } from '../../shared/binary/writer.ts';
import { decodeText, encodeText } from '../../shared/binary/text.ts';
import { DecodeError } from '../../shared/errors.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { bool, cstring, enumU8, f32, f64, i16, i32, i8, lenString, mat4x3, nanBitsOf, struct, u16, u32, u8, vec3 } from '../../shared/schema/schema.ts';

describe('BinaryReader / BinaryWriter', () => {
  it('round-trips every scalar type little-endian', () => {
    const w = new BinaryWriter(4);
    w.u8(250); w.i8(-5); w.u16(65000); w.i16(-30000); w.u32(4000000000); w.i32(-2000000000); w.f32(1.5); w.f64(-2.25);
    w.lenString('abc'); w.cstring('z');
    const b = w.finish();
    expect(b.length).toBe(1 + 1 + 2 + 2 + 4 + 4 + 4 + 8 + 7 + 2);
    const r = new BinaryReader(b);
    expect([r.u8(), r.i8(), r.u16(), r.i16(), r.u32(), r.i32(), r.f32(), r.f64()]).toEqual([250, -5, 65000, -30000, 4000000000, -2000000000, 1.5, -2.25]);
    expect(r.lenString()).toBe('abc');
    expect(r.cstring()).toBe('z');
    expect(r.atEnd).toBe(true);
  });

  it('reads bulk arrays from unaligned offsets into aligned typed arrays', () => {
    const w = new BinaryWriter();
    w.u8(1);
    w.typed(new Float32Array([1, 2, 3]));
    w.indexArray([1, 300, 2], 2);
    const r = new BinaryReader(w.finish());
    r.u8();
    expect(Array.from(r.f32Array(3))).toEqual([1, 2, 3]);
    expect(Array.from(r.indexArray(3, 2))).toEqual([1, 300, 2]);
  });

  it('reports offset and node path when data runs out', () => {
    const r = new BinaryReader(new Uint8Array([1, 2, 3]));
    r.enter('LOD1');
    r.enter('MSH1[2]');
    r.u16();
    let err: unknown;
    try {
      r.u32();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).offset).toBe(2);
    expect((err as DecodeError).path).toBe('LOD1/MSH1[2]');
  });

  it('refuses a count larger than the bytes left before allocating', () => {
    const w = new BinaryWriter();
    w.i32(0x7fffffff);
    const r = new BinaryReader(w.finish());
    expect(() => r.i32Count(12, 'vertex')).toThrow(/vertex count 2147483647/);
    const r2 = new BinaryReader(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    expect(() => r2.i32Count(1, 'name')).toThrow(DecodeError);
  });

  it('sub-readers are bounded by their window', () => {
    const r = new BinaryReader(new Uint8Array(10));
    const s = r.sub(4, 'INF1');
    s.u32();
    expect(() => s.u8()).toThrow(/INF1/);
    expect(r.pos).toBe(4);
  });
});

describe('text codecs', () => {
  it('cp1251 and latin1 are bijective over all bytes', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const enc of ['latin1', 'cp1251'] as const) {
      expect(Array.from(encodeText(decodeText(all, enc), enc))).toEqual(Array.from(all));
    }
    expect(decodeText(new Uint8Array([0xcf, 0xf0, 0xe8]), 'cp1251')).toBe('При');
  });

  it('latin1 text of every length around the short-string tables, from views and from NUL-terminated strings', () => {
    // Short text goes through a reused code array per length: every length must read its own
    // bytes only, whatever a longer or shorter string left in the tables before it.
    const expected = (b: ArrayLike<number>): string => Array.from(b, (c) => String.fromCharCode(c)).join('');
    for (const n of [0, 1, 2, 63, 64, 65, 200, 8192, 8193, 20000, 3, 64, 1]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => 1 + ((i * 37 + n) % 255));
      expect(decodeText(bytes, 'latin1'), `${n} bytes`).toBe(expected(bytes));
      // The same bytes as a C string at an odd place in a larger buffer.
      const buf = new Uint8Array(n + 3).fill(0xee);
      buf.set(bytes, 1);
      buf[n + 1] = 0;
      const r = new BinaryReader(buf, 1);
      expect(r.cstring(), `cstring of ${n} bytes`).toBe(expected(bytes));
      expect(r.pos).toBe(n + 2);
    }
  });
});

describe('schema', () => {
  const Light = struct('light', {
    enabled: bool.note('on/off'),
    style: enumU8(['spot', 'omni', 'parallel']),
    position: vec3,
    tag: i16,
    name: lenString('cp1251'),
    power: f32.range(0, 10),
  });

  it('decodes, encodes and sizes a record, and lists its fields with offsets', () => {
    const v = { enabled: 1, style: 2, position: [1, 2, 3], tag: -1, name: 'Лампа', power: 2.5 };
    const w = new BinaryWriter();
    Light.write(w, v);
    const bytes = w.finish();
    expect(bytes.length).toBe(Light.size(v));
    const back = Light.read(new BinaryReader(bytes));
    expect(back).toMatchObject(v);
    expect(back.$span).toEqual([0, bytes.length]);
    expect(Light.fields.map((f) => [f.name, f.offset])).toEqual([
      ['enabled', 0], ['style', 1], ['position', 2], ['tag', 14], ['name', 16], ['power', undefined],
    ]);
    expect(Light.fields[1]!.enumLabels).toEqual(['spot', 'omni', 'parallel']);
    expect(Light.layout(v, 100).at(-1)!.span).toEqual([100 + 16 + 4 + 5, 100 + 16 + 4 + 5 + 4]);
  });

  it('refuses values out of range', () => {
    expect(Light.checkField('tag', 40000)).toMatch(/between/);
    expect(Light.checkField('power', 11)).toMatch(/at most 10/);
    expect(Light.checkField('style', 1.5)).toMatch(/whole/);
    expect(Light.checkField('power', 3)).toBeUndefined();
  });

  it('a record of numbers, float tuples and C strings reads by its plan exactly as field by field: values, NaN bytes, span, position, errors', () => {
    // Struct.read takes a planned path when the record's fixed part fits the window; readFields is
    // the generic one it must match, including where and how a short or damaged record fails.
    const Rec = struct('rec', { name: cstring(), a: u8, b: i8, c: u16, d: i16, e: u32, f: i32, g: f32, h: f64, m: mat4x3, tag: cstring('cp1251'), v: vec3 });
    const generic = (r: BinaryReader): unknown => (Rec as unknown as { readFields(r: BinaryReader): unknown }).readFields(r);
    const outcome = (read: (r: BinaryReader) => unknown, bytes: Uint8Array, at: number, end: number) => {
      const r = new BinaryReader(bytes).sub(end);
      r.pos = at;
      try {
        const rec = read(r) as Record<string, unknown>;
        const bits = nanBitsOf(rec);
        return { rec: JSON.stringify(rec, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x)), keys: Object.keys(rec), bits: bits && JSON.stringify(Object.entries(bits).map(([k, b]) => [k, Array.isArray(b) ? b.map((e) => e && Array.from(e)) : Array.from(b)])), pos: r.pos };
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        return { error: `${(e as DecodeError).message}|${(e as DecodeError).offset}|${(e as DecodeError).path}` };
      }
    };
    let seed = 12345;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 255;
    let planned = 0;
    for (let round = 0; round < 400; round++) {
      const bytes = new Uint8Array(180);
      for (let i = 0; i < bytes.length; i++) bytes[i] = rnd() < 200 ? rnd() : 0;
      // NaNs (quiet, signalling, negative) in some floats, as a file may hold them.
      const dv = new DataView(bytes.buffer);
      if (round % 3 === 0) for (let k = 0; k < 40; k += 4) dv.setUint32(8 + k + (round % 4), [0x7fc00000, 0x7f800001, 0xffa00123][k % 3]!, true);
      const at = round % 7;
      // Every window end from "nothing" to "everything", so both paths meet every way to run short.
      for (const end of [at, at + 1, at + 9, at + 20, at + 40, at + 70, at + 99, at + 120, 180]) {
        const fast = outcome((r) => Rec.read(r), bytes, at, Math.min(end, 180));
        const slow = outcome(generic, bytes, at, Math.min(end, 180));
        expect(fast).toEqual(slow);
        if (!('error' in fast)) planned++;
      }
    }
    expect(planned).toBeGreaterThan(100);
    // A budget too small for the tuples' charge: both fail alike, the field on the path.
    const bytes = new Uint8Array(180).fill(65);
    bytes[5] = 0;
    bytes[85] = 0;
    for (const limit of [10, 60, 100, 110]) {
      const fast = withBudget(new MemoryBudget(limit), () => outcome((r) => Rec.read(r), bytes, 0, 180));
      const slow = withBudget(new MemoryBudget(limit), () => outcome(generic, bytes, 0, 180));
      expect(fast).toEqual(slow);
      expect('error' in fast && fast.error).toMatch(/\|(m|v)$/);
    }
  });

  it('keeps float bits a JS number cannot carry (signalling NaNs) per field, through spreads and edits elsewhere', () => {
    const Rec = struct('rec', { a: f32, v: vec3, n: i16 });
    const bytes = new Uint8Array(18);
    const dv = new DataView(bytes.buffer);
    dv.setUint32(0, 0x7f8000ff, true); // signalling NaN with a payload
    dv.setUint32(8, 0xff800001, true); // another one inside the vector
    dv.setInt16(16, 7, true);
    const rec = Rec.read(new BinaryReader(bytes));
    expect(Number.isNaN(rec.a)).toBe(true);
    expect(Object.keys(rec)).toEqual(['a', 'v', 'n', '$span']);
    const w = new BinaryWriter();
    Rec.write(w, rec);
    expect(Array.from(w.finish())).toEqual(Array.from(bytes));
    // A spread copy (how codecs and edits copy records) carries the kept bytes.
    const w2 = new BinaryWriter();
    Rec.write(w2, { ...rec });
    expect(Array.from(w2.finish())).toEqual(Array.from(bytes));
    // An edit to another field, or to another element of the vector, keeps every untouched NaN.
    rec.n = 9;
    rec.v = [rec.v[0]!, rec.v[1]!, 5];
    const w3 = new BinaryWriter();
    Rec.write(w3, rec);
    const out = new DataView(w3.finish().buffer);
    expect(out.getInt16(16, true)).toBe(9);
    expect(out.getUint32(0, true)).toBe(0x7f8000ff);
    expect(out.getUint32(8, true)).toBe(0xff800001);
    expect(out.getFloat32(12, true)).toBe(5);
    // A NaN field given a number is written as that number.
    rec.a = 1.5;
    const w4 = new BinaryWriter();
    Rec.write(w4, rec);
    expect(new DataView(w4.finish().buffer).getFloat32(0, true)).toBe(1.5);
  });

  it('separates what a field can store from the spec range an edit must respect', () => {
    // A file read with an out-of-spec value must write back as it came; an edit may not make one.
    expect(Light.checkFieldStorable('power', 11)).toBeUndefined();
    expect(Light.checkField('power', 11)).toMatch(/at most 10/);
    expect(Light.checkFieldStorable('tag', 40000)).toMatch(/between/);
    expect(Light.checkFieldStorable('style', 'x')).toMatch(/number/);
  });
});
