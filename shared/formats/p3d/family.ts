/**
 * The P3D family (Arma / OFP models): binarized ODOL and editable MLOD, both `.p3d`, told apart
 * by their signature, the animations that play on them, `.rtm` (plain RTM and binarized BMTR), and
 * the config that animates them, `model.cfg` (its own document in the editor). Imports nothing but the probe helpers, so a file is recognised without
 * loading a codec (catalog.ts); each codec is loaded on first use.
 */
import type { FormatEntry } from '../registry.ts';
import { startsWith, u32le } from '../probe-bytes.ts';
import { probeRtm } from './rtm/probe.ts';
import { probeModelCfg } from './modelcfg/probe.ts';

const MIN_ODOL_V4X = 28;
const MAX_ODOL_V4X = 75;

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

export const p3dFormats: readonly FormatEntry[] = [
  { id: 'p3d-odol', label: 'P3D model (binarized ODOL)', extensions: ['.p3d'], probe: probeOdol, load: async () => (await import('./odol/codec.ts')).odolCodec },
  { id: 'p3d-mlod', label: 'P3D model (MLOD, editable)', extensions: ['.p3d'], probe: probeMlod, load: async () => (await import('./mlod/codec.ts')).mlodCodec },
  { id: 'p3d-modelcfg', label: 'Arma model config (model.cfg)', extensions: ['.cfg'], probe: probeModelCfg, load: async () => (await import('./modelcfg/codec.ts')).modelCfgCodec },
  { id: 'p3d-rtm', label: 'Arma animation (RTM)', extensions: ['.rtm'], probe: probeRtm, load: async () => (await import('./rtm/codec.ts')).rtmCodec },
];
