/**
 * Every real texture in the corpus: decodes to the size and type its manifest line states, the
 * tags agree with the mips (OFFS = mip header positions, AVGC alpha = the decoded top mip's mean
 * alpha, AVGC colour = a linear-light, alpha-weighted mean), each mip decodes, untouched files
 * save byte-identical, and PNG -> PAA -> PNG stays within DXT's error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { averageColour } from '../../shared/formats/texture/colour.ts';
import { SRGB_TO_LINEAR } from '../../shared/formats/texture/image.ts';
import {
  decodeTexture, decodeTextureMip, encodeTexture, textureInfo, textureMipCount, validateTexture,
} from '../../shared/formats/texture/index.ts';
import { createPaa, decodePaa, encodePaa, findTag, tagColour, tagOffsets, type PaaDocument } from '../../shared/formats/texture/paa.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

interface Line { file: string; kind: string; description: string }
const manifest: Line[] = hasCorpus
  ? readFileSync(join(corpusDir, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => {
    const c = l.split('\t');
    return { kind: c[0]!, file: c[1]!, description: c[6] ?? '' };
  })
  : [];
const textures = manifest.filter((l) => /\.(paa|pac|dds|tga)$/i.test(l.file));
const paaLines = textures.filter((l) => /\.pa[ac]$/i.test(l.file));

describe.skipIf(!hasCorpus)('real textures', () => {
  it('the corpus has the textures the issue lists', () => {
    expect(paaLines.length).toBe(20);
    expect(corpusFiles('dds').length).toBe(5);
    expect(corpusFiles('tga').length).toBe(2);
  });

  for (const line of textures) {
    const name = line.file.split('/').pop()!;
    it(`${name}: size, type and mips as the manifest says; every mip decodes; re-save identical`, () => {
      const bytes = readBytes(join(corpusDir, line.file));
      const doc = decodeTexture(bytes, name);
      const info = textureInfo(doc, bytes.length);
      // "PAA DXT1 256x256 raw, 7 mips", "DDS DXT3 64x64", "TGA TGA10/24 RLE 128x128"
      const m = /(?:PAA|DDS|TGA) (\S+)(?: (\d+)x(\d+))?(?: (raw|LZO|LZSS|RLE))?(?:, (\d+) mips)?/.exec(line.description);
      if (m && m[1] !== 'TGA2/24' && !m[1]!.startsWith('TGA')) {
        const want = m[1]!.replace('RGB32A', 'BGRA32').replace('RGB24', 'BGR24');
        expect(info.type).toBe(want);
      }
      if (m?.[1]?.startsWith('TGA')) {
        const [type, bits] = m[1]!.slice(3).split('/');
        expect(info.type).toContain(`type ${type}`);
        expect(info.type).toContain(`${bits}-bit`);
      }
      if (m?.[2]) expect([info.width, info.height]).toEqual([Number(m[2]), Number(m[3])]);
      if (m?.[5]) expect(info.mips.length).toBe(Number(m[5]));
      if (m?.[4] && doc.kind === 'paa') {
        const top = doc.mips[0]!.compression;
        expect(top).toBe(m[4] === 'raw' ? 'none' : m[4]!.toLowerCase());
      }
      expect(validateTexture(doc)).toEqual([]);
      // each mip halves (or stops at 1)
      for (let i = 0; i < textureMipCount(doc); i++) {
        const img = decodeTextureMip(doc, i);
        expect(img.data.length).toBe(img.width * img.height * 4);
        if (i > 0) expect(img.width).toBe(Math.max(1, info.mips[0]!.width >> i));
      }
      expect(Buffer.from(encodeTexture(doc)).equals(Buffer.from(bytes))).toBe(true);
    });
  }

  it('PAA tags agree with the pixels: OFFS, AVGC alpha exactly, AVGC colour as a linear alpha-weighted mean', () => {
    let weightedError = 0;
    let plainError = 0;
    let checked = 0;
    for (const line of paaLines) {
      const bytes = readBytes(join(corpusDir, line.file));
      const doc = decodePaa(bytes);
      const offs = tagOffsets(doc)!;
      expect(offs, line.file).toBeDefined();
      if (offs.some((o) => o !== 0)) {
        expect(offs.slice(0, doc.mips.length), line.file).toEqual(doc.mips.map((mm) => mm.offset));
        expect(offs.slice(doc.mips.length).every((o) => o === 0), line.file).toBe(true);
      }
      // Normal and _smdi maps are stored swizzled; their tags describe the picture before the swizzle.
      if (findTag(doc, 'SWIZ')) continue;
      const avgc = tagColour(findTag(doc, 'AVGC'))!;
      const top = decodeTextureMip(doc, 0);
      const n = top.width * top.height;
      let alphaSum = 0;
      const plain = [0, 0, 0];
      for (let i = 0; i < top.data.length; i += 4) {
        alphaSum += top.data[i + 3]!;
        for (let c = 0; c < 3; c++) plain[c]! += SRGB_TO_LINEAR[top.data[i + c]!]!;
      }
      expect(Math.abs(Math.round(alphaSum / n) - avgc.a), line.file).toBeLessThanOrEqual(1);
      const ours = averageColour(top);
      expect(ours.a).toBe(Math.round(alphaSum / n));
      const tag = [avgc.r, avgc.g, avgc.b];
      const w = [ours.r, ours.g, ours.b];
      // The tools average the source picture before DXT compression: allow its error.
      for (let c = 0; c < 3; c++) expect(Math.abs(w[c]! - tag[c]!), `${line.file} channel ${c}`).toBeLessThanOrEqual(16);
      const toSrgb = (v: number): number => Math.round(255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055));
      for (let c = 0; c < 3; c++) {
        weightedError += Math.abs(w[c]! - tag[c]!);
        plainError += Math.abs(toSrgb(plain[c]! / n) - tag[c]!);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
    // The alpha-weighted mean must explain the tags far better than a plain mean.
    expect(weightedError * 4).toBeLessThan(plainError);
  });

  it('the swizzled maps say so', () => {
    const smdi = paaLines.find((l) => l.file.includes('Maglite_smdi'))!;
    const doc = decodeTexture(readBytes(join(corpusDir, smdi.file)), 'x.paa');
    const info = textureInfo(doc, 0);
    expect(info.tags!.SWIZ).toBe('A=1 R=1 G=G B=B (shown as stored)');
    expect(info.notes.join(' ')).toMatch(/swizzled/);
  });

  it('PNG -> PAA -> PNG stays within DXT error, and the new PAA has the tags and mips the game expects', () => {
    for (const [file, want] of [['paa/Alexandre-S__FantasmaFiles__quickclot_x_ca.paa', 'dxt5'], ['paa/SplenectomY__WeedWizards-DayzEpoch__bky.pac', 'dxt1']] as const) {
      const source = decodeTextureMip(decodeTexture(readBytes(join(corpusDir, file)), file), 0);
      const png = encodePng(source);
      const picture = decodePng(png);
      const paa = createPaa(picture);
      expect(paa.type).toBe(want);
      const bytes = encodePaa(paa);
      const back: PaaDocument = decodePaa(bytes);
      expect(Buffer.from(encodePaa(back)).equals(Buffer.from(bytes))).toBe(true);
      expect(validatePaaOffsets(back)).toBe(true);
      expect(back.mips.length).toBe(Math.log2(Math.min(picture.width, picture.height)) - 1);
      expect(back.mips.at(-1)!.width).toBe(4);
      expect(back.trailer).toEqual(new Uint8Array(6));
      const avgc = tagColour(findTag(back, 'AVGC'))!;
      const expected = averageColour(picture);
      expect(avgc).toEqual(expected);
      expect(findTag(back, 'FLAG') !== undefined).toBe(want === 'dxt5');
      const out = decodePng(encodePng(decodeTextureMip(back, 0)));
      let sq = 0;
      let worst = 0;
      for (let i = 0; i < out.data.length; i++) {
        const d = out.data[i]! - picture.data[i]!;
        sq += d * d;
        worst = Math.max(worst, Math.abs(d));
      }
      const rmse = Math.sqrt(sq / out.data.length);
      expect(rmse, file).toBeLessThan(6);
      expect(worst, file).toBeLessThan(128);
    }
  });
});

function validatePaaOffsets(doc: PaaDocument): boolean {
  const offs = tagOffsets(doc)!;
  return doc.mips.every((m, i) => offs[i] === m.offset) && offs.slice(doc.mips.length).every((o) => o === 0);
}
