/** Reading a model file and finding its codec: the first step of every command. */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import '../../shared/formats/index.ts';
import { allFormats, detectFormat, formatsForExtension, type FormatCodec } from '../../shared/formats/registry.ts';
import { CliFailure, where } from './fail.ts';

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

export async function readInput(file: string, cwd: string): Promise<Uint8Array> {
  const full = resolve(cwd, file);
  const st = await stat(full);
  if (st.isDirectory()) throw new CliFailure('is a directory, not a file');
  if (st.size > MAX_INPUT_BYTES) throw new CliFailure(`is ${st.size} bytes, larger than any model file LodSmith reads`);
  const b = await readFile(full);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The codec for these bytes, or a CliFailure that says what the file is not. */
export function codecFor(bytes: Uint8Array, file: string): FormatCodec {
  const codec = detectFormat(bytes, basename(file));
  if (codec) return codec;
  const byExt = formatsForExtension(basename(file));
  if (byExt.length) {
    const names = byExt.map((c) => c.label).join(' or ');
    throw new CliFailure(`not a valid ${names} file: its first bytes match no known signature ${where(0, '')}`);
  }
  const exts = [...new Set(allFormats().flatMap((c) => c.extensions))].sort().join(', ');
  throw new CliFailure(`unknown format: no supported format recognises this file${exts ? ` (LodSmith reads ${exts})` : ''}`);
}

/** Reads, detects and decodes; throws DecodeError or CliFailure on bad input. */
export async function loadModel(file: string, cwd: string, maxMemory?: number): Promise<Loaded> {
  const bytes = await readInput(file, cwd);
  const codec = codecFor(bytes, file);
  // The codec runs inside the decoding memory budget (default 64 MiB + 16 x the size; --max-memory).
  const doc = codec.decode(bytes, { fileName: basename(file), ...(maxMemory !== undefined ? { maxMemory } : {}) }) as object;
  return { file, bytes, codec, doc };
}
