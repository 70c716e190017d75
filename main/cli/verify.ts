/**
 * The round-trip check shared by `roundtrip` and `check`: decode, encode, compare byte for byte;
 * in strict mode also drop every `$raw` and encode from the fields alone, which proves the field
 * encoders exact rather than the raw-byte copy.
 */
import type { FormatCodec } from '../../shared/formats/registry.ts';
import { firstDifference, locateOffset } from '../../shared/model/compare.ts';
import { dropRaw } from '../../shared/model/lossless.ts';

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
export function roundTrip(codec: FormatCodec, bytes: Uint8Array, fileName: string, doc: object, strict: boolean, maxMemory?: number): RoundTripDiff | undefined {
  const first = compare(codec, doc, bytes, codec.encode(doc), 'as saved');
  if (first || !strict) return first;
  const bare = codec.decode(bytes, { fileName, ...(maxMemory !== undefined ? { maxMemory } : {}) }) as object;
  dropRaw(bare);
  return compare(codec, bare, bytes, codec.encode(bare, { reuseRaw: false }), 'from fields');
}

function compare(codec: FormatCodec, doc: object, input: Uint8Array, output: Uint8Array, mode: RoundTripDiff['mode']): RoundTripDiff | undefined {
  const offset = firstDifference(input, output);
  if (offset < 0) return undefined;
  let path = '';
  try {
    path = locateOffset(codec.outline(doc), offset);
  } catch {
    // The outline is a convenience here; the offset alone still finds the byte.
  }
  return { mode, offset, path, inputBytes: input.length, outputBytes: output.length };
}

/** `first difference at offset 1234 (0x4d2), node LOD1/MSL1; 5000 -> 4998 bytes (from fields)` */
export function describeDiff(d: RoundTripDiff): string {
  const sizes = d.inputBytes === d.outputBytes ? `${d.inputBytes} bytes` : `${d.inputBytes} -> ${d.outputBytes} bytes`;
  return `first difference at offset ${d.offset} (0x${d.offset.toString(16)}), node ${d.path || '(unknown)'}; ${sizes} (${d.mode})`;
}
