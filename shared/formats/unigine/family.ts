/**
 * The Unigine family: `.mesh` (ms10, ms11, ms14, mr02) and `.anim`. Imports nothing but the probe
 * helpers, so a file is recognised without loading a codec (catalog.ts).
 */
import type { FormatEntry } from '../registry.ts';
import { startsWith } from '../probe-bytes.ts';

export function probeUnigineMesh(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && (startsWith(bytes, 'ms10') || startsWith(bytes, 'ms11') || startsWith(bytes, 'ms14') || startsWith(bytes, 'mr02'));
}

export function probeUnigineAnim(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && startsWith(bytes, 'an10');
}

export const unigineFormats: readonly FormatEntry[] = [
  { id: 'unigine-mesh', label: 'Unigine mesh', extensions: ['.mesh'], probe: probeUnigineMesh, load: async () => (await import('./mesh-codec.ts')).unigineMeshCodec },
  { id: 'unigine-anim', label: 'Unigine animation', extensions: ['.anim'], probe: probeUnigineAnim, load: async () => (await import('./mesh-codec.ts')).unigineAnimCodec },
];
