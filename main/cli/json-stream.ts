/**
 * Streams any decoded document as JSON without building one giant string: the tree is walked
 * by a generator that yields small pieces, which are batched and written with backpressure.
 * Memory stays bounded by the document itself plus one batch.
 *
 * Conventions (what `lodsmith dump` promises):
 * - object keys in their decoded order; `$raw` (the original bytes) is left out, `$span`
 *   (the [start, end) byte range) is kept;
 * - typed arrays become plain arrays, on one line; Float32Array elements are written as the
 *   shortest decimal that reads back as the same float32 (0.2, not 0.20000000298023224);
 * - bigint becomes a decimal string; NaN and ±Infinity become the strings "NaN", "Infinity",
 *   "-Infinity" (JSON has no such numbers);
 * - `undefined` object members are left out; a value met again inside itself is written as
 *   the string "[circular]".
 */
import { terminalSafeJson, write, type OutStream } from './io.ts';
import { float32Text } from './text.ts';

const BATCH = 64 * 1024;

/** Writes `value` as indented JSON followed by a newline. */
export async function streamJson(value: unknown, out: OutStream): Promise<void> {
  let buf = '';
  for (const piece of pieces(value, '', new Set())) {
    buf += piece;
    if (buf.length >= BATCH) {
      await write(out, buf);
      buf = '';
    }
  }
  await write(out, buf + '\n');
}

function num(n: number): string {
  if (Object.is(n, -0)) return '-0'; // String(-0) is "0"; a sign bit is data too
  return Number.isFinite(n) ? String(n) : JSON.stringify(String(n));
}

/** Shortest decimal that rounds to the same float32 (text.ts); -0 and non-finite values as `num` writes them. */
function f32(v: number): string {
  return !Number.isFinite(v) || Number.isInteger(v) ? num(v) : float32Text(v);
}

function* typed(a: ArrayLike<number | bigint>): Generator<string> {
  const fmt = a instanceof Float32Array ? f32 : num;
  yield '[';
  // Chunks keep each yielded piece small even for million-element arrays.
  for (let i = 0; i < a.length; i += 4096) {
    const end = Math.min(a.length, i + 4096);
    const parts: string[] = [];
    for (let k = i; k < end; k++) {
      const v = a[k]!;
      parts.push(typeof v === 'bigint' ? `"${v}"` : fmt(v));
    }
    yield (i > 0 ? ',' : '') + parts.join(',');
  }
  yield ']';
}

function* pieces(v: unknown, indent: string, ancestors: Set<object>): Generator<string> {
  switch (typeof v) {
    case 'string': yield terminalSafeJson(JSON.stringify(v)); return;
    case 'number': yield num(v); return;
    case 'bigint': yield `"${v}"`; return;
    case 'boolean': yield String(v); return;
    case 'undefined':
    case 'function':
    case 'symbol': yield 'null'; return;
  }
  if (v === null) {
    yield 'null';
    return;
  }
  if (ArrayBuffer.isView(v)) {
    if (v instanceof DataView) yield `"<${v.byteLength} bytes>"`;
    else yield* typed(v as unknown as ArrayLike<number | bigint>);
    return;
  }
  if (v instanceof ArrayBuffer) {
    yield `"<${v.byteLength} bytes>"`;
    return;
  }
  const obj = v as object;
  if (ancestors.has(obj)) {
    yield '"[circular]"';
    return;
  }
  ancestors.add(obj);
  const inner = indent + '  ';
  if (Array.isArray(obj)) {
    if (obj.length === 0) yield '[]';
    else if (obj.every((x) => typeof x === 'number')) yield* typed(obj as number[]);
    else {
      yield '[';
      for (let i = 0; i < obj.length; i++) {
        yield `${i ? ',' : ''}\n${inner}`;
        yield* pieces(obj[i], inner, ancestors);
      }
      yield `\n${indent}]`;
    }
  } else {
    const entries = Object.entries(obj instanceof Map ? Object.fromEntries(obj) : obj).filter(
      ([k, x]) => k !== '$raw' && x !== undefined && typeof x !== 'function',
    );
    if (entries.length === 0) yield '{}';
    else {
      yield '{';
      let first = true;
      for (const [k, x] of entries) {
        yield `${first ? '' : ','}\n${inner}${terminalSafeJson(JSON.stringify(k))}: `;
        first = false;
        yield* pieces(x, inner, ancestors);
      }
      yield `\n${indent}}`;
    }
  }
  ancestors.delete(obj);
}
