/**
 * Decoding and encoding of Legend of Grimrock `.model` files (MDL1 version 2).
 * Every node, mesh entity, mesh data block and vertex array keeps `$raw`/`$span`, so an untouched
 * part is copied back as it came and a dirty part is written from its fields.
 */
import { BinaryReader } from '../../binary/reader.ts';
import { writePieces } from '../../binary/pieces.ts';
import { copyBytes, writeSized, type BinaryWriter } from '../../binary/writer.ts';
import { EncodeError } from '../../errors.ts';
import { reusable } from '../../model/lossless.ts';
import {
  Bone, DATA_TYPE_SIZES, MeshBounds, MeshEntityTail, MeshSegment, NodeHeader, VERTEX_ARRAY_NAMES, VertexArrayHeader,
  type GrimrockModel, type GrimrockNode, type MeshData, type MeshEntity, type VertexArray, type VertexData,
} from './schema.ts';
import { readExact, readSelf, writeExact, writeSelf, type ExactKeeping } from '../../model/exact.ts';

export const MODEL_MAGIC = 'MDL1';
const MESH_MAGIC = 'MESH';

export { probeGrimrockModel as probeModel } from './family.ts';

export function decodeModel(bytes: Uint8Array): GrimrockModel {
  const r = new BinaryReader(bytes);
  const magic = r.string(4, 'latin1', 'magic');
  if (magic !== MODEL_MAGIC) r.fail(`not a Grimrock model: magic "${magic}" is not "MDL1"`, 0);
  const version = r.i32();
  if (version !== 2) r.fail(`unsupported model version ${version} (only 2 is known)`, 4);
  // A node is at least 4 (name) + 48 + 4 + 4 bytes.
  const numNodes = r.within('nodes', () => countRecords(r, 60, 512, 'node'));
  const nodes: GrimrockNode[] = [];
  for (let i = 0; i < numNodes; i++) nodes.push(r.within(`nodes[${i}]`, () => readNode(r)));
  r.expectEnd('model file');
  return { magic, version, numNodes, nodes, $span: [0, bytes.length], $raw: bytes.subarray(0, bytes.length) };
}

/** An i32 record count, checked against the bytes left and charged to the budget before the list is built. */
export function countRecords(r: BinaryReader, minSize: number, recordBytes: number, what: string): number {
  const at = r.pos;
  const n = r.i32Count(minSize, what);
  r.chargeRecords(n, recordBytes, what, at);
  return n;
}

function readNode(r: BinaryReader): GrimrockNode {
  const start = r.pos;
  const ex: ExactKeeping = {};
  const h = readExact(NodeHeader, r, ex, 'header');
  const node: GrimrockNode = { name: h.name, localToParent: h.localToParent, parent: h.parent, type: h.type };
  if (ex.$exact) node.$exact = ex.$exact;
  if (h.type === 0) node.mesh = r.within('mesh', () => readMeshEntity(r));
  else if (h.type !== -1) r.fail(`unknown node entity type ${h.type}`, r.pos - 4);
  node.$span = [start, r.pos];
  node.$raw = r.viewAt(start, r.pos);
  return node;
}

function readMeshEntity(r: BinaryReader): MeshEntity {
  const start = r.pos;
  const meshData = r.within('meshData', () => readMeshData(r));
  const numBones = r.within('bones', () => countRecords(r, 52, 256, 'bone'));
  const bones = [];
  for (let i = 0; i < numBones; i++) bones.push(r.within(`bones[${i}]`, () => readSelf(Bone, r)));
  const ex: ExactKeeping = {};
  const tail = readExact(MeshEntityTail, r, ex, 'tail');
  return {
    ...ex, meshData, numBones, bones, emissiveColor: tail.emissiveColor, castShadow: tail.castShadow,
    $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
  };
}

function readMeshData(r: BinaryReader): MeshData {
  const start = r.pos;
  const magic = r.string(4, 'latin1', 'MESH magic');
  if (magic !== MESH_MAGIC) r.fail(`mesh data magic "${magic}" is not "MESH"`, start);
  const version = r.i32();
  if (version !== 2) r.fail(`unsupported mesh data version ${version} (only 2 is known)`, r.pos - 4);
  const nvAt = r.pos;
  const numVertices = r.i32();
  if (numVertices < 0) r.fail(`vertex count ${numVertices} is invalid`, nvAt);
  const vertexArrays: VertexArray[] = [];
  for (let a = 0; a < 15; a++) {
    vertexArrays.push(r.within(`vertexArrays[${a}]`, () => readVertexArray(r, numVertices)));
  }
  const numIndices = r.within('indices', () => r.i32Count(4, 'index'));
  const indices = r.within('indices', () => r.i32Array(numIndices, 'indices'));
  const numSegments = r.within('segments', () => countRecords(r, 16, 256, 'segment'));
  const segments = [];
  for (let i = 0; i < numSegments; i++) segments.push(r.within(`segments[${i}]`, () => readSelf(MeshSegment, r)));
  const ex: ExactKeeping = {};
  const b = readExact(MeshBounds, r, ex, 'bounds');
  return {
    ...ex, magic, version, numVertices, vertexArrays, numIndices, indices, numSegments, segments,
    boundCenter: b.boundCenter, boundRadius: b.boundRadius, boundMin: b.boundMin, boundMax: b.boundMax,
    $span: [start, r.pos], $raw: r.viewAt(start, r.pos),
  };
}

/** The typed-array form of a vertex array, or undefined when only raw bytes can hold it. */
export function packedKind(dataType: number, dim: number, stride: number): 'u8' | 'i16' | 'i32' | 'f32' | undefined {
  if (dim <= 0 || dataType < 0 || dataType > 3) return undefined;
  if (stride !== dim * DATA_TYPE_SIZES[dataType as 0 | 1 | 2 | 3]) return undefined;
  return (['u8', 'i16', 'i32', 'f32'] as const)[dataType];
}

function readVertexArray(r: BinaryReader, numVertices: number): VertexArray {
  const start = r.pos;
  const h = VertexArrayHeader.read(r);
  if (h.stride < 0) r.fail(`stride ${h.stride} is invalid`, start + 8);
  const size = numVertices * h.stride;
  r.need(size, `vertex data (${numVertices} vertices x ${h.stride} bytes)`);
  let data: VertexData;
  switch (packedKind(h.dataType, h.dim, h.stride)) {
    case 'i16': data = r.i16Array(size / 2, 'vertex data'); break;
    case 'i32': data = r.i32Array(size / 4, 'vertex data'); break;
    case 'f32': data = r.f32Array(size / 4, 'vertex data'); break;
    default: data = r.u8Array(size, 'vertex data');
  }
  return { dataType: h.dataType, dim: h.dim, stride: h.stride, data, $span: [start, r.pos], $raw: r.viewAt(start, r.pos) };
}

export function encodeModel(doc: GrimrockModel, reuseRaw?: boolean): Uint8Array {
  if (reusable(doc, reuseRaw)) return copyBytes(doc.$raw);
  // Measured first, then written into one buffer of exactly that size (no growth copies).
  return writeSized((w) => writeModel(w, doc, reuseRaw));
}

/** The bytes of {@link encodeModel} as pieces: views of the document's large arrays and raw bytes. */
export function encodeModelPieces(doc: GrimrockModel, reuseRaw?: boolean): Uint8Array[] {
  if (reusable(doc, reuseRaw)) return [doc.$raw];
  return writePieces((w) => writeModel(w, doc, reuseRaw));
}

function writeModel(w: BinaryWriter, doc: GrimrockModel, reuseRaw?: boolean): void {
  w.string(doc.magic);
  w.i32(doc.version);
  w.i32(doc.nodes.length);
  doc.nodes.forEach((n, i) => writeNode(w, n, `nodes[${i}]`, reuseRaw));
}

function writeNode(w: BinaryWriter, n: GrimrockNode, path: string, reuseRaw?: boolean): void {
  if (reusable(n, reuseRaw)) return w.bytes(n.$raw);
  if (n.type === 0 && !n.mesh) throw new EncodeError('node type 0 needs a mesh entity', path);
  if (n.type !== 0 && n.mesh) throw new EncodeError('a node with a mesh entity must have type 0', path);
  writeExact(NodeHeader, w, n, n, 'header');
  if (n.mesh) writeMeshEntity(w, n.mesh, `${path}/mesh`, reuseRaw);
}

function writeMeshEntity(w: BinaryWriter, m: MeshEntity, path: string, reuseRaw?: boolean): void {
  if (reusable(m, reuseRaw)) return w.bytes(m.$raw);
  writeMeshData(w, m.meshData, `${path}/meshData`, reuseRaw);
  w.i32(m.bones.length);
  for (const b of m.bones) writeSelf(Bone, w, b);
  writeExact(MeshEntityTail, w, m, m, 'tail');
}

function writeMeshData(w: BinaryWriter, d: MeshData, path: string, reuseRaw?: boolean): void {
  if (reusable(d, reuseRaw)) return w.bytes(d.$raw);
  w.string(d.magic);
  w.i32(d.version);
  w.i32(d.numVertices);
  if (d.vertexArrays.length !== 15) throw new EncodeError(`expected 15 vertex arrays, got ${d.vertexArrays.length}`, path);
  d.vertexArrays.forEach((a, i) => {
    if (reusable(a, reuseRaw)) return w.bytes(a.$raw);
    const bytes = a.data.byteLength;
    if (bytes !== d.numVertices * a.stride) {
      throw new EncodeError(
        `${VERTEX_ARRAY_NAMES[i]} holds ${bytes} bytes but numVertices x stride is ${d.numVertices * a.stride}`,
        `${path}/vertexArrays[${i}]`,
      );
    }
    VertexArrayHeader.write(w, a);
    w.typed(a.data);
  });
  w.i32(d.indices.length);
  w.typed(d.indices);
  w.i32(d.segments.length);
  for (const s of d.segments) writeSelf(MeshSegment, w, s);
  writeExact(MeshBounds, w, d, d, 'bounds');
}
