/**
 * "Replace mesh from glTF": one mesh node of an open document (which nodes, the format's codec
 * says: `gltf.replaceable`) takes the geometry of a glTF, as one edit command, while everything
 * else keeps its bytes. The format's import writer builds the replacement (`replaceMesh` in its
 * folder's import.ts) from the glTF's meshes merged into one; materials are mapped by name, and
 * the document's skeleton stays as it is: a glTF skin comes across when every joint it uses names
 * a bone of the document ({@link boneMap}), otherwise the mesh comes without weights and a warning.
 */
import type { EditCommand } from '../model/commands.ts';
import type { NodePath } from '../model/path.ts';
import type { FormatCodec } from '../formats/registry.ts';
import { encodableNames } from './common.ts';
import { ImportError } from './errors.ts';
import { warnOnce, worldGeometry, type ImportMesh, type ImportModel } from './model.ts';

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
export function boneMap(model: ImportModel, mesh: ImportMesh, docBones: string[], warnings: string[]): ((joint: number) => number) | undefined {
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

/**
 * The edit that puts the glTF's geometry at `path` (a node the codec's `gltf.replaceable`
 * accepts) of `doc`, built by the format's own import writer.
 */
export async function replaceMeshCommand(codec: FormatCodec, doc: object, path: NodePath, model: ImportModel): Promise<Replacement> {
  const importer = await codec.gltf?.load();
  if (!importer?.replaceMesh) throw new ImportError(`meshes of ${codec.label} files cannot be replaced from glTF`, '');
  encodableNames(model, importer.nameEncoding);
  const warnings = [...model.warnings];
  const mesh = mergedMesh(model);
  const command = importer.replaceMesh(doc, path, model, mesh, warnings);
  return { command: { ...command, label: 'Replace mesh from glTF' }, warnings };
}
