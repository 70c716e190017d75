/**
 * The cheap signature checks of every format, in one module that imports nothing, so that a
 * caller can recognise a file without loading any codec (the CLI does, see catalog.ts). Each
 * codec's `probe` is the function here.
 */

const MIN_ODOL_V4X = 28;
const MAX_ODOL_V4X = 75;

function u32le(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** ODOL: `ODOL` and a version the decoder accepts (7, or 28..75). */
export function probeOdol(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || !startsWith(bytes, 'ODOL')) return false;
  const v = u32le(bytes, 4);
  return v === 7 || (v >= MIN_ODOL_V4X && v <= MAX_ODOL_V4X);
}

/** True for bytes that start like an MLOD file. */
export function probeMlod(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && startsWith(bytes, 'MLOD');
}

/** True when the bytes start with the LODka signature `LODka3D1`. */
export function probeLod(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && startsWith(bytes, 'LODka3D1');
}

export function probeGrimrockModel(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && startsWith(bytes, 'MDL1');
}

export function probeGrimrockAnimation(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && startsWith(bytes, 'ANIM');
}

export function probeUnigineMesh(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && (startsWith(bytes, 'ms10') || startsWith(bytes, 'ms11') || startsWith(bytes, 'ms14') || startsWith(bytes, 'mr02'));
}

export function probeUnigineAnim(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && startsWith(bytes, 'an10');
}

/**
 * Arma animation: plain `RTM_0101` (optionally after an `RTM_MDAT` block) or binarized `BMTR`
 * with a version the decoder knows (3..5). The version check keeps `BM...` bitmaps out.
 */
export function probeRtm(bytes: Uint8Array): boolean {
  if (startsWith(bytes, 'RTM_0101') || startsWith(bytes, 'RTM_MDAT')) return bytes.length >= 16;
  if (bytes.length < 12 || !startsWith(bytes, 'BMTR')) return false;
  const v = u32le(bytes, 4);
  return v >= 3 && v <= 5;
}
