/**
 * A writer that hands its output back as pieces instead of one buffer: large typed arrays are
 * taken as views (not copied), the small writes between them are gathered into short copies.
 * For output that is consumed once, straight away — compressed (`lz4CompressPieces`) — where
 * joining it first would only allocate the whole of it again.
 *
 * Offsets handed out by `claim` are relative to the current short piece: fill them before the
 * next large array is written. Patching (`reserve32`/`patchI32`) is not supported.
 */
import { BinaryWriter, copyBytes } from './writer.ts';

/** Arrays at least this large are passed on as views. */
const VIEW_BYTES = 4096;

export class PieceWriter extends BinaryWriter {
  private readonly parts: Uint8Array[] = [];
  private done = 0;

  constructor() {
    super(256);
  }

  override get length(): number {
    return this.done + this.pos;
  }

  /** Ends the current short piece. */
  private cut(): void {
    if (this.pos === 0) return;
    this.parts.push(copyBytes(this.data.subarray(0, this.pos)));
    this.done += this.pos;
    this.pos = 0;
  }

  override bytes(b: Uint8Array): void {
    if (b.length < VIEW_BYTES) {
      super.bytes(b);
      return;
    }
    this.cut();
    this.parts.push(b);
    this.done += b.length;
  }

  override patchI32(): void {
    throw new Error('PieceWriter: patching is not supported');
  }

  override patchU32(): void {
    throw new Error('PieceWriter: patching is not supported');
  }

  /** Everything written, in order. The large pieces are views of the arrays given: read them before those change. */
  pieces(): Uint8Array[] {
    this.cut();
    return this.parts;
  }
}
