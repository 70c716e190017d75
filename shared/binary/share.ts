/**
 * Shared (zero-copy) decoding: a document whose large arrays are views of the input bytes instead
 * of copies of them.
 *
 * By default a decoded document owns its memory: every bulk array is a copy, so the document
 * outlives any change to the input and can cross a structured clone (Electron's IPC) without
 * dragging the whole file along (cloning a view clones its entire ArrayBuffer). The editor and the
 * host decode that way.
 *
 * A caller that only reads the document (the CLI's `info`, `roundtrip`, `check`, `validate`,
 * `convert`, and the bench's decode rows, which time that same path) can ask for views instead:
 * `codec.decode(bytes, { share: true })`, or {@link withSharedInput} around a decoder. Inside it,
 * every {@link BinaryReader} whose bytes lie in that input's ArrayBuffer hands out views for its
 * bulk reads where the element alignment allows (`u8Array`, `bytesCopy`, `f32Array`, `u32Array`,
 * ... at an offset that is a multiple of the element size), and copies otherwise (unaligned or
 * converted data: widened indices, split records). A view charges nothing to the memory budget;
 * a copy still charges before it allocates.
 *
 * Rules that keep sharing safe:
 * - nothing writes into the input: decoders only read it, and {@link isSharedInput} lets the one
 *   place that writes into document arrays (`applyCommand`'s element `set`) replace a shared array
 *   with a copy first, so an edit never reaches the file's bytes;
 * - the input must not be changed while the document lives (the caller owns both);
 * - readers over other buffers (decompressed blocks, slabs) are not affected.
 */

/** Input buffers some shared decode handed out views of (an edit must copy before it writes). */
const sharedBuffers = new WeakSet<ArrayBufferLike>();
let active: ArrayBufferLike | undefined;

/**
 * Runs `fn` (a decoder) so that readers over `bytes`'s ArrayBuffer hand out views of it where
 * alignment allows. Nesting restores the outer setting.
 */
export function withSharedInput<T>(bytes: Uint8Array, fn: () => T): T {
  const outer = active;
  active = bytes.buffer;
  sharedBuffers.add(bytes.buffer);
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** True inside {@link withSharedInput} for a reader over `buffer` (BinaryReader's default). */
export function sharingBuffer(buffer: ArrayBufferLike): boolean {
  return active !== undefined && active === buffer;
}

/**
 * True when `a` is (or may be) a view of an input some shared decode read: writing into it would
 * change the input bytes, so copy it first.
 */
export function isSharedInput(a: ArrayBufferView): boolean {
  return sharedBuffers.has(a.buffer);
}
