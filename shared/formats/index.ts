/** Registers every codec. Import this module once to make all formats available. */
import { registerFormat } from './registry.ts';

export * from './registry.ts';

// Each format folder exports its codec; add new ones here.
const codecs: Parameters<typeof registerFormat>[0][] = [];
for (const c of codecs) registerFormat(c);
