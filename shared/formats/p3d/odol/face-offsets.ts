/**
 * Where each face starts in an ODOL face table (its own module so the P3D editor, shared with
 * MLOD, does not load ODOL's validator and, through it, the ODOL codec).
 */
export function faceOffsets(sizes: Uint8Array, version: number): Uint32Array {
  const wide = version >= 69 ? 4 : 2;
  const out = new Uint32Array(sizes.length + 1);
  for (let i = 0; i < sizes.length; i++) out[i + 1] = out[i]! + (sizes[i]! + 1) * wide;
  return out;
}
