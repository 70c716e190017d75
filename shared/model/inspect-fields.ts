/**
 * Building inspector rows: from a record decoded with a schema struct (with byte spans), or by
 * hand for fields outside one; typed arrays become short JSON-safe summaries.
 */
import type { Span } from '../binary/reader.ts';
import type { FieldInfo, FieldKind, Struct } from '../schema/schema.ts';
import type { InspectField } from './outline.ts';
import type { NodePath } from './path.ts';

/** A JSON-safe stand-in for an inspector value (typed arrays become a short summary). */
export function jsonSafe(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const a = v as unknown as ArrayLike<number> & { constructor: { name: string } };
    const head = Array.from({ length: Math.min(8, a.length) }, (_, i) => a[i]);
    return { type: a.constructor.name, length: a.length, head };
  }
  if (Array.isArray(v)) return v.map(jsonSafe);
  return v;
}

/** Inspector rows for a record decoded with a schema struct (spans when the record has one). */
export function structFields(s: Struct<any>, value: Record<string, unknown>, path: NodePath, span?: Span): InspectField[] {
  const base = span?.[0];
  const layout = base !== undefined ? s.layout(value as never, base) : undefined;
  return s.fields.map((f, i) => ({
    ...f,
    path: [...path, f.name],
    value: jsonSafe(value[f.name]),
    ...(layout ? { span: layout[i]!.span } : {}),
  }));
}

/** One hand-described inspector row (for fields outside a schema record). */
export function field(
  name: string,
  kind: FieldKind,
  path: NodePath,
  value: unknown,
  meta: Partial<FieldInfo> & { span?: Span } = {},
): InspectField {
  return { name, kind, path, value: jsonSafe(value), ...meta };
}
