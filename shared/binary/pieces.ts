/**
 * A writer that hands its output back as pieces instead of one buffer: large typed arrays are
 * taken as views (not copied), the small writes between them are gathered into short pieces.
 * For output that is consumed once, straight away: compressed (`lz4CompressPieces`) or compared
 * with the input (`lodsmith roundtrip`/`check`, main/cli/verify.ts), where joining it first would
 * only allocate the whole of it again. An untouched document's pieces are mostly its `$raw` views
 * of the input, so encoding it this way allocates next to nothing.
 *
 * Offsets handed out by `claim` are relative to the current short piece: fill them before the
 * next large array is written (every encoder fills a claim straight away). `reserve32` /
 * `patchI32` work across pieces: a reserved slot always lies in a short piece this writer owns,
 * never in an array it was given.
 */
import { BinaryWriter, copyBytes } from './writer.ts';

/** Arrays at least this large are passed on as views. */
const VIEW_BYTES = 4096;

export class PieceWriter extends BinaryWriter {
  private readonly parts: Uint8Array[] = [];
  /** Start offset (in the output) of each part. */
  private readonly starts: number[] = [];
  /** Whether each part is a short piece of ours (patchable) or an array we were given. */
  private readonly ours: boolean[] = [];
  private done = 0;

  constructor() {
    super(256);
  }

  override get length(): number {
    return this.done + this.pos;
  }

  /** Offset `pos` of the current short piece is output offset `done + pos`. */
  private push(part: Uint8Array, own: boolean): void {
    this.parts.push(part);
    this.starts.push(this.done);
    this.ours.push(own);
    this.done += part.length;
  }

  /** Ends the current short piece (a large one is handed over as it is, a small one copied). */
  private cut(): void {
    if (this.pos === 0) return;
    if (this.pos >= VIEW_BYTES) {
      this.push(this.buf.subarray(0, this.pos), true);
      this.buf = new Uint8Array(256);
      this.view = new DataView(this.buf.buffer);
    } else {
      this.push(copyBytes(this.buf.subarray(0, this.pos)), true);
    }
    this.pos = 0;
  }

  override bytes(b: Uint8Array): void {
    if (b.length < VIEW_BYTES) {
      super.bytes(b);
      return;
    }
    this.cut();
    this.push(b, false);
  }

  /** Output offsets, as `reserve32` returns them (the current short piece starts at `done`). */
  override reserve32(): number {
    const at = this.length;
    this.i32(0);
    return at;
  }

  override patchI32(at: number, v: number): void {
    this.patch(at).setInt32(at, v, true);
  }

  override patchU32(at: number, v: number): void {
    this.patch(at).setUint32(at, v >>> 0, true);
  }

  /** A DataView in which output offset `at` is at index `at` (the part holding the slot, shifted). */
  private patch(at: number): { setInt32(o: number, v: number, le: boolean): void; setUint32(o: number, v: number, le: boolean): void } {
    let part: Uint8Array;
    let start: number;
    if (at >= this.done) {
      part = this.buf;
      start = this.done;
    } else {
      // The last part starting at or before `at` (binary search: parts are in output order).
      let lo = 0;
      let hi = this.starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      if (!this.ours[lo]) throw new Error(`PieceWriter: offset ${at} lies in an array the writer was given, not in a slot it reserved`);
      part = this.parts[lo]!;
      start = this.starts[lo]!;
    }
    if (at - start + 4 > part.length) throw new Error(`PieceWriter: slot at ${at} is not inside one piece`);
    const dv = new DataView(part.buffer, part.byteOffset, part.byteLength);
    return {
      setInt32: (o, v, le) => dv.setInt32(o - start, v, le),
      setUint32: (o, v, le) => dv.setUint32(o - start, v, le),
    };
  }

  /** Everything written, in order. The large pieces are views of the arrays given: read them before those change. */
  pieces(): Uint8Array[] {
    this.cut();
    return this.parts;
  }
}

/** Runs `write` once over a {@link PieceWriter} and returns its pieces (see there). */
export function writePieces(write: (w: BinaryWriter) => void): Uint8Array[] {
  const w = new PieceWriter();
  write(w);
  return w.pieces();
}
