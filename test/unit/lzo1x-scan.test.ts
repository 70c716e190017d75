/**
 * lzo1xScan checks a stream without writing its output (an ODOL decoder that defers expanding a
 * large array uses it): on every stream, good or damaged, it must agree with lzo1xDecompress
 * exactly — the same bytes taken, or the same error at the same offset — or a deferred array
 * could fail on its first read, or a bad file pass the decode.
 */
import { describe, expect, it } from 'vitest';
import { lzo1xCompress, lzo1xDecompress, lzo1xScan } from '../../shared/binary/lzo1x.ts';
import { DecodeError } from '../../shared/errors.ts';
import { sampleInputs } from './lzss-lzo-samples.ts';

type Outcome = { ok: true; consumed: number } | { ok: false; message: string; offset: number };

function outcome(f: () => number): Outcome {
  try {
    return { ok: true, consumed: f() };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { ok: false, message: e.message, offset: e.offset };
  }
}

const decompressed = (src: Uint8Array, at: number, size: number): Outcome => outcome(() => lzo1xDecompress(src, at, size).consumed);
const scanned = (src: Uint8Array, at: number, size: number): Outcome => outcome(() => lzo1xScan(src, at, size));

/** A small deterministic generator (the damaged streams are the same on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('lzo1xScan', () => {
  const streams = sampleInputs().map((s) => ({ name: s.name, data: s.data, packed: lzo1xCompress(s.data) }));

  it('takes the same bytes as the decoder on every sample stream, at an offset and with bytes after it', () => {
    expect(streams.length).toBeGreaterThan(3);
    for (const s of streams) {
      const padded = new Uint8Array(s.packed.length + 9);
      padded.set(s.packed, 5);
      expect(scanned(padded, 5, s.data.length), s.name).toEqual({ ok: true, consumed: s.packed.length });
      expect(decompressed(padded, 5, s.data.length), s.name).toEqual({ ok: true, consumed: s.packed.length });
    }
  });

  it('fails exactly as the decoder does on damaged streams: flipped bytes, cuts, wrong sizes', () => {
    const rand = rng(26);
    let failures = 0;
    let cases = 0;
    for (const s of streams) {
      const size = s.data.length;
      for (let k = 0, cap = size > 100_000 ? 30 : 300; k < cap; k++) {
        const bad = s.packed.slice();
        const kind = k % 3;
        let claimed = size;
        if (kind === 0) {
          for (let f = 0; f < 1 + (k % 4); f++) bad[Math.floor(rand() * bad.length)] = Math.floor(rand() * 256);
        } else if (kind === 1) {
          claimed = Math.max(0, size + Math.floor((rand() - 0.5) * 64));
        }
        const src = kind === 2 ? bad.subarray(0, Math.floor(rand() * bad.length)) : bad;
        const a = scanned(src, 0, claimed);
        const b = decompressed(src, 0, claimed);
        expect(a, `${s.name} case ${k}`).toEqual(b);
        cases++;
        if (!b.ok) failures++;
      }
    }
    // The damage was real: most cases fail, and the comparison covered failures and passes alike.
    expect(failures).toBeGreaterThan(cases / 2);
    expect(failures).toBeLessThan(cases);
  });

  it('allocates no output: a stream of a 64 MB run is checked without 64 MB', () => {
    const run = new Uint8Array(64 << 20).fill(7);
    const packed = lzo1xCompress(run);
    const before = process.memoryUsage().arrayBuffers;
    expect(lzo1xScan(packed, 0, run.length)).toBe(packed.length);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
  });
});
