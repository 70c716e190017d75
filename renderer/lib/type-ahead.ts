/**
 * Type-ahead in a list, as file dialogs have it: letters typed within `pause` ms of each other make
 * one prefix, and the list moves to the first name that starts with it (without case), from the
 * current one on, round to the top. The same letter typed again moves to the next name starting
 * with it, so `m`, `m` steps through the names that start with m.
 */
export class TypeAhead {
  private text = '';
  private last = -Infinity;
  private readonly pause: number;

  constructor(pause = 800) {
    this.pause = pause;
  }

  /**
   * The index to move to after `key` (one character) typed at `now` (ms) in a list of `names`
   * whose current entry is `current` (-1: none), or undefined when no name matches.
   */
  next(key: string, now: number, names: readonly string[], current: number): number | undefined {
    if (now - this.last > this.pause) this.text = '';
    this.last = now;
    this.text += key.toLowerCase();
    const n = names.length;
    if (n === 0) return undefined;
    // One letter repeated: the next name with that first letter; else the prefix, the current name first.
    const repeated = [...this.text].every((c) => c === this.text[0]);
    const prefix = repeated ? this.text[0]! : this.text;
    const from = repeated ? current + 1 : Math.max(0, current);
    for (let k = 0; k < n; k++) {
      const i = (((from + k) % n) + n) % n;
      if (names[i]!.toLowerCase().startsWith(prefix)) return i;
    }
    return undefined;
  }
}
