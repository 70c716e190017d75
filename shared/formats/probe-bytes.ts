/**
 * The two byte tests every format's probe uses. Imports nothing, so a family descriptor
 * (`<family>/family.ts`) can recognise its files without loading its codec.
 */

/** Little-endian u32 at `at` (the caller has checked the length). */
export function u32le(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** True when `bytes` starts with the ASCII text `ascii`. */
export function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
}
