/**
 * Editing support for LODka documents: templates for new nodes (chunks, meshes, materials, proxy
 * items, colliders, light schemes, screenshots...), the `create` command the tree's "add" action
 * uses, and `checkEdit`, which refuses values a field cannot hold before a command is applied.
 */
import { encodeText } from '../../binary/text.ts';
import type { EditCommand } from '../../model/commands.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { Struct } from '../../schema/schema.ts';
import {
  Collider, CONTAINER_IDS, Light, MaterialOptions, PhysBody, PhysGeom, PhysJoint, ProxyItem54, ProxyItem56,
  type Col1Chunk, type ColliderItem, type ContainerChunk, type ContainerId, type FaceGroup, type Img1Chunk,
  type Inf1Chunk, type Lig1Chunk, type LodChunk, type LodDocument, type Material, type MaterialOptions as MaterialOptionsT,
  type Msh1Chunk, type ProxyItem, type Pxi1Chunk, type SkeletonBone, type Texture, type Light as LightT,
} from './schema.ts';

// ---- templates ----

/** Material options as LODka writes them for a new material (white diffuse, texture off). */
export function defaultMaterialOptions(diffuse: [number, number, number, number] = [0.8, 0.8, 0.8, 1]): MaterialOptionsT {
  return {
    ambient: [0.2, 0.2, 0.2, 1], diffuse: [...diffuse], emission: [0, 0, 0, 1], specular: [0, 0, 0, 1], envColor: [0, 0, 0, 0],
    shininess: 0, imageBrightness: 1, imageGamma: 1, normalMapScale: 0.125, blendingMode: 0, imageAlpha: 0, textureMode: 1,
    textureWrap: 0, textureFormat: 0, textureEnabled: 0, enabled: 1, mappingMode: 0,
  };
}

export function newMaterial(name = 'material', textrName = '', diffuse?: [number, number, number, number]): Material {
  const options = defaultMaterialOptions(diffuse);
  if (textrName) options.textureEnabled = 1;
  return { matName: name, textrName, options };
}

/** One OpenGL light with GL's defaults (light 0 white, the others black). */
export function defaultLight(index: number): LightT {
  const on = index === 0;
  return {
    enabled: on ? 1 : 0, ligthStyle: 1, position: [0, 0, 1], spotDirection: [0, 0, -1], ambient: [0, 0, 0, 1],
    diffuse: on ? [1, 1, 1, 1] : [0, 0, 0, 1], specular: on ? [1, 1, 1, 1] : [0, 0, 0, 1], spotCutOff: 180, spotExponent: 0,
    constAtt: 1, linearAtt: 0, quadAtt: 0,
  };
}

export function newLightScheme(name = 'light scheme'): Lig1Chunk {
  return { id: 'LIG1', size: 0, count: 8, name, lights: Array.from({ length: 8 }, (_, i) => defaultLight(i)) };
}

export function newProxyItem(name = 'item', sourceMeshIndex = -1, parent = -1): ProxyItem {
  return {
    name, proxyParentIndex: parent, sourceMeshIndex, proxyReserved1: -1, proxyReserved2: -1, proxyReserved3: -1, proxyReserved4: 0,
    proxyPosition: [0, 0, 0], proxyRotation: [0, 0, 0, 1], proxyScale: [1, 1, 1], proxyVisible: 1, proxyExpanded: 1,
  };
}

/** A proxy replacing mesh `targetMesh` of MSL1 (that mesh should be empty). */
export function newProxy(targetMesh = 0, itemSize: 54 | 56 = 54, items: ProxyItem[] = []): Pxi1Chunk {
  // The 56-byte layout carries the 2-byte gap as a field of its own.
  const list = itemSize === 56 ? items.map((it) => ({ proxyGap: 0, ...it })) : items;
  return { id: 'PXI1', size: 0, count: targetMesh, itemSize, items: list };
}

export function newCollider(name = 'collider', boneId = 0, shape = 0): ColliderItem {
  return {
    name, colBoneId: boneId, skelCollType: shape, collMatrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], colTag: 0,
    colTagFloat: 0, colVisible: 1, colJointAxis1: [0, 0, 0, 1], colJointAxis1MinAngle: 0, colJointAxis1MaxAngle: 0,
    colJointAxis2: [0, 0, 0, 1], colJointAxis2MinAngle: 0, colJointAxis2MaxAngle: 0,
  };
}

export function newColliderSet(name = 'colliders', colliders: ColliderItem[] = []): Col1Chunk {
  return { id: 'COL1', size: 0, count: colliders.length, colListName: name, colliders };
}

export function newFaceGroup(name = 'group', material = '', sets = 1): FaceGroup {
  return {
    faceType: 2, faceMode: 0, faceName: name, isFaceVisible: 1, faceMatNames: Array.from({ length: sets }, () => material),
    vertexIndex: new Uint32Array(0), smoothData: new Uint32Array(0), normalIndex: new Uint32Array(0),
    txCrdsInd: Array.from({ length: sets }, () => new Uint32Array(0)),
  };
}

/** An empty MeshMode 3 mesh with one texture set. */
export function newMesh(name = 'mesh'): Msh1Chunk {
  return {
    id: 'MSH1', size: 0, count: 0, meshName: name, isSkeletonExists: 0, meshMode: 3, isMeshVisible: 1,
    meshPointsPos: new Float32Array(0), meshNormals: new Float32Array(0), meshTxCrd: [new Float32Array(0)],
    pntBnAssoc: new Uint16Array(0), pntBnWeightType: 0, faceGroups: [],
  };
}

export function newScreenshot(name = 'screenshot.png', data: Uint8Array = new Uint8Array(0)): Img1Chunk {
  return { id: 'IMG1', size: 0, count: 1, screenshotType: 0, screenshotName: name, screenshotData: data };
}

export function newTexture(materialName = '', fileName = '', data: Uint8Array = new Uint8Array(0)): Texture {
  return {
    textureOptionSize: 0, textureDataSize: 0, textureOptionType: 0, textureMaterialName: materialName, textureName: fileName,
    textureOptionReserve: new Uint8Array(0), textureData: data,
  };
}

/** A new empty chunk of any documented ID (containers empty, leaves with neutral defaults). */
export function newChunk(id: string): LodChunk {
  if ((CONTAINER_IDS as readonly string[]).includes(id)) return { id: id as ContainerId, size: 0, count: 0, children: [] } as ContainerChunk;
  switch (id) {
    case 'INF1': return { id, size: 0, count: 1, text: '' } as Inf1Chunk;
    case 'SKL1': return { id, size: 0, count: 0, skelType: 1, bones: [] };
    case 'ANM1': return { id, size: 0, count: 0, animType: 1, animInterval: 100, animMode: 2, animName: 'animation', bonesRotPos: new Float32Array(0) };
    case 'MAT1': return { id, size: 0, count: 0, materialsType: 3, materialsCount: 0, materials: [] };
    case 'TXTR': return { id, size: 0, count: 0, texturesType: 0, textures: [] };
    case 'SHDR': return { id, size: 0, count: 0, shaderLibType: 1, shaders: [] };
    case 'MSH1': return newMesh();
    case 'MAN1': return { id, size: 0, count: 0, morphCollType: 0, collectionRecordSize: 28, collections: [], mcMatRotPos: new Float32Array(0), mcColliders: new Float32Array(0) };
    case 'MMD1': return { id, size: 0, count: 0, morphCollType: 0, entries: [], mmVertices: new Float32Array(0) };
    case 'PHS1': return { id, size: 0, count: 2, physType: 1, bodysNames: '', geomsNames: '', meshLinks: new Int32Array(0), bodies: [], geoms: [], joints: [] };
    case 'LIG1': return newLightScheme();
    case 'PXI1': return newProxy();
    case 'COL1': return newColliderSet();
    case 'IMG1': return newScreenshot();
    default:
      if (id.length !== 4) throw new RangeError(`chunk ID must be 4 characters: ${id}`);
      return { id, size: 0, count: 0, data: new Uint8Array(0) };
  }
}

// ---- create (the tree's "add" action) ----

const ITEM_KINDS: Record<string, { list: string; make: (doc: LodDocument, node: any) => unknown }> = {
  material: { list: 'materials', make: (_d, n) => newMaterial(`material${(n.materials?.length ?? 0) + 1}`) },
  'proxy item': { list: 'items', make: (_d, n) => newProxyItem(`item${(n.items?.length ?? 0) + 1}`) },
  collider: { list: 'colliders', make: (doc, n) => newCollider(`collider${(n.colliders?.length ?? 0) + 1}`, firstBoneId(doc)) },
  bone: { list: 'bones', make: (_d, n) => newBone(n.bones ?? []) },
  'face group': { list: 'faceGroups', make: (_d, n) => newFaceGroup(`Group${n.faceGroups?.length ?? 0}`, '', n.meshTxCrd?.length ?? 1) },
  texture: { list: 'textures', make: () => newTexture() },
};

function firstBoneId(doc: LodDocument): number {
  const stack: LodChunk[] = [...doc.chunks];
  while (stack.length) {
    const c = stack.shift()!;
    if (c.id === 'SKL1' && 'bones' in c) return c.bones[0]?.boneId ?? 0;
    if ('children' in c) stack.push(...c.children);
  }
  return 0;
}

function newBone(bones: SkeletonBone[]): SkeletonBone {
  const id = bones.reduce((m, b) => Math.max(m, b.boneId), -1) + 1;
  return { boneId: id, boneParentId: bones.length ? bones[0]!.boneId : -1, boneName: `bone${id}` };
}

/**
 * The insert command for the tree's "add" action: `kind` is a chunk ID (under the file root or a
 * container) or an item kind (`material`, `proxy item`, `collider`, `bone`, `face group`, `texture`).
 * Chunk kinds `light scheme`, `mesh`, `proxy`, `collider set` and `screenshot` are accepted as aliases;
 * `chunk` adds an empty user chunk `USR1`.
 */
export function createLod(doc: LodDocument, parent: NodePath, kind: string): EditCommand | undefined {
  // `chunk` makes a user chunk (the format invites them; its bytes are kept as they are).
  const alias: Record<string, string> = { 'light scheme': 'LIG1', mesh: 'MSH1', proxy: 'PXI1', 'collider set': 'COL1', screenshot: 'IMG1', chunk: 'USR1' };
  const node = getAt(doc, parent) as any;
  if (!node || typeof node !== 'object') return undefined;
  const item = ITEM_KINDS[kind];
  if (item && Array.isArray(node[item.list])) {
    return { op: 'insert', path: [...parent, item.list], index: node[item.list].length, value: item.make(doc, node), label: `Add ${kind}` };
  }
  const id = alias[kind] ?? kind;
  if (!/^[\x20-\x7e]{4}$/.test(id)) return undefined;
  const list = parent.length === 0 ? doc.chunks : Array.isArray(node.children) ? node.children : undefined;
  if (!list) return undefined;
  const listPath: NodePath = parent.length === 0 ? ['chunks'] : [...parent, 'children'];
  return { op: 'insert', path: listPath, index: list.length, value: newChunk(id), label: `Add ${id}` };
}

// ---- checkEdit ----

type Check = (v: unknown) => string | undefined;
const int = (lo: number, hi: number): Check => (v) =>
  typeof v !== 'number' || !Number.isInteger(v) ? 'must be a whole number' : v < lo || v > hi ? `must be between ${lo} and ${hi}` : undefined;
const U8 = int(0, 255);
const I16 = int(-32768, 32767);
const I32 = int(-2147483648, 2147483647);
const F32: Check = (v) => (typeof v === 'number' ? undefined : 'must be a number');
const TEXT: Check = (v) => {
  if (typeof v !== 'string') return 'must be text';
  try {
    encodeText(v, 'cp1251');
    return undefined;
  } catch {
    return 'has a character Windows-1251 cannot store';
  }
};
const typed = (ctor: { name: string }): Check => (v) => (v && (v as object).constructor?.name === ctor.name ? undefined : `must be a ${ctor.name}`);

/** Scalar fields of variable records and chunks, by key. */
const FIELD_CHECKS: Record<string, Check> = {
  skelType: U8, animType: U8, animMode: U8, materialsType: U8, texturesType: U8, shaderLibType: U8, shaderType: U8,
  isSkeletonExists: U8, isMeshVisible: U8, faceMode: U8, isFaceVisible: U8, physType: U8,
  animInterval: I32, faceType: I32, bonesPerVertix: I32, screenshotType: I32, morphCollType: I32, textureOptionType: I32,
  mcParentId: I32, mcParentBone: I32, mcProxyId: I32, mcUnknown16: I32, mcBoneParentId: I32, mcAnimInterval: I32,
  mcAnimFramesCount: int(0, 2147483647), mcAnimMode: U8, mmFramesCount: I32, mmVertexCount: I32, mmMeshIndex: I32,
  boneId: I16, boneParentId: I16, bumpLightPower: F32, bumpSpecularPower: F32,
  text: TEXT, animName: TEXT, matName: TEXT, textrName: TEXT, textureMaterialName: TEXT, textureName: TEXT, bumpName: TEXT,
  bumpNormalName: TEXT, bumpSpecularName: TEXT, meshName: TEXT, faceName: TEXT, name: TEXT, colListName: TEXT,
  screenshotName: TEXT, bodysNames: TEXT, geomsNames: TEXT, mcName: TEXT, mcCollName: TEXT, mcBoneName: TEXT, mcAnimName: TEXT,
  mmMeshName: TEXT, mmMorphColName: TEXT,
  meshPointsPos: typed(Float32Array), meshNormals: typed(Float32Array), pntBnAssoc: typed(Uint16Array), weights: typed(Float32Array),
  weightBoneIds: typed(Uint16Array), vertexIndex: typed(Uint32Array), normalIndex: typed(Uint32Array), smoothData: typed(Uint32Array),
  bonesRotPos: typed(Float32Array), screenshotData: typed(Uint8Array), textureData: typed(Uint8Array),
  textureOptionReserve: typed(Uint8Array), reserve: typed(Uint8Array), data: typed(Uint8Array), meshLinks: typed(Int32Array),
  mmVertices: typed(Float32Array), mcMatRotPos: typed(Float32Array), mcColliders: typed(Float32Array),
};

/** Fields the encoder computes: never set by hand. */
const DERIVED = new Set(['id', 'size', 'materialsCount', 'textureOptionSize', 'textureDataSize', 'shaderSize', 'keepCount']);

function recordSchema(parent: any, parentPath: NodePath): Struct<any> | undefined {
  const listKey = parentPath[parentPath.length - 2];
  if (parentPath[parentPath.length - 1] === 'options') return MaterialOptions;
  switch (listKey) {
    case 'lights': return Light;
    case 'colliders': return Collider;
    case 'bodies': return PhysBody;
    case 'geoms': return PhysGeom;
    case 'joints': return PhysJoint;
    case 'items': return parent.proxyGap !== undefined ? ProxyItem56 : ProxyItem54;
    default: return undefined;
  }
}

/** Refuses an edit a field cannot hold; returns the reason, or undefined when it is fine. */
export function checkLodEdit(doc: LodDocument, cmd: EditCommand): string | undefined {
  switch (cmd.op) {
    case 'batch':
      for (const c of cmd.commands) {
        const m = checkLodEdit(doc, c);
        if (m) return m;
      }
      return undefined;
    case 'move':
      return Array.isArray(getAt(doc, cmd.path)) ? undefined : 'not a list';
    case 'remove': {
      if (!Array.isArray(getAt(doc, cmd.path.slice(0, -1)))) return 'not a list';
      if (cmd.path[cmd.path.length - 2] === 'lights') return 'a light scheme holds exactly 8 lights';
      if (cmd.path[cmd.path.length - 2] === 'meshTxCrd' || cmd.path[cmd.path.length - 2] === 'faceMatNames' || cmd.path[cmd.path.length - 2] === 'txCrdsInd') {
        return 'texture sets are removed from the mesh and every face group together';
      }
      return undefined;
    }
    case 'insert': {
      const list = getAt(doc, cmd.path);
      if (!Array.isArray(list)) return 'not a list';
      const key = cmd.path[cmd.path.length - 1];
      if ((key === 'chunks' || key === 'children')) {
        const v = cmd.value as LodChunk;
        if (!v || typeof v !== 'object' || typeof v.id !== 'string' || v.id.length !== 4) return 'a chunk needs a 4-character ID';
      } else if (key === 'lights') {
        return 'a light scheme holds exactly 8 lights';
      } else if (!cmd.value || typeof cmd.value !== 'object') return 'must be a record';
      return undefined;
    }
    case 'set': {
      if (cmd.path.length === 0) return 'cannot replace the document';
      const key = cmd.path[cmd.path.length - 1];
      const parentPath = cmd.path.slice(0, -1);
      const parent = getAt(doc, parentPath) as any;
      if (!parent || typeof parent !== 'object') return 'no such node';
      if (typeof key !== 'string') return undefined;
      if (key === 'signature') return cmd.value === 'LODka3D1' ? undefined : 'the signature must be LODka3D1';
      if (DERIVED.has(key)) return `${key} is computed when saving`;
      const schema = recordSchema(parent, parentPath);
      if (schema && key in schema.shape) return schema.checkField(key, cmd.value);
      if (key === 'count') {
        const chunk = parent as LodChunk;
        if (['PXI1', 'ANM1', 'LIG1', 'PHS1', 'INF1', 'IMG1'].includes(chunk.id) || !('children' in chunk || FIXED_COUNT.has(chunk.id))) {
          if (chunk.id === 'LIG1' && cmd.value !== 8) return 'LIG1 Count must be 8';
          return I32(cmd.value);
        }
        return 'Count is computed from the data when saving';
      }
      if (key === 'meshMode') {
        const m = parent as Msh1Chunk;
        if (cmd.value !== 2 && cmd.value !== 3) return 'MeshMode must be 2 or 3';
        if (cmd.value === 2 && m.meshTxCrd.length !== 1) return 'MeshMode 2 holds exactly one texture set';
        return undefined;
      }
      if (key === 'itemSize') return cmd.value === 54 || cmd.value === 56 ? undefined : 'item size must be 54 or 56';
      if (key === 'collectionRecordSize') return cmd.value === 28 || cmd.value === 32 ? undefined : 'record size must be 28 or 32';
      if (key === 'pntBnWeightType') return I32(cmd.value);
      const check = FIELD_CHECKS[key];
      return check ? check(cmd.value) : undefined;
    }
  }
}

const FIXED_COUNT = new Set(['MAT1', 'TXTR', 'SHDR', 'SKL1', 'MSH1', 'COL1', 'MAN1', 'MMD1']);
