/**
 * ODOL arrays with a count of 0 (most arrays of a real file) take a short path in readPacked:
 * no flag byte, no block, one shared zero-length buffer. They must still look like every other
 * array to the rest of the program, and a budget failure in the reader still names its node.
 */
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { BinaryReader } from '../../shared/binary/reader.ts';
import { BinaryWriter } from '../../shared/binary/writer.ts';
import { I32, readPacked, VEC3, writePacked, type PackContext } from '../../shared/formats/p3d/odol/packed.ts';

const le32 = (...values: number[]): Uint8Array => new Uint8Array(new Int32Array(values).buffer);

describe('ODOL empty arrays', () => {
  for (const flagged of [false, true]) {
    it(`${flagged ? 'v64+ (flag byte)' : 'before v64'}: a count of 0 reads 4 bytes, keeps span and raw bytes, and writes back the same`, () => {
      const ctx: PackContext = { method: 'lzo', flagged };
      // An empty array, then a 2-element array stored raw (with its flag byte from v64).
      const tail = flagged ? [2, 0, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0] : [2, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0];
      const bytes = new Uint8Array([0xaa, 0, 0, 0, 0, ...tail]);
      const r = new BinaryReader(bytes, 1);
      const empty = readPacked(r, ctx, VEC3, 'vertices');
      expect(r.pos).toBe(5);
      expect(empty.data).toBeInstanceOf(Float32Array);
      expect(empty.data.length).toBe(0);
      expect(empty.$span).toEqual([1, 5]);
      expect([...empty.$raw!]).toEqual([0, 0, 0, 0]);
      expect(empty.flag).toBeUndefined();
      expect(Object.keys(empty)).toEqual(['data', '$span', '$raw']);
      const next = readPacked(r, ctx, I32, 'sections');
      expect([...next.data]).toEqual([7, 9]);
      expect(r.pos).toBe(bytes.length);
      // Written from its fields (no raw bytes), the empty array is a count of 0 again.
      for (const reuse of [true, false]) {
        const w = new BinaryWriter();
        writePacked(w, ctx, empty, VEC3, reuse);
        expect([...w.finish()]).toEqual([0, 0, 0, 0]);
      }
      // An edit gives an empty array data of its own, which is written as such.
      const edited = { data: new Float32Array([1, 2, 3]) };
      const w = new BinaryWriter();
      writePacked(w, ctx, edited, VEC3, false);
      expect([...w.finish()].slice(0, flagged ? 5 : 4)).toEqual(flagged ? [1, 0, 0, 0, 0] : [1, 0, 0, 0]);
    });
  }

  it('list indices entered as numbers print as [i] in paths and errors, and carry into sub-readers', () => {
    const r = new BinaryReader(new Uint8Array(16));
    r.enter('sections');
    r.enterIndex(3);
    expect(r.path).toBe('sections/[3]');
    expect(r.pathSegments).toEqual(['sections', '[3]']);
    const sub = r.sub(4, 'rest');
    expect(sub.path).toBe('sections/[3]/rest');
    r.pos = 16;
    expect(() => r.u32()).toThrow(expect.objectContaining({ path: 'sections/[3]' }));
    r.leave();
    expect(r.path).toBe('sections');
  });

  it('a count running past the data is still an error naming the array', () => {
    const r = new BinaryReader(new Uint8Array([0, 0]));
    expect(() => readPacked(r, { method: 'lzo', flagged: true }, I32, 'faces')).toThrow(/faces/);
  });

  it('a reader allocation past the budget names offset and node path (built only then)', () => {
    const r = new BinaryReader(le32(5, 1, 2, 3, 4, 5));
    r.enter('lods[0]');
    r.enter('frames');
    r.pos = 4;
    let err: unknown;
    withBudget(new MemoryBudget(12), () => {
      try {
        r.i32Array(5, 'points');
      } catch (e) {
        err = e;
      }
    });
    expect(err).toBeInstanceOf(BudgetError);
    expect((err as BudgetError).path).toBe('lods[0]/frames');
    expect((err as BudgetError).offset).toBe(4);
    // Within the budget the same read succeeds and is counted.
    const budget = new MemoryBudget(64);
    r.pos = 4;
    expect([...withBudget(budget, () => r.i32Array(5, 'points'))]).toEqual([1, 2, 3, 4, 5]);
    expect(budget.used).toBe(20);
  });
});
