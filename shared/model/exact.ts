import type { BinaryReader } from '../binary/reader.ts';
import { BinaryWriter } from '../binary/writer.ts';

/**
 * Keyed exact bytes, for records whose fields a codec spreads into a larger node (so the record
 * object itself, and the bytes schema structs keep on it, does not survive). Float fields read
 * into plain numbers lose NaN payloads (JavaScript keeps one NaN). For the rare
 * record whose bytes do not survive that, the original bytes are kept next to the canonical
 * encoding of the values read; while the values still encode to that, the original is written.
 */
export interface ExactKeeping {
  $exact?: Record<string, { orig: Uint8Array; canon: Uint8Array }>;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads a record and remembers its bytes in `holder` when the values alone cannot reproduce them. */
export function readExact<T>(s: { read(r: BinaryReader): T; write(w: BinaryWriter, v: NoInfer<T>): void }, r: BinaryReader, holder: ExactKeeping, key: string): T {
  const start = r.pos;
  const v = s.read(r);
  const orig = r.viewAt(start, r.pos);
  const w = new BinaryWriter(orig.length);
  // From a plain copy of the fields (no symbol keys): a schema struct would otherwise write the
  // NaN bytes it keeps on the record itself, and the difference this helper exists to catch (the
  // codec copies the fields elsewhere, without those bytes) would not show.
  s.write(w, (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : v) as NoInfer<T>);
  const canon = w.finish();
  if (!sameBytes(canon, orig)) (holder.$exact ??= {})[key] = { orig: orig.slice(), canon };
  return v;
}

export function writeExact<T>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T, holder: ExactKeeping, key: string): void {
  const e = holder.$exact?.[key];
  if (!e) return s.write(w, v);
  const tmp = new BinaryWriter(e.canon.length);
  s.write(tmp, v);
  const now = tmp.finish();
  w.bytes(sameBytes(now, e.canon) ? e.orig : now);
}

/** {@link readExact} for a record stored as its own node (bones, segments): `$exact` goes on the value. */
export function readSelf<T extends object>(s: { read(r: BinaryReader): T; write(w: BinaryWriter, v: NoInfer<T>): void }, r: BinaryReader): T & ExactKeeping {
  const holder: ExactKeeping = {};
  const v = readExact(s, r, holder, 'self') as T & ExactKeeping;
  if (holder.$exact) v.$exact = holder.$exact;
  return v;
}

export function writeSelf<T extends object>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T & ExactKeeping): void {
  writeExact(s, w, v, v, 'self');
}
