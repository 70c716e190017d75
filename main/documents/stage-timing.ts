/**
 * How long each stage of opening a file and building its preview took, as User Timing measures
 * named `lodsmith:<stage>` (`host:read`, `host:decode`, `host:validate`, `host:outline`,
 * `host:scene`, `host:encode`). A PerformanceObserver sees them (the benchmark's preview hook
 * reports them per stage); they are removed from the global buffer at once, so a host that runs
 * for days keeps none of them.
 */
import { performance } from 'node:perf_hooks';

/** Records `stage` as having run from `start` (a `performance.now()` value) until now. */
export function measureStage(stage: string, start: number, detail?: Record<string, unknown>): void {
  const name = `lodsmith:${stage}`;
  try {
    performance.measure(name, detail ? { start, detail } : { start });
    performance.clearMeasures(name);
  } catch {
    /* timing must never fail the work it times */
  }
}

/** Runs `fn` and records it as `stage`, whether it returns or throws. */
export function timedStage<T>(stage: string, fn: () => T, detail?: Record<string, unknown>): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    measureStage(stage, start, detail);
  }
}
