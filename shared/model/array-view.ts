/**
 * Bulk arrays (positions, normals, UVs, indices, weights) as tables: a page of rows with named
 * columns, read from the typed array at a node path, and the checks a cell edit must pass. Every
 * format's arrays go through here, so the editor never shows one as a blob of numbers.
 *
 * A cell edit is an ordinary `set` on one element (`[...dataPath, row * stride + column]`), so
 * undo, dirty tracking and the lossless encoders treat it like any other edit.
 */
import { batchRefusal, type EditCommand } from './commands.ts';
import { getAt, pathKey, type NodePath } from './path.ts';

type Numeric = Float32Array | Float64Array | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array;

/** How an array splits into rows: elements per row and a name per column. */
export interface ArrayLayout {
  stride: number;
  columns: string[];
  /** A sentence on what a row is ("one vertex", "one face: point index per corner"). */
  note?: string;
  /** False when a cell cannot be edited (derived or packed data). */
  editable?: boolean;
}

/** One page of a table. */
export interface ArrayPage {
  /** The node asked for. */
  path: NodePath;
  /** Where the typed array itself lives (the node, or its `data` for packed arrays). */
  dataPath: NodePath;
  /** Element type: `Float32Array`, `Uint16Array`... */
  type: string;
  /** Elements in the whole array. */
  length: number;
  stride: number;
  columns: string[];
  /** Rows in the whole array (the last may be short when length is not a multiple of stride). */
  rows: number;
  /** First row of this page. */
  start: number;
  /** Values of this page's rows, row after row (stride per row). */
  values: number[];
  editable: boolean;
  note?: string;
  /** Set when the node is a list of arrays (UV sets): how many; the page shows `set`. */
  sets?: number;
  set?: number;
}

/**
 * Whether page `b` shows the same cells with the same values as page `a`: a re-read that brought
 * nothing new (the same change announced twice, by an edit's answer and by its event). The table
 * keeps what is being typed over such a read; only a real change of the values drops it.
 */
export function samePage(a: ArrayPage | null | undefined, b: ArrayPage): boolean {
  if (!a || a.start !== b.start || a.set !== b.set || a.length !== b.length || a.stride !== b.stride || a.values.length !== b.values.length) return false;
  if (pathKey(a.dataPath) !== pathKey(b.dataPath)) return false;
  for (let i = 0; i < a.values.length; i++) if (!Object.is(a.values[i], b.values[i])) return false;
  return true;
}

/** The largest page a request may ask for. */
export const MAX_PAGE_ROWS = 1000;

function isNumeric(v: unknown): v is Numeric {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(typeof BigInt64Array !== 'undefined' && (v instanceof BigInt64Array || v instanceof BigUint64Array));
}

/** The typed array at `path` (directly, or the `data` of a packed-array node) and where it is. */
export function typedArrayAt(doc: unknown, path: NodePath): { data: Numeric; dataPath: NodePath } | undefined {
  const v = getAt(doc, path);
  if (isNumeric(v)) return { data: v, dataPath: [...path] };
  if (v && typeof v === 'object' && !Array.isArray(v) && isNumeric((v as { data?: unknown }).data)) {
    return { data: (v as { data: Numeric }).data, dataPath: [...path, 'data'] };
  }
  return undefined;
}

const xyz = ['x', 'y', 'z'];
const idx = (n: number): string[] => Array.from({ length: n }, (_, i) => `i${i}`);

/**
 * A layout guessed from the array's name and type, for formats that do not give one: positions
 * x y z, normals nx ny nz, UVs u v, triangle indices i0 i1 i2, weights w. Unknown arrays get one
 * `value` column (still a table).
 */
export function guessLayout(name: string, data: Numeric): ArrayLayout {
  const n = name.toLowerCase();
  const float = data instanceof Float32Array || data instanceof Float64Array;
  const fits = (s: number): boolean => data.length % s === 0;
  if (float && /normal/.test(n) && fits(3)) return { stride: 3, columns: ['nx', 'ny', 'nz'], note: 'One normal per row' };
  if (float && /tangent|binormal/.test(n) && fits(3)) return { stride: 3, columns: ['tx', 'ty', 'tz'] };
  if (float && /(uv|txcrd|texcoord|tex_coord|stcoord)/.test(n) && fits(2)) return { stride: 2, columns: ['u', 'v'], note: 'One texture coordinate per row' };
  if (float && /(pos|point|vert|coord|translation|scale)/.test(n) && fits(3)) return { stride: 3, columns: xyz, note: 'One position per row' };
  if (float && /rot|quat/.test(n) && fits(4)) return { stride: 4, columns: ['x', 'y', 'z', 'w'] };
  if (/weight/.test(n)) return fits(4) && /s$/.test(n) && data.length >= 4 && float ? { stride: 4, columns: ['w0', 'w1', 'w2', 'w3'] } : { stride: 1, columns: ['w'] };
  if (!float && /(joint|bone)/.test(n) && fits(4) && !/assoc|ids/.test(n)) return { stride: 4, columns: ['j0', 'j1', 'j2', 'j3'] };
  if (!float && /(indic|index|tri|face)/.test(n) && fits(3)) return { stride: 3, columns: idx(3), note: 'One triangle per row' };
  if (float && /color|colour/.test(n) && fits(4)) return { stride: 4, columns: ['r', 'g', 'b', 'a'] };
  return { stride: 1, columns: ['value'] };
}

/** A page of the table at `path`, or undefined when no numeric array lives there. */
export function arrayPage(
  doc: unknown, path: NodePath, start: number, count: number,
  layoutOf: (name: string, data: Numeric, path: NodePath) => ArrayLayout | undefined = () => undefined,
): ArrayPage | undefined {
  let at = typedArrayAt(doc, path);
  let sets: number | undefined;
  let set: number | undefined;
  let where = path;
  if (!at) {
    // A list of arrays (one UV array per set): show one set at a time.
    const v = getAt(doc, path);
    if (Array.isArray(v) && v.length > 0 && v.every((x) => isNumeric(x) || (x && typeof x === 'object' && isNumeric((x as { data?: unknown }).data)))) {
      sets = v.length;
      set = 0;
      where = [...path, 0];
      at = typedArrayAt(doc, where);
    }
  }
  if (!at) return undefined;
  const { data, dataPath } = at;
  const name = String([...where].reverse().find((k) => typeof k === 'string' && k !== 'data') ?? '');
  const layout = layoutOf(name, data, dataPath) ?? guessLayout(name, data);
  const stride = Math.max(1, layout.stride);
  const rows = Math.ceil(data.length / stride);
  const first = Math.max(0, Math.min(Math.floor(start), Math.max(0, rows - 1)));
  const n = Math.max(0, Math.min(Math.floor(count), MAX_PAGE_ROWS, rows - first));
  const values = Array.from(data.subarray(first * stride, Math.min(data.length, (first + n) * stride)));
  return {
    path: [...path], dataPath, type: data.constructor.name, length: data.length, stride, columns: layout.columns.slice(0, stride),
    rows, start: first, values, editable: layout.editable ?? true,
    ...(layout.note ? { note: layout.note } : {}),
    ...(sets !== undefined ? { sets, set } : {}),
  };
}

const RANGES: Record<string, [number, number]> = {
  Int8Array: [-128, 127], Uint8Array: [0, 255], Uint8ClampedArray: [0, 255], Int16Array: [-32768, 32767],
  Uint16Array: [0, 65535], Int32Array: [-2147483648, 2147483647], Uint32Array: [0, 4294967295],
};

/**
 * The reason a `set` of one typed-array element cannot be stored as given (a typed array would
 * silently wrap 300 into a byte, or turn 1.5 into 1), or undefined when it fits or the command
 * is not such an edit.
 */
export function checkElementEdit(doc: unknown, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return batchRefusal(cmd.commands, (c) => checkElementEdit(doc, c));
  if (cmd.op !== 'set') return undefined;
  const last = cmd.path[cmd.path.length - 1];
  if (typeof last !== 'number') return undefined;
  const parent = getAt(doc, cmd.path.slice(0, -1));
  if (!isNumeric(parent)) return undefined;
  const v = cmd.value;
  if (last < 0 || last >= parent.length) return `no element ${last} (the array has ${parent.length})`;
  if (typeof v !== 'number') return 'must be a number';
  const range = RANGES[parent.constructor.name];
  if (range) {
    if (!Number.isInteger(v)) return 'must be a whole number';
    if (v < range[0] || v > range[1]) return `must be a whole number from ${range[0]} to ${range[1]}`;
    return undefined;
  }
  if (parent instanceof Float32Array && Number.isFinite(v) && Math.abs(v) > 3.4028234663852886e38) return 'is too large for a 32-bit float';
  return undefined;
}
