/**
 * Inspector value logic, kept apart from the Vue components so it can be unit-tested: how a field
 * is shown, how text typed by the user becomes a value, and which values are refused before any
 * command is sent (the codec checks again on arrival; this only spares a round trip).
 */
import type { FieldKind } from '../../shared/schema/schema.ts';
import type { InspectField } from '../../shared/model/outline.ts';

const INT_LIMITS: Partial<Record<FieldKind, [number, number]>> = {
  u8: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767],
  u32: [0, 4294967295], i32: [-2147483648, 2147483647],
};
const F32_MAX = 3.4028234663852886e38;

/** Number of components of the float-tuple kinds. */
export const TUPLE_SIZE: Partial<Record<FieldKind, number>> = {
  vec2: 2, vec3: 3, vec4: 4, quat: 4, rgba: 4, mat3: 9, mat4x3: 12, mat4: 16,
};

/** Component labels shown next to each number of a tuple field. */
export function componentLabels(kind: FieldKind, n: number): string[] {
  switch (kind) {
    case 'vec2': return ['X', 'Y'];
    case 'vec3': return ['X', 'Y', 'Z'];
    case 'vec4': case 'quat': return ['X', 'Y', 'Z', 'W'];
    case 'rgba': return ['R', 'G', 'B', 'A'];
    default: return Array.from({ length: n }, (_, i) => String(i));
  }
}

/** Columns per row when a tuple is laid out as a grid (matrices as rows of their columns). */
export function tupleColumns(kind: FieldKind): number {
  switch (kind) {
    case 'mat3': return 3;
    case 'mat4x3': return 3;
    case 'mat4': return 4;
    default: return TUPLE_SIZE[kind] ?? 4;
  }
}

export const isIntegerKind = (k: FieldKind): boolean => k in INT_LIMITS;
export const isNumberKind = (k: FieldKind): boolean => isIntegerKind(k) || k === 'f32' || k === 'f64';

/** Which inspector row a field gets. */
export type EditorKind = 'number' | 'bool' | 'enum' | 'flags' | 'color' | 'tuple' | 'string' | 'readonly';

export function editorFor(f: Pick<InspectField, 'kind' | 'readonly' | 'value'>): EditorKind {
  if (f.readonly) return 'readonly';
  if (isNumberKind(f.kind) && typeof f.value === 'number') return 'number';
  if (f.kind === 'bool' && typeof f.value === 'number') return 'bool';
  if (f.kind === 'bool' && typeof f.value === 'boolean') return 'bool';
  if (f.kind === 'enum' && typeof f.value === 'number') return 'enum';
  if (f.kind === 'flags' && typeof f.value === 'number') return 'flags';
  if (f.kind === 'rgba' && Array.isArray(f.value)) return 'color';
  if (TUPLE_SIZE[f.kind] !== undefined && Array.isArray(f.value)) return 'tuple';
  if (f.kind === 'string' && typeof f.value === 'string') return 'string';
  return 'readonly';
}

/** Refusal message for a number in a field, or undefined when it may be written. */
export function checkNumber(kind: FieldKind, v: number, min?: number, max?: number): string | undefined {
  if (Number.isNaN(v)) return 'must be a number';
  const lim = INT_LIMITS[kind];
  if (lim) {
    if (!Number.isInteger(v)) return 'must be a whole number';
    if (v < lim[0] || v > lim[1]) return `must be between ${lim[0]} and ${lim[1]}`;
  } else if (kind === 'f32' || TUPLE_SIZE[kind] !== undefined) {
    if (!Number.isFinite(v)) return 'must be a finite number';
    if (Math.abs(v) > F32_MAX) return 'is too large for a 32-bit float';
  }
  if (min !== undefined && v < min) return `must be at least ${min}`;
  if (max !== undefined && v > max) return `must be at most ${max}`;
  return undefined;
}

/** Parses a number typed by the user: decimal, `0x` hex, exponent. Empty text is not a number. */
export function parseNumber(text: string): number {
  const t = text.trim();
  if (t === '') return NaN;
  if (/^[-+]?0x[0-9a-f]+$/i.test(t)) {
    const neg = t.startsWith('-');
    const n = parseInt(t.replace(/^[-+]/, ''), 16);
    return neg ? -n : n;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return NaN;
  return Number(t);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Turns user text into a value for a scalar number field, with the field's checks. */
export function parseScalar(f: Pick<InspectField, 'kind' | 'min' | 'max'>, text: string): Parsed {
  const v = parseNumber(text);
  const msg = checkNumber(f.kind, v, f.min, f.max);
  return msg ? { ok: false, message: msg } : { ok: true, value: v };
}

/** Replaces one component of a tuple value, checking it. */
export function withComponent(f: Pick<InspectField, 'kind' | 'value' | 'min' | 'max'>, index: number, text: string): Parsed {
  const arr = Array.isArray(f.value) ? [...(f.value as number[])] : [];
  if (index < 0 || index >= arr.length) return { ok: false, message: 'no such component' };
  const v = parseNumber(text);
  const msg = checkNumber(f.kind, v, f.kind === 'rgba' ? undefined : f.min, f.kind === 'rgba' ? undefined : f.max);
  if (msg) return { ok: false, message: msg };
  arr[index] = v;
  return { ok: true, value: arr };
}

/** Display text of a number: integers as they are, floats without float32 noise. */
export function formatNumber(v: number, kind: FieldKind): string {
  if (!Number.isFinite(v)) return String(v);
  if (isIntegerKind(kind) || kind === 'enum' || kind === 'flags' || kind === 'bool') return String(v);
  if (v === 0) return '0';
  // f32 values carry ~7 significant digits; more would show noise such as 0.30000001192.
  return String(Number(v.toPrecision(kind === 'f64' ? 15 : 7)));
}

/** Options of an enum select; a stored value with no label stays selectable as "n (unknown)". */
export function enumOptions(labels: InspectField['enumLabels'], current: number): { value: number; label: string }[] {
  const out: { value: number; label: string }[] = [];
  if (Array.isArray(labels)) labels.forEach((l, i) => out.push({ value: i, label: l }));
  else if (labels) for (const [k, l] of Object.entries(labels)) out.push({ value: Number(k), label: l as string });
  if (!out.some((o) => o.value === current)) out.push({ value: current, label: `${current} (unknown)` });
  return out.sort((a, b) => a.value - b.value);
}

/** Flag bits with labels; set bits without a label are listed too so nothing is hidden. */
export function flagBits(labels: readonly string[] | undefined, value: number): { bit: number; label: string; on: boolean }[] {
  const out: { bit: number; label: string; on: boolean }[] = [];
  const n = Math.max(labels?.length ?? 0, 32 - Math.clz32(value >>> 0));
  for (let bit = 0; bit < n; bit++) {
    out.push({ bit, label: labels?.[bit] ?? `bit ${bit}`, on: ((value >>> bit) & 1) === 1 });
  }
  return out;
}

export function toggleFlag(value: number, bit: number, on: boolean): number {
  const m = 2 ** bit;
  const has = Math.floor(value / m) % 2 === 1;
  if (has === on) return value;
  return on ? value + m : value - m;
}

/** RGBA floats (0..1, may exceed) to a `#rrggbb` for the colour picker. */
export function rgbaToHex(v: readonly number[]): string {
  const c = (x: number | undefined) => Math.round(Math.min(1, Math.max(0, x ?? 0)) * 255).toString(16).padStart(2, '0');
  return `#${c(v[0])}${c(v[1])}${c(v[2])}`;
}

/** Applies a picked `#rrggbb` to an RGBA value, keeping alpha. */
export function hexToRgba(hex: string, prev: readonly number[]): number[] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return [...prev];
  const f = (s: string) => Math.round((parseInt(s, 16) / 255) * 1000) / 1000;
  return [f(m[1]!), f(m[2]!), f(m[3]!), prev[3] ?? 1];
}

/** The stand-in the host sends for a typed array (shared/model/inspect-fields.ts jsonSafe). */
interface ArraySummary {
  type: string;
  length: number;
  head: number[];
}
function isArraySummary(v: unknown): v is ArraySummary {
  const a = v as Partial<ArraySummary> | null;
  return !!a && typeof a === 'object' && typeof a.type === 'string' && /Array$/.test(a.type) && typeof a.length === 'number' && Array.isArray(a.head);
}
/** `12 B: 01 0a ff …` for bytes, `300 × Float32: 1, 2.5, … ` for other arrays, `none` when empty. */
function summarizeArray(a: ArraySummary): string {
  const bytes = a.type === 'Uint8Array' || a.type === 'Int8Array' || a.type === 'Uint8ClampedArray';
  if (a.length === 0) return bytes ? 'none (0 B)' : `none (0 × ${a.type.replace(/Array$/, '')})`;
  const more = a.length > a.head.length ? ' …' : '';
  if (bytes) return `${a.length.toLocaleString('en-US')} B: ${a.head.map((b) => (b & 0xff).toString(16).padStart(2, '0')).join(' ')}${more}`;
  return `${a.length.toLocaleString('en-US')} × ${a.type.replace(/Array$/, '')}: ${a.head.join(', ')}${more}`;
}

/** Short summary of a value the inspector cannot edit (typed-array summaries, structs...). */
export function summarize(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (isArraySummary(v)) return summarizeArray(v);
  if (typeof v === 'string') return v.length > 120 ? `${v.slice(0, 120)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length <= 8 ? `[${v.map((x) => summarize(x)).join(', ')}]` : `${v.length} items`;
  if (typeof v === 'object') {
    // Nested records: name their keys so the row says what is inside.
    const keys = Object.keys(v).filter((k) => !k.startsWith('$'));
    if (keys.length > 4 || JSON.stringify(v).length > 120) return `{ ${keys.slice(0, 4).join(', ')}${keys.length > 4 ? `, … ${keys.length - 4} more` : ''} }`;
  }
  try {
    const s = JSON.stringify(v);
    return s.length > 120 ? `${s.slice(0, 120)}…` : s;
  } catch {
    return String(v);
  }
}

export function formatSpan(span: readonly [number, number] | undefined): string {
  if (!span) return '';
  const [a, b] = span;
  return `0x${a.toString(16)}–0x${b.toString(16)} (${b - a} B)`;
}
