import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { BinaryWriter, ByteCounter, IndexRangeError, firstUnfitIndex, writeSized } from '../../shared/binary/writer.ts';

/** Every kind of write, so a writer and a counter can be compared on the same sequence. */
function writeAll(w: BinaryWriter): void {
  w.u8(0xab); w.i8(-2); w.u16(0x1234); w.i16(-3); w.u24(0x123456); w.u32(0xdeadbeef); w.i32(-5);
  w.u64(0x0102030405060708n); w.f32(1.5); w.f64(-0.25);
  w.f32s([1, 2, 3]);
  w.bytes(new Uint8Array([9, 8, 7]));
  w.zeros(3);
  w.typed(new Int16Array([-1, 2]));
  w.indexArray(new Uint32Array([1, 2, 3]), 1);
  w.indexArray(new Uint32Array([300, 65535]), 2);
  w.indexArray(new Uint16Array([7, 8]), 4);
  w.string('ab');
  w.lenString('Привет', 'cp1251');
  w.cstring('z', 'utf8');
  const at = w.reserve32();
  const c = w.claim(5);
  if (!w.counting) w.dataView.setUint32(c + 1, 0x01020304, true);
  w.patchI32(at, 42);
}

describe('BinaryWriter sizing', () => {
  it('a counter measures exactly what a writer writes', () => {
    const counter = new ByteCounter();
    writeAll(counter);
    const w = new BinaryWriter(1);
    writeAll(w);
    expect(counter.pos).toBe(w.finish().length);
    expect(counter.counting).toBe(true);
    expect(w.counting).toBe(false);
  });

  it('writes the same bytes whether presized, grown from nothing or grown across many boundaries', () => {
    const sized = writeSized(writeAll);
    for (const cap of [0, 1, 16, 63, 64, 65, sized.length - 1]) {
      const w = new BinaryWriter(cap);
      writeAll(w);
      expect(Array.from(w.finish())).toEqual(Array.from(sized));
    }
    const r = new BinaryReader(sized);
    expect([r.u8(), r.i8(), r.u16(), r.i16(), r.u24(), r.u32(), r.i32()]).toEqual([0xab, -2, 0x1234, -3, 0x123456, 0xdeadbeef, -5]);
    expect(r.u64()).toBe(0x0102030405060708n);
    expect([r.f32(), r.f64(), ...r.f32s(3)]).toEqual([1.5, -0.25, 1, 2, 3]);
    expect(Array.from(r.u8Array(6))).toEqual([9, 8, 7, 0, 0, 0]);
    expect(Array.from(r.i16Array(2))).toEqual([-1, 2]);
    expect(Array.from(r.indexArray(3, 1))).toEqual([1, 2, 3]);
    expect(Array.from(r.indexArray(2, 2))).toEqual([300, 65535]);
    expect(Array.from(r.indexArray(2, 4))).toEqual([7, 8]);
    expect(r.string(2)).toBe('ab');
    expect(r.lenString('cp1251')).toBe('Привет');
    expect(r.cstring('utf8')).toBe('z');
    expect(r.i32()).toBe(42);
    expect(r.u8()).toBe(0);
    expect(r.u32()).toBe(0x01020304);
    expect(r.atEnd).toBe(true);
  });

  it('finish hands back its own buffer when exactly full, and an exact copy otherwise', () => {
    const w = new BinaryWriter(8);
    w.u32(1); w.u32(2);
    const a = w.finish();
    expect(a.length).toBe(8);
    expect(a.buffer.byteLength).toBe(8);
    expect(w.finish()).toBe(a);
    // Patching would change the bytes handed out: refused, and they stay as they were.
    expect(() => w.patchU32(0, 9)).toThrow(/after finish/);
    expect(() => w.patchI32(4, 9)).toThrow(/after finish/);
    expect(Array.from(a)).toEqual([1, 0, 0, 0, 2, 0, 0, 0]);
    // Writing on grows into a new buffer: the bytes handed out stay as they were, and the new
    // buffer can be patched again.
    w.u32(3);
    w.patchU32(0, 5);
    expect(Array.from(a)).toEqual([1, 0, 0, 0, 2, 0, 0, 0]);
    const b = w.finish();
    expect(b).not.toBe(a);
    expect(Array.from(b.subarray(0, 4))).toEqual([5, 0, 0, 0]);
    expect(b.length).toBe(12);
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(12);
    const partial = new BinaryWriter(100);
    partial.u8(7);
    const c = partial.finish();
    expect(c.buffer.byteLength).toBe(1);
  });
});

describe('BinaryWriter.indexArray', () => {
  it('converts at aligned and unaligned offsets, from typed and plain arrays', () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 65536);
    for (const lead of [0, 1, 2, 3]) {
      for (const src of [Uint32Array.from(values), values, Float64Array.from(values)]) {
        const w = new BinaryWriter(0);
        w.zeros(lead);
        w.indexArray(src, 2);
        w.indexArray(src.map((v: number) => v & 0xff) as ArrayLike<number>, 1);
        w.indexArray(src, 4);
        const r = new BinaryReader(w.finish());
        r.skip(lead);
        expect(Array.from(r.indexArray(1000, 2))).toEqual(values);
        expect(Array.from(r.indexArray(1000, 1))).toEqual(values.map((v) => v & 0xff));
        expect(Array.from(r.indexArray(1000, 4))).toEqual(values);
      }
    }
  });

  it('refuses a value the width cannot hold, naming its position, instead of truncating it', () => {
    const cases: Array<[ArrayLike<number>, 1 | 2 | 4, number]> = [
      [new Uint32Array([1, 2, 256, 3]), 1, 2],
      [new Uint32Array([1, 0x10000]), 2, 1],
      [new Uint16Array([255, 256]), 1, 1],
      [[0, -1], 1, 1],
      [[0, 1.5], 2, 1],
      [[Number.NaN], 4, 0],
      [[2 ** 32], 4, 0],
      [new Int32Array([5, -7]), 4, 1],
    ];
    for (const [a, width, at] of cases) {
      expect(firstUnfitIndex(a, width)).toBe(at);
      const w = new BinaryWriter();
      let err: unknown;
      try {
        w.indexArray(a, width);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(IndexRangeError);
      expect((err as IndexRangeError).index).toBe(at);
      expect(w.length).toBe(0);
    }
    expect(firstUnfitIndex(new Uint32Array([0xffffffff]), 4)).toBe(-1);
    expect(firstUnfitIndex(new Uint32Array([255, 0]), 1)).toBe(-1);
    expect(firstUnfitIndex(new Uint32Array([0x80000000]), 2)).toBe(0);
  });
});

describe('BinaryWriter.claim', () => {
  it('makes room for a run of records filled through dataView, across growth', () => {
    const w = new BinaryWriter(4);
    w.u8(1);
    const at = w.claim(5 * 1000);
    expect(at).toBe(1);
    for (let i = 0; i < 1000; i++) {
      w.dataView.setUint8(at + i * 5, i & 0xff);
      w.dataView.setFloat32(at + i * 5 + 1, i / 2, true);
    }
    w.u8(2);
    const r = new BinaryReader(w.finish());
    expect(r.u8()).toBe(1);
    for (let i = 0; i < 1000; i++) expect([r.u8(), r.f32()]).toEqual([i & 0xff, i / 2]);
    expect(r.u8()).toBe(2);
    expect(r.atEnd).toBe(true);
  });
});

describe('writeSized', () => {
  it('returns a buffer of exactly the measured size, and refuses a writer whose passes differ', () => {
    const out = writeSized((w) => { w.u32(1); w.lenString('abc'); });
    expect(out.length).toBe(11);
    expect(out.buffer.byteLength).toBe(11);
    let calls = 0;
    expect(() => writeSized((w) => { if (calls++ > 0) w.u8(1); })).toThrow(/measured 0 bytes but wrote 1/);
  });
});

describe('BinaryReader.indexArray', () => {
  it('widens 1- and 2-byte indices at even and odd offsets of a view into a larger buffer', () => {
    const values = Array.from({ length: 300 }, (_, i) => (i * 7919) % 65536);
    for (const viewStart of [0, 1, 2, 3]) {
      for (const lead of [0, 1]) {
        const w = new BinaryWriter(0);
        w.zeros(viewStart + lead);
        w.indexArray(values, 2);
        w.indexArray(values.map((v) => v & 0xff), 1);
        w.u8(0xee);
        const file = w.finish();
        const view = file.subarray(viewStart);
        const r = new BinaryReader(view, lead);
        expect(Array.from(r.indexArray(300, 2))).toEqual(values);
        expect(Array.from(r.indexArray(300, 1))).toEqual(values.map((v) => v & 0xff));
        expect(r.u8()).toBe(0xee);
        expect(r.atEnd).toBe(true);
      }
    }
  });

  it('fails with a DecodeError when the indices run past the end', () => {
    const r = new BinaryReader(new Uint8Array(5), 1);
    r.enter('faces');
    expect(() => r.indexArray(3, 2)).toThrow(/faces/);
    expect(r.pos).toBe(1);
    expect(Array.from(r.u8ToU16Array(4))).toEqual([0, 0, 0, 0]);
    expect(() => r.u8ToU16Array(1)).toThrow(/needs 1 bytes/);
  });
});

describe('copies that must not alias their source', () => {
  it('bytesCopy, bulk arrays, copyBytes and finish copy even from a Node Buffer (whose slice is a view)', async () => {
    const { copyBytes } = await import('../../shared/binary/writer.ts');
    const src = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const r = new BinaryReader(src);
    const a = r.bytesCopy(4);
    const b = r.u16Array(2);
    const c = copyBytes(src.subarray(1, 3));
    src.fill(0);
    expect(Array.from(a)).toEqual([1, 2, 3, 4]);
    expect(Array.from(b)).toEqual([0x0605, 0x0807]);
    expect(Array.from(c)).toEqual([2, 3]);
    expect(c.byteOffset).toBe(0);
    expect(c.buffer.byteLength).toBe(2);
  });
});

describe('BinaryWriter.indexArray over many blocks', () => {
  it('narrows large typed arrays at even and odd offsets and finds an offender in a later block', () => {
    const n = 70_000;
    const src32 = Uint32Array.from({ length: n }, (_, i) => (i * 31) % 65536);
    for (const lead of [0, 1]) {
      const w = new BinaryWriter(0);
      w.zeros(lead);
      w.indexArray(src32, 2);
      w.indexArray(Uint16Array.from(src32, (v) => v & 0xff), 1);
      const r = new BinaryReader(w.finish(), lead);
      expect(r.indexArray(n, 2)).toEqual(src32);
      expect(r.indexArray(n, 1)).toEqual(Uint32Array.from(src32, (v) => v & 0xff));
    }
    const bad = src32.slice();
    bad[50_000] = 0x10000;
    const w = new BinaryWriter(0);
    w.u8(1);
    expect(() => w.indexArray(bad, 2)).toThrow(IndexRangeError);
    try {
      w.indexArray(bad, 2);
    } catch (e) {
      expect((e as IndexRangeError).index).toBe(50_000);
      expect((e as IndexRangeError).value).toBe(0x10000);
    }
    expect(w.length).toBe(1);
  });
});
