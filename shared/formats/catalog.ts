/**
 * Every registered format family. Each family folder declares its formats in its `family.ts`
 * (id, label, extensions, a cheap probe, and its codec loaded only when asked for); this list is
 * the one place that names the families. The CLI recognises a file here and then loads that one
 * codec (the others are never compiled), which keeps a one-file command's start-up short;
 * index.ts loads them all for the editor.
 *
 * Adding a family: a folder under shared/formats/ with its family.ts, and one line below.
 */
import { registerFormat, type FormatCodec, type FormatEntry } from './registry.ts';
import { lodkaFormats } from './lodka/family.ts';
import { p3dFormats } from './p3d/family.ts';
import { grimrockFormats } from './grimrock/family.ts';
import { unigineFormats } from './unigine/family.ts';

export type { FormatEntry } from './registry.ts';

const FAMILIES: readonly (readonly FormatEntry[])[] = [
  lodkaFormats,
  p3dFormats,
  grimrockFormats,
  unigineFormats,
];

/**
 * A loaded codec, registered: registration wraps its decode in the decoding memory budget and the
 * `share` option (registry.ts), which a caller of the bare codec object would otherwise bypass
 * (the CLI's `--max-memory` did, for every model command).
 */
function registered(entry: FormatEntry): FormatEntry {
  return { ...entry, load: async () => {
    const codec: FormatCodec = await entry.load();
    registerFormat(codec);
    return codec;
  } };
}

export const FORMAT_CATALOG: readonly FormatEntry[] = FAMILIES.flat().map(registered);
