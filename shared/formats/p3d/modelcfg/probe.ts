/**
 * Recognising a model.cfg without loading its codec (the P3D family's family.ts lists it): config
 * text has no magic, so the probe asks for text (no NUL byte) that names CfgSkeletons or CfgModels,
 * or includes another file (a model.cfg may be a list of `#include`s), near its start.
 */

/** How far the probe looks: real model.cfg files name their classes within the first lines. */
const PROBE_BYTES = 64 * 1024;

export function probeModelCfg(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, PROBE_BYTES);
  if (n === 0) return false;
  let s = '';
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return false;
    s += String.fromCharCode(b < 0x80 ? b | 0x20 * (b >= 0x41 && b <= 0x5a ? 1 : 0) : 0x20);
  }
  return /\bclass\s+cfg(skeletons|models)\b/.test(s) || /(^|\n)\s*#\s*include\b/.test(s);
}
