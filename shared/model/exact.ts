import type { BinaryReader } from '../binary/reader.ts';
import type { BinaryWriter } from '../binary/writer.ts';
import { nanBitsOf, withNanBits, type NanBits } from '../schema/schema.ts';

/**
 * Kept NaN bytes for records whose fields a codec copies into a larger node, so the record object
 * (which carries them, see Struct in schema.ts) does not survive. A JS number keeps one NaN, so a
 * signalling NaN read into a plain number would be written back quieted. The bytes are kept per
 * field (a tuple per element): an edit to any other field, or another element, leaves every
 * untouched NaN bit for bit as stored; a field whose value is no longer NaN is written from it.
 */
export interface ExactKeeping {
  $exact?: Record<string, { nan: NanBits }>;
}

/** Reads a record and keeps its NaN bytes in `holder` under `key`. */
export function readExact<T>(s: { read(r: BinaryReader): T }, r: BinaryReader, holder: ExactKeeping, key: string): T {
  const v = s.read(r);
  const nan = nanBitsOf(v);
  if (nan) (holder.$exact ??= {})[key] = { nan };
  return v;
}

export function writeExact<T>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T, holder: ExactKeeping, key: string): void {
  s.write(w, withNanBits(v, holder.$exact?.[key]?.nan));
}

/** {@link readExact} for a record stored as its own node (bones, segments): `$exact` goes on the value. */
export function readSelf<T extends object>(s: { read(r: BinaryReader): T }, r: BinaryReader): T & ExactKeeping {
  const holder: ExactKeeping = {};
  const v = readExact(s, r, holder, 'self') as T & ExactKeeping;
  if (holder.$exact) v.$exact = holder.$exact;
  return v;
}

export function writeSelf<T extends object>(s: { write(w: BinaryWriter, v: T): void }, w: BinaryWriter, v: T & ExactKeeping): void {
  writeExact(s, w, v, v, 'self');
}
