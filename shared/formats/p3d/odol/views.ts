/** Structure tree and inspector for ODOL documents. */
import type { Span } from '../../../binary/reader.ts';
import type { InspectField, Inspection, OutlineNode } from '../../../model/outline.ts';
import { getAt, type NodePath } from '../../../model/path.ts';
import type { FieldInfo, FieldKind, Struct, FieldMap } from '../../../schema/schema.ts';
import { resolutionLabel, resolutionName } from '../resolution.ts';
import type { OdolDocument } from './document.ts';
import type { OdolLod } from './lod.ts';
import type { OdolV4xDocument } from './model.ts';
import { loadableLodInfo, lodBounds, modelInfoHead, modelInfoTail, proxyStruct, sectionHead, stageTransformStruct } from './schema.ts';
import { v7Footer, v7Proxy, type OdolV7Lod } from './v7.ts';

const spanOf = (x: unknown): Span | undefined => (x && typeof x === 'object' && '$span' in x ? (x as { $span?: Span }).$span : undefined);

function leaf(path: NodePath, name: string, node: unknown, kind: OutlineNode['kind'], extra: Partial<OutlineNode> = {}): OutlineNode {
  const span = spanOf(node);
  return { path, name, kind, ...(span ? { span } : {}), ...extra };
}

function listNode<T>(path: NodePath, name: string, items: T[], kind: OutlineNode['kind'], child: (x: T, i: number) => OutlineNode, extra: Partial<OutlineNode> = {}): OutlineNode {
  const children = items.map(child);
  const spans = children.map((c) => c.span).filter((s): s is Span => !!s);
  const span: Span | undefined = spans.length ? [Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))] : undefined;
  return { path, name, kind, count: items.length, children, ...(span ? { span } : {}), ...extra };
}

function lodNode(doc: OdolDocument, lod: OdolLod | OdolV7Lod, i: number): OutlineNode {
  const p: NodePath = ['lods', i];
  const children: OutlineNode[] = [];
  children.push(listNode([...p, 'proxies'], 'proxies', lod.proxies as Record<string, unknown>[], 'proxies', (x, k) => leaf([...p, 'proxies', k], `proxy[${k}]`, x, 'proxy', { label: String(x.name), actions: { remove: true } }), { actions: { add: ['proxy'] } }));
  children.push(listNode([...p, 'textures'], 'textures', lod.textures, 'textures', (t, k) => ({ path: [...p, 'textures', k], name: `texture[${k}]`, label: t, kind: 'texture' })));
  if ('materials' in lod) {
    children.push(listNode([...p, 'materials'], 'materials', lod.materials, 'materials', (m, k) => leaf([...p, 'materials', k], `material[${k}]`, m, 'material', { label: m.name })));
  }
  children.push(leaf([...p, 'faces'], 'faces', lod.faces, 'array', { count: lod.faces.sizes.length }));
  if ('sections' in lod && Array.isArray(lod.sections)) {
    children.push(listNode([...p, 'sections'], 'sections', lod.sections, 'array', (s, k) => leaf([...p, 'sections', k], `section[${k}]`, s, 'facegroup')));
  }
  children.push(listNode([...p, 'namedSelections'], 'namedSelections', lod.namedSelections as { name: string }[], 'array', (s, k) => leaf([...p, 'namedSelections', k], `selection[${k}]`, s, 'selection', { label: s.name })));
  children.push(listNode([...p, 'namedProperties'], 'namedProperties', lod.namedProperties, 'array', (s, k) => ({ path: [...p, 'namedProperties', k], name: `property[${k}]`, label: `${s.name} = ${s.value}`, kind: 'property', actions: { remove: true } }), { actions: { add: ['property'] } }));
  children.push(listNode([...p, 'frames'], 'frames', lod.frames as object[], 'array', (f, k) => ({ path: [...p, 'frames', k], name: `frame[${k}]`, kind: 'record' })));
  const arrays = 'positions' in lod
    ? (['pointFlags', 'uvs', 'positions', 'normals', 'pointToVertex', 'vertexToPoint'] as const)
    : (['clipOld', 'clip', 'vertices', 'normals', 'stCoords', 'vertexBoneRef', 'neighborBoneRef', 'pointToVertex', 'vertexToPoint'] as const);
  for (const k of arrays) {
    const a = (lod as unknown as Record<string, { data: ArrayLike<number> } | undefined>)[k];
    if (a) children.push(leaf([...p, k], k, a, 'array', { count: a.data.length }));
  }
  if ('uvSets' in lod) children.push(listNode([...p, 'uvSets'], 'uvSets', lod.uvSets, 'array', (s, k) => leaf([...p, 'uvSets', k], `uvSet[${k}]`, s, 'array')));
  const name = resolutionLabel(lod.resolution);
  return { path: p, name: `lod[${i}]`, label: name, kind: 'lod', children, ...(lod.$span ? { span: lod.$span } : {}) };
}

export function outlineOdol(doc: OdolDocument): OutlineNode {
  const children: OutlineNode[] = [];
  if (doc.version === 7) {
    children.push(listNode(['lods'], 'lods', doc.lods as OdolV7Lod[], 'meshes', (l, i) => lodNode(doc, l, i)));
    const footer = (doc as { footer?: unknown }).footer;
    children.push({ path: ['footer'], name: 'footer', kind: 'info', ...(spanOf(footer) ? { span: spanOf(footer)! } : {}) });
  } else {
    const d = doc as OdolV4xDocument;
    const mi = d.modelInfo;
    children.push({
      path: ['modelInfo'], name: 'modelInfo', kind: 'info', ...(mi.$span ? { span: mi.$span } : {}),
      children: [
        { path: ['modelInfo', 'skeleton'], name: 'skeleton', label: mi.skeleton.name, kind: 'skeleton', count: mi.skeleton.bones.length,
          children: mi.skeleton.bones.map((b, k) => ({ path: ['modelInfo', 'skeleton', 'bones', k], name: `bone[${k}]`, label: b.name, kind: 'bone' as const })) },
        leaf(['modelInfo', 'massArray'], 'massArray', mi.massArray, 'array', { count: mi.massArray.data.length }),
      ],
    });
    if (d.animations) {
      const a = d.animations;
      children.push(listNode(['animations', 'classes'], 'animations', a.classes, 'animation', (c, k) => leaf(['animations', 'classes', k], `class[${k}]`, c, 'animation', { label: c.name })));
    }
    children.push({ path: ['lodInfo'], name: 'lodInfo', kind: 'container', count: d.lodInfo.length });
    children.push(listNode(['lods'], 'lods', d.lods, 'meshes', (l, i) => lodNode(doc, l, i)));
    if (d.physx) children.push({ path: ['physx'], name: 'physx', kind: 'physics', count: d.physx.lists.reduce((s, l) => s + l.meshes.length, 0) });
    if (d.trailer.length) children.push({ path: ['trailer'], name: 'trailer', kind: 'raw', count: d.trailer.length, actions: { bytes: true } });
  }
  return { path: [], name: `ODOL v${doc.version}`, kind: 'file', children, span: [0, Number.MAX_SAFE_INTEGER] };
}

/** The schema of the record at `path`, when it is one of the fixed records. */
function schemaAt(doc: OdolDocument, path: NodePath): Struct<FieldMap> | undefined {
  const v = doc.version;
  const s = path.map((k) => (typeof k === 'number' ? '#' : k)).join('/');
  if (v === 7) {
    if (s === 'footer') return v7Footer;
    if (s === 'lods/#/proxies/#') return v7Proxy;
    return undefined;
  }
  const n = doc.lods.length;
  switch (s) {
    case 'modelInfo/head': return modelInfoHead(v);
    case 'modelInfo/tail': return modelInfoTail(v, n);
    case 'lods/#/bounds': return lodBounds(v);
    case 'lods/#/proxies/#': return proxyStruct(v);
    case 'lods/#/sections/#': return sectionHead;
    case 'lods/#/materials/#/stageTransforms/#': return stageTransformStruct;
    case 'lodInfo/#/info': return loadableLodInfo(v);
  }
  return undefined;
}

/** A packed array node (`{ data: typed array, ... }`): shown as its values' table. */
const isPacked = (x: unknown): x is { data: ArrayLike<number> } => !!x && typeof x === 'object' && !Array.isArray(x) && ArrayBuffer.isView((x as { data?: unknown }).data);

function kindOf(x: unknown): FieldKind {
  if (typeof x === 'string') return 'string';
  if (isPacked(x)) return 'array';
  if (typeof x === 'number') return Number.isInteger(x) ? 'i32' : 'f32';
  if (ArrayBuffer.isView(x)) return 'array';
  if (Array.isArray(x)) return x.every((e) => typeof e === 'number') && x.length === 3 ? 'vec3' : 'array';
  return 'struct';
}

function jsonValue(x: unknown): unknown {
  if (ArrayBuffer.isView(x)) return `${(x as unknown as ArrayLike<number>).length} values`;
  if (isPacked(x)) return `${x.data.length} values`;
  if (Array.isArray(x) && !x.every((e) => typeof e !== 'object')) return `${x.length} items`;
  if (x && typeof x === 'object') return '{...}';
  return x;
}

export function inspectOdol(doc: OdolDocument, path: NodePath): Inspection | undefined {
  const node = getAt(doc, path);
  if (!node || typeof node !== 'object') return undefined;
  const schema = schemaAt(doc, path);
  const fields: InspectField[] = [];
  const base = spanOf(node)?.[0];
  const layout = schema && base !== undefined ? schema.layout(node as never, base) : undefined;
  const infos = new Map<string, FieldInfo & { span?: Span }>((layout ?? schema?.fields ?? []).map((f) => [f.name, f]));
  const keys = Array.isArray(node) ? node.map((_, i) => String(i)) : Object.keys(node).filter((k) => !k.startsWith('$'));
  for (const k of keys) {
    const value = (node as Record<string, unknown>)[k];
    const info = infos.get(k);
    const key: string | number = Array.isArray(node) ? Number(k) : k;
    fields.push({ name: k, kind: info?.kind ?? kindOf(value), ...(info ?? {}), path: [...path, key], value: jsonValue(value) });
  }
  const packed = node as { data?: unknown; packed?: Uint8Array; flag?: number; fill?: number; fillCount?: number; $span?: Span };
  if (ArrayBuffer.isView(packed.data)) {
    // A compressed array: say how it is stored, next to its values.
    const span = packed.$span;
    fields.push(
      { name: 'stored', kind: 'string', readonly: true, path: [...path, '$stored'], note: 'How the array is stored in the file',
        value: packed.fill ? `filled (${packed.fillCount ?? 0} copies of one element)` : packed.packed ? `compressed, ${packed.packed.length} bytes` : 'raw' },
      ...(span ? [{ name: 'storedBytes', kind: 'u32' as const, readonly: true, path: [...path, '$span'], value: span[1] - span[0], span }] : []),
    );
  }
  const title = path.length === 0 ? `ODOL v${doc.version}` : path.join('/');
  if (path.length === 2 && path[0] === 'lods') {
    const lod = doc.lods[path[1] as number] as OdolLod | undefined;
    if (lod) return { title: `${title} (${resolutionName(lod.resolution)})`, fields };
  }
  return { title, fields };
}
