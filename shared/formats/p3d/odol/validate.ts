/** `validate` for ODOL: broken references and inconsistent derived values. */
import type { Problem } from '../../../model/problems.ts';
import { isVisualResolution, resolutionKind, resolutionName } from '../resolution.ts';
import type { OdolDocument } from './document.ts';
import { faceTableSize, type OdolLod } from './lod.ts';
import { faceOffsets } from './face-offsets.ts';

export { faceOffsets };
import type { OdolV4xDocument } from './model.ts';
import type { OdolV7Lod } from './v7.ts';

/** Face-table byte offset of each face (the units sections use), plus the end. */
function maxOf(a: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m;
}

const INDEX_FIELDS: [string, string][] = [
  ['memory', 'memory'], ['geometry', 'geometry'], ['geometryFire', 'geometry'], ['geometryView', 'geometry'],
  ['landContact', 'special'], ['roadway', 'special'], ['paths', 'special'], ['hitpoints', 'special'],
];

function checkLod(doc: OdolDocument, lod: OdolLod | OdolV7Lod, i: number, out: Problem[]): void {
  const where = `lods[${i}] (${resolutionName(lod.resolution)})`;
  const nVerts = 'positions' in lod ? lod.positions.data.length / 3 : lod.vertices.data.length / 3;
  const nFaces = lod.faces.sizes.length;
  if (!Number.isFinite(lod.resolution)) out.push({ severity: 'error', message: `resolution ${lod.resolution} is not a number`, where, path: ['lods', i, 'resolution'] });
  if (nFaces > 0 && maxOf(lod.faces.indices) >= nVerts) {
    out.push({ severity: 'error', message: `a face points past the ${nVerts}-vertex point table`, where: `${where}/faces`, path: ['lods', i, 'faces'], offset: lod.faces.$span?.[0] });
  }
  lod.namedSelections.forEach((s, k) => {
    const p = `${where}/namedSelections[${k}] ${s.name}`;
    const verts = s.vertices.data;
    if (verts.length && maxOf(verts) >= nVerts) out.push({ severity: 'error', message: `selection ${s.name} names a vertex past the point table`, where: p, path: ['lods', i, 'namedSelections', k] });
    const faces = s.faces.data;
    if (faces.length && maxOf(faces) >= nFaces) out.push({ severity: 'error', message: `selection ${s.name} names a face past the face table`, where: p, path: ['lods', i, 'namedSelections', k] });
    if ('sections' in s && !('uchar' in s)) {
      const nSections = (lod as OdolLod).sections.length;
      if (s.sections.data.length && maxOf(s.sections.data) >= nSections) out.push({ severity: 'error', message: `selection ${s.name} names a section that does not exist`, where: p, path: ['lods', i, 'namedSelections', k] });
    }
  });
  if (doc.version === 7) return;
  const l = lod as OdolLod;
  const offsets = faceOffsets(l.faces.sizes, doc.version);
  const total = offsets[offsets.length - 1]!;
  if (l.faces.faceDataSizeDelta) {
    out.push({ severity: 'warning', message: `stored face table size is off by ${l.faces.faceDataSizeDelta} from the faces (${faceTableSize(l.faces, doc.version)})`, where: `${where}/faces`, path: ['lods', i, 'faces'] });
  }
  l.sections.forEach((s, k) => {
    if (s.faceLowerIndex < 0 || s.faceUpperIndex > total || s.faceLowerIndex > s.faceUpperIndex) {
      out.push({ severity: 'error', message: `section offsets ${s.faceLowerIndex}..${s.faceUpperIndex} fall outside the face table (${total})`, where: `${where}/sections[${k}]`, path: ['lods', i, 'sections', k] });
    }
    if (s.materialIndex >= l.materials.length) out.push({ severity: 'error', message: `section material ${s.materialIndex} does not exist`, where: `${where}/sections[${k}]`, path: ['lods', i, 'sections', k] });
    const t = s.textureIndex as number;
    if (t >= l.textures.length && t !== -1) out.push({ severity: 'error', message: `section texture ${t} does not exist`, where: `${where}/sections[${k}]`, path: ['lods', i, 'sections', k] });
  });
  l.proxies.forEach((p, k) => {
    if (p.namedSelectionIndex >= l.namedSelections.length) out.push({ severity: 'error', message: `proxy ${p.name} points to selection ${p.namedSelectionIndex}, past the ${l.namedSelections.length} selections`, where: `${where}/proxies[${k}]`, path: ['lods', i, 'proxies', k] });
  });
  const p2v = l.pointToVertex.data;
  const v2p = l.vertexToPoint.data;
  if (v2p.length && v2p.length !== nVerts) out.push({ severity: 'warning', message: `vertexToPoint has ${v2p.length} entries for ${nVerts} vertices`, where, path: ['lods', i, 'vertexToPoint'] });
  if (p2v.length && maxOf(p2v) >= nVerts && maxOf(p2v) < 0xffff) out.push({ severity: 'error', message: 'pointToVertex points past the vertex table', where, path: ['lods', i, 'pointToVertex'] });
  const info = (doc as OdolV4xDocument).lodInfo[i]?.info;
  if (info && typeof info.faceCount === 'number' && info.faceCount !== nFaces) {
    out.push({ severity: 'warning', message: `face defaults count ${info.faceCount} faces, the LOD has ${nFaces}`, where: `lodInfo[${i}]`, path: ['lodInfo', i, 'info', 'faceCount'] });
  }
}

export function validateOdol(doc: OdolDocument): Problem[] {
  const out: Problem[] = [];
  const lods = doc.lods as (OdolLod | OdolV7Lod)[];
  if (lods.length === 0) out.push({ severity: 'error', message: 'the model has no LODs', where: 'lods', path: ['lods'] });
  if (!lods.some((l) => isVisualResolution(l.resolution))) out.push({ severity: 'warning', message: 'the model has no visual LOD', where: 'lods', path: ['lods'] });
  const seen = new Map<number, number>();
  lods.forEach((l, i) => {
    const prev = seen.get(l.resolution);
    if (prev !== undefined) out.push({ severity: 'error', message: `LOD ${i} repeats resolution ${resolutionName(l.resolution)} of LOD ${prev}`, where: `lods[${i}]`, path: ['lods', i, 'resolution'] });
    seen.set(l.resolution, i);
    if (resolutionKind(l.resolution) === 'unknown') out.push({ severity: 'warning', message: `LOD ${i} has resolution ${l.resolution}, which names no known LOD`, where: `lods[${i}]`, path: ['lods', i, 'resolution'] });
    checkLod(doc, l, i, out);
  });
  if (doc.version !== 7) {
    const d = doc as OdolV4xDocument;
    const tail = d.modelInfo.tail as Record<string, unknown>;
    for (const [field, kind] of INDEX_FIELDS) {
      const v = tail[field];
      if (typeof v !== 'number' || v === 255 || v === -1) continue;
      const lod = d.lods[v];
      if (!lod) {
        out.push({ severity: 'error', message: `ModelInfo.${field} names LOD ${v}, past the ${d.lods.length} LODs`, where: `modelInfo/${field}`, path: ['modelInfo', 'tail', field] });
      } else if (kind === 'memory' && resolutionKind(lod.resolution) !== 'memory') {
        out.push({ severity: 'error', message: `ModelInfo.memory names LOD ${v} (${resolutionName(lod.resolution)}), not the Memory LOD`, where: `modelInfo/${field}`, path: ['modelInfo', 'tail', field] });
      }
    }
    if (d.lodInfo.length !== d.lods.length) out.push({ severity: 'error', message: `${d.lodInfo.length} face defaults for ${d.lods.length} LODs`, where: 'lodInfo', path: ['lodInfo'] });
  }
  return out;
}
