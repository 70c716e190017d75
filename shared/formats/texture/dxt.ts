/**
 * S3TC / BCn block codecs: decoding of BC1 (DXT1), BC2 (DXT2/3), BC3 (DXT4/5), BC4 and BC5 to
 * RGBA8, and encoding of BC1 and BC3 for new PAA files.
 *
 * Written here rather than taken from npm: the packages that exist either wrap a native command
 * line tool (not usable in the renderer or a worker), are an unmaintained emscripten build of
 * libsquish (dxt-js 0.0.3), or decode one pixel at a time through objects (decode-dxt). The
 * decoders below write whole 32-bit texels through an Int32Array, which is what the "DXT decode"
 * bench rows measure; the encoder is a principal-axis fit with one least-squares refinement (the
 * method of stb_dxt and squish's range fit, with stb_dxt's single-colour table for flat blocks),
 * measured by the "PNG -> PAA" bench row beside libsquish (dxt-js) as a reference.
 *
 * Colour interpolation follows the D3D reference rounding: (2*c0 + c1) / 3 with integer division
 * of the 8-bit expanded endpoints.
 */

export type BlockFormat = 'bc1' | 'bc2' | 'bc3' | 'bc4' | 'bc5';

/** Bytes per 4x4 block. */
export function blockBytes(fmt: BlockFormat): 8 | 16 {
  return fmt === 'bc1' || fmt === 'bc4' ? 8 : 16;
}

/** Bytes of a width x height level in `fmt` (partial blocks count whole). */
export function blockDataSize(fmt: BlockFormat, width: number, height: number): number {
  return Math.max(1, Math.ceil(width / 4)) * Math.max(1, Math.ceil(height / 4)) * blockBytes(fmt);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** 5-bit and 6-bit channel expansion tables. */
/** Exact integer quotients for the palette interpolations (x / 3 up to 765, x / 7 up to 1785, x / 5 up to 1275). */
const DIV3 = new Uint8Array(766);
const DIV5 = new Uint8Array(1276);
const DIV7 = new Uint8Array(1786);
for (let i = 0; i < DIV3.length; i++) DIV3[i] = (i / 3) | 0;
for (let i = 0; i < DIV5.length; i++) DIV5[i] = (i / 5) | 0;
for (let i = 0; i < DIV7.length; i++) DIV7[i] = (i / 7) | 0;

const EXP5 = new Uint8Array(32);
const EXP6 = new Uint8Array(64);
for (let i = 0; i < 32; i++) EXP5[i] = (i << 3) | (i >> 2);
for (let i = 0; i < 64; i++) EXP6[i] = (i << 2) | (i >> 4);

/**
 * Decodes `width` x `height` texels of block data starting at `src[offset]` into `out` (RGBA8,
 * width * height * 4 bytes). The caller has checked that `blockDataSize` bytes are available.
 */
export function decodeBlocks(fmt: BlockFormat, src: Uint8Array, offset: number, width: number, height: number, out: Uint8Array): void {
  const aligned = LITTLE_ENDIAN && out.byteOffset % 4 === 0;
  const target = aligned ? out : new Uint8Array(width * height * 4);
  // Int32 stores take the packed texels as they come (no unsigned conversion in the inner loops).
  const px = new Int32Array(target.buffer, target.byteOffset, width * height);
  switch (fmt) {
    case 'bc1': decodeBc1(src, offset, width, height, px); break;
    case 'bc2': decodeBc2(src, offset, width, height, px); break;
    case 'bc3': decodeBc3(src, offset, width, height, px); break;
    case 'bc4': decodeBc4(src, offset, width, height, px); break;
    case 'bc5': decodeBc5(src, offset, width, height, px); break;
  }
  if (!aligned) out.set(target);
}

/** Writes one decoded 4x4 block (`block`, 16 packed texels) into the image, clipping at the edges. */
function putBlock(px: Int32Array, width: number, height: number, bx: number, by: number, block: Int32Array): void {
  const x0 = bx * 4;
  const y0 = by * 4;
  const cw = Math.min(4, width - x0);
  const ch = Math.min(4, height - y0);
  for (let y = 0; y < ch; y++) {
    const row = (y0 + y) * width + x0;
    for (let x = 0; x < cw; x++) px[row + x] = block[y * 4 + x]!;
  }
}

const pal = new Int32Array(4);
const blk = new Int32Array(16);
const alphaPal = new Uint8Array(8);
/** alphaPal shifted into the alpha byte, for BC3's inner loop. */
const alphaHi = new Int32Array(8);

/** Fills `pal` from two 565 endpoints; `alpha` is OR-ed into each texel; `threeColour` = BC1 mode with c0 <= c1. */
function colourPalette(c0: number, c1: number, threeColour: boolean): void {
  const r0 = EXP5[c0 >> 11]!, g0 = EXP6[(c0 >> 5) & 63]!, b0 = EXP5[c0 & 31]!;
  const r1 = EXP5[c1 >> 11]!, g1 = EXP6[(c1 >> 5) & 63]!, b1 = EXP5[c1 & 31]!;
  pal[0] = r0 | (g0 << 8) | (b0 << 16) | 0xff000000;
  pal[1] = r1 | (g1 << 8) | (b1 << 16) | 0xff000000;
  if (!threeColour) {
    pal[2] = DIV3[2 * r0 + r1]! | (DIV3[2 * g0 + g1]! << 8) | (DIV3[2 * b0 + b1]! << 16) | 0xff000000;
    pal[3] = DIV3[r0 + 2 * r1]! | (DIV3[g0 + 2 * g1]! << 8) | (DIV3[b0 + 2 * b1]! << 16) | 0xff000000;
  } else {
    pal[2] = ((r0 + r1) >> 1) | (((g0 + g1) >> 1) << 8) | (((b0 + b1) >> 1) << 16) | 0xff000000;
    pal[3] = 0;
  }
}

function decodeBc1(src: Uint8Array, offset: number, width: number, height: number, px: Int32Array): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const fullW = width >> 2;
  let p = offset;
  for (let by = 0; by < bh; by++) {
    const fullRow = by * 4 + 4 <= height;
    for (let bx = 0; bx < bw; bx++, p += 8) {
      const c0 = src[p]! | (src[p + 1]! << 8);
      const c1 = src[p + 2]! | (src[p + 3]! << 8);
      colourPalette(c0, c1, c0 <= c1);
      let bits = src[p + 4]! | (src[p + 5]! << 8) | (src[p + 6]! << 16) | (src[p + 7]! << 24);
      if (fullRow && bx < fullW) {
        let o = by * 4 * width + bx * 4;
        for (let y = 0; y < 4; y++, o += width) {
          px[o] = pal[bits & 3]!;
          px[o + 1] = pal[(bits >>> 2) & 3]!;
          px[o + 2] = pal[(bits >>> 4) & 3]!;
          px[o + 3] = pal[(bits >>> 6) & 3]!;
          bits >>>= 8;
        }
      } else {
        for (let i = 0; i < 16; i++, bits >>>= 2) blk[i] = pal[bits & 3]!;
        putBlock(px, width, height, bx, by, blk);
      }
    }
  }
}

function decodeBc2(src: Uint8Array, offset: number, width: number, height: number, px: Int32Array): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  let p = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, p += 16) {
      const c0 = src[p + 8]! | (src[p + 9]! << 8);
      const c1 = src[p + 10]! | (src[p + 11]! << 8);
      colourPalette(c0, c1, false);
      let bits = src[p + 12]! | (src[p + 13]! << 8) | (src[p + 14]! << 16) | (src[p + 15]! << 24);
      for (let i = 0; i < 16; i++, bits >>>= 2) {
        const a4 = (src[p + (i >> 1)]! >> ((i & 1) * 4)) & 15;
        blk[i] = (pal[bits & 3]! & 0xffffff) | ((a4 * 17) << 24);
      }
      putBlock(px, width, height, bx, by, blk);
    }
  }
}

/** Fills `alphaPal` from two 8-bit endpoints (BC3 alpha, BC4/BC5 channels). */
function scalarPalette(a0: number, a1: number): void {
  alphaPal[0] = a0;
  alphaPal[1] = a1;
  if (a0 > a1) {
    alphaPal[2] = DIV7[6 * a0 + a1]!; alphaPal[3] = DIV7[5 * a0 + 2 * a1]!; alphaPal[4] = DIV7[4 * a0 + 3 * a1]!;
    alphaPal[5] = DIV7[3 * a0 + 4 * a1]!; alphaPal[6] = DIV7[2 * a0 + 5 * a1]!; alphaPal[7] = DIV7[a0 + 6 * a1]!;
  } else {
    alphaPal[2] = DIV5[4 * a0 + a1]!; alphaPal[3] = DIV5[3 * a0 + 2 * a1]!; alphaPal[4] = DIV5[2 * a0 + 3 * a1]!; alphaPal[5] = DIV5[a0 + 4 * a1]!;
    alphaPal[6] = 0;
    alphaPal[7] = 255;
  }
}

function decodeBc3(src: Uint8Array, offset: number, width: number, height: number, px: Int32Array): void {
  let lastA0 = -1, lastA1 = -1;
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const fullW = width >> 2;
  let p = offset;
  for (let by = 0; by < bh; by++) {
    const fullRow = by * 4 + 4 <= height;
    for (let bx = 0; bx < bw; bx++, p += 16) {
      const a0 = src[p]!, a1 = src[p + 1]!;
      if (a0 !== lastA0 || a1 !== lastA1) {
        // Neighbouring blocks often share alpha endpoints (opaque or fully clear areas).
        scalarPalette(a0, a1);
        for (let k = 0; k < 8; k++) alphaHi[k] = alphaPal[k]! << 24;
        lastA0 = a0;
        lastA1 = a1;
      }
      // 48 bits of 3-bit alpha indices as two 24-bit halves.
      const lo = src[p + 2]! | (src[p + 3]! << 8) | (src[p + 4]! << 16);
      const hi = src[p + 5]! | (src[p + 6]! << 8) | (src[p + 7]! << 16);
      const c0 = src[p + 8]! | (src[p + 9]! << 8);
      const c1 = src[p + 10]! | (src[p + 11]! << 8);
      colourPalette(c0, c1, false);
      let bits = src[p + 12]! | (src[p + 13]! << 8) | (src[p + 14]! << 16) | (src[p + 15]! << 24);
      if (fullRow && bx < fullW) {
        let o = by * 4 * width + bx * 4;
        let ab = lo;
        for (let y = 0; y < 4; y++, o += width) {
          if (y === 2) ab = hi;
          px[o] = (pal[bits & 3]! & 0xffffff) | alphaHi[ab & 7]!;
          px[o + 1] = (pal[(bits >>> 2) & 3]! & 0xffffff) | alphaHi[(ab >> 3) & 7]!;
          px[o + 2] = (pal[(bits >>> 4) & 3]! & 0xffffff) | alphaHi[(ab >> 6) & 7]!;
          px[o + 3] = (pal[(bits >>> 6) & 3]! & 0xffffff) | alphaHi[(ab >> 9) & 7]!;
          bits >>>= 8;
          ab >>= 12;
        }
      } else {
        for (let i = 0; i < 16; i++, bits >>>= 2) {
          const ai = i < 8 ? (lo >> (i * 3)) & 7 : (hi >> ((i - 8) * 3)) & 7;
          blk[i] = (pal[bits & 3]! & 0xffffff) | alphaHi[ai]!;
        }
        putBlock(px, width, height, bx, by, blk);
      }
    }
  }
}

/** One BC4 channel block at `p` into `chan` (16 values). */
function scalarBlock(src: Uint8Array, p: number, chan: Uint8Array): void {
  scalarPalette(src[p]!, src[p + 1]!);
  const lo = src[p + 2]! | (src[p + 3]! << 8) | (src[p + 4]! << 16);
  const hi = src[p + 5]! | (src[p + 6]! << 8) | (src[p + 7]! << 16);
  for (let i = 0; i < 8; i++) chan[i] = alphaPal[(lo >> (i * 3)) & 7]!;
  for (let i = 0; i < 8; i++) chan[i + 8] = alphaPal[(hi >> (i * 3)) & 7]!;
}

const chanA = new Uint8Array(16);
const chanB = new Uint8Array(16);

/** BC4: one channel, shown as grey. */
function decodeBc4(src: Uint8Array, offset: number, width: number, height: number, px: Int32Array): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  let p = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, p += 8) {
      scalarBlock(src, p, chanA);
      for (let i = 0; i < 16; i++) {
        const v = chanA[i]!;
        blk[i] = v | (v << 8) | (v << 16) | 0xff000000;
      }
      putBlock(px, width, height, bx, by, blk);
    }
  }
}

/** BC5: two channels into red and green, blue 0 (a tangent-space normal map shows as stored). */
function decodeBc5(src: Uint8Array, offset: number, width: number, height: number, px: Int32Array): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  let p = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, p += 16) {
      scalarBlock(src, p, chanA);
      scalarBlock(src, p + 8, chanB);
      for (let i = 0; i < 16; i++) blk[i] = chanA[i]! | (chanB[i]! << 8) | 0xff000000;
      putBlock(px, width, height, bx, by, blk);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding
//
// Speed notes (the "PNG -> PAA" bench row): texels are gathered into one reused Int32Array per
// block (no per-block allocation or subarray), every intermediate result lives in module-level
// variables instead of returned objects, the alpha indices use integer arithmetic, and blocks of a
// single colour (flat areas, common in real textures) take their endpoints from a precomputed
// optimal table instead of the fit (the stb_dxt "single colour match", which is also more exact).

/** The current block's texels as R,G,B,A ints (64 entries). */
const tex = new Int32Array(64);

/**
 * Encodes an RGBA image as BC1 (`bc1`, 1-bit alpha where a texel's alpha < 128), BC2 (explicit
 * 4-bit alpha), BC3, BC4 (red) or BC5 (red and green).
 */
export function encodeBlocks(fmt: BlockFormat, rgba: Uint8Array, width: number, height: number): Uint8Array {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const bb = blockBytes(fmt);
  const out = new Uint8Array(bw * bh * bb);
  const bc3 = fmt === 'bc3';
  let o = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      if (bx * 4 + 4 <= width && by * 4 + 4 <= height) {
        let d = 0;
        for (let y = 0; y < 4; y++) {
          let s = ((by * 4 + y) * width + bx * 4) * 4;
          for (let k = 0; k < 16; k++) tex[d++] = rgba[s++]!;
        }
      } else for (let y = 0; y < 4; y++) {
        // Partial blocks at the edges repeat their last row/column.
        const sy = Math.min(height - 1, by * 4 + y);
        for (let x = 0; x < 4; x++) {
          const sx = Math.min(width - 1, bx * 4 + x);
          const s = (sy * width + sx) * 4;
          const d = (y * 4 + x) * 4;
          tex[d] = rgba[s]!;
          tex[d + 1] = rgba[s + 1]!;
          tex[d + 2] = rgba[s + 2]!;
          tex[d + 3] = rgba[s + 3]!;
        }
      }
      if (bc3) {
        encodeScalarBlock(out, o, 3);
        encodeColourBlock(out, o + 8, false);
      } else if (fmt === 'bc1') {
        let punch = false;
        for (let i = 3; i < 64; i += 4) if (tex[i]! < 128) { punch = true; break; }
        encodeColourBlock(out, o, punch);
      } else if (fmt === 'bc2') {
        // Explicit alpha: 4 bits a texel, low nibble first.
        for (let i = 0; i < 8; i++) out[o + i] = ((tex[i * 8 + 3]! * 15 + 127) / 255) | (((tex[i * 8 + 7]! * 15 + 127) / 255) << 4);
        encodeColourBlock(out, o + 8, false);
      } else {
        encodeScalarBlock(out, o, 0);
        if (fmt === 'bc5') encodeScalarBlock(out, o + 8, 1);
      }
      o += bb;
    }
  }
  return out;
}

/** One BC3 alpha / BC4 channel block of channel `ch` (0 red .. 3 alpha): 8 steps between the extremes. */
function encodeScalarBlock(out: Uint8Array, o: number, ch: number): void {
  let mn = 255, mx = 0;
  for (let i = ch; i < 64; i += 4) {
    const a = tex[i]!;
    if (a < mn) mn = a;
    if (a > mx) mx = a;
  }
  out[o] = mx;
  out[o + 1] = mn;
  let lo = 0, hi = 0;
  if (mx > mn) {
    const range = mx - mn;
    const range2 = range * 2;
    for (let i = 0; i < 16; i++) {
      // t = 0 at mx (index 0) .. 7 at mn (index 1); indices 2..7 are t = 1..6 (rounded to nearest).
      const t = (((mx - tex[i * 4 + ch]!) * 14 + range) / range2) | 0;
      const idx = t === 0 ? 0 : t === 7 ? 1 : t + 1;
      if (i < 8) lo |= idx << (i * 3);
      else hi |= idx << ((i - 8) * 3);
    }
  }
  out[o + 2] = lo & 255; out[o + 3] = (lo >> 8) & 255; out[o + 4] = (lo >> 16) & 255;
  out[o + 5] = hi & 255; out[o + 6] = (hi >> 8) & 255; out[o + 7] = (hi >> 16) & 255;
}

/** 8-bit channel -> nearest 5-bit / 6-bit value. */
const Q5 = new Uint8Array(256);
const Q6 = new Uint8Array(256);
for (let i = 0; i < 256; i++) { Q5[i] = Math.round((i * 31) / 255); Q6[i] = Math.round((i * 63) / 255); }
const byte = (v: number): number => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
const to565 = (r: number, g: number, b: number): number => (Q5[byte(r)]! << 11) | (Q6[byte(g)]! << 5) | Q5[byte(b)]!;

/**
 * Single-colour tables: for each 8-bit value, the 5-bit (6-bit) endpoint pair (hi, lo) whose
 * 2/3 : 1/3 interpolation (palette index 2, D3D rounding) comes closest to it.
 */
function singleColourTable(bits: number, exp: Uint8Array): Uint8Array {
  const n = 1 << bits;
  const t = new Uint8Array(512);
  for (let c = 0; c < 256; c++) {
    let best = Infinity;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const e = Math.abs(DIV3[2 * exp[a]! + exp[b]!]! - c);
        if (e < best) { best = e; t[c * 2] = a; t[c * 2 + 1] = b; }
      }
    }
  }
  return t;
}
const MATCH5 = singleColourTable(5, EXP5);
const MATCH6 = singleColourTable(6, EXP6);

const epal = new Int32Array(12);

/** Builds the 4 (or 3) palette colours of two 565 endpoints into `epal` as r,g,b triples. */
function endpointPalette(c0: number, c1: number, three: boolean): void {
  const r0 = EXP5[c0 >> 11]!, g0 = EXP6[(c0 >> 5) & 63]!, b0 = EXP5[c0 & 31]!;
  const r1 = EXP5[c1 >> 11]!, g1 = EXP6[(c1 >> 5) & 63]!, b1 = EXP5[c1 & 31]!;
  epal[0] = r0; epal[1] = g0; epal[2] = b0;
  epal[3] = r1; epal[4] = g1; epal[5] = b1;
  if (three) {
    epal[6] = (r0 + r1) >> 1; epal[7] = (g0 + g1) >> 1; epal[8] = (b0 + b1) >> 1;
    epal[9] = 0; epal[10] = 0; epal[11] = 0;
  } else {
    epal[6] = DIV3[2 * r0 + r1]!; epal[7] = DIV3[2 * g0 + g1]!; epal[8] = DIV3[2 * b0 + b1]!;
    epal[9] = DIV3[r0 + 2 * r1]!; epal[10] = DIV3[g0 + 2 * g1]!; epal[11] = DIV3[b0 + 2 * b1]!;
  }
}

/** The result of the last pick: endpoints, index bits and weighted squared error. */
let resC0 = 0, resC1 = 0, resBits = 0, resErr = 0;

/** Weight of endpoint 0 for each 4-colour index, in thirds. */
const REFIT_WEIGHTS3 = new Int32Array([3, 0, 2, 1]);

/**
 * One colour block: endpoints at the extremes of the texels' projection on their principal axis,
 * then a least-squares refit of the endpoints to the chosen indices, keeping the better of the two.
 * `punch` = BC1 with transparent texels: 3-colour mode, index 3 for alpha < 128.
 */
function encodeColourBlock(out: Uint8Array, o: number, punch: boolean): void {
  // One pass: count, sums and second moments (integers: 16 * 255 * 255 fits easily).
  let n = 0;
  let sr = 0, sg = 0, sb = 0, srr = 0, srg = 0, srb = 0, sgg = 0, sgb = 0, sbb = 0;
  let solid = true;
  const fr = tex[0]!, fg = tex[1]!, fb = tex[2]!;
  if (!punch) {
    n = 16;
    for (let s = 0; s < 64; s += 4) {
      const r = tex[s]!, g = tex[s + 1]!, b = tex[s + 2]!;
      if (r !== fr || g !== fg || b !== fb) solid = false;
      sr += r; sg += g; sb += b;
      srr += r * r; srg += r * g; srb += r * b; sgg += g * g; sgb += g * b; sbb += b * b;
    }
    if (solid) {
      singleColour(fr, fg, fb);
      writeColourBlock(out, o);
      return;
    }
  } else {
    for (let s = 0; s < 64; s += 4) {
      if (tex[s + 3]! < 128) continue;
      const r = tex[s]!, g = tex[s + 1]!, b = tex[s + 2]!;
      sr += r; sg += g; sb += b;
      srr += r * r; srg += r * g; srb += r * b; sgg += g * g; sgb += g * b; sbb += b * b;
      n++;
    }
  }
  if (n === 0) {
    // Fully transparent BC1 block: 3-colour mode, every index 3.
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0;
    out[o + 4] = 255; out[o + 5] = 255; out[o + 6] = 255; out[o + 7] = 255;
    return;
  }
  {
    // Covariance from the moments, then a few power iterations for the principal axis.
    const inv = 1 / n;
    const xx = srr - sr * sr * inv, xy = srg - sr * sg * inv, xz = srb - sr * sb * inv;
    const yy = sgg - sg * sg * inv, yz = sgb - sg * sb * inv, zz = sbb - sb * sb * inv;
    let ax = 1, ay = 1, az = 1;
    for (let it = 0; it < 3; it++) {
      const nx = xx * ax + xy * ay + xz * az;
      const ny = xy * ax + yy * ay + yz * az;
      const nz = xz * ax + yz * ay + zz * az;
      const len = Math.max(Math.abs(nx), Math.abs(ny), Math.abs(nz));
      if (len < 1e-9) break;
      ax = nx / len; ay = ny / len; az = nz / len;
    }
    let minT = Infinity, maxT = -Infinity, minS = 0, maxS = 0;
    for (let s = 0; s < 64; s += 4) {
      if (punch && tex[s + 3]! < 128) continue;
      const t = tex[s]! * ax + tex[s + 1]! * ay + tex[s + 2]! * az;
      if (t < minT) { minT = t; minS = s; }
      if (t > maxT) { maxT = t; maxS = s; }
    }
    const e0 = (Q5[tex[maxS]!]! << 11) | (Q6[tex[maxS + 1]!]! << 5) | Q5[tex[maxS + 2]!]!;
    const e1 = (Q5[tex[minS]!]! << 11) | (Q6[tex[minS + 1]!]! << 5) | Q5[tex[minS + 2]!]!;
    if (punch) pickThree(e0, e1);
    else {
      orderFourColour(e0, e1);
      // Least-squares refit to the chosen indices (4-colour mode only).
      if (resErr > 0) refit();
    }
  }
  writeColourBlock(out, o);
}

/** Writes the endpoints and indices of the last pick. */
function writeColourBlock(out: Uint8Array, o: number): void {
  const c0 = resC0, c1 = resC1, bits = resBits;
  out[o] = c0 & 255; out[o + 1] = c0 >> 8; out[o + 2] = c1 & 255; out[o + 3] = c1 >> 8;
  out[o + 4] = bits & 255; out[o + 5] = (bits >>> 8) & 255; out[o + 6] = (bits >>> 16) & 255; out[o + 7] = bits >>> 24;
}

/** A block of one colour: the table's endpoint pair for each channel, every index 2 (or 3 when swapped). */
function singleColour(r: number, g: number, b: number): void {
  let c0 = (MATCH5[r * 2]! << 11) | (MATCH6[g * 2]! << 5) | MATCH5[b * 2]!;
  let c1 = (MATCH5[r * 2 + 1]! << 11) | (MATCH6[g * 2 + 1]! << 5) | MATCH5[b * 2 + 1]!;
  let idx = 2;
  if (c0 < c1) { const t = c0; c0 = c1; c1 = t; idx = 3; } else if (c0 === c1) idx = 0;
  // Equal endpoints read as 3-colour mode, where index 0 is the endpoint itself (exact then).
  resC0 = c0; resC1 = c1;
  resBits = idx === 0 ? 0 : idx === 2 ? 0xaaaaaaaa | 0 : -1;
  resErr = 0;
}

/**
 * Refits both endpoints to the indices in `resBits` by least squares; keeps the result when better.
 * The weights are thirds, so everything is summed as integers in units of 1/3.
 */
function refit(): void {
  const bits = resBits;
  let a2 = 0, b2 = 0, ab = 0;
  let ar = 0, ag = 0, abl = 0, br = 0, bg = 0, bbl = 0;
  for (let i = 0; i < 16; i++) {
    const a = REFIT_WEIGHTS3[(bits >>> (i * 2)) & 3]!;
    const b = 3 - a;
    const s = i * 4;
    const r = tex[s]!, g = tex[s + 1]!, bl = tex[s + 2]!;
    a2 += a * a; b2 += b * b; ab += a * b;
    ar += a * r; ag += a * g; abl += a * bl;
    br += b * r; bg += b * g; bbl += b * bl;
  }
  const det = a2 * b2 - ab * ab;
  if (det === 0) return;
  const f = 3 / det;
  const e0r = (ar * b2 - br * ab) * f, e0g = (ag * b2 - bg * ab) * f, e0b = (abl * b2 - bbl * ab) * f;
  const e1r = (br * a2 - ar * ab) * f, e1g = (bg * a2 - ag * ab) * f, e1b = (bbl * a2 - abl * ab) * f;
  const c0 = resC0, c1 = resC1, err = resErr;
  orderFourColour(to565(e0r, e0g, e0b), to565(e1r, e1g, e1b));
  if (resErr >= err) { resC0 = c0; resC1 = c1; resBits = bits; resErr = err; }
}

/** 4-colour mode needs c0 > c1; equal endpoints (which read as 3-colour mode) use index 0 everywhere. */
function orderFourColour(c0: number, c1: number): void {
  if (c0 < c1) { const t = c0; c0 = c1; c1 = t; }
  resC0 = c0; resC1 = c1;
  if (c0 === c1) {
    endpointPalette(c0, c1, true);
    resBits = 0;
    resErr = errorAtIndex0();
    return;
  }
  endpointPalette(c0, c1, false);
  pickFour();
}

/** Index of the palette entry at 0, 1/3, 2/3 and 1 of the way from endpoint 0 to endpoint 1. */
const PROJECTED_INDEX = new Int32Array([0, 2, 3, 1]);

/**
 * 4-colour indices by projecting each texel on the line between the two decoded endpoints
 * (16 dot products instead of 64 distances) into `resBits`, the squared error into `resErr`.
 */
function pickFour(): void {
  const r0 = epal[0]!, g0 = epal[1]!, b0 = epal[2]!;
  const dr = epal[3]! - r0, dg = epal[4]! - g0, db = epal[5]! - b0;
  const len2 = dr * dr + dg * dg + db * db;
  const scale = len2 > 0 ? 3 / len2 : 0;
  let bits = 0;
  let err = 0;
  for (let i = 0; i < 16; i++) {
    const s = i * 4;
    const r = tex[s]!, g = tex[s + 1]!, b = tex[s + 2]!;
    const t = ((r - r0) * dr + (g - g0) * dg + (b - b0) * db) * scale;
    const k = t <= 0 ? 0 : t >= 3 ? 3 : (t + 0.5) | 0;
    const idx = PROJECTED_INDEX[k]!;
    bits |= idx << (i * 2);
    const q = idx * 3;
    const er = r - epal[q]!, eg = g - epal[q + 1]!, eb = b - epal[q + 2]!;
    err += er * er * 2 + eg * eg * 4 + eb * eb;
  }
  resBits = bits;
  resErr = err;
}

function errorAtIndex0(): number {
  let e = 0;
  for (let s = 0; s < 64; s += 4) {
    const dr = tex[s]! - epal[0]!, dg = tex[s + 1]! - epal[1]!, db = tex[s + 2]! - epal[2]!;
    e += dr * dr * 2 + dg * dg * 4 + db * db;
  }
  return e;
}

/** 3-colour (punch-through) mode needs c0 <= c1; texels with alpha < 128 take index 3. */
function pickThree(c0: number, c1: number): void {
  if (c0 > c1) { const t = c0; c0 = c1; c1 = t; }
  endpointPalette(c0, c1, true);
  let bits = 0;
  let err = 0;
  for (let i = 0; i < 16; i++) {
    const s = i * 4;
    if (tex[s + 3]! < 128) { bits |= 3 << (i * 2); continue; }
    let best = 0, bestD = 0x7fffffff;
    for (let k = 0; k < 3; k++) {
      const dr = tex[s]! - epal[k * 3]!, dg = tex[s + 1]! - epal[k * 3 + 1]!, db = tex[s + 2]! - epal[k * 3 + 2]!;
      const d = dr * dr * 2 + dg * dg * 4 + db * db;
      if (d < bestD) { bestD = d; best = k; }
    }
    bits |= best << (i * 2);
    err += bestD;
  }
  resC0 = c0; resC1 = c1; resBits = bits; resErr = err;
}
