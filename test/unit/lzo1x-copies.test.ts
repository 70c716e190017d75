import { describe, expect, it } from 'vitest';
import { lzo1xDecompress } from '../../shared/binary/lzo1x.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';

// The decoder copies short literal runs and matches 4 bytes per step, long ones natively, runs of
// one byte with fill, and overlapping matches of distance 2 or 3 byte by byte. These hand-built
// streams reach each of those paths, the lengths around the thresholds, and the ends of both
// buffers, and compare the output with a byte-at-a-time expansion of the same instructions.

interface Built {
  stream: Uint8Array;
  expected: Uint8Array;
  /** Offset of each instruction's first byte, in the order they were added. */
  starts: number[];
}

function pattern(n: number, seed: number): number[] {
  const a: number[] = [];
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    a.push(x >>> 24);
  }
  return a;
}

/** A stream builder: literal runs of 4 or more bytes and M3 matches (length >= 3, distance <= 16384). */
function builder(): {
  lit: (data: number[]) => void;
  match: (len: number, dist: number, trailing?: number[]) => void;
  done: (marker?: boolean) => Built;
} {
  const bytes: number[] = [];
  const out: number[] = [];
  const starts: number[] = [];
  const ext = (rem: number): void => {
    while (rem > 255) {
      bytes.push(0);
      rem -= 255;
    }
    bytes.push(rem);
  };
  return {
    lit(data) {
      starts.push(bytes.length);
      const n = data.length;
      if (n < 4) throw new Error('literal runs here are 4 bytes or more');
      if (n <= 18) bytes.push(n - 3);
      else {
        bytes.push(0);
        ext(n - 18);
      }
      bytes.push(...data);
      out.push(...data);
    },
    match(len, dist, trailing = []) {
      starts.push(bytes.length);
      if (len < 3 || dist < 1 || dist > 16384 || trailing.length > 3) throw new Error('not an M3 match');
      if (len <= 33) bytes.push(32 | (len - 2));
      else {
        bytes.push(32);
        ext(len - 33);
      }
      const d = dist - 1;
      bytes.push(((d & 0x3f) << 2) | trailing.length, d >> 6);
      bytes.push(...trailing);
      for (let k = 0; k < len; k++) out.push(out[out.length - dist] ?? 0);
      out.push(...trailing);
    },
    done(marker = true) {
      if (marker) bytes.push(0x11, 0, 0);
      return { stream: Uint8Array.from(bytes), expected: Uint8Array.from(out), starts };
    },
  };
}


function expectDecodes(b: Built): void {
  const r = lzo1xDecompress(b.stream, 0, b.expected.length);
  expect(r.consumed).toBe(b.stream.length);
  expect(Buffer.from(r.data).equals(Buffer.from(b.expected))).toBe(true);
}

const LENGTHS = [3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 31, 32, 33, 40, 63, 64, 65, 100, 300];

describe('LZO1X match copies', () => {
  it.each([1, 2, 3, 4, 5, 7, 8, 13])('overlapping matches of distance %i, every length path', (dist) => {
    for (const len of LENGTHS) {
      const b = builder();
      b.lit(pattern(16, dist * 1000 + len));
      b.match(len, dist);
      b.lit(pattern(5, len));
      b.match(len, dist, [9, 8]);
      b.match(len, dist + 1, [7]);
      b.match(len, dist);
      b.lit(pattern(6, 3));
      expectDecodes(b.done());
    }
  });

  it('matches farther back than they are long, around the native-copy threshold', () => {
    for (const len of LENGTHS) {
      const b = builder();
      b.lit(pattern(400, len));
      b.match(len, len + 1);
      b.match(len, 390, [1, 2, 3]);
      b.match(len, 2);
      b.lit(pattern(4, 1));
      b.match(len, len);
      expectDecodes(b.done());
    }
  });

  it('a match or trailing literals that end exactly at the expected size', () => {
    for (const dist of [1, 2, 3, 4, 6, 40]) {
      for (const len of [3, 4, 5, 6, 7, 8, 15, 16, 17, 33]) {
        for (const trailing of [[], [5], [5, 6], [5, 6, 7]]) {
          const b = builder();
          b.lit(pattern(40, len + dist));
          b.match(len, dist, trailing);
          expectDecodes(b.done());
        }
      }
    }
  });

  it('a stream inside a larger buffer, at an odd offset of a view with a byte offset', () => {
    const b = builder();
    b.lit(pattern(37, 1));
    b.match(11, 5, [1]);
    b.match(50, 30);
    b.lit(pattern(9, 2));
    b.match(6, 3, [1, 2, 3]);
    const built = b.done();
    const backing = new Uint8Array(built.stream.length + 20).fill(0xee);
    backing.set(built.stream, 8);
    const view = backing.subarray(3, 3 + built.stream.length + 9);
    const r = lzo1xDecompress(view, 5, built.expected.length);
    expect(r.consumed).toBe(built.stream.length);
    expect(Buffer.from(r.data).equals(Buffer.from(built.expected))).toBe(true);
  });
});

describe('LZO1X literal copies', () => {
  it('literal runs of every length around the native-copy threshold', () => {
    for (let n = 4; n <= 80; n++) {
      const b = builder();
      b.lit(pattern(n, n));
      b.match(4, 2);
      b.lit(pattern(n, n + 1));
      b.match(3, n, [1, 2]);
      expectDecodes(b.done());
    }
    const b = builder();
    b.lit(pattern(1000, 7));
    b.match(4, 1000);
    b.lit(pattern(300, 8));
    expectDecodes(b.done());
  });

  it('a literal run that ends exactly at the expected size and the end of the input', () => {
    for (const n of [4, 5, 7, 8, 31, 32, 33]) {
      const b = builder();
      b.lit(pattern(8, n));
      b.match(3, 8);
      b.lit(pattern(n, n));
      const built = b.done();
      expectDecodes(built);
      // Without the end marker the run ends at the last byte of the input; the decoder then
      // wants the marker, which is missing.
      const cut = built.stream.subarray(0, built.stream.length - 3);
      const e = expectDecodeError(() => lzo1xDecompress(cut, 0, built.expected.length));
      expect(e.offset).toBe(cut.length);
    }
  });
});

describe('LZO1X copies that would cross an end', () => {
  it('a match longer than the output left is a DecodeError at the match', () => {
    for (const dist of [1, 2, 3, 4, 9]) {
      for (const len of [3, 4, 5, 8, 16, 17, 40]) {
        const b = builder();
        b.lit(pattern(20, len));
        b.match(len, dist);
        const built = b.done();
        for (const short of [1, 2, 3, 4]) {
          const size = built.expected.length - short;
          if (size < 20) continue;
          const e = expectDecodeError(() => lzo1xDecompress(built.stream, 0, size));
          expect(e.offset).toBe(built.starts[1]);
          expect(e.detail).toMatch(/overflows the output/);
        }
      }
    }
  });

  it('trailing literals past the output or past the input are a DecodeError', () => {
    for (const trailing of [[1], [1, 2], [1, 2, 3]]) {
      const b = builder();
      b.lit(pattern(12, 1));
      b.match(5, 4, trailing);
      const built = b.done();
      const e = expectDecodeError(() => lzo1xDecompress(built.stream, 0, built.expected.length - 1));
      expect(e.offset).toBe(built.starts[1]);
      expect(e.detail).toMatch(/trailing literals overflow the output/);
      const cut = built.stream.subarray(0, built.stream.length - 4);
      const f = expectDecodeError(() => lzo1xDecompress(cut, 0, built.expected.length));
      expect(f.offset).toBe(built.starts[1]);
      expect(f.detail).toMatch(/trailing literals run past the input/);
    }
  });

  it('a literal run longer than the output left or than the input is a DecodeError at the run', () => {
    for (const n of [4, 7, 8, 9, 31, 32, 33, 100]) {
      const b = builder();
      b.lit(pattern(6, n));
      b.match(3, 6);
      b.lit(pattern(n, n));
      const built = b.done();
      for (const short of [1, 3, 4]) {
        const e = expectDecodeError(() => lzo1xDecompress(built.stream, 0, built.expected.length - short));
        expect(e.offset).toBe(built.starts[2]);
        expect(e.detail).toMatch(/overflows the output/);
      }
      for (const cutBy of [4, 5, 6]) {
        const cut = built.stream.subarray(0, built.stream.length - cutBy);
        const e = expectDecodeError(() => lzo1xDecompress(cut, 0, built.expected.length));
        expect(e.offset).toBe(built.starts[2]);
        expect(e.detail).toMatch(/runs past the input/);
      }
    }
  });

  it('a stream that ends inside a match instruction is a DecodeError, never another exception', () => {
    const b = builder();
    b.lit(pattern(30, 3));
    b.match(12, 7, [1, 2]);
    b.match(40, 1);
    b.lit(pattern(33, 4));
    const built = b.done();
    for (let cut = 0; cut < built.stream.length; cut++) {
      expectDecodeError(() => lzo1xDecompress(built.stream.subarray(0, cut), 0, built.expected.length));
    }
  });
});
