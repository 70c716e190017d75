import { describe, expect, it } from 'vitest';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { BinaryReader, LAZY_INDICES } from '../../shared/binary/reader.ts';
import { isSharedInput, keepIntact, withSharedInput } from '../../shared/binary/share.ts';
import { settleInSitu } from '../../shared/model/in-situ.ts';
import { deferField, isDeferred } from '../../shared/model/deferred.ts';
import { applyCommand } from '../../shared/model/commands.ts';

/** 4 header bytes, then 8 f32 / u32 values: offset 4 is aligned for every element size up to 4. */
function sample(): Uint8Array {
  const b = new Uint8Array(4 + 32 + 3);
  const dv = new DataView(b.buffer);
  for (let i = 0; i < 8; i++) dv.setFloat32(4 + i * 4, i + 0.5, true);
  b.set([7, 8, 9], 36);
  return b;
}

describe('sharing reader', () => {
  it('hands out views of the input for aligned bulk reads and copies otherwise', () => {
    const b = sample();
    const r = new BinaryReader(b, 4, b.length, [], { share: true });
    const f = r.f32Array(4);
    expect(f.buffer).toBe(b.buffer);
    expect(f.byteOffset).toBe(4);
    expect(Array.from(f)).toEqual([0.5, 1.5, 2.5, 3.5]);
    const u = r.u32Array(4);
    expect(u.buffer).toBe(b.buffer);
    // Offset 36 + 1 is odd: a u16 view is impossible there, so it is a copy.
    r.skip(1);
    const odd = r.u16Array(1);
    expect(odd.buffer).not.toBe(b.buffer);
    expect(odd[0]).toBe(9 * 256 + 8);
  });

  it('copies every bulk read when not sharing (the default)', () => {
    const b = sample();
    const r = new BinaryReader(b, 4);
    expect(r.share).toBe(false);
    expect(r.f32Array(4).buffer).not.toBe(b.buffer);
    expect(r.bytesCopy(4).buffer).not.toBe(b.buffer);
  });

  it('follows withSharedInput for readers over that input only, sub-readers included', () => {
    const b = sample();
    const other = sample();
    withSharedInput(b, () => {
      const r = new BinaryReader(b, 4);
      expect(r.share).toBe(true);
      const s = r.sub(16);
      expect(s.share).toBe(true);
      expect(s.f32Array(4).buffer).toBe(b.buffer);
      expect(r.bytesCopy(3).buffer).toBe(b.buffer);
      expect(new BinaryReader(other).share).toBe(false);
    });
    expect(new BinaryReader(b).share).toBe(false);
  });

  it('a view charges nothing to the memory budget, a copy charges its size', () => {
    const b = sample();
    const budget = new MemoryBudget(1 << 20);
    withBudget(budget, () => new BinaryReader(b, 4, b.length, [], { share: true }).f32Array(8));
    expect(budget.used).toBe(0);
    withBudget(budget, () => new BinaryReader(b, 4).f32Array(8));
    expect(budget.used).toBe(32);
  });

  it('still checks bounds when sharing', () => {
    const b = sample();
    const r = new BinaryReader(b, 4, b.length, [], { share: true });
    expect(() => r.f32Array(100)).toThrow(/needs 400 bytes/);
  });

  it('an element edit of a shared array copies the array first and never writes into the input', () => {
    const b = sample();
    const before = b.slice();
    const doc = withSharedInput(b, () => ({ mesh: { $raw: b.subarray(0, 36), positions: new BinaryReader(b, 4).f32Array(8) } }));
    expect(isSharedInput(doc.mesh.positions)).toBe(true);
    const inverse = applyCommand(doc, { op: 'set', path: ['mesh', 'positions', 2], value: 42 });
    expect(doc.mesh.positions[2]).toBe(42);
    expect(doc.mesh.positions.buffer).not.toBe(b.buffer);
    expect(b).toEqual(before);
    applyCommand(doc, inverse);
    expect(doc.mesh.positions[2]).toBe(2.5);
    expect(b).toEqual(before);
  });
});

describe('in-situ reading', () => {
  /** A count byte, then `n` floats (1.5, 2.5, ...) at offset 1: unaligned by 1. */
  function counted(n: number, lead = 1): Uint8Array {
    const b = new Uint8Array(lead + n * 4);
    b[lead - 1] = n;
    const dv = new DataView(b.buffer);
    for (let i = 0; i < n; i++) dv.setFloat32(lead + i * 4, i + 1.5, true);
    return b;
  }

  it('moves an unaligned array down into alignment once the decode returns, allocating nothing', () => {
    const b = counted(3);
    const budget = new MemoryBudget(1 << 20);
    const doc = withBudget(budget, () => withSharedInput(b, () => {
      const r = new BinaryReader(b);
      expect(r.inSitu).toBe(true);
      const n = r.u8();
      return { values: r.f32Array(n) };
    }, 'in-situ', settleInSitu));
    expect(doc.values.buffer).toBe(b.buffer);
    expect(doc.values.byteOffset).toBe(0);
    expect(Array.from(doc.values)).toEqual([1.5, 2.5, 3.5]);
    expect(budget.used).toBe(0);
  });

  it('moves nothing for an array the finished document does not hold (a layout tried and dropped)', () => {
    const b = counted(3);
    const before = b.slice();
    const doc = withSharedInput(b, () => {
      const tried = new BinaryReader(b);
      tried.u8();
      tried.f32Array(3);
      return { n: b[0] };
    }, 'in-situ', settleInSitu);
    expect(doc.n).toBe(3);
    expect(b).toEqual(before);
  });

  // Two bytes, a count byte, then floats at offset 3: the floats' aligned place (0) is where the
  // two bytes are. The document either views those bytes, or a deferred field reads them later.
  for (const keeps of ['a view the document holds', 'bytes a deferred field reads later (keepIntact)'] as const) {
    it(`decodes again with copies when a move would overwrite ${keeps}`, () => {
      const b = new Uint8Array(3 + 8);
      b.set([0xaa, 0xbb, 2]);
      new DataView(b.buffer).setFloat32(3, 1.25, true);
      new DataView(b.buffer).setFloat32(7, -2, true);
      const before = b.slice();
      let runs = 0;
      const doc = withSharedInput(b, () => {
        runs++;
        const r = new BinaryReader(b);
        const out: { tag?: Uint8Array | number[]; values?: Float32Array } = {};
        if (keeps === 'a view the document holds') out.tag = r.bytesCopy(2);
        else {
          const src = keepIntact(r.bytesView(2));
          deferField(out, 'tag', () => Array.from(src));
        }
        out.values = r.f32Array(r.u8());
        return out;
      }, 'in-situ', settleInSitu);
      expect(runs).toBe(2);
      expect(b).toEqual(before);
      expect(doc.values!.buffer).not.toBe(b.buffer);
      expect(Array.from(doc.values!)).toEqual([1.25, -2]);
      if (keeps === 'a view the document holds') expect((doc.tag as Uint8Array).buffer).toBe(b.buffer);
      else {
        expect(isDeferred(doc, 'tag')).toBe(true);
        expect(doc.tag).toEqual([0xaa, 0xbb]);
      }
    });
  }

  it('lazyIndexArray defers 1- and 2-byte indices of a sharing reader, at any offset, and widens them on demand', () => {
    const n = LAZY_INDICES + 3;
    for (const width of [1, 2] as const) {
      for (const lead of [0, 1, 2, 3]) {
        const b = new Uint8Array(lead + n * width);
        for (let i = 0; i < n; i++) {
          if (width === 1) b[lead + i] = (i * 7) & 0xff;
          else new DataView(b.buffer).setUint16(lead + i * 2, (i * 7919) & 0xffff, true);
        }
        const copied = new BinaryReader(b, lead).indexArray(n, width);
        const budget = new MemoryBudget(1 << 24);
        const make = withBudget(budget, () => new BinaryReader(b, lead, b.length, [], { share: true }).lazyIndexArray(n, width));
        // Charged as the widened array it stands for (and the copy an odd 2-byte offset needs).
        expect(budget.used).toBe(n * (width === 2 && lead % 2 ? 6 : 4));
        expect(make).toBeTypeOf('function');
        expect(make!()).toEqual(copied);
        expect(new BinaryReader(b, lead).lazyIndexArray(n, width)).toBeUndefined();
        expect(new BinaryReader(b, lead, b.length, [], { share: true }).lazyIndexArray(LAZY_INDICES - 1, width)).toBeUndefined();
      }
    }
  });

  it('never moves below the start of the input inside a larger buffer (a pooled Buffer)', () => {
    const whole = new Uint8Array(16);
    const b = whole.subarray(5, 5 + 9);
    b[0] = 2;
    new DataView(whole.buffer).setFloat32(6, 7.5, true);
    new DataView(whole.buffer).setFloat32(10, 8.5, true);
    whole[4] = 0x77;
    const doc = withSharedInput(b, () => {
      const r = new BinaryReader(b);
      return { values: r.f32Array(r.u8()) };
    }, 'in-situ', settleInSitu);
    // Offset 6's aligned place is 4, outside the input: copied instead, the byte before untouched.
    expect(whole[4]).toBe(0x77);
    expect(Array.from(doc.values)).toEqual([7.5, 8.5]);
  });
});

