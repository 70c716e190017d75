/**
 * The queue `lodsmith check`'s workers take files from, without asking the main thread.
 *
 * Every worker gets the whole job list once (workerData) and shared counters: it claims its next
 * file with one atomic add, checks it, posts the result and claims again. The main thread only
 * collects results, so a worker never waits for it. Handing out one file per message round trip,
 * as before, made each worker wait for the main thread to be scheduled after every file: with two
 * busy workers and V8's compiler threads on two cores that wait was a few milliseconds a file, and
 * `-j2` was no faster than `-j1` over a folder of 1,300 files (issue 26).
 *
 * The files are queued by kind (their extension: each kind runs its own decoder, writer and
 * rules), and a worker stays on one kind while files of it remain: each worker's V8 compiles and
 * optimises only the code of the kinds it meets, instead of every worker compiling every decoder
 * (measured: that warm-up is ~1 s of CPU per worker over the corpus, half of it in V8's compiler
 * and GC threads; docs/performance.md). A worker without a kind takes the kind no worker is on
 * whose next file comes first in file order (so the results, written in file order, keep coming);
 * when every kind left has a worker, it joins the one with the most files left per worker, so
 * the workers still finish together. With one worker there is one queue, in file order.
 *
 * `current[slot]` says which job the worker in that slot is on (-1: none), so the main thread can
 * stop a worker that takes too long and name the file of a worker that died.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';

/** The jobs grouped by kind: kind k's are `order[start[k]]` to `order[start[k + 1] - 1]`, each in file order. */
export interface QueuePlan {
  order: Int32Array;
  start: readonly number[];
}

export interface QueueData<J> extends QueuePlan {
  jobs: readonly J[];
  /** [0]: how many jobs have been claimed, of every kind. */
  next: Int32Array;
  /** [k]: how many of kind k's jobs have been claimed (grows past their count once none is left). */
  kindNext: Int32Array;
  /** [k]: how many workers are on kind k. */
  kindWorkers: Int32Array;
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
 * Groups job indices by `kindOf` (kinds in the order of their first job, each kind's jobs in
 * their order): the plan the queue's counters index.
 */
export function planQueue<J>(jobs: readonly J[], kindOf: (job: J) => string): QueuePlan {
  const byKind = new Map<string, number[]>();
  jobs.forEach((job, i) => {
    const k = kindOf(job);
    const list = byKind.get(k);
    if (list) list.push(i);
    else byKind.set(k, [i]);
  });
  const order = new Int32Array(jobs.length);
  const start = [0];
  let n = 0;
  for (const list of byKind.values()) {
    order.set(list, n);
    n += list.length;
    start.push(n);
  }
  return { order, start };
}

/** The shared counters of a queue over `plan` (one set for all the workers of a run). */
export function queueCounters(plan: QueuePlan): Pick<QueueData<unknown>, 'next' | 'kindNext' | 'kindWorkers'> {
  const kinds = plan.start.length - 1;
  return {
    next: new Int32Array(new SharedArrayBuffer(4)),
    kindNext: new Int32Array(new SharedArrayBuffer(4 * Math.max(1, kinds))),
    kindWorkers: new Int32Array(new SharedArrayBuffer(4 * Math.max(1, kinds))),
  };
}

/**
 * A worker's claims: the next job's index, or -1 when none is left. Keeps the worker's kind
 * between calls (see the module's comment for how a kind is chosen).
 */
export class Claimer {
  private kind = -1;
  private readonly data: QueueData<unknown>;
  constructor(data: QueueData<unknown>) {
    this.data = data;
  }

  /** The kind the last claim came from (-1 before the first); tests follow a worker's kinds. */
  get currentKind(): number {
    return this.kind;
  }

  claim(): number {
    const d = this.data;
    for (;;) {
      const k = this.kind;
      if (k >= 0) {
        const at = Atomics.add(d.kindNext, k, 1);
        if (at < d.start[k + 1]! - d.start[k]!) {
          const i = d.order[d.start[k]! + at]!;
          Atomics.add(d.next, 0, 1);
          Atomics.store(d.owner, i, d.slot + 1);
          Atomics.store(d.current, d.slot, i);
          return i;
        }
        Atomics.sub(d.kindWorkers, k, 1);
        this.kind = -1;
      }
      const next = this.chooseKind();
      if (next < 0) return -1;
      this.kind = next;
    }
  }

  /** A kind with jobs left, now counted as this worker's; -1 when no kind has any. */
  private chooseKind(): number {
    const d = this.data;
    const kinds = d.start.length - 1;
    for (;;) {
      // The kind no worker is on whose next job comes first.
      let free = -1;
      let freeFirst = Infinity;
      // Else the kind with the most jobs left per worker once this one joins.
      let busy = -1;
      let busyShare = 0;
      for (let k = 0; k < kinds; k++) {
        const left = d.start[k + 1]! - d.start[k]! - Atomics.load(d.kindNext, k);
        if (left <= 0) continue;
        const workers = Atomics.load(d.kindWorkers, k);
        if (workers <= 0) {
          const first = d.order[d.start[k + 1]! - left]!;
          if (first < freeFirst) {
            free = k;
            freeFirst = first;
          }
        } else if (left / (workers + 1) > busyShare) {
          busy = k;
          busyShare = left / (workers + 1);
        }
      }
      if (free >= 0) {
        // Another worker may take the same kind at the same moment: only one of them gets it.
        if (Atomics.compareExchange(d.kindWorkers, free, 0, 1) === 0) return free;
        continue;
      }
      if (busy >= 0) {
        Atomics.add(d.kindWorkers, busy, 1);
        return busy;
      }
      return -1;
    }
  }
}

/**
 * Results are posted in batches: every message wakes the main thread, which on a machine with
 * as many busy workers as cores takes a core from a worker (measured: 0.7-3 ms a message under
 * load, a fifth of a worker's time at one message a file). A batch goes when it is this old or
 * this full, and when the queue is empty.
 */
const BATCH_MS = 50;
const BATCH_SIZE = 64;

/**
 * The worker's side: does the jobs in `retry`, then claims jobs until none is left, runs each
 * with `handle` and posts {@link QueueResult} batches; then the thread ends by itself (nothing
 * keeps its event loop alive). A throw from `handle` is the worker's failure (the pool names the
 * file from `current`, and gives the files done but not yet reported to the next worker).
 */
export async function serveQueue<J, R>(handle: (job: J) => Promise<R> | R): Promise<void> {
  const data = workerData as QueueData<J>;
  const claimer = new Claimer(data);
  let batch: QueueResult<R>[] = [];
  let since = 0;
  const flush = (): void => {
    if (batch.length) parentPort!.postMessage(batch);
    batch = [];
  };
  const retry = [...data.retry];
  const nextJob = (): number => {
    const r = retry.shift();
    if (r === undefined) return claimer.claim();
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
