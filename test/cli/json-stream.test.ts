import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamJson } from '../../main/cli/json-stream.ts';
import { memoryIO } from './helpers/memory-io.ts';

describe('streamJson', () => {
  it('writes typed arrays as arrays, drops $raw, keeps $span, stringifies bigint and non-finite numbers', async () => {
    const m = memoryIO();
    const doc: Record<string, unknown> = {
      name: 'mesh "A"',
      $raw: new Uint8Array([1, 2, 3]),
      $span: [4, 40],
      big: 2n ** 64n,
      odd: [Number.NaN, Infinity, -Infinity, -0.5],
      positions: new Float32Array([1.5, -2, 3, 0.2, 1 / 3, 16777217, Number.NaN]),
      wide: new BigInt64Array([5n]),
      nested: [{ a: 1, skip: undefined }, [], {}],
    };
    doc.self = doc;
    await streamJson(doc, m.io.stdout);
    await m.flush();
    const j = JSON.parse(m.out());
    expect(Object.keys(j)).toEqual(['name', '$span', 'big', 'odd', 'positions', 'wide', 'nested', 'self']);
    expect(j).toEqual({
      name: 'mesh "A"',
      $span: [4, 40],
      big: '18446744073709551616',
      odd: ['NaN', 'Infinity', '-Infinity', -0.5],
      positions: [1.5, -2, 3, 0.2, 0.33333334, 16777216, 'NaN'],
      wide: ['5'],
      nested: [{ a: 1 }, [], {}],
      self: '[circular]',
    });
  });

  it('streams a large document in pieces, waiting for the sink', async () => {
    const m = memoryIO();
    const big = { meshes: Array.from({ length: 20 }, (_, i) => ({ name: `m${i}`, positions: new Float32Array(50_000).fill(i) })) };
    await streamJson(big, m.io.stdout);
    await m.flush();
    const out = m.out();
    expect(out.length).toBeGreaterThan(1_000_000);
    expect(m.drains()).toBeGreaterThan(10);
    const j = JSON.parse(out);
    expect(j.meshes).toHaveLength(20);
    expect(j.meshes[19].positions).toHaveLength(50_000);
    expect(j.meshes[19].positions[49_999]).toBe(19);
  });

  it('writes every float32 so that it reads back bit for bit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.float32Array({ noNaN: true, minLength: 1, maxLength: 64 }), async (values) => {
        const m = memoryIO();
        await streamJson({ values }, m.io.stdout);
        await m.flush();
        const back = Float32Array.from(JSON.parse(m.out()).values as number[]);
        expect(Array.from(back)).toEqual(Array.from(values));
      }),
      { numRuns: 200 },
    );
  });
});
