/**
 * Lossless by construction: a decoded node may keep the exact bytes it came from in `$raw`.
 * Encoders write `$raw` for a node that still has it (untouched since decoding) and encode from
 * fields otherwise, so sizes, counts, offsets and compressed blocks are recomputed for dirty
 * subtrees only. Every edit goes through {@link markDirty}, which drops `$raw` on the edited node
 * and each of its ancestors.
 *
 * Round-trip tests run the encoder with `reuseRaw: false` too, so the field encoders are proven
 * exact and `$raw` is never what hides a bug.
 */
import type { Span } from '../binary/span.ts';
import { forEachMadeValue } from './deferred.ts';
import { chainAt, type NodePath } from './path.ts';

export interface RawKeeping {
  $raw?: Uint8Array;
  $span?: Span;
}

export function markDirty(root: unknown, path: NodePath): void {
  for (const node of chainAt(root, path)) {
    if (node && typeof node === 'object' && '$raw' in node) delete (node as RawKeeping).$raw;
  }
}

/** Drops every `$raw` in a tree (used to prove the field encoders exact). */
export function dropRaw(root: unknown, seen = new Set<unknown>()): void {
  if (!root || typeof root !== 'object' || ArrayBuffer.isView(root) || seen.has(root)) return;
  seen.add(root);
  if ('$raw' in root) delete (root as RawKeeping).$raw;
  // A deferred field (shared/model/deferred.ts) is not read: that would make it, and what it
  // makes is a typed array, which holds no `$raw`.
  forEachMadeValue(root, (v) => dropRaw(v, seen));
}

/** Whether the encoder may copy `node.$raw` instead of encoding it. */
export function reusable(node: RawKeeping, reuseRaw: boolean | undefined): node is RawKeeping & { $raw: Uint8Array } {
  return reuseRaw !== false && node.$raw !== undefined;
}
