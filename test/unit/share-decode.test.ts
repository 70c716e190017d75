/**
 * Shared and in-situ decoding (shared/binary/share.ts) against the default, copying decode, for
 * every corpus file and generated fixture of LODka, Grimrock and Unigine, each also at input
 * offsets 1-3 inside its buffer (so aligned and unaligned placements both occur): the same
 * document, byte-identical re-encoding in every mode, views only where asked for, and no edit
 * ever reaching the input bytes.
 */
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { formatById, type FormatCodec, type FormatId } from '../../shared/formats/registry.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { encodeMesh } from '../../shared/formats/unigine/mesh-codec.ts';
import { encodeFixture, grimrockFixtures } from '../../scripts/fixtures/grimrock.ts';
import { lodkaFixtures } from '../../scripts/fixtures/lodka.ts';
import { unigineFixtures } from '../../scripts/fixtures/unigine.ts';
import { CORPUS_FOLDER, corpusFiles, readBytes } from '../helpers/corpus.ts';
import { encodePieces, firstDifferencePieces } from '../../main/cli/verify.ts';

interface Case {
  name: string;
  format: FormatId;
  bytes: Uint8Array;
}

const FORMATS: FormatId[] = ['lodka-lod', 'grimrock-model', 'grimrock-animation', 'unigine-mesh', 'unigine-anim'];

function cases(): Case[] {
  const out: Case[] = [];
  for (const f of lodkaFixtures()) out.push({ name: f.name, format: 'lodka-lod', bytes: encodeLod(f.doc) });
  for (const f of grimrockFixtures()) out.push({ name: f.name, format: f.kind === 'model' ? 'grimrock-model' : 'grimrock-animation', bytes: encodeFixture(f) });
  for (const f of unigineFixtures()) {
    if (f.doc.magic === 'an10') continue;
    out.push({ name: f.name, format: 'unigine-mesh', bytes: encodeMesh(f.doc as Parameters<typeof encodeMesh>[0]) });
  }
  for (const format of FORMATS) {
    for (const file of corpusFiles(CORPUS_FOLDER[format])) out.push({ name: file.slice(file.lastIndexOf('/') + 1), format, bytes: readBytes(file) });
  }
  return out;
}

/** `bytes` copied to offset `shift` of a fresh buffer with room to spare on both sides. */
function placed(bytes: Uint8Array, shift: number): Uint8Array {
  const buf = new Uint8Array(bytes.length + shift + 8);
  buf.set(bytes, shift);
  return buf.subarray(shift, shift + bytes.length);
}

/** Every typed array of a document (not its `$raw` bytes) with its path. */
function arraysOf(doc: unknown): [string, ArrayBufferView][] {
  const out: [string, ArrayBufferView][] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): void => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      out.push([path, v]);
      return;
    }
    if (seen.has(v)) return;
    seen.add(v);
    for (const [k, x] of Object.entries(v)) if (!k.startsWith('$raw') && !k.endsWith('Lz4')) walk(x, `${path}/${k}`);
  };
  walk(doc, '');
  return out;
}

/** The document as plain data: typed arrays as their type and exact bytes, `$raw` left out. */
function plain(doc: unknown): unknown {
  if (!doc || typeof doc !== 'object') return doc;
  if (ArrayBuffer.isView(doc)) return `${doc.constructor.name}:${Buffer.from(doc.buffer, doc.byteOffset, doc.byteLength).toString('base64')}`;
  if (Array.isArray(doc)) return doc.map(plain);
  return Object.fromEntries(Object.entries(doc).filter(([k]) => k !== '$raw').map(([k, v]) => [k, plain(v)]));
}

const joined = (pieces: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(pieces));

const all = cases();

describe('shared and in-situ decoding', () => {
  it('covers every format, with corpus files where the corpus is present', () => {
    const formats = new Set(all.map((c) => c.format));
    for (const f of ['lodka-lod', 'grimrock-model', 'grimrock-animation', 'unigine-mesh'] as const) expect(formats.has(f)).toBe(true);
    expect(all.length).toBeGreaterThanOrEqual(25);
  });

  const viewBytes: Record<string, number> = {};
  const movedFiles: Record<string, number> = {};

  for (const c of all) {
    it(`${c.format} ${c.name}: same document and bytes copied, shared and in situ, at every alignment`, () => {
      const codec: FormatCodec = formatById(c.format);
      for (const shift of [0, 1, 2, 3]) {
        const input = placed(c.bytes, shift);
        const before = input.slice();

        const owned = codec.decode(input);
        // The default decode owns its arrays: none is a view of the input.
        for (const [path, a] of arraysOf(owned)) if (a.byteLength > 0) expect(a.buffer, path).not.toBe(input.buffer);

        const shared = codec.decode(input, { share: true });
        expect(plain(shared)).toEqual(plain(owned));
        for (const [, a] of arraysOf(shared)) if (a.buffer === input.buffer) viewBytes[c.format] = (viewBytes[c.format] ?? 0) + a.byteLength;
        expect(Buffer.compare(codec.encode(shared), c.bytes)).toBe(0);
        expect(Buffer.compare(codec.encode(shared, { reuseRaw: false }), c.bytes)).toBe(0);
        expect(Buffer.compare(joined(encodePieces(codec, shared)), c.bytes)).toBe(0);
        expect(Buffer.compare(joined(encodePieces(codec, shared, { reuseRaw: false })), c.bytes)).toBe(0);
        expect(firstDifferencePieces(input, encodePieces(codec, shared, { reuseRaw: false })).offset).toBe(-1);
        // Nothing the shared decode or its encoders did changed the input.
        expect(Buffer.compare(input, before)).toBe(0);

        // In situ gives the bytes away: decode a scratch copy, then compare with the owned document.
        const scratch = placed(c.bytes, shift);
        const insitu = codec.decode(scratch, { share: 'in-situ' });
        expect(plain(insitu)).toEqual(plain(owned));
        if (Buffer.compare(scratch, c.bytes) !== 0) {
          movedFiles[c.format] = (movedFiles[c.format] ?? 0) + 1;
          // Bytes moved: no raw bytes may remain to be copied back as if they were the file's.
          expect(JSON.stringify(Object.keys(insitu))).not.toContain('$raw');
        }
        expect(Buffer.compare(codec.encode(insitu), c.bytes)).toBe(0);
      }
    });
  }

  it('shared decodes hand out views and in-situ decodes move bytes (the modes are not copies in disguise)', () => {
    for (const f of ['lodka-lod', 'grimrock-model', 'unigine-mesh']) expect(viewBytes[f] ?? 0, f).toBeGreaterThan(0);
    expect(movedFiles['lodka-lod'] ?? 0).toBeGreaterThan(0);
    expect(movedFiles['unigine-mesh'] ?? 0).toBeGreaterThan(0);
  });
});

describe('edits of a shared document', () => {
  for (const format of ['lodka-lod', 'grimrock-model', 'unigine-mesh'] as const) {
    it(`${format}: an element edit through applyCommand never writes into the input, and the edit is saved`, () => {
      const codec = formatById(format);
      // The largest float array that is a view of the input (in the largest file that has one):
      // the kind of array an edit could write through.
      const found = all
        .filter((x) => x.format === format)
        .sort((x, y) => y.bytes.length - x.bytes.length)
        .map((x) => {
          const input = placed(x.bytes, 0);
          const doc = codec.decode(input, { share: true });
          const view = arraysOf(doc)
            .filter(([, a]) => a instanceof Float32Array && a.buffer === input.buffer && a.length > 0)
            .sort((p, q) => q[1].byteLength - p[1].byteLength)[0];
          return { c: x, input, doc, path: view?.[0] };
        })
        .find((x) => x.path !== undefined)!;
      const { c, input, doc, path } = found;
      const before = input.slice();
      const keys = path!.split('/').slice(1).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      const arrayBefore = keys.reduce<any>((o, k) => o[k], doc) as Float32Array;
      const old = arrayBefore[0]!;
      const inverse = applyCommand(doc, { op: 'set', path: [...keys, 0], value: old + 1.5 });
      expect(Buffer.compare(input, before)).toBe(0);
      const edited = codec.encode(doc);
      expect(Buffer.compare(edited, c.bytes)).not.toBe(0);
      const again = codec.decode(edited);
      expect((keys.reduce<any>((o, k) => o[k], again) as Float32Array)[0]).toBe(Math.fround(old + 1.5));
      applyCommand(doc, inverse);
      expect(Buffer.compare(input, before)).toBe(0);
      expect(Buffer.compare(codec.encode(doc, { reuseRaw: false }), c.bytes)).toBe(0);
    });
  }
});

describe('comparing pieces with the input', () => {
  const input = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 31) & 0xff);
  const split = (b: Uint8Array, at: number[]): Uint8Array[] => [0, ...at].map((s, i, a) => b.subarray(s, a[i + 1] ?? b.length));

  it('finds a one-byte difference anywhere, also on piece boundaries, and length differences', () => {
    expect(firstDifferencePieces(input, split(input, [1, 4096, 9999])).offset).toBe(-1);
    for (const at of [0, 1, 4095, 4096, 5000, 9999]) {
      const out = input.slice();
      out[at] = out[at]! ^ 1;
      expect(firstDifferencePieces(input, split(out, [1, 4096, 9999])).offset).toBe(at);
    }
    expect(firstDifferencePieces(input, split(input.subarray(0, 9000), [4096]))).toEqual({ offset: 9000, length: 9000 });
    const longer = new Uint8Array(10_001);
    longer.set(input);
    expect(firstDifferencePieces(input, split(longer, [4096, 10_000]))).toEqual({ offset: 10_000, length: 10_001 });
  });
});

describe('codecs loaded from the format catalog (the CLI path)', () => {
  it('run inside the memory budget and honour share, as registered codecs do', async () => {
    const { FORMAT_CATALOG } = await import('../../shared/formats/catalog.ts');
    const c = all.find((x) => x.name === 'mesh-70000-vertices.lod')!;
    const codec = await FORMAT_CATALOG.find((e) => e.id === 'lodka-lod')!.load();
    // A copying decode of this file allocates well over 64 KiB; the limit must stop it.
    expect(() => codec.decode(c.bytes, { maxMemory: 64 * 1024 })).toThrow(/decoding memory budget/);
    const shared = codec.decode(c.bytes, { share: true });
    expect(arraysOf(shared).some(([, a]) => a.buffer === c.bytes.buffer && a.byteLength > 0)).toBe(true);
  });
});

describe('damaged inputs', () => {
  it('decode alike copied, shared and in situ: the same document or the same DecodeError, never anything else', async () => {
    const { isDecodeError } = await import('../../shared/errors.ts');
    // A fixed-seed generator: each input is a fixture or corpus file with 1-4 bytes changed.
    let state = 0x5eed5;
    const next = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const outcome = (f: () => unknown): { ok: true; doc: unknown } | { ok: false; message: string } => {
      try {
        return { ok: true, doc: plain(f()) };
      } catch (e) {
        if (!isDecodeError(e)) throw e;
        return { ok: false, message: (e as Error).message };
      }
    };
    const small = all.filter((c) => c.bytes.length <= 300_000);
    let decoded = 0;
    let refused = 0;
    for (let i = 0; i < 600; i++) {
      const c = small[next(small.length)]!;
      const damaged = c.bytes.slice();
      for (let k = 1 + next(4); k > 0; k--) damaged[next(damaged.length)] = next(256);
      const codec = formatById(c.format);
      const shift = next(4);
      const copied = outcome(() => codec.decode(placed(damaged, shift)));
      const shared = outcome(() => codec.decode(placed(damaged, shift), { share: true }));
      const insitu = outcome(() => codec.decode(placed(damaged, shift), { share: 'in-situ' }));
      expect(shared, `${c.name} #${i}`).toEqual(copied);
      expect(insitu, `${c.name} #${i}`).toEqual(copied);
      if (copied.ok) decoded++;
      else refused++;
    }
    // Both kinds occurred, so both paths were compared.
    expect(decoded).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });
});
