/** Replacing a LODka TXTR embedded image is one undoable edit that rewrites that chunk only. */
import { describe, expect, it } from 'vitest';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { encodePng, decodePng } from '../../shared/formats/texture/png.ts';
import { decodeTexture, decodeTextureMip } from '../../shared/formats/texture/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { getAt, type NodePath } from '../../shared/model/path.ts';

function findTxtr(doc: object): NodePath {
  const walk = (node: unknown, path: NodePath): NodePath | undefined => {
    if (!node || typeof node !== 'object' || ArrayBuffer.isView(node)) return undefined;
    if ((node as { id?: string }).id === 'TXTR') return [...path, 'textures', 0, 'textureData'];
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('$')) continue;
      const hit = walk(v, [...path, Array.isArray(node) ? Number(k) : k]);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(doc, [])!;
}

describe('LODka TXTR embedded images', () => {
  it('the image decodes by its magic; a replacement re-encodes only its chunk and undoes to the same bytes', () => {
    const original = encodeLod(buildSampleLod());
    const doc = lodkaCodec.decode(original);
    const path = findTxtr(doc);
    const old = getAt(doc, path) as Uint8Array;
    const shown = decodeTextureMip(decodeTexture(old, 'ground.png'));
    expect(shown.width).toBeGreaterThan(0);
    const replacement = encodePng({ width: 8, height: 4, data: new Uint8Array(8 * 4 * 4).fill(255) });
    const inverse = applyCommand(doc, { op: 'set', path, value: replacement, label: 'Replace embedded image' });
    const edited = lodkaCodec.encode(doc);
    expect(edited.length).toBe(original.length - old.length + replacement.length);
    const again = lodkaCodec.decode(edited);
    expect(decodePng(getAt(again, path) as Uint8Array).width).toBe(8);
    applyCommand(doc, inverse);
    expect(Buffer.from(lodkaCodec.encode(doc)).equals(Buffer.from(original))).toBe(true);
  });
});
