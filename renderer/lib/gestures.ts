/**
 * Ids for continuous gestures (one drag of a slider or colour picker, one held arrow key): the
 * document service merges the `set`s of one gesture into one undo step and never merges edits
 * without one. An id must name one gesture only, across every field row of the window: a count
 * kept per component and a clock reading are not enough (two rows made in the same millisecond
 * would hand out the same id, and their separate gestures would merge into one step).
 */
let next = 0;
const session = Math.random().toString(36).slice(2, 8);

/** A fresh gesture id for an edit of `path` (the path only makes ids readable in logs). */
export function newGestureId(path: readonly (string | number)[]): string {
  return `${path.join('/')}#${session}-${++next}`;
}

/**
 * The gesture of an arrow key: each press (a keydown that is not a repeat) starts a new gesture,
 * its repeats while the key is held continue it, and the keyup ends it. So every separate press is
 * its own undo step and one hold, however long, is one step with the press that began it.
 */
export class KeyHold {
  private id: string | undefined;
  private key: string | undefined;

  /** The gesture id for this keydown. */
  down(e: { key: string; repeat: boolean }, path: readonly (string | number)[]): string {
    if (!e.repeat || this.key !== e.key || this.id === undefined) {
      this.key = e.key;
      this.id = newGestureId(path);
    }
    return this.id;
  }

  /** The key went up: the next press is a gesture of its own. */
  up(): void {
    this.id = undefined;
    this.key = undefined;
  }
}
