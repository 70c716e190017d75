/**
 * The one error type every codec throws for bad input. It always names where in the file the
 * problem is (byte offset) and where in the decoded tree (node path such as
 * `LOD1/MSL1/MSH1[2]/faceGroups[0]/vertexIndex`), so a modder can find it in a hex editor.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  /** Absolute byte offset in the input where the problem was detected. */
  readonly offset: number;
  /** Node path, segments joined with `/`. Empty for the file root. */
  readonly path: string;
  /** The message without offset and path, for UIs that show them in their own columns. */
  readonly detail: string;

  constructor(detail: string, offset: number, path: string) {
    super(`${detail} at offset ${offset} (0x${offset.toString(16)})${path ? ` in ${path}` : ''}`);
    this.detail = detail;
    this.offset = offset;
    this.path = path;
  }
}

/** Thrown when a document cannot be written (a value out of range for its field, a broken reference). */
export class EncodeError extends Error {
  override readonly name = 'EncodeError';
  readonly path: string;
  readonly detail: string;
  constructor(detail: string, path: string) {
    super(path ? `${detail} in ${path}` : detail);
    this.detail = detail;
    this.path = path;
  }
}

export function isDecodeError(e: unknown): e is DecodeError {
  return e instanceof DecodeError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'DecodeError');
}
