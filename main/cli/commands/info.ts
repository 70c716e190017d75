/** `lodsmith info FILE`: what is in a model file, as a readable summary or one JSON object. */
import type { FormatInfo } from '../../../shared/formats/registry.ts';
import { EXIT_OK } from '../fail.ts';
import { writeJson, writeLines, type CliIO } from '../io.ts';
import { basename, resolve } from 'node:path';
import { findConfigFile } from '../../documents/model-cfg-files.ts';
import type { TextureInfo } from '../../../shared/formats/texture/index.ts';
import { codecFor, includeOptions, readInput, recognisesModel } from '../load.ts';
import { count, float32Text, humanBytes, plural, table } from '../text.ts';

export interface InfoOptions {
  json?: boolean;
  /** Decoding memory budget in bytes (--max-memory). */
  maxMemory?: number;
  /** A P3D model's model.cfg, instead of the one found beside it (--model-cfg). */
  modelCfg?: string;
}

export async function runInfo(file: string, opts: InfoOptions, io: CliIO): Promise<number> {
  const bytes = readInput(file, io.cwd);
  // Texture code (and its PNG/JPEG libraries) loads only for a file no model format claims.
  if (!recognisesModel(bytes)) {
    const { isTextureFile } = await import('../texture-load.ts');
    if (isTextureFile(bytes, file)) return textureInfoCommand(file, bytes, opts, io);
  }
  const codec = await codecFor(bytes, file);
  // The bytes are read once and never needed again: the document's arrays are views of them, and
  // unaligned arrays are moved into alignment inside them instead of copied (shared/binary/share.ts).
  const doc = codec.decode(bytes, { fileName: basename(file), share: 'in-situ', defer: true, ...(opts.maxMemory !== undefined ? { maxMemory: opts.maxMemory } : {}), ...includeOptions(codec, file, io.cwd) }) as object;
  const info = codec.info(doc, bytes.length);
  // Source animations (a P3D model's model.cfg, or compiled in): class, skeleton, animations, sources.
  // A format whose animations live in a config file (MLOD: model.cfg) has none when no config is
  // found, and then neither the config language nor the animator is loaded (start-up of `info`).
  const cfg = codec.sourceAnimations;
  const cfgWanted = cfg && (opts.modelCfg !== undefined || !cfg.configFile || findConfigFile(resolve(io.cwd, file), cfg.configFile) !== undefined);
  let cfgInfo: ReturnType<typeof import('../model-cfg-cli.ts').sourceAnimationsInfo> | undefined;
  if (cfgWanted) {
    const { sourceAnimationsInfo, sourceAnimationsOf } = await import('../model-cfg-cli.ts');
    const anims = await sourceAnimationsOf(codec, doc, file, io.cwd, opts.modelCfg);
    cfgInfo = anims ? sourceAnimationsInfo(anims, io.cwd) : undefined;
  }
  if (opts.json) {
    // The documented keys first, in a fixed order, then whatever the format adds.
    const { format, version, meshes, materials, bones, animations, ...extra } = info;
    const out = { format, version, bytes: bytes.length, meshes, materials, bones, animations, ...withoutBytes(extra), ...(cfgInfo ? { modelCfg: cfgInfo.json } : {}) };
    await writeJson(io.stdout, out, jsonSafe);
  } else {
    const lines = describeInfo(file, codec.label, info, bytes.length);
    if (cfgInfo) {
      const w = Math.max(...cfgInfo.rows.map(([k]) => k.length));
      lines.push('', ...cfgInfo.rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`));
      if (cfgInfo.animationRows.length) {
        lines.push('');
        lines.push(...table([{ title: 'animation', max: 32 }, { title: 'type', max: 14 }, { title: 'selection', max: 32 }, { title: 'source', max: 40 }, { title: 'values' }, { title: 'moves' }], cfgInfo.animationRows).map((l) => `  ${l}`));
      }
    }
    await writeLines(io.stdout, lines);
  }
  return EXIT_OK;
}

function withoutBytes(extra: Record<string, unknown>): Record<string, unknown> {
  const { bytes: _bytes, ...rest } = extra;
  return rest;
}

/** BigInt and typed arrays in extra keys must not break JSON.stringify. */
export function jsonSafe(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return String(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

/** The human summary: aligned "label  value" lines, then a mesh table. */
export function describeInfo(file: string, label: string, info: FormatInfo, size: number): string[] {
  const rows: [string, string][] = [['format', `${label}, version ${info.version} (${info.format})`], ['size', `${humanBytes(size)} (${count(size)} bytes)`]];
  const [verts, tris] = info.meshes.reduce((a, m) => [a[0] + m.vertices, a[1] + m.triangles], [0, 0]);
  rows.push(['meshes', `${info.meshes.length}${info.meshes.length ? `, ${plural(verts, 'vertex', 'vertices')}, ${plural(tris, 'triangle')}` : ''}`]);
  rows.push(['materials', list(info.materials)]);
  rows.push(['bones', list(info.bones)]);
  rows.push(['animations', list(info.animations.map((a) => `${a.name || '(unnamed)'} (${plural(a.frames, 'frame')})`))]);
  const { format: _f, version: _v, bytes: _b, meshes: _m, materials: _ma, bones: _bo, animations: _a, ...extra } = info;
  for (const [k, v] of Object.entries(extra)) rows.push([k, describeValue(v)]);
  const w = Math.max(...rows.map(([k]) => k.length));
  const out = [file, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)];
  if (info.meshes.length) {
    out.push('');
    const meshRows = info.meshes.map((m, i) => [String(i), m.name || '(unnamed)', count(m.vertices), count(m.triangles)]);
    out.push(...table([{ title: '#', align: 'right' }, { title: 'mesh', max: 48 }, { title: 'vertices', align: 'right' }, { title: 'triangles', align: 'right' }], meshRows).map((l) => `  ${l}`));
  }
  return out;
}

/** Room for a value on one line, so the summary stays readable in an ordinary terminal. */
const BUDGET = 100;

const isPlain = (x: unknown): x is string | number | boolean | bigint => ['string', 'number', 'boolean', 'bigint'].includes(typeof x);

/**
 * A plain value as text. A number that is exactly a 32-bit float (what the files store) is
 * written as that float (text.ts, float32Text). `info --json` keeps the exact value.
 */
export function plainText(x: string | number | boolean | bigint): string {
  return typeof x === 'number' && Math.fround(x) === x ? float32Text(x) : String(x);
}

/**
 * A format's extra info value on one line: plain values as they are, lists of names as a list,
 * small records as `key value` pairs, anything bigger as a count (`info --json` has it all).
 */
function describeValue(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (isPlain(v)) return clipText(plainText(v));
  if (Array.isArray(v)) {
    if (v.every(isPlain)) return list(v.map(plainText));
    if (v.every((x) => x && typeof x === 'object' && typeof (x as { name?: unknown }).name === 'string')) return list(v.map((x) => (x as { name: string }).name));
    return `${v.length} (see --json)`;
  }
  if (typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const entries = Object.entries(v);
    if (entries.every(([, x]) => isPlain(x))) return clipText(entries.map(([k, x]) => `${k} ${plainText(x as string | number | boolean | bigint)}`).join(', '));
  }
  return clipText(JSON.stringify(v, jsonSafe) ?? '');
}

function clipText(s: string): string {
  return s.length > BUDGET ? `${s.slice(0, BUDGET - 1)}…` : s;
}

/** `3: a, b, c`, cut to the line budget with a count of the rest; `none` when empty. */
function list(items: readonly string[]): string {
  if (items.length === 0) return 'none';
  const head = `${items.length}: `;
  let text = '';
  let shown = 0;
  for (const item of items) {
    const next = (shown ? ', ' : '') + (item || '(unnamed)');
    // Always show at least one item, however long.
    if (shown > 0 && head.length + text.length + next.length > BUDGET) break;
    text += next;
    shown++;
  }
  return `${head}${text}${shown < items.length ? `, … (${items.length - shown} more)` : ''}`;
}

/** `info` on a texture: type, size, mips (size, compression, bytes) and the tags. */
async function textureInfoCommand(file: string, bytes: Uint8Array, opts: InfoOptions, io: CliIO): Promise<number> {
  const { decodeTextureBytes } = await import('../texture-load.ts');
  const { textureInfo } = await import('../../../shared/formats/texture/index.ts');
  const tex = decodeTextureBytes(bytes, file, opts.maxMemory);
  const info = textureInfo(tex.doc, bytes.length);
  if (opts.json) {
    await writeJson(io.stdout, info, jsonSafe);
    return EXIT_OK;
  }
  await writeLines(io.stdout, describeTextureInfo(file, info));
  return EXIT_OK;
}

export function describeTextureInfo(file: string, info: TextureInfo): string[] {
  const rows: [string, string][] = [
    ['format', `${info.label} (${info.kind})`],
    ['type', info.type],
    ['size', `${info.width}x${info.height}`],
    ['bytes', `${humanBytes(info.bytes)} (${count(info.bytes)} bytes)`],
    ['mips', `${info.mips.length}: ${info.mips.map((m) => `${m.width}x${m.height}${m.compression && m.compression !== 'none' ? ` ${m.compression.toUpperCase()}` : ''}`).join(', ')}`],
  ];
  for (const [k, v] of Object.entries(info.tags ?? {})) rows.push([`tag ${k}`, describeValue(v)]);
  for (const n of info.notes) rows.push(['note', n]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return [file, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)];
}
