/**
 * Data for warming a decompressor up before its first real stream (see lzo1x.ts's priming):
 * compressed by the project's own encoders, it gives streams with literal runs short and long,
 * matches at distances 1, 2, 3, 5, 10 and hundreds of bytes back, short and long, and a tail the
 * decoders' checked paths take. A decoder that has run every branch once is optimised once;
 * otherwise the engine optimises what the first files used, meets another branch, throws the
 * code away and compiles it again (for each worker of `check`, on a core the other worker needs).
 */
import { MemoryBudget, withBudget } from './budget.ts';

/**
 * A decoder's warm-up as a function to call at the top of the decoder: the first call runs
 * `warm` (which calls the decoder on its own streams, reentering harmlessly), later calls do
 * nothing. It runs under a budget of its own, so it never counts against (or trips) the budget of
 * the decode that asked for it, and what it throws is dropped: it only gathers the engine's
 * feedback, and the real call reports its own errors.
 */
export function warmUpOnce(warm: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    try {
      withBudget(new MemoryBudget(16 << 20), warm);
    } catch {
      // see above
    }
  };
}

/** Literals, repeats at distances 1-10, long and short matches, and a short tail of its own (see PRIMING_TAIL). */
export function primingData(): Uint8Array {
  const out: number[] = [];
  let seed = 0x2545f491;
  const random = (n: number): void => {
    for (let i = 0; i < n; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      out.push((seed >>> 16) & 255);
    }
  };
  const repeat = (pattern: readonly number[], times: number): void => {
    for (let i = 0; i < times; i++) out.push(...pattern);
  };
  random(32);
  repeat([7], 40);
  repeat([1, 2], 20);
  repeat([3, 4, 5], 12);
  repeat([6, 7, 8, 9, 10], 8);
  repeat([11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 4);
  random(150);
  // A long match a couple of hundred bytes back, then short ones among literals.
  out.push(...out.slice(out.length - 250, out.length - 130));
  for (let i = 0; i < 8; i++) {
    random(3 + (i % 5));
    out.push(...out.slice(out.length - 40 - i, out.length - 40 - i + 4 + (i % 7)));
  }
  random(20);
  // The last PRIMING_TAIL bytes, a stream of their own for the checked paths: a long literal run
  // and a long match as far back as it is long.
  random(36);
  out.push(...out.slice(out.length - 36));
  random(6);
  return Uint8Array.from(out);
}

/** Bytes at the end of {@link primingData} that make a short stream of their own. */
export const PRIMING_TAIL = 78;
