/**
 * The queue `lodsmith check`'s workers take files from, without asking the main thread.
 *
 * Every worker gets the whole job list once (workerData) and a shared counter: it claims the next
 * file with one atomic add, checks it, posts the result and claims again. The main thread only
 * collects results, so a worker never waits for it. Handing out one file per message round trip,
 * as before, made each worker wait for the main thread to be scheduled after every file: with two
 * busy workers and V8's compiler threads on two cores that wait was a few milliseconds a file, and
 * `-j2` was no faster than `-j1` over a folder of 1,300 files (issue 26).
 *
 * `current[slot]` says which job the worker in that slot is on (-1: none), so the main thread can
 * stop a worker that takes too long and name the file of a worker that died.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';

export interface QueueData<J> {
  jobs: readonly J[];
  /** [0]: index of the next job to claim (grows past the end once the queue is empty). */
  next: Int32Array;
  /** The job each slot's worker is on, or -1. */
  current: Int32Array;
  /** Per job: 1 + the slot of the worker that claimed it last (0: not claimed yet). */
  owner: Int32Array;
  slot: number;
  /** Jobs to do before taking from the queue: those a worker that died had done but not reported. */
  retry: readonly number[];
}

/** What a worker posts after each job. */
export interface QueueResult<R> {
  index: number;
  result: R;
  /** The worker thread that did it (tests count files per worker). */
  thread: number;
}

/**
 * Results are posted in batches: every message wakes the main thread, which on a machine with
 * as many busy workers as cores takes a core from a worker (measured: 0.7-3 ms a message under
 * load, a fifth of a worker's time at one message a file). A batch goes when it is this old or
 * this full, and when the queue is empty.
 */
const BATCH_MS = 50;
const BATCH_SIZE = 64;

/** The next job's index for this worker, or -1 when none is left. */
export function claim(data: QueueData<unknown>): number {
  const i = Atomics.add(data.next, 0, 1);
  if (i >= data.jobs.length) return -1;
  Atomics.store(data.owner, i, data.slot + 1);
  Atomics.store(data.current, data.slot, i);
  return i;
}

/**
 * The worker's side: does the jobs in `retry`, then claims jobs until none is left, runs each
 * with `handle` and posts {@link QueueResult} batches; then the thread ends by itself (nothing
 * keeps its event loop alive). A throw from `handle` is the worker's failure (the pool names the
 * file from `current`, and gives the files done but not yet reported to the next worker).
 */
export async function serveQueue<J, R>(handle: (job: J) => Promise<R> | R): Promise<void> {
  const data = workerData as QueueData<J>;
  let batch: QueueResult<R>[] = [];
  let since = 0;
  const flush = (): void => {
    if (batch.length) parentPort!.postMessage(batch);
    batch = [];
  };
  const retry = [...data.retry];
  const nextJob = (): number => {
    const r = retry.shift();
    if (r === undefined) return claim(data);
    Atomics.store(data.owner, r, data.slot + 1);
    Atomics.store(data.current, data.slot, r);
    return r;
  };
  for (let i = nextJob(); i >= 0; i = nextJob()) {
    const result = await handle(data.jobs[i]!);
    Atomics.store(data.current, data.slot, -1);
    if (batch.length === 0) since = performance.now();
    batch.push({ index: i, result, thread: threadId });
    if (batch.length >= BATCH_SIZE || performance.now() - since >= BATCH_MS) flush();
  }
  flush();
}
