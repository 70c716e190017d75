/**
 * Fuzzing the texture codecs through the whole texture pipeline: decode (within the memory
 * budget), info, validation with and without pictures (they must agree), every mip to pixels, pixels to PNG and back, pixels to a new PAA and that PAA
 * decoded again, and the untouched re-save. Every input must end in success or one DecodeError
 * whose offset lies inside the input; anything else is a finding.
 *
 * Texture documents are not models, so this runs beside the model harness (engine.ts) rather than
 * through its format registry; `npm run fuzz:textures` drives it.
 */
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';
import {
  decodeTexture, decodeTextureMip, encodeTexture, textureInfo, textureMipCount, validateTexture,
} from '../../shared/formats/texture/index.ts';
import { createPaa, decodePaa, decodePaaMip, encodePaa } from '../../shared/formats/texture/paa.ts';
import { decodeDds, decodeDdsMip } from '../../shared/formats/texture/dds.ts';
import { eddsFromDds } from '../../shared/formats/texture/edds.ts';
import { decodeTga, decodeTgaImage } from '../../shared/formats/texture/tga.ts';
import { replaceDds, replaceTga } from '../../shared/formats/texture/rewrite.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
import { forEachMutant, type Seed } from './mutate.ts';

export interface TextureFinding {
  seed: string;
  kind: string;
  desc: string;
  message: string;
  bytes: Uint8Array;
}

export interface TextureFuzzStats {
  inputs: number;
  decoded: number;
  refused: number;
  findings: TextureFinding[];
}

/** Largest side pushed through the PNG/PAA re-encode (bigger mutants are only decoded). */
const REENCODE_MAX_PIXELS = 256 * 256;

/** Runs one input through the pipeline; returns a problem message or undefined. */
export function runTextureInput(bytes: Uint8Array, name: string): { outcome: 'ok' | 'refused'; problem?: string } {
  try {
    withBudget(MemoryBudget.forInput(bytes.length), () => {
      const doc = decodeTexture(bytes, name);
      textureInfo(doc, bytes.length);
      // `lodsmith check` validates without drawing pictures: it must find what the full
      // validation finds, unless a picture was too large for the budget (which it never makes).
      const full = validateTexture(doc);
      const data = validateTexture(doc, { pixels: false });
      if (!full.some((p) => /decoding memory budget/.test(p.message)) && JSON.stringify(data) !== JSON.stringify(full)) throw new Error(`validation without pictures differs: ${JSON.stringify(data).slice(0, 200)} against ${JSON.stringify(full).slice(0, 200)}`);
      const again = encodeTexture(doc);
      if (again.length !== bytes.length || again.some((b, i) => b !== bytes[i])) throw new Error('untouched texture did not re-save byte for byte');
      const n = textureMipCount(doc);
      for (let i = 0; i < n; i++) {
        const img = decodeTextureMip(doc, i);
        if (i === 0 && img.width * img.height <= REENCODE_MAX_PIXELS) {
          const back = decodePng(encodePng(img));
          if (back.width !== img.width || back.data.some((v, k) => v !== img.data[k])) throw new Error('PNG round trip changed the pixels');
          const paa = decodePaa(encodePaa(createPaa(img)));
          decodePaaMip(paa, 0);
          // Replace from PNG in the file's own format (texture view): the new file decodes, at the picture's size.
          let replaced: { width: number; height: number } | undefined;
          if (doc.kind === 'dds' && !doc.cube) replaced = decodeDdsMip(decodeDds(replaceDds(doc, img)), 0);
          if (doc.kind === 'tga' && (doc.imageType & 7) !== 1) replaced = decodeTgaImage(decodeTga(replaceTga(doc, img)));
          if (replaced && (replaced.width !== img.width || replaced.height !== img.height)) throw new Error('replace from PNG changed the size');
        }
      }
    });
    return { outcome: 'ok' };
  } catch (e) {
    if (isDecodeError(e)) {
      if (!(e.offset >= 0 && e.offset <= bytes.length)) return { outcome: 'refused', problem: `DecodeError offset ${e.offset} outside the ${bytes.length}-byte input: ${e.message}` };
      return { outcome: 'refused' };
    }
    return { outcome: 'refused', problem: `${(e as Error)?.name ?? 'throw'}: ${(e as Error)?.message ?? String(e)}` };
  }
}

/** Mutates the seeds `inputs` times (or until `seconds` pass) and runs each mutant. */
export function fuzzTextures(seeds: readonly Seed[], opts: { inputs: number; seconds: number; seed: number }): TextureFuzzStats {
  const stats: TextureFuzzStats = { inputs: 0, decoded: 0, refused: 0, findings: [] };
  forEachMutant(seeds, opts, stats, (m, seed) => {
    const r = runTextureInput(m.bytes, seed.name);
    if (r.outcome === 'ok') stats.decoded++;
    else stats.refused++;
    if (r.problem) stats.findings.push({ seed: seed.name, kind: m.kind, desc: m.desc, message: r.problem, bytes: m.bytes });
  });
  return stats;
}

/** Small textures the project makes itself: one per PAA write format, a DDS, two EDDS and a TGA. */
export function generatedTextureSeeds(): Seed[] {
  const w = 16, h = 8;
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set([(i * 13) & 255, (i * 29) & 255, (i * 7) & 255, i % 3 === 0 ? 128 : 255], i * 4);
  const img = { width: w, height: h, data: rgba };
  const seeds: Seed[] = (['dxt1', 'dxt5', 'argb8888'] as const).map((format) => ({
    name: `generated:${format}.paa`, format: 'texture', bytes: encodePaa(createPaa(img, { format })), streams: [],
  }));
  // 24-bit RLE TGA, bottom-up: runs of 3 pixels.
  const tga = [0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, w, 0, h, 0, 24, 0];
  for (let i = 0; i < (w * h) / 4; i++) tga.push(0x83, i & 255, (i * 3) & 255, 200);
  seeds.push({ name: 'generated:rle.tga', format: 'texture', bytes: new Uint8Array(tga), streams: [] });
  // Uncompressed BGRA DDS with two mips.
  const head = new Uint8Array(128);
  const dv = new DataView(head.buffer);
  head.set([0x44, 0x44, 0x53, 0x20]);
  dv.setUint32(4, 124, true); dv.setUint32(8, 0x2100f, true); dv.setUint32(12, 4, true); dv.setUint32(16, 4, true);
  dv.setUint32(28, 2, true); dv.setUint32(76, 32, true); dv.setUint32(80, 0x41, true); dv.setUint32(88, 32, true);
  dv.setUint32(92, 0xff0000, true); dv.setUint32(96, 0xff00, true); dv.setUint32(100, 0xff, true); dv.setUint32(104, 0xff000000, true);
  const dds = new Uint8Array(128 + 64 + 16);
  dds.set(head);
  for (let i = 128; i < dds.length; i++) dds[i] = (i * 31) & 255;
  seeds.push({ name: 'generated:bgra.dds', format: 'texture', bytes: dds, streams: [] });
  // DayZ EDDS made from it and from a DXT5 DDS: COPY levels and chained LZ4 chunks.
  seeds.push({ name: 'generated:bgra.edds', format: 'texture', bytes: eddsFromDds(decodeDds(dds), { copyBelow: 32, chunk: 24 }), streams: [] });
  const dxtHead = new Uint8Array(128);
  dxtHead.set(head);
  const hv = new DataView(dxtHead.buffer);
  hv.setUint32(12, 16, true); hv.setUint32(16, 16, true); hv.setUint32(28, 3, true); hv.setUint32(80, 4, true);
  dxtHead.set([0x44, 0x58, 0x54, 0x35], 84);
  const dxt = new Uint8Array(128 + 256 + 64 + 16);
  dxt.set(dxtHead);
  for (let i = 128; i < dxt.length; i++) dxt[i] = (i * 57) & 255;
  seeds.push({ name: 'generated:dxt5.edds', format: 'texture', bytes: eddsFromDds(decodeDds(dxt), { copyBelow: 64, chunk: 100 }), streams: [] });
  return seeds;
}
