/**
 * The `grimrock-model` codec: Legend of Grimrock `.model` (MDL1 v2) with views and edits.
 */
import { batchRefusal, type EditCommand } from '../../model/commands.ts';
import type { Inspection, OutlineNode } from '../../model/outline.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { Problem } from '../../model/problems.ts';
import type { FormatCodec, FormatInfo } from '../registry.ts';
import { decodeModel, encodeModel, encodeModelPieces, probeModel } from './model-io.ts';
import { boneNodes, modelToScene } from './scene.ts';
import { GRIMROCK_MATERIALS } from './materials.ts';
import {
  Bone, MeshBounds, MeshEntityTail, MeshSegment, NodeHeader, VERTEX_ARRAY_NAMES, VertexArrayHeader,
  type GrimrockModel, type GrimrockNode,
} from './schema.ts';
import { field, structFields } from '../../model/inspect-fields.ts';

const IDENTITY_4X3 = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

export function modelInfo(doc: GrimrockModel, byteLength: number): FormatInfo {
  const materials = new Set<string>();
  const meshes: FormatInfo['meshes'] = [];
  for (const n of doc.nodes) {
    if (!n.mesh) continue;
    const md = n.mesh.meshData;
    for (const s of md.segments) materials.add(s.material);
    meshes.push({ name: n.name, vertices: md.numVertices, triangles: Math.floor(md.indices.length / 3) });
  }
  return {
    format: 'grimrock-model',
    version: doc.version,
    bytes: byteLength,
    meshes,
    materials: [...materials],
    bones: boneNodes(doc).map((i) => doc.nodes[i]?.name ?? `#${i}`),
    animations: [],
    nodes: doc.nodes.length,
  };
}

export function validateModel(doc: GrimrockModel): Problem[] {
  const out: Problem[] = [];
  const add = (severity: Problem['severity'], message: string, path: NodePath, offset?: number): void => {
    out.push({ severity, message, where: path.join('/'), path, ...(offset !== undefined ? { offset } : {}) });
  };
  const n = doc.nodes.length;
  if (n > 0 && doc.nodes[0]!.parent !== -1) add('error', 'the root node (first node) must have parent -1', ['nodes', 0, 'parent'], doc.nodes[0]!.$span?.[0]);
  doc.nodes.forEach((node, i) => {
    const at = node.$span?.[0];
    if (node.parent !== -1 && (node.parent < 0 || node.parent >= n)) add('error', `parent ${node.parent} is not a node index (0..${n - 1})`, ['nodes', i, 'parent'], at);
    else if (node.parent === i) add('error', 'node is its own parent', ['nodes', i, 'parent'], at);
    else {
      // Cycles make the hierarchy unusable for transforms.
      const seen = new Set<number>([i]);
      let p = node.parent;
      while (p >= 0 && p < n && !seen.has(p)) { seen.add(p); p = doc.nodes[p]!.parent; }
      if (p >= 0 && p < n) add('error', 'parent chain forms a cycle', ['nodes', i, 'parent'], at);
    }
    if (node.type !== -1 && node.type !== 0) add('error', `unknown entity type ${node.type}`, ['nodes', i, 'type'], at);
    const me = node.mesh;
    if (!me) return;
    const md = me.meshData;
    const base: NodePath = ['nodes', i, 'mesh', 'meshData'];
    md.vertexArrays.forEach((a, k) => {
      if (a.data.byteLength !== md.numVertices * a.stride) {
        add('error', `${VERTEX_ARRAY_NAMES[k]} holds ${a.data.byteLength} bytes, expected ${md.numVertices * a.stride}`, [...base, 'vertexArrays', k]);
      }
      if (a.stride > 0 && (a.dataType < 0 || a.dataType > 3)) add('warning', `${VERTEX_ARRAY_NAMES[k]} has unknown data type ${a.dataType}`, [...base, 'vertexArrays', k]);
    });
    for (let k = 0; k < md.indices.length; k++) {
      const v = md.indices[k]!;
      if (v < 0 || v >= md.numVertices) {
        add('error', `index ${k} is ${v}, outside 0..${md.numVertices - 1}`, [...base, 'indices']);
        break;
      }
    }
    if (md.indices.length % 3) add('warning', `index count ${md.indices.length} is not a multiple of 3`, [...base, 'indices']);
    md.segments.forEach((s, k) => {
      if (s.firstIndex < 0 || s.count < 0 || s.firstIndex + s.count * 3 > md.indices.length) {
        add('error', `segment covers indices ${s.firstIndex}..${s.firstIndex + s.count * 3} beyond ${md.indices.length}`, [...base, 'segments', k]);
      }
      if (s.primitiveType !== 2) add('warning', `primitive type ${s.primitiveType} (the spec says always 2)`, [...base, 'segments', k, 'primitiveType']);
    });
    me.bones.forEach((b, k) => {
      if (b.boneNodeIndex < 0 || b.boneNodeIndex >= n) add('error', `bone node index ${b.boneNodeIndex} is not a node`, ['nodes', i, 'mesh', 'bones', k, 'boneNodeIndex']);
    });
    const bi = md.vertexArrays[13];
    if (bi && bi.stride > 0 && me.bones.length > 0) {
      const d = bi.data as ArrayLike<number>;
      for (let k = 0; k < d.length; k++) {
        if (d[k]! >= me.bones.length || d[k]! < 0) {
          add('error', `bone index ${d[k]} at vertex ${Math.floor(k / Math.max(1, bi.dim))} exceeds ${me.bones.length} bones`, [...base, 'vertexArrays', 13]);
          break;
        }
      }
    }
  });
  return out;
}

export function modelOutline(doc: GrimrockModel): OutlineNode {
  const children: OutlineNode[] = doc.nodes.map((n, i) => {
    const kids: OutlineNode[] = [];
    if (n.mesh) {
      const md = n.mesh.meshData;
      const mdPath: NodePath = ['nodes', i, 'mesh', 'meshData'];
      kids.push({
        path: ['nodes', i, 'mesh'], name: 'mesh', label: `${md.numVertices} vertices`, kind: 'mesh', span: n.mesh.$span,
        children: [
          {
            path: mdPath, name: 'meshData', kind: 'container', span: md.$span,
            children: [
              ...md.vertexArrays.map((a, k): OutlineNode => ({
                path: [...mdPath, 'vertexArrays', k], name: `vertexArrays[${k}]`, label: VERTEX_ARRAY_NAMES[k],
                kind: 'array', count: a.stride > 0 ? md.numVertices : 0, span: a.$span,
              })),
              { path: [...mdPath, 'indices'], name: 'indices', kind: 'array', count: md.indices.length },
              ...md.segments.map((s, k): OutlineNode => ({
                path: [...mdPath, 'segments', k], name: `segments[${k}]`, label: s.material, kind: 'facegroup', count: s.count, span: s.$span,
              })),
            ],
          },
          ...n.mesh.bones.map((b, k): OutlineNode => ({
            path: ['nodes', i, 'mesh', 'bones', k], name: `bones[${k}]`, label: doc.nodes[b.boneNodeIndex]?.name, kind: 'bone', span: b.$span,
          })),
        ],
      });
    }
    return {
      path: ['nodes', i], name: `nodes[${i}]`, label: n.name, kind: n.mesh ? 'mesh' : 'node', span: n.$span,
      children: kids, actions: { remove: i > 0, add: ['node'] },
    };
  });
  return {
    path: [], name: 'MDL1', label: `Grimrock model v${doc.version}`, kind: 'file', span: doc.$span,
    children: [{ path: ['nodes'], name: 'nodes', kind: 'container', count: doc.nodes.length, children, actions: { add: ['node'] } }],
  };
}

export function modelInspect(doc: GrimrockModel, path: NodePath): Inspection | undefined {
  const v = getAt(doc, path) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return undefined;
  const p = path;
  const span = (v as { $span?: [number, number] }).$span;
  if (p.length === 0) {
    return {
      title: 'Grimrock model',
      fields: [
        field('magic', 'string', ['magic'], doc.magic, { readonly: true, note: 'FourCC "MDL1"' }),
        field('version', 'i32', ['version'], doc.version, { readonly: true, note: 'Always two' }),
        field('numNodes', 'i32', ['numNodes'], doc.nodes.length, { readonly: true, note: 'Number of nodes following' }),
      ],
    };
  }
  if (p.length === 2 && p[0] === 'nodes') return { title: `Node ${String((v as unknown as GrimrockNode).name)}`, fields: structFields(NodeHeader, v, p, span) };
  const last = p[p.length - 1];
  const prev = p[p.length - 2];
  if (last === 'mesh') {
    return { title: 'MeshEntity', fields: [field('numBones', 'i32', [...p, 'numBones'], (v.bones as unknown[]).length, { readonly: true }), ...structFields(MeshEntityTail, v, p)] };
  }
  if (last === 'meshData') {
    return {
      title: 'MeshData',
      fields: [
        field('magic', 'string', [...p, 'magic'], v.magic, { readonly: true }),
        field('version', 'i32', [...p, 'version'], v.version, { readonly: true }),
        field('numVertices', 'i32', [...p, 'numVertices'], v.numVertices, { readonly: true, note: 'Number of vertices following' }),
        field('numIndices', 'i32', [...p, 'numIndices'], (v.indices as Int32Array).length, { readonly: true }),
        field('indices', 'array', [...p, 'indices'], v.indices, { readonly: true }),
        field('numSegments', 'i32', [...p, 'numSegments'], (v.segments as unknown[]).length, { readonly: true }),
        ...structFields(MeshBounds, v, p),
      ],
    };
  }
  if (prev === 'vertexArrays' && typeof last === 'number') {
    return {
      title: `VertexArray ${VERTEX_ARRAY_NAMES[last] ?? last}`,
      fields: [...structFields(VertexArrayHeader, v, p, span).map((f) => ({ ...f, readonly: true })), field('data', 'array', [...p, 'data'], v.data, { readonly: true })],
    };
  }
  if (prev === 'segments') return { title: 'MeshSegment', fields: structFields(MeshSegment, v, p, span) };
  if (prev === 'bones') return { title: 'Bone', fields: structFields(Bone, v, p, span) };
  return undefined;
}

/** A new node (no entity) with identity transform under `parent`. */
export function blankNode(name: string, parent: number): GrimrockNode {
  return { name, localToParent: [...IDENTITY_4X3], parent, type: -1 };
}

/**
 * The edit that removes node `index` and keeps the hierarchy consistent: its children move to its
 * parent (their transforms pre-multiplied so they stay in place), and every parent index above it
 * shifts down. Returns undefined with a reason when the node cannot go (root, or used as a bone).
 */
export function removeNodeCommand(doc: GrimrockModel, index: number): EditCommand | string {
  const node = doc.nodes[index];
  if (!node) return `no node ${index}`;
  if (index === 0) return 'the root node cannot be removed';
  if (boneNodes(doc).includes(index)) return `node ${node.name} deforms a mesh (it is a bone) and cannot be removed`;
  const commands: EditCommand[] = [];
  doc.nodes.forEach((n, i) => {
    if (i === index) return;
    let parent = n.parent;
    if (parent === index) {
      parent = node.parent;
      commands.push({ op: 'set', path: ['nodes', i, 'localToParent'], value: combine4x3(node.localToParent, n.localToParent) });
    }
    if (parent > index) parent -= 1;
    if (parent !== n.parent) commands.push({ op: 'set', path: ['nodes', i, 'parent'], value: parent });
    n.mesh?.bones.forEach((b, k) => {
      if (b.boneNodeIndex > index) commands.push({ op: 'set', path: ['nodes', i, 'mesh', 'bones', k, 'boneNodeIndex'], value: b.boneNodeIndex - 1 });
    });
  });
  commands.push({ op: 'remove', path: ['nodes', index] });
  return { op: 'batch', commands, label: `Remove node ${node.name}` };
}

/** a * b for Mat4x3 (rows baseX, baseY, baseZ, translation; row-vector convention). */
function combine4x3(parent: readonly number[], child: readonly number[]): number[] {
  const out = new Array<number>(12).fill(0);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 3; c++) {
      let s = r === 3 ? parent[9 + c]! : 0;
      for (let k = 0; k < 3; k++) s += child[r * 3 + k]! * parent[k * 3 + c]!;
      out[r * 3 + c] = s;
    }
  }
  return out;
}

const EDITABLE_NODE_FIELDS = new Set(['name', 'localToParent', 'parent']);

export function checkModelEdit(doc: GrimrockModel, cmd: EditCommand): string | undefined {
  // A batch may remove a node after re-parenting (removeNodeCommand), so removes inside one are allowed.
  if (cmd.op === 'batch') return batchRefusal(cmd.commands.filter((c) => !(c.op === 'remove' && c.path[0] === 'nodes' && c.path.length === 2)), (c) => checkModelEdit(doc, c));
  const p = cmd.path;
  if (cmd.op === 'set') {
    const last = p[p.length - 1];
    if (p[0] === 'nodes' && p.length === 3 && typeof last === 'string') {
      if (!EDITABLE_NODE_FIELDS.has(last)) return `${last} cannot be edited directly`;
      const m = NodeHeader.checkField(last, cmd.value);
      if (m) return m;
      if (last === 'parent') {
        const v = cmd.value as number;
        if (v < -1 || v >= doc.nodes.length || v === p[1]) return `parent must be -1 or another node index below ${doc.nodes.length}`;
      }
      return undefined;
    }
    if (p[0] === 'nodes' && last === 'castShadow' && p[p.length - 2] === 'mesh') return MeshEntityTail.checkField('castShadow', cmd.value);
    if (p[0] === 'nodes' && last === 'emissiveColor') return MeshEntityTail.checkField('emissiveColor', cmd.value);
    if (p[p.length - 3] === 'segments' && typeof last === 'string') return MeshSegment.checkField(last, cmd.value);
    if (p[p.length - 3] === 'bones' && last === 'boneNodeIndex') {
      const v = cmd.value as number;
      return Number.isInteger(v) && v >= 0 && v < doc.nodes.length ? undefined : 'bone node index must name a node';
    }
    if (p[p.length - 3] === 'bones' && typeof last === 'string') return Bone.checkField(last, cmd.value);
    if (p.length === 5 && p[3] === 'meshData' && ['boundCenter', 'boundRadius', 'boundMin', 'boundMax'].includes(String(last))) {
      return MeshBounds.checkField(String(last), cmd.value);
    }
    return `${p.join('/')} cannot be edited`;
  }
  if (cmd.op === 'insert') {
    if (p.length === 1 && p[0] === 'nodes') {
      const n = cmd.value as GrimrockNode;
      if (!n || typeof n !== 'object' || typeof n.name !== 'string') return 'not a node';
      if (cmd.index === 0) return 'the root node must stay first';
      if (cmd.index !== doc.nodes.length) return 'nodes are added at the end so existing parent indices stay valid';
      if (n.parent < 0 || n.parent >= doc.nodes.length) return 'a new node needs an existing parent';
      return undefined;
    }
    return 'only nodes can be added';
  }
  if (cmd.op === 'remove') {
    if (p.length === 2 && p[0] === 'nodes') {
      const i = p[1] as number;
      const referenced = doc.nodes.some((n, k) => k !== i && n.parent >= i);
      if (i === 0) return 'the root node cannot be removed';
      if (referenced || boneNodes(doc).some((b) => b >= i)) return 'removing this node would break parent or bone indices: use the node remove action (removeNodeCommand)';
      return undefined;
    }
    return 'only nodes can be removed';
  }
  return 'moving nodes would break parent indices';
}

export function createModelNode(doc: GrimrockModel, parent: NodePath, kind: string): EditCommand | undefined {
  if (kind !== 'node') return undefined;
  const parentIndex = parent.length >= 2 && parent[0] === 'nodes' && typeof parent[1] === 'number' ? parent[1] : 0;
  if (doc.nodes.length === 0) return { op: 'insert', path: ['nodes'], index: 0, value: blankNode('root', -1), label: 'Add root node' };
  return { op: 'insert', path: ['nodes'], index: doc.nodes.length, value: blankNode(`node_${doc.nodes.length}`, parentIndex), label: 'Add node' };
}

export const grimrockModelCodec: FormatCodec<GrimrockModel> = {
  id: 'grimrock-model',
  label: 'Legend of Grimrock model',
  extensions: ['.model'],
  probe: probeModel,
  decode: (bytes) => decodeModel(bytes),
  // The decoder reads only the lengths of the arrays it reads, never their values (share.ts).
  inSitu: true,
  encode: (doc, opts) => encodeModel(doc, opts?.reuseRaw),
  encodePieces: (doc, opts) => encodeModelPieces(doc, opts?.reuseRaw),
  info: modelInfo,
  validate: validateModel,
  toScene: modelToScene,
  outline: modelOutline,
  inspect: modelInspect,
  checkEdit: checkModelEdit,
  create: createModelNode,
  animation: { role: 'model' },
  textures: { library: GRIMROCK_MATERIALS },
  gltf: {
    label: 'Legend of Grimrock model (.model)',
    extension: '.model',
    // A mesh, or the node that holds one.
    replaceable: (n) => n.kind === 'mesh' || (n.kind === 'node' && n.children?.some((c) => c.kind === 'mesh') === true),
    load: async () => (await import('./import.ts')).grimrockModelImporter,
  },
};
