/**
 * glTF bytes -> glTF Transform `Document`, with the checks the codecs' readers make: every buffer,
 * buffer view and accessor is checked against the bytes that back it, and the memory the read
 * will allocate is charged to the decoding memory budget *before* glTF Transform allocates it.
 *
 * The parsing itself is glTF Transform's (`WebIO`, which is platform-neutral): this module only
 * looks at the JSON's counts and ranges first, so a hostile file gets one clear error naming the
 * glTF path instead of a huge allocation or an exception from deep inside the reader.
 *
 * No file system here: the caller hands over the bytes of a `.glb`, or the JSON text of a `.gltf`
 * with the bytes of the external files its buffers name (see `externalUris`).
 */
import { Extension, Logger, WebIO, type Document, type JSONDocument, type ReaderContext } from '@gltf-transform/core';
import { chargeAllocation, withBudget, type MemoryBudget } from '../binary/budget.ts';
import { ImportError } from './errors.ts';

/** What the caller supplies. */
export type GltfInput =
  | { kind: 'glb'; bytes: Uint8Array }
  | { kind: 'gltf'; text: Uint8Array; resources: Record<string, Uint8Array> };

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
type ViewArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Uint32Array | Float32Array;
const COMPONENT_ARRAY: Record<number, new (b: ArrayBufferLike, offset: number, length: number) => ViewArray> = {
  5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array,
};

/**
 * Accessor arrays that are views of the caller's input bytes (see `readGltf`'s `views`), not
 * copies. Nothing may write to them: code that changes an array in place copies it first.
 */
const inputViews = new WeakSet<ArrayBufferView>();

/** True when `a` is a view of the glTF input's bytes (read only: copy it before changing it). */
export function isInputView(a: ArrayBufferView): boolean {
  return inputViews.has(a);
}

/** Name of the private reader hook that hands glTF Transform the views (never written to a file). */
const VIEWS_HOOK = 'LODSMITH_accessor_views';
const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

interface Json {
  asset?: { version?: unknown };
  buffers?: { byteLength?: unknown; uri?: unknown }[];
  bufferViews?: { buffer?: unknown; byteOffset?: unknown; byteLength?: unknown; byteStride?: unknown }[];
  accessors?: { bufferView?: unknown; byteOffset?: unknown; count?: unknown; componentType?: unknown; type?: unknown; sparse?: { count?: unknown } }[];
  images?: { uri?: unknown; bufferView?: unknown }[];
  extensionsRequired?: unknown;
}

/** URIs of a `.gltf`'s buffers that live in other files (the caller reads them). Images are not needed. */
export function externalUris(text: Uint8Array): string[] {
  // Only the URIs are wanted here; the read proper charges the JSON against the budget.
  const json = parseJson(text, false);
  return (json.buffers ?? []).map((b) => b.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:'));
}

function parseJson(text: Uint8Array, charge = true): Json {
  if (charge) chargeAllocation(text.length * 4, 'glTF JSON', 0, 'json');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(text));
  } catch (e) {
    throw new ImportError(`the glTF JSON does not parse: ${(e as Error).message}`, '');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new ImportError('the glTF JSON is not an object', '');
  return json as Json;
}

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The GLB container's JSON and BIN chunks (glTF Transform does the same; we need the JSON first). */
function splitGlb(bytes: Uint8Array): { json: Json; bin?: Uint8Array } {
  if (bytes.length < 20) throw new ImportError(`a GLB file needs at least 20 bytes, this one has ${bytes.length}`, '');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) throw new ImportError('not a GLB file: it does not start with "glTF"', '');
  const version = dv.getUint32(4, true);
  if (version !== 2) throw new ImportError(`GLB version ${version} is not 2`, '');
  const total = dv.getUint32(8, true);
  if (total > bytes.length) throw new ImportError(`the GLB header claims ${total} bytes but the file has ${bytes.length}`, '');
  const jsonLen = dv.getUint32(12, true);
  if (dv.getUint32(16, true) !== 0x4e4f534a || 20 + jsonLen > total) throw new ImportError('the GLB JSON chunk is missing or runs past the end of the file', '');
  const json = parseJson(bytes.subarray(20, 20 + jsonLen));
  let at = 20 + jsonLen;
  at += (4 - (at % 4)) % 4;
  if (at + 8 <= total) {
    const binLen = dv.getUint32(at, true);
    if (dv.getUint32(at + 4, true) === 0x004e4942) {
      if (at + 8 + binLen > total) throw new ImportError(`the GLB BIN chunk claims ${binLen} bytes but only ${total - at - 8} remain`, 'buffers[0]');
      return { json, bin: bytes.subarray(at + 8, at + 8 + binLen) };
    }
  }
  return { json };
}

function base64Length(uri: string): number {
  const comma = uri.indexOf(',');
  const data = comma >= 0 ? uri.length - comma - 1 : 0;
  return Math.floor((data * 3) / 4);
}

/**
 * Checks buffers, views and accessors against the bytes behind them; returns each accessor's
 * data size. Throws ImportError (glTF path).
 */
function checkJson(json: Json, bufferBytes: (i: number, uri: unknown) => number | undefined): number[] {
  const asset = json.asset?.version;
  if (typeof asset !== 'string' || !asset.startsWith('2.')) throw new ImportError(`asset.version is ${JSON.stringify(asset)}; only glTF 2.x is read`, 'asset');
  // KHR_mesh_quantization only allows integer attribute types, which the model reads (normalised
  // or not); anything else required (Draco, meshopt...) needs a decoder LodSmith does not have.
  const required = (Array.isArray(json.extensionsRequired) ? json.extensionsRequired : []).filter((x) => x !== 'KHR_mesh_quantization');
  if (required.length) throw new ImportError(`the file requires extension(s) ${required.join(', ')}, which LodSmith does not read`, 'extensionsRequired');
  const bufLen: number[] = [];
  (json.buffers ?? []).forEach((b, i) => {
    const declared = int(b.byteLength);
    if (declared === undefined) throw new ImportError('byteLength is missing or not a whole number', `buffers[${i}]`);
    const have = bufferBytes(i, b.uri);
    if (have === undefined) throw new ImportError(`the buffer's data${typeof b.uri === 'string' && !b.uri.startsWith('data:') ? ` ("${b.uri}")` : ''} is missing`, `buffers[${i}]`);
    if (have < declared) throw new ImportError(`byteLength is ${declared} but only ${have} bytes of data are there`, `buffers[${i}]`);
    bufLen.push(declared);
  });
  const views = json.bufferViews ?? [];
  views.forEach((v, i) => {
    const b = int(v.buffer);
    const off = int(v.byteOffset ?? 0);
    const len = int(v.byteLength);
    if (b === undefined || b >= bufLen.length) throw new ImportError(`buffer ${String(v.buffer)} does not exist`, `bufferViews[${i}]`);
    if (off === undefined || len === undefined || off + len > bufLen[b]!) {
      throw new ImportError(`bytes ${String(v.byteOffset ?? 0)}..${String(v.byteOffset ?? 0)}+${String(v.byteLength)} lie outside buffer ${b} (${bufLen[b]} bytes)`, `bufferViews[${i}]`);
    }
  });
  return (json.accessors ?? []).map((a, i) => {
    const path = `accessors[${i}]`;
    const count = int(a.count);
    const comp = COMPONENT_SIZE[a.componentType as number];
    const dim = TYPE_SIZE[a.type as string];
    if (count === undefined || comp === undefined || dim === undefined) throw new ImportError('count, componentType or type is missing or invalid', path);
    const elem = comp * dim;
    if (a.bufferView !== undefined) {
      const vi = int(a.bufferView);
      const view = vi !== undefined ? views[vi] : undefined;
      if (!view) throw new ImportError(`bufferView ${String(a.bufferView)} does not exist`, path);
      const stride = int(view.byteStride) ?? elem;
      const off = int(a.byteOffset ?? 0) ?? -1;
      const need = count === 0 ? 0 : off + stride * (count - 1) + elem;
      if (off < 0 || need > (int(view.byteLength) ?? 0)) throw new ImportError(`${count} elements of ${elem} bytes (stride ${stride}) from offset ${String(a.byteOffset ?? 0)} run past the end of bufferView ${vi} (${String(view.byteLength)} bytes)`, path);
    }
    return count * elem;
  });
}

/** glTF Transform copies accessor data out of the buffers into typed arrays of their own: all but the views. */
function chargeAccessorCopies(sizes: readonly number[], views: ReadonlyMap<number, unknown>): void {
  let total = 0;
  sizes.forEach((n, i) => (total += views.has(i) ? 0 : n));
  chargeAllocation(total, 'glTF accessor data', 0, 'accessors');
}

/**
 * Accessors whose data can be read in place, as typed-array views of the buffer bytes the
 * caller holds: tightly packed (no stride other than the element's), not sparse, and aligned in
 * memory for their component type. For those, the accessor definition handed to glTF Transform
 * loses its `bufferView` (so it copies nothing) and a reader hook gives it the view instead.
 * Called after `checkJson`, so every range is known to lie inside its buffer.
 */
function viewableAccessors(json: Json, bufferOf: (i: number) => Uint8Array | undefined): Map<number, ViewArray> {
  const out = new Map<number, ViewArray>();
  const views = json.bufferViews ?? [];
  (json.accessors ?? []).forEach((a, i) => {
    if (a.bufferView === undefined || a.sparse !== undefined) return;
    const view = views[a.bufferView as number]!;
    const comp = COMPONENT_SIZE[a.componentType as number]!;
    const dim = TYPE_SIZE[a.type as string]!;
    // Matrices of 1- and 2-byte components have padded columns: glTF Transform reads those itself.
    if (dim === 4 && a.type !== 'VEC4' && comp < 4) return;
    if (dim === 9 && comp < 4) return;
    const stride = int(view.byteStride);
    if (stride !== undefined && stride !== comp * dim) return;
    const buf = bufferOf(view.buffer as number);
    if (!buf) return;
    const start = (int(view.byteOffset ?? 0) ?? 0) + (int(a.byteOffset ?? 0) ?? 0);
    const bytes = (a.count as number) * dim * comp;
    // checkJson lets an empty accessor name any offset; only ranges inside the bytes become views.
    if (bytes === 0 || start + bytes > buf.length) return;
    const offset = buf.byteOffset + start;
    if (offset % comp) return;
    const arr = new COMPONENT_ARRAY[a.componentType as number]!(buf.buffer, offset, (a.count as number) * dim);
    inputViews.add(arr);
    out.set(i, arr);
    delete a.bufferView;
    delete a.byteOffset;
  });
  return out;
}

/** A glTF Transform extension class whose only job is to put `views` in place while reading. */
function viewsHook(views: Map<number, ViewArray>): typeof Extension {
  return class AccessorViews extends Extension {
    static override readonly EXTENSION_NAME = VIEWS_HOOK;
    override readonly extensionName = VIEWS_HOOK;
    override read(context: ReaderContext): this {
      // Runs before glTF Transform fills accessors without a bufferView with zeros.
      for (const [i, arr] of views) context.accessors[i]!.setArray(arr);
      return this;
    }
    override write(): this {
      return this;
    }
  };
}

/**
 * Reads glTF bytes into a Document. Sync checks (and budget charges) run under `budget`; glTF
 * Transform's own read then runs on data already known to fit.
 */
export async function readGltf(input: GltfInput, budget: MemoryBudget, warnings: string[] = [], opts: { views?: boolean } = {}): Promise<Document> {
  // glTF Transform's notes (an optional extension it skips...) become import warnings, not console output.
  const logger = new Logger(Logger.Verbosity.WARN);
  logger.warn = (text: string): void => void warnings.push(text.replace(/\.$/, ''));
  logger.error = (text: string): void => void warnings.push(text.replace(/\.$/, ''));
  const io = new WebIO().setLogger(logger);
  let jsonDoc: JSONDocument;
  let views = new Map<number, ViewArray>();
  if (input.kind === 'glb') {
    const { json, bin } = withBudget(budget, () => {
      const s = splitGlb(input.bytes);
      const sizes = checkJson(s.json, (i, uri) => (i === 0 && uri === undefined ? s.bin?.length : typeof uri === 'string' && uri.startsWith('data:') ? base64Length(uri) : undefined));
      for (const b of s.json.buffers ?? []) if (typeof b.uri === 'string' && b.uri.startsWith('data:')) chargeAllocation(base64Length(b.uri), 'glTF data URI', 0, 'buffers');
      if (opts.views) views = viewableAccessors(s.json, (i) => (i === 0 && s.json.buffers?.[0]?.uri === undefined ? s.bin : undefined));
      chargeAccessorCopies(sizes, views);
      return s;
    });
    const resources: Record<string, Uint8Array> = {};
    if (bin) resources['@glb.bin'] = bin;
    externalImagesAsPaths(json, resources);
    jsonDoc = { json: json as JSONDocument['json'], resources: resources as JSONDocument['resources'] };
  } else {
    const json = withBudget(budget, () => {
      const j = parseJson(input.text);
      const sizes = checkJson(j, (_i, uri) => (typeof uri !== 'string' ? undefined : uri.startsWith('data:') ? base64Length(uri) : input.resources[uri]?.length));
      for (const b of j.buffers ?? []) if (typeof b.uri === 'string' && b.uri.startsWith('data:')) chargeAllocation(base64Length(b.uri), 'glTF data URI', 0, 'buffers');
      if (opts.views) {
        views = viewableAccessors(j, (i) => {
          const uri = j.buffers?.[i]?.uri;
          return typeof uri === 'string' && !uri.startsWith('data:') ? input.resources[uri] : undefined;
        });
      }
      chargeAccessorCopies(sizes, views);
      return j;
    });
    const resources: Record<string, Uint8Array> = {};
    for (const b of json.buffers ?? []) if (typeof b.uri === 'string' && !b.uri.startsWith('data:')) resources[b.uri] = input.resources[b.uri]!;
    externalImagesAsPaths(json, resources);
    jsonDoc = { json: json as JSONDocument['json'], resources: resources as JSONDocument['resources'] };
  }
  // Core glTF Transform reads quantized (integer) attributes as they are; it only refuses the
  // extension's name, which carries no data of its own.
  const j = jsonDoc.json as { extensionsRequired?: string[]; extensionsUsed?: string[] };
  for (const k of ['extensionsRequired', 'extensionsUsed'] as const) if (Array.isArray(j[k])) j[k] = j[k].filter((x) => x !== 'KHR_mesh_quantization' && x !== VIEWS_HOOK);
  if (views.size) {
    j.extensionsUsed = [...(j.extensionsUsed ?? []), VIEWS_HOOK];
    io.registerExtensions([viewsHook(views)]);
  }
  try {
    return await io.readJSON(jsonDoc);
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw new ImportError(`glTF Transform could not read the file: ${(e as Error).message}`, '');
  }
}

/**
 * Images are not read: importers carry texture paths only. An external image gets an empty
 * stand-in so the reader keeps its URI; an embedded one (data URI or buffer view) stays as it is.
 */
function externalImagesAsPaths(json: Json, resources: Record<string, Uint8Array>): void {
  for (const img of json.images ?? []) {
    if (typeof img.uri === 'string' && !img.uri.startsWith('data:') && !(img.uri in resources)) resources[img.uri] = new Uint8Array(0);
  }
}
