/**
 * Arma animation documents (`.rtm`): the plain `RTM_0101` file (with its optional `RTM_MDAT`
 * frame-properties block) and the binarized `BMTR` v3, v4 and v5. Field names follow the BI
 * community wiki pages "Rtm (Animation) File Format" and "Rtm Binarised File Format"; NOTES.md
 * says where real files differ.
 *
 * Bulk data stays in typed arrays: a plain frame's matrices (12 floats per bone, the P3D 4x3
 * layout: three rows of the rotation/scale part, then the translation) and the 32-byte name
 * fields exactly as stored (they carry garbage after the NUL in most real files, and a frame's
 * copy of a name need not have the header's garbage); a BMTR frame's transforms as the 7 stored
 * 16-bit words per bone (quaternion x y z w as i16 / 16384, then position x y z as half floats).
 */
import type { RawKeeping } from '../../../model/lossless.ts';

/** One frame property (the wiki's FrameProperty; A3OB's "keystones"/"RTM properties"): at `phase`, `name` = `value`. */
export interface RtmProperty extends RawKeeping {
  phase: number;
  name: string;
  value: string;
  /** BMTR only: the u32 stored before each property (0xffffffff in every real file). */
  tag?: number;
}

export interface PlainRtmFrame extends RawKeeping {
  /** FrameTime: 0..1 through the animation. */
  phase: number;
  /** The frame's 32-byte name field per bone, as stored. */
  names: Uint8Array;
  /** 12 floats per bone: rows of the 3x3 part, then the translation (P3D axes, model space). */
  matrices: Float32Array;
}

export interface PlainRtmDocument extends RawKeeping {
  kind: 'rtm';
  /** True when the file starts with an `RTM_MDAT` block (written again when there are properties either way). */
  mdat: boolean;
  /** The u32 after `RTM_MDAT` (0 in every real file). */
  mdatReserved: number;
  properties: RtmProperty[];
  /** Total movement of the animation (the wiki's Vertex / Displacement), x y z. */
  motion: number[];
  /** As stored; the encoder writes the real counts. */
  frameCount: number;
  boneCount: number;
  bones: string[];
  /** The header's 32-byte name field per bone, as stored. */
  boneFields: Uint8Array;
  frames: PlainRtmFrame[];
}

/** A BMTR array that may be stored LZO-compressed (the wiki's "CompressedFloats"/"CompressedFrames"). */
export interface PackedInfo {
  /** Whether the stored array was LZO1X-compressed. */
  compressed: boolean;
  /** v5: the flag byte as stored (0 raw, 2 compressed in real files). */
  flag?: number;
  /** The stored LZO stream, kept so an unchanged array writes back as it came. */
  stream?: Uint8Array;
}

export interface BmtrFrame extends RawKeeping {
  /** ThisFrameNoOfBones as stored. */
  boneCount: number;
  /** 7 words per bone: quaternion x y z w (i16, / 16384), position x y z (half-float bits). */
  transforms: Int16Array;
  packed: PackedInfo;
}

export interface BmtrDocument extends RawKeeping {
  kind: 'bmtr';
  version: 3 | 4 | 5;
  /** The byte after the version (the wiki's "Always1"). */
  always1: number;
  motion: number[];
  frameCount: number;
  /** The u32 after the frame count (the wiki's "Generally0"; 1 in some real files). */
  unknown: number;
  boneCount: number;
  boneCount2: number;
  bones: string[];
  /** v4+: the u32 before the property count (0 in real files). */
  propertiesReserved: number;
  properties: RtmProperty[];
  /** nFrameTimes as stored. */
  phaseCount: number;
  phases: Float32Array;
  phasesPacked: PackedInfo;
  frames: BmtrFrame[];
}

export type RtmDocument = PlainRtmDocument | BmtrDocument;

export const PLAIN_MAGIC = 'RTM_0101';
export const MDAT_MAGIC = 'RTM_MDAT';
export const BMTR_MAGIC = 'BMTR';
/** Bytes of a plain RTM name field (31 characters and the NUL). */
export const NAME_FIELD = 32;
/** Stored 16-bit words per bone in a BMTR frame. */
export const BMTR_WORDS = 7;
/** Arrays of at least this many bytes are LZO-compressed in BMTR v3 and v4 (v5 says so in a flag). */
export const BMTR_COMPRESS_FROM = 1024;
