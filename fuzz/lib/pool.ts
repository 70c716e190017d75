/**
 * A small pool of fuzz workers. Each input gets a deadline: a worker that misses it is terminated
 * and replaced, and the input is reported as a hang. A worker that dies (out of heap under its
 * resourceLimits, or anything else) reports the input it was running as `oom`.
 */
import { Worker } from 'node:worker_threads';
import type { FuzzRequest, FuzzResponse } from './protocol.ts';

export interface PoolOptions {
  size: number;
  /** Heap limit of each worker: a decoder that builds huge object graphs dies here, not the host. */
  maxOldGenerationSizeMb: number;
  /** Time limit of one input: `baseMs + msPerMB * input MB`. */
  baseMs: number;
  msPerMB: number;
  /** A module each worker imports after the codecs (the harness self-test registers codecs there). */
  preload?: string;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Set once `ready` has resolved: such a slot takes an input at once, without awaiting. */
  started: boolean;
  busy: boolean;
  /** The pending input's settle function, while one runs. */
  settle?: (r: FuzzResponse) => void;
  current?: FuzzRequest;
  timer?: ReturnType<typeof setTimeout>;
}

const workerUrl = new URL('./worker.ts', import.meta.url);

/** How long a new worker may take to load the codecs (slow on a busy machine, but not this slow). */
const STARTUP_MS = 120_000;

export class FuzzPool {
  private readonly opts: PoolOptions;
  private readonly slots: Slot[] = [];
  private readonly waiting: ((s: Slot) => void)[] = [];
  private closed = false;
  /** Workers replaced after a hang or a death (each costs a restart). */
  restarts = 0;

  constructor(opts: PoolOptions) {
    this.opts = opts;
    for (let i = 0; i < opts.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(workerUrl, {
      workerData: { preload: this.opts.preload },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxOldGenerationSizeMb },
      stdout: true,
      stderr: true,
    });
    // Codec output on the console is noise during fuzzing; drain it.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, busy: false, started: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      // A worker that never says it is ready (a broken module) must not stall the run silently.
      const startLimit = setTimeout(() => reject(new Error(`fuzz worker did not start within ${STARTUP_MS / 1000} s`)), STARTUP_MS);
      startLimit.unref();
      const onMsg = (m: unknown) => {
        if (m && typeof m === 'object' && 'ready' in m) {
          worker.off('message', onMsg);
          clearTimeout(startLimit);
          slot.started = true;
          resolve();
        }
      };
      worker.on('message', onMsg);
      worker.once('error', (e) => {
        if (!slot.current) reject(e);
      });
    });
    // A worker that cannot start is a harness failure; run() rethrows it, nothing else should.
    slot.ready.catch(() => undefined);
    worker.on('message', (m: FuzzResponse | { ready: true }) => {
      if ('ready' in m) return;
      if (slot.settle && slot.current && m.id === slot.current.id) this.finish(slot, m);
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (!slot.current || !slot.settle) return;
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(slot, {
        id: slot.current.id,
        outcome: oom ? 'oom' : 'crash',
        message: oom ? `worker ran out of its ${this.opts.maxOldGenerationSizeMb} MB heap` : `worker died: ${e.message}`,
        stack: e.stack ?? '',
        allocated: 0,
        retained: 0,
        ms: 0,
      });
    });
    worker.on('exit', () => {
      if (slot.current && slot.settle) {
        this.fail(slot, { id: slot.current.id, outcome: 'oom', message: 'worker exited while decoding', allocated: 0, retained: 0, ms: 0 });
      }
    });
    return slot;
  }

  private finish(slot: Slot, r: FuzzResponse): void {
    const settle = slot.settle!;
    if (slot.timer) clearTimeout(slot.timer);
    slot.settle = undefined;
    slot.current = undefined;
    slot.timer = undefined;
    slot.busy = false;
    settle(r);
    this.release(slot);
  }

  /** Ends the slot's input with `r` and replaces its worker (hung or dead: it cannot be reused). */
  private fail(slot: Slot, r: FuzzResponse): void {
    const settle = slot.settle!;
    if (slot.timer) clearTimeout(slot.timer);
    slot.settle = undefined;
    slot.current = undefined;
    slot.timer = undefined;
    // Replaced first, so the dead slot is never handed to a waiting input.
    this.replace(slot);
    settle(r);
  }

  private replace(old: Slot): void {
    const i = this.slots.indexOf(old);
    old.worker.removeAllListeners('exit');
    void old.worker.terminate();
    if (this.closed || i < 0) return;
    this.restarts++;
    const fresh = this.spawn();
    this.slots[i] = fresh;
    this.release(fresh);
  }

  private release(slot: Slot): void {
    if (slot.busy || !this.slots.includes(slot)) return;
    const next = this.waiting.shift();
    if (next) {
      slot.busy = true;
      next(slot);
    }
  }

  private acquire(): Promise<Slot> {
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * Runs one input; never rejects (every end is an outcome). When a started worker is free the
   * input is posted before this returns, so the caller can make its next input meanwhile.
   */
  run(req: FuzzRequest): Promise<FuzzResponse> {
    const free = this.slots.find((s) => !s.busy && s.started);
    if (free) {
      free.busy = true;
      return this.send(free, req);
    }
    return this.acquire().then(async (slot) => {
      await slot.ready;
      return this.send(slot, req);
    });
  }

  private send(slot: Slot, req: FuzzRequest): Promise<FuzzResponse> {
    const limitMs = (this.opts.baseMs + (this.opts.msPerMB * req.bytes.length) / 1e6) * (req.timeScale ?? 1);
    return new Promise<FuzzResponse>((resolve) => {
      slot.settle = resolve;
      slot.current = req;
      slot.timer = setTimeout(() => {
        if (!slot.settle || slot.current !== req) return;
        this.fail(slot, { id: req.id, outcome: 'hang', message: `no result within ${limitMs.toFixed(0)} ms`, allocated: 0, retained: 0, ms: limitMs });
      }, limitMs);
      // A copy: the transfer detaches the buffer, and the caller keeps its bytes for saving.
      const copy = req.bytes.slice();
      slot.worker.postMessage({ ...req, bytes: copy }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
