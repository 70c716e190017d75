/**
 * What the CLI and the editor see of an MLOD document: `info`, `validate`, the outline tree and
 * the inspector rows.
 */
import type { InspectField, Inspection, OutlineNode, NodeKind } from '../../../model/outline.ts';
import { getAt, type NodePath } from '../../../model/path.ts';
import type { Problem } from '../../../model/problems.ts';
import type { FieldInfo, Struct } from '../../../schema/schema.ts';
import type { FormatInfo } from '../../registry.ts';
import { resolutionKind, resolutionLabel, resolutionName } from '../resolution.ts';
import { FACE_FLAG_LABELS, mlodStructs, POINT_FLAG_LABELS } from './schema.ts';
import { END_OF_FILE, isSpecialTagName, type MlodDocument, type MlodLod, type MlodTag } from './types.ts';
import { field, jsonSafe } from '../../../model/inspect-fields.ts';

/** Triangles a face becomes: quads count as two. */
function faceTriangles(lod: MlodLod): number {
  // An index loop: `for...of` over a typed array runs the iterator protocol per element, which
  // costs ~10x as much in a short-lived process where this runs unoptimised.
  const counts = lod.faces.vertexCount;
  let t = 0;
  for (let i = 0; i < counts.length; i++) {
    const vc = counts[i]!;
    t += vc === 4 ? 2 : vc === 3 ? 1 : 0;
  }
  return t;
}

/** Distinct texture and material paths actually used by faces (empty paths left out). */
export function usedPaths(doc: MlodDocument): { textures: string[]; materials: string[] } {
  const textures = new Set<string>();
  const materials = new Set<string>();
  for (const lod of doc.lods) {
    const f = lod.faces;
    const usedT = new Uint8Array(f.textures.length);
    const usedM = new Uint8Array(f.materials.length);
    for (let i = 0; i < f.textureIndex.length; i++) usedT[f.textureIndex[i]!] = 1;
    for (let i = 0; i < f.materialIndex.length; i++) usedM[f.materialIndex[i]!] = 1;
    f.textures.forEach((t, i) => { if (usedT[i] && t) textures.add(t); });
    f.materials.forEach((m, i) => { if (usedM[i] && m) materials.add(m); });
  }
  return { textures: [...textures], materials: [...materials] };
}

export function mlodInfo(doc: MlodDocument, byteLength: number): FormatInfo {
  const { textures, materials } = usedPaths(doc);
  const bones: string[] = [];
  // MLOD has no skeleton of its own (skeletons live in model.cfg); none is reported.
  return {
    format: 'p3d-mlod',
    version: doc.version,
    bytes: byteLength,
    meshes: doc.lods.map((lod) => ({
      name: resolutionName(lod.resolution),
      vertices: lod.pointFlags.length,
      triangles: faceTriangles(lod),
    })),
    materials,
    textures,
    bones,
    animations: [],
    lods: doc.lods.map((lod) => ({
      name: resolutionName(lod.resolution),
      resolution: lod.resolution,
      kind: resolutionKind(lod.resolution),
      signature: lod.signature,
      points: lod.pointFlags.length,
      faces: lod.faces.vertexCount.length,
      selections: lod.tags.filter((t) => t.type === 'selection' && !isSpecialTagName(t.name)).length,
    })),
  };
}

export function mlodValidate(doc: MlodDocument): Problem[] {
  const out: Problem[] = [];
  const add = (severity: Problem['severity'], message: string, path: NodePath, offset?: number): void => {
    out.push({ severity, message, where: path.join('/'), path, ...(offset !== undefined ? { offset } : {}) });
  };
  if (doc.version !== 0x101) add('warning', `MLOD version 0x${doc.version.toString(16)} (0x101 expected)`, ['version'], 4);
  if (doc.lods.length === 0) add('error', 'the model has no LODs', ['lods']);
  const seen = new Map<string, number>();
  doc.lods.forEach((lod, li) => {
    const base: NodePath = ['lods', li];
    const at = lod.$span?.[0];
    const name = resolutionName(lod.resolution);
    const key = String(Math.fround(lod.resolution));
    if (seen.has(key)) add('error', `LOD ${name} appears twice (also LOD ${seen.get(key)})`, [...base, 'resolution'], at);
    else seen.set(key, li);
    const nPoints = lod.pointFlags.length;
    const nNormals = lod.normals.length / 3;
    const f = lod.faces;
    const nFaces = f.vertexCount.length;
    let badPoint = 0;
    let badNormal = 0;
    let badCount = 0;
    let firstBad = -1;
    for (let i = 0; i < nFaces; i++) {
      const vc = f.vertexCount[i]!;
      if (vc !== 3 && vc !== 4) {
        badCount++;
        continue;
      }
      for (let k = 0; k < vc; k++) {
        if (f.pointIndex[i * 4 + k]! >= nPoints) {
          badPoint++;
          if (firstBad < 0) firstBad = i;
        }
        if (nNormals > 0 && f.normalIndex[i * 4 + k]! >= nNormals) badNormal++;
      }
    }
    if (badCount) add('error', `${badCount} faces have a vertex count other than 3 or 4`, [...base, 'faces', 'vertexCount'], at);
    if (badPoint) add('error', `${badPoint} face vertices point past the ${nPoints} points (first in face ${firstBad})`, [...base, 'faces', 'pointIndex'], at);
    if (badNormal) add('warning', `${badNormal} face vertices point past the ${nNormals} normals`, [...base, 'faces', 'normalIndex'], at);
    if (f.textureIndex.some((t) => t >= f.textures.length)) add('error', 'a face refers to a texture outside the texture table', [...base, 'faces', 'textureIndex']);
    if (f.materialIndex.some((m) => m >= f.materials.length)) add('error', 'a face refers to a material outside the material table', [...base, 'faces', 'materialIndex']);
    if (lod.signature === 'SP3X') {
      f.textures.forEach((t, i) => { if (t.length > 32) add('error', `texture path "${t}" is longer than the 32 bytes SP3X allows`, [...base, 'faces', 'textures', i]); });
    }
    const props = new Map<string, number>();
    let hasMass = false;
    lod.tags.forEach((tag, ti) => {
      const tp: NodePath = [...base, 'tags', ti];
      const tagAt = tag.$span?.[0];
      if (tag.type === 'end' && ti !== lod.tags.length - 1) add('error', `${END_OF_FILE} must be the last tag`, tp, tagAt);
      if (tag.type === 'selection' && (tag.points.length !== nPoints || tag.faces.length !== nFaces)) {
        add('error', `selection "${tag.name}" has ${tag.points.length} point and ${tag.faces.length} face weights; the LOD has ${nPoints} points and ${nFaces} faces`, tp, tagAt);
      }
      if (tag.type === 'raw' && !isSpecialTagName(tag.name)) {
        add('error', `selection "${tag.name}" holds ${tag.data.length} bytes; ${nPoints + nFaces} (points + faces) expected`, tp, tagAt);
      }
      if (tag.type === 'raw' && ['#Mass#', '#Property#', '#UVSet#', '#Animation#'].includes(tag.name)) {
        add('warning', `${tag.name} holds ${tag.data.length} bytes, which does not fit its layout; kept as raw bytes`, tp, tagAt);
      }
      if (tag.type === 'mass') {
        hasMass = true;
        if (tag.masses.length !== nPoints) add('error', `#Mass# has ${tag.masses.length} values for ${nPoints} points`, tp, tagAt);
      }
      if (tag.type === 'uvset') {
        let verts = 0;
        for (const vc of f.vertexCount) verts += Math.min(4, vc);
        if (tag.uv.length !== verts * 2) add('error', `#UVSet# ${tag.setId} has ${tag.uv.length / 2} UVs for ${verts} face vertices`, tp, tagAt);
      }
      if (tag.type === 'sharpEdges') {
        for (const p of tag.edges) {
          if (p >= nPoints) {
            add('error', `#SharpEdges# refers to point ${p} of ${nPoints}`, tp, tagAt);
            break;
          }
        }
      }
      if (tag.type === 'property') {
        const k = tag.key.toLowerCase();
        if (props.has(k)) add('warning', `property "${tag.key}" is set twice in this LOD`, tp, tagAt);
        props.set(k, ti);
        if (tag.key.length > 64 || tag.value.length > 64) add('error', 'property names and values are limited to 64 bytes', tp, tagAt);
      }
    });
    if (lod.tags.length === 0 || lod.tags[lod.tags.length - 1]!.type !== 'end') add('error', `the tag list does not end with ${END_OF_FILE}`, [...base, 'tags'], at);
    if (resolutionKind(lod.resolution) === 'geometry' && name === 'Geometry' && !hasMass && nPoints > 0) {
      add('warning', 'the Geometry LOD has no #Mass#: the object will have no mass', base, at);
    }
  });
  const kinds = doc.lods.map((l) => resolutionName(l.resolution));
  if (doc.lods.length > 0 && !kinds.includes('Geometry')) add('warning', 'no Geometry LOD: the object will not collide', ['lods']);
  if (doc.lods.length > 0 && !doc.lods.some((l) => resolutionKind(l.resolution) === 'visual')) {
    add('warning', 'no visual (resolution) LOD: nothing is drawn at a distance', ['lods']);
  }
  return out;
}

const TAG_KIND: Record<MlodTag['type'], NodeKind> = {
  selection: 'selection', property: 'property', mass: 'info', uvset: 'array', sharpEdges: 'array',
  animation: 'animation', raw: 'raw', end: 'info',
};

export function mlodOutline(doc: MlodDocument): OutlineNode {
  return {
    path: [], name: 'MLOD', label: `MLOD v0x${doc.version.toString(16)}`, kind: 'file', span: doc.$span,
    children: [{
      path: ['lods'], name: 'lods', kind: 'container', count: doc.lods.length, actions: { add: ['lod'] },
      children: doc.lods.map((lod, li): OutlineNode => {
        const base: NodePath = ['lods', li];
        const f = lod.faces;
        return {
          path: base, name: `lods[${li}]`, label: `${resolutionLabel(lod.resolution)} (${lod.signature})`, kind: 'lod',
          count: f.vertexCount.length, span: lod.$span, actions: { remove: true, duplicate: true, move: true, add: ['property', 'selection'] },
          children: [
            { path: [...base, 'points'], name: 'points', kind: 'array', count: lod.pointFlags.length },
            { path: [...base, 'normals'], name: 'normals', kind: 'array', count: lod.normals.length / 3 },
            {
              path: [...base, 'faces'], name: 'faces', kind: 'meshes', count: f.vertexCount.length, span: f.$span,
              children: [
                {
                  path: [...base, 'faces', 'textures'], name: 'textures', kind: 'textures', count: f.textures.length,
                  children: f.textures.map((t, i): OutlineNode => ({ path: [...base, 'faces', 'textures', i], name: `textures[${i}]`, label: t || '(none)', kind: 'texture' })),
                },
                {
                  path: [...base, 'faces', 'materials'], name: 'materials', kind: 'materials', count: f.materials.length,
                  children: f.materials.map((m, i): OutlineNode => ({ path: [...base, 'faces', 'materials', i], name: `materials[${i}]`, label: m || '(none)', kind: 'material' })),
                },
              ],
            },
            {
              path: [...base, 'tags'], name: 'tags', kind: 'container', count: lod.tags.length, actions: { add: ['property', 'selection'] },
              children: lod.tags.map((t, ti): OutlineNode => ({
                path: [...base, 'tags', ti], name: `tags[${ti}]`, label: tagLabel(t), kind: TAG_KIND[t.type], span: t.$span,
                actions: { remove: t.type !== 'end', bytes: t.type === 'raw' },
              })),
            },
          ],
        };
      }),
    }],
  };
}

function tagLabel(t: MlodTag): string {
  if (t.type === 'property') return `${t.key} = ${t.value}`;
  if (t.type === 'uvset') return `#UVSet# ${t.setId}`;
  return t.name;
}

function fromStruct(s: Struct<any>, name: string, path: NodePath, value: unknown, extra: Partial<FieldInfo> = {}): InspectField {
  const info = s.fields.find((f) => f.name === name)!;
  return { ...info, ...extra, path, value: jsonSafe(value) };
}

export function mlodInspect(doc: MlodDocument, path: NodePath): Inspection | undefined {
  const v = getAt(doc, path);
  if (v === undefined) return undefined;
  const p = path;
  if (p.length === 0) {
    return {
      title: 'MLOD file',
      fields: [
        fromStruct(mlodStructs().MlodHeader, 'signature', ['signature'], doc.signature, { kind: 'string' }),
        fromStruct(mlodStructs().MlodHeader, 'version', ['version'], doc.version),
        fromStruct(mlodStructs().MlodHeader, 'lodCount', ['lods'], doc.lods.length),
        field('trailing', 'bytes', ['trailing'], doc.trailing, { readonly: true, note: 'Bytes after the last LOD' }),
      ],
    };
  }
  if (p[0] !== 'lods' || typeof p[1] !== 'number') return undefined;
  const lod = doc.lods[p[1]];
  if (!lod) return undefined;
  const base: NodePath = ['lods', p[1]];
  if (p.length === 2) {
    return {
      title: `LOD ${resolutionName(lod.resolution)}`,
      fields: [
        fromStruct(mlodStructs().LodHeader, 'signature', [...base, 'signature'], lod.signature, { kind: 'enum', enumLabels: { 0: 'P3DM', 1: 'SP3X' }, readonly: true }),
        fromStruct(mlodStructs().LodHeader, 'headerSize', [...base, 'headerSize'], 28 + lod.headerExtra.length),
        fromStruct(mlodStructs().LodHeader, 'version', [...base, 'version'], lod.version),
        fromStruct(mlodStructs().LodHeader, 'pointCount', [...base, 'points'], lod.pointFlags.length),
        fromStruct(mlodStructs().LodHeader, 'normalCount', [...base, 'normals'], lod.normals.length / 3),
        fromStruct(mlodStructs().LodHeader, 'faceCount', [...base, 'faces'], lod.faces.vertexCount.length),
        fromStruct(mlodStructs().LodHeader, 'flags', [...base, 'flags'], lod.flags),
        field('resolution', 'f32', [...base, 'resolution'], lod.resolution, { note: `LOD resolution (${resolutionName(lod.resolution)}, ${resolutionKind(lod.resolution)})` }),
      ],
    };
  }
  const sub = p[2];
  if (sub === 'points' && p.length === 3) {
    return { title: 'Points', fields: [field('points', 'array', p, lod.points, { readonly: true, note: 'x, y, z per point' }), field('pointFlags', 'array', [...base, 'pointFlags'], lod.pointFlags, { flagLabels: POINT_FLAG_LABELS, note: 'Point flags per point (select a point for its flag names)' })] };
  }
  if (sub === 'points' && typeof p[3] === 'number') {
    // `points` is a flat x, y, z array, so a path element is a float index: show its point.
    const i = Math.floor(p[3] / 3);
    return {
      title: `Point ${i}`,
      fields: [
        field('x', 'f32', [...base, 'points', i * 3], lod.points[i * 3]), field('y', 'f32', [...base, 'points', i * 3 + 1], lod.points[i * 3 + 1]),
        field('z', 'f32', [...base, 'points', i * 3 + 2], lod.points[i * 3 + 2]),
        field('flags', 'flags', [...base, 'pointFlags', i], lod.pointFlags[i], { flagLabels: POINT_FLAG_LABELS, note: 'Point flags' }),
      ],
    };
  }
  if (sub === 'normals') return { title: 'Normals', fields: [field('normals', 'array', [...base, 'normals'], lod.normals, { readonly: true, note: 'x, y, z per normal' })] };
  if (sub === 'faces') {
    const f = lod.faces;
    if (p.length === 3) {
      return {
        title: 'Faces',
        fields: [
          field('faceCount', 'u32', [...base, 'faces', 'vertexCount'], f.vertexCount.length, { readonly: true }),
          field('vertexCount', 'array', [...base, 'faces', 'vertexCount'], f.vertexCount, { readonly: true, note: '3 or 4 per face' }),
          field('pointIndex', 'array', [...base, 'faces', 'pointIndex'], f.pointIndex, { readonly: true, note: mlodStructs().FaceVertex.fields[0]!.note }),
          field('flags', 'array', [...base, 'faces', 'flags'], f.flags, { flagLabels: FACE_FLAG_LABELS, note: 'Face flags per face' }),
          field('textures', 'array', [...base, 'faces', 'textures'], f.textures.length, { readonly: true, note: 'Distinct texture paths' }),
          field('materials', 'array', [...base, 'faces', 'materials'], f.materials.length, { readonly: true, note: 'Distinct material paths' }),
        ],
      };
    }
    if ((p[3] === 'textures' || p[3] === 'materials') && typeof p[4] === 'number') {
      const table = p[3] === 'textures' ? f.textures : f.materials;
      const users = (p[3] === 'textures' ? f.textureIndex : f.materialIndex).reduce((n, x) => n + (x === p[4] ? 1 : 0), 0);
      return {
        title: p[3] === 'textures' ? 'Texture' : 'Material',
        fields: [field('path', 'string', p, table[p[4]], { note: `Used by ${users} faces; editing it changes all of them` })],
      };
    }
    return undefined;
  }
  if (sub === 'tags' && typeof p[3] === 'number') {
    const tag = lod.tags[p[3]];
    if (!tag) return undefined;
    const tp: NodePath = [...base, 'tags', p[3]];
    const head: InspectField[] = [
      ...(tag.active !== undefined ? [field('active', 'u8', [...tp, 'active'], tag.active, { note: 'TinyBool Active (1)' })] : []),
      field('name', 'string', [...tp, 'name'], tag.name, { readonly: tag.type !== 'selection', note: 'Tag name' }),
    ];
    switch (tag.type) {
      case 'selection': {
        let pts = 0;
        for (const b of tag.points) if (b) pts++;
        let fcs = 0;
        for (const b of tag.faces) if (b) fcs++;
        return {
          title: `Selection ${tag.name}`,
          fields: [...head,
            field('points', 'array', [...tp, 'points'], tag.points, { note: `${pts} points selected; byte 1 = full weight, 2..255 = (256 - b) / 255` }),
            field('faces', 'array', [...tp, 'faces'], tag.faces, { note: `${fcs} faces selected` })],
        };
      }
      case 'property':
        return { title: 'Named property', fields: [...head, field('key', 'string', [...tp, 'key'], tag.key, { note: 'Property name (max 64 bytes)' }), field('value', 'string', [...tp, 'value'], tag.value, { note: 'Property value (max 64 bytes)' })] };
      case 'mass': {
        let total = 0;
        for (const m of tag.masses) total += m;
        return { title: '#Mass#', fields: [...head, field('masses', 'array', [...tp, 'masses'], tag.masses, { unit: 'kg', note: `Per-point mass; total ${total.toFixed(3)} kg` })] };
      }
      case 'uvset':
        return { title: '#UVSet#', fields: [...head, field('setId', 'u32', [...tp, 'setId'], tag.setId, { note: 'UV set index' }), field('uv', 'array', [...tp, 'uv'], tag.uv, { readonly: true, note: 'u, v per face vertex' })] };
      case 'sharpEdges':
        return { title: '#SharpEdges#', fields: [...head, field('edges', 'array', [...tp, 'edges'], tag.edges, { readonly: true, note: 'Pairs of point indices' })] };
      case 'animation':
        return { title: '#Animation#', fields: [...head, field('time', 'f32', [...tp, 'time'], tag.time, { note: 'Frame time' }), field('points', 'array', [...tp, 'points'], tag.points, { readonly: true })] };
      case 'raw':
      case 'end':
        return { title: tag.name, fields: [...head, field('data', 'bytes', [...tp, 'data'], tag.data, { readonly: true, note: 'Tag bytes kept as read' })] };
    }
  }
  return undefined;
}
