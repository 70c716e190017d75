/**
 * Shared (zero-copy) decoding: a document whose large arrays are views of the input bytes instead
 * of copies of them.
 *
 * By default a decoded document owns its memory: every bulk array is a copy, so the document
 * outlives any change to the input and can cross a structured clone (Electron's IPC) without
 * dragging the whole file along (cloning a view clones its entire ArrayBuffer). The editor and the
 * host decode that way.
 *
 * A caller that only reads the document (the CLI's `roundtrip`, `check`, `validate`, `convert`, and
 * the bench's decode rows, which time that same path) can ask for views instead:
 * `codec.decode(bytes, { share: true })`, or {@link withSharedInput} around a decoder. Inside it,
 * every BinaryReader whose bytes lie in that input's ArrayBuffer hands out views for its bulk
 * reads where the element alignment allows (`u8Array`, `bytesCopy`, `f32Array`, `u32Array`, ... at
 * an offset that is a multiple of the element size), and copies otherwise (unaligned or converted
 * data: widened indices, split records). A view charges nothing to the memory budget; a copy still
 * charges before it allocates.
 *
 * **In situ** (`share: 'in-situ'`, `lodsmith info`): the caller also gives the input bytes away, as
 * in RapidJSON's in-situ parsing. An unaligned array is then not copied either: it becomes a view
 * at the aligned offset just below its bytes (at most 7 bytes lower, over its own count or name,
 * already read), and once the decoder has returned, its bytes are moved down there
 * (`copyWithin`, no allocation). Only arrays the finished document holds are moved, so a layout
 * the decoder tried and gave up on moves nothing; a move that would overwrite bytes another array
 * of the document still views is never made: the whole decode is then repeated with copies. The
 * document's `$raw` bytes are dropped (they no longer hold the file), so it encodes from its
 * fields. Only codecs whose decoder never reads the values of an array it has just read (only
 * its length) take part (`FormatCodec.inSitu`); the others share as above.
 *
 * Rules that keep sharing safe:
 * - decoders only read the input, and {@link isSharedInput} lets the one place that writes into
 *   document arrays (`applyCommand`'s element `set`) replace a shared array with a copy first, so
 *   an edit never reaches the file's bytes;
 * - the input must not be changed while the document lives (the caller owns both);
 * - readers over other buffers (decompressed blocks, slabs) are not affected.
 */
export type ShareMode = 'share' | 'in-situ';

/**
 * In situ: makes the recorded moves of the arrays the finished document `doc` holds, unless one
 * would overwrite bytes another needs (then nothing is changed and false is returned: the decode
 * is repeated with copies). Walking the document is the model layer's work
 * (shared/model/in-situ.ts: `settleInSitu`); the byte layer only records the moves.
 */
export type SettleInSitu = (doc: unknown, moves: InSituMoves) => boolean;


/** An unaligned array placed at `to` whose `length` bytes are moved there from `from` after decoding. */
export interface Move {
  arrays: ArrayBufferView[];
  to: number;
  from: number;
  length: number;
}

/** What an in-situ decode recorded: the moves to make, and the views no move may write over. */
export interface InSituMoves {
  buffer: ArrayBufferLike;
  moves: Move[];
  /** Views whose bytes a deferred field reads later: no move may write over them. */
  intact: ArrayBufferView[];
}

interface Active extends InSituMoves {
  mode: ShareMode;
  /** The input's own bytes inside `buffer` (a pooled Buffer shares its ArrayBuffer with others). */
  start: number;
  end: number;
}

/** Input buffers some shared decode handed out views of (an edit must copy before it writes). */
const sharedBuffers = new WeakSet<ArrayBufferLike>();
let active: Active | undefined;

/**
 * Runs `fn` (a decoder returning the document) so that readers over `bytes`'s ArrayBuffer hand
 * out views of it where alignment allows ('share'), or in situ as described above ('in-situ': the
 * bytes may be changed). `settle` makes an in-situ decode's moves over the finished document;
 * without it the moves are never made and an in-situ decode that needed one is repeated with
 * copies. Nesting restores the outer setting.
 */
export function withSharedInput<T>(bytes: Uint8Array, fn: () => T, mode: ShareMode = 'share', settle?: SettleInSitu): T {
  const outer = active;
  const state: Active = { buffer: bytes.buffer, mode, start: bytes.byteOffset, end: bytes.byteOffset + bytes.byteLength, moves: [], intact: [] };
  active = state;
  sharedBuffers.add(bytes.buffer);
  try {
    const doc = fn();
    if (mode === 'in-situ' && state.moves.length > 0 && !settle?.(doc, state)) {
      // A move would overwrite another array's bytes: decode again, copying unaligned arrays.
      active = { ...state, mode: 'share', moves: [], intact: [] };
      return fn();
    }
    return doc;
  } finally {
    active = outer;
  }
}

/** The sharing mode of a reader over `buffer` (BinaryReader's default), or undefined. */
export function sharingBuffer(buffer: ArrayBufferLike): ShareMode | undefined {
  return active !== undefined && active.buffer === buffer ? active.mode : undefined;
}

/**
 * In situ: the offset at which an unaligned array of `byteLength` bytes at absolute offset `at`
 * is placed (the aligned offset below it), recording the move; -1 when it cannot be (the input
 * starts above that offset). The caller makes the view there and hands it to {@link placed}.
 */
export function placeBelow(buffer: ArrayBufferLike, at: number, byteLength: number, align: number): number {
  const a = active;
  if (a === undefined || a.buffer !== buffer || a.mode !== 'in-situ') return -1;
  const to = at - (at % align);
  if (to < a.start || at + byteLength > a.end) return -1;
  a.moves.push({ arrays: [], to, from: at, length: byteLength });
  return to;
}

/**
 * In situ: `view`'s bytes are read after the decode (by a deferred field), so no move may write
 * over them; a decode whose moves would is repeated with copies, as for an overlap of two arrays.
 * Returns the view.
 */
export function keepIntact<T extends ArrayBufferView>(view: T): T {
  const a = active;
  if (a !== undefined && a.buffer === view.buffer && a.mode === 'in-situ') a.intact.push(view);
  return view;
}

/** Ties the last move {@link placeBelow} recorded to the array made for it. */
export function placed<T extends ArrayBufferView>(array: T): T {
  active!.moves[active!.moves.length - 1]!.arrays.push(array);
  return array;
}

/**
 * True when `a` is (or may be) a view of an input some shared decode read: writing into it would
 * change the input bytes, so copy it first.
 */
export function isSharedInput(a: ArrayBufferView): boolean {
  return sharedBuffers.has(a.buffer);
}
