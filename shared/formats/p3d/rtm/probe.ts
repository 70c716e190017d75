/**
 * Recognising an Arma animation without loading its codec (the P3D family's family.ts lists it).
 */
import { startsWith, u32le } from '../../probe-bytes.ts';

/**
 * Plain `RTM_0101` (optionally after an `RTM_MDAT` block) or binarized `BMTR` with a version the
 * decoder knows (3..5). The version check keeps `BM...` bitmaps out.
 */
export function probeRtm(bytes: Uint8Array): boolean {
  if (startsWith(bytes, 'RTM_0101') || startsWith(bytes, 'RTM_MDAT')) return bytes.length >= 16;
  if (bytes.length < 12 || !startsWith(bytes, 'BMTR')) return false;
  const v = u32le(bytes, 4);
  return v >= 3 && v <= 5;
}
