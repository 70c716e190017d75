/**
 * Timing helpers: every figure is the median of several timed runs after warm-up, and a run that
 * is too short for the clock repeats its work until it lasts long enough to be measured.
 */

/** How many runs a figure is made of. */
export interface TimingPlan {
  /** Untimed runs first, so the JIT has compiled the hot paths. */
  warmup: number;
  /** Timed runs; the median is reported. */
  runs: number;
  /** A timed run repeats its work until at least this long (small inputs). */
  minRunMs: number;
}

/** The plan of a normal run and of `--quick`. */
export const FULL_PLAN: TimingPlan = { warmup: 2, runs: 7, minRunMs: 60 };
export const QUICK_PLAN: TimingPlan = { warmup: 1, runs: 3, minRunMs: 20 };

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Median seconds of one call of `fn`. The result of every call is kept in a sink so the optimiser
 * cannot drop the work.
 */
export function timeIt(fn: () => unknown, plan: TimingPlan): number {
  const sink: unknown[] = [];
  for (let i = 0; i < plan.warmup; i++) sink[0] = fn();
  const samples: number[] = [];
  for (let r = 0; r < plan.runs; r++) {
    let reps = 0;
    const t0 = performance.now();
    let t1: number;
    do {
      sink[0] = fn();
      reps++;
      t1 = performance.now();
    } while (t1 - t0 < plan.minRunMs);
    samples.push((t1 - t0) / 1000 / reps);
  }
  if (sink.length === 0) throw new Error('unreachable');
  return median(samples);
}

/**
 * As {@link timeIt}, for work that consumes its input: `setup` runs before every call, untimed
 * (an in-situ decode changes the bytes it reads, so each call gets a fresh copy of them).
 */
export function timeEach<T>(setup: () => T, fn: (input: T) => unknown, plan: TimingPlan): number {
  const sink: unknown[] = [];
  for (let i = 0; i < plan.warmup; i++) sink[0] = fn(setup());
  const samples: number[] = [];
  for (let r = 0; r < plan.runs; r++) {
    let reps = 0;
    let spent = 0;
    do {
      const input = setup();
      const t0 = performance.now();
      sink[0] = fn(input);
      spent += performance.now() - t0;
      reps++;
    } while (spent < plan.minRunMs);
    samples.push(spent / 1000 / reps);
  }
  if (sink.length === 0) throw new Error('unreachable');
  return median(samples);
}

/** Throughput in MB/s (10^6 bytes) of `bytes` processed in `seconds`. */
export function mbPerSecond(bytes: number, seconds: number): number {
  return seconds > 0 ? bytes / 1e6 / seconds : Infinity;
}

/**
 * The memcpy baseline: copying a typed array of `bytes` bytes into another, in this process, now.
 * Every throughput is also printed as a ratio to it, so figures from different machines compare.
 */
export function memcpyMbPerSecond(bytes: number, plan: TimingPlan): number {
  const n = Math.max(1, bytes);
  const src = new Uint8Array(n);
  for (let i = 0; i < n; i += 4096) src[i] = i & 0xff;
  const dst = new Uint8Array(n);
  const seconds = timeIt(() => {
    dst.set(src);
    return dst;
  }, plan);
  return mbPerSecond(n, seconds);
}

/**
 * Writing memory the process has just been given, in MB/s: a new typed array of `bytes` filled
 * once, per run. Every new page costs a page fault on first touch, which memcpy into an array
 * written before never pays; on some virtual machines that fault costs ~10 us (300-400 MB/s
 * here, against 8-20 GB/s for the copy). A row whose work produces new memory (an encode's
 * output, a copying decode's arrays) cannot run faster than this, so it is printed beside the
 * memcpy baseline.
 */
export function freshMemoryMbPerSecond(bytes: number, plan: TimingPlan): number {
  const n = Math.max(1, bytes);
  const seconds = timeIt(() => new Uint8Array(n).fill(1), plan);
  return mbPerSecond(n, seconds);
}

/**
 * Runs `fn` for at least `ms` milliseconds, then until its CPU time per call has not improved by
 * 3% for 5 calls (at most `maxMs` in all): the JIT compiles on background threads, which a loaded
 * machine starves, so a fixed time can end while the code still runs in a lower tier.
 */
export function warmUp(fn: () => unknown, ms: number, maxMs: number): void {
  const sink: unknown[] = [];
  const t0 = performance.now();
  let best = Infinity;
  let sinceBest = 0;
  for (;;) {
    const c0 = process.cpuUsage();
    sink[0] = fn();
    const c = process.cpuUsage(c0);
    const cpu = c.user + c.system;
    if (cpu < best * 0.97) {
      best = cpu;
      sinceBest = 0;
    } else {
      sinceBest++;
    }
    const elapsed = performance.now() - t0;
    if (elapsed >= maxMs || (elapsed >= ms && sinceBest >= 5)) break;
  }
  if (sink.length === 0) throw new Error('unreachable');
}
