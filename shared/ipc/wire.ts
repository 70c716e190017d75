/**
 * The browser host's wire format: structured data with typed arrays, binary-safe and without
 * base64 inflation. An envelope is
 *
 *   "LSW1" | u32 LE json length | JSON (UTF-8) | zero padding to 8 | blobs, each 8-aligned
 *
 * In the JSON a typed array is `{"$typed": "Float32Array", "o": offset, "n": byteLength}` (offset
 * into the blob area) and a number JSON cannot hold (NaN, ±Infinity, -0) is `{"$num": "NaN"}`,
 * so field values of damaged files reach the inspector unchanged.
 *
 * It lives in shared/ because both ends use it: the host server (main/host/server.ts) and the
 * page's client (renderer/bridge/host-client.ts).
 */
import { joinBytes } from '../binary/writer.ts';

const MAGIC = [0x4c, 0x53, 0x57, 0x31]; // LSW1

const TYPED = {
  Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

/** Thrown for envelopes that are not well formed. */
export class WireError extends Error {
  override readonly name = 'WireError';
}

const TYPED_NAMES = Object.keys(TYPED) as TypedName[];

function typedName(v: unknown): TypedName | undefined {
  // instanceof rather than constructor names: a Node Buffer is a Uint8Array under another name.
  if (!ArrayBuffer.isView(v) || v instanceof DataView) return undefined;
  return TYPED_NAMES.find((n) => v instanceof TYPED[n]);
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * An envelope as a list of byte ranges that concatenate to {@link encodeEnvelope}'s output: the
 * header with the JSON and its padding, then each typed array's own bytes (views, not copies)
 * and its padding. A server writes them one after the other, so a 100 MB scene is not first
 * copied into one buffer; the arrays must not change until they are written.
 */
export function encodeEnvelopeParts(value: unknown): { parts: Uint8Array[]; length: number } {
  const blobs: Typed[] = [];
  let blobBytes = 0;
  const json = JSON.stringify(value === undefined ? null : value, function (this: unknown, key: string, v: unknown) {
    // The holder's own value: toJSON (Node Buffer has one) has already run on `v`.
    const original = (this as Record<string, unknown>)[key];
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return { $num: 'NaN' };
      if (v === Infinity) return { $num: 'Infinity' };
      if (v === -Infinity) return { $num: '-Infinity' };
      if (Object.is(v, -0)) return { $num: '-0' };
      return v;
    }
    const t = typedName(original);
    if (t) {
      const arr = original as Typed;
      const o = blobBytes;
      blobs.push(arr);
      blobBytes = align8(blobBytes + arr.byteLength);
      return { $typed: t, o, n: arr.byteLength };
    }
    return v;
  });
  const text = new TextEncoder().encode(json);
  const head = new Uint8Array(align8(8 + text.length));
  head.set(MAGIC, 0);
  new DataView(head.buffer).setUint32(4, text.length, true);
  head.set(text, 8);
  const parts: Uint8Array[] = [head];
  const zeros = new Uint8Array(8);
  for (const b of blobs) {
    if (b.byteLength) parts.push(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    const pad = align8(b.byteLength) - b.byteLength;
    if (pad) parts.push(zeros.subarray(0, pad));
  }
  return { parts, length: head.length + blobBytes };
}

/** Encodes a value (plain data with typed arrays) as an envelope. */
export function encodeEnvelope(value: unknown): Uint8Array {
  const { parts } = encodeEnvelopeParts(value);
  return parts.length === 1 ? parts[0]! : joinBytes(parts);
}

/** How {@link decodeEnvelope} hands out typed arrays. */
export interface DecodeOptions {
  /**
   * Typed arrays may be views into `bytes` (when their offset is aligned for their type) instead
   * of copies. For a page receiving a scene: no second copy of tens of megabytes. The views keep
   * the whole envelope's buffer alive, and share it with each other (never overlapping), so only
   * pass this for bytes nothing else writes to.
   */
  share?: boolean;
}

/** Decodes an envelope; throws {@link WireError} for anything malformed (never trusts offsets). */
export function decodeEnvelope(bytes: Uint8Array, options: DecodeOptions = {}): unknown {
  if (bytes.length < 8 || MAGIC.some((m, i) => bytes[i] !== m)) throw new WireError('not a LodSmith envelope');
  const len = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (8 + len > bytes.length) throw new WireError('envelope JSON runs past the end');
  const blobs = bytes.subarray(Math.min(bytes.length, align8(8 + len)));
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + len)), (_key, v: unknown) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const o = v as { $typed?: unknown; $num?: unknown; o?: unknown; n?: unknown };
        if (typeof o.$typed === 'string') {
          const Ctor = Object.hasOwn(TYPED, o.$typed) ? TYPED[o.$typed as TypedName] : undefined;
          const off = o.o;
          const n = o.n;
          if (!Ctor || typeof off !== 'number' || typeof n !== 'number' || !Number.isInteger(off) || !Number.isInteger(n) || off < 0 || n < 0 || off + n > blobs.length || n % Ctor.BYTES_PER_ELEMENT !== 0) {
            throw new WireError(`bad typed array reference ${JSON.stringify(v).slice(0, 80)}`);
          }
          const at = blobs.byteOffset + off;
          if (options.share && at % Ctor.BYTES_PER_ELEMENT === 0) return new Ctor(blobs.buffer as ArrayBuffer, at, n / Ctor.BYTES_PER_ELEMENT);
          // Copy: the result must own an aligned buffer of its own.
          const copy = blobs.slice(off, off + n);
          return new Ctor(copy.buffer, 0, n / Ctor.BYTES_PER_ELEMENT);
        }
        if (typeof o.$num === 'string') {
          const m: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
          if (!(o.$num in m)) throw new WireError(`bad number ${o.$num}`);
          return m[o.$num];
        }
      }
      return v;
    });
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError(`envelope JSON is malformed: ${(e as Error).message}`);
  }
  return parsed;
}

/** The content type of envelopes over HTTP. */
export const ENVELOPE_TYPE = 'application/x-lodsmith-envelope';
