import type { FormatCodec } from '../../shared/formats/registry.ts';
import { expect } from 'vitest';
import { isDecodeError, type DecodeError } from '../../shared/errors.ts';
import { dropRaw } from '../../shared/model/lossless.ts';


/** Runs `fn` and returns the DecodeError it throws; fails the test when it throws anything else or nothing. */
export function expectDecodeError(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    expect(isDecodeError(e)).toBe(true);
    return e as DecodeError;
  }
  throw new Error('expected a DecodeError');
}

/**
 * Truncations, bit flips and forged large values at about `positions` places of a file. Throws
 * when a mutation makes the codec fail with anything but a DecodeError, when a DecodeError's
 * offset lies outside the input (no hex editor could show it), or when a mutated file that still
 * decodes does not re-encode from its fields to the same bytes. Returns how many mutations were
 * refused with a DecodeError, so callers can check the sweep hit something. `alsoRun` gets every
 * mutated document that decodes (e.g. to run validate and toScene on it: they must not throw).
 */
export function mutationSweep(codec: FormatCodec, bytes: Uint8Array, name: string, positions = 150, alsoRun?: (doc: object) => void): number {
  let refused = 0;
  const step = Math.max(1, Math.floor(bytes.length / positions));
  const attempt = (mutated: Uint8Array, what: string): void => {
    let doc: object;
    try {
      doc = codec.decode(mutated);
    } catch (e) {
      if (!isDecodeError(e)) throw new Error(`${name} ${what}: ${String(e)}`, { cause: e });
      if (!(e.offset >= 0 && e.offset <= mutated.length)) throw new Error(`${name} ${what}: offset ${e.offset} is outside the ${mutated.length}-byte input`, { cause: e });
      refused++;
      return;
    }
    alsoRun?.(doc);
    dropRaw(doc);
    const again = codec.encode(doc, { reuseRaw: false });
    if (again.length !== mutated.length || again.some((b, i) => b !== mutated[i])) throw new Error(`${name} ${what}: decoded but re-encoded differently`);
  };
  for (let cut = 0; cut < bytes.length; cut += step) attempt(bytes.subarray(0, cut), `truncated at ${cut}`);
  for (let at = 0; at < bytes.length; at += step) {
    for (const bit of [0, 3, 4, 7]) {
      const m = bytes.slice();
      m[at]! ^= 1 << bit;
      attempt(m, `bit ${bit} flipped at ${at}`);
    }
    // A large little-endian count in a 2-byte and in a 4-byte field starting here.
    for (const [hiAt, hi] of [[1, 0xff], [3, 0x7f]] as const) {
      const m = bytes.slice();
      m[at] = 0xff;
      if (at + hiAt < m.length) m[at + hiAt] = hi;
      attempt(m, `huge value (${hiAt + 1} bytes) at ${at}`);
    }
  }
  return refused;
}
