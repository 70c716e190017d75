/**
 * Legend of Grimrock record schemas and document types (`.model` MDL1 v2, `.animation` ANIM v1/v2).
 * Field names follow the Almost Human format page so the inspector reads like the spec.
 */
import type { RawKeeping } from '../../model/lossless.ts';
import type { ExactKeeping } from '../../model/exact.ts';
import { enumOf, f32, i32, lenString, mat4x3, struct, u8, vec3, type Infer, type NodeMeta } from '../../schema/schema.ts';

/** Vertex array slots, in file order (VERTEX_ARRAY_*). */
export const VERTEX_ARRAY_NAMES = [
  'position', 'normal', 'tangent', 'bitangent', 'color',
  'texcoord0', 'texcoord1', 'texcoord2', 'texcoord3', 'texcoord4', 'texcoord5', 'texcoord6', 'texcoord7',
  'boneIndex', 'boneWeight',
] as const;

/** VertexArray.dataType labels; value n is DATA_TYPE_LABELS[n]. */
export const DATA_TYPE_LABELS = ['byte', 'int16', 'int32', 'float32'] as const;
/** Byte size of one component per dataType. */
export const DATA_TYPE_SIZES = [1, 2, 4, 4] as const;

export const NodeHeader = struct('Node', {
  name: lenString('latin1').note('Node name (animation items bind to nodes by this name)'),
  localToParent: mat4x3.note('Mat4x3 local-to-parent transform: baseX, baseY, baseZ, translation'),
  parent: i32.note('Index of the parent node, -1 for the root'),
  type: enumOf('i32', { [-1]: 'none', 0: 'MeshEntity' }).note('-1 = no entity data, 0 = MeshEntity follows'),
});

export const VertexArrayHeader = struct('VertexArray', {
  dataType: enumOf('i32', DATA_TYPE_LABELS).note('0 = byte, 1 = int16, 2 = int32, 3 = float32'),
  dim: i32.note('Components per vertex (2-4; 0 when unused)'),
  stride: i32.note('Byte offset from vertex to vertex (0 when unused)'),
});

export const MeshSegment = struct('MeshSegment', {
  material: lenString('latin1').note('Name of the material defined in Lua script'),
  primitiveType: i32.note('Always two (triangle list)'),
  firstIndex: i32.note('Starting location in the index list'),
  count: i32.note('Number of triangles'),
});

export const MeshBounds = struct('MeshBounds', {
  boundCenter: vec3.note('Centre of the bound sphere in model space'),
  boundRadius: f32.note('Radius of the bound sphere in model space'),
  boundMin: vec3.note('Minimum extents of the bound box in model space'),
  boundMax: vec3.note('Maximum extents of the bound box in model space'),
});

export const Bone = struct('Bone', {
  boneNodeIndex: i32.note('Index of the node used to deform the object'),
  invRestMatrix: mat4x3.note('Transform from model space to bone space'),
});

export const MeshEntityTail = struct('MeshEntityTail', {
  emissiveColor: vec3.note('Deprecated, should be 0,0,0'),
  castShadow: u8.note('0 = shadow casting off, 1 = on').range(0, 255),
});

export type MeshSegment = Infer<typeof MeshSegment> & NodeMeta & ExactKeeping;
export type Bone = Infer<typeof Bone> & NodeMeta & ExactKeeping;

/** Vertex data as the header declares it: a typed array when packed tightly, raw bytes otherwise. */
export type VertexData = Uint8Array | Int16Array | Int32Array | Float32Array;

export interface VertexArray extends RawKeeping {
  dataType: number;
  dim: number;
  stride: number;
  /**
   * numVertices * stride bytes. A typed array of the declared type when stride == dim * size
   * (the usual case); a Uint8Array of the raw bytes when the stride leaves gaps or the header is
   * unusual, so any stride survives.
   */
  data: VertexData;
}

export interface MeshData extends RawKeeping, ExactKeeping {
  magic: string;
  version: number;
  /** Stored as read; each used array must hold numVertices * stride bytes. */
  numVertices: number;
  vertexArrays: VertexArray[];
  /** Derived: indices.length. */
  numIndices: number;
  indices: Int32Array;
  /** Derived: segments.length. */
  numSegments: number;
  segments: MeshSegment[];
  boundCenter: number[];
  boundRadius: number;
  boundMin: number[];
  boundMax: number[];
}

export interface MeshEntity extends RawKeeping, ExactKeeping {
  meshData: MeshData;
  /** Derived: bones.length. */
  numBones: number;
  bones: Bone[];
  emissiveColor: number[];
  castShadow: number;
}

export interface GrimrockNode extends RawKeeping, ExactKeeping {
  name: string;
  localToParent: number[];
  parent: number;
  /** -1 no entity, 0 MeshEntity. */
  type: number;
  mesh?: MeshEntity;
}

/** A decoded `.model` file. */
export interface GrimrockModel extends RawKeeping {
  magic: string;
  version: number;
  /** Derived: nodes.length. */
  numNodes: number;
  nodes: GrimrockNode[];
}

/** One animated node. Keys are typed arrays; in version 1 all three share one key count. */
export interface AnimationItem extends RawKeeping {
  node: string;
  /** xyz per key. */
  positions: Float32Array;
  /** xyzw per key. */
  rotations: Float32Array;
  /** xyz per key. */
  scales: Float32Array;
}

/** A decoded `.animation` file. */
export interface GrimrockAnimation extends RawKeeping, ExactKeeping {
  magic: string;
  /** 1: interleaved KeyFrame records; 2 (Grimrock 2): separate position, rotation, scale key lists. */
  version: number;
  name: string;
  framesPerSecond: number;
  numFrames: number;
  /** Derived: items.length. */
  numItems: number;
  items: AnimationItem[];
}

export const AnimationHeader = struct('AnimationFile', {
  name: lenString('latin1').note('Name of the animation'),
  framesPerSecond: f32.note('Typically 30'),
  numFrames: i32.note('Length of the animation in frames'),
});
