/**
 * The PNG decoder's own path (8-bit grey, grey + alpha, RGB, RGBA; every row filter; IDAT split
 * anywhere) against fast-png's decode of the same bytes, with Node's zlib as the inflater as main
 * passes it; anything else, and anything wrong, still goes through fast-png.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../shared/errors.ts';
import { decodePng, type PngInflate } from '../../shared/formats/texture/png.ts';
import { nodeInflate } from '../../main/documents/png-inflate.ts';

function crc32(b: Uint8Array): number {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Paeth predictor, as the PNG specification defines it. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG of `samples` (rows of width * channels bytes), row y filtered with filter `filters[y % n]`, IDAT cut into `parts`. */
function png(width: number, height: number, colourType: number, samples: Uint8Array, filters: number[], parts = 1, extra: Uint8Array[] = []): Uint8Array {
  const bpp = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType]!;
  const stride = width * bpp;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const f = filters[y % filters.length]!;
    raw[y * (stride + 1)] = f;
    for (let i = 0; i < stride; i++) {
      const x = samples[y * stride + i]!;
      const a = i >= bpp ? samples[y * stride + i - bpp]! : 0;
      const b = y > 0 ? samples[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= bpp ? samples[(y - 1) * stride + i - bpp]! : 0;
      const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f]!;
      raw[y * (stride + 1) + 1 + i] = (x - pred) & 255;
    }
  }
  const z = new Uint8Array(deflateSync(raw));
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  const idat: Uint8Array[] = [];
  const step = Math.ceil(z.length / parts);
  for (let o = 0; o < z.length; o += step) idat.push(chunk('IDAT', z.subarray(o, o + step)));
  const all = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), ...extra, ...idat, chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of all) { out.set(p, o); o += p.length; }
  return out;
}

function samples(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    // Smooth ramps with some noise, so the filters' predictions matter.
    out[i] = ((i * 3) + ((seed >>> 16) & 15)) & 255;
  }
  return out;
}

/** Counts its calls, then inflates with Node's zlib. */
function spy(): { inflate: PngInflate; calls: number } {
  const s = { calls: 0, inflate: ((z: Uint8Array, size: number) => { s.calls++; return nodeInflate(z, size); }) as PngInflate };
  return s;
}

describe('PNG decode', () => {
  it('reads every 8-bit colour type and row filter itself, as fast-png does', () => {
    for (const colourType of [0, 2, 4, 6]) {
      for (const filters of [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0]]) {
        const bpp = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType]!;
        const w = 13, h = 7;
        const bytes = png(w, h, colourType, samples(w * h * bpp, colourType * 31 + filters[0]!), filters, 3);
        const s = spy();
        const ours = decodePng(bytes, { inflate: s.inflate });
        expect(s.calls, `colour type ${colourType}, filters ${filters.join(',')}`).toBe(1);
        expect(ours, `colour type ${colourType}, filters ${filters.join(',')}`).toEqual(decodePng(bytes));
      }
    }
  });

  it('a 2048-wide RGB picture goes through the inflater given, one call', () => {
    const w = 2048, h = 4;
    const bytes = png(w, h, 2, samples(w * h * 3, 5), [4, 1]);
    const s = spy();
    const img = decodePng(bytes, { inflate: s.inflate });
    expect(s.calls).toBe(1);
    expect(img.data).toEqual(decodePng(bytes).data);
    expect([img.data[3], img.data[img.data.length - 1]]).toEqual([255, 255]);
  });

  it('leaves palettes, tRNS, 16-bit and broken streams to fast-png (same pictures, same errors)', () => {
    const w = 5, h = 3;
    // tRNS on RGB: fast-png's reading is kept.
    const trns = png(w, h, 2, samples(w * h * 3, 9), [0], 1, [chunk('tRNS', new Uint8Array([0, 1, 0, 2, 0, 3]))]);
    const s = spy();
    expect(decodePng(trns, { inflate: s.inflate })).toEqual(decodePng(trns));
    expect(s.calls).toBe(0);
    // A stream cut short: the inflater's failure falls back, and fast-png words the error.
    const good = png(w, h, 6, samples(w * h * 4, 3), [1]);
    const cut = good.slice();
    // Corrupt the zlib stream's first deflate byte (inside the IDAT, after its 2-byte zlib header).
    const idat = findChunk(cut, 'IDAT');
    cut[idat + 2] = cut[idat + 2]! ^ 0xff;
    cut[idat + 3] = cut[idat + 3]! ^ 0xff;
    let ours: unknown, theirs: unknown;
    try { decodePng(cut, { inflate: nodeInflate }); } catch (e) { ours = e; }
    try { decodePng(cut); } catch (e) { theirs = e; }
    expect(theirs).toBeInstanceOf(DecodeError);
    expect((ours as Error).message).toBe((theirs as Error).message);
  });
});

function findChunk(b: Uint8Array, type: string): number {
  const dv = new DataView(b.buffer, b.byteOffset);
  for (let p = 8; p + 8 <= b.length; p += 12 + dv.getUint32(p)) {
    if (String.fromCharCode(...b.subarray(p + 4, p + 8)) === type) return p + 8;
  }
  throw new Error(`no ${type}`);
}
