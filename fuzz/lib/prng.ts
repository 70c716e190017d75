/**
 * A small seeded generator (mulberry32): the fuzzer and the benchmark's generated data must be the
 * same on every machine and every run for a given seed, so a finding can always be replayed.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). n must be >= 1. */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }
}
