/**
 * The notice's timer counts time the page could show it: a frozen page (one long task) counts
 * as at most two ticks, so a notice set just before a freeze is still there when it ends.
 */
import { describe, expect, it } from 'vitest';
import { afterShown, type ShownTimerClock } from '../../renderer/lib/shown-timer.ts';

/** A clock the test moves by hand; `tick(late)` runs the interval `late` ms after the last run. */
function manualClock(): ShownTimerClock & { tick(after: number): void; running: boolean } {
  let t = 0;
  let fn: (() => void) | null = null;
  return {
    now: () => t,
    every: (_ms, tick) => {
      fn = tick;
      return () => (fn = null);
    },
    tick(after: number) {
      t += after;
      fn?.();
    },
    get running() {
      return fn !== null;
    },
  };
}

describe('afterShown', () => {
  it('fires after the time has passed on a responsive page', () => {
    const clock = manualClock();
    let fired = 0;
    afterShown(1000, () => fired++, 250, clock);
    for (let i = 0; i < 3; i++) clock.tick(250);
    expect(fired).toBe(0);
    clock.tick(250);
    expect(fired).toBe(1);
    expect(clock.running).toBe(false);
  });

  it('does not count a freeze longer than two ticks', () => {
    const clock = manualClock();
    let fired = 0;
    afterShown(3500, () => fired++, 250, clock);
    clock.tick(4500); // the page was busy for 4.5 s: counts 0.5 s
    expect(fired).toBe(0);
    for (let i = 0; i < 11; i++) clock.tick(250);
    expect(fired).toBe(0);
    clock.tick(250);
    expect(fired).toBe(1);
  });

  it('cancel stops it without firing', () => {
    const clock = manualClock();
    let fired = 0;
    const t = afterShown(500, () => fired++, 250, clock);
    clock.tick(250);
    t.cancel();
    clock.tick(250);
    clock.tick(250);
    expect(fired).toBe(0);
    expect(clock.running).toBe(false);
  });
});
