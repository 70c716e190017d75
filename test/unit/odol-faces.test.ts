/**
 * The ODOL face table: one loop per index width that reads three corners and a fourth when the
 * face has one, into a slab region sized for all quads whose unused tail goes back to the slab
 * (the arrays after the faces are carved from it: a tail given back wrongly overwrites indices);
 * or, when the window is too short for that, a count pass that checks every face first. Mixed
 * triangles and quads must come back in order for both widths, and a bad corner count is still
 * reported at its own byte.
 */
import { describe, expect, it } from 'vitest';
import { isDecodeError, type DecodeError } from '../../shared/errors.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { buildOdolDocument } from '../../scripts/fixtures/odol.ts';

function mixed(version: number): { bytes: Uint8Array; sizes: number[]; indices: number[] } {
  const doc = buildOdolDocument({ version, lods: 1, size: 4 });
  const lod = doc.lods[0]!;
  // Quads and triangles in every order, indices spread over both bytes (and over 16 bits from v69).
  const sizes = [3, 4, 4, 3, 3, 4, 3];
  const big = version >= 69 ? 0x12345 : 0x1234;
  const indices: number[] = [];
  sizes.forEach((c, i) => {
    for (let j = 0; j < c; j++) indices.push((i * 7 + j * big) % (version >= 69 ? 0x7fffffff : 0x10000));
  });
  lod.faces = { unused: 0, sizes: Uint8Array.from(sizes), indices: Uint32Array.from(indices) };
  delete lod.$raw;
  return { bytes: odolCodec.encode(doc), sizes, indices };
}

describe('ODOL face table', () => {
  for (const version of [50, 73]) {
    it(`v${version} (${version >= 69 ? 32 : 16}-bit indices): mixed triangles and quads decode in order and write back the same`, () => {
      const { bytes, sizes, indices } = mixed(version);
      const back = odolCodec.decode(bytes) as OdolV4xDocument;
      const faces = back.lods[0]!.faces;
      expect(Array.from(faces.sizes)).toEqual(sizes);
      expect(Array.from(faces.indices)).toEqual(indices);
      expect(faces.indices.length).toBe(sizes.reduce((a, b) => a + b, 0));
      expect(odolCodec.encode(back, { reuseRaw: false })).toEqual(bytes);
    });

    it(`v${version}: a corner count other than 3 or 4 is refused at its byte, with the face's number`, () => {
      const { bytes } = mixed(version);
      const wide = version >= 69 ? 4 : 2;
      const faces = (odolCodec.decode(bytes) as OdolV4xDocument).lods[0]!.faces;
      // count (i32), size (u32), unused (u16), then the faces: face 2 starts after a triangle and a quad.
      const at = faces.$span![0] + 10 + (1 + 3 * wide) + (1 + 4 * wide);
      expect(bytes[at]).toBe(4);
      for (const bad of [0, 2, 5, 255]) {
        const broken = bytes.slice();
        broken[at] = bad;
        let err: DecodeError | undefined;
        try {
          odolCodec.decode(broken);
        } catch (e) {
          if (isDecodeError(e)) err = e;
        }
        expect(err?.message).toContain(`face 2 has ${bad} corners (3 or 4 expected)`);
        expect(err?.offset).toBe(at);
        expect(err?.path).toContain('faces');
      }
    });
  }
});
