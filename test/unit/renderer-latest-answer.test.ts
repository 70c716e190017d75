/**
 * The renderer's one stale-answer guard: an answer that arrives after a newer question, or
 * after the state it was asked for was dropped, is recognised as stale whatever order the
 * answers come back in.
 */
import { describe, expect, it } from 'vitest';
import { latestAnswer } from '../../renderer/lib/latest-answer.ts';

/** A promise resolved from outside, to play answers back in any order. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('latestAnswer', () => {
  it('keeps only the newest question current', () => {
    const a = latestAnswer();
    const first = a.ask();
    expect(first()).toBe(true);
    const second = a.ask();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
  });

  it('drop makes every open question stale, and later questions are current again', () => {
    const a = latestAnswer();
    const q = a.ask();
    a.drop();
    expect(q()).toBe(false);
    expect(a.ask()()).toBe(true);
  });

  it('guards are independent of each other', () => {
    const a = latestAnswer();
    const b = latestAnswer();
    const qa = a.ask();
    b.ask();
    b.drop();
    expect(qa()).toBe(true);
  });

  it('take: an older answer arriving last is stale, the newer one is kept', async () => {
    const a = latestAnswer();
    const older = deferred<string>();
    const newer = deferred<string>();
    const r1 = a.take(older.promise);
    const r2 = a.take(() => newer.promise);
    newer.resolve('new');
    older.resolve('old');
    expect(await r2).toBe('new');
    expect(await r1).toBe(a.stale);
  });

  it('take: an answer arriving after a drop is stale', async () => {
    const a = latestAnswer();
    const d = deferred<number>();
    const r = a.take(d.promise);
    a.drop();
    d.resolve(1);
    expect(await r).toBe(a.stale);
  });

  it('a view fed by the guard ends on the newest answer under any arrival order', async () => {
    for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]]) {
      const a = latestAnswer();
      let shown = -1;
      const answers = [0, 1, 2].map(() => deferred<number>());
      const runs = answers.map(async (d) => {
        const current = a.ask();
        const v = await d.promise;
        if (current()) shown = v;
      });
      for (const i of order) answers[i]!.resolve(i);
      await Promise.all(runs);
      expect(shown, `arrival order ${order.join(',')}`).toBe(2);
    }
  });
});
