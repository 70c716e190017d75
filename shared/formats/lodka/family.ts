/**
 * The LODka family: `.lod` models. Imports nothing but the probe helpers, so a file is
 * recognised without loading the codec (catalog.ts).
 */
import type { FormatEntry } from '../registry.ts';
import { startsWith } from '../probe-bytes.ts';

/** True when the bytes start with the LODka signature `LODka3D1`. */
export function probeLod(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && startsWith(bytes, 'LODka3D1');
}

export const lodkaFormats: readonly FormatEntry[] = [
  { id: 'lodka-lod', label: 'LODka 3D model', extensions: ['.lod'], probe: probeLod, load: async () => (await import('./codec.ts')).lodkaCodec },
];
