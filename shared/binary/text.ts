/**
 * Byte <-> string codecs that are bijective over all 256 byte values, so a name decoded and
 * encoded again always yields the original bytes (lossless by construction).
 *
 * - `latin1`: byte n <-> U+00nn. Safe default for formats whose names are ASCII in practice.
 * - `cp1251`: Windows-1251 (LODka 3D was written by a Russian Delphi tool). The one byte that
 *   Windows-1251 leaves undefined (0x98) maps to U+0098 so the table stays a bijection.
 * - `utf8`: only for formats documented as UTF-8; callers must check `isLosslessUtf8` first and
 *   fall back to latin1 otherwise.
 */
import { madeOnce } from './once.ts';

export type TextEncoding = 'latin1' | 'cp1251' | 'utf8';

const CP1251_HIGH =
  '\u0402\u0403\u201A\u0453\u201E\u2026\u2020\u2021\u20AC\u2030\u0409\u2039\u040A\u040C\u040B\u040F' +
  '\u0452\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u0098\u2122\u0459\u203A\u045A\u045C\u045B\u045F' +
  '\u00A0\u040E\u045E\u0408\u00A4\u0490\u00A6\u00A7\u0401\u00A9\u0404\u00AB\u00AC\u00AD\u00AE\u0407' +
  '\u00B0\u00B1\u0406\u0456\u0491\u00B5\u00B6\u00B7\u0451\u2116\u0454\u00BB\u0458\u0405\u0455\u0457';

/**
 * The Windows-1251 tables, made on first use: building them with every start of the CLI was
 * ~20 kB of the young heap that `lodsmith info` fills (docs/performance.md, "Start-up"), and
 * only LODka names use them.
 */
const cp1251 = madeOnce((): { decode: string[]; encode: Map<number, number> } => {
  const decode: string[] = [];
  const encode = new Map<number, number>();
  for (let b = 0; b < 256; b++) {
    let ch: string;
    if (b < 0x80) ch = String.fromCharCode(b);
    else if (b < 0xc0) ch = CP1251_HIGH[b - 0x80]!;
    else ch = String.fromCharCode(0x0410 + (b - 0xc0));
    decode.push(ch);
    encode.set(ch.charCodeAt(0), b);
  }
  return { decode, encode };
});

/**
 * The UTF-8 coders, made on first use: Node loads its encoding module for the first one, which
 * was ~2% of `lodsmith info` on a tiny file, whose names are all Latin-1.
 */
const utf8Decoder = madeOnce(() => new TextDecoder('utf-8', { fatal: true }));
const utf8Encoder = madeOnce(() => new TextEncoder());

/**
 * Short Latin-1 text: its codes go into a plain array kept for that length (one per length up to
 * SHORT_MAX, so none ever changes size), which `String.fromCharCode.apply` takes as it is; a
 * typed array or a view of one is first turned into a new list by the engine. Each list is made
 * when a text of its length is first met, not all 65 at start (start-up's young heap).
 */
const SHORT_MAX = 64;
const SHORT: (number[] | undefined)[] = new Array<number[] | undefined>(SHORT_MAX + 1);

/** The Latin-1 text of `bytes[start, end)`, without a view of it when short. */
export function latin1At(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n > SHORT_MAX) return decodeText(bytes.subarray(start, end), 'latin1');
  const codes = (SHORT[n] ??= new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) codes[i] = bytes[start + i]!;
  return String.fromCharCode.apply(null, codes);
}

export function decodeText(bytes: Uint8Array, enc: TextEncoding = 'latin1'): string {
  if (enc === 'utf8') return utf8Decoder().decode(bytes);
  // Chunked String.fromCharCode: fast for long strings without blowing the argument limit.
  let out = '';
  if (enc === 'latin1') {
    const n = bytes.length;
    if (n <= SHORT_MAX) return latin1At(bytes, 0, n);
    // Most strings are short names: one call on the view given, no chunk view of it (a second
    // view per string was a tenth of what decoding a real ODOL file allocated).
    if (n <= 8192) return String.fromCharCode.apply(null, bytes as unknown as number[]);
    for (let i = 0; i < bytes.length; i += 8192) {
      out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
    }
    return out;
  }
  const table = cp1251().decode;
  for (let i = 0; i < bytes.length; i++) out += table[bytes[i]!];
  return out;
}

/** Encodes a string; throws RangeError for a character the encoding cannot represent. */
export function encodeText(s: string, enc: TextEncoding = 'latin1'): Uint8Array {
  if (enc === 'utf8') return utf8Encoder().encode(s);
  const out = new Uint8Array(s.length);
  const cp1251Encode = enc === 'latin1' ? undefined : cp1251().encode;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let b: number | undefined;
    if (enc === 'latin1') b = c < 256 ? c : undefined;
    else b = c < 0x80 ? c : cp1251Encode!.get(c);
    if (b === undefined) throw new RangeError(`character U+${c.toString(16).padStart(4, '0')} cannot be written as ${enc}`);
    out[i] = b;
  }
  return out;
}

export function textByteLength(s: string, enc: TextEncoding = 'latin1'): number {
  return enc === 'utf8' ? utf8Encoder().encode(s).length : s.length;
}

/** True when the bytes are valid UTF-8 that re-encodes to the same bytes. */
export function isLosslessUtf8(bytes: Uint8Array): boolean {
  try {
    const s = utf8Decoder().decode(bytes);
    const back = utf8Encoder().encode(s);
    if (back.length !== bytes.length) return false;
    for (let i = 0; i < back.length; i++) if (back[i] !== bytes[i]) return false;
    return true;
  } catch {
    return false;
  }
}
