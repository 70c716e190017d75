/**
 * The decompressors warm themselves up on streams of their own before the first real one, so the
 * engine optimises them once with every branch seen (docs/performance.md). The streams must be
 * valid, cover what they claim, and the warm-up must never count against the caller's budget.
 */
import { describe, expect, it, vi } from 'vitest';
import { lzo1xDecompress, lzo1xMatches, lzo1xPrimingStreams } from '../../shared/binary/lzo1x.ts';
import { lzssDecompress, lzssPrimingStreams } from '../../shared/binary/lzss.ts';
import { lz4Decompress, lz4PrimingBlocks } from '../../shared/formats/unigine/lz4.ts';

/** The instruction kinds of an LZO1X stream, as the decoder tells them apart (see lzo1x.ts). */
function lzoKinds(s: Uint8Array): Set<string> {
  const kinds = new Set<string>();
  let ip = 0;
  let op = 0;
  let state = 0;
  const ext = (base: number): number => {
    let n = base;
    if (s[ip] === 0) kinds.add('zero extension byte');
    while (s[ip] === 0) {
      n += 255;
      ip++;
    }
    return n + s[ip++]!;
  };
  if (s[0]! > 17) {
    kinds.add('first run');
    const n = s[0]! - 17;
    ip = 1 + n;
    op = n;
    state = n < 4 ? n : 4;
  }
  for (;;) {
    const t = s[ip++]!;
    let len: number;
    let dist: number;
    let lits: number;
    if (t >= 64) {
      len = (t >> 5) + 1;
      dist = 1 + ((t >> 2) & 7) + (s[ip++]! << 3);
      lits = t & 3;
      kinds.add(`M2 ${dist >= 8 ? 'far' : dist >= 4 ? 'near' : 'under 4'}${state === 4 ? ' after a run' : ''}`);
    } else if (t >= 32) {
      len = (t & 31 ? t & 31 : ext(31)) + 2;
      const d = s[ip]! | (s[ip + 1]! << 8);
      ip += 2;
      dist = (d >> 2) + 1;
      lits = d & 3;
      kinds.add(`M3 ${t & 31 ? 'short' : 'extended'} ${dist >= len && len >= 128 ? 'copy' : dist >= 8 ? 'far' : dist >= 4 ? 'near' : 'under 4'}`);
    } else if (t >= 16) {
      len = (t & 7 ? t & 7 : ext(7)) + 2;
      const d = s[ip]! | (s[ip + 1]! << 8);
      ip += 2;
      const far = ((t & 8) << 11) + (d >> 2);
      if (far === 0) return kinds;
      dist = far + 0x4000;
      lits = d & 3;
      kinds.add(`M4 ${t & 7 ? 'short' : 'extended'}${t & 8 ? ' high' : ''}`);
    } else if (state === 0) {
      const n = (t === 0 ? ext(15) : t) + 3;
      kinds.add(t === 0 ? (n >= 128 ? 'long run, native' : 'long run') : `run ${t <= 5 ? '4-8' : t <= 13 ? '9-16' : '17-18'}`);
      ip += n;
      op += n;
      state = 4;
      continue;
    } else {
      len = state === 4 ? 3 : 2;
      dist = (state === 4 ? 0x801 : 1) + (t >> 2) + (s[ip++]! << 2);
      lits = t & 3;
      kinds.add(state === 4 ? 'M1 after a run' : 'M1 after literals');
    }
    expect(dist).toBeLessThanOrEqual(op);
    ip += lits;
    op += len + lits;
    state = lits;
  }
}

describe('decompressor priming', () => {
  it('the LZO streams decode whole, agree with the matcher, and hold every instruction kind the decoder takes apart', () => {
    const streams = lzo1xPrimingStreams();
    const kinds = new Set<string>();
    for (const p of streams) {
      const r = lzo1xDecompress(p.stream, 0, p.size);
      expect(r.consumed).toBe(p.stream.length);
      expect(lzo1xMatches(p.stream, r.data)).toBe(true);
      expect(lzo1xDecompress(p.stream, 0, p.size, new Uint8Array(p.size)).data).toEqual(r.data);
      for (const k of lzoKinds(p.stream)) kinds.add(k);
    }
    expect([...kinds].sort()).toEqual(
      [
        'first run', 'run 4-8', 'run 9-16', 'run 17-18', 'long run', 'long run, native', 'zero extension byte',
        'M1 after a run', 'M1 after literals',
        'M2 far', 'M2 near', 'M2 under 4', 'M2 far after a run', 'M2 near after a run',
        'M3 short far', 'M3 short near', 'M3 short under 4', 'M3 extended far', 'M3 extended near', 'M3 extended copy', 'M3 extended under 4',
        'M4 short', 'M4 extended', 'M4 extended high',
      ].sort(),
    );
    // The second stream is short enough that every instruction goes through the checked path.
    expect(streams[1]!.stream.length).toBeLessThan(160);
  });

  it('the LZSS and LZ4 streams decode to the data they were made from, the ring spaces included', () => {
    const lzss = lzssPrimingStreams();
    expect(lzss).toHaveLength(3);
    for (const p of lzss) expect(lzssDecompress(p.stream, 0, p.data.length).data).toEqual(p.data);
    expect(lzss[2]!.data.every((b) => b === 0x20)).toBe(true);
    for (const p of lz4PrimingBlocks()) expect(lz4Decompress(p.block, p.data.length)).toEqual(p.data);
  });

  it("the warm-up runs on the first real call, once, and never counts against the caller's budget", async () => {
    for (const load of [
      async () => {
        const m = await import('../../shared/binary/lzo1x.ts');
        const data = new Uint8Array(5000).map((_, i) => (i * 7) & 63);
        const s = m.lzo1xCompress(data);
        return { first: () => m.lzo1xDecompress(s, 0, data.length).data, data, warm: m.lzo1xPrimingStreams().map((p) => p.size) };
      },
      async () => {
        const m = await import('../../shared/binary/lzss.ts');
        const data = new Uint8Array(5000).map((_, i) => (i * 7) & 63);
        const s = m.lzssCompress(data);
        return { first: () => m.lzssDecompress(s, 0, data.length).data, data, warm: m.lzssPrimingStreams().map((p) => p.data.length) };
      },
      async () => {
        const m = await import('../../shared/formats/unigine/lz4.ts');
        const data = new Uint8Array(5000).map((_, i) => (i * 7) & 63);
        const s = m.lz4Compress(data);
        return { first: () => m.lz4Decompress(s, data.length) as Uint8Array, data, warm: m.lz4PrimingBlocks().map((p) => p.data.length) };
      },
    ]) {
      vi.resetModules();
      const { MemoryBudget, withBudget } = await import('../../shared/binary/budget.ts');
      const { first, data, warm } = await load();
      // Every charge, by the budget it went to: the warm-up decodes its own streams into arrays
      // it allocates, so it charges their sizes to a budget of its own.
      const charges: { budget: unknown; bytes: number }[] = [];
      const charge = MemoryBudget.prototype.charge;
      const spy = vi.spyOn(MemoryBudget.prototype, 'charge').mockImplementation(function (this: InstanceType<typeof MemoryBudget>, bytes, ...rest) {
        charges.push({ budget: this, bytes });
        return charge.call(this, bytes, ...rest);
      });
      // Room for the warm-up's own ~54 kB too: only what the real decode allocates may count.
      const budget = new MemoryBudget(data.length + (1 << 20));
      expect(withBudget(budget, first)).toEqual(data);
      expect(budget.used).toBe(data.length);
      const warmed = charges.filter((c) => c.budget !== budget).map((c) => c.bytes);
      for (const size of warm) expect(warmed).toContain(size);
      // A second decode does not warm up again.
      charges.length = 0;
      expect(withBudget(budget, first)).toEqual(data);
      expect(charges.every((c) => c.budget === budget)).toBe(true);
      spy.mockRestore();
    }
  });
});
