/**
 * Unigine `.mesh` and `.anim` document types and fixed records. Names follow the Unigine
 * "Mesh File Formats" page; layouts the page does not cover (ms10, ms14, mr02) are described in
 * NOTES.md.
 */
import type { Span } from '../../binary/reader.ts';
import type { RawKeeping } from '../../model/lossless.ts';
import type { ExactKeeping } from '../../model/exact.ts';
import { f32, struct, vec3 } from '../../schema/schema.ts';

export const Bounds = struct('Bounds', {
  boundMin: vec3.note('Bounding box minimum'),
  boundMax: vec3.note('Bounding box maximum'),
  boundCenter: vec3.note('Bounding sphere centre'),
  boundRadius: f32.note('Bounding sphere radius'),
});

/** The translation and scale boxes a quantised `.anim` clip decompresses its frames with. */
export const AnimBox = struct('AnimBox', {
  translationMin: vec3.note('xyz_min: translation box minimum'),
  translationSize: vec3.note('xyz_size: translation box size'),
  scaleMin: vec3.note('scale_min: scale box minimum'),
  scaleSize: vec3.note('scale_size: scale box size'),
});

export interface BoundsFields extends ExactKeeping {
  boundMin: number[];
  boundMax: number[];
  boundCenter: number[];
  boundRadius: number;
}

export interface UnigineBone {
  name: string;
  /** Index of the parent bone, -1 for a root (short). */
  parent: number;
  $span?: Span;
}

/**
 * Per-frame change flags, one byte per bone per frame. Worked out from real files: one bit per
 * component, so a frame stores only what changed.
 */
export const FRAME_FLAG_BITS = ['tx', 'ty', 'tz', 'rotation', 'sx', 'sy', 'sz'] as const;
export const FRAME_TRANSLATION_MASK = 0x07;
export const FRAME_ROTATION_BIT = 0x08;
export const FRAME_SCALE_MASK = 0x70;

/** An animation clip: header name plus its frame stream. */
export interface UnigineClip<T extends Float32Array | Uint16Array = Float32Array | Uint16Array> extends ExactKeeping {
  name: string;
  /** Indices of the bones taking part (short each). */
  bones: Int16Array;
  /** Clip flag (unsigned char): which components the clip stores at all (same bits as frame flags). */
  flag: number;
  /** Stored as read; equals frameFlags.length / bones.length. */
  numFrames: number;
  /** numFrames * bones.length change flags, frame-major. */
  frameFlags: Uint8Array;
  /** The translation components present, in stream order (tx, ty, tz as flagged). */
  translations: T;
  /** Four shorts (x, y, z, w / 32767) per stored rotation, in stream order. */
  rotations: Int16Array;
  /** The scale components present, in stream order. */
  scales: T;
  $span?: Span;
  $dataSpan?: Span;
}

/** `.anim` clips also carry the boxes their 16-bit values are relative to. */
export interface AnimClip extends UnigineClip<Uint16Array> {
  translationMin: number[];
  translationSize: number[];
  scaleMin: number[];
  scaleSize: number[];
}

export interface MorphTarget {
  name: string;
  /** xyz per coordinate vertex. */
  vertices: Float32Array;
  /**
   * ms11: x, y, z, w shorts per triangle vertex (a packed tangent-space quaternion).
   * ms10: x, y, z shorts per triangle vertex; w is in `tangentSigns`.
   */
  tangents: Int16Array;
  /** ms10 only: the seventh byte of each tangent record (the sign of w). */
  tangentSigns?: Int8Array;
}

export interface UnigineSurface extends BoundsFields {
  name: string;
  morphTargets: MorphTarget[];
  /** Bones per weighted vertex (unsigned char, at most 4). */
  weightCounts: Uint8Array;
  /** Bone index per influence (short), all vertices concatenated. */
  weightBones: Int16Array;
  /** Weight per influence (unsigned short), all vertices concatenated. */
  weightValues: Uint16Array;
  /** uv per triangle vertex (first UV set). */
  uv0: Float32Array;
  /** Second UV set. */
  uv1: Float32Array;
  /** rgba bytes per triangle vertex. */
  colors: Uint8Array;
  /** Per triangle corner: index into morph target 0's coordinate vertices. */
  coordIndices: Uint32Array;
  /** Per triangle corner: index into the triangle vertices (tangents, uvs, colours). */
  triangleIndices: Uint32Array;
  /** ms14: two header values of unknown meaning (1 and 3, or 0 and 0, in the samples); kept as read. */
  param0?: number;
  param1?: number;
  /** ms14: the second per-surface block, decompressed (a spatial tree the engine derives; opaque). */
  spatialTree?: Uint8Array;
  /** ms14: the LZ4 bytes of the geometry and tree blocks as read, written back while the content is unchanged. */
  $geometryLz4?: Uint8Array;
  $treeLz4?: Uint8Array;
  /** Header record span. */
  $span?: Span;
  /** Geometry span in the data part of the file (ms14: of the compressed block). */
  $dataSpan?: Span;
}

/** A decoded `ms10` / `ms11` mesh. */
export interface UnigineMeshMs extends RawKeeping, BoundsFields {
  magic: 'ms10' | 'ms11';
  bones: UnigineBone[];
  /** Bind pose, 10 floats per bone: position xyz, rotation xyzw, scale xyz (local to the parent). */
  bindPose: Float32Array;
  animations: UnigineClip<Float32Array>[];
  surfaces: UnigineSurface[];
}

/**
 * A decoded `ms14` mesh (UNIGINE 2.x): the ms11 content with vertex and index counts moved to the
 * header, and each surface's geometry in an LZ4 block (see NOTES.md).
 */
export interface UnigineMesh14 extends RawKeeping, BoundsFields {
  magic: 'ms14';
  /** The byte after the magic (4 in every sample). */
  version: number;
  bones: UnigineBone[];
  bindPose: Float32Array;
  /** ms14 files carry no embedded animations in the samples; always empty. */
  animations: UnigineClip<Float32Array>[];
  surfaces: UnigineSurface[];
  /** The 8 bytes that close the header (a u64 of unknown meaning); kept as read. */
  headerTail: Uint8Array;
}

/** One surface of a legacy `mr02` mesh: a plain triangle list. */
export interface Mr02Surface {
  name: string;
  /** Bytes of the 128-byte name field after the terminator, when they are not all zero. */
  namePadding?: Uint8Array;
  /** xyz per vertex. */
  positions: Float32Array;
  /** xyz per vertex. */
  normals: Float32Array;
  /** uv per vertex. */
  uvs: Float32Array;
  $span?: Span;
}

/** A decoded legacy `mr02` mesh. */
export interface UnigineMeshMr02 extends RawKeeping {
  magic: 'mr02';
  surfaces: Mr02Surface[];
}

/** A decoded `an10` animation. */
export interface UnigineAnim extends RawKeeping, BoundsFields {
  magic: 'an10';
  bones: UnigineBone[];
  bindPose: Float32Array;
  animations: AnimClip[];
}
