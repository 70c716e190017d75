import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError, isDecodeError } from '../../shared/errors.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { dropRaw } from '../../shared/model/lossless.ts';
import { odolCodec, removeNamedProperty, replacePaths, setNamedProperty, setProxy, setResolution } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolDocument } from '../../shared/formats/p3d/odol/codec.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import type { OdolV7Document } from '../../shared/formats/p3d/odol/v7.ts';
import { resolutionLabel } from '../../shared/formats/p3d/resolution.ts';
import { buildLargeOdol, buildOdolDocument, buildOdolV7, buildOdolV7Document } from '../../scripts/fixtures/odol.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { mutationSweep } from '../helpers/bad-input.ts';

const encode = (d: OdolDocument): Uint8Array => odolCodec.encode(d);
const decode = (b: Uint8Array): OdolDocument => odolCodec.decode(b);
const strict = (b: Uint8Array): Uint8Array => {
  const d = decode(b);
  dropRaw(d);
  return odolCodec.encode(d, { reuseRaw: false });
};

describe('ODOL generated documents', () => {
  const versions = [40, 43, 45, 48, 50, 51, 52, 53, 54, 56, 57, 58, 59, 60, 64, 67, 68, 69, 70, 71, 72, 73, 75];
  for (const version of versions) {
    it(`v${version}: encode -> decode -> encode is stable and keeps the data`, () => {
      const doc = buildOdolDocument({ version, lods: 2, size: 12 });
      const bytes = encode(doc);
      expect(odolCodec.probe(bytes)).toBe(true);
      const back = decode(bytes) as OdolV4xDocument;
      expect(back.version).toBe(version);
      expect(back.lods.map((l) => l.resolution)).toEqual([1, 2]);
      expect(Array.from(back.lods[0]!.vertices.data)).toEqual(Array.from(doc.lods[0]!.vertices.data));
      expect(Array.from(back.lods[0]!.faces.indices)).toEqual(Array.from(doc.lods[0]!.faces.indices));
      expect(back.lods[0]!.namedSelections.map((s) => s.name)).toEqual(['grid', 'proxy:\\a3\\data_f\\proxies\\lamp.01']);
      expect(encode(back)).toEqual(bytes);
      expect(strict(bytes)).toEqual(bytes);
      // LODs are stored highest resolution first, as the binarizer does.
      expect(back.fileOrder).toEqual([1, 0]);
    });
  }

  for (const version of [40, 43, 50, 54, 55, 56, 68, 73]) {
    it(`v${version}: skeleton and animation classes of every kind round-trip`, () => {
      const doc = buildOdolDocument({ version, lods: 2, size: 3, animated: true });
      const bytes = encode(doc);
      const back = decode(bytes) as OdolV4xDocument;
      expect(back.modelInfo.skeleton.bones).toEqual(doc.modelInfo.skeleton.bones);
      expect(back.animations!.classes.map((c) => [c.type, c.params])).toEqual(doc.animations!.classes.map((c) => [c.type, c.params]));
      expect(back.animations!.animsToBones[1]![0]!.axis).toMatchObject({ axisDir: [0, 1, 0] });
      expect(back.animations!.bonesToAnims[0]!.map((a) => Array.from(a))).toEqual([[0, 1, 3], [2]]);
      expect(odolCodec.info(back, bytes.length).bones).toEqual(['door', 'handle']);
      expect(strict(bytes)).toEqual(bytes);
    });
  }

  it('stores arrays of 1024 bytes and more compressed (LZO from v44, LZSS before) and smaller ones raw', () => {
    const lzo = decode(buildLargeOdol({ lods: 1, size: 40 })) as OdolV4xDocument;
    expect(lzo.lods[0]!.vertices.packed).toBeDefined();
    expect(lzo.lods[0]!.vertices.flag).toBe(2);
    const small = decode(encode(buildOdolDocument({ version: 73, lods: 1, size: 2 }))) as OdolV4xDocument;
    expect(small.lods[0]!.vertices.packed).toBeUndefined();
    expect(small.lods[0]!.vertices.flag).toBe(0);
    const lzss = decode(encode(buildOdolDocument({ version: 40, lods: 1, size: 16 }))) as OdolV4xDocument;
    expect(lzss.lods[0]!.vertices.packed).toBeDefined();
    expect(lzss.lods[0]!.vertices.flag).toBeUndefined();
    const v48 = decode(encode(buildOdolDocument({ version: 48, lods: 1, size: 3 }))) as OdolV4xDocument;
    // 16 points * 12 bytes = 192 < 1024: raw and no flag byte before v64.
    expect(v48.lods[0]!.vertices.packed).toBeUndefined();
  });

  it('buildLargeOdol gives a multi-LOD model with compressed arrays that decodes again', () => {
    const bytes = buildLargeOdol({ lods: 3, size: 64 });
    const doc = decode(bytes) as OdolV4xDocument;
    expect(doc.lods).toHaveLength(3);
    expect(doc.lods[0]!.vertices.data.length).toBe(65 * 65 * 3);
    expect(odolCodec.info(doc, bytes.length).meshes[0]).toEqual({ name: '1.000', vertices: 65 * 65, triangles: 64 * 64 * 2 });
  });
});

describe('ODOL v7 (Operation Flashpoint)', () => {
  it('round-trips a generated model with LZSS-compressed arrays', () => {
    const bytes = buildOdolV7({ lods: 3, size: 12 });
    const doc = decode(bytes) as OdolV7Document;
    expect(doc.version).toBe(7);
    expect(doc.lods).toHaveLength(3);
    // 13 x 13 points: positions 2028 bytes (compressed), UVs 1352 bytes (compressed).
    expect(doc.lods[0]!.positions.packed).toBeDefined();
    expect(doc.lods[0]!.uvs.packed).toBeDefined();
    expect(doc.lods[2]!.positions.packed).toBeUndefined();
    expect(encode(doc)).toEqual(bytes);
    expect(strict(bytes)).toEqual(bytes);
    const info = odolCodec.info(doc, bytes.length);
    expect(info.meshes.map((m) => m.name)).toEqual(['1.000', '2.000', '3.000']);
    expect(info.meshes[0]!.triangles).toBe(12 * 12 * 2);
    expect(info.textures).toEqual(['data\\grid.paa']);
  });

  it('keeps edits to a v7 model through encode and decode', () => {
    const doc = buildOdolV7Document();
    applyCommand(doc, setNamedProperty(doc, 0, 'class', 'church'));
    applyCommand(doc, setProxy(doc, 0, 0, { name: 'proxy\\tree', transform: [0, 0, 1, 0, 1, 0, -1, 0, 0, 5, 6, 7] }));
    const back = decode(encode(doc)) as OdolV7Document;
    expect(back.lods[0]!.namedProperties).toEqual([{ name: 'class', value: 'church' }]);
    expect(back.lods[0]!.proxies[0]!.name).toBe('proxy\\tree');
    expect(back.lods[0]!.proxies[0]!.translation).toEqual([5, 6, 7]);
  });

  it('keeps bytes it cannot place: a LOD tail, gaps between LODs, a trailer before v60', () => {
    const doc = buildOdolDocument({ version: 50, lods: 2, size: 2 });
    doc.lods[0]!.tail = Uint8Array.of(1, 2, 3);
    doc.gaps = [Uint8Array.of(9, 9), new Uint8Array(0)];
    doc.trailer = Uint8Array.of(7, 7, 7, 7);
    const bytes = encode(doc);
    const back = decode(bytes) as OdolV4xDocument;
    expect(Array.from(back.lods[0]!.tail!)).toEqual([1, 2, 3]);
    expect(back.gaps!.map((g) => Array.from(g))).toEqual([[9, 9], []]);
    expect(Array.from(back.trailer)).toEqual([7, 7, 7, 7]);
    expect(strict(bytes)).toEqual(bytes);
  });

  it('a v60+ trailer that is not PhysX data stays raw', () => {
    const doc = buildOdolDocument({ version: 73, lods: 1, size: 2 });
    delete doc.physx;
    doc.trailer = Uint8Array.of(1, 2, 3, 4, 5);
    const back = decode(encode(doc)) as OdolV4xDocument;
    expect(back.physx).toBeUndefined();
    expect(Array.from(back.trailer)).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses list edits that would tear the LOD tables apart, and warns about unknown resolutions', () => {
    const doc = buildOdolDocument({ version: 73, lods: 2, size: 2 });
    expect(odolCodec.checkEdit!(doc, { op: 'remove', path: ['lods', 1] })).toBeTruthy();
    expect(odolCodec.checkEdit!(doc, { op: 'move', path: ['lods'], from: 0, to: 1 })).toBeTruthy();
    expect(odolCodec.checkEdit!(doc, { op: 'remove', path: ['lods', 0, 'namedProperties', 0] })).toBeUndefined();
    doc.lods[1]!.resolution = 5e20;
    expect(odolCodec.validate(doc).some((p) => p.severity === 'warning' && /names no known LOD/.test(p.message))).toBe(true);
  });

  it('keeps a stored UV set count of 0 (the wiki: written as 0, meaning 1)', () => {
    const doc = buildOdolDocument({ version: 48, lods: 1, size: 2 });
    doc.lods[0]!.uvSetCountZero = 1;
    const bytes = encode(doc);
    const back = decode(bytes) as OdolV4xDocument;
    expect(back.lods[0]!.uvSets).toHaveLength(1);
    expect(back.lods[0]!.uvSetCountZero).toBe(1);
    expect(strict(bytes)).toEqual(bytes);
  });

  it('refuses a v7 file whose resolution count differs from its LOD count', () => {
    const bytes = buildOdolV7({ lods: 1, size: 1 });
    const broken = bytes.slice();
    // ResolutionCount follows the last LOD.
    const at = (decode(bytes) as OdolV7Document).lods[0]!.$span![1];
    expect(new DataView(bytes.buffer).getInt32(at, true)).toBe(1);
    new DataView(broken.buffer).setInt32(at, 2, true);
    expect(() => decode(broken)).toThrow(DecodeError);
  });
});

const pick = (name: string): string | undefined => corpusFiles('p3d_odol').find((f) => basename(f).includes(name));

const EDIT_FILES = [
  'tf_bussole', // v40, LZSS
  'MBG_Police_Station', // v48
  'man_bandit', // v50
  'Team-NotoriousGG__DayZServer__snaretrap', // v53
  'RileyPut7__DayzServer__snaretrap', // v54
  'Alexandre-S__FantasmaFiles__ACE_ConcertinaWire', // v68
  'Jack-Colt__Overthrow-Mods__ace_tacticalladder', // v73
];

describe.skipIf(!hasCorpus)('ODOL edits on real files', () => {
  for (const name of EDIT_FILES) {
    it(`${name}: resolution, properties, paths and proxies survive encode -> decode`, () => {
      const file = pick(name);
      expect(file).toBeDefined();
      const bytes = readBytes(file!);
      const doc = decode(bytes) as OdolV4xDocument;
      const last = doc.lods.length - 1;
      const untouched = doc.lods[last]!.$raw!.slice();

      const existing = doc.lods.findIndex((l) => l.namedProperties.some((p) => p.name !== 'lodnoshadow'));
      applyCommand(doc, setResolution(0, 1.5));
      applyCommand(doc, setNamedProperty(doc, 0, 'lodnoshadow', '1'));
      let changedProp: { lod: number; name: string } | undefined;
      if (existing >= 0) {
        const p = doc.lods[existing]!.namedProperties.find((q) => q.name !== 'lodnoshadow')!;
        changedProp = { lod: existing, name: p.name };
        applyCommand(doc, setNamedProperty(doc, existing, p.name, 'changed'));
      }
      const texLod = doc.lods.findIndex((l) => l.textures.some((t) => t.length > 0));
      const oldTex = doc.lods[texLod]!.textures.find((t) => t.length > 0)!;
      const batch = replacePaths(doc, oldTex, 'mod\\data\\renamed_co.paa');
      expect(batch).toBeDefined();
      applyCommand(doc, batch!);
      const matLod = doc.lods.findIndex((l) => l.materials.length > 0);
      const oldMat = matLod >= 0 ? doc.lods[matLod]!.materials[0]!.name : undefined;
      if (oldMat) applyCommand(doc, replacePaths(doc, oldMat, 'mod\\data\\renamed.rvmat', { textures: false })!);
      const proxyLod = doc.lods.findIndex((l) => l.proxies.length > 0);
      if (proxyLod >= 0) applyCommand(doc, setProxy(doc, proxyLod, 0, { name: '\\mod\\proxy\\moved', transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3] }));

      const out = encode(doc);
      const back = decode(out) as OdolV4xDocument;
      expect(back.lods[0]!.resolution).toBe(1.5);
      expect(back.lods[0]!.namedProperties.find((p) => p.name === 'lodnoshadow')?.value).toBe('1');
      if (changedProp) expect(back.lods[changedProp.lod]!.namedProperties.find((p) => p.name === changedProp.name)?.value).toBe('changed');
      const allTex = back.lods.flatMap((l) => l.textures);
      expect(allTex).toContain('mod\\data\\renamed_co.paa');
      expect(allTex).not.toContain(oldTex);
      if (oldMat) {
        expect(back.lods[matLod]!.materials[0]!.name).toBe('mod\\data\\renamed.rvmat');
        expect(back.lods.flatMap((l) => l.materials.map((m) => m.name))).not.toContain(oldMat);
      }
      if (proxyLod >= 0) {
        expect(back.lods[proxyLod]!.proxies[0]!.name).toBe('\\mod\\proxy\\moved');
        expect(back.lods[proxyLod]!.proxies[0]!.transform).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3]);
      }
      // Vertex data of an edited LOD is unchanged, and a LOD the edits did not touch keeps its bytes.
      const orig = decode(bytes) as OdolV4xDocument;
      expect(back.lods[0]!.vertices.data).toEqual(orig.lods[0]!.vertices.data);
      if (!back.lods[last]!.textures.includes('mod\\data\\renamed_co.paa') && last !== existing && last !== proxyLod && last !== matLod && last !== 0) {
        expect(back.lods[last]!.$raw).toEqual(untouched);
      }
      // The edited file is itself lossless from here on.
      expect(encode(decode(out))).toEqual(out);
      expect(strict(out)).toEqual(out);
      expect(odolCodec.validate(back).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }

  it('removes a named property', () => {
    const bytes = readBytes(pick('dalnice_18')!);
    const doc = decode(bytes) as OdolV4xDocument;
    const name = doc.lods[0]!.namedProperties[0]!.name;
    applyCommand(doc, removeNamedProperty(doc, 0, name)!);
    const back = decode(encode(doc)) as OdolV4xDocument;
    expect(back.lods[0]!.namedProperties.map((p) => p.name)).not.toContain(name);
    expect(removeNamedProperty(back, 0, 'no-such-property')).toBeUndefined();
  });

  it('re-compresses an edited compressed array so the file decodes to the new data', () => {
    const bytes = readBytes(pick('Jack-Colt__Overthrow-Mods__banana')!);
    const doc = decode(bytes) as OdolV4xDocument;
    const verts = doc.lods[0]!.vertices;
    expect(verts.packed).toBeDefined();
    const moved = verts.data.slice();
    for (let i = 0; i < moved.length; i += 3) moved[i] = moved[i]! + 1;
    applyCommand(doc, { op: 'set', path: ['lods', 0, 'vertices', 'data'], value: moved });
    const back = decode(encode(doc)) as OdolV4xDocument;
    expect(back.lods[0]!.vertices.data).toEqual(moved);
    expect(back.lods[0]!.vertices.packed).toBeDefined();
  });

  it('create() adds a proxy and a property that encode and decode again', () => {
    const bytes = readBytes(pick('Jack-Colt__Overthrow-Mods__smoke')!);
    const doc = decode(bytes) as OdolV4xDocument;
    applyCommand(doc, odolCodec.create!(doc, ['lods', 0, 'proxies'], 'proxy')!);
    applyCommand(doc, odolCodec.create!(doc, ['lods', 0, 'namedProperties'], 'property')!);
    expect(odolCodec.create!(doc, ['lods', 0, 'textures'], 'proxy')).toBeUndefined();
    const back = decode(encode(doc)) as OdolV4xDocument;
    expect(back.lods[0]!.proxies).toHaveLength(1);
    expect(back.lods[0]!.proxies[0]!.transform).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    expect(back.lods[0]!.namedProperties.at(-1)).toEqual({ name: 'property', value: '' });
  });

  it('accepts array data edited as plain numbers and inspects how an array is stored', () => {
    const doc = decode(readBytes(pick('Jack-Colt__Overthrow-Mods__banana')!)) as OdolV4xDocument;
    expect(odolCodec.inspect(doc, ['lods', 0, 'vertices'])!.fields.find((f) => f.name === 'stored')!.value).toMatch(/^compressed, \d+ bytes$/);
    const plain = Array.from(doc.lods[0]!.vertices.data, (x) => x * 2);
    applyCommand(doc, { op: 'set', path: ['lods', 0, 'vertices', 'data'], value: plain });
    const back = decode(encode(doc)) as OdolV4xDocument;
    expect(Array.from(back.lods[0]!.vertices.data)).toEqual(plain.map((x) => Math.fround(x)));
  });

  it('refuses edits that cannot be written', () => {
    const doc = decode(readBytes(pick('smoke')!));
    expect(odolCodec.checkEdit!(doc, setResolution(0, Number.NaN))).toBeTruthy();
    expect(odolCodec.checkEdit!(doc, { op: 'set', path: ['lods', 0, 'textures', 0], value: 'a\0b' })).toBeTruthy();
    expect(odolCodec.checkEdit!(doc, { op: 'set', path: ['lods', 0, 'bounds', 'bRadius'], value: 'big' })).toBeTruthy();
    expect(odolCodec.checkEdit!(doc, { op: 'set', path: ['lods', 0, 'bounds', 'bRadius'], value: 2 })).toBeUndefined();
    expect(odolCodec.checkEdit!(doc, setResolution(0, 2))).toBeUndefined();
  });
});

describe.skipIf(!hasCorpus)('ODOL views on real files', () => {
  it('info counts LODs, triangles (a quad as two), distinct paths and bones', () => {
    const bytes = readBytes(pick('man_bandit')!);
    const doc = decode(bytes) as OdolV4xDocument;
    const info = odolCodec.info(doc, bytes.length);
    expect(info.format).toBe('p3d-odol');
    expect(info.version).toBe(50);
    expect(info.meshes).toHaveLength(doc.lods.length);
    const l0 = doc.lods[0]!;
    let tris = 0;
    for (const s of l0.faces.sizes) tris += s === 4 ? 2 : 1;
    expect(info.meshes[0]).toEqual({ name: '1.000', vertices: l0.vertices.data.length / 3, triangles: tris });
    expect(info.bones.length).toBe(doc.modelInfo.skeleton.bones.length);
    expect(info.bones.length).toBeGreaterThan(10);
    expect(new Set(info.materials).size).toBe(info.materials.length);
    expect((info.textures as string[]).length).toBeGreaterThan(0);
  });

  it('toScene converts the first visual LOD to right-handed triangles with groups and a skeleton', () => {
    const doc = decode(readBytes(pick('man_bandit')!)) as OdolV4xDocument;
    const scene = odolCodec.toScene(doc);
    const mesh = scene.meshes[0]!;
    const l0 = doc.lods[0]!;
    expect(mesh.positions.length).toBe(l0.vertices.data.length);
    // z is mirrored (left-handed source).
    expect(mesh.positions[2]).toBe(-l0.vertices.data[2]!);
    let tris = 0;
    for (const s of l0.faces.sizes) tris += s - 2;
    expect(mesh.indices.length).toBe(tris * 3);
    expect(mesh.groups.reduce((s, g) => s + g.count, 0)).toBe(mesh.indices.length);
    expect(scene.skeleton?.bones.length).toBe(doc.modelInfo.skeleton.bones.length);
    expect(mesh.skin?.joints.length).toBe((l0.vertices.data.length / 3) * 4);
    const geo = odolCodec.toScene(doc, { lod: 'Geometry' });
    expect(geo.meshes[0]!.name).toBe('Geometry');
    expect(() => odolCodec.toScene(doc, { lod: 'No Such LOD' })).toThrow();
  });

  it('validate finds faces past the point table, bad selections and broken section offsets', () => {
    const doc = decode(readBytes(pick('man_bandit')!)) as OdolV4xDocument;
    expect(odolCodec.validate(doc).filter((p) => p.severity === 'error')).toEqual([]);
    const l = doc.lods.find((x) => x.namedSelections.some((s) => s.vertices.data.length > 0) && x.sections.length > 0)!;
    l.namedSelections.sort((a, b) => b.vertices.data.length - a.vertices.data.length);
    l.faces.indices[0] = 999999;
    l.sections[0]!.faceUpperIndex = 1 << 30;
    l.namedSelections[0]!.vertices.data[0] = 65000;
    const msgs = odolCodec.validate(doc).filter((p) => p.severity === 'error').map((p) => p.message).join('\n');
    expect(msgs).toMatch(/face points past/);
    expect(msgs).toMatch(/section offsets/);
    expect(msgs).toMatch(/selection .* names a vertex past/);
  });

  it('outline lists the LODs with their byte spans and inspect shows schema fields', () => {
    const doc = decode(readBytes(pick('Kestrel4500')!)) as OdolV4xDocument;
    const root = odolCodec.outline(doc);
    const lods = root.children!.find((c) => c.name === 'lods')!;
    expect(lods.children).toHaveLength(doc.lods.length);
    expect(lods.children![0]!.span).toEqual(doc.lods[0]!.$span);
    expect(lods.children![0]!.label).toBe(resolutionLabel(doc.lods[0]!.resolution));
    const ins = odolCodec.inspect(doc, ['lods', 0, 'bounds'])!;
    const radius = ins.fields.find((f) => f.name === 'bRadius')!;
    expect(radius.note).toBe('Sphere radius');
    expect(radius.span![1] - radius.span![0]).toBe(4);
    expect(odolCodec.inspect(doc, ['modelInfo', 'tail'])!.fields.some((f) => f.name === 'mass')).toBe(true);
  });
});

describe('ODOL bad input gives DecodeError only', () => {
  const samples: [string, Uint8Array][] = [
    ['v73 generated', buildLargeOdol({ lods: 2, size: 20 })],
    ['v40 generated', encode(buildOdolDocument({ version: 40, lods: 2, size: 16 }))],
    ['v7 generated', buildOdolV7({ lods: 2, size: 12 })],
  ];
  if (hasCorpus) {
    for (const n of ['smoke', 'dalnice_18', 'chem_red', 'helmet_flashlight', 'ace_huntir_monitor']) samples.push([n, readBytes(pick(n)!)]);
  }
  for (const [name, bytes] of samples) {
    it(`${name}: every truncation`, () => {
      const doc = decode(bytes);
      const lodsEnd = doc.version === 7 ? bytes.length : Math.max(...(doc.lods as { $span?: [number, number] }[]).map((l) => l.$span![1]));
      const step = Math.max(1, Math.floor(bytes.length / 400));
      for (let n = 0; n < bytes.length; n += step) {
        const cut = bytes.slice(0, n);
        if (n < lodsEnd) {
          expect(() => odolCodec.decode(cut), `cut at ${n}`).toThrow(DecodeError);
        } else {
          // Cut inside the PhysX trailer: it no longer parses, so it is kept as raw bytes.
          const d = decode(cut) as OdolV4xDocument;
          expect(d.physx).toBeUndefined();
          expect(encode(d)).toEqual(cut);
        }
      }
    });
    it(`${name}: bit flips and forged counts`, () => {
      expect(mutationSweep(odolCodec, bytes, name, 150)).toBeGreaterThan(0);
    });
  }

  it('a corrupt compressed stream is a DecodeError with a node path', () => {
    const bytes = buildLargeOdol({ lods: 1, size: 40 });
    const doc = decode(bytes) as OdolV4xDocument;
    const [start] = doc.lods[0]!.vertices.$span!;
    const b = bytes.slice();
    // Count (4 bytes) and flag (1 byte) come first; wreck the stream right after.
    for (let i = start + 5; i < start + 40; i++) b[i] = 0xff;
    try {
      decode(b);
      expect.unreachable('decoded a wrecked stream');
    } catch (e) {
      expect(isDecodeError(e)).toBe(true);
      expect((e as DecodeError).path).toMatch(/lods\[0\]/);
    }
  });

  it('rejects other signatures and unknown versions', () => {
    expect(odolCodec.probe(new TextEncoder().encode('MLOD\x01\x01\x00\x00\x00\x00\x00\x00'))).toBe(false);
    const b = buildOdolV7({ lods: 1, size: 1 });
    new DataView(b.buffer).setUint32(4, 99, true);
    expect(odolCodec.probe(b)).toBe(false);
    expect(() => decode(b)).toThrow(DecodeError);
  });
});
