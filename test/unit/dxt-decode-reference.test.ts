/**
 * The BCn block decoders (shared/formats/texture/dxt.ts, tuned for speed) against a reference
 * decoder written here straight from the public block descriptions (Direct3D's "Block
 * Compression" pages: BC1 = DXT1, BC2 = DXT2/3, BC3 = DXT4/5), one texel and one bit at a time,
 * over random blocks that cover every mode: BC1 with c0 > c1 (4 colours) and c0 <= c1 (3 colours
 * and transparent black, equal endpoints included), BC3 alpha with a0 > a1 (8 values) and
 * a0 <= a1 (6 values, 0 and 255), blocks whose 16 alpha indices are one value, neighbours that
 * repeat endpoints, partial blocks at the edges, and unaligned input and output buffers.
 */
import { describe, expect, it } from 'vitest';
import { blockBytes, blockDataSize, decodeBlocks, type BlockFormat } from '../../shared/formats/texture/dxt.ts';
import { Prng } from '../../fuzz/lib/prng.ts';

/** Bit `i` of the little-endian bit string starting at byte `p`. */
const bit = (b: Uint8Array, p: number, i: number): number => (b[p + (i >> 3)]! >> (i & 7)) & 1;
/** `n` bits from bit `i` of the little-endian bit string at byte `p`. */
const bits = (b: Uint8Array, p: number, i: number, n: number): number => {
  let v = 0;
  for (let k = 0; k < n; k++) v |= bit(b, p, i + k) << k;
  return v;
};

/** A 565 colour -> [r, g, b] with the bit-replicating expansion to 8 bits. */
function rgb565(c: number): number[] {
  const r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return [(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)];
}

/** The 4 RGBA colours of a colour block at `p`; `bc1` allows the 3-colour mode. */
function colourTable(b: Uint8Array, p: number, bc1: boolean): number[][] {
  const c0 = b[p]! | (b[p + 1]! << 8), c1 = b[p + 2]! | (b[p + 3]! << 8);
  const e0 = rgb565(c0), e1 = rgb565(c1);
  if (!bc1 || c0 > c1) {
    return [[...e0, 255], [...e1, 255], [...e0.map((v, k) => Math.floor((2 * v + e1[k]!) / 3)), 255], [...e0.map((v, k) => Math.floor((v + 2 * e1[k]!) / 3)), 255]];
  }
  return [[...e0, 255], [...e1, 255], [...e0.map((v, k) => Math.floor((v + e1[k]!) / 2)), 255], [0, 0, 0, 0]];
}

/** The 8 alpha values of a BC3 alpha block with endpoints a0, a1. */
function alphaTable(a0: number, a1: number): number[] {
  const t = [a0, a1];
  if (a0 > a1) for (let i = 2; i < 8; i++) t.push(Math.floor(((8 - i) * a0 + (i - 1) * a1) / 7));
  else {
    for (let i = 2; i < 6; i++) t.push(Math.floor(((6 - i) * a0 + (i - 1) * a1) / 5));
    t.push(0, 255);
  }
  return t;
}

/** One block at `p` -> 16 RGBA texels, row by row. */
function referenceBlock(fmt: 'bc1' | 'bc2' | 'bc3', b: Uint8Array, p: number): number[][] {
  const colourAt = fmt === 'bc1' ? p : p + 8;
  const colours = colourTable(b, colourAt, fmt === 'bc1');
  const texels: number[][] = [];
  for (let i = 0; i < 16; i++) {
    const t = [...colours[bits(b, colourAt + 4, i * 2, 2)]!];
    if (fmt === 'bc2') t[3] = bits(b, p, i * 4, 4) * 17;
    if (fmt === 'bc3') t[3] = alphaTable(b[p]!, b[p + 1]!)[bits(b, p + 2, i * 3, 3)]!;
    texels.push(t);
  }
  return texels;
}

function referenceDecode(fmt: 'bc1' | 'bc2' | 'bc3', b: Uint8Array, offset: number, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const bw = Math.max(1, Math.ceil(width / 4));
  for (let by = 0; by * 4 < height; by++) {
    for (let bx = 0; bx * 4 < width; bx++) {
      const texels = referenceBlock(fmt, b, offset + (by * bw + bx) * blockBytes(fmt));
      for (let i = 0; i < 16; i++) {
        const x = bx * 4 + (i & 3), y = by * 4 + (i >> 2);
        if (x < width && y < height) out.set(texels[i]!, (y * width + x) * 4);
      }
    }
  }
  return out;
}

/**
 * Random blocks of `fmt` with every mode well represented: BC1 endpoints ordered either way (or
 * equal), BC3 alpha endpoints likewise, some blocks with one alpha index for all texels, and some
 * blocks repeating the endpoints of the block before (the decoders keep the last palette).
 */
function randomBlocks(fmt: BlockFormat, count: number, rnd: Prng): Uint8Array {
  const size = blockBytes(fmt);
  const b = new Uint8Array(count * size);
  for (let k = 0; k < count; k++) {
    const p = k * size;
    for (let i = 0; i < size; i++) b[p + i] = rnd.int(256);
    const colourAt = fmt === 'bc1' ? p : p + 8;
    let c0 = rnd.int(65536), c1 = rnd.int(65536);
    const mode = rnd.int(4);
    if (mode === 0 && c0 < c1) [c0, c1] = [c1, c0]; // 4 colours
    if (mode === 1 && c0 > c1) [c0, c1] = [c1, c0]; // 3 colours (BC1)
    if (mode === 2) c1 = c0; // equal endpoints
    b[colourAt] = c0 & 255; b[colourAt + 1] = c0 >> 8; b[colourAt + 2] = c1 & 255; b[colourAt + 3] = c1 >> 8;
    if (fmt === 'bc3') {
      let a0 = rnd.int(256), a1 = rnd.int(256);
      const am = rnd.int(5);
      if (am === 0 && a0 < a1) [a0, a1] = [a1, a0]; // 8 values
      if (am === 1 && a0 > a1) [a0, a1] = [a1, a0]; // 6 values, 0 and 255
      if (am === 2) a1 = a0;
      b[p] = a0; b[p + 1] = a1;
      if (rnd.chance(0.3)) {
        // One alpha index for all 16 texels.
        const idx = rnd.int(8);
        let v = 0n;
        for (let i = 0; i < 16; i++) v |= BigInt(idx) << BigInt(i * 3);
        for (let i = 0; i < 6; i++) b[p + 2 + i] = Number((v >> BigInt(i * 8)) & 255n);
      }
    }
    if (k > 0 && rnd.chance(0.25)) {
      // The previous block's endpoints (colour, and for BC3 alpha), with its own indices.
      b.copyWithin(colourAt, colourAt - size, colourAt - size + 4);
      if (fmt === 'bc3' && rnd.chance(0.5)) b.copyWithin(p, p - size, p - size + 2);
    }
  }
  return b;
}

describe('BCn decoders against a reference from the block descriptions', () => {
  const sizes: [number, number][] = [[64, 64], [13, 7], [1, 1], [2, 3], [6, 10], [4, 20], [21, 4]];
  for (const fmt of ['bc1', 'bc2', 'bc3'] as const) {
    it(`${fmt}: random blocks, whole and partial, aligned and unaligned buffers`, () => {
      const rnd = new Prng(fmt === 'bc1' ? 1 : fmt === 'bc2' ? 2 : 3);
      for (const [w, h] of sizes) {
        for (const shift of [0, 1, 3]) {
          const n = blockDataSize(fmt, w, h) / blockBytes(fmt);
          const blocks = randomBlocks(fmt, n, rnd);
          // `shift` bytes before the data: the decoder must cope with any offset, and with an
          // output buffer that is not 4-byte aligned.
          const src = new Uint8Array(shift + blocks.length);
          src.set(blocks, shift);
          const backing = new Uint8Array(w * h * 4 + shift);
          const out = backing.subarray(shift);
          decodeBlocks(fmt, src, shift, w, h, out);
          const want = referenceDecode(fmt, src, shift, w, h);
          const firstDiff = out.findIndex((v, i) => v !== want[i]);
          expect(firstDiff, `${fmt} ${w}x${h} shift ${shift}: first difference at byte ${firstDiff}`).toBe(-1);
        }
      }
    });
  }

  it('covers both modes of each format (the generator is not degenerate)', () => {
    const rnd = new Prng(4);
    const bc1 = randomBlocks('bc1', 256, rnd);
    let four = 0, three = 0;
    for (let p = 0; p < bc1.length; p += 8) {
      if ((bc1[p]! | (bc1[p + 1]! << 8)) > (bc1[p + 2]! | (bc1[p + 3]! << 8))) four++;
      else three++;
    }
    const bc3 = randomBlocks('bc3', 256, rnd);
    let eight = 0, six = 0, oneIndex = 0;
    for (let p = 0; p < bc3.length; p += 16) {
      if (bc3[p]! > bc3[p + 1]!) eight++;
      else six++;
      if (bc3.subarray(p + 2, p + 8).every((v, i, a) => v === a[i % 3])) oneIndex++;
    }
    for (const n of [four, three, eight, six]) expect(n).toBeGreaterThan(64);
    expect(oneIndex).toBeGreaterThan(32);
  });

  it('the reference itself: hand-worked BC1 and BC3 blocks', () => {
    // BC1, c0 = pure red (0xf800) > c1 = pure blue (0x001f): index 2 is 2/3 red + 1/3 blue.
    const bc1 = new Uint8Array([0x00, 0xf8, 0x1f, 0x00, 0b11100100, 0, 0, 0]);
    const four = referenceDecode('bc1', bc1, 0, 4, 1);
    expect([...four]).toEqual([255, 0, 0, 255, 0, 0, 255, 255, 170, 0, 85, 255, 85, 0, 170, 255]);
    expect([...four]).toEqual([...decodeOurs('bc1', bc1, 4, 1)]);
    // The same endpoints swapped: 3 colours, the mean, and transparent black.
    const bc1b = new Uint8Array([0x1f, 0x00, 0x00, 0xf8, 0b11100100, 0, 0, 0]);
    const three = referenceDecode('bc1', bc1b, 0, 4, 1);
    expect([...three]).toEqual([0, 0, 255, 255, 255, 0, 0, 255, 127, 0, 127, 255, 0, 0, 0, 0]);
    expect([...three]).toEqual([...decodeOurs('bc1', bc1b, 4, 1)]);
    // BC3 alpha, a0 = 10 <= a1 = 200: indices 6 and 7 are 0 and 255; index 2 is (4*10 + 200) / 5.
    const bc3 = new Uint8Array(16);
    bc3[0] = 10; bc3[1] = 200;
    bc3[2] = 6 | (7 << 3) | ((2 & 3) << 6); bc3[3] = 2 >> 2;
    bc3[8] = 0xff; bc3[9] = 0xff; bc3[10] = 0; bc3[11] = 0;
    const alpha = referenceDecode('bc3', bc3, 0, 4, 1).filter((_, i) => i % 4 === 3);
    expect([...alpha]).toEqual([0, 255, 48, 10]);
    expect([...alpha]).toEqual([...decodeOurs('bc3', bc3, 4, 1).filter((_, i) => i % 4 === 3)]);
  });
});

function decodeOurs(fmt: BlockFormat, b: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  decodeBlocks(fmt, b, 0, w, h, out);
  return out;
}
