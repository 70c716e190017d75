/**
 * Exact bits of untouched floats, for every format: NaN patterns (signalling and quiet, any
 * payload, either sign) planted in float fields the inspector lists, one edit to another field
 * anywhere in the document, save: every planted float keeps its exact bits. A JS number keeps one
 * NaN, so only a codec that keeps the stored bits per field passes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { allFormats, type FormatCodec } from '../../shared/formats/registry.ts';
import { applyCommand } from '../../shared/model/commands.ts';
import type { InspectField, OutlineNode } from '../../shared/model/outline.ts';
import { loadSeeds } from '../../fuzz/lib/seeds.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';

const FLOAT_TUPLES = new Set(['vec2', 'vec3', 'vec4', 'quat', 'rgba', 'mat3', 'mat4x3', 'mat4']);
const NUMBERS = new Set(['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'bool', 'enum', 'flags']);
/** Nodes inspected per document (every node of a small generated file). */
const MAX_NODES = 3000;

interface FloatSlot {
  /** Absolute byte offset of the 4 bytes. */
  at: number;
  field: InspectField;
  element?: number;
}

function fieldsOf(codec: FormatCodec, doc: object): InspectField[] {
  const out: InspectField[] = [];
  const queue: OutlineNode[] = [codec.outline(doc)];
  for (let n = 0; queue.length && n < MAX_NODES; n++) {
    const node = queue.shift()!;
    const rows = codec.inspect(doc, node.path);
    if (rows) out.push(...rows.fields);
    if (node.children) queue.push(...node.children);
  }
  return out;
}

function floatSlots(fields: readonly InspectField[]): FloatSlot[] {
  const out: FloatSlot[] = [];
  for (const f of fields) {
    if (!f.span || f.readonly) continue;
    const [s, e] = f.span;
    if (f.kind === 'f32' && e - s === 4) out.push({ at: s, field: f });
    else if (FLOAT_TUPLES.has(f.kind) && (e - s) % 4 === 0) for (let i = 0; i < (e - s) / 4; i++) out.push({ at: s + i * 4, field: f, element: i });
  }
  return out;
}

/** A NaN pattern: exponent all ones, a non-zero payload, either sign (signalling when bit 22 is 0). */
const nanBits = fc.tuple(fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: (1 << 22) - 1 })).map(([neg, quiet, payload]) => ((neg ? 0x80000000 : 0) | 0x7f800000 | (quiet ? 0x400000 : 0) | payload) >>> 0);

/** Every registered format's generated seeds (the fixture builders' small files). */
const seeds = (await loadSeeds({ maxBytes: 256 * 1024, generated: true })).seeds.filter((s) => s.name.startsWith('generated:'));
// The MLOD builders return documents the seed loader does not pick up by name: add the sample.
seeds.push({ name: 'generated:mlod.buildSampleMlod', format: mlodCodec.id, bytes: mlodCodec.encode(buildSampleMlod()), streams: [] });

type Key = string | number;

/** Every Float32Array of a document with the keys that reach it (kept bytes and streams left out). */
function floatArrays(doc: unknown): { path: Key[]; array: Float32Array }[] {
  const out: { path: Key[]; array: Float32Array }[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, path: Key[]): void => {
    if (!v || typeof v !== 'object' || seen.has(v) || path.length > 40) return;
    seen.add(v);
    if (v instanceof Float32Array) {
      if (v.length > 0) out.push({ path, array: v });
      return;
    }
    if (ArrayBuffer.isView(v)) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else for (const [k, x] of Object.entries(v)) if (!k.startsWith('$') && k !== 'packed') walk(x, [...path, k]);
  };
  walk(doc, []);
  return out;
}

function at(doc: unknown, path: readonly Key[]): unknown {
  let x = doc as Record<Key, unknown> | undefined;
  for (const k of path) x = x?.[k] as Record<Key, unknown> | undefined;
  return x;
}

const bitsOf = (a: Float32Array, i: number): number => new Uint32Array(a.buffer, a.byteOffset, a.length)[i]!;

/** A format whose documents hold no binary float at all (model.cfg: numbers are text, kept as written). */
function floatless(codec: FormatCodec, mine: readonly { bytes: Uint8Array }[]): boolean {
  return mine.length > 0 && mine.every((seed) => {
    const doc = codec.decode(seed.bytes) as object;
    return floatArrays(doc).length === 0 && !fieldsOf(codec, doc).some((f) => f.kind === 'f32' || FLOAT_TUPLES.has(f.kind));
  });
}

describe('untouched floats keep their exact bits after an edit anywhere', () => {
  for (const codec of allFormats()) {
    const mine = seeds.filter((s) => s.format === codec.id).slice(0, 3);
    if (floatless(codec, mine)) {
      it.skip(`${codec.id}: holds no binary floats (a text format)`, () => {});
      continue;
    }
    it(`${codec.id}: NaN payloads in float fields survive an edit to another field`, () => {
      expect(mine.length, `no generated seed for ${codec.id}`).toBeGreaterThan(0);
      let checked = 0;
      for (const seed of mine) {
        const doc0 = codec.decode(seed.bytes) as object;
        const fields = fieldsOf(codec, doc0);
        const slots = floatSlots(fields);
        const editable = fields.filter((f) => f.span && !f.readonly && NUMBERS.has(f.kind) && typeof f.value === 'number');
        if (slots.length === 0 || editable.length < 2) continue;
        fc.assert(
          fc.property(
            fc.uniqueArray(fc.integer({ min: 0, max: slots.length - 1 }), { minLength: 1, maxLength: 6 }),
            fc.array(nanBits, { minLength: 6, maxLength: 6 }),
            fc.integer({ min: 0, max: editable.length - 1 }),
            (picks, patterns, editPick) => {
              const planted = picks.map((k, i) => ({ slot: slots[k]!, bits: patterns[i]! }));
              const edit = editable[editPick]!;
              // The edit goes elsewhere: not the 4 bytes of a planted float.
              fc.pre(!planted.some((p) => p.slot.at >= edit.span![0] && p.slot.at < edit.span![1]));
              const bytes = seed.bytes.slice();
              const dv = new DataView(bytes.buffer);
              for (const p of planted) dv.setUint32(p.slot.at, p.bits, true);
              let doc: object;
              try {
                doc = codec.decode(bytes) as object;
              } catch {
                // A NaN where the format wants a number it checks (a count stored as a float...).
                fc.pre(false);
                return;
              }
              // Untouched: byte for byte.
              expect(codec.encode(doc)).toEqual(bytes);
              const v = edit.value as number;
              const next = edit.kind === 'f32' ? (v === 1.25 ? 2.5 : 1.25) : v === 0 ? 1 : v - 1;
              const cmd = { op: 'set' as const, path: edit.path, value: next };
              fc.pre(!codec.checkEdit?.(doc, cmd));
              applyCommand(doc, cmd);
              for (const reuseRaw of [true, false]) {
                let out: Uint8Array;
                try {
                  out = codec.encode(doc, { reuseRaw });
                } catch {
                  // An edit the encoder refuses (a value another field must agree with) saves nothing.
                  fc.pre(false);
                  return;
                }
                // Only edits that keep the layout are compared byte for byte at the same offsets.
                fc.pre(out.length === bytes.length);
                const odv = new DataView(out.buffer, out.byteOffset);
                for (const p of planted) {
                  const got = odv.getUint32(p.slot.at, true);
                  expect(got.toString(16), `${p.slot.field.path.join('/')}${p.slot.element !== undefined ? `[${p.slot.element}]` : ''} after setting ${edit.path.join('/')} (reuseRaw ${reuseRaw})`).toBe(p.bits.toString(16));
                }
              }
              checked++;
            },
          ),
          { numRuns: 40, seed: 14 },
        );
      }
      fieldChecks.set(codec.id, checked);
    }, 120_000);

    it(`${codec.id}: NaN payloads in float arrays survive an edit to another field`, () => {
      let checked = 0;
      for (const seed of mine) {
        const doc0 = codec.decode(seed.bytes) as object;
        const arrays = floatArrays(doc0);
        const editable = fieldsOf(codec, doc0).filter((f) => !f.readonly && NUMBERS.has(f.kind) && typeof f.value === 'number');
        if (arrays.length === 0 || editable.length === 0) continue;
        fc.assert(
          fc.property(
            fc.array(fc.tuple(fc.nat(), fc.nat(), nanBits), { minLength: 1, maxLength: 6 }),
            fc.nat(),
            (plants, editPick) => {
              // Plant into a fresh copy, then write it: the file now holds the NaNs.
              const doc = codec.decode(seed.bytes) as object;
              const mine = floatArrays(doc);
              const planted = plants.map(([a, i, bits]) => {
                const { path, array } = mine[a % mine.length]!;
                const index = i % array.length;
                new Uint32Array(array.buffer, array.byteOffset, array.length)[index] = bits;
                return { path, index, bits };
              });
              let bytes: Uint8Array;
              let doc1: object;
              try {
                bytes = codec.encode(doc, { reuseRaw: false });
                doc1 = codec.decode(bytes) as object;
              } catch {
                fc.pre(false);
                return;
              }
              const last = new Map(planted.map((p) => [`${p.path.join('/')}#${p.index}`, p]));
              for (const p of last.values()) {
                const a = at(doc1, p.path);
                fc.pre(a instanceof Float32Array && a.length > p.index);
                // Written and read back exactly.
                expect(bitsOf(a as Float32Array, p.index).toString(16), `${p.path.join('/')}[${p.index}] after encode/decode`).toBe(p.bits.toString(16));
              }
              const edit = editable[editPick % editable.length]!;
              const v = edit.value as number;
              const cmd = { op: 'set' as const, path: edit.path, value: edit.kind === 'f32' ? (v === 1.25 ? 2.5 : 1.25) : v === 0 ? 1 : v - 1 };
              fc.pre(!codec.checkEdit?.(doc1, cmd));
              fc.pre(!Array.from(last.values()).some((p) => cmd.path.join('/') === [...p.path, p.index].join('/')));
              applyCommand(doc1, cmd);
              for (const reuseRaw of [true, false]) {
                let doc2: object;
                try {
                  doc2 = codec.decode(codec.encode(doc1, { reuseRaw })) as object;
                } catch {
                  fc.pre(false);
                  return;
                }
                for (const p of last.values()) {
                  const a = at(doc2, p.path);
                  fc.pre(a instanceof Float32Array && a.length > p.index);
                  expect(bitsOf(a as Float32Array, p.index).toString(16), `${p.path.join('/')}[${p.index}] after setting ${cmd.path.join('/')} (reuseRaw ${reuseRaw})`).toBe(p.bits.toString(16));
                }
              }
              checked++;
            },
          ),
          { numRuns: 30, seed: 14 },
        );
      }
      expect(checked + (fieldChecks.get(codec.id) ?? 0), `nothing of ${codec.id} was compared`).toBeGreaterThan(0);
    }, 120_000);
  }
});

const fieldChecks = new Map<string, number>();
