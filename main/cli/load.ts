/**
 * Reading a model file and finding its codec: the first step of every command.
 *
 * A file is recognised by the format catalog's signature checks and only its own codec is
 * loaded (shared/formats/catalog.ts): a one-file command compiles one codec, not all of them.
 * Codecs registered in the registry that the catalog does not know (tests register a toy
 * format) are found too. Files are read synchronously: one file per command, and
 * `node:fs/promises` alone costs a few milliseconds of start-up.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { FORMAT_CATALOG, type FormatEntry } from '../../shared/formats/catalog.ts';
import { allFormats, type DecodeOptions, type FormatCodec } from '../../shared/formats/registry.ts';
import { includeReaderFor } from '../documents/model-cfg-files.ts';
import { CliFailure, where } from './fail.ts';

/**
 * How a file of a format that includes others (model.cfg) reads its `#include`s: relative to it on
 * disk. `name` is the `fileName` the decode is given (the file's base name unless said).
 */
export function includeOptions(codec: FormatCodec, file: string, cwd = process.cwd(), name = basename(file)): Pick<DecodeOptions, 'readInclude'> {
  return codec.includes ? { readInclude: includeReaderFor(resolve(cwd, file), name) } : {};
}

export interface Loaded {
  /** The path as the user typed it (used in messages). */
  file: string;
  bytes: Uint8Array;
  codec: FormatCodec;
  doc: object;
}

/**
 * Larger inputs are refused before reading: no supported format comes near this, and reading a
 * multi-gigabyte file by mistake should not exhaust memory.
 */
export const MAX_INPUT_BYTES = 1024 * 1024 * 1024;

export function readInput(file: string, cwd: string): Uint8Array {
  const full = resolve(cwd, file);
  const st = statSync(full);
  if (st.isDirectory()) throw new CliFailure('is a directory, not a file');
  if (st.size > MAX_INPUT_BYTES) throw new CliFailure(`is ${st.size} bytes, larger than any model file LodSmith reads`);
  const b = readFileSync(full);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The catalog plus any registered codec it does not list. */
export function formatEntries(): FormatEntry[] {
  const known = new Set(FORMAT_CATALOG.map((e) => e.id));
  const extra = allFormats()
    .filter((c) => !known.has(c.id))
    .map((c): FormatEntry => ({ id: c.id, label: c.label, extensions: c.extensions, probe: (b) => c.probe(b), load: () => Promise.resolve(c) }));
  return [...FORMAT_CATALOG, ...extra];
}

function extensionOf(fileName: string): string {
  return fileName.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';
}

function safeProbe(e: FormatEntry, bytes: Uint8Array): boolean {
  try {
    return e.probe(bytes);
  } catch {
    return false;
  }
}

/** True when some model format's signature matches these bytes (no codec is loaded). */
export function recognisesModel(bytes: Uint8Array): boolean {
  return formatEntries().some((e) => safeProbe(e, bytes));
}

/** Every extension some format reads. */
export function knownExtensions(): Set<string> {
  return new Set(formatEntries().flatMap((e) => e.extensions));
}

/** The format of these bytes (magic first, extension as the tie-breaker), without loading its codec. */
export function entryFor(bytes: Uint8Array, file: string, entries = formatEntries()): FormatEntry | undefined {
  const ext = extensionOf(basename(file));
  const matches = entries.filter((e) => safeProbe(e, bytes));
  return matches.find((e) => e.extensions.includes(ext)) ?? matches[0];
}

/** Extensions more than one format reads: only a file's first bytes tell which it is. */
export function sharedExtensions(): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const x of formatEntries().flatMap((e) => e.extensions)) (seen.has(x) ? shared : seen).add(x);
  return shared;
}

/** The codec for these bytes (magic first, extension as the tie-breaker), or a CliFailure that says what the file is not. */
export async function codecFor(bytes: Uint8Array, file: string): Promise<FormatCodec> {
  const entries = formatEntries();
  const ext = extensionOf(basename(file));
  const entry = entryFor(bytes, file, entries);
  if (entry) return entry.load();
  const byExt = entries.filter((e) => e.extensions.includes(ext));
  if (byExt.length) {
    const names = byExt.map((c) => c.label).join(' or ');
    throw new CliFailure(`not a valid ${names} file: its first bytes match no known signature ${where(0, '')}`);
  }
  const exts = [...knownExtensions()].sort().join(', ');
  throw new CliFailure(`unknown format: no supported format recognises this file${exts ? ` (LodSmith reads ${exts})` : ''}`);
}

/**
 * Reads, detects and decodes; throws DecodeError or CliFailure on bad input. Every command that
 * loads a model only reads it, and the bytes are never changed, so the document's large arrays are
 * views of them where alignment allows (shared/binary/share.ts): the file is held once, not twice.
 */
export async function loadModel(file: string, cwd: string, maxMemory?: number, defer = false): Promise<Loaded> {
  const bytes = readInput(file, cwd);
  const codec = await codecFor(bytes, file);
  // The codec runs inside the decoding memory budget (default 64 MiB + 16 x the size; --max-memory).
  // `defer` (DecodeOptions.defer): for commands that read few values (roundtrip).
  const doc = codec.decode(bytes, { fileName: basename(file), share: true, ...(defer ? { defer } : {}), ...(maxMemory !== undefined ? { maxMemory } : {}), ...includeOptions(codec, file, cwd) }) as object;
  return { file, bytes, codec, doc };
}
