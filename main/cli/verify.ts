/**
 * The round-trip check shared by `roundtrip` and `check`: decode, encode, compare byte for byte;
 * in strict mode also drop every `$raw` and encode from the fields alone, which proves the field
 * encoders exact rather than the raw-byte copy.
 */
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { firstDifference, locateOffset } from '../../shared/model/compare.ts';

/** Bytes compared per Buffer.compare call: large enough to amortise the call, small enough to stay in cache. */
const COMPARE_CHUNK = 1 << 20;

/**
 * The first offset where `a` and `b` differ (-1 when identical), as shared/model/compare.ts's
 * firstDifference, but chunk by chunk with Buffer.compare (memcmp): a byte loop took 300 ms on a
 * 400 MB file, about a third of `roundtrip`. Only a differing chunk is walked byte by byte.
 */
export function firstDifferenceFast(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  const ba = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const bb = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 0; at < n; at += COMPARE_CHUNK) {
    const end = Math.min(n, at + COMPARE_CHUNK);
    if (Buffer.compare(ba.subarray(at, end), bb.subarray(at, end)) !== 0) return at + firstDifference(a.subarray(at, end), b.subarray(at, end));
  }
  return a.length === b.length ? -1 : n;
}
import { dropRaw } from '../../shared/model/lossless.ts';
import type { DecodeOptions, EncodeOptions } from '../../shared/formats/registry.ts';

/**
 * The first offset where `input` and the concatenation of `pieces` differ (-1 when identical),
 * without joining the pieces: each is compared with its stretch of the input in chunks
 * ({@link firstDifferenceFast}). Returns the offset and the output's total length.
 */
export function firstDifferencePieces(input: Uint8Array, pieces: readonly Uint8Array[]): { offset: number; length: number } {
  let at = 0;
  let offset = -1;
  for (const p of pieces) {
    if (offset < 0) {
      if (at >= input.length) offset = at === input.length && p.length === 0 ? -1 : at;
      else {
        const d = firstDifferenceFast(input.subarray(at, Math.min(input.length, at + p.length)), p);
        // A piece running past the input's end differs where the input ends.
        if (d >= 0) offset = at + d;
      }
    }
    at += p.length;
  }
  if (offset < 0 && at !== input.length) offset = Math.min(at, input.length);
  return { offset, length: at };
}

/** What `codec.encode` returns, as pieces when the codec can (see FormatCodec.encodePieces). */
export function encodePieces(codec: FormatCodec, doc: object, opts?: EncodeOptions): Uint8Array[] {
  return codec.encodePieces ? codec.encodePieces(doc, opts) : [codec.encode(doc, opts)];
}

export interface RoundTripDiff {
  /** Which pass differed. */
  mode: 'as saved' | 'from fields';
  /** First differing byte offset. */
  offset: number;
  /** Display path of the node that holds it ('' when unknown). */
  path: string;
  inputBytes: number;
  outputBytes: number;
}

/** First difference of the passes (undefined when every pass reproduces the input). */
export function roundTrip(codec: FormatCodec, bytes: Uint8Array, fileName: string, doc: object, strict: boolean, maxMemory?: number, readInclude?: DecodeOptions['readInclude']): RoundTripDiff | undefined {
  // The output is compared piece by piece (views of the document's arrays and raw bytes), never
  // joined: an untouched file costs no second copy of itself.
  const first = compare(codec, doc, bytes, encodePieces(codec, doc), 'as saved');
  if (first || !strict) return first;
  const bare = codec.decode(bytes, { fileName, share: true, ...(maxMemory !== undefined ? { maxMemory } : {}), ...(readInclude ? { readInclude } : {}) }) as object;
  dropRaw(bare);
  return compare(codec, bare, bytes, encodePieces(codec, bare, { reuseRaw: false }), 'from fields');
}

function compare(codec: FormatCodec, doc: object, input: Uint8Array, output: readonly Uint8Array[], mode: RoundTripDiff['mode']): RoundTripDiff | undefined {
  const { offset, length } = firstDifferencePieces(input, output);
  if (offset < 0) return undefined;
  let path = '';
  try {
    path = locateOffset(codec.outline(doc), offset);
  } catch {
    // The outline is a convenience here; the offset alone still finds the byte.
  }
  return { mode, offset, path, inputBytes: input.length, outputBytes: length };
}

/** `first difference at offset 1234 (0x4d2), node LOD1/MSL1; 5000 -> 4998 bytes (from fields)` */
export function describeDiff(d: RoundTripDiff): string {
  const sizes = d.inputBytes === d.outputBytes ? `${d.inputBytes} bytes` : `${d.inputBytes} -> ${d.outputBytes} bytes`;
  return `first difference at offset ${d.offset} (0x${d.offset.toString(16)}), node ${d.path || '(unknown)'}; ${sizes} (${d.mode})`;
}
