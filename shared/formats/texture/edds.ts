/**
 * EDDS, DayZ's (Enfusion's) texture container: a DDS header (with its DX10 extension when the
 * FourCC says so) followed not by the mip chain but by a block table and the blocks.
 *
 * - the table: one 8-byte entry per mip level, smallest level first: a 4-byte tag, `COPY` (the
 *   level's bytes as they are) or `LZ4 ` (compressed), and the u32 byte length of its block;
 * - the blocks, in the table's order, each exactly as long as its entry says;
 * - an `LZ4 ` block: u32 decoded length (the level's size), then chunks, each a u32 whose low 24
 *   bits are the chunk's compressed length and whose high byte holds flags (0x80: the last chunk;
 *   no other bit is known), then that many bytes of one LZ4 block. The chunks are a chained
 *   stream: a chunk's matches may reach back into the chunks decoded before it (up to 64 KiB, the
 *   LZ4 window), so they are decoded end to end into the level's buffer. Every chunk of the files
 *   the engine writes decodes to at most 64 KiB.
 *
 * Decoding expands the file into the plain DDS it stands for (header, then the levels largest
 * first), which every DDS reader here already handles; the document keeps the file's own bytes
 * so an untouched EDDS is written back as it came. Checked against the open readers (BIS-Toolkit's
 * edds package, the Enfusion unpacker's converter, woozymasta/edds); docs/textures.md has the table row.
 */
import { chargeAllocation } from '../../binary/budget.ts';
import { joinBytes } from '../../binary/writer.ts';
import { DecodeError } from '../../errors.ts';
import { lz4Compress, lz4DecompressInto } from '../unigine/lz4.ts';

export type EddsTag = 'COPY' | 'LZ4 ';

export interface EddsBlock {
  tag: EddsTag;
  /** Mip level the block holds (0 = the largest). */
  level: number;
  /** Where the block starts in the file, and its length there. */
  offset: number;
  size: number;
}

export interface EddsExpansion {
  /** The plain DDS: the header bytes, then every level largest first. */
  dds: Uint8Array;
  /** Where each level starts in `dds`, largest first. */
  levelOffsets: number[];
  /** The blocks in file order (smallest level first). */
  blocks: EddsBlock[];
}

/** Largest decoded size one chunk of the chained stream has in the engine's files. */
export const EDDS_CHUNK = 65536;
const LAST_CHUNK = 0x80;

const tagAt = (bytes: Uint8Array, p: number): string => String.fromCharCode(bytes[p]!, bytes[p + 1]!, bytes[p + 2]!, bytes[p + 3]!);

/** True when the bytes after a DDS header of `headerBytes` open an EDDS block table. */
export function isEddsTable(bytes: Uint8Array, headerBytes: number): boolean {
  if (bytes.length < headerBytes + 8) return false;
  const t = tagAt(bytes, headerBytes);
  return t === 'COPY' || t === 'LZ4 ';
}

/**
 * Reads the block table after the header and expands every level. `levelSizes` are the sizes
 * the header's pixel format gives each level, largest first (their count is the header's mip
 * count). Every length is checked against the file before anything is allocated; the expanded
 * DDS is charged to the decoding budget.
 */
export function expandEdds(bytes: Uint8Array, headerBytes: number, levelSizes: readonly number[]): EddsExpansion {
  const n = levelSizes.length;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tableEnd = headerBytes + 8 * n;
  if (tableEnd > bytes.length) throw new DecodeError(`EDDS block table of ${n} entries runs past the end of the file`, headerBytes, 'edds/table');
  const blocks: EddsBlock[] = [];
  let p = tableEnd;
  for (let i = 0; i < n; i++) {
    const at = headerBytes + 8 * i;
    const tag = tagAt(bytes, at);
    const path = `edds/table[${i}]`;
    if (tag !== 'COPY' && tag !== 'LZ4 ') {
      throw new DecodeError(`EDDS block tag "${tag.replace(/[^\x20-\x7e]/g, '?')}" is neither COPY nor LZ4`, at, path);
    }
    const size = dv.getUint32(at + 4, true);
    if (size > bytes.length - p) throw new DecodeError(`EDDS block of ${size} bytes runs past the end of the file (${bytes.length - p} left)`, at + 4, `${path}/size`);
    // The table lists the smallest level first.
    const level = n - 1 - i;
    if (tag === 'COPY' && size !== levelSizes[level]) {
      throw new DecodeError(`COPY block of mip ${level} holds ${size} bytes, but the level needs ${levelSizes[level]}`, at + 4, `${path}/size`);
    }
    blocks.push({ tag, level, offset: p, size });
    p += size;
  }
  let total = headerBytes;
  const levelOffsets: number[] = [];
  for (const s of levelSizes) {
    levelOffsets.push(total);
    total += s;
  }
  chargeAllocation(total, `EDDS expanded to ${total} bytes`, headerBytes, 'edds', bytes.length);
  const dds = new Uint8Array(total);
  dds.set(bytes.subarray(0, headerBytes));
  for (const b of blocks) {
    const start = levelOffsets[b.level]!;
    const want = levelSizes[b.level]!;
    const path = `edds/mips[${b.level}]`;
    if (b.tag === 'COPY') {
      dds.set(bytes.subarray(b.offset, b.offset + b.size), start);
      continue;
    }
    expandLz4(bytes, dv, b, dds.subarray(start, start + want), path);
  }
  return { dds, levelOffsets, blocks };
}

function expandLz4(bytes: Uint8Array, dv: DataView, b: EddsBlock, out: Uint8Array, path: string): void {
  const end = b.offset + b.size;
  if (b.size < 4) throw new DecodeError(`LZ4 block of ${b.size} bytes has no room for its decoded length`, b.offset, path);
  const declared = dv.getUint32(b.offset, true);
  if (declared !== out.length) throw new DecodeError(`LZ4 block says it decodes to ${declared} bytes, but mip ${b.level} needs ${out.length}`, b.offset, `${path}/size`);
  let p = b.offset + 4;
  let op = 0;
  for (let chunk = 0; ; chunk++) {
    const cpath = `${path}/chunks[${chunk}]`;
    if (p + 4 > end) throw new DecodeError('LZ4 chunk header runs past the block (no chunk marked last)', p, cpath);
    const head = dv.getUint32(p, true);
    const len = head & 0xffffff;
    const flags = head >>> 24;
    if (flags & ~LAST_CHUNK) throw new DecodeError(`LZ4 chunk flags 0x${flags.toString(16)} are unknown (only 0x80, last, is)`, p + 3, `${cpath}/flags`);
    p += 4;
    if (len > end - p) throw new DecodeError(`LZ4 chunk of ${len} bytes runs past the block (${end - p} left)`, p - 4, `${cpath}/size`);
    const got = lz4DecompressInto(bytes.subarray(p, p + len), out, op);
    if (typeof got === 'string') throw new DecodeError(got, p, cpath);
    op = got;
    p += len;
    if (flags & LAST_CHUNK) break;
  }
  if (p !== end) throw new DecodeError(`${end - p} bytes follow the last LZ4 chunk in the block`, p, path);
  if (op !== out.length) throw new DecodeError(`LZ4 block decodes to ${op} bytes, not the ${out.length} mip ${b.level} needs`, b.offset, path);
}

export interface EddsWriteOptions {
  /** Levels smaller than this are stored as COPY (the engine's own files keep the small ones raw). */
  copyBelow?: number;
  /** Decoded bytes per chunk (at most {@link EDDS_CHUNK}); tests use small ones to get many chunks. */
  chunk?: number;
}

/**
 * An EDDS holding the given header bytes and levels (largest first): what `lodsmith` would write
 * for a DDS, used to make test fixtures and fuzz seeds from DDS files. Every chunk is compressed
 * on its own (a chained decoder reads such chunks as well as ones that reach back).
 */
export function writeEdds(header: Uint8Array, levels: readonly Uint8Array[], opts: EddsWriteOptions = {}): Uint8Array {
  const copyBelow = opts.copyBelow ?? 1024;
  const chunk = Math.min(EDDS_CHUNK, Math.max(1, opts.chunk ?? EDDS_CHUNK));
  const blocks: { tag: EddsTag; data: Uint8Array }[] = [];
  for (let level = levels.length - 1; level >= 0; level--) {
    const data = levels[level]!;
    if (data.length < copyBelow) {
      blocks.push({ tag: 'COPY', data });
      continue;
    }
    const parts: Uint8Array[] = [];
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, data.length, true);
    parts.push(head);
    for (let at = 0; at < data.length || at === 0; at += chunk) {
      const body = lz4Compress(data.subarray(at, Math.min(data.length, at + chunk)));
      const h = new Uint8Array(4);
      const last = at + chunk >= data.length;
      new DataView(h.buffer).setUint32(0, (body.length | ((last ? LAST_CHUNK : 0) << 24)) >>> 0, true);
      parts.push(h, body);
      if (last) break;
    }
    blocks.push({ tag: 'LZ4 ', data: joinBytes(parts) });
  }
  const out = new Uint8Array(header.length + 8 * blocks.length + blocks.reduce((a, b) => a + b.data.length, 0));
  const dv = new DataView(out.buffer);
  out.set(header);
  let t = header.length;
  let p = t + 8 * blocks.length;
  for (const b of blocks) {
    for (let i = 0; i < 4; i++) out[t + i] = b.tag.charCodeAt(i);
    dv.setUint32(t + 4, b.data.length, true);
    out.set(b.data, p);
    t += 8;
    p += b.data.length;
  }
  return out;
}


/** The EDDS a decoded DDS (first face) would be: its header and its levels, through {@link writeEdds}. */
export function eddsFromDds(doc: { bytes: Uint8Array; mips: readonly { offset: number; size: number }[] }, opts: EddsWriteOptions = {}): Uint8Array {
  const header = doc.bytes.subarray(0, doc.mips[0]!.offset);
  return writeEdds(header, doc.mips.map((m) => doc.bytes.subarray(m.offset, m.offset + m.size)), opts);
}
