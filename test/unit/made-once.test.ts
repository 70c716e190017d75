/** madeOnce: nothing made until asked for, then the one value every time. */
import { expect, it } from 'vitest';
import { madeOnce } from '../../shared/binary/once.ts';

it('makes its value on the first call only, and hands the same value to every call', () => {
  let calls = 0;
  const get = madeOnce(() => {
    calls++;
    return { n: calls };
  });
  expect(calls).toBe(0);
  const first = get();
  expect(get()).toBe(first);
  expect(get()).toBe(first);
  expect(calls).toBe(1);
  // A value that is itself falsy is kept too (not made again).
  let zeros = 0;
  const zero = madeOnce(() => (zeros++, 0));
  expect([zero(), zero()]).toEqual([0, 0]);
  expect(zeros).toBe(1);
});
