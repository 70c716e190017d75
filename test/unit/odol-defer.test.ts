/**
 * ODOL decoded with `defer` (DecodeOptions.defer: `lodsmith info` and `roundtrip`): large LZO
 * arrays and face tables are checked and charged while decoding, and made on their first read.
 * What must hold: the values made later are exactly the eager ones; `info` and an untouched save
 * make none of them; a damaged stream or face table is still refused by the decode itself, with
 * its offset and node path; and the memory budget still refuses what it would refuse eagerly.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import type { OdolV4xDocument } from '../../shared/formats/p3d/odol/model.ts';
import { isDeferred, lengthOf } from '../../shared/model/deferred.ts';
import { markDirty } from '../../shared/model/lossless.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { buildLargeOdol } from '../../scripts/fixtures/odol.ts';
import { corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

type Doc = OdolV4xDocument;
const eager = (b: Uint8Array): Doc => odolCodec.decode(b) as Doc;
const deferred = (b: Uint8Array): Doc => odolCodec.decode(b, { defer: true }) as Doc;

/** Every [object, key] of the document whose value is still deferred. */
function deferredFields(doc: object): [object, string][] {
  const out: [object, string][] = [];
  const seen = new Set<object>();
  const walk = (o: unknown): void => {
    if (!o || typeof o !== 'object' || ArrayBuffer.isView(o) || seen.has(o)) return;
    seen.add(o);
    for (const k of Object.keys(o)) {
      if (isDeferred(o, k)) out.push([o, k]);
      else walk((o as Record<string, unknown>)[k]);
    }
  };
  walk(doc);
  return out;
}

/** The document as plain values (every deferred field made), NaN bits kept by comparing bytes. */
function plain(doc: object): unknown {
  return JSON.parse(JSON.stringify(doc, (k, v: unknown) => {
    if (k === '$raw' || k === 'packed') return undefined;
    if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    return v;
  }));
}

// Two LODs of 120 x 120 quads: positions, normals, UVs and the point maps each over 64 KiB.
const large = (): Uint8Array => buildLargeOdol({ lods: 2, size: 120 });

describe('ODOL deferred arrays (DecodeOptions.defer)', () => {
  it('defers the large arrays and face tables, and makes exactly the eager values on first read', () => {
    const bytes = large();
    const doc = deferred(bytes);
    const fields = deferredFields(doc);
    const keys = new Set(fields.map(([, k]) => k));
    expect(keys).toEqual(new Set(['data', 'sizes', 'indices']));
    expect(fields.filter(([, k]) => k === 'sizes').length).toBeGreaterThanOrEqual(1);
    // Their lengths are known without making them.
    for (const [o, k] of fields) expect(lengthOf(o, k)).toBeGreaterThan(0);
    expect(plain(doc)).toEqual(plain(eager(bytes)));
    expect(deferredFields(doc)).toHaveLength(0);
  });

  it('info makes none of them and says what the eager decode says', () => {
    const bytes = large();
    const doc = deferred(bytes);
    const info = odolCodec.info(doc, bytes.length);
    expect(deferredFields(doc).length).toBeGreaterThan(0);
    const before = deferredFields(doc).length;
    expect(info).toEqual(odolCodec.info(eager(bytes), bytes.length));
    expect(deferredFields(doc)).toHaveLength(before);
    expect(info.meshes[0]!.triangles).toBe(2 * 120 * 120);
  });

  it('an untouched save is the input, as pieces of it, and makes nothing', () => {
    const bytes = large();
    const doc = deferred(bytes);
    const before = deferredFields(doc).length;
    const pieces = odolCodec.encodePieces!(doc);
    expect(joinBytes(pieces)).toEqual(bytes);
    expect(deferredFields(doc)).toHaveLength(before);
  });

  it('an edit to a deferred array is saved (the array made, changed, compressed again)', () => {
    const doc = deferred(large());
    const data = doc.lods[0]!.vertices.data;
    data[4] = 1234.5;
    markDirty(doc, ['lods', 0, 'vertices']);
    const back = eager(odolCodec.encode(doc));
    expect(back.lods[0]!.vertices.data[4]).toBe(1234.5);
    expect(back.lods[0]!.vertices.data.length).toBe(data.length);
  });

  it('a damaged stream of a deferred array is refused by the decode, with its offset and path', () => {
    const bytes = large();
    const doc = eager(bytes);
    const span = doc.lods[0]!.vertices.$span!;
    const packed = doc.lods[0]!.vertices.packed!;
    expect(packed.length).toBeGreaterThan(1000);
    // The stream's last bytes are its end marker: cut the marker off by damaging it.
    const bad = bytes.slice();
    const markerAt = span[1] - 3;
    bad[markerAt] = 0x00;
    bad[markerAt + 1] = 0xff;
    const lazy = expectDecodeError(() => deferred(bad));
    const now = expectDecodeError(() => eager(bad));
    expect(lazy.message).toBe(now.message);
    expect(lazy.offset).toBe(now.offset);
    expect(lazy.path).toMatch(/lods\[\d\].*vertices/);
  });

  it('a damaged face table is refused by the decode, with the eager message', () => {
    const bytes = large();
    const doc = eager(bytes);
    const faces = doc.lods[0]!.faces.$span!;
    const bad = bytes.slice();
    // The 101st face's corner count (after count, data size and the unused u16: 10 bytes).
    let p = faces[0] + 10;
    for (let i = 0; i < 100; i++) p += 1 + bad[p]! * 4;
    bad[p] = 7;
    const lazy = expectDecodeError(() => deferred(bad));
    const now = expectDecodeError(() => eager(bad));
    expect(lazy.message).toBe(now.message);
    expect(lazy.message).toMatch(/face 100 has 7 corners/);
  });

  it('the budget refuses a deferred decode as it refuses an eager one, having charged each deferred array', () => {
    const bytes = large();
    const refused = (decode: () => unknown): BudgetError => {
      let err: unknown;
      try {
        withBudget(new MemoryBudget(bytes.length), decode);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BudgetError);
      return err as BudgetError;
    };
    refused(() => eager(bytes));
    expect(isDecodeError(refused(() => deferred(bytes)))).toBe(true);
    // Each deferred array is charged, as it is left unmade, exactly the bytes it will make (a
    // face table: both of its arrays at once).
    const charges: number[] = [];
    class Recording extends MemoryBudget {
      override charge(n: number, what: string, offset = 0, path = ''): void {
        super.charge(n, what, offset, path);
        charges.push(n);
      }
    }
    const doc = withBudget(new Recording(1 << 30), () => deferred(bytes));
    const fields = deferredFields(doc);
    expect(fields.filter(([, k]) => k === 'data').length).toBeGreaterThanOrEqual(2);
    for (const [o, k] of fields) {
      if (k === 'indices') continue;
      const rec = o as Record<string, ArrayBufferView>;
      const bytesMade = k === 'sizes' ? rec.sizes!.byteLength + rec.indices!.byteLength : rec[k]!.byteLength;
      expect(charges, `${k} of ${bytesMade} bytes`).toContain(bytesMade);
    }
  });

  it.skipIf(!hasCorpus)('every corpus ODOL: the deferred document is the eager one, and saves back untouched', () => {
    const files = corpusFiles('p3d_odol');
    expect(files.length).toBeGreaterThan(0);
    let anyDeferred = 0;
    for (const f of files) {
      const bytes = readBytes(f);
      const doc = deferred(bytes);
      anyDeferred += deferredFields(doc).length;
      expect(Buffer.compare(joinBytes(odolCodec.encodePieces!(doc)), bytes), basename(f)).toBe(0);
      expect(plain(doc), basename(f)).toEqual(plain(eager(bytes)));
    }
    expect(anyDeferred).toBeGreaterThan(0);
  });
});
