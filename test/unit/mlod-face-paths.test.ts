/**
 * The MLOD face block's fast paths: the decoder matches each face's `texture NUL material NUL`
 * against the tails it has seen (a bounded cache), and the encoder writes paths a 32-bit word at
 * a time near, but never past, the end of the face block. These tests break if either goes wrong.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../shared/model/commands.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { decodeMlod } from '../../shared/formats/p3d/mlod/decode.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { checkMlodEdit, setFacePathCommand } from '../../shared/formats/p3d/mlod/edits.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { buildLod, buildMlod } from '../../scripts/fixtures/mlod.ts';
import { expectRoundTrip } from '../helpers/roundtrip.ts';

/** Texture paths of every length from 0 to 9 (each a prefix of the next), a long one and a few more. */
const TEXTURES = ['', ...Array.from({ length: 9 }, (_, i) => 'abcdefghi'.slice(0, i + 1)), `data\\${'x'.repeat(300)}_co.paa`,
  ...Array.from({ length: 12 }, (_, i) => `data\\tex${i}_co.paa`)];
const MATERIALS = ['', 'm', 'mat\\a.rvmat', 'mat\\ab.rvmat'];

/** A strip of `n` triangles whose texture and material follow a scrambled order. */
function stripDoc(n: number, texture: (i: number) => string, material: (i: number) => string): MlodDocument {
  const points: number[] = [];
  for (let i = 0; i < n + 2; i++) points.push(i, i & 1, 0);
  const faces = Array.from({ length: n }, (_, i) => [i, i + 1, i + 2]);
  return buildMlod([buildLod({
    resolution: 1, points, faces,
    textures: faces.map((_, i) => texture(i)), materials: faces.map((_, i) => material(i)),
  })]);
}

const scrambled = (i: number): number => (i * 7919 + (i >> 3) * 31) % 1009;

function expectPaths(doc: MlodDocument, texture: (i: number) => string, material: (i: number) => string): void {
  const f = doc.lods[0]!.faces;
  for (let i = 0; i < f.vertexCount.length; i++) {
    expect(f.textures[f.textureIndex[i]!], `texture of face ${i}`).toBe(texture(i));
    expect(f.materials[f.materialIndex[i]!], `material of face ${i}`).toBe(material(i));
  }
  // Each distinct path is one table entry.
  expect(new Set(f.textures).size).toBe(f.textures.length);
  expect(new Set(f.materials).size).toBe(f.materials.length);
}

describe('MLOD face paths', () => {
  it('decodes many distinct texture/material pairs in any order, prefixes of each other included', () => {
    const texture = (i: number): string => TEXTURES[scrambled(i) % TEXTURES.length]!;
    const material = (i: number): string => MATERIALS[scrambled(i + 5) % MATERIALS.length]!;
    // More pairs than the decoder remembers, so pairs are forgotten and found again.
    const bytes = encodeMlod(stripDoc(600, texture, material));
    const doc = expectRoundTrip(mlodCodec, bytes, 'paths.p3d') as MlodDocument;
    expectPaths(doc, texture, material);
    expect(doc.lods[0]!.faces.textures.length).toBe(TEXTURES.length);
    expect(doc.lods[0]!.faces.materials.length).toBe(MATERIALS.length);
  });

  it('writes the last faces of a block right, whatever their path lengths', () => {
    // Every path length as the block's last face: the encoder's word writes must stop at the block.
    for (const last of [...TEXTURES.slice(0, 11), 'data\\z.paa']) {
      for (const mat of MATERIALS) {
        const texture = (i: number): string => (i === 2 ? last : 'data\\tex0_co.paa');
        const material = (i: number): string => (i === 2 ? mat : 'mat\\a.rvmat');
        const bytes = encodeMlod(stripDoc(3, texture, material));
        const doc = expectRoundTrip(mlodCodec, bytes, 'last.p3d') as MlodDocument;
        expectPaths(doc, texture, material);
      }
    }
  });

  it('writes faces from tables too large to tabulate every texture/material pair', () => {
    // 300 x 300 pairs: more than the encoder tabulates, so it writes the two paths separately.
    const texture = (i: number): string => `data\\t${'y'.repeat(i % 9)}${i}_co.paa`;
    const material = (i: number): string => `mat\\m${(i * 7) % 300}${'z'.repeat(i % 5)}.rvmat`;
    const bytes = encodeMlod(stripDoc(300, texture, material));
    const doc = expectRoundTrip(mlodCodec, bytes, 'pairs.p3d') as MlodDocument;
    expectPaths(doc, texture, material);
    expect(doc.lods[0]!.faces.textures.length * doc.lods[0]!.faces.materials.length).toBeGreaterThan(1 << 16);
  });

  it('refuses a face whose repeated path is cut off, naming the face', () => {
    const bytes = encodeMlod(stripDoc(3, () => 'data\\tex0_co.paa', () => 'mat\\a.rvmat'));
    const lod = decodeMlod(bytes).lods[0]!;
    const [start, end] = lod.faces.$span!;
    const recordEnd = start + (end - start) * 2 / 3 + 72; // the third face's 72 fixed bytes
    for (const [cut, what] of [[recordEnd, 'texture'], [recordEnd + 5, 'texture'], [end - 1, 'material']] as const) {
      // Cut the file there and end it at once: the third face's tail no longer fits.
      const broken = bytes.slice(0, cut);
      let err: unknown;
      try {
        decodeMlod(broken);
      } catch (e) {
        err = e;
      }
      expect(isDecodeError(err), String(err)).toBe(true);
      const e = err as { path: string; offset: number; detail: string };
      expect(e.path).toContain('faces[2]');
      expect(e.detail).toBe(`${what} has no NUL terminator`);
      expect(e.offset).toBeGreaterThanOrEqual(recordEnd);
      expect(e.offset).toBeLessThanOrEqual(cut);
    }
  });

  it('encodes documents whose kept bytes come from another realm (a worker, another context)', () => {
    // Such arrays fail `instanceof Uint8Array` here: the encoder must not tell kept bytes from
    // its own plans that way (the fuzz worker's metered Uint8Array found it).
    const texture = (i: number): string => TEXTURES[i % 3]!;
    const bytes = encodeMlod(stripDoc(10, texture, () => 'mat\\a.rvmat'));
    const foreign = runInNewContext('(b) => new Uint8Array(b)')(Array.from(bytes)) as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    const doc = decodeMlod(foreign);
    expect(doc.lods[0]!.$raw instanceof Uint8Array).toBe(false);
    expect(Buffer.from(encodeMlod(doc)).equals(Buffer.from(bytes))).toBe(true);
    delete doc.lods[0]!.$raw; // the LOD written from fields, its face block and tags still kept
    expect(Buffer.from(encodeMlod(doc)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('keeps paths right after an edit of one face and a table entry', () => {
    const texture = (i: number): string => TEXTURES[i % TEXTURES.length]!;
    const material = (i: number): string => MATERIALS[i % MATERIALS.length]!;
    const doc = decodeMlod(encodeMlod(stripDoc(50, texture, material)));
    const cmd = setFacePathCommand(doc, 0, [49, 3], 'data\\new_co.paa');
    expect(checkMlodEdit(doc, cmd)).toBeUndefined();
    applyCommand(doc, cmd);
    applyCommand(doc, { op: 'set', path: ['lods', 0, 'faces', 'materials', 1], value: 'mat\\renamed.rvmat' });
    const edited = (i: number): string => (i === 49 || i === 3 ? 'data\\new_co.paa' : texture(i));
    const editedMat = (i: number): string => (material(i) === 'm' ? 'mat\\renamed.rvmat' : material(i));
    const out = decodeMlod(encodeMlod(doc));
    expectPaths(out, edited, editedMat);
    // The same bytes whether the untouched parts are copied or everything is written from fields.
    expect(Buffer.from(encodeMlod(out, { reuseRaw: false })).equals(Buffer.from(encodeMlod(doc)))).toBe(true);
  });
});

describe('MLOD face paths from a Node Buffer', () => {
  it('reads each face its own paths when the input is a Buffer inside a larger memory block', () => {
    // A Buffer's slice() is a view, not a copy: a remembered tail made with it read its 32-bit
    // words from the start of the whole memory block instead of from the tail, and a later face
    // whose tail equalled those words took the earlier face's paths. Here the block starts with
    // the second face's tail, so that mistake would give face 1 face 0's texture.
    const texture = (i: number): string => (i % 2 ? 'b.paa' : 'a.paa');
    const doc = stripDoc(6, texture, () => 'm1');
    const file = encodeMlod(doc);
    const block = new ArrayBuffer(16 + file.length);
    new Uint8Array(block).set(new TextEncoder().encode('b.paa\0m1'), 0);
    new Uint8Array(block).set(file, 16);
    const asBuffer = Buffer.from(block, 16, file.length);
    expectPaths(decodeMlod(asBuffer), texture, () => 'm1');
    expectPaths(decodeMlod(file), texture, () => 'm1');
  });
});
