/**
 * A timer that counts only time the page could show something: it advances in short ticks and
 * each tick counts at most twice its length, so seconds the page spends frozen (the first draw
 * of a dropped model on a slow or busy machine, shader compiles, a long decode) do not count.
 * A wall-clock `setTimeout` fires right after such a freeze, before the page paints again, and
 * what it was to hide (a notice) is gone without ever having been seen.
 */
export interface ShownTimer {
  /** Stops the timer without calling `done`. */
  cancel(): void;
}

export interface ShownTimerClock {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

const realClock: ShownTimerClock = {
  now: () => performance.now(),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** Calls `done` once `ms` of responsive time has passed (ticks of `tickMs`). */
export function afterShown(ms: number, done: () => void, tickMs = 250, clock: ShownTimerClock = realClock): ShownTimer {
  let shown = 0;
  let last = clock.now();
  let stop: (() => void) | null = null;
  stop = clock.every(tickMs, () => {
    const now = clock.now();
    shown += Math.min(Math.max(0, now - last), 2 * tickMs);
    last = now;
    if (shown < ms || !stop) return;
    stop();
    stop = null;
    done();
  });
  return {
    cancel: () => {
      stop?.();
      stop = null;
    },
  };
}
