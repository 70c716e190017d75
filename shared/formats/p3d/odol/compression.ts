/**
 * The stream formats ODOL stores its large arrays in, behind one pair of functions so the rest of
 * the codec never cares which one a version uses:
 * - LZSS for ODOL v7 and v40..v43. The LZSS document says Arma sums signed bytes, but every
 *   compressed array in the real v40 files of the corpus carries the unsigned sum (checked in
 *   test/unit/odol-lzss-checksum.test.ts), so the encoder writes the unsigned sum for both; the
 *   decoder accepts either;
 * - LZO1X from v44.
 * Only the expanded size is known up front; each decoder reports how many input bytes it used.
 */
import { lzssCompress, lzssDecompress } from '../../../binary/lzss.ts';
import { lzo1xCompress, lzo1xDecompress, lzo1xScan } from '../../../binary/lzo1x.ts';

export type Method = 'lzss-ofp' | 'lzss-arma' | 'lzo';

export interface Inflated {
  data: Uint8Array;
  consumed: number;
}

/**
 * Expands one stream that starts at `offset`; throws DecodeError on a corrupt or truncated one.
 * `out` (exactly `expectedSize` bytes) is where the bytes go; without it they get a new buffer,
 * charged to the decoding memory budget. `path` names the array in a budget refusal.
 */
export function inflate(method: Method, src: Uint8Array, offset: number, expectedSize: number, out?: Uint8Array, path = ''): Inflated {
  if (method !== 'lzo') return lzssDecompress(src, offset, expectedSize, {}, out, path);
  const r = lzo1xDecompress(src, offset, expectedSize, out, path);
  observer?.(src.subarray(offset, offset + r.consumed), expectedSize);
  return r;
}

/**
 * Checks one stream at `offset` as {@link inflate} would expand it (the same errors at the same
 * offsets) without writing its output, and returns the bytes it takes; undefined, checking
 * nothing, for a method that needs its output to be checked (LZSS ends with a sum of it). Arrays
 * a decode defers (DecodeOptions.defer) are checked this way, then expanded by inflate when read.
 */
export function scan(method: Method, src: Uint8Array, offset: number, expectedSize: number): number | undefined {
  return method === 'lzo' ? lzo1xScan(src, offset, expectedSize) : undefined;
}

/** See {@link observeLzoStreams}. */
let observer: ((stream: Uint8Array, size: number) => void) | undefined;

/**
 * Calls `fn` with every LZO stream a decode expands after this (a view of the input, and its
 * expanded size), until called again with `undefined`. The benchmark collects the ODOL corpus's
 * streams with it to time liblzo2 on exactly what the decoder expands (issue 26); nothing else
 * sets it.
 */
export function observeLzoStreams(fn: ((stream: Uint8Array, size: number) => void) | undefined): void {
  observer = fn;
}

/** Compresses `data` so that {@link inflate} gives it back. */
export function deflate(method: Method, data: Uint8Array): Uint8Array {
  if (method === 'lzo') return lzo1xCompress(data);
  return lzssCompress(data, { signedChecksum: false });
}
