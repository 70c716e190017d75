/**
 * The CLI's texture side: `texture` both ways, `info` and `check` on textures, and `convert
 * --textures` embedding the textures of the corpus's textured models, accepted by the Khronos
 * validator.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Document, WebIO } from '@gltf-transform/core';
import { decodeTexture, decodeTextureMip } from '../../shared/formats/texture/index.ts';
import { decodePaa, findTag } from '../../shared/formats/texture/paa.ts';
import { decodePng } from '../../shared/formats/texture/png.ts';
import { corpusDir, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { runCliIn } from './helpers/memory-io.ts';
import { gltfErrors } from './helpers/validate-gltf.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-texture-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(tmp, args);

const paa = (name: string): string => join(corpusDir, 'paa', name);
const QUICKCLOT = 'Alexandre-S__FantasmaFiles__quickclot_x_ca.paa';
const IVBAG = join(corpusDir, 'textured/ivbag500/z/ace/addons/medical/data/IVBag_500ml.p3d');
const QUIKCLOT_MODEL = join(corpusDir, 'textured/quikclot/@ace321/addons/ace_medical/data/QuikClot.p3d');

describe.skipIf(!hasCorpus)('lodsmith texture / info / check on textures', () => {
  it('PAA -> PNG is the decoded mip exactly; --mip picks the level; a missing level is exit 2', async () => {
    const r = await cli(['texture', paa(QUICKCLOT), 'q.png']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/wrote q\.png .*256x256 PNG \(mip 0 of 7\)/);
    const png = decodePng(readBytes(join(tmp, 'q.png')));
    const want = decodeTextureMip(decodeTexture(readBytes(paa(QUICKCLOT)), QUICKCLOT), 0);
    expect(png.width).toBe(256);
    expect(Buffer.from(png.data).equals(Buffer.from(want.data))).toBe(true);
    expect((await cli(['texture', paa(QUICKCLOT), 'q2.png', '--mip', '2'])).code).toBe(0);
    expect(decodePng(readBytes(join(tmp, 'q2.png'))).width).toBe(64);
    const bad = await cli(['texture', paa(QUICKCLOT), 'q9.png', '--mip', '9']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/has 7 mip levels \(0\.\.6\); --mip 9 is not one of them/);
  });

  it('PNG -> PAA: DXT5 for alpha by default, --format dxt1 / argb8888 on request; info shows type, mips and tags', async () => {
    await cli(['texture', paa(QUICKCLOT), 'src.png']);
    expect((await cli(['texture', 'src.png', 'auto.paa'])).code).toBe(0);
    const auto = decodePaa(readBytes(join(tmp, 'auto.paa')));
    expect(auto.type).toBe('dxt5');
    expect(findTag(auto, 'FLAG')?.data[0]).toBe(1);
    expect((await cli(['texture', 'src.png', 'one.paa', '--format', 'dxt1'])).code).toBe(0);
    expect(decodePaa(readBytes(join(tmp, 'one.paa'))).type).toBe('dxt1');
    expect((await cli(['texture', 'src.png', 'raw.paa', '--format', 'argb8888'])).code).toBe(0);
    const raw = decodeTextureMip(decodePaa(readBytes(join(tmp, 'raw.paa'))));
    expect(Buffer.from(raw.data).equals(Buffer.from(decodePng(readBytes(join(tmp, 'src.png'))).data))).toBe(true);
    const info = await cli(['info', 'auto.paa']);
    expect(info.code).toBe(0);
    expect(info.out).toMatch(/type +DXT5/);
    expect(info.out).toMatch(/mips +7: 256x256 LZO, 128x128, 64x64/);
    expect(info.out).toMatch(/tag AVGC +#[0-9a-f]{8}/);
    const json = JSON.parse((await cli(['info', '--json', paa('Jack-Colt__Overthrow-Mods__flag_malden.paa')])).out);
    expect(json).toMatchObject({ format: 'texture', kind: 'paa', type: 'ARGB1555', width: 450, height: 300 });
    expect(json.mips.map((m: { compression: string }) => m.compression)).toEqual(['lzss', 'lzss']);
    expect((await cli(['texture', 'src.png', 'x.paa', '--format', 'dxt3'])).code).toBe(2);
  });

  it('check decodes and round-trips textures and fails a broken one', async () => {
    const dir = join(tmp, 'mod');
    mkdirSync(dir, { recursive: true });
    copyFileSync(paa(QUICKCLOT), join(dir, 'a_ca.paa'));
    copyFileSync(join(corpusDir, 'dds/grimrock__eob1-waterdeep__stone_dagger_dif.dds'), join(dir, 'b.dds'));
    copyFileSync(join(corpusDir, 'tga/unigine-engine__cpp-api-samples__library_fire_refraction_n.tga'), join(dir, 'c.tga'));
    let r = await cli(['check', dir, '--json', '-j', '1']);
    expect(r.code).toBe(0);
    const ok = JSON.parse(r.out);
    expect(ok.files.map((f: { file: string; format: string; result: string }) => `${f.file} ${f.format} ${f.result}`)).toEqual([
      'a_ca.paa texture-paa ok', 'b.dds texture-dds ok', 'c.tga texture-tga ok',
    ]);
    const broken = readBytes(paa('Jack-Colt__Overthrow-Mods__logo_ca.paa')).slice();
    broken[0x7f] = broken[0x7f]! ^ 0xff; // inside the top mip's LZO stream
    writeFileSync(join(dir, 'd.paa'), broken);
    r = await cli(['check', dir, '--json', '-j', '1']);
    expect(r.code).toBe(1);
    const bad = JSON.parse(r.out).files.find((f: { file: string }) => f.file === 'd.paa');
    expect(bad.result).toBe('error');
    expect(bad.path).toMatch(/^mips\[0\]/);
  });
});

describe.skipIf(!hasCorpus)('convert --textures', () => {
  async function glbImages(file: string): Promise<{ width: number; height: number; mime: string }[]> {
    const bytes = readBytes(join(tmp, file));
    const { errors, report } = await gltfErrors(bytes);
    expect(errors).toEqual([]);
    const doc: Document = await new WebIO().readBinary(bytes);
    const mats = doc.getRoot().listMaterials();
    expect(mats.some((m) => m.getBaseColorTexture() !== null)).toBe(true);
    expect(mats.every((m) => m.getBaseColorTextureInfo() === null || m.getBaseColorTextureInfo()!.getTexCoord() === 0)).toBe(true);
    type Resource = { image?: { width: number; height: number }; mimeType?: string };
    const resources = ((report as { info?: { resources?: Resource[] } }).info?.resources ?? []);
    return resources.filter((x) => x.image).map((x) => ({ width: x.image!.width, height: x.image!.height, mime: x.mimeType ?? '' }));
  }

  it('ivbag500 (P-drive layout, lower-case names in the model, mixed case on disk) embeds its texture', async () => {
    const r = await cli(['convert', IVBAG, 'iv.glb', '--textures', join(corpusDir, 'textured/ivbag500')]);
    expect(r.code).toBe(0);
    // The rvmat's other stages are named, not exported (the face's own _ca texture is the colour).
    expect(r.err).toMatch(/^note: material z\\ace\\addons\\medical\\data\\ivbag\.rvmat: stages not exported: StageTI thermal \(a3\\data_f\\default_ti_ca\.paa\), Stage1 normal \(z\\ace\\addons\\medical\\data\\IVBag_nohq\.paa\), Stage2 detail \(procedural\), .*Stage7 environment \(a3\\data_f\\env_land_ca\.paa\)\n$/);
    expect(r.out).toMatch(/1 texture/);
    expect(await glbImages('iv.glb')).toEqual([{ width: 1024, height: 1024, mime: 'image/png' }]);
    // The embedded PNG is the decoded top mip of the file the model names.
    const doc = await new WebIO().readBinary(readBytes(join(tmp, 'iv.glb')));
    const png = decodePng(doc.getRoot().listTextures()[0]!.getImage()!);
    const want = decodeTextureMip(decodeTexture(readBytes(join(corpusDir, 'textured/ivbag500/z/ace/addons/medical/data/IVBag_blood_500ml_ca.paa')), 'x.paa'), 0);
    expect(Buffer.from(png.data).equals(Buffer.from(want.data))).toBe(true);
    expect(doc.getRoot().listMaterials()[0]!.getAlphaMode()).toBe('BLEND');
  });

  it('quikclot (repository layout) finds its texture by file name beside the model', async () => {
    const r = await cli(['convert', QUIKCLOT_MODEL, 'qc.glb', '--textures', join(corpusDir, 'textured/quikclot')]);
    expect(r.code).toBe(0);
    // The mod repository has the texture but not the .rvmat: a note, not a warning.
    expect(r.err).toBe('note: material not found: z\\ace\\addons\\medical\\data\\quikclot.rvmat (its stages are not read)\n');
    expect(await glbImages('qc.glb')).toEqual([{ width: 512, height: 512, mime: 'image/png' }]);
  });

  it('a texture that resolves nowhere is a warning naming the path as written', async () => {
    const lone = join(tmp, 'lone');
    mkdirSync(lone, { recursive: true });
    copyFileSync(QUIKCLOT_MODEL, join(lone, 'QuikClot.p3d'));
    const r = await cli(['convert', join(lone, 'QuikClot.p3d'), 'lone.glb', '--textures', lone]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('warning: texture not found: z\\ace\\addons\\medical\\data\\quikclot_co.paa (material "z\\ace\\addons\\medical\\data\\quikclot.rvmat")\n'
      + 'note: material not found: z\\ace\\addons\\medical\\data\\quikclot.rvmat (its stages are not read)\n');
    expect(readFileSync(join(tmp, 'lone.glb')).length).toBeGreaterThan(0);
  });
});
