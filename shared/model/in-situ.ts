/**
 * The in-situ decode's last step (shared/binary/share.ts): once the decoder has returned the
 * document, the unaligned arrays it holds are moved into alignment inside the input's bytes. This
 * walks the document (deferred fields are not made, `$raw` is left out and then dropped), so it
 * lives in the model layer and is handed to `withSharedInput` by the registry.
 */
import type { InSituMoves } from '../binary/share.ts';
import { forEachMadeValue } from './deferred.ts';
import { dropRaw } from './lossless.ts';

/**
 * Every typed array in `root` over `buffer`, except `$raw` (dropped once bytes move). A deferred
 * field is not read (that would make it): its bytes are among the views kept intact.
 */
function arraysOver(root: unknown, buffer: ArrayBufferLike, out: Set<ArrayBufferView>, seen: Set<object>): void {
  if (!root || typeof root !== 'object') return;
  if (ArrayBuffer.isView(root)) {
    if (root.buffer === buffer && root.byteLength > 0) out.add(root);
    return;
  }
  if (seen.has(root)) return;
  seen.add(root);
  forEachMadeValue(root, (v, k) => {
    if (k !== '$raw') arraysOver(v, buffer, out, seen);
  });
}

/**
 * Makes the moves of the arrays `doc` holds, unless one would overwrite bytes another of them
 * needs (then nothing is changed and false is returned). Drops `$raw` afterwards.
 */
export function settleInSitu(doc: unknown, state: InSituMoves): boolean {
  const held = new Set<ArrayBufferView>();
  arraysOver(doc, state.buffer, held, new Set());
  const moved = new Set<ArrayBufferView>();
  // Kept intact even when the document dropped what deferred them (a layout given up on): the
  // check below is then only stricter than it needs to be.
  for (const v of state.intact) if (v.byteLength > 0) held.add(v);
  const moves = state.moves.filter((m) => m.arrays.some((x) => held.has(x)));
  if (moves.length === 0) return true;
  for (const m of moves) for (const x of m.arrays) moved.add(x);
  // Where each held array's bytes end up (views: where they are; moved arrays: their target). No
  // target may overlap another array's (views of the same bytes may overlap each other).
  const finals: { start: number; end: number; move: boolean }[] = [];
  for (const a of held) finals.push({ start: a.byteOffset, end: a.byteOffset + a.byteLength, move: moved.has(a) });
  finals.sort((x, y) => x.start - y.start);
  let anyEnd = -1;
  let moveEnd = -1;
  for (const r of finals) {
    if (r.start < moveEnd || (r.move && r.start < anyEnd)) return false;
    anyEnd = Math.max(anyEnd, r.end);
    if (r.move) moveEnd = Math.max(moveEnd, r.end);
  }
  // Moves are made from the lowest target up; no move may write over the source of a later one
  // before it is read. (An array right behind another of its alignment moves into the bytes
  // that one has just vacated.)
  moves.sort((x, y) => x.to - y.to);
  let written = -1;
  for (const m of moves) {
    if (m.from < written) return false;
    written = Math.max(written, m.to + m.length);
  }
  const whole = new Uint8Array(state.buffer);
  for (const m of moves) whole.copyWithin(m.to, m.from, m.from + m.length);
  dropRaw(doc);
  return true;
}
