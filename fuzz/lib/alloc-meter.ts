/**
 * Counts the bytes every new typed array and ArrayBuffer allocates in this thread, so the fuzzer
 * can tell a decoder that allocates far beyond its input (a forged count believed) from one that
 * merely keeps a copy. Views over existing buffers are not counted; only fresh allocations are.
 *
 * It works by replacing the global constructors with subclasses before the codecs are loaded:
 * instances are still `instanceof Uint8Array` etc., so codecs behave the same. Used only inside
 * the fuzz worker, never in the product.
 */

let allocated = 0;

/** Bytes allocated since the last {@link resetAllocated}. */
export function allocatedBytes(): number {
  return allocated;
}

export function resetAllocated(): void {
  allocated = 0;
}

const typedNames = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
] as const;

type TypedCtor = new (...args: any[]) => { byteLength: number };

/** Installs the meter (idempotent). Must run before the codecs are imported. */
export function installAllocMeter(): void {
  const g = globalThis as Record<string, unknown>;
  if (g.__lodsmithAllocMeter) return;
  g.__lodsmithAllocMeter = true;
  // The originals, captured before anything is replaced: a view test must see every buffer.
  const OrigAB = ArrayBuffer;
  const OrigSAB = typeof SharedArrayBuffer === 'undefined' ? undefined : SharedArrayBuffer;
  for (const name of typedNames) {
    const Base = g[name] as TypedCtor;
    // A length, an array-like or an iterable makes a new buffer; (buffer, offset, length) is a view.
    const Metered = class extends Base {
      constructor(...args: any[]) {
        super(...args);
        const a0 = args[0];
        if (!(a0 instanceof OrigAB) && !(OrigSAB && a0 instanceof OrigSAB)) {
          allocated += this.byteLength;
        }
      }

      // Arrays this class did not make (a structured clone's, a Buffer, a slice of either) are
      // Uint8Arrays all the same: without this, `x instanceof Uint8Array` was false for them in
      // the worker only, and a codec that checks it took another path (the unigine-mesh
      // "mismatch" of run 14001: kept NaN bytes, sliced from the cloned input, were ignored).
      static [Symbol.hasInstance](x: unknown): boolean {
        return x instanceof Base;
      }
    };
    Object.defineProperty(Metered, 'name', { value: name });
    g[name] = Metered;
  }
  const MeteredAB = class extends OrigAB {
    constructor(length: number, opts?: { maxByteLength?: number }) {
      super(length, opts);
      allocated += this.byteLength;
    }

    // The buffers of typed arrays and clones are ArrayBuffers too (see above).
    static [Symbol.hasInstance](x: unknown): boolean {
      return x instanceof OrigAB;
    }
  };
  Object.defineProperty(MeteredAB, 'name', { value: 'ArrayBuffer' });
  g.ArrayBuffer = MeteredAB;
}
