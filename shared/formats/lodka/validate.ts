/**
 * LODka validation: the rules the spec states (types, counts, ranges, chunk order) and references
 * between chunks (face material -> MAT1, proxy -> MSL1, collider -> SKL1 BoneID, PHS1 links).
 */
import type { NodePath } from '../../model/path.ts';
import type { Problem, Severity } from '../../model/problems.ts';
import type { Struct } from '../../schema/schema.ts';
import {
  Collider, Light, MaterialOptions, type Anm1Chunk, type Col1Chunk, type Img1Chunk, type Lig1Chunk, type LodDocument, type Man1Chunk, type Mat1Chunk, type Mmd1Chunk, type Msh1Chunk, type Phs1Chunk, type Pxi1Chunk,
  type ShdrChunk, type Skl1Chunk, type TxtrChunk, LODKA_SIGNATURE, LEAF_IDS, CONTAINER_IDS,
} from './schema.ts';
import { walkChunks } from './views.ts';
import { weightNextBit } from './layout.ts';

/** Checks a record against its schema's ranges and enum labels. */
function checkRecord(schema: Struct<any>, v: Record<string, unknown>, add: (sev: Severity, msg: string, sub?: NodePath) => void): void {
  for (const f of schema.fields) {
    const msg = schema.shape[f.name]!.check(v[f.name]);
    if (msg) add('error', `${f.name} ${msg}`, [f.name]);
    else if (f.enumLabels && Array.isArray(f.enumLabels) && typeof v[f.name] === 'number' && (v[f.name] as number) >= f.enumLabels.length) {
      add('warning', `${f.name} = ${String(v[f.name])} is outside ${f.enumLabels.join(', ')}`, [f.name]);
    }
  }
}

const IMAGE_MAGIC: [string, number[]][] = [
  ['PNG', [0x89, 0x50, 0x4e, 0x47]], ['JPEG', [0xff, 0xd8]], ['BMP', [0x42, 0x4d]], ['GIF', [0x47, 0x49, 0x46]], ['DDS', [0x44, 0x44, 0x53, 0x20]],
];

/** Image type of embedded bytes by magic (PNG, JPEG, BMP, GIF, DDS), or undefined. */
export function imageKind(b: Uint8Array): string | undefined {
  return IMAGE_MAGIC.find(([, m]) => m.every((x, i) => b[i] === x))?.[0];
}

/** Start offset of the deepest record with a byte span on `sub` below `node` (a face group, a light...). */
function offsetOf(node: unknown, sub: NodePath): number | undefined {
  let cur: unknown = node;
  let found: number | undefined;
  for (const k of sub) {
    if (!cur || typeof cur !== 'object' || ArrayBuffer.isView(cur)) break;
    cur = (cur as Record<string | number, unknown>)[k];
    const span = (cur as { $span?: [number, number] } | undefined)?.$span;
    if (cur && typeof cur === 'object' && Array.isArray(span)) found = span[0];
  }
  return found;
}

/** True when following parents from item i never reaches a root (-1). */
function inCycle(parents: number[], i: number): boolean {
  let cur = parents[i]!;
  for (let steps = 0; steps <= parents.length; steps++) {
    if (cur === -1 || cur < 0 || cur >= parents.length) return false;
    cur = parents[cur]!;
  }
  return true;
}

/** All problems of a document, in file order. */
export function validateLod(doc: LodDocument): Problem[] {
  const out: Problem[] = [];
  const push = (severity: Severity, message: string, where: string, path: NodePath, offset?: number): void => {
    const p: Problem = { severity, message, where, path };
    if (offset !== undefined) p.offset = offset;
    out.push(p);
  };
  if (doc.signature !== LODKA_SIGNATURE) push('error', `signature is "${doc.signature}", expected ${LODKA_SIGNATURE}`, '', ['signature'], 0);
  if (!doc.chunks.some((c) => c.id === 'LOD1')) push('error', 'no LOD1 chunk', '', ['chunks']);
  if (doc.trailing.length) push('warning', `${doc.trailing.length} bytes after the last chunk`, '', ['trailing']);

  const all = [...walkChunks(doc)];
  const matNames = new Set<string>();
  for (const { chunk } of all) if (chunk.id === 'MAT1') for (const m of (chunk as Mat1Chunk).materials) matNames.add(m.matName);
  const meshes = all.filter((f) => f.chunk.id === 'MSH1').map((f) => f.chunk as Msh1Chunk);
  const firstSkl = all.find((f) => f.chunk.id === 'SKL1');
  const skl = firstSkl?.chunk as Skl1Chunk | undefined;
  const boneIds = new Set(skl?.bones.map((b) => b.boneId) ?? []);
  const bones = skl?.bones.length ?? 0;
  const sklIndex = firstSkl ? all.indexOf(firstSkl) : -1;

  all.forEach(({ chunk, path, where }, idx) => {
    const at = chunk.$span?.[0];
    const add = (sev: Severity, msg: string, sub: NodePath = [], subWhere = ''): void =>
      push(sev, msg, subWhere ? `${where}/${subWhere}` : where, [...path, ...sub], offsetOf(chunk, sub) ?? at);
    const known = (CONTAINER_IDS as readonly string[]).includes(chunk.id) || (LEAF_IDS as readonly string[]).includes(chunk.id);
    if (!known) add('info', `unknown chunk ${JSON.stringify(chunk.id)} kept as raw bytes`);
    switch (chunk.id) {
      case 'INF1':
      case 'IMG1':
        if (chunk.count !== 1) add('warning', `Count should be 1, is ${chunk.count}`);
        if (chunk.id === 'IMG1') {
          const m = chunk as Img1Chunk;
          if (m.screenshotType !== 0) add('warning', `ScreenshotType should be 0, is ${m.screenshotType}`);
          if (!imageKind(m.screenshotData)) add('info', 'ScreenshotData is not a PNG, JPEG, BMP, GIF or DDS file');
        }
        break;
      case 'MAL1':
        if ('children' in chunk && chunk.children.filter((c) => c.id === 'MAT1').length > 1) add('warning', 'the tool supports only one MAT1 library per MAL1');
        break;
      case 'SKL1': {
        const s = chunk as Skl1Chunk;
        if (s.skelType !== 1) add('warning', `SkelType should be 1, is ${s.skelType}`);
        const seen = new Set<number>();
        s.bones.forEach((b, i) => {
          if (seen.has(b.boneId)) add('error', `BoneID ${b.boneId} used twice`, ['bones', i], `bones[${i}]`);
          if (b.boneParentId !== -1 && !seen.has(b.boneParentId)) {
            add('error', `BoneParentID ${b.boneParentId} is not the ID of an earlier bone (parents must come first)`, ['bones', i], `bones[${i}]`);
          }
          seen.add(b.boneId);
        });
        if (s.bones.length > 0 && s.bones[0]!.boneParentId !== -1) add('error', 'the first bone must be a root (BoneParentID -1)', ['bones', 0], 'bones[0]');
        break;
      }
      case 'ANM1': {
        const a = chunk as Anm1Chunk;
        if (a.animType !== 1) add('warning', `AnimType should be 1, is ${a.animType}`);
        if (a.animMode > 6) add('warning', `AnimMode ${a.animMode} is outside 0..6`);
        if (a.animInterval <= 0) add('warning', `AnimInterval ${a.animInterval} should be positive`);
        if (sklIndex < 0 || sklIndex > idx) add('error', 'ANM1 must come after SKL1');
        else if (a.bonesRotPos.length !== a.count * bones * 6) {
          add('error', `BonesRotPos holds ${a.bonesRotPos.length / 6} bone records, expected ${a.count} frames x ${bones} bones`, ['bonesRotPos']);
        }
        break;
      }
      case 'MAT1': {
        const m = chunk as Mat1Chunk;
        if (m.materialsType !== 3) add('warning', `MaterialsType should be 3, is ${m.materialsType}`);
        if (m.count !== m.materials.length) add('warning', `Count ${m.count} differs from MaterialsCount ${m.materials.length}`);
        const seen = new Set<string>();
        m.materials.forEach((mat, i) => {
          if (seen.has(mat.matName)) add('warning', `material name "${mat.matName}" used twice`, ['materials', i], `materials[${i}]`);
          seen.add(mat.matName);
          checkRecord(MaterialOptions, mat.options as unknown as Record<string, unknown>, (sev, msg, sub = []) => add(sev, msg, ['materials', i, 'options', ...sub], `materials[${i}]`));
        });
        break;
      }
      case 'TXTR': {
        const t = chunk as TxtrChunk;
        if (t.texturesType !== 0) add('warning', `TexturesType should be 0, is ${t.texturesType}`);
        t.textures.forEach((x, i) => {
          if (!matNames.has(x.textureMaterialName)) add('warning', `texture for material "${x.textureMaterialName}", which MAT1 does not have`, ['textures', i], `textures[${i}]`);
          if (x.textureOptionType !== 0) add('warning', `TextureOptionType should be 0, is ${x.textureOptionType}`, ['textures', i], `textures[${i}]`);
        });
        break;
      }
      case 'SHDR': {
        const s = chunk as ShdrChunk;
        if (s.shaderLibType !== 1) add('warning', `ShaderLibType should be 1, is ${s.shaderLibType}`);
        s.shaders.forEach((x, i) => {
          if (x.shaderType !== 1) add('info', `ShaderType ${x.shaderType} is not a bump shader; its data is kept as bytes`, ['shaders', i], `shaders[${i}]`);
          for (const k of ['bumpName', 'bumpNormalName', 'bumpSpecularName'] as const) {
            const n = x[k];
            if (n && !matNames.has(n)) add('warning', `${k} "${n}" is not a MAT1 material`, ['shaders', i, k], `shaders[${i}]`);
          }
        });
        break;
      }
      case 'MSH1':
        validateMesh(chunk as Msh1Chunk, matNames, bones, sklIndex >= 0 && sklIndex < idx, add);
        break;
      case 'LIG1': {
        const l = chunk as Lig1Chunk;
        if (l.count !== 8) add('error', `Count must be 8, is ${l.count}`);
        if (l.lights.length !== 8) add('error', `a light scheme holds 8 lights, this one ${l.lights.length}`, ['lights']);
        l.lights.forEach((x, i) => {
          checkRecord(Light, x as unknown as Record<string, unknown>, (sev, msg, sub = []) => add(sev, msg, ['lights', i, ...sub], `lights[${i}]`));
          if (!(x.spotCutOff >= 0 && x.spotCutOff <= 90) && x.spotCutOff !== 180) add('warning', `SpotCutOff ${x.spotCutOff} is neither 0..90 nor 180`, ['lights', i, 'spotCutOff'], `lights[${i}]`);
          for (const k of ['spotExponent', 'constAtt', 'linearAtt', 'quadAtt'] as const) if (x[k] < 0) add('warning', `${k} must not be negative`, ['lights', i, k], `lights[${i}]`);
        });
        break;
      }
      case 'PXI1': {
        const p = chunk as Pxi1Chunk;
        if (p.count < 0 || p.count >= meshes.length) add('error', `replaces mesh ${p.count}, but MSL1 has ${meshes.length} meshes`);
        else if (meshes[p.count]!.meshPointsPos.length > 0) add('warning', `mesh ${p.count} replaced by this proxy should be empty`);
        p.items.forEach((it, i) => {
          const w = `items[${i}]`;
          if (it.sourceMeshIndex !== -1 && (it.sourceMeshIndex < 0 || it.sourceMeshIndex >= meshes.length)) add('error', `SourceMeshIndex ${it.sourceMeshIndex}: no such mesh in MSL1`, ['items', i, 'sourceMeshIndex'], w);
          if (it.proxyParentIndex !== -1 && (it.proxyParentIndex < 0 || it.proxyParentIndex >= p.items.length || it.proxyParentIndex === i)) add('error', `ProxyParentIndex ${it.proxyParentIndex}: no such item`, ['items', i, 'proxyParentIndex'], w);
          else if (it.proxyParentIndex !== -1 && inCycle(p.items.map((x) => x.proxyParentIndex), i)) add('error', 'ProxyParentIndex chain never reaches the root (a parent cycle)', ['items', i, 'proxyParentIndex'], w);
          if (it.proxyReserved1 !== -1 || it.proxyReserved2 !== -1 || it.proxyReserved3 !== -1 || it.proxyReserved4 !== 0) add('info', 'reserved fields differ from -1, -1, -1, 0', ['items', i], w);
        });
        break;
      }
      case 'COL1': {
        const c = chunk as Col1Chunk;
        if (sklIndex < 0 || sklIndex > idx) add('warning', 'COL1 refers to SKL1 bones and should come after it');
        c.colliders.forEach((x, i) => {
          if (!boneIds.has(x.colBoneId)) add('error', `ColBoneID ${x.colBoneId}: no bone with that BoneID in SKL1`, ['colliders', i, 'colBoneId'], `colliders[${i}]`);
          checkRecord(Collider, x as unknown as Record<string, unknown>, (sev, msg, sub = []) => add(sev, msg, ['colliders', i, ...sub], `colliders[${i}]`));
        });
        break;
      }
      case 'PHS1': {
        const p = chunk as Phs1Chunk;
        if (p.count !== 2) add('warning', `Count (block version) should be 2, is ${p.count}`);
        if (p.physType !== 1) add('warning', `PhysType should be 1, is ${p.physType}`);
        p.meshLinks.forEach((m, i) => { if (m < 0 || m >= meshes.length) add('error', `MeshLinks[${i}] = ${m}: no such mesh`, ['meshLinks']); });
        p.geoms.forEach((g, i) => {
          if (g.geomBodyIndex < -1 || g.geomBodyIndex >= p.bodies.length) add('error', `GeomBodyIndex ${g.geomBodyIndex}: no such body`, ['geoms', i, 'geomBodyIndex'], `geoms[${i}]`);
          if (g.geomMeshLinkCount > 0 && (g.geomMeshLink < 0 || g.geomMeshLink + g.geomMeshLinkCount > p.meshLinks.length)) add('error', 'GeomMeshLink range is outside MeshLinks', ['geoms', i], `geoms[${i}]`);
        });
        p.joints.forEach((j, i) => {
          for (const b of [j.joint2BodyIndex.body1, j.joint2BodyIndex.body2]) if (b < -1 || b >= p.bodies.length) add('error', `joint body ${b}: no such body`, ['joints', i], `joints[${i}]`);
        });
        break;
      }
      case 'MAN1': {
        const m = chunk as Man1Chunk;
        if (m.morphCollType !== 0) add('warning', `MorphCollType should be 0, is ${m.morphCollType}`);
        m.collections.forEach((c, i) => {
          if (c.mcParentId !== -1 && (c.mcParentId < 0 || c.mcParentId >= m.collections.length)) add('error', `MCParentID ${c.mcParentId}: no such collection`, ['collections', i], `collections[${i}]`);
        });
        break;
      }
      case 'MMD1': {
        const m = chunk as Mmd1Chunk;
        if (m.morphCollType !== 0) add('warning', `MorphCollType should be 0, is ${m.morphCollType}`);
        const total = m.entries.reduce((s, e) => s + e.mmFramesCount * e.mmVertexCount, 0);
        if (total * 3 !== m.mmVertices.length) add('error', `entries describe ${total} vertices, the chunk holds ${m.mmVertices.length / 3}`, ['mmVertices']);
        m.entries.forEach((e, i) => { if (e.mmMeshIndex < 0 || e.mmMeshIndex >= meshes.length) add('error', `MMMeshIndex ${e.mmMeshIndex}: no such mesh`, ['entries', i], `entries[${i}]`); });
        break;
      }
      default:
        if ('children' in chunk && chunk.keepCount) add('info', `Count ${chunk.count} differs from the ${chunk.children.length} chunks inside (kept as stored)`);
    }
  });
  return out;
}

function validateMesh(
  m: Msh1Chunk, matNames: Set<string>, bones: number, skeletonBefore: boolean,
  add: (sev: Severity, msg: string, sub?: NodePath, subWhere?: string) => void,
): void {
  const nv = m.meshPointsPos.length / 3;
  const nn = m.meshNormals.length / 3;
  if (m.meshMode !== 2 && m.meshMode !== 3) add('warning', `MeshMode should be 3 (or 2 in older files), is ${m.meshMode}`);
  if (m.meshMode === 3 && (m.meshTxCrd.length < 1 || m.meshTxCrd.length > 2)) add('info', `${m.meshTxCrd.length} texture sets (the tool uses 1 or 2)`);
  if (m.pntBnAssoc.length !== 0 && m.pntBnAssoc.length !== nv) add('error', `PntBnAssocCnt ${m.pntBnAssoc.length} must be 0 or MeshVertexCnt ${nv}`, ['pntBnAssoc']);
  if ((m.pntBnAssoc.length > 0 || m.pntBnWeightType === 1) && !skeletonBefore) add('error', 'bone associations need a SKL1 before MSL1');
  for (let i = 0; i < m.pntBnAssoc.length; i++) {
    if (m.pntBnAssoc[i]! >= bones) {
      add('error', `PntBnAssoc[${i}] = ${m.pntBnAssoc[i]} but the skeleton has ${bones} bones`, ['pntBnAssoc']);
      break;
    }
  }
  if (m.pntBnWeightType !== 0 && m.pntBnWeightType !== 1) add('warning', `PntBnWeightType should be 0 or 1, is ${m.pntBnWeightType}`);
  if (m.pntBnWeightType === 1 && m.weightBoneIds) {
    if ((m.bonesPerVertix ?? 0) <= 1) add('warning', `BonesPerVertix should be above 1, is ${m.bonesPerVertix}`);
    const next = weightNextBit(bones);
    for (let i = 0; i < m.weightBoneIds.length; i++) {
      if ((m.weightBoneIds[i]! & (next - 1)) >= bones) {
        add('error', `weight record ${i} names bone ${m.weightBoneIds[i]! & (next - 1)}, the skeleton has ${bones}`, ['weightBoneIds']);
        break;
      }
    }
  }
  m.faceGroups.forEach((g, gi) => {
    const w = `faceGroups[${gi}]`;
    const p: NodePath = ['faceGroups', gi];
    if (g.faceType !== 2) add(g.faceType === 1 ? 'info' : 'warning', `FaceType ${g.faceType} (the text demands 2${g.faceType === 1 ? '; 1 means no normal indices' : ''})`, [...p, 'faceType'], w);
    if (g.faceMode !== 0) add('warning', `FaceMode should be 0 (triangles), is ${g.faceMode}`, [...p, 'faceMode'], w);
    g.faceMatNames.forEach((n, t) => {
      if (n !== '' && !matNames.has(n)) add('error', `material "${n}" is not in MAT1`, [...p, 'faceMatNames', t], w);
    });
    const corners = g.vertexIndex.length;
    if (corners % 3) add('error', `VertexIndCnt ${corners} is not a multiple of 3`, [...p, 'vertexIndex'], w);
    const range = (a: Uint32Array | undefined, n: number, name: string, sub: NodePath): void => {
      if (!a) return;
      for (let i = 0; i < a.length; i++) {
        if (a[i]! >= n) {
          add('error', `${name}[${i}] = ${a[i]} is out of range (${n} elements)`, [...p, ...sub], w);
          return;
        }
      }
    };
    range(g.vertexIndex, nv, 'VertexIndex', ['vertexIndex']);
    if (g.smoothData.length !== 0 && g.smoothData.length !== Math.floor(corners / 3)) add('warning', `SmoothDataCnt ${g.smoothData.length} should be 0 or the triangle count ${Math.floor(corners / 3)}`, [...p, 'smoothData'], w);
    if (g.normalIndex) {
      if (g.normalIndex.length !== corners) add('error', `NormalsIndCnt ${g.normalIndex.length} differs from VertexIndCnt ${corners}`, [...p, 'normalIndex'], w);
      range(g.normalIndex, nn, 'NormalIndex', ['normalIndex']);
    }
    g.txCrdsInd.forEach((a, t) => {
      if (a.length !== corners && a.length !== 0) add('error', `TxCrdsIndCnt ${a.length} differs from VertexIndCnt ${corners}`, [...p, 'txCrdsInd', t], w);
      range(a, (m.meshTxCrd[t]?.length ?? 0) / 2, `TxCrdsInd[${t}]`, ['txCrdsInd', t]);
    });
  });
}
