import { describe, expect, it } from 'vitest';
import {
  BudgetError,
  MemoryBudget,
  activeBudget,
  chargeAllocation,
  defaultBudgetBytes,
  withBudget,
} from '../../shared/binary/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';

describe('decoding memory budget', () => {
  it('defaults to 64 MiB plus 16x the input', () => {
    expect(defaultBudgetBytes(0)).toBe(64 * 1024 * 1024);
    expect(defaultBudgetBytes(1000)).toBe(64 * 1024 * 1024 + 16000);
  });

  it('counts charges and refuses the one that passes the limit, naming limit and the way to raise it', () => {
    const b = new MemoryBudget(1000);
    b.charge(600, 'a');
    expect(b.used).toBe(600);
    let err: unknown;
    try {
      b.charge(500, 'vertex table', 1234, 'LOD1/MSH1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetError);
    expect(isDecodeError(err)).toBe(true);
    const be = err as BudgetError;
    expect(be.offset).toBe(1234);
    expect(be.path).toBe('LOD1/MSH1');
    expect(be.message).toMatch(/vertex table would allocate 500 bytes/);
    expect(be.message).toMatch(/--max-memory/);
    expect(b.used).toBe(600);
    expect(() => b.charge(Number.NaN, 'x')).toThrow(BudgetError);
    expect(() => b.charge(-1, 'x')).toThrow(BudgetError);
  });

  it('applies the budget in force inside withBudget and restores the outer one', () => {
    const outer = new MemoryBudget(100);
    const inner = new MemoryBudget(10);
    withBudget(outer, () => {
      withBudget(inner, () => {
        expect(activeBudget()).toBe(inner);
        expect(() => chargeAllocation(11, 'x')).toThrow(BudgetError);
      });
      expect(activeBudget()).toBe(outer);
      chargeAllocation(50, 'y');
      expect(outer.used).toBe(50);
    });
    expect(activeBudget()).toBeUndefined();
  });

  it('bounds a single allocation by the default limit outside withBudget', () => {
    expect(() => chargeAllocation(64 * 1024 * 1024 + 1, 'x')).toThrow(BudgetError);
    expect(() => chargeAllocation(64 * 1024 * 1024 + 1, 'x', 0, '', 1)).not.toThrow();
  });
});
