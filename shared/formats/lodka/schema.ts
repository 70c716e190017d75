/**
 * LODka 3D `.lod` record schemas and document types.
 *
 * Fixed-size records (material options, lights, proxy items, colliders, physics bodies, geoms and
 * joints) are declared once with the schema toolkit, so decode, encode, size and the inspector
 * all come from the same description. Variable records (meshes, skeletons, animations...) are
 * plain typed nodes read and written by `decode.ts` / `encode.ts`.
 *
 * Field names are camelCase forms of the spec's names (`MeshVertexCnt` -> `meshVertexCnt`).
 */
import type { Span } from '../../binary/reader.ts';
import {
  bool, enumOf, enumU8, f32, i16, i32, mat4, quat, rgba, struct, u16, u8, vec3, type Infer, type NodeMeta,
} from '../../schema/schema.ts';

/** Every LODka file starts with this signature. */
export const LODKA_SIGNATURE = 'LODka3D1';

/** Chunk header: ID (4 chars), Size (bytes after the header), Count (a per-chunk meaning). */
export const CHUNK_HEADER_SIZE = 12;

/** Chunks whose data is nothing but other chunks (read by Size, not by Count). */
export const CONTAINER_IDS = ['LOD1', 'MAL1', 'TXTL', 'SHDL', 'MSL1', 'ANS1', 'LGS1', 'PXL1', 'CLL1'] as const;
export type ContainerId = (typeof CONTAINER_IDS)[number];

/** Leaf chunks the spec documents. */
export const LEAF_IDS = ['INF1', 'SKL1', 'ANM1', 'MAT1', 'TXTR', 'SHDR', 'MSH1', 'MAN1', 'MMD1', 'PHS1', 'LIG1', 'PXI1', 'COL1', 'IMG1'] as const;
export type LeafId = (typeof LEAF_IDS)[number];

/** The list chunk each container normally holds (used for "add" actions and path names). */
export const CONTAINER_CHILD: Readonly<Record<ContainerId, string>> = {
  LOD1: '', MAL1: 'MAT1', TXTL: 'TXTR', SHDL: 'SHDR', MSL1: 'MSH1', ANS1: 'ANM1', LGS1: 'LIG1', PXL1: 'PXI1', CLL1: 'COL1',
};

// ---- enum labels (from the spec, which quotes the GLScene / ODE Pascal types) ----

export const ANIM_MODES = ['aamLODNone', 'aamLODPlayOnce', 'aamLODLoop', 'aamLODBounceForward', 'aamLODBounceBackward', 'aamLODLoopBackward', 'aamLODExternal'] as const;
export const BLENDING_MODES = ['bmOpaque', 'bmTransparency', 'bmAdditive', 'bmAlphaTest50', 'bmAlphaTest100', 'bmModulate'] as const;
export const IMAGE_ALPHA = ['tiaDefault', 'tiaAlphaFromIntensity', 'tiaSuperBlackTransparent', 'tiaLuminance', 'tiaLuminanceSqrt', 'tiaOpaque', 'tiaTopLeftPointColorTransparent', 'tiaInverseLuminance', 'tiaInverseLuminanceSqrt'] as const;
export const TEXTURE_MODES = ['tmDecal', 'tmModulate', 'tmBlend', 'tmReplace'] as const;
/** The spec leaves TGLTextureWrap's list empty; these are GLScene's values 0..3. */
export const TEXTURE_WRAPS = ['twBoth', 'twNone', 'twVertical', 'twHorizontal'] as const;
export const TEXTURE_FORMATS = ['tfDefault', 'tfRGB', 'tfRGBA', 'tfRGB16', 'tfRGBA16', 'tfAlpha', 'tfLuminance', 'tfLuminanceAlpha', 'tfIntensity', 'tfNormalMap', 'tfRGBAFloat16', 'tfRGBAFloat32'] as const;
export const MAPPING_MODES = ['tmmUser', 'tmmObjectLinear', 'tmmEyeLinear', 'tmmSphere', 'tmmCubeMapReflection', 'tmmCubeMapNormal', 'tmmCubeMapLight0', 'tmmCubeMapCamera'] as const;
export const LIGHT_STYLES = ['Spot', 'Omni', 'Parallel'] as const;
export const BODY_TYPES = ['bdtNone', 'bdtBox', 'bdtSphere', 'bdtCylinder', 'bdtCapsule'] as const;
export const GEOM_TYPES = ['bdtNone', 'bdtBox', 'bdtSphere', 'bdtCylinder', 'bdtCapsule', 'bdtCone', 'bdtPlane', 'bdtTriMesh', 'bdtCCylinder', 'bdtRay'] as const;
export const JOINT_TYPES = ['jtaNone', 'jtaBall', 'jtaSlider', 'jtaHinge', 'jtaHinge2', 'jtaUniversal', 'jtaCorkscrew', 'jtaUpVector'] as const;
export const COLLIDER_TYPES = ['sphere', 'capsule', 'cylinder', 'box'] as const;

// ---- fixed records ----

/** MAT1 MaterialOptions: 101 bytes per material. */
export const MaterialOptions = struct('MaterialOptions', {
  ambient: rgba.note('Ambient colour'),
  diffuse: rgba.note('Diffuse colour'),
  emission: rgba.note('Emission colour'),
  specular: rgba.note('Specular colour'),
  envColor: rgba.note('EnvColor'),
  shininess: u8.range(0, 128).note('Shininess 0..128'),
  imageBrightness: f32.note('Texture brightness correction, applied when the image is loaded'),
  imageGamma: f32.note('Texture gamma correction, applied after brightness'),
  normalMapScale: f32.note('Bump intensity when TextureFormat is tfNormalMap'),
  blendingMode: enumU8(BLENDING_MODES).note('BlendingMode (TBlendingMode)'),
  imageAlpha: enumU8(IMAGE_ALPHA).note('How the alpha channel of the texture is made (TGLTextureImageAlpha)'),
  textureMode: enumU8(TEXTURE_MODES).note('Texture function: GL_DECAL, GL_MODULATE, GL_BLEND, GL_REPLACE'),
  textureWrap: enumU8(TEXTURE_WRAPS).note('Tile the texture or apply it once (TGLTextureWrap)'),
  textureFormat: enumU8(TEXTURE_FORMATS).note('OpenGL texture format (TGLTextureFormat)'),
  textureEnabled: bool.note('Texture on/off'),
  enabled: bool.note('Material on/off'),
  mappingMode: enumU8(MAPPING_MODES).note('Texture coordinate generation (TGLTextureMappingMode)'),
});
export type MaterialOptions = Infer<typeof MaterialOptions> & NodeMeta;

/** LIG1: one of the eight OpenGL lights of a scheme, 94 bytes. */
export const Light = struct('LIG1.light', {
  enabled: bool.note('Enabled: light on/off'),
  ligthStyle: enumU8(LIGHT_STYLES).label('style').note('LigthStyle (sic, the stored key): 0 spot, 1 omni, 2 parallel'),
  position: vec3.note('Position X, Y, Z'),
  spotDirection: vec3.note('SpotDirection (spot lights)'),
  ambient: rgba.note('Ambient intensity'),
  diffuse: rgba.note('Diffuse intensity (OpenGL default: white for light 0, black otherwise)'),
  specular: rgba.note('Specular intensity'),
  spotCutOff: f32.unit('deg').note('Cone angle 0..90, or 180 for all directions'),
  spotExponent: f32.note('Beam concentration, >= 0'),
  constAtt: f32.note('Constant attenuation, >= 0'),
  linearAtt: f32.note('Linear attenuation, >= 0'),
  quadAtt: f32.note('Quadratic attenuation, >= 0'),
});
export type Light = Infer<typeof Light> & NodeMeta;

const proxyTail = {
  sourceMeshIndex: i16.note('SourceMeshIndex: mesh of MSL1 placed by this item, -1 for a pure transform'),
  proxyReserved1: i16.note('Reserved, should be -1'),
  proxyReserved2: i16.note('Reserved, should be -1'),
  proxyReserved3: i16.note('Reserved, should be -1'),
  proxyReserved4: i16.note('Reserved, should be 0'),
  proxyPosition: vec3.note('Position X, Y, Z'),
  proxyRotation: quat.note('Rotation quaternion X, Y, Z, W'),
  proxyScale: vec3.note('Scale X, Y, Z'),
  proxyVisible: bool.note('Visible (0/1); hidden items hide their descendants'),
  proxyExpanded: bool.note('Branch expanded in the editor (0/1)'),
};

/** PXI1 item as the sizes column lists it: 54 bytes. */
export const ProxyItem54 = struct('PXI1.item54', {
  proxyParentIndex: i16.note('Parent item in this tree, -1 for the root'),
  ...proxyTail,
});
/** PXI1 item as the offsets column lists it: 56 bytes, a 2-byte gap after ProxyParentIndex. */
export const ProxyItem56 = struct('PXI1.item56', {
  proxyParentIndex: i16.note('Parent item in this tree, -1 for the root'),
  proxyGap: u16.note('2 bytes the offsets column implies after ProxyParentIndex (kept as read)'),
  ...proxyTail,
});
export type ProxyItemFields = Infer<typeof ProxyItem54> & { proxyGap?: number };

/** COL1 collider: 124 bytes. */
export const Collider = struct('COL1.collider', {
  colBoneId: i16.note('BoneID of the SKL1 bone this collider rides on'),
  skelCollType: enumU8(COLLIDER_TYPES).note('0 sphere, 1 capsule, 2 cylinder, 3 box'),
  collMatrix: mat4.note('4x4 matrix relative to the bone'),
  colTag: i32.note('User tag (integer)'),
  colTagFloat: f32.note('User tag (float)'),
  colVisible: bool.note('Visible / enabled'),
  colJointAxis1: quat.note('Axis 1 quaternion X, Y, Z, W'),
  colJointAxis1MinAngle: f32.note('Axis 1 minimum angle'),
  colJointAxis1MaxAngle: f32.note('Axis 1 maximum angle'),
  colJointAxis2: quat.note('Axis 2 quaternion X, Y, Z, W'),
  colJointAxis2MinAngle: f32.note('Axis 2 minimum angle'),
  colJointAxis2MaxAngle: f32.note('Axis 2 maximum angle'),
});
export type Collider = Infer<typeof Collider> & NodeMeta;

/** PHS1 TBody: 78 bytes. */
export const PhysBody = struct('PHS1.body', {
  bodyTypeA: enumU8(BODY_TYPES).note('Body type'),
  bodyPosition: vec3.note('Position X, Y, Z'),
  bodyScale: vec3.note('Scale X, Y, Z'),
  bodyRotation: quat.note('Rotation quaternion X, Y, Z, W'),
  bodyAxis: enumOf('i32', ['0', '1', '2', '3', '4']).note('Axis direction (may be ignored)'),
  bodyMass: f32.note('Mass'),
  bodyDensity: f32.note('Density'),
  isBodyTagFloat: f32.note('User tag'),
  bodyEnabled: bool.note('Enabled'),
  isBodyGravity: bool.note('Affected by gravity'),
  isBodyFinRotMode: bool.note('ODE dBodySetFiniteRotationMode'),
  isBodyAutoDisable: bool.note('Auto-disable on'),
  isBodyAutoDisableDef: bool.note('Auto-disable by default'),
  bodyAdLinearThr: f32.note('ODE dBodySetAutoDisableLinearThreshold'),
  bodyAdAngularThr: f32.note('ODE dBodySetAutoDisableAngularThreshold'),
  bodyADisableTime: f32.note('ODE dBodySetAutoDisableTime'),
  bodyAdSteps: i32.note('ODE dBodySetAutoDisableSteps'),
});
export type PhysBody = Infer<typeof PhysBody> & NodeMeta;

/** PHS1 TGeoms: 70 bytes. */
export const PhysGeom = struct('PHS1.geom', {
  geomType: enumU8(GEOM_TYPES).note('Geometry type'),
  geomBodyIndex: i32.note('Body this geometry is attached to'),
  geomPosition: vec3.note('Position relative to the body'),
  geomScale: vec3.note('Scale X, Y, Z'),
  geomRotation: quat.note('Rotation quaternion X, Y, Z, W'),
  geomAxis: i32.note('Axis direction (may be ignored)'),
  geomMass: f32.note('Mass'),
  geomsDensity: f32.note('Density'),
  geomMeshLink: i32.note('First element of MeshLinks used by this geometry'),
  geomMeshLinkCount: i32.note('Number of meshes attached (consecutive MeshLinks)'),
  geomsTagFloat: f32.note('User tag'),
  geomsEnabled: bool.note('Enabled'),
});
export type PhysGeom = Infer<typeof PhysGeom> & NodeMeta;

/** PHS1 TJoints: 101 bytes. */
export const PhysJoint = struct('PHS1.joint', {
  jointType: enumU8(JOINT_TYPES).note('Joint type'),
  joint2BodyIndex: vec2i(),
  jointAxis: floats8(),
  jointPosition: vec3.note('Position X, Y, Z'),
  jointdParamLoStop: f32.note('dParamLoStop'),
  jointdParamHiStop: f32.note('dParamHiStop'),
  jointdParamVel: f32.note('dParamVel'),
  jointdParamFMax: f32.note('dParamFMax'),
  jointdParamFudgeFactor: f32.note('dParamFudgeFactor'),
  jointdParamBounce: f32.note('dParamBounce'),
  jointdParamCfm: f32.note('dParamCFM'),
  jointdParamStopErp: f32.note('dParamStopERP'),
  jointdParamStopCfm: f32.note('dParamStopCFM'),
  jointdParamSuspensionErp: f32.note('dParamSuspensionERP'),
  jointdParamSuspensionCfm: f32.note('dParamSuspensionCFM'),
  jointdTagFloat: f32.note('User tag'),
});
export type PhysJoint = Infer<typeof PhysJoint> & NodeMeta;

function vec2i() {
  return struct('PHS1.joint.bodies', {
    body1: i32.note('First body joined'),
    body2: i32.note('Second body joined'),
  }).note('Joint2BodyIndex: the two bodies joined');
}
function floats8() {
  return struct('PHS1.joint.axes', {
    axis1: quat.note('First axis quaternion X, Y, Z, W'),
    axis2: quat.note('Second axis quaternion X, Y, Z, W'),
  }).note('JointAxis: two quaternions');
}

// ---- document node types ----

/** Keys every chunk node carries. */
export interface ChunkBase {
  /** Four-character chunk ID. */
  id: string;
  /** Size as read (bytes after the 12-byte header); recomputed when the chunk is re-encoded. */
  size: number;
  /** Count as read; for chunks where it counts elements it is recomputed on re-encode unless `keepCount`. */
  count: number;
  /** Set when the file's Count disagreed with the data: the stored Count is then written back unchanged. */
  keepCount?: boolean;
  $span?: Span;
  $raw?: Uint8Array;
}

export interface ContainerChunk extends ChunkBase {
  id: ContainerId;
  children: LodChunk[];
}

export interface UnknownChunk extends ChunkBase {
  /** Bytes after the header, kept exactly. */
  data: Uint8Array;
}

export interface Inf1Chunk extends ChunkBase {
  id: 'INF1';
  /** The data as text (Windows-1251, byte-exact). */
  text: string;
}

export interface SkeletonBone {
  boneId: number;
  boneParentId: number;
  boneName: string;
  $span?: Span;
}
export interface Skl1Chunk extends ChunkBase {
  id: 'SKL1';
  skelType: number;
  bones: SkeletonBone[];
}

export interface Anm1Chunk extends ChunkBase {
  id: 'ANM1';
  animType: number;
  /** Frame interval in milliseconds (larger plays slower). */
  animInterval: number;
  animMode: number;
  animName: string;
  /**
   * BonesRotPos: per frame, per bone, position X Y Z then rotation X Y Z (Euler radians),
   * 6 floats (24 bytes) per bone per frame, frames one after another.
   */
  bonesRotPos: Float32Array;
}

export interface Material {
  matName: string;
  /** Texture file name; `first:second` when the material has two textures. */
  textrName: string;
  options: MaterialOptions;
  $span?: Span;
}
export interface Mat1Chunk extends ChunkBase {
  id: 'MAT1';
  materialsType: number;
  /** MaterialsCount as read (duplicates Count); recomputed when re-encoded. */
  materialsCount: number;
  materials: Material[];
}

export interface Texture {
  /** TextureOptionSize as read: bytes from the record start to the texture data. */
  textureOptionSize: number;
  textureDataSize: number;
  textureOptionType: number;
  textureMaterialName: string;
  textureName: string;
  /** TextureOptionRezerv: reserved bytes, kept. */
  textureOptionReserve: Uint8Array;
  /** The embedded image file. */
  textureData: Uint8Array;
  $span?: Span;
}
export interface TxtrChunk extends ChunkBase {
  id: 'TXTR';
  texturesType: number;
  textures: Texture[];
}

export interface Shader {
  /** ShaderSize as read: bytes after the ShaderSize field. */
  shaderSize: number;
  shaderType: number;
  /** Bump shader fields (ShaderType 1). */
  bumpName?: string;
  bumpNormalName?: string;
  bumpSpecularName?: string;
  bumpLightPower?: number;
  bumpSpecularPower?: number;
  /** BumpRezerv for bump shaders, or the whole body after ShaderType for other types. */
  reserve: Uint8Array;
  $span?: Span;
}
export interface ShdrChunk extends ChunkBase {
  id: 'SHDR';
  shaderLibType: number;
  shaders: Shader[];
}

export interface FaceGroup {
  /** 2 per the spec; 1 in older files: no normal index array. */
  faceType: number;
  faceMode: number;
  faceName: string;
  isFaceVisible: number;
  /** One material name per texture set (MeshMode 3), or exactly one (MeshMode 2). */
  faceMatNames: string[];
  /** Corner -> vertex; 1, 2 or 4 bytes each by the mesh's vertex count. */
  vertexIndex: Uint32Array;
  /** Smoothing-group bits per triangle (or empty). */
  smoothData: Uint32Array;
  /** Corner -> normal; absent for FaceType 1. */
  normalIndex?: Uint32Array;
  /** Corner -> texture coordinate, one array per texture set. */
  txCrdsInd: Uint32Array[];
  $span?: Span;
}

export interface Msh1Chunk extends ChunkBase {
  id: 'MSH1';
  meshName: string;
  isSkeletonExists: number;
  /** 3: the layout the text describes; 2: the earlier one (one texture set, no MeshTextureNumber). */
  meshMode: number;
  isMeshVisible: number;
  /** xyz per vertex (MeshPointsPos). */
  meshPointsPos: Float32Array;
  /** xyz per normal. */
  meshNormals: Float32Array;
  /** uv per coordinate, one array per texture set. */
  meshTxCrd: Float32Array[];
  /** One bone index per vertex, or empty (1 byte each below 255 bones, else 2). */
  pntBnAssoc: Uint16Array;
  pntBnWeightType: number;
  /** With PntBnWeightType 1: the maximum bones per vertex. */
  bonesPerVertix?: number;
  /** Weight records' BoneID (high bit set: the next record starts the next vertex). */
  weightBoneIds?: Uint16Array;
  weights?: Float32Array;
  faceGroups: FaceGroup[];
}

export interface MorphCollectionNode {
  mcName: string;
  mcCollName: string;
  /** The unlisted 4-byte field at offset 16, when the chunk has it. */
  mcUnknown16?: number;
  mcParentId: number;
  mcParentBone: number;
  mcProxyId: number;
  bones: { mcBoneName: string; mcBoneParentId: number }[];
  anims: { mcAnimName: string; mcAnimMode: number; mcAnimInterval: number; mcAnimFramesCount: number }[];
}
export interface Man1Chunk extends ChunkBase {
  id: 'MAN1';
  morphCollType: number;
  /** 28 or 32 bytes per collection record, decided by the chunk size. */
  collectionRecordSize: 28 | 32;
  collections: MorphCollectionNode[];
  /** MCMatRotPos: 12 floats (3x3 rotation then position) per bone per frame. */
  mcMatRotPos: Float32Array;
  /** Per frame: mins xyz, maxs xyz, position xyz, radius (10 floats). */
  mcColliders: Float32Array;
}

export interface MorphMeshEntry {
  mmFramesCount: number;
  mmVertexCount: number;
  mmMeshIndex: number;
  mmMeshName: string;
  mmMorphColName: string;
}
export interface Mmd1Chunk extends ChunkBase {
  id: 'MMD1';
  morphCollType: number;
  entries: MorphMeshEntry[];
  /** MMVertex: xyz of all vertices of all frames of all meshes. */
  mmVertices: Float32Array;
}

export interface Phs1Chunk extends ChunkBase {
  id: 'PHS1';
  physType: number;
  /** Body names joined by CR LF, as stored. */
  bodysNames: string;
  geomsNames: string;
  meshLinks: Int32Array;
  bodies: (PhysBody & { $span?: Span })[];
  geoms: (PhysGeom & { $span?: Span })[];
  joints: (PhysJoint & { $span?: Span })[];
}

export interface Lig1Chunk extends ChunkBase {
  id: 'LIG1';
  name: string;
  lights: (Light & { $span?: Span })[];
}

export interface ProxyItem extends ProxyItemFields {
  name: string;
  $span?: Span;
}
export interface Pxi1Chunk extends ChunkBase {
  id: 'PXI1';
  /** 54 (sizes column) or 56 (offsets column) bytes per item, decided by the chunk size. */
  itemSize: 54 | 56;
  items: ProxyItem[];
}

export interface ColliderItem extends Collider {
  name: string;
  $span?: Span;
}
export interface Col1Chunk extends ChunkBase {
  id: 'COL1';
  colListName: string;
  colliders: ColliderItem[];
}

export interface Img1Chunk extends ChunkBase {
  id: 'IMG1';
  screenshotType: number;
  screenshotName: string;
  /** A whole image file (PNG, BMP, JPEG...). */
  screenshotData: Uint8Array;
}

export type LeafChunk =
  | Inf1Chunk | Skl1Chunk | Anm1Chunk | Mat1Chunk | TxtrChunk | ShdrChunk | Msh1Chunk | Man1Chunk
  | Mmd1Chunk | Phs1Chunk | Lig1Chunk | Pxi1Chunk | Col1Chunk | Img1Chunk;

/** Any chunk of the tree. Unknown IDs carry `data`. */
export type LodChunk = ContainerChunk | LeafChunk | UnknownChunk;

/** A decoded `.lod` file. */
export interface LodDocument {
  format: 'lodka-lod';
  /** `LODka3D1`. */
  signature: string;
  /** Top-level chunks (normally one LOD1). */
  chunks: LodChunk[];
  /** Bytes after the last chunk too short to be a chunk header, kept. */
  trailing: Uint8Array;
  /** The whole file as read (the structure tree's root range). */
  $span?: Span;
}

export function isContainer(c: LodChunk): c is ContainerChunk {
  return (CONTAINER_IDS as readonly string[]).includes(c.id) && 'children' in c;
}
export function isUnknown(c: LodChunk): c is UnknownChunk {
  return 'data' in c && !('children' in c);
}
