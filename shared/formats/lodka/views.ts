/**
 * Read-only views of a LODka document: the chunk tree for the editor (outline), inspector rows
 * (inspect) and the summary `lodsmith info` prints (info).
 */
import type { Span } from '../../binary/reader.ts';
import type { FieldKind, FieldInfo, Struct } from '../../schema/schema.ts';
import type { InspectField, Inspection, NodeKind, OutlineNode } from '../../model/outline.ts';
import { lengthOf } from '../../model/deferred.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { FormatInfo } from '../registry.ts';
import { chunkSegment } from './decode.ts';
import {
  ANIM_MODES, Collider, CONTAINER_CHILD, CONTAINER_IDS, Light, MaterialOptions, PhysBody, PhysGeom, PhysJoint, ProxyItem54,
  ProxyItem56, type Anm1Chunk, type ContainerId, type LodChunk, type LodDocument, type Mat1Chunk, type Msh1Chunk,
  type Skl1Chunk,
} from './schema.ts';

const KIND: Record<string, NodeKind> = {
  LOD1: 'lod', INF1: 'info', MAL1: 'materials', MAT1: 'materials', TXTL: 'textures', TXTR: 'textures', SHDL: 'container',
  SHDR: 'shader', MSL1: 'meshes', MSH1: 'mesh', SKL1: 'skeleton', ANS1: 'container', ANM1: 'animation', MAN1: 'morph',
  MMD1: 'morph', PHS1: 'physics', LGS1: 'lights', LIG1: 'light', PXL1: 'proxies', PXI1: 'proxy', CLL1: 'colliders',
  COL1: 'colliders', IMG1: 'image',
};

/** Chunk kinds that may be added at the top level of LOD1 (or the file). */
export const LOD1_CHILD_KINDS = ['INF1', 'MAL1', 'TXTL', 'SHDL', 'SKL1', 'MSL1', 'ANS1', 'MAN1', 'MMD1', 'PHS1', 'LGS1', 'PXL1', 'CLL1', 'IMG1'];

/** Walks every chunk depth-first with its document path and display path. */
export function* walkChunks(doc: LodDocument): Generator<{ chunk: LodChunk; path: NodePath; where: string }> {
  function* rec(list: LodChunk[], base: NodePath, where: string): Generator<{ chunk: LodChunk; path: NodePath; where: string }> {
    const seen = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      const k = seen.get(c.id) ?? 0;
      seen.set(c.id, k + 1);
      const path = [...base, i];
      const w = where ? `${where}/${chunkSegment(c.id, k)}` : chunkSegment(c.id, k);
      yield { chunk: c, path, where: w };
      if ('children' in c && Array.isArray(c.children)) yield* rec(c.children, [...path, 'children'], w);
    }
  }
  yield* rec(doc.chunks, ['chunks'], '');
}

/** All chunks with a given ID, in file order. */
export function chunksOf<T extends LodChunk>(doc: LodDocument, id: string): T[] {
  const out: T[] = [];
  for (const { chunk } of walkChunks(doc)) if (chunk.id === id) out.push(chunk as T);
  return out;
}

function chunkLabel(c: LodChunk): string | undefined {
  const x = c as unknown as Record<string, unknown>;
  for (const k of ['meshName', 'animName', 'name', 'colListName', 'screenshotName']) if (typeof x[k] === 'string') return x[k];
  return undefined;
}

function rec(name: string, path: NodePath, kind: NodeKind, span: Span | undefined, label?: string, actions?: OutlineNode['actions']): OutlineNode {
  const n: OutlineNode = { path, name, kind };
  if (label !== undefined) n.label = label;
  if (span) n.span = [span[0], span[1]];
  if (actions) n.actions = actions;
  return n;
}

const ITEM_ACTIONS = { remove: true, duplicate: true, move: true };

function chunkChildren(c: LodChunk, path: NodePath): OutlineNode[] | undefined {
  const x = c as unknown as Record<string, any>;
  const list = (key: string, kind: NodeKind, labelOf: (v: any) => string | undefined): OutlineNode[] =>
    (x[key] as any[]).map((v, i) => rec(`${key}[${i}]`, [...path, key, i], kind, v?.$span, labelOf(v), ITEM_ACTIONS));
  switch (c.id) {
    case 'MAT1': return list('materials', 'material', (v) => v.matName);
    case 'SKL1': return list('bones', 'bone', (v) => v.boneName);
    case 'TXTR': return list('textures', 'texture', (v) => v.textureName);
    case 'SHDR': return list('shaders', 'shader', (v) => v.bumpName);
    case 'MSH1': return list('faceGroups', 'facegroup', (v) => v.faceName);
    case 'LIG1': return list('lights', 'light', (v) => ['Spot', 'Omni', 'Parallel'][v.ligthStyle] ?? '');
    case 'PXI1': return list('items', 'proxy', (v) => v.name);
    case 'COL1': return list('colliders', 'collider', (v) => v.name);
    case 'MAN1': return list('collections', 'morph', (v) => v.mcName);
    case 'MMD1': return list('entries', 'morph', (v) => v.mmMeshName);
    case 'PHS1': return [...list('bodies', 'record', () => undefined), ...list('geoms', 'record', () => undefined), ...list('joints', 'record', () => undefined)];
    default: return undefined;
  }
}

function childCount(c: LodChunk): number | undefined {
  const x = c as unknown as Record<string, any>;
  for (const k of ['children', 'materials', 'bones', 'textures', 'shaders', 'faceGroups', 'lights', 'items', 'colliders', 'collections', 'entries']) {
    if (Array.isArray(x[k])) return x[k].length;
  }
  if (c.id === 'ANM1') return c.count;
  return undefined;
}

const ADD_IN: Record<string, string[]> = {
  MAT1: ['material'], PXI1: ['proxy item'], COL1: ['collider'], SKL1: ['bone'], MSH1: ['face group'], TXTR: ['texture'],
};

/** The chunk tree: names are node-path segments (`MSL1`, `MSH1[2]`), spans cover the bytes. */
export function outlineLod(doc: LodDocument, fileName = 'LODka3D1'): OutlineNode {
  const build = (list: LodChunk[], base: NodePath): OutlineNode[] => {
    const seen = new Map<string, number>();
    return list.map((c, i) => {
      const k = seen.get(c.id) ?? 0;
      seen.set(c.id, k + 1);
      const path = [...base, i];
      const isCont = (CONTAINER_IDS as readonly string[]).includes(c.id) && 'children' in c;
      const add = isCont ? (c.id === 'LOD1' ? LOD1_CHILD_KINDS : [CONTAINER_CHILD[c.id as ContainerId]]) : ADD_IN[c.id];
      const n = rec(chunkSegment(c.id, k), path, KIND[c.id] ?? 'raw', c.$span, chunkLabel(c), {
        ...(add ? { add } : {}), remove: true, duplicate: true, move: true, bytes: true,
      });
      const count = childCount(c);
      if (count !== undefined) n.count = count;
      const kids = isCont ? build((c as { children: LodChunk[] }).children, [...path, 'children']) : chunkChildren(c, path);
      if (kids?.length) n.children = kids;
      return n;
    });
  };
  const root: OutlineNode = { path: [], name: fileName, kind: 'file', ...(doc.$span ? { span: doc.$span } : {}), children: build(doc.chunks, ['chunks']), actions: { add: ['LOD1', ...LOD1_CHILD_KINDS] } };
  root.count = doc.chunks.length;
  return root;
}

// ---- inspector ----

interface Row {
  key: string;
  kind: FieldKind;
  note?: string;
  readonly?: boolean;
  enumLabels?: readonly string[];
  /** Offset from the chunk data start when known. */
  at?: number;
  size?: number;
}

const HEADER_ROWS: Row[] = [
  { key: 'id', kind: 'string', note: 'Chunk ID', readonly: true, at: -12, size: 4 },
  { key: 'size', kind: 'i32', note: 'Size: bytes after the 12-byte header (computed when saving)', readonly: true, at: -8, size: 4 },
  { key: 'count', kind: 'i32', note: 'Count (meaning depends on the chunk)', readonly: true, at: -4, size: 4 },
];

/** Chunk fields shown besides the header, with their spec notes. */
const CHUNK_ROWS: Record<string, Row[]> = {
  INF1: [{ key: 'text', kind: 'string', note: 'Free text about the model (any data in principle)' }],
  SKL1: [{ key: 'skelType', kind: 'u8', note: 'SkelType, should be 1', at: 0, size: 1 }],
  ANM1: [
    { key: 'animType', kind: 'u8', note: 'AnimType, should be 1', at: 0, size: 1 },
    { key: 'animInterval', kind: 'i32', note: 'Frame interval in milliseconds: larger plays slower', at: 1, size: 4 },
    { key: 'animMode', kind: 'enum', note: 'AnimMode', enumLabels: ANIM_MODES, at: 5, size: 1 },
    { key: 'animName', kind: 'string', note: 'AnimName' },
    { key: 'bonesRotPos', kind: 'array', note: '6 floats per bone per frame: position XYZ, rotation XYZ (radians)', readonly: true },
  ],
  MAT1: [
    { key: 'materialsType', kind: 'u8', note: 'MaterialsType, should be 3', at: 0, size: 1 },
    { key: 'materialsCount', kind: 'i32', note: 'MaterialsCount (computed when saving)', readonly: true, at: 1, size: 4 },
  ],
  TXTR: [{ key: 'texturesType', kind: 'u8', note: 'TexturesType, should be 0', at: 0, size: 1 }],
  SHDR: [{ key: 'shaderLibType', kind: 'u8', note: 'ShaderLibType, should be 1', at: 0, size: 1 }],
  MSH1: [
    { key: 'meshName', kind: 'string', note: 'MeshName' },
    { key: 'isSkeletonExists', kind: 'bool', note: 'The model has a skeleton' },
    { key: 'meshMode', kind: 'u8', note: 'MeshMode: 3 current layout, 2 earlier layout (one texture set)', readonly: true },
    { key: 'isMeshVisible', kind: 'bool', note: 'Mesh visible / enabled' },
    { key: 'meshPointsPos', kind: 'array', note: 'Vertex positions, xyz', readonly: true },
    { key: 'meshNormals', kind: 'array', note: 'Normals, xyz', readonly: true },
    { key: 'meshTxCrd', kind: 'array', note: 'Texture coordinates, one uv array per texture set', readonly: true },
    { key: 'pntBnAssoc', kind: 'array', note: 'One bone per vertex, or empty', readonly: true },
    { key: 'pntBnWeightType', kind: 'i32', note: 'PntBnWeightType: 1 when weight records follow', readonly: true },
    { key: 'bonesPerVertix', kind: 'i32', note: 'Maximum bones per vertex' },
    { key: 'weightBoneIds', kind: 'array', note: 'Weight record BoneIDs (high bit: next record starts the next vertex)', readonly: true },
    { key: 'weights', kind: 'array', note: 'Weight per record', readonly: true },
  ],
  MAN1: [
    { key: 'morphCollType', kind: 'i32', note: 'MorphCollType, should be 0', at: 0, size: 4 },
    { key: 'collectionRecordSize', kind: 'i32', note: 'Bytes per collection record (28 as listed, 32 with the unlisted field)', readonly: true },
    { key: 'mcMatRotPos', kind: 'array', note: '3x4 matrices per bone per frame', readonly: true },
    { key: 'mcColliders', kind: 'array', note: 'Per frame: mins, maxs, position, radius', readonly: true },
  ],
  MMD1: [
    { key: 'morphCollType', kind: 'i32', note: 'MorphCollType, should be 0', at: 0, size: 4 },
    { key: 'mmVertices', kind: 'array', note: 'xyz of all vertices of all frames', readonly: true },
  ],
  PHS1: [
    { key: 'physType', kind: 'u8', note: 'PhysType, should be 1', at: 0, size: 1 },
    { key: 'bodysNames', kind: 'string', note: 'Body names separated by CR LF' },
    { key: 'geomsNames', kind: 'string', note: 'Geometry names separated by CR LF' },
    { key: 'meshLinks', kind: 'array', note: 'Mesh indices referenced by geometries', readonly: true },
  ],
  LIG1: [{ key: 'name', kind: 'string', note: 'Light scheme name' }],
  PXI1: [{ key: 'itemSize', kind: 'i32', note: 'Bytes per item: 54 (sizes column) or 56 (offsets column)', readonly: true }],
  COL1: [{ key: 'colListName', kind: 'string', note: 'Collider set name' }],
  IMG1: [
    { key: 'screenshotType', kind: 'i32', note: 'ScreenshotType, should be 0', at: 0, size: 4 },
    { key: 'screenshotName', kind: 'string', note: 'ScreenshotName' },
    { key: 'screenshotData', kind: 'bytes', note: 'A whole image file', readonly: true },
  ],
};

/** Header Count meanings that are not element counts (editable). */
const COUNT_NOTES: Record<string, string> = {
  PXI1: 'Index of the MSL1 mesh this proxy replaces (that mesh should be empty)',
  ANM1: 'FramesCnt: frames in this animation',
  LIG1: 'Must be 8 (a block type, not a light count)',
  PHS1: 'Block version, should be 2',
  INF1: 'Should be 1',
  IMG1: 'Should be 1 (one screenshot)',
};

function jsonValue(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const a = v as unknown as { length: number; constructor: { name: string } };
    return `${a.constructor.name}(${a.length})`;
  }
  if (Array.isArray(v) && v.some((x) => ArrayBuffer.isView(x))) return v.map(jsonValue);
  return v;
}

function schemaFields(schema: Struct<any>, value: Record<string, unknown>, path: NodePath, base: number | undefined): InspectField[] {
  const spans = base === undefined ? undefined : schema.layout(value as any, base);
  return schema.fields.map((f: FieldInfo, i: number) => {
    const out: InspectField = { ...f, path: [...path, f.name], value: jsonValue(value[f.name]) };
    if (spans) out.span = spans[i]!.span;
    return out;
  });
}

function rowFields(rows: Row[], node: Record<string, unknown>, path: NodePath, dataStart: number | undefined): InspectField[] {
  const out: InspectField[] = [];
  for (const r of rows) {
    if (!(r.key in node)) continue;
    const f: InspectField = { name: r.key, kind: r.kind, path: [...path, r.key], value: jsonValue(node[r.key]) };
    if (r.note) f.note = r.note;
    if (r.readonly) f.readonly = true;
    if (r.enumLabels) f.enumLabels = r.enumLabels;
    if (r.size !== undefined) f.size = r.size;
    if (r.at !== undefined && dataStart !== undefined) f.span = [dataStart + r.at, dataStart + r.at + (r.size ?? 0)];
    out.push(f);
  }
  return out;
}

const RECORD_SCHEMAS: Record<string, Struct<any>> = {
  lights: Light, colliders: Collider, bodies: PhysBody, geoms: PhysGeom, joints: PhysJoint,
};

/** Inspector rows for the node at `path` (a chunk or a record inside one). */
export function inspectLod(doc: LodDocument, path: NodePath): Inspection | undefined {
  const node = getAt(doc, path);
  if (!node || typeof node !== 'object' || ArrayBuffer.isView(node)) return undefined;
  const n = node as Record<string, any>;
  if (path.length === 0) {
    return { title: 'LODka 3D file', fields: [{ name: 'signature', kind: 'string', path: ['signature'], value: doc.signature, readonly: true, span: [0, 8], size: 8, note: 'Signature LODka3D1' }] };
  }
  if (typeof n.id === 'string' && typeof n.size === 'number' && typeof n.count === 'number') {
    const start = n.$span?.[0] as number | undefined;
    const dataStart = start === undefined ? undefined : start + 12;
    const header = rowFields(HEADER_ROWS, n, path, dataStart);
    const countNote = COUNT_NOTES[n.id];
    if (countNote) Object.assign(header[2]!, { note: countNote, readonly: false });
    const rows = CHUNK_ROWS[n.id] ?? (n.data ? [{ key: 'data', kind: 'bytes' as FieldKind, note: 'Unknown chunk: bytes kept as read', readonly: true }] : []);
    return { title: `${n.id}${typeof chunkLabel(n as LodChunk) === 'string' ? ` ${chunkLabel(n as LodChunk)}` : ''}`, fields: [...header, ...rowFields(rows, n, path, dataStart)] };
  }
  // Records inside chunks: path ends with [..., listKey, index].
  const listKey = path[path.length - 2];
  const base = (n.$span as Span | undefined)?.[0];
  if (typeof listKey === 'string') {
    const title = `${listKey}[${String(path[path.length - 1])}]`;
    if (listKey === 'materials') {
      const fields: InspectField[] = [
        { name: 'matName', kind: 'string', path: [...path, 'matName'], value: n.matName, note: 'Material name' },
        { name: 'textrName', kind: 'string', path: [...path, 'textrName'], value: n.textrName, note: 'Texture file name; "first:second" for two textures' },
        ...schemaFields(MaterialOptions, n.options, [...path, 'options'], n.options?.$span?.[0]),
      ];
      return { title: `Material ${n.matName}`, fields };
    }
    if (listKey === 'items') {
      const schema = n.proxyGap !== undefined ? ProxyItem56 : ProxyItem54;
      return { title: `Proxy item ${n.name}`, fields: [{ name: 'name', kind: 'string', path: [...path, 'name'], value: n.name }, ...schemaFields(schema, n, path, base)] };
    }
    const schema = RECORD_SCHEMAS[listKey];
    if (schema) {
      const named = typeof n.name === 'string' ? [{ name: 'name', kind: 'string' as FieldKind, path: [...path, 'name'], value: n.name }] : [];
      return { title, fields: [...named, ...schemaFields(schema, n, path, base)] };
    }
    // Variable records (bones, face groups, textures, shaders, morph entries): their own keys,
    // typed and annotated from RECORD_FIELDS, with byte ranges where the layout fixes them.
    const known = RECORD_FIELDS[listKey] ?? {};
    const spans = recordSpans(listKey, n, base);
    const fields: InspectField[] = [];
    for (const [k, v] of Object.entries(n)) {
      if (k.startsWith('$')) continue;
      const meta = known[k];
      const kind: FieldKind = meta?.kind ?? (typeof v === 'string' ? 'string' : typeof v === 'number' ? 'i32' : Object.prototype.toString.call(v) === '[object Uint8Array]' ? 'bytes' : 'array');
      const f: InspectField = { name: k, kind, path: [...path, k], value: jsonValue(v) };
      if (meta?.note) f.note = meta.note;
      if (meta?.enumLabels) f.enumLabels = meta.enumLabels;
      if (meta?.readonly || kind === 'array' || kind === 'bytes') f.readonly = true;
      const sp = spans?.[k];
      if (sp) f.span = sp;
      fields.push(f);
    }
    return { title, fields };
  }
  return undefined;
}

/** Kinds and notes of the variable records' fields (everything not listed is inferred). */
const RECORD_FIELDS: Record<string, Record<string, Omit<Row, 'key'>>> = {
  bones: {
    boneId: { kind: 'i16', note: 'BoneID, 0..32767' },
    boneParentId: { kind: 'i16', note: 'BoneParentID: an earlier bone, or -1 for a root' },
    boneName: { kind: 'string', note: 'BoneName' },
  },
  faceGroups: {
    faceType: { kind: 'i32', note: 'FaceType: 2 per the text; 1 in older files (no normal indices)' },
    faceMode: { kind: 'u8', note: 'FaceMode: 0 = plain triangles' },
    faceName: { kind: 'string', note: 'FaceName' },
    isFaceVisible: { kind: 'bool', note: 'Face group visible' },
    faceMatNames: { kind: 'array', note: 'MAT1 material per texture set' },
    vertexIndex: { kind: 'array', note: 'Vertex index per corner (1, 2 or 4 bytes by MeshVertexCnt)' },
    smoothData: { kind: 'array', note: 'Smoothing-group bits per triangle' },
    normalIndex: { kind: 'array', note: 'Normal index per corner (absent for FaceType 1)' },
    txCrdsInd: { kind: 'array', note: 'Texture coordinate index per corner, per set' },
  },
  textures: {
    textureOptionSize: { kind: 'i32', note: 'Bytes from the record start to the data (computed when saving)', readonly: true },
    textureDataSize: { kind: 'i32', note: 'Bytes of texture data (computed when saving)', readonly: true },
    textureOptionType: { kind: 'i32', note: 'TextureOptionType, should be 0' },
    textureMaterialName: { kind: 'string', note: 'MAT1 material this texture loads into' },
    textureName: { kind: 'string', note: 'Texture file name' },
    textureOptionReserve: { kind: 'bytes', note: 'Reserved bytes, kept' },
    textureData: { kind: 'bytes', note: 'The embedded image file' },
  },
  shaders: {
    shaderSize: { kind: 'i32', note: 'Bytes after ShaderSize (computed when saving)', readonly: true },
    shaderType: { kind: 'u8', note: 'ShaderType: 1 = bump' },
    bumpName: { kind: 'string', note: 'Material the shader is attached to' },
    bumpNormalName: { kind: 'string', note: 'Material whose texture is the normal map' },
    bumpSpecularName: { kind: 'string', note: 'Material whose texture is the gloss map' },
    bumpLightPower: { kind: 'f32', note: 'Bump brightness' },
    bumpSpecularPower: { kind: 'f32', note: 'Bump specular power' },
    reserve: { kind: 'bytes', note: 'BumpRezerv (or the body of a non-bump shader), kept' },
  },
};

/** Byte ranges of fields at fixed offsets from a variable record's start. */
function recordSpans(listKey: string, n: Record<string, any>, base: number | undefined): Record<string, Span> | undefined {
  if (base === undefined) return undefined;
  const len = (s: unknown): number => (typeof s === 'string' ? s.length : 0);
  if (listKey === 'bones') {
    return { boneId: [base, base + 2], boneParentId: [base + 2, base + 4], boneName: [base + 4, base + 8 + len(n.boneName)] };
  }
  if (listKey === 'faceGroups') {
    const nameEnd = base + 9 + len(n.faceName);
    return { faceType: [base, base + 4], faceMode: [base + 4, base + 5], faceName: [base + 5, nameEnd], isFaceVisible: [nameEnd, nameEnd + 1] };
  }
  if (listKey === 'textures') {
    const m = base + 16 + len(n.textureMaterialName);
    return { textureOptionSize: [base, base + 4], textureDataSize: [base + 4, base + 8], textureOptionType: [base + 8, base + 12], textureMaterialName: [base + 12, m], textureName: [m, m + 4 + len(n.textureName)] };
  }
  return undefined;
}

// ---- info ----

/** Triangles of a mesh: the sum of its face groups' VertexIndCnt / 3. */
export function meshTriangles(m: Msh1Chunk): number {
  // lengthOf: a deferred index array (a sharing decode) is counted without being widened.
  return m.faceGroups.reduce((s, g) => s + Math.floor(lengthOf(g, 'vertexIndex') / 3), 0);
}

/** The `lodsmith info` summary. */
export function infoLod(doc: LodDocument, byteLength: number): FormatInfo {
  const meshes = chunksOf<Msh1Chunk>(doc, 'MSH1').map((m) => ({ name: m.meshName, vertices: m.meshPointsPos.length / 3, triangles: meshTriangles(m) }));
  const materials = chunksOf<Mat1Chunk>(doc, 'MAT1').flatMap((m) => m.materials.map((x) => x.matName));
  const skl = chunksOf<Skl1Chunk>(doc, 'SKL1')[0];
  const animations = chunksOf<Anm1Chunk>(doc, 'ANM1').map((a) => ({ name: a.animName, frames: a.count, intervalMs: a.animInterval }));
  const chunkCounts: Record<string, number> = {};
  for (const { chunk } of walkChunks(doc)) chunkCounts[chunk.id] = (chunkCounts[chunk.id] ?? 0) + 1;
  return {
    format: 'lodka-lod',
    version: doc.signature,
    bytes: byteLength,
    meshes,
    materials,
    bones: skl ? skl.bones.map((b) => b.boneName) : [],
    animations,
    chunks: chunkCounts,
    lightSchemes: chunksOf<{ name: string } & LodChunk>(doc, 'LIG1').map((l) => l.name),
    colliderSets: chunksOf<{ colListName: string } & LodChunk>(doc, 'COL1').map((c) => c.colListName),
    proxies: chunksOf<{ items: unknown[] } & LodChunk>(doc, 'PXI1').map((p) => ({ replacesMesh: p.count, items: p.items.length })),
    hasScreenshot: chunksOf(doc, 'IMG1').length > 0,
  };
}
