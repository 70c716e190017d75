/**
 * Benchmark rows and their terminal table. Every figure is a row; a figure that could not be
 * measured is a row too, saying why, so a missing input is never mistaken for a fast one.
 */

/** PASS/MISS against a target, `-` where no target applies, `n/a` where nothing was measured. */
export type Verdict = 'PASS' | 'MISS' | '-' | 'n/a';

/** One measured (or unmeasurable) figure. */
export interface Row {
  section: 'baseline' | 'compression' | 'codec' | 'memory' | 'texture' | 'preview' | 'process' | 'reliability';
  /** Format id or algorithm (`lzo1x`, `lzss`, `memcpy`). */
  subject: string;
  /** Which input: `corpus (34 files)`, a file name, `generated 2M tris`, `64 MB mesh-like`. */
  input: string;
  /** Input size in bytes (file bytes for codecs, uncompressed bytes for compression). */
  bytes: number;
  /** What was measured: `decode`, `encode`, `decompress (ours)`, `peak memory`, ... */
  metric: string;
  /** The figure: MB/s for throughput, bytes for memory, seconds for latency. */
  value: number | null;
  unit: 'MB/s' | 'bytes' | 's' | 'x' | 'count';
  /** value / memcpy MB/s at the same size (throughput rows only). */
  vsMemcpy?: number;
  /** The target in words, e.g. `>= 1000 MB/s`, `<= 2N+64MB = 380 MB`. */
  target?: string;
  verdict: Verdict;
  note?: string;
}

function fmtBytes(n: number): string {
  if (n < 0) return `-${fmtBytes(-n)}`;
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

function fmtValue(r: Row): string {
  if (r.value === null) return '-';
  switch (r.unit) {
    case 'MB/s':
      return `${r.value >= 100 ? r.value.toFixed(0) : r.value.toFixed(1)} MB/s`;
    case 'bytes':
      return fmtBytes(r.value);
    case 's':
      return r.value < 1 ? `${(r.value * 1000).toFixed(1)} ms` : `${r.value.toFixed(2)} s`;
    case 'x':
      return `${r.value.toFixed(2)}x`;
    case 'count':
      return `${r.value >= 0 ? '+' : ''}${Number.isInteger(r.value) ? r.value : r.value.toFixed(2)}`;
  }
}

/** Renders rows as a fixed-width table (one per section), notes below each. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['subject', 'input', 'size', 'metric', 'value', 'x memcpy', 'target', 'result'];
  const out: string[] = [];
  const sections = [...new Set(rows.map((r) => r.section))];
  for (const section of sections) {
    const rs = rows.filter((r) => r.section === section);
    const cells = rs.map((r) => [
      r.subject,
      r.input,
      r.bytes ? fmtBytes(r.bytes) : '',
      r.metric,
      fmtValue(r),
      r.vsMemcpy === undefined ? '' : `${r.vsMemcpy.toFixed(3)}`,
      r.target ?? '',
      r.verdict,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => c.map((s, i) => s.padEnd(widths[i]!)).join('  ').trimEnd();
    out.push('', `== ${section}`, line(header), widths.map((w) => '-'.repeat(w)).join('  '));
    const notes: string[] = [];
    rs.forEach((r, i) => {
      let text = line(cells[i]!);
      if (r.note) {
        notes.push(r.note);
        text += `  [${notes.length}]`;
      }
      out.push(text);
    });
    notes.forEach((n, i) => out.push(`  [${i + 1}] ${n}`));
  }
  return out.join('\n');
}

export { fmtBytes };
