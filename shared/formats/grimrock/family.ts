/**
 * The Legend of Grimrock family: `.model` and `.animation`. Imports nothing but the probe
 * helpers, so a file is recognised without loading a codec (catalog.ts).
 */
import type { FormatEntry } from '../registry.ts';
import { startsWith } from '../probe-bytes.ts';

export function probeGrimrockModel(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && startsWith(bytes, 'MDL1');
}

export function probeGrimrockAnimation(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && startsWith(bytes, 'ANIM');
}

export const grimrockFormats: readonly FormatEntry[] = [
  { id: 'grimrock-model', label: 'Legend of Grimrock model', extensions: ['.model'], probe: probeGrimrockModel, load: async () => (await import('./model-codec.ts')).grimrockModelCodec },
  { id: 'grimrock-animation', label: 'Legend of Grimrock animation', extensions: ['.animation'], probe: probeGrimrockAnimation, load: async () => (await import('./animation-codec.ts')).grimrockAnimationCodec },
];
