/**
 * The P3D modding rules (MLOD and ODOL), after Arma 3 Object Builder's (A3OB) validation sets and
 * HEMTT's binarize warnings. docs/rules.md says what each checks and why the game cares. Paths,
 * LOD resolutions, proxies and named selections are checked in both forms; face, UV and Geometry
 * checks read MLOD's editable geometry (binarizing has already settled those in an ODOL).
 */
import type { RuleEnvironment, RuleFinding, RuleInfo, RuleSet } from '../../model/rules.ts';
import type { NodePath } from '../../model/path.ts';
import { isMlod, p3dGroups, p3dLods } from './editor.ts';
import { p3dProxyRefs } from './editor-proxies.ts';
import { isSpecialTagName, type MlodDocument, type MlodLod } from './mlod/types.ts';
import type { OdolDocument } from './odol/document.ts';
import { isVisualResolution, resolutionKind, resolutionName } from './resolution.ts';

export const P3D_RULES: readonly RuleInfo[] = [
  { id: 'path-absolute', severity: 'error', title: 'texture or material path with a drive letter (P:\\...)' },
  { id: 'path-leading-backslash', severity: 'warning', title: 'texture or material path starting with \\' },
  { id: 'path-forward-slash', severity: 'warning', title: 'texture or material path using /' },
  { id: 'path-missing', severity: 'warning', title: 'texture or material file not found' },
  { id: 'texture-not-power-of-two', severity: 'error', title: 'texture whose width or height is not a power of two' },
  { id: 'lod-duplicate-resolution', severity: 'error', title: 'two LODs with the same resolution' },
  { id: 'geometry-no-mass', severity: 'warning', title: 'Geometry LOD without mass' },
  { id: 'geometry-no-components', severity: 'warning', title: 'Geometry LOD without Component## selections' },
  { id: 'geometry-component-open', severity: 'warning', title: 'Geometry component that is not closed' },
  { id: 'geometry-component-concave', severity: 'warning', title: 'Geometry component that is not convex' },
  { id: 'shadow-non-triangle', severity: 'error', title: 'Shadow Volume face that is not a triangle' },
  { id: 'shadow-open', severity: 'error', title: 'Shadow Volume that is not closed' },
  { id: 'face-too-many-vertices', severity: 'error', title: 'face with more than four vertices' },
  { id: 'face-degenerate', severity: 'warning', title: 'face with repeated vertices or no area' },
  { id: 'proxy-missing', severity: 'warning', title: 'proxy whose model cannot be found' },
  { id: 'selection-empty', severity: 'warning', title: 'named selection with no points and no faces' },
  { id: 'uv-nan', severity: 'error', title: 'UV that is not a number' },
  { id: 'uv-far-outside', severity: 'warning', title: 'UV far outside the texture' },
];

/** How far outside 0..1 a UV may tile before it is "far" (a few hundred repeats is deliberate tiling; beyond is an unwrap gone wrong). */
export const UV_FAR = 512;
/** A Geometry component point this far outside a face's plane (relative to the component's size) makes it concave. */
const CONVEX_TOLERANCE = 1e-3;
/** At most this many findings per rule and LOD are itemised; the rest are counted in the last one. */
const PER_LOD = 5;

type AnyDoc = MlodDocument | OdolDocument;

export const p3dRuleSet: RuleSet = {
  rules: P3D_RULES,
  run: (doc, env) => runP3dRules(doc as AnyDoc, env),
};

function runP3dRules(doc: AnyDoc, env: RuleEnvironment): RuleFinding[] {
  const out: RuleFinding[] = [];
  const lods = p3dLods(doc);
  const seen = new Map<number, string>();
  for (const lod of lods) {
    const lodName = resolutionName(lod.resolution);
    const base: NodePath = ['lods', lod.index];
    const where = `LOD ${lodName}`;
    const key = Math.fround(lod.resolution);
    if (seen.has(key)) out.push({ rule: 'lod-duplicate-resolution', message: `LOD ${lodName} appears twice (LODs ${seen.get(key)} and ${lod.index})`, where, path: [...base, 'resolution'] });
    else seen.set(key, String(lod.index));
    pathRules(doc, lod.index, where, env, out);
    for (const p of p3dProxyRefs(doc, lod.index)) {
      if (!p.path.trim()) continue;
      if (env.exists?.(p.path, 'model') === false) out.push({ rule: 'proxy-missing', message: `proxy ${p.path} names a model that cannot be found`, where: `${where}, proxy ${p.name}`, path: p.source });
    }
    // An ODOL lists every selection of the model in each LOD, empty where the LOD has none of it.
    // (The selections p3dSelections lists, each tested up to its first point or face, not counted.)
    if (isMlod(doc)) doc.lods[lod.index]!.tags.forEach((t, k) => {
      if (t.type !== 'selection' || isSpecialTagName(t.name) || anySet(t.points) || anySet(t.faces)) return;
      out.push({ rule: 'selection-empty', message: `named selection ${t.name} selects nothing`, where: `${where}, selection ${t.name}`, path: ['lods', lod.index, 'tags', k] });
    });
    if (isMlod(doc)) mlodGeometryRules(doc.lods[lod.index]!, lod.index, where, out);
  }
  return out;
}

/** Texture and material paths of one LOD's face groups. */
function pathRules(doc: AnyDoc, lod: number, where: string, env: RuleEnvironment, out: RuleFinding[]): void {
  const done = new Set<string>();
  for (const g of p3dGroups(doc, lod)) {
    for (const [kind, written] of [['texture', g.texture], ['material', g.material]] as const) {
      if (!written || written.startsWith('#') || done.has(kind + written)) continue;
      done.add(kind + written);
      const what = `${kind} ${written}`;
      const at = { where: `${where}, ${kind} ${written}`, path: g.source };
      if (/^[A-Za-z]:/.test(written)) out.push({ rule: 'path-absolute', message: `${what} is absolute (a drive letter): the game resolves paths from the root of its virtual file system, where no drive exists`, ...at });
      else if (/^[\\/]/.test(written)) out.push({ rule: 'path-leading-backslash', message: `${what} starts with a slash; write it from the root without one (a\\b\\c.paa)`, ...at });
      if (written.includes('/')) out.push({ rule: 'path-forward-slash', message: `${what} uses /; the game's paths use \\`, ...at });
      const exists = env.exists?.(written, kind);
      if (exists === false) out.push({ rule: 'path-missing', message: `${what} names a file that cannot be found`, ...at });
      else if (kind === 'texture' && exists) {
        const size = env.textureSize?.(written);
        if (size && (!isPowerOfTwo(size.width) || !isPowerOfTwo(size.height))) {
          out.push({ rule: 'texture-not-power-of-two', message: `${what} is ${size.width}x${size.height}; the game needs each side a power of two`, ...at });
        }
      }
    }
  }
}

/** True when any byte of a selection's membership array is set. */
function anySet(a: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i]) return true;
  return false;
}

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/**
 * Findings of one rule in one LOD, itemised up to PER_LOD and counted after that. A caller with a
 * finding per face asks {@link take} first and builds the finding (its strings, its path) only
 * when it is itemised: most faces of a big LOD with a problem are only counted.
 */
class Capped {
  private readonly counts = new Map<string, number>();
  private readonly out: RuleFinding[];
  constructor(out: RuleFinding[]) {
    this.out = out;
  }
  /** Counts one finding of `rule`; true when it is to be itemised (given to {@link push}). */
  take(rule: string): boolean {
    const n = (this.counts.get(rule) ?? 0) + 1;
    this.counts.set(rule, n);
    return n <= PER_LOD;
  }
  push(f: RuleFinding): void {
    this.out.push(f);
  }
  add(f: RuleFinding): void {
    if (this.take(f.rule)) this.out.push(f);
  }
  finish(where: string, path: NodePath): void {
    for (const [rule, n] of this.counts) if (n > PER_LOD) this.out.push({ rule, message: `${n - PER_LOD} more like it in this LOD`, where, path });
  }
}

function mlodGeometryRules(l: MlodLod, lod: number, where: string, out: RuleFinding[]): void {
  const kind = resolutionKind(l.resolution);
  const f = l.faces;
  const n = f.vertexCount.length;
  const nPoints = l.pointFlags.length;
  const base: NodePath = ['lods', lod];
  const cap = new Capped(out);
  const P = l.points;
  const vcs = f.vertexCount;
  const pi = f.pointIndex;
  const uv = f.uv;
  // UVs matter where faces are drawn (a Fire Geometry's UVs are never used).
  const drawn = isVisualResolution(l.resolution);
  const shadow = kind === 'shadow';
  // Per face: no arrays, strings or paths unless the face has a finding that is itemised.
  const fw = (i: number): string => `${where}, face ${i}`;
  const fp = (i: number): NodePath => [...base, 'faces', 'vertexCount', i];
  for (let i = 0; i < n; i++) {
    const vc = vcs[i]!;
    if (vc > 4) {
      if (cap.take('face-too-many-vertices')) cap.push({ rule: 'face-too-many-vertices', message: `face ${i} has ${vc} vertices; faces have three or four`, where: fw(i), path: fp(i) });
      continue;
    }
    if (vc < 3) continue;
    const o = i * 4;
    const a = pi[o]!, b = pi[o + 1]!, c = pi[o + 2]!, d = vc === 4 ? pi[o + 3]! : 0;
    if (a >= nPoints || b >= nPoints || c >= nPoints || (vc === 4 && d >= nPoints)) continue;
    const repeated = a === b || a === c || b === c || (vc === 4 && (d === a || d === b || d === c));
    if (repeated) {
      if (cap.take('face-degenerate')) cap.push({ rule: 'face-degenerate', message: `face ${i} uses a point twice`, where: fw(i), path: fp(i) });
    } else if (faceArea(P, a, b, c, vc === 4 ? d : -1) <= 1e-12) {
      if (cap.take('face-degenerate')) cap.push({ rule: 'face-degenerate', message: `face ${i} has no area (its points lie on a line)`, where: fw(i), path: fp(i) });
    }
    if (drawn) {
      for (let k = 0; k < vc; k++) {
        const at = i * 8 + k * 2;
        const u = uv[at]!, v = uv[at + 1]!;
        if (Number.isNaN(u) || Number.isNaN(v)) {
          if (cap.take('uv-nan')) cap.push({ rule: 'uv-nan', message: `face ${i} vertex ${k} has UV (${u}, ${v})`, where: fw(i), path: [...base, 'faces', 'uv', at] });
          break;
        }
        if (Math.abs(u) > UV_FAR || Math.abs(v) > UV_FAR || !Number.isFinite(u) || !Number.isFinite(v)) {
          if (cap.take('uv-far-outside')) cap.push({ rule: 'uv-far-outside', message: `face ${i} vertex ${k} has UV (${u}, ${v}), more than ${UV_FAR} textures away`, where: fw(i), path: [...base, 'faces', 'uv', at] });
          break;
        }
      }
    }
    if (shadow && vc !== 3 && cap.take('shadow-non-triangle')) cap.push({ rule: 'shadow-non-triangle', message: `face ${i} has ${vc} vertices; a Shadow Volume is triangles only`, where: fw(i), path: fp(i) });
  }
  if (shadow && n > 0) {
    const open = openEdges(f.vertexCount, f.pointIndex, null);
    if (open > 0) cap.add({ rule: 'shadow-open', message: `${open} edges belong to one face only: the Shadow Volume is not closed, so its shadow leaks`, where, path: [...base, 'faces'] });
  }
  if (resolutionName(l.resolution) === 'Geometry') geometryRules(l, lod, where, cap);
  cap.finish(where, [...base, 'faces']);
}

function geometryRules(l: MlodLod, lod: number, where: string, cap: Capped): void {
  const base: NodePath = ['lods', lod];
  const massTag = l.tags.find((t) => t.type === 'mass');
  let mass = 0;
  if (massTag && massTag.type === 'mass') for (const m of massTag.masses) if (Number.isFinite(m)) mass += m;
  if (!(mass > 0)) cap.add({ rule: 'geometry-no-mass', message: massTag ? 'the Geometry LOD\'s points weigh nothing in all' : 'the Geometry LOD has no mass (#Mass# tag)', where, path: base });
  const components = l.tags.map((t, k) => ({ t, k })).filter(({ t }) => t.type === 'selection' && /^component\d+$/i.test(t.name));
  if (components.length === 0) {
    if (l.faces.vertexCount.length > 0) cap.add({ rule: 'geometry-no-components', message: 'the Geometry LOD has no Component## selections: collisions use what binarize guesses', where, path: base });
    return;
  }
  const f = l.faces;
  const P = l.points;
  for (const { t, k } of components) {
    if (t.type !== 'selection') continue;
    const cw = `${where}, selection ${t.name}`;
    const cp: NodePath = [...base, 'tags', k];
    // A component's faces: the faces whose points are all in it.
    const inFace = new Uint8Array(f.vertexCount.length);
    let faces = 0;
    for (let i = 0; i < f.vertexCount.length; i++) {
      const vc = Math.min(4, f.vertexCount[i]!);
      let all = vc >= 3;
      for (let s = 0; s < vc && all; s++) all = !!t.points[f.pointIndex[i * 4 + s]!];
      if (all) {
        inFace[i] = 1;
        faces++;
      }
    }
    if (faces === 0) continue;
    const open = openEdges(f.vertexCount, f.pointIndex, inFace);
    if (open > 0) cap.add({ rule: 'geometry-component-open', message: `${t.name} is not closed (${open} edges belong to one face): collisions with it are unreliable`, where: cw, path: cp });
    if (!isConvex(P, f.vertexCount, f.pointIndex, inFace, t.points)) cap.add({ rule: 'geometry-component-concave', message: `${t.name} is not convex: the engine treats each component as its convex hull`, where: cw, path: cp });
  }
}

/** Twice the area of a face with points a, b, c (and d, or -1 for a triangle): its triangles' cross products summed. */
function faceArea(P: Float32Array, a: number, b: number, c: number, d: number): number {
  const ax = P[a * 3]!, ay = P[a * 3 + 1]!, az = P[a * 3 + 2]!;
  const ux = P[b * 3]! - ax, uy = P[b * 3 + 1]! - ay, uz = P[b * 3 + 2]! - az;
  const vx = P[c * 3]! - ax, vy = P[c * 3 + 1]! - ay, vz = P[c * 3 + 2]! - az;
  let sx = uy * vz - uz * vy;
  let sy = uz * vx - ux * vz;
  let sz = ux * vy - uy * vx;
  if (d >= 0) {
    const wx = P[d * 3]! - ax, wy = P[d * 3 + 1]! - ay, wz = P[d * 3 + 2]! - az;
    sx += vy * wz - vz * wy;
    sy += vz * wx - vx * wz;
    sz += vx * wy - vy * wx;
  }
  return Math.hypot(sx, sy, sz);
}

/** Scratch for {@link openEdges}: one key per face edge, grown as needed and kept. */
let edgeKeys = new Float64Array(0);

/** Edges (point pairs) used by exactly one of the faces (all faces, or those marked in `only`). */
function openEdges(vertexCount: Uint32Array, pointIndex: Uint32Array, only: Uint8Array | null): number {
  // Every edge as one number (low point * 2^32 + high point), sorted: an edge used once is a run of one.
  const most = vertexCount.length * 4;
  if (edgeKeys.length < most) edgeKeys = new Float64Array(Math.max(most, edgeKeys.length * 2, 1024));
  const keys = edgeKeys;
  let m = 0;
  for (let i = 0; i < vertexCount.length; i++) {
    if (only && !only[i]) continue;
    const vc = Math.min(4, vertexCount[i]!);
    if (vc < 3) continue;
    for (let s = 0; s < vc; s++) {
      const a = pointIndex[i * 4 + s]!, b = pointIndex[i * 4 + ((s + 1) % vc)]!;
      if (a === b) continue;
      keys[m++] = a < b ? a * 4294967296 + b : b * 4294967296 + a;
    }
  }
  const used = keys.subarray(0, m).sort();
  let open = 0;
  for (let i = 0; i < m; ) {
    let j = i + 1;
    while (j < m && used[j] === used[i]) j++;
    if (j - i === 1) open++;
    i = j;
  }
  return open;
}

/** True when every point of the component lies on one side of each of its faces' planes. */
function isConvex(P: Float32Array, vertexCount: Uint32Array, pointIndex: Uint32Array, inFace: Uint8Array, sel: Uint8Array): boolean {
  const pts: number[] = [];
  for (let i = 0; i < sel.length; i++) if (sel[i] && i * 3 + 2 < P.length) pts.push(i);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const p of pts) for (let a = 0; a < 3; a++) {
    min[a] = Math.min(min[a]!, P[p * 3 + a]!);
    max[a] = Math.max(max[a]!, P[p * 3 + a]!);
  }
  const size = Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) || 1;
  const tol = size * CONVEX_TOLERANCE;
  for (let i = 0; i < vertexCount.length; i++) {
    if (!inFace[i]) continue;
    // Each triangle of the face (a quad that is not flat has two planes).
    for (let t = 0; t + 2 < Math.min(4, vertexCount[i]!); t++) {
      const a = pointIndex[i * 4]! * 3, b = pointIndex[i * 4 + t + 1]! * 3, c = pointIndex[i * 4 + t + 2]! * 3;
      const ux = P[b]! - P[a]!, uy = P[b + 1]! - P[a + 1]!, uz = P[b + 2]! - P[a + 2]!;
      const vx = P[c]! - P[a]!, vy = P[c + 1]! - P[a + 1]!, vz = P[c + 2]! - P[a + 2]!;
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const len = Math.hypot(nx, ny, nz);
      if (len < 1e-12) continue;
      nx /= len; ny /= len; nz /= len;
      let above = false, below = false;
      for (const p of pts) {
        const d = (P[p * 3]! - P[a]!) * nx + (P[p * 3 + 1]! - P[a + 1]!) * ny + (P[p * 3 + 2]! - P[a + 2]!) * nz;
        if (d > tol) above = true;
        else if (d < -tol) below = true;
        if (above && below) return false;
      }
    }
  }
  return true;
}
