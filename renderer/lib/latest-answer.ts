/**
 * The one stale-answer guard of the renderer. A view asks main a question (a scene, an
 * inspection, a texture, a page of bytes) and awaits the answer; meanwhile the state it asked
 * for may change (another document, another revision, another LOD, a newer question). Each
 * `ask()` hands out a check that stays true only until the next `ask()` or `drop()`, so the
 * answer of an older question is thrown away when it arrives instead of overwriting a newer one:
 *
 * ```ts
 * const answers = latestAnswer();
 * watch(source, async () => {
 *   const current = answers.ask();
 *   const r = await docs.query(...);
 *   if (!current()) return;        // a newer question (or a drop) came meanwhile
 *   out.value = r;
 * });
 * watch(lod, () => answers.drop()); // answers asked for the old LOD no longer apply
 * ```
 */
export interface LatestAnswer {
  /** Starts a question: the returned check is true while no newer question or drop came. */
  ask(): () => boolean;
  /** Makes every question asked so far stale (the state they were asked for is gone). */
  drop(): void;
  /**
   * Awaits `answer` for a new question: its value while still current, else `stale` (the
   * symbol `LatestAnswer.stale`), so callers write `if (r === answers.stale) return`.
   */
  take<T>(answer: Promise<T> | (() => Promise<T>)): Promise<T | typeof STALE>;
  readonly stale: typeof STALE;
}

const STALE: unique symbol = Symbol('stale answer');

export function latestAnswer(): LatestAnswer {
  let asked = 0;
  const ask = (): (() => boolean) => {
    const mine = ++asked;
    return () => mine === asked;
  };
  return {
    ask,
    drop: () => {
      asked++;
    },
    async take<T>(answer: Promise<T> | (() => Promise<T>)): Promise<T | typeof STALE> {
      const current = ask();
      const value = await (typeof answer === 'function' ? answer() : answer);
      return current() ? value : STALE;
    },
    stale: STALE,
  };
}
