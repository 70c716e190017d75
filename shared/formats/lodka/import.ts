/**
 * Import -> LODka 3D `.lod`.
 *
 * LODka keeps the file's own axes and its `toScene` converts nothing, so vertex data is written
 * in glTF's axes (Y up). One MSH1 per glTF mesh node, placed in world space (LODka meshes have no
 * transform of their own), one face group per material, every UV set as a texture set. Materials
 * go to MAT1 by name with their base colour and texture path. A skin becomes SKL1 plus weight
 * records (all influences kept); the bind pose is the first ANM1's first frame (as the format's
 * readers take it), so a one-frame "Bind" clip leads ANS1, followed by every glTF animation
 * sampled at the clip's own key spacing (whole milliseconds) or 30 frames per second. Bones hold
 * position and XYZ Euler rotation only: scale is left out.
 */
import { defaultMaterialOptions, newFaceGroup } from './edit.ts';
import type { Anm1Chunk, ContainerChunk, Mat1Chunk, Inf1Chunk, LodChunk, LodDocument, Material, Msh1Chunk, Skl1Chunk } from './schema.ts';
import { weightNextBit } from './layout.ts';
import type { Mat4 } from '../../scene/scene.ts';
import { boneBetween, boneFrames, boneParents, boneRest, requireMeshes, uniqueNames, type WriterOptions } from '../../import/common.ts';
import { ImportError } from '../../import/errors.ts';
import { decompose } from '../../import/math.ts';
import { boneMap } from '../../import/replace.ts';
import type { GltfImporter } from '../capabilities.ts';
import type { EditCommand } from '../../model/commands.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import { warnOnce, worldGeometry, type ImportMaterial, type ImportMesh, type ImportModel } from '../../import/model.ts';
import { detectStep, resample } from '../../import/resample.ts';

const f = Math.fround;

/** Euler angles (x, y, z) of R = Rz * Ry * Rx, from a column-major matrix's rotation part. */
export function matrixToEulerXyz(m: Mat4): [number, number, number] {
  const { r } = decompose(m);
  const [x, y, z, w] = r;
  // Rotation matrix of the unit quaternion (no scale).
  const r00 = 1 - 2 * (y * y + z * z), r10 = 2 * (x * y + w * z), r20 = 2 * (x * z - w * y);
  const r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
  const r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z);
  const sy = Math.max(-1, Math.min(1, -r20));
  const ay = Math.asin(sy);
  if (Math.abs(sy) < 0.999999) return [Math.atan2(r21, r22), ay, Math.atan2(r10, r00)];
  return [0, ay, Math.atan2(-r01, r11)];
}

function container(id: ContainerChunk['id'], children: LodChunk[]): ContainerChunk {
  return { id, size: 0, count: children.length, children };
}

function poseFloats(mats: Mat4[], out: Float32Array, at: number): void {
  mats.forEach((m, i) => {
    const e = matrixToEulerXyz(m);
    out.set([m[12]!, m[13]!, m[14]!, e[0], e[1], e[2]], at + i * 6);
  });
}

/** A MAT1 material for a glTF material: base colour, alpha mode, texture path. */
export function lodkaMaterial(m: ImportMaterial): Material {
  const options = defaultMaterialOptions(m.color.map(f) as [number, number, number, number]);
  options.ambient = options.ambient.map(f);
  options.normalMapScale = f(options.normalMapScale);
  if (m.alpha === 'BLEND') options.blendingMode = 1;
  else if (m.alpha === 'MASK') options.blendingMode = 3;
  if (m.texture) options.textureEnabled = 1;
  return { matName: m.name, textrName: m.texture ?? '', options };
}

/**
 * An MSH1 of one world-space mesh (no skin): every UV set a texture set, one face group per
 * material, face groups naming materials by `matNames`.
 */
export function lodkaMesh(m: ImportMesh, matNames: string[], name: string, warnings: string[], flip = false): Msh1Chunk {
  const sets = Math.max(1, m.uvs.length);
  const n = m.positions.length / 3;
  if (m.colors) warnOnce(warnings, `mesh "${m.name}": vertex colours are left out (LODka meshes have none)`);
  const faceGroups = m.groups.map((grp) => {
    // A view of the mesh's indices unless the winding must turn (then a copy).
    const vi = flip ? m.indices.slice(grp.start, grp.start + grp.count) : m.indices.subarray(grp.start, grp.start + grp.count);
    if (flip) for (let i = 0; i + 2 < vi.length; i += 3) { const t = vi[i + 1]!; vi[i + 1] = vi[i + 2]!; vi[i + 2] = t; }
    // Positions, normals and texture sets share one index per corner: one array serves them all
    // (the encoder only reads them; an opened file has its own arrays again).
    return {
      ...newFaceGroup(`${matNames[grp.material]}`, matNames[grp.material]!, sets),
      vertexIndex: vi, normalIndex: vi, txCrdsInd: Array.from({ length: sets }, () => vi),
    };
  });
  return {
    id: 'MSH1', size: 0, count: faceGroups.length, meshName: name, isSkeletonExists: 0, meshMode: 3, isMeshVisible: 1,
    meshPointsPos: m.positions, meshNormals: m.normals,
    // glTF's v = 0 is the image's top row, LODka's (OpenGL's) its bottom row.
    meshTxCrd: m.uvs.length ? m.uvs.map(flipV) : [new Float32Array(n * 2)],
    pntBnAssoc: new Uint16Array(0), pntBnWeightType: 0, faceGroups,
  };
}

/** A copy of `uv` with v turned over (1 - v): glTF's UV convention to LODka's and back. */
function flipV(uv: Float32Array): Float32Array {
  const out = new Float32Array(uv.length);
  for (let i = 0; i + 1 < uv.length; i += 2) {
    out[i] = uv[i]!;
    out[i + 1] = 1 - uv[i + 1]!;
  }
  return out;
}

/**
 * Weight records for `msh` from a skin (strongest first, every non-zero influence kept);
 * `bone` maps a skin joint to the SKL1 bone index, `nb` is the SKL1 bone count (record width).
 */
export function setLodkaWeights(msh: Msh1Chunk, sk: NonNullable<ImportMesh['skin']>, nb: number, bone: (joint: number) => number): void {
  const n = msh.meshPointsPos.length / 3;
  const next = weightNextBit(nb);
  const ids: number[] = [], ws: number[] = [];
  let per = 1;
  for (let v = 0; v < n; v++) {
    const o = v * sk.influences;
    let k = 0;
    for (let j = 0; j < sk.influences; j++) if (sk.weights[o + j]! > 0) k++;
    k = Math.max(1, k);
    per = Math.max(per, k);
    for (let j = 0; j < k; j++) {
      ids.push(bone(sk.joints[o + j]!) | (j === k - 1 ? next : 0));
      ws.push(sk.weights[o + j]!);
    }
  }
  msh.isSkeletonExists = 1;
  msh.pntBnWeightType = 1;
  msh.bonesPerVertix = per;
  msh.weightBoneIds = Uint16Array.from(ids);
  msh.weights = Float32Array.from(ws);
}

export function modelToLodka(model: ImportModel, opts: WriterOptions = {}): { doc: LodDocument; warnings: string[] } {
  requireMeshes(model);
  const warnings = [...model.warnings];
  const matNames = uniqueNames(model.materials.map((m) => m.name));
  const materials: Material[] = model.materials.map((m, i) => ({ ...lodkaMaterial(m), matName: matNames[i]! }));
  const bones = model.joints;
  const nb = bones.length;
  if (nb > 32767) throw new ImportError(`${nb} joints; LODka weight records hold 32767 bones`, 'skins');
  const meshNames = uniqueNames(model.meshes.map((m) => m.name));
  const meshes: Msh1Chunk[] = model.meshes.map((m, mi) => {
    const g = worldGeometry(model, m);
    const msh = lodkaMesh({ ...m, positions: g.positions, normals: g.normals }, matNames, meshNames[mi]!, warnings, g.flip);
    if (m.skin && nb > 0) setLodkaWeights(msh, m.skin, nb, (j) => j);
    return msh;
  });

  const children: LodChunk[] = [
    // The data is Y-up; saying so keeps readers from guessing another axis from the shape.
    { id: 'INF1', size: 0, count: 1, text: 'Imported from glTF by LodSmith.\r\nUp axis: Y' } as Inf1Chunk,
    container('MAL1', [{ id: 'MAT1', size: 0, count: materials.length, materialsType: 3, materialsCount: materials.length, materials }]),
  ];
  if (nb > 0) {
    const parents = boneParents(model, bones);
    const names = uniqueNames(bones.map((b) => model.nodes[b]!.name));
    const skl: Skl1Chunk = { id: 'SKL1', size: 0, count: nb, skelType: 1, bones: bones.map((_, i) => ({ boneId: i, boneParentId: parents[i]!, boneName: names[i]! })) };
    children.push(skl);
  }
  children.push(container('MSL1', meshes));
  if (nb > 0) {
    const between = boneBetween(model, bones);
    const rest = boneRest(model, bones, between);
    if (rest.some((m) => decompose(m).s.some((s) => Math.abs(s - 1) > 1e-4))) warnOnce(warnings, 'joint scale is left out: LODka bones hold position and rotation only');
    // The first clip is the bind pose when it is a single pose already (as LODka files do).
    const clips = [...model.clips];
    const first = clips[0];
    const bindName = first && first.duration === 0 ? first.name : 'Bind';
    if (first && first.duration === 0) clips.shift();
    const bindData = new Float32Array(nb * 6);
    poseFloats(rest, bindData, 0);
    const anims: Anm1Chunk[] = [{ id: 'ANM1', size: 0, count: 1, animType: 1, animInterval: 100, animMode: 0, animName: bindName, bonesRotPos: bindData }];
    for (const c of clips) {
      const detected = detectStep(c);
      const ms = detected && Math.abs(detected * 1000 - Math.round(detected * 1000)) < 1e-3 && Math.round(detected * 1000) >= 1 ? Math.round(detected * 1000) : 33;
      const s = resample(model, c, ms / 1000, bones);
      const data = new Float32Array(s.frames * nb * 6);
      const mats = boneFrames(s, between);
      for (let fr = 0; fr < s.frames; fr++) poseFloats(mats.slice(fr * nb, fr * nb + nb), data, fr * nb * 6);
      anims.push({ id: 'ANM1', size: 0, count: s.frames, animType: 1, animInterval: ms, animMode: 2, animName: c.name, bonesRotPos: data });
    }
    children.push(container('ANS1', anims));
  } else if (model.clips.length) {
    warnOnce(warnings, 'animations without a skin are left out: LODka animates skeletons only');
  }
  void opts;
  return { doc: { format: 'lodka-lod', signature: 'LODka3D1', chunks: [container('LOD1', children)], trailing: new Uint8Array(0) }, warnings };
}

/** "Replace mesh from glTF" on an MSH1 chunk: new material names join MAT1; bones are kept. */
function replaceLodkaMesh(doc: object, path: NodePath, model: ImportModel, mesh: ImportMesh, warnings: string[]): EditCommand {
  const node = getAt(doc, path) as Record<string, unknown> | undefined;
  const msh = node as unknown as Msh1Chunk | undefined;
  if (!msh || msh.id !== 'MSH1') throw new ImportError('select an MSH1 mesh chunk to replace', '');
  const lod = doc as LodDocument;
  const mat1 = findMat1(lod);
  const have = new Set(mat1?.chunk.materials.map((m) => m.matName) ?? []);
  const commands: EditCommand[] = [];
  const added = model.materials.filter((m, i) => mesh.groups.some((g) => g.material === i) && !have.has(m.name));
  if (added.length && !mat1) throw new ImportError('the document has no MAT1 material library for the new materials', '');
  added.forEach((m, k) => commands.push({ op: 'insert', path: [...mat1!.path, 'materials'], index: mat1!.chunk.materials.length + k, value: lodkaMaterial(m) }));
  const replacement = lodkaMesh(mesh, model.materials.map((m) => m.name), msh.meshName, warnings);
  replacement.isMeshVisible = msh.isMeshVisible;
  const skl = findChunk(lod, 'SKL1') as Skl1Chunk | undefined;
  const map = boneMap(model, mesh, skl?.bones.map((b) => b.boneName) ?? [], warnings);
  if (map && mesh.skin && skl) setLodkaWeights(replacement, mesh.skin, skl.bones.length, map);
  commands.push({ op: 'set', path, value: replacement });
  return { op: 'batch', commands };
}

function findChunk(doc: LodDocument, id: string): LodDocument['chunks'][number] | undefined {
  const walk = (chunks: LodDocument['chunks']): LodDocument['chunks'][number] | undefined => {
    for (const c of chunks) {
      if (c.id === id) return c;
      if ('children' in c) {
        const r = walk((c as ContainerChunk).children);
        if (r) return r;
      }
    }
    return undefined;
  };
  return walk(doc.chunks);
}

function findMat1(doc: LodDocument): { chunk: Mat1Chunk; path: NodePath } | undefined {
  const walk = (chunks: LodDocument['chunks'], path: NodePath): { chunk: Mat1Chunk; path: NodePath } | undefined => {
    for (const [i, c] of chunks.entries()) {
      if (c.id === 'MAT1') return { chunk: c as Mat1Chunk, path: [...path, i] };
      if ('children' in c) {
        const r = walk((c as ContainerChunk).children, [...path, i, 'children']);
        if (r) return r;
      }
    }
    return undefined;
  };
  return walk(doc.chunks, ['chunks']);
}

/** The LODka import writer (capabilities.ts): names in cp1251, the document encoded by the LODka codec. */
export const lodkaImporter: GltfImporter = {
  nameEncoding: 'cp1251',
  write: (model, opts) => modelToLodka(model, opts),
  replaceMesh: replaceLodkaMesh,
};
