/**
 * Inputs shared by the LZSS and LZO1X tests, and a scanner that finds compressed arrays in real
 * ODOL files without an ODOL parser (so the compression tests do not depend on that codec).
 */
import { lzssDecompress } from '../../shared/binary/lzss.ts';
import { lzo1xDecompress } from '../../shared/binary/lzo1x.ts';

export interface Sample {
  name: string;
  data: Uint8Array;
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

/** Sizes 0 to 1 MiB: random (incompressible), structured, repetitive, float arrays, far repeats. */
export function sampleInputs(): Sample[] {
  const out: Sample[] = [];
  for (const size of [0, 1, 2, 3, 4, 17, 18, 19, 238, 239, 300, 4095, 4096, 4097, 65536]) {
    const r = lcg(size + 1);
    out.push({ name: `random ${size}`, data: Uint8Array.from({ length: size }, () => r() & 255) });
    out.push({ name: `repeated byte ${size}`, data: new Uint8Array(size).fill(0x41) });
  }
  const r = lcg(99);
  out.push({ name: 'random 1 MiB', data: Uint8Array.from({ length: 1 << 20 }, () => r() & 255) });
  out.push({
    name: 'structured 64 KiB',
    data: Uint8Array.from({ length: 65536 }, (_, i) => (r() % 7 === 0 ? r() & 255 : (i * 13) & 15)),
  });
  out.push({
    name: 'structured 1 MiB',
    data: Uint8Array.from({ length: 1 << 20 }, (_, i) => (r() % 5 === 0 ? r() & 255 : (i >> 4) & 0x3f)),
  });
  const floats = new Float32Array(30000);
  for (let i = 0; i < floats.length; i++) floats[i] = Math.round(Math.sin(i / 50) * 100) / 8;
  out.push({ name: 'float array', data: new Uint8Array(floats.buffer) });
  // A 3000-byte block repeated every 20000 bytes: matches beyond 16 KiB (LZO's M4).
  const far = new Uint8Array(200000);
  const block = Uint8Array.from({ length: 3000 }, () => r() & 255);
  for (let i = 0; i < far.length; i++) far[i] = i % 20000 < 3000 ? block[i % 20000]! : r() & 255;
  out.push({ name: 'far repeats', data: far });
  out.push({ name: 'zeros 1 MiB', data: new Uint8Array(1 << 20) });
  return out;
}

export interface FoundArray {
  /** Offset of the element count that precedes the stream. */
  at: number;
  count: number;
  elementSize: number;
  data: Uint8Array;
}

/**
 * Finds compressed arrays by trying every offset as "u32 count, [u8 flag = 2 from v64], stream"
 * with the usual element sizes, keeping a hit only when the stream decodes to exactly count *
 * size bytes and then ends properly (LZO: end marker; LZSS: checksum). Arrays under 1024 bytes
 * are stored plain before v64, so those sizes are skipped there.
 */
export function scanCompressedArrays(bytes: Uint8Array, kind: 'lzss' | 'lzo'): FoundArray[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  const flagged = version >= 64;
  const found: FoundArray[] = [];
  let p = 8;
  while (p + 9 < bytes.length) {
    const count = view.getUint32(p, true);
    let next = p + 1;
    if (count > 0 && count < 1e6 && (!flagged || bytes[p + 4] === 2)) {
      const start = flagged ? p + 5 : p + 4;
      for (const elementSize of [1, 2, 4, 8, 12, 16]) {
        const size = count * elementSize;
        if ((!flagged && size < 1024) || size > (bytes.length - start) * 20) continue;
        try {
          const r = kind === 'lzss' ? lzssDecompress(bytes, start, size) : lzo1xDecompress(bytes, start, size);
          found.push({ at: p, count, elementSize, data: r.data });
          next = start + r.consumed;
          break;
        } catch {
          // not a stream of this size
        }
      }
    }
    p = next;
  }
  return found;
}
