/**
 * The decoding memory budget: no input may make a command, the host or the editor allocate more
 * than `64 MiB + 16 x the file's size` while decoding it, unless the user raises the limit
 * (`--max-memory` on the CLI, a setting in the editor).
 *
 * Decoding is synchronous, so the budget in force is kept for the duration of one call
 * (`withBudget`) instead of being threaded through every reader: any decoder, decompressor or
 * importer calls `chargeAllocation` with the byte size it is about to allocate, *before*
 * allocating, and gets a `BudgetError` (a `DecodeError`, so it carries the offset and node path)
 * when the running total would pass the limit. Outside `withBudget` the default budget for an
 * unknown size applies per call, so a decoder can never be driven without any bound.
 */
import { DecodeError } from '../errors.ts';

export const MiB = 1024 * 1024;
/** Fixed part of the default budget. */
export const BUDGET_BASE_BYTES = 64 * MiB;
/** Multiple of the input's size added to the fixed part. */
export const BUDGET_FACTOR = 16;

/** The default limit for an input of `inputBytes` bytes. */
export function defaultBudgetBytes(inputBytes: number): number {
  return BUDGET_BASE_BYTES + BUDGET_FACTOR * Math.max(0, inputBytes);
}

/** Human form of a byte count for messages: `1.5 GiB`, `80 MiB`, `512 KiB`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * MiB) return `${+(n / (1024 * MiB)).toFixed(1)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** Thrown when decoding would allocate past the budget. A DecodeError, so it has offset and path. */
export class BudgetError extends DecodeError {
  readonly limit: number;
  readonly requested: number;
  constructor(what: string, requested: number, used: number, limit: number, offset: number, path: string) {
    super(
      `${what} would allocate ${formatBytes(requested)}, past the decoding memory budget of ` +
        `${formatBytes(limit)} (${formatBytes(used)} already used; raise it with --max-memory ` +
        `or the editor's Memory limit setting)`,
      offset,
      path,
    );
    this.limit = limit;
    this.requested = requested;
  }
}

/** A running total of what one decode has allocated, against a limit. */
export class MemoryBudget {
  used = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
    if (!(limit > 0)) throw new RangeError(`memory budget must be positive, got ${limit}`);
  }

  /** The default budget for an input of this many bytes, or an explicit limit when given. */
  static forInput(inputBytes: number, maxBytes?: number): MemoryBudget {
    return new MemoryBudget(maxBytes ?? defaultBudgetBytes(inputBytes));
  }

  get remaining(): number {
    return this.limit - this.used;
  }

  /** Counts `bytes` against the limit, or throws BudgetError without counting them. */
  charge(bytes: number, what: string, offset = 0, path = ''): void {
    if (!Number.isFinite(bytes) || bytes < 0 || this.used + bytes > this.limit) {
      throw new BudgetError(what, Number.isFinite(bytes) ? bytes : Number.MAX_SAFE_INTEGER, this.used, this.limit, offset, path);
    }
    this.used += bytes;
  }

  /** True when `bytes` more would still fit (for callers that prefer to skip rather than fail). */
  fits(bytes: number): boolean {
    return Number.isFinite(bytes) && bytes >= 0 && this.used + bytes <= this.limit;
  }
}

let active: MemoryBudget | undefined;

/** Runs `fn` with `budget` in force for every `chargeAllocation` inside it (nesting restores). */
export function withBudget<T>(budget: MemoryBudget, fn: () => T): T {
  const outer = active;
  active = budget;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** The budget in force, if a caller set one. */
export function activeBudget(): MemoryBudget | undefined {
  return active;
}

/**
 * Call before allocating `bytes` on behalf of the input being decoded. Inside `withBudget` the
 * bytes count against that budget; outside it, a single allocation may not pass the default
 * limit for an unknown input size (64 MiB + 16 x `inputBytes`, 0 when unknown).
 */
export function chargeAllocation(bytes: number, what: string, offset = 0, path = '', inputBytes = 0): void {
  if (active) {
    active.charge(bytes, what, offset, path);
    return;
  }
  new MemoryBudget(defaultBudgetBytes(inputBytes)).charge(bytes, what, offset, path);
}
