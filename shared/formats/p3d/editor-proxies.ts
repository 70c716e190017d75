/**
 * The P3D proxy editor's side (editor.ts has the rest): the proxies of a LOD, and the commands
 * that edit, add, delete and move them. MLOD proxies are triangles in a `proxy:PATH.NNN`
 * selection (the right-angled corner is the position, the longer leg the proxy's y, the shorter
 * its z); ODOL proxies are records with a 4x3 transform.
 */
import type { EditCommand } from '../../model/commands.ts';
import type { P3dProxy } from '../../model/editor-query.ts';
import { resolutionLabel } from './resolution.ts';
import type { MlodLod, SelectionTag } from './mlod/types.ts';
import { mlodProxyCommands, nextProxyName } from './mlod/proxy-edits.ts';
import { isMlod, mlodLod, odolLod, type AnyDoc, type OdolNodeFactory } from './editor-docs.ts';

export type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (a: V3): number => Math.hypot(a[0], a[1], a[2]);
const norm = (a: V3): V3 => {
  const l = len(a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** `proxy:\path\model.001` -> `\path\model` (the index suffix is the proxy's number). */
export function proxyPathOf(selection: string): { path: string; suffix: string } {
  const body = selection.slice('proxy:'.length);
  const m = /^(.*?)(\.\d+)?$/.exec(body)!;
  return { path: m[1] ?? body, suffix: m[2] ?? '' };
}

interface MlodProxyShape {
  tag: number;
  sel: SelectionTag;
  /** Point indices: the right-angled corner, the end of the long leg (y), the end of the short leg (z). */
  corner: number;
  yEnd: number;
  zEnd: number;
}

const pointOf = (l: MlodLod, i: number): V3 => [l.points[i * 3]!, l.points[i * 3 + 1]!, l.points[i * 3 + 2]!];

/**
 * The triangle of a proxy selection: the first selected face of three corners, else the first
 * three selected points; undefined when it has neither or names a point the LOD lacks.
 */
function proxyTriangle(l: MlodLod, t: SelectionTag): number[] | undefined {
  let pts: number[] = [];
  const f = l.faces;
  for (let i = 0; i < t.faces.length; i++) {
    if (t.faces[i] && f.vertexCount[i] === 3) {
      pts = [f.pointIndex[i * 4]!, f.pointIndex[i * 4 + 1]!, f.pointIndex[i * 4 + 2]!];
      break;
    }
  }
  if (pts.length === 0) for (let i = 0; i < t.points.length && pts.length < 3; i++) if (t.points[i]) pts.push(i);
  if (pts.length < 3 || pts.some((p) => p >= l.pointFlags.length)) return undefined;
  return pts;
}

const isProxySelection = (t: MlodLod['tags'][number]): t is SelectionTag => t.type === 'selection' && t.name.toLowerCase().startsWith('proxy:');

/** The proxy selections of an MLOD LOD with the corners of their triangles. */
function mlodProxyShapes(l: MlodLod): MlodProxyShape[] {
  const out: MlodProxyShape[] = [];
  l.tags.forEach((t, tag) => {
    if (!isProxySelection(t)) return;
    const pts = proxyTriangle(l, t);
    if (!pts) return;
    // The corner is the one with the widest angle; of the other two, the farther one ends the y leg.
    const angle = (k: number): number => {
      const a = pointOf(l, pts[k]!);
      const u = norm(sub(pointOf(l, pts[(k + 1) % 3]!), a));
      const v = norm(sub(pointOf(l, pts[(k + 2) % 3]!), a));
      return Math.acos(Math.max(-1, Math.min(1, dot(u, v))));
    };
    const k = [0, 1, 2].sort((a, b) => angle(b) - angle(a))[0]!;
    const corner = pts[k]!;
    const p = pts[(k + 1) % 3]!;
    const q = pts[(k + 2) % 3]!;
    const c = pointOf(l, corner);
    const [yEnd, zEnd] = len(sub(pointOf(l, p), c)) >= len(sub(pointOf(l, q), c)) ? [p, q] : [q, p];
    out.push({ tag, sel: t, corner, yEnd, zEnd });
  });
  return out;
}

function shapeAxes(l: MlodLod, s: MlodProxyShape): { position: V3; axes: number[] } {
  const c = pointOf(l, s.corner);
  const y = norm(sub(pointOf(l, s.yEnd), c));
  let z = norm(sub(pointOf(l, s.zEnd), c));
  const x = norm(cross(y, z));
  z = norm(cross(x, y));
  return { position: c, axes: [...x, ...y, ...z] };
}

/** The proxies of one LOD. */
export function p3dProxies(doc: AnyDoc, lod: number): P3dProxy[] {
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    return mlodProxyShapes(l).map((s, index) => {
      const { position, axes } = shapeAxes(l, s);
      return { index, path: proxyPathOf(s.sel.name).path, name: s.sel.name, position, axes, source: ['lods', lod, 'tags', s.tag], editable: true };
    });
  }
  const l = odolLod(doc, lod);
  return (l.proxies as Record<string, unknown>[]).map((p, index) => {
    const name = String(p.name ?? '');
    let m: number[];
    if (isNumbers(p.transform)) m = Array.from(p.transform as ArrayLike<unknown>, Number);
    else m = [...Array.from((p.rotation as ArrayLike<unknown>) ?? [], Number), ...Array.from((p.translation as ArrayLike<unknown>) ?? [], Number)];
    const ok = m.length === 12 && m.every(Number.isFinite);
    return {
      index, path: name, name, position: ok ? [m[9]!, m[10]!, m[11]!] : [0, 0, 0], axes: ok ? m.slice(0, 9) : [1, 0, 0, 0, 1, 0, 0, 0, 1],
      source: ['lods', lod, 'proxies', index], editable: ok,
    };
  });
}

/**
 * The proxies of one LOD as {@link p3dProxies} lists them (same ones, same order), with only
 * what names them: path, name and node path. The modding rules need no more, and an MLOD
 * proxy's position and axes cost a few arrays each.
 */
export function p3dProxyRefs(doc: AnyDoc, lod: number): Pick<P3dProxy, 'path' | 'name' | 'source'>[] {
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const out: Pick<P3dProxy, 'path' | 'name' | 'source'>[] = [];
    l.tags.forEach((t, tag) => {
      if (isProxySelection(t) && proxyTriangle(l, t)) out.push({ path: proxyPathOf(t.name).path, name: t.name, source: ['lods', lod, 'tags', tag] });
    });
    return out;
  }
  return (odolLod(doc, lod).proxies as Record<string, unknown>[]).map((p, index) => {
    const name = String(p.name ?? '');
    return { path: name, name, source: ['lods', lod, 'proxies', index] };
  });
}

/** A list of numbers as a record may hold it: an array, or a typed array. */
const isNumbers = (x: unknown): boolean => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

/** Gram-Schmidt: nine numbers -> an orthonormal x, y, z (y kept, z made perpendicular). */
function orthonormal(axes: readonly number[]): { x: V3; y: V3; z: V3 } {
  const y = norm([axes[3]!, axes[4]!, axes[5]!]);
  let z: V3 = [axes[6]!, axes[7]!, axes[8]!];
  z = norm(sub(z, [y[0] * dot(z, y), y[1] * dot(z, y), y[2] * dot(z, y)]));
  const x = norm(cross(y, z));
  return { x, y, z };
}

/** The command that changes a proxy's model path, position and/or orientation (axes: x, y, z, nine numbers). */
export function proxyEditCommand(doc: AnyDoc, lod: number, index: number, change: { path?: string; position?: number[]; axes?: number[] }): EditCommand {
  const proxies = p3dProxies(doc, lod);
  const p = proxies[index];
  if (!p) throw new RangeError(`no proxy ${index} in LOD ${lod}`);
  for (const [k, n] of [['position', 3], ['axes', 9]] as const) {
    const v = change[k];
    if (v !== undefined && (v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))) throw new RangeError(`${k} must be ${n} finite numbers`);
  }
  if (change.path !== undefined && (change.path === '' || change.path.includes('\0'))) throw new RangeError('a proxy path is non-empty text without NUL');
  const what = change.path !== undefined && !change.position && !change.axes ? 'Rename' : change.axes ? 'Turn' : 'Move';
  const label = `${what} proxy ${(change.path ?? p.path).split('\\').pop()}`;
  const commands: EditCommand[] = [];
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const s = mlodProxyShapes(l)[index]!;
    if (change.path !== undefined) {
      commands.push({ op: 'set', path: ['lods', lod, 'tags', s.tag, 'name'], value: `proxy:${change.path}${proxyPathOf(s.sel.name).suffix}` });
    }
    if (change.position || change.axes) {
      const c0 = pointOf(l, s.corner);
      const ly = len(sub(pointOf(l, s.yEnd), c0));
      const lz = len(sub(pointOf(l, s.zEnd), c0));
      const pos = (change.position ?? p.position) as V3;
      const { y, z } = orthonormal(change.axes ?? p.axes);
      const place: [number, V3][] = [
        [s.corner, pos],
        [s.yEnd, [pos[0] + y[0] * ly, pos[1] + y[1] * ly, pos[2] + y[2] * ly]],
        [s.zEnd, [pos[0] + z[0] * lz, pos[1] + z[1] * lz, pos[2] + z[2] * lz]],
      ];
      for (const [pt, v] of place) {
        for (let a = 0; a < 3; a++) {
          // Stored as float32: only elements whose stored value changes are written.
          if (Math.fround(v[a]!) !== l.points[pt * 3 + a]) commands.push({ op: 'set', path: ['lods', lod, 'points', pt * 3 + a], value: Math.fround(v[a]!) });
        }
      }
    }
  } else {
    const rec = (odolLod(doc, lod).proxies as Record<string, unknown>[])[index]!;
    if (change.path !== undefined) {
      commands.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'name'], value: change.path });
      // The binarizer names the proxy's selection `proxy:PATH.NNN` after it: keep the two in step.
      const si = Number(rec.namedSelectionIndex ?? -1);
      const sel = (odolLod(doc, lod).namedSelections as { name: string }[])[si];
      if (sel && sel.name.toLowerCase().startsWith('proxy:') && proxyPathOf(sel.name).path.toLowerCase() === p.path.toLowerCase()) {
        commands.push({ op: 'set', path: ['lods', lod, 'namedSelections', si, 'name'], value: `proxy:${change.path}${proxyPathOf(sel.name).suffix}` });
      }
    }
    if (change.position || change.axes) {
      const pos = change.position ?? p.position;
      let axes = change.axes ?? p.axes;
      if (change.axes) {
        const o = orthonormal(change.axes);
        axes = [...o.x, ...o.y, ...o.z];
      }
      // Written in the form the record holds (a list of numbers, or a Float32Array).
      const like = (old: unknown, v: number[]): unknown => (ArrayBuffer.isView(old) ? Float32Array.from(v) : v.map(Math.fround));
      if (isNumbers(rec.transform)) {
        commands.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'transform'], value: like(rec.transform, [...axes, ...pos]) });
      } else {
        commands.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'rotation'], value: like(rec.rotation, axes) });
        commands.push({ op: 'set', path: ['lods', lod, 'proxies', index, 'translation'], value: like(rec.translation, pos) });
      }
    }
  }
  if (commands.length === 1) return { ...commands[0]!, label };
  return { op: 'batch', commands, label };
}

/** The proxy's file name, for undo step names (`lamp`). */
const shortName = (path: string): string => path.split(/[\\/]/).filter(Boolean).pop() || path;

/**
 * The command that adds a proxy to LOD `lod`, at the model's origin, facing the model's axes.
 * MLOD: a placeholder triangle (y leg 2 m, z leg 1 m, as Object Builder makes one) and its
 * `proxy:PATH.NNN` selection;
 * ODOL: a proxy record (it names no selection: the binarized LOD has no placeholder for it).
 */
export function proxyAddCommand(doc: AnyDoc, lod: number, path = 'proxy', createNode?: OdolNodeFactory): EditCommand {
  if (path === '' || path.includes('\0')) throw new RangeError('a proxy path is non-empty text without NUL');
  const label = `Add ${path === 'proxy' ? 'a proxy' : `proxy ${shortName(path)}`} to LOD ${resolutionLabel(doc.lods[lod]?.resolution ?? Number.NaN)}`;
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const commands = mlodProxyCommands(l, lod, { add: { name: nextProxyName(l, path), corners: [[0, 0, 0], [0, 2, 0], [0, 0, 1]] } });
    return { op: 'batch', commands, label };
  }
  odolLod(doc, lod);
  if (!createNode) throw new RangeError('adding a proxy to an ODOL model needs the ODOL codec');
  const cmd = createNode(doc, ['lods', lod, 'proxies'], 'proxy');
  if (!cmd) throw new RangeError(`LOD ${lod} cannot hold a proxy`);
  if (cmd.op === 'insert' && path !== 'proxy') cmd.value = { ...(cmd.value as object), name: path };
  return { ...cmd, label };
}

/**
 * The command that deletes proxy `index` of LOD `lod`. MLOD: its selection, its triangle, and the
 * points nothing else uses (the rest of the LOD keeps its data); ODOL: its record (the binarized
 * placeholder faces stay: they are part of the compiled geometry and never drawn).
 */
export function proxyDeleteCommand(doc: AnyDoc, lod: number, index: number): EditCommand {
  const p = p3dProxies(doc, lod)[index];
  if (!p) throw new RangeError(`no proxy ${index} in LOD ${lod}`);
  const label = `Delete proxy ${shortName(p.path)}`;
  if (isMlod(doc)) {
    const l = mlodLod(doc, lod);
    const s = mlodProxyShapes(l)[index]!;
    return { op: 'batch', commands: mlodProxyCommands(l, lod, { remove: s.tag }), label };
  }
  return { op: 'remove', path: ['lods', lod, 'proxies', index], label };
}

/**
 * The command that moves proxy `index` of LOD `lod` to LOD `to` of the same model, keeping its
 * path, position and orientation: one undo step. MLOD: the triangle and selection are deleted
 * from one LOD and made in the other (the number is kept unless the other LOD uses it). ODOL: the
 * record moves; its selection, bone and section indices named things of the old LOD, so the
 * moved record names none (-1), as a proxy added in the editor does.
 */
export function proxyLodCommand(doc: AnyDoc, lod: number, index: number, to: number): EditCommand {
  const p = p3dProxies(doc, lod)[index];
  if (!p) throw new RangeError(`no proxy ${index} in LOD ${lod}`);
  if (!doc.lods[to]) throw new RangeError(`no LOD ${to}`);
  if (to === lod) throw new RangeError('the proxy is already in that LOD');
  const label = `Move proxy ${shortName(p.path)} to LOD ${resolutionLabel(doc.lods[to]!.resolution)}`;
  if (isMlod(doc)) {
    const from = mlodLod(doc, lod);
    const target = mlodLod(doc, to);
    const s = mlodProxyShapes(from)[index]!;
    const taken = target.tags.some((t) => t.name.toLowerCase() === s.sel.name.toLowerCase());
    const name = taken ? nextProxyName(target, proxyPathOf(s.sel.name).path) : s.sel.name;
    const corners: [V3, V3, V3] = [pointOf(from, s.corner), pointOf(from, s.yEnd), pointOf(from, s.zEnd)];
    return {
      op: 'batch',
      commands: [...mlodProxyCommands(from, lod, { remove: s.tag }), ...mlodProxyCommands(target, to, { add: { name, corners } })],
      label,
    };
  }
  const rec = (odolLod(doc, lod).proxies as Record<string, unknown>[])[index]!;
  const moved: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('$')) moved[k] = ArrayBuffer.isView(v) ? (v as Float32Array).slice() : Array.isArray(v) ? [...v] : v;
  for (const k of ['namedSelectionIndex', 'boneIndex', 'sectionIndex']) if (k in moved) moved[k] = -1;
  const list = odolLod(doc, to).proxies as unknown[];
  return {
    op: 'batch',
    commands: [
      { op: 'remove', path: ['lods', lod, 'proxies', index] },
      { op: 'insert', path: ['lods', to, 'proxies'], index: list.length, value: moved },
    ],
    label,
  };
}

