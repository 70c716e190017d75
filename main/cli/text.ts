/** Small text helpers for readable, aligned terminal output. */

/** `63.2 KB`, `1.4 MB`, `512 B`. */
export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/**
 * `12 345` style grouping: readable and unambiguous in every locale. Counts (every one `info`
 * prints) are grouped by a loop: the regular expression, compiled on first use, was a visible
 * part of a short command's start-up.
 */
export function count(n: number): string {
  const s = String(n);
  if (!Number.isSafeInteger(n) || n < 0) return s.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  let out = s.slice(0, ((s.length - 1) % 3) + 1);
  for (let i = out.length; i < s.length; i += 3) out += ` ${s.slice(i, i + 3)}`;
  return out;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${count(n)} ${n === 1 ? word : many}`;
}

/**
 * A 32-bit float as a modder reads it: the shortest decimal that rounds to the same float32
 * (`0.9939394`, not `0.9939393997192383`, its 64-bit widening), exact when read back as a
 * float32. Integers, non-finite numbers and a value no shorter decimal identifies come out as
 * String writes them. `dump` writes Float32Array elements with it, `info` the numbers a format
 * reports that are exactly float32.
 */
export function float32Text(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  for (let p = 1; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(v);
}

/** `0.4 ms`, `12 ms`, `3.2 s`. */
export function duration(ms: number): string {
  if (ms < 1) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export interface Column {
  title: string;
  align?: 'left' | 'right';
  /** Longest allowed cell; longer ones are cut with an ellipsis in the middle. */
  max?: number;
}

/** Rows as aligned text lines, a header and a rule under it. */
export function table(columns: readonly Column[], rows: readonly string[][]): string[] {
  const cells = rows.map((r) => r.map((c, i) => clip(c, columns[i]?.max)));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    columns
      .map((c, i) => (c.align === 'right' ? (r[i] ?? '').padStart(widths[i]!) : (r[i] ?? '').padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}

function clip(s: string, max: number | undefined): string {
  if (!max || s.length <= max) return s;
  const keep = max - 1;
  return `${s.slice(0, Math.ceil(keep / 2))}…${s.slice(s.length - Math.floor(keep / 2))}`;
}
