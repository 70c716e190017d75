/**
 * The decoded MLOD document: plain objects, arrays and typed arrays (JSON-like, addressable by
 * node path, editable with the generic edit commands). Counts and sizes are not stored: the
 * encoder derives them from the arrays, which were read with exactly those counts.
 *
 * Some large arrays of a decoded document are deferred fields (shared/model/deferred.ts): made on
 * their first read from the checked input bytes (see NOTES.md, "Reading and writing large LODs").
 * To a reader they are ordinary fields.
 */
import type { Span } from '../../../binary/reader.ts';
import type { RawKeeping } from '../../../model/lossless.ts';

export interface MlodDocument {
  /** Always `MLOD` (the probe checks it). */
  signature: string;
  /** 0x101 in every known file. */
  version: number;
  lods: MlodLod[];
  /** Bytes after the last LOD (OFP tools may append a 32-byte default path); usually empty. */
  trailing: Uint8Array;
  $span?: Span;
}

/** `P3DM` (Arma, Object Builder) or `SP3X` (OFP, O2 Light). */
export type LodSignature = 'P3DM' | 'SP3X';

export interface MlodLod extends RawKeeping {
  signature: LodSignature;
  /** Header size field, 28 (the signature included). */
  headerSize: number;
  /** 0x100 for P3DM, 0x99 for SP3X. */
  version: number;
  /** Unknown flag bits of the LOD header (0 in every known file). */
  flags: number;
  /** Header bytes beyond the 28 known ones, if a file declares a larger header. */
  headerExtra: Uint8Array;
  /** x, y, z per point (model space, P3D's left-handed axes). */
  points: Float32Array;
  /** Point flags (surface, lighting, decal, fog, user value, hidden). */
  pointFlags: Uint32Array;
  /** x, y, z per normal. */
  normals: Float32Array;
  faces: MlodFaces;
  /** Tags in file order; `#EndOfFile#` is the last one. */
  tags: MlodTag[];
  /** LOD resolution (see resolution.ts for names). */
  resolution: number;
}

/**
 * Faces in columns. Every face has four vertex slots whatever its vertex count (the file stores
 * four; a triangle's fourth slot holds whatever the exporter left there, kept as read).
 */
export interface MlodFaces extends RawKeeping {
  /** 3 or 4 per face. */
  vertexCount: Uint32Array;
  /** 4 per face: point index per vertex slot. */
  pointIndex: Uint32Array;
  /** 4 per face: normal index per vertex slot. */
  normalIndex: Uint32Array;
  /** 8 per face: u, v per vertex slot. */
  uv: Float32Array;
  /** Face flags (shadow, texture merging, z-bias, lighting, user value). */
  flags: Uint32Array;
  /** Distinct texture paths; faces refer to them by `textureIndex`. */
  textures: string[];
  textureIndex: Uint32Array;
  /** Distinct material (.rvmat) paths (P3DM only; SP3X faces refer to the single entry ''). */
  materials: string[];
  materialIndex: Uint32Array;
  /**
   * SP3X only: the 32-byte texture fields as read, so bytes after the terminator survive. A face
   * whose texture no longer matches its field is written from the string.
   */
  textureFields?: Uint8Array;
}

interface TagBase extends RawKeeping {
  /** Tag name: `#Mass#`, `#Property#`, ... or a named selection's name. */
  name: string;
  /** P3DM: the byte before the name (1 = active). Absent in SP3X, which has no such byte. */
  active?: number;
  /** SP3X: the 64-byte name field as read (bytes after the terminator kept). */
  nameField?: Uint8Array;
  $span?: Span;
}

/** A named selection (any name not of the form `#...#`) or `#Selected#`, `#Hidden#`, `#Lock#`, `#Hide#`. */
export interface SelectionTag extends TagBase {
  type: 'selection';
  /** One byte per point: 0 not selected, 1 full weight, 2..255 weight (256 - b) / 255. */
  points: Uint8Array;
  /** One byte per face: 0 not selected, otherwise selected. */
  faces: Uint8Array;
}

/** `#Property#`: a named property, two 64-byte zero-padded strings. */
export interface PropertyTag extends TagBase {
  type: 'property';
  key: string;
  value: string;
  /** The 64-byte fields as read; used when the strings still match them. */
  keyField?: Uint8Array;
  valueField?: Uint8Array;
}

/** `#Mass#`: one float per point. */
export interface MassTag extends TagBase {
  type: 'mass';
  masses: Float32Array;
}

/** `#UVSet#`: an extra UV set, u/v per face vertex (face order, `vertexCount` vertices each). */
export interface UvSetTag extends TagBase {
  type: 'uvset';
  setId: number;
  uv: Float32Array;
  /**
   * Some exporters write the size without the 4-byte set id (seen in a real file). Kept so the
   * file is written back the same way.
   */
  sizeExcludesId?: boolean;
}

/** `#SharpEdges#`: pairs of point indices. */
export interface SharpEdgesTag extends TagBase {
  type: 'sharpEdges';
  edges: Uint32Array;
}

/** `#Animation#`: a frame time and a full set of point positions. */
export interface AnimationTag extends TagBase {
  type: 'animation';
  time: number;
  points: Float32Array;
}

/** Any other tag, or a known tag whose size does not match its layout: bytes kept as read. */
export interface RawTag extends TagBase {
  type: 'raw';
  data: Uint8Array;
}

/** `#EndOfFile#`: ends the tag list; its data is empty in every known file. */
export interface EndTag extends TagBase {
  type: 'end';
  data: Uint8Array;
}

export type MlodTag = SelectionTag | PropertyTag | MassTag | UvSetTag | SharpEdgesTag | AnimationTag | RawTag | EndTag;

export const END_OF_FILE = '#EndOfFile#';

/** Tags that carry per-point and per-face bytes like named selections. */
export const SELECTION_LIKE = new Set(['#Selected#', '#Hidden#', '#Hide#', '#Lock#']);

/** A tag name of the form `#...#` is a special tag; anything else is a named selection. */
export function isSpecialTagName(name: string): boolean {
  return name.length >= 2 && name.startsWith('#') && name.endsWith('#');
}

/** Selection byte -> weight 0..1 (Bohemia wiki "P3D Named Selections"). */
export function selectionWeight(b: number): number {
  if (b === 0) return 0;
  if (b === 1) return 1;
  return (256 - b) / 255;
}

/** Weight 0..1 -> selection byte (0 = not selected, 1 = full weight). */
export function weightByte(w: number): number {
  if (!(w > 0)) return 0;
  if (w >= 1) return 1;
  const b = Math.round(256 - 255 * w);
  return Math.min(255, Math.max(2, b));
}

export function faceCount(f: MlodFaces): number {
  return f.vertexCount.length;
}

export function pointCount(lod: MlodLod): number {
  return lod.pointFlags.length;
}
