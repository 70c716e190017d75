/**
 * MLOD documents that cost little memory: a sharing decode (shared/binary/share.ts) views aligned
 * arrays of the input, and the columns that cannot be views (face records, interleaved points,
 * unaligned tag data) are deferred fields (shared/model/deferred.ts), made on their first read.
 * What must hold: the deferred values are exactly the eager ones (NaN payloads included), the
 * commands that only read (info, an untouched save) never make them, edits never write into the
 * input, and every file saves back byte for byte in both modes, whole or as pieces.
 */
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { withSharedInput } from '../../shared/binary/share.ts';
import { formatById } from '../../shared/formats/index.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod, encodeMlodPieces } from '../../shared/formats/p3d/mlod/encode.ts';
import type { MlodDocument, MlodLod, MlodTag } from '../../shared/formats/p3d/mlod/types.ts';
import { mlodInfo } from '../../shared/formats/p3d/mlod/views.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { deferField, isDeferred } from '../../shared/model/deferred.ts';
import { dropRaw } from '../../shared/model/lossless.ts';
import { buildLargeMlodDocument, buildLod, buildMlod, buildSampleMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

const FACE_COLUMNS = ['pointIndex', 'normalIndex', 'uv', 'flags'] as const;

function decode(bytes: Uint8Array, share: boolean): MlodDocument {
  return share ? withSharedInput(bytes, () => decodeMlod(bytes)) : decodeMlod(bytes);
}

/** Bits of a typed array (so NaN payloads compare exactly). */
const bits = (a: ArrayBufferView): number[] => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2));

/** The fields of a tag that hold its large typed arrays (reading them makes deferred ones). */
function tagArrayKeys(t: MlodTag): string[] {
  switch (t.type) {
    case 'selection': return ['points', 'faces'];
    case 'mass': return ['masses'];
    case 'uvset': return ['uv'];
    case 'sharpEdges': return ['edges'];
    case 'animation': return ['points'];
    default: return [];
  }
}

const field = (o: object, key: string): ArrayBufferView => (o as Record<string, ArrayBufferView>)[key]!;

/** A LOD whose point coordinates and face UVs hold NaNs with payloads (a float copy would lose them). */
function nanLod(): MlodLod {
  const c = cube();
  const lod = buildLod({ resolution: 1, points: c.points, faces: c.faces, textures: c.faces.map((_, i) => (i % 2 ? 'a.paa' : 'bb.paa')) });
  new Uint32Array(lod.points.buffer)[4] = 0x7f800001; // signalling NaN
  new Uint32Array(lod.faces.uv.buffer)[3] = 0xffc01234; // quiet NaN, sign and payload set
  return lod;
}

function samples(): { name: string; bytes: Uint8Array }[] {
  const out = [
    { name: 'sample (P3DM + SP3X, every tag type)', bytes: encodeMlod(buildSampleMlod()) },
    { name: 'generated 3,000 faces', bytes: encodeMlod(buildLargeMlodDocument(3000)) },
    { name: 'NaN payloads', bytes: encodeMlod(buildMlod([nanLod(), nanLod()])) },
  ];
  if (hasCorpus) for (const f of corpusFiles('p3d_mlod')) out.push({ name: f, bytes: readBytes(f) });
  return out;
}

describe('deferred fields', () => {
  it('make the value on the first read only, become plain data, and an assignment first never makes it', () => {
    let made = 0;
    const o: { a: number[]; b: number[] } = { a: [], b: [] };
    deferField(o, 'a', () => {
      made++;
      return [1, 2];
    });
    expect(isDeferred(o, 'a')).toBe(true);
    expect(Object.keys(o)).toEqual(['a', 'b']);
    expect(o.a).toEqual([1, 2]);
    expect(o.a).toBe(o.a);
    expect(made).toBe(1);
    expect(isDeferred(o, 'a')).toBe(false);
    deferField(o, 'b', () => {
      made++;
      return [9];
    });
    o.b = [3];
    expect(o.b).toEqual([3]);
    expect(made).toBe(1);
    deferField(o, 'b', () => [4]);
    expect(JSON.parse(JSON.stringify(o))).toEqual({ a: [1, 2], b: [4] });
  });
});

describe('MLOD decode memory', () => {
  it('a sharing decode views aligned arrays and defers the rest; a copying decode shares nothing', () => {
    // Four animation frames of 441 points (5,292 bytes each), each after a 10-byte raw tag: their
    // data lands at four different offsets modulo 4, so exactly one can be a view.
    const lod = buildLargeMlodDocument(400).lods[0]!;
    const n = lod.pointFlags.length;
    const frames: MlodTag[] = [];
    for (let i = 0; i < 4; i++) {
      frames.push({ type: 'raw', name: '#x#', active: 1, data: new Uint8Array(1) });
      frames.push({ type: 'animation', name: '#Animation#', active: 1, time: i, points: new Float32Array(n * 3).fill(i) });
    }
    lod.tags.splice(lod.tags.length - 1, 0, ...frames);
    const bytes = encodeMlod(buildMlod([lod]));
    let viewed = 0;
    let deferred = 0;
    const doc = decode(bytes, true);
    const anims = doc.lods[0]!.tags.filter((t) => t.type === 'animation');
    expect(anims).toHaveLength(4);
    for (const t of anims) {
      if (isDeferred(t, 'points')) {
        deferred++;
        // A deferred tag array is a copy once made, never a view of the input.
        expect(t.points.buffer).not.toBe(bytes.buffer);
      } else {
        expect(t.points.buffer).toBe(bytes.buffer);
        viewed++;
      }
      expect(Array.from(t.points.subarray(0, 3))).toEqual([t.time, t.time, t.time]);
    }
    expect([viewed, deferred]).toEqual([1, 3]);
    // Selection bytes are always views; the normals follow 16-byte point records, so here aligned.
    const sel = doc.lods[0]!.tags.find((t) => t.type === 'selection')!;
    expect(sel.type === 'selection' && sel.points.buffer).toBe(bytes.buffer);
    expect(doc.lods[0]!.normals.buffer).toBe(bytes.buffer);
    // Copying: every large array is deferred, and a copy once read.
    const copied = decode(bytes, false);
    expect(copied.lods[0]!.tags.filter((t) => t.type === 'animation').every((t) => isDeferred(t, 'points'))).toBe(true);
    expect(isDeferred(copied.lods[0]!, 'normals')).toBe(true);

    const copy = decode(bytes, false);
    const seen: unknown[] = [];
    const walk = (x: unknown, key: string): void => {
      if (!x || typeof x !== 'object' || key === '$raw' || seen.includes(x)) return;
      seen.push(x);
      if (ArrayBuffer.isView(x)) {
        expect(x.buffer, key).not.toBe(bytes.buffer);
        return;
      }
      for (const [k, v] of Object.entries(x)) walk(v, k);
    };
    walk(copy, '');
  });

  it('info and an untouched save never make the face columns or the point coordinates', () => {
    const src = buildLargeMlodDocument(3000);
    const bytes = encodeMlod(src);
    for (const share of [false, true]) {
      const doc = decode(bytes, share);
      const info = mlodInfo(doc, bytes.length);
      expect(info.meshes[0]!.triangles).toBe(2 * src.lods[0]!.faces.vertexCount.length);
      expect(info.meshes[0]!.vertices).toBe(src.lods[0]!.pointFlags.length);
      expect(encodeMlod(doc)).toEqual(bytes);
      const pieces = encodeMlodPieces(doc);
      for (const lod of doc.lods) {
        for (const k of FACE_COLUMNS) expect(isDeferred(lod.faces, k), k).toBe(true);
        expect(isDeferred(lod, 'points')).toBe(true);
      }
      // The pieces of an untouched document are the header, the LODs' own bytes and the trailer.
      expect(pieces.slice(1, -1).every((p) => p.buffer === bytes.buffer)).toBe(true);
      expect(joinBytes(pieces)).toEqual(bytes);
    }
  });

  it('deferred columns hold exactly what the eager columns held, NaN payloads included', () => {
    const src = buildMlod([nanLod(), buildLargeMlodDocument(500).lods[0]!]);
    const bytes = encodeMlod(src);
    for (const share of [false, true]) {
      const doc = decode(bytes, share);
      doc.lods.forEach((lod, i) => {
        const s = src.lods[i]!;
        expect(bits(lod.points)).toEqual(bits(s.points));
        expect(Array.from(lod.pointFlags)).toEqual(Array.from(s.pointFlags));
        expect(bits(lod.normals)).toEqual(bits(s.normals));
        for (const k of FACE_COLUMNS) expect(bits(lod.faces[k]), k).toEqual(bits(s.faces[k]));
        expect(Array.from(lod.faces.textureIndex, (t) => lod.faces.textures[t])).toEqual(Array.from(s.faces.textureIndex, (t) => s.faces.textures[t]));
        for (const [j, t] of lod.tags.entries()) {
          for (const key of tagArrayKeys(t)) {
            const a = field(t, key);
            const b = field(s.tags[j]!, key);
            expect(Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)), key).toEqual(Array.from(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
          }
        }
      });
      expect(new Uint32Array(doc.lods[0]!.points.buffer)[4]).toBe(0x7f800001);
      expect(new Uint32Array(doc.lods[0]!.faces.uv.buffer)[3]).toBe(0xffc01234);
    }
  });

  it('every file saves back byte for byte in both modes: as saved, as pieces and from its fields alone', () => {
    for (const { name, bytes } of samples()) {
      for (const share of [false, true]) {
        const doc = decode(bytes, share);
        expect(Buffer.compare(encodeMlod(doc), bytes), `${name} share=${share}`).toBe(0);
        expect(Buffer.compare(joinBytes(encodeMlodPieces(doc)), bytes), `${name} pieces share=${share}`).toBe(0);
        const bare = decode(bytes, share);
        dropRaw(bare);
        expect(Buffer.compare(encodeMlod(bare, { reuseRaw: false }), bytes), `${name} from fields share=${share}`).toBe(0);
        expect(Buffer.compare(joinBytes(encodeMlodPieces(bare, { reuseRaw: false })), bytes), `${name} pieces from fields share=${share}`).toBe(0);
      }
    }
  });

  it('edits never write into the input, and the saved file has them', () => {
    const bytes = encodeMlod(buildLargeMlodDocument(3000));
    const before = bytes.slice();
    const doc = decode(bytes, true);
    const lod = doc.lods[0]!;
    const uvTag = lod.tags.findIndex((t) => t.type === 'uvset');
    const selTag = lod.tags.findIndex((t) => t.type === 'selection');
    expect(lod.normals.buffer).toBe(bytes.buffer);
    const edits: [(string | number)[], number][] = [
      [['lods', 0, 'normals', 4], 0.25],
      [['lods', 0, 'points', 7], 3.5],
      [['lods', 0, 'pointFlags', 2], 0x10],
      [['lods', 0, 'faces', 'pointIndex', 5], 1],
      [['lods', 0, 'faces', 'uv', 9], 0.75],
      [['lods', 0, 'faces', 'flags', 3], 0x20],
      [['lods', 0, 'tags', uvTag, 'uv', 11], 0.5],
      [['lods', 0, 'tags', selTag, 'points', 1], 1],
    ];
    for (const [path, value] of edits) applyCommand(doc, { op: 'set', path, value });
    expect(Buffer.compare(bytes, before)).toBe(0);
    const saved = encodeMlod(doc);
    const again = decodeMlod(saved);
    for (const [path, value] of edits) {
      let x: unknown = again;
      for (const k of path) x = (x as Record<string | number, unknown>)[k];
      expect(x, path.join('/')).toBe(value);
    }
    expect(Buffer.compare(joinBytes(encodeMlodPieces(doc)), saved)).toBe(0);
    expect(Buffer.compare(bytes, before)).toBe(0);
  });

  it('deferred columns are charged to the budget while decoding, so a file too large is refused there', () => {
    const bytes = encodeMlod(buildLargeMlodDocument(3000));
    const faceTable = 3000 * 80;
    for (const share of [false, true]) {
      const roomy = new MemoryBudget(1 << 26);
      withBudget(roomy, () => decode(bytes, share));
      expect(roomy.used).toBeGreaterThanOrEqual(faceTable);
      let err: unknown;
      try {
        withBudget(new MemoryBudget(faceTable), () => decode(bytes, share));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BudgetError);
      expect((err as BudgetError).message).toMatch(/face table/);
    }
  });

  it('the registered codec shares when asked and encodes pieces equal to its whole output', () => {
    const bytes = encodeMlod(buildSampleMlod());
    const mlodCodec = formatById('p3d-mlod');
    const doc = mlodCodec.decode(bytes, { share: true }) as MlodDocument;
    expect(doc.lods.some((l) => l.normals.length > 0 && l.normals.buffer === bytes.buffer)).toBe(true);
    expect(joinBytes(mlodCodec.encodePieces!(doc))).toEqual(mlodCodec.encode(doc));
  });
});
