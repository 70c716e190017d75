import { describe, expect, it } from 'vitest';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { isSharedInput, withSharedInput } from '../../shared/binary/share.ts';
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
