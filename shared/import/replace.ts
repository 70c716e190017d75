/**
 * "Replace mesh from glTF": one mesh (or P3D LOD, or Unigine surface) of an open document takes
 * the geometry of a glTF, as one edit command, while everything else keeps its bytes. Materials
 * are mapped by name: a glTF material whose name the document already has uses that material;
 * new names are added (LODka MAT1) or simply named (Grimrock segments, P3D face textures).
 * The document's skeleton stays as it is; a glTF skin comes across when every joint it uses names a
 * bone of the document (LODka, Unigine), otherwise the mesh comes without weights and a warning.
 */
import type { EditCommand } from '../model/commands.ts';
import { getAt, type NodePath } from '../model/path.ts';
import type { FormatId } from '../formats/registry.ts';
import type { ContainerChunk, LodDocument, Mat1Chunk, Msh1Chunk, Skl1Chunk } from '../formats/lodka/schema.ts';
import type { GrimrockModel, GrimrockNode } from '../formats/grimrock/schema.ts';
import type { MlodDocument } from '../formats/p3d/mlod/types.ts';
import type { UnigineMesh } from '../formats/unigine/mesh-codec.ts';
import { cappedSkin, encodableNames } from './common.ts';
import { ImportError } from './errors.ts';
import { grimrockMeshData } from './grimrock.ts';
import { lodkaMaterial, lodkaMesh, setLodkaWeights } from './lodka.ts';
import { mlodLodOf } from './mlod.ts';
import { warnOnce, worldGeometry, type ImportMesh, type ImportModel } from './model.ts';
import { unigineSurfaceOf } from './unigine.ts';

/** Every mesh of the model merged into one, in world space (glTF axes), skin left out. */
export function mergedMesh(model: ImportModel): ImportMesh {
  const meshes = model.meshes.filter((m) => m.indices.length > 0);
  if (meshes.length === 0) throw new ImportError('the file has no meshes with triangles to import', 'meshes');
  const nv = meshes.reduce((s, m) => s + m.positions.length / 3, 0);
  const ni = meshes.reduce((s, m) => s + m.indices.length, 0);
  const sets = Math.max(...meshes.map((m) => m.uvs.length));
  const colors = meshes.some((m) => m.colors);
  const inf = Math.max(0, ...meshes.map((m) => m.skin?.influences ?? 0));
  const out: ImportMesh = {
    name: meshes.length === 1 ? meshes[0]!.name : 'merged', node: -1, path: 'meshes', space: 'world',
    positions: new Float32Array(nv * 3), normals: new Float32Array(nv * 3), uvs: Array.from({ length: sets }, () => new Float32Array(nv * 2)),
    indices: new Uint32Array(ni), groups: [],
    ...(colors ? { colors: new Float32Array(nv * 4).fill(1) } : {}),
    ...(inf ? { skin: { joints: new Uint16Array(nv * inf), weights: new Float32Array(nv * inf), influences: inf } } : {}),
  };
  // Groups of one material stay together: sort by material, keeping file order within one.
  const byMaterial = new Map<number, { m: ImportMesh; base: number; g: ImportMesh['groups'][number]; flip: boolean }[]>();
  let base = 0;
  for (const m of meshes) {
    const g = worldGeometry(model, m);
    out.positions.set(g.positions, base * 3);
    out.normals.set(g.normals, base * 3);
    m.uvs.forEach((u, k) => out.uvs[k]!.set(u, base * 2));
    if (m.colors && out.colors) out.colors.set(m.colors, base * 4);
    if (m.skin && out.skin) {
      const n = m.positions.length / 3;
      for (let v = 0; v < n; v++) {
        for (let k = 0; k < m.skin.influences; k++) {
          out.skin.joints[(base + v) * inf + k] = m.skin.joints[v * m.skin.influences + k]!;
          out.skin.weights[(base + v) * inf + k] = m.skin.weights[v * m.skin.influences + k]!;
        }
      }
    }
    for (const grp of m.groups) {
      const list = byMaterial.get(grp.material) ?? [];
      list.push({ m, base, g: grp, flip: g.flip });
      byMaterial.set(grp.material, list);
    }
    base += m.positions.length / 3;
  }
  let at = 0;
  for (const [material, list] of byMaterial) {
    const start = at;
    for (const { m, base: b, g, flip } of list) {
      for (let i = 0; i < g.count; i += 3) {
        out.indices[at++] = m.indices[g.start + i]! + b;
        out.indices[at++] = m.indices[g.start + i + (flip ? 2 : 1)]! + b;
        out.indices[at++] = m.indices[g.start + i + (flip ? 1 : 2)]! + b;
      }
    }
    out.groups.push({ start, count: at - start, material });
  }
  return out;
}

/**
 * glTF joint -> the document's bone of the same name, when every joint the mesh uses has one;
 * otherwise undefined and a warning (the mesh then comes without weights).
 */
function boneMap(model: ImportModel, mesh: ImportMesh, docBones: string[], warnings: string[]): ((joint: number) => number) | undefined {
  const sk = mesh.skin;
  if (!sk) return undefined;
  const byName = new Map(docBones.map((n, i) => [n, i]));
  const used = new Set<number>();
  for (let i = 0; i < sk.weights.length; i++) if (sk.weights[i]! > 0) used.add(sk.joints[i]!);
  const missing = [...used].map((j) => model.nodes[model.joints[j]!]!.name).filter((n) => !byName.has(n));
  if (missing.length) {
    warnOnce(warnings, `the skin is left out: joint(s) ${missing.slice(0, 5).map((n) => `"${n}"`).join(', ')}${missing.length > 5 ? ', ...' : ''} are not bones of the document`);
    return undefined;
  }
  return (j) => byName.get(model.nodes[model.joints[j]!]!.name) ?? 0;
}

export interface Replacement {
  command: EditCommand;
  warnings: string[];
}

/** The edit that puts the glTF's geometry at `path` (a mesh, LOD or surface node) of `doc`. */
export function replaceMeshCommand(format: FormatId, doc: object, path: NodePath, model: ImportModel): Replacement {
  encodableNames(model, format === 'lodka-lod' ? 'cp1251' : 'latin1');
  const warnings = [...model.warnings];
  const mesh = mergedMesh(model);
  const label = 'Replace mesh from glTF';
  const node = getAt(doc, path) as Record<string, unknown> | undefined;
  switch (format) {
    case 'lodka-lod': {
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
      return { command: { op: 'batch', commands, label }, warnings };
    }
    case 'p3d-mlod': {
      const mlod = doc as MlodDocument;
      const li = path[0] === 'lods' && typeof path[1] === 'number' ? path[1] : -1;
      const lod = mlod.lods[li];
      if (!lod || path.length !== 2) throw new ImportError('select a LOD to replace', '');
      const replacement = mlodLodOf(model, lod.resolution, warnings);
      return { command: { op: 'set', path, value: replacement, label }, warnings };
    }
    case 'grimrock-model': {
      const gm = doc as GrimrockModel;
      const ni = path[0] === 'nodes' && typeof path[1] === 'number' ? path[1] : -1;
      const gnode = gm.nodes[ni] as GrimrockNode | undefined;
      if (!gnode?.mesh) throw new ImportError('select a node with a mesh to replace', '');
      // The glTF's space becomes the node's own: the new mesh sits where the old one did.
      if (mesh.skin) warnOnce(warnings, 'the skin is left out: a Grimrock mesh replacement keeps the node\'s own bones (weights are not mapped)');
      const md = grimrockMeshData(mesh, model.materials.map((m) => m.name), warnings);
      return { command: { op: 'set', path: ['nodes', ni, 'mesh', 'meshData'], value: md, label }, warnings };
    }
    case 'unigine-mesh': {
      const um = doc as UnigineMesh;
      const si = path[0] === 'surfaces' && typeof path[1] === 'number' ? path[1] : -1;
      const s = um.surfaces[si];
      if (!s || path.length !== 2) throw new ImportError('select a surface to replace', '');
      const bones = um.magic === 'mr02' ? [] : um.bones.map((b) => b.name);
      const map = boneMap(model, mesh, bones, warnings);
      const capped = map ? cappedSkin(mesh, 4, true, 'Unigine mesh', warnings) : undefined;
      if (capped) for (let i = 0; i < capped.joints.length; i++) capped.joints[i] = capped.weights[i]! > 0 ? map!(capped.joints[i]!) : 0;
      const replacement = unigineSurfaceOf({ ...mesh, ...(capped ? { skin: { ...capped, influences: 4 } } : {}) }, um.magic, s.name, !!capped);
      return { command: { op: 'set', path, value: replacement, label }, warnings };
    }
    default:
      throw new ImportError(`meshes of ${format} files cannot be replaced from glTF`, '');
  }
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
