/**
 * PBO, the archive Arma, DayZ and OFP load their addons from. Read only: packing is HEMTT's job.
 *
 * Layout (BI community wiki "PBO File Format", checked against HEMTT's and armake's readers):
 * - a header of entries, each: the name (NUL-terminated, `\`-separated), then five u32: packing
 *   method, original size, reserved, timestamp (Unix seconds), data size;
 * - the first entry may be the product entry: an empty name with method `Vers` (0x56657273),
 *   followed by NUL-terminated key/value strings (`prefix`, `product`, `version`, ...) up to an
 *   empty key. OFP's archives have none;
 * - the header ends with an entry whose name is empty (its numbers are zero);
 * - then every entry's data in header order, `data size` bytes each;
 * - Arma's archives end with a 0 byte and the SHA-1 of everything before it (20 bytes).
 *
 * Methods: 0 stored; `Cprs` (0x43707273) Bohemia's LZSS (shared/binary/lzss.ts) with its 4-byte
 * checksum, `original size` decoded bytes; OFP also writes method 0 with an original size that
 * differs from the data size for a compressed entry; `Encr` (0x456e6372) is VBS's encryption,
 * which is never undone here.
 *
 * Obfuscated archives (made to stop others from unpacking a mod) break these rules on purpose:
 * names with control characters or `..`, names used twice, data outside the file, compressed
 * entries that cannot decode to their size. Such entries are listed with the reason they cannot
 * be read and are never extracted; nothing is done to get around the obfuscation.
 *
 * The header is parsed from a prefix of the file (`parsePbo(head, fileSize)`), so listing a
 * multi-gigabyte archive reads its header only; entry data is handed in separately.
 */
import { BudgetError } from '../../binary/budget.ts';
import { lzssDecompress, lzssMaxOutput } from '../../binary/lzss.ts';
import { DecodeError } from '../../errors.ts';

export const METHOD_STORED = 0;
export const METHOD_CPRS = 0x43707273;
export const METHOD_VERS = 0x56657273;
export const METHOD_ENCR = 0x456e6372;

export type PboPacking = 'stored' | 'lzss' | 'encrypted' | 'unknown';

export interface PboEntry {
  /** The name as stored (control characters kept; see {@link printableName}). */
  name: string;
  /** Packing method word as stored. */
  method: number;
  packing: PboPacking;
  /** Decoded size: the original size of a compressed entry, else the data size. */
  size: number;
  originalSize: number;
  reserved: number;
  /** Unix seconds (0 when the packer wrote none). */
  timestamp: number;
  /** Stored bytes in the archive. */
  dataSize: number;
  /** Where the stored bytes start in the archive. */
  dataOffset: number;
  /** Where the entry's header record starts. */
  headerOffset: number;
  /** Why the entry cannot be read or extracted, when it cannot. */
  unreadable?: string;
}

export interface PboArchive {
  /** Header extension key/value pairs, in file order. */
  properties: [string, string][];
  /** The `prefix` property (the virtual path the game mounts the archive at), or ''. */
  prefix: string;
  entries: PboEntry[];
  /** Where entry data starts (the header's length). */
  dataStart: number;
  /** Where entry data ends. */
  dataEnd: number;
  fileSize: number;
  /** The SHA-1 after the data, as hex, when the archive carries one. */
  sha1?: string;
  /** Things about the archive as a whole a reader should know (trailing bytes, obfuscation). */
  notes: string[];
}

/** Thrown when the header runs past the bytes handed in but the file is longer: read more and call again. */
export class PboNeedMore extends Error {
  override readonly name = 'PboNeedMore';
  readonly atLeast: number;
  constructor(atLeast: number) {
    super(`the PBO header needs more than ${atLeast} bytes`);
    this.atLeast = atLeast;
  }
}

/** True when the bytes look like a PBO header (product entry, or a first entry with a plausible name). */
export function probePbo(bytes: Uint8Array): boolean {
  if (bytes.length < 21) return false;
  // Product entry: empty name, then "sreV" (Vers little-endian).
  if (bytes[0] === 0 && bytes[1] === 0x73 && bytes[2] === 0x72 && bytes[3] === 0x65 && bytes[4] === 0x56) return true;
  return false;
}

const MAX_NAME = 1024;

/**
 * Parses the header from `head` (the whole file or a prefix of it) for a file of `fileSize`
 * bytes. Throws {@link PboNeedMore} when `head` is a prefix that ends inside the header, and a
 * DecodeError when the header itself is broken (no terminator before the end of the file, a
 * name without its NUL).
 */
export function parsePbo(head: Uint8Array, fileSize = head.length): PboArchive {
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let p = 0;
  const need = (n: number, what: string, path: string): void => {
    if (p + n <= head.length) return;
    if (head.length < fileSize) throw new PboNeedMore(Math.min(fileSize, Math.max(p + n, head.length * 2)));
    throw new DecodeError(`${what} runs past the end of the file`, Math.min(p, fileSize), path);
  };
  const cstring = (path: string): string => {
    const start = p;
    for (;;) {
      need(1, 'a name without its terminating NUL', path);
      if (head[p] === 0) break;
      p++;
      if (p - start > MAX_NAME) throw new DecodeError(`a name longer than ${MAX_NAME} bytes`, start, path);
    }
    let s = '';
    for (let i = start; i < p; i++) s += String.fromCharCode(head[i]!);
    p++;
    return s;
  };
  const properties: [string, string][] = [];
  const entries: PboEntry[] = [];
  const notes: string[] = [];
  for (let index = 0; ; index++) {
    const headerOffset = p;
    const path = `header[${index}]`;
    const name = cstring(`${path}/name`);
    need(20, 'an entry record', path);
    const method = dv.getUint32(p, true);
    const originalSize = dv.getUint32(p + 4, true);
    const reserved = dv.getUint32(p + 8, true);
    const timestamp = dv.getUint32(p + 12, true);
    const dataSize = dv.getUint32(p + 16, true);
    p += 20;
    if (name === '') {
      if (method === METHOD_VERS && index === 0) {
        for (let k = 0; ; k++) {
          const key = cstring(`properties[${k}]/key`);
          if (key === '') break;
          const value = cstring(`properties[${k}]/value`);
          properties.push([key, value]);
        }
        continue;
      }
      if (method !== 0 || originalSize !== 0 || reserved !== 0 || timestamp !== 0 || dataSize !== 0) notes.push(`the header's end record at ${headerOffset} holds values (obfuscated or damaged)`);
      break;
    }
    const entry: PboEntry = { name, method, packing: packingOf(method, originalSize, dataSize), size: 0, originalSize, reserved, timestamp, dataSize, dataOffset: 0, headerOffset };
    entry.size = entry.packing === 'lzss' ? originalSize : dataSize;
    entries.push(entry);
  }
  const dataStart = p;
  let at = dataStart;
  const seen = new Set<string>();
  for (const e of entries) {
    e.dataOffset = at;
    at += e.dataSize;
    const why = nameProblem(e.name);
    const key = e.name.toLowerCase().replace(/\//g, '\\');
    if (why) e.unreadable = why;
    else if (seen.has(key)) e.unreadable = 'the name is used by an earlier entry (obfuscated archive)';
    else if (e.dataOffset + e.dataSize > fileSize) e.unreadable = `its data (${e.dataSize} bytes at ${e.dataOffset}) runs past the end of the archive (${fileSize} bytes)`;
    else if (e.packing === 'encrypted') e.unreadable = 'it is encrypted (VBS "Encr" packing): LodSmith does not decrypt archives';
    else if (e.packing === 'unknown') e.unreadable = `its packing method 0x${e.method.toString(16).padStart(8, '0')} is unknown`;
    else if (e.packing === 'lzss' && e.originalSize > lzssMaxOutput(e.dataSize)) e.unreadable = `it claims ${e.originalSize} bytes, more than its ${e.dataSize} compressed bytes can hold (obfuscated or damaged)`;
    seen.add(key);
  }
  const dataEnd = at;
  let sha1: string | undefined;
  if (dataEnd === fileSize - 21 && head.length >= fileSize && head[dataEnd] === 0) {
    sha1 = [...head.subarray(dataEnd + 1, fileSize)].map((b) => b.toString(16).padStart(2, '0')).join('');
  } else if (dataEnd < fileSize && !(dataEnd === fileSize - 21)) {
    notes.push(`${fileSize - dataEnd} bytes follow the entries' data`);
  } else if (dataEnd > fileSize) {
    notes.push(`the entries' data ends ${dataEnd - fileSize} bytes past the end of the file`);
  }
  const bad = entries.filter((e) => e.unreadable).length;
  if (bad) notes.push(`${bad} of ${entries.length} entries cannot be read`);
  const prefix = properties.find(([k]) => k.toLowerCase() === 'prefix')?.[1] ?? '';
  return { properties, prefix, entries, dataStart, dataEnd, fileSize, ...(sha1 ? { sha1 } : {}), notes };
}

function packingOf(method: number, originalSize: number, dataSize: number): PboPacking {
  if (method === METHOD_CPRS) return 'lzss';
  if (method === METHOD_ENCR) return 'encrypted';
  if (method === METHOD_STORED) return originalSize !== 0 && originalSize !== dataSize ? 'lzss' : 'stored';
  return 'unknown';
}

/** Why a name cannot be extracted safely, or undefined for an ordinary one. */
export function nameProblem(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(name)) return 'its name holds control characters (obfuscated archive)';
  if (/[<>:"|?*]/.test(name)) return 'its name holds characters no file name may have (obfuscated archive)';
  const segs = name.split(/[\\/]/);
  if (/^[\\/]/.test(name) || segs.some((s) => s === '..' || s === '.')) return 'its name leaves the archive (a leading slash, "." or "..")';
  if (segs.some((s) => s === '' || /[. ]$/.test(s))) return 'its name has an empty segment or one ending in a dot or space';
  return undefined;
}

/** The name with control characters shown as `\xNN`, for listings. */
export function printableName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\x00-\x1f\x7f-\xff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * The decoded bytes of an entry from its stored bytes (exactly `entry.dataSize` of them). A
 * compressed entry is decompressed to its original size and its checksum checked, the
 * allocation charged to the decoding budget. Offsets in errors are the archive's.
 */
export function entryBytes(entry: PboEntry, stored: Uint8Array): Uint8Array {
  const path = `entries/${printableName(entry.name)}`;
  if (entry.unreadable) throw new DecodeError(`cannot read ${printableName(entry.name)}: ${entry.unreadable}`, entry.headerOffset, path);
  if (stored.length !== entry.dataSize) throw new DecodeError(`${stored.length} stored bytes given for an entry of ${entry.dataSize}`, entry.dataOffset, path);
  if (entry.packing === 'stored') return stored;
  try {
    return lzssDecompress(stored, 0, entry.originalSize, {}, undefined, path).data;
  } catch (e) {
    if (e instanceof DecodeError && !(e instanceof BudgetError)) throw new DecodeError(`compressed entry: ${e.detail}`, entry.dataOffset + e.offset, path);
    throw e;
  }
}

/** `a\b\c.p3d` with either separator, compared case-insensitively as the game does. */
export function samePboPath(a: string, b: string): boolean {
  return a.replace(/\//g, '\\').toLowerCase() === b.replace(/\//g, '\\').toLowerCase();
}

/** Turns a shell-style pattern (`*`, `?`, `**`; `\` or `/`) into a test on entry names, case-insensitive. */
export function pboPattern(pattern: string): (name: string) => boolean {
  const norm = pattern.replace(/\//g, '\\');
  let re = '';
  for (let i = 0; i < norm.length; i++) {
    const c = norm[i]!;
    if (c === '*') {
      if (norm[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += '[^\\\\]*';
    } else if (c === '?') re += '[^\\\\]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern without a separator matches the file name in any folder.
  const rx = new RegExp(norm.includes('\\') ? `^${re}$` : `(^|\\\\)${re}$`, 'i');
  return (name) => rx.test(name.replace(/\//g, '\\'));
}
