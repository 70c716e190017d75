/**
 * Every format by its signature, with its codec loaded only when asked for. The CLI recognises a
 * file here and then loads that one codec (the others are never compiled), which keeps a
 * one-file command's start-up short. A new format adds one entry here as well as in index.ts;
 * test/unit/catalog.test.ts checks that both agree.
 */
import { registerFormat, type FormatCodec, type FormatId } from './registry.ts';
import {
  probeGrimrockAnimation, probeGrimrockModel, probeLod, probeMlod, probeOdol, probeRtm, probeUnigineAnim, probeUnigineMesh,
} from './probes.ts';

export interface FormatEntry {
  id: FormatId;
  label: string;
  /** Lower-case, with the dot. */
  extensions: readonly string[];
  probe(bytes: Uint8Array): boolean;
  /** The codec (its module is imported on the first call). */
  load(): Promise<FormatCodec>;
}

/**
 * A loaded codec, registered: registration wraps its decode in the decoding memory budget and the
 * `share` option (registry.ts), which a caller of the bare codec object would otherwise bypass
 * (the CLI's `--max-memory` did, for every model command).
 */
function registered(codec: FormatCodec): FormatCodec {
  registerFormat(codec);
  return codec;
}

export const FORMAT_CATALOG: readonly FormatEntry[] = [
  { id: 'p3d-odol', label: 'P3D model (binarized ODOL)', extensions: ['.p3d'], probe: probeOdol, load: async () => registered((await import('./p3d/odol/codec.ts')).odolCodec) },
  { id: 'p3d-mlod', label: 'P3D model (MLOD, editable)', extensions: ['.p3d'], probe: probeMlod, load: async () => registered((await import('./p3d/mlod/codec.ts')).mlodCodec) },
  { id: 'lodka-lod', label: 'LODka 3D model', extensions: ['.lod'], probe: probeLod, load: async () => registered((await import('./lodka/codec.ts')).lodkaCodec) },
  { id: 'grimrock-model', label: 'Legend of Grimrock model', extensions: ['.model'], probe: probeGrimrockModel, load: async () => registered((await import('./grimrock/model-codec.ts')).grimrockModelCodec) },
  { id: 'grimrock-animation', label: 'Legend of Grimrock animation', extensions: ['.animation'], probe: probeGrimrockAnimation, load: async () => registered((await import('./grimrock/animation-codec.ts')).grimrockAnimationCodec) },
  { id: 'unigine-mesh', label: 'Unigine mesh', extensions: ['.mesh'], probe: probeUnigineMesh, load: async () => registered((await import('./unigine/mesh-codec.ts')).unigineMeshCodec) },
  { id: 'unigine-anim', label: 'Unigine animation', extensions: ['.anim'], probe: probeUnigineAnim, load: async () => registered((await import('./unigine/mesh-codec.ts')).unigineAnimCodec) },
  { id: 'p3d-rtm', label: 'Arma animation (RTM)', extensions: ['.rtm'], probe: probeRtm, load: async () => registered((await import('./p3d/rtm/codec.ts')).rtmCodec) },
];
