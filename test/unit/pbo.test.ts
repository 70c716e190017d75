/**
 * The PBO reader on archives this test builds (test/helpers/pbo.ts): header properties, stored
 * and LZSS entries expanded to exactly their original bytes, OFP's method-0 compression, the
 * header read from a prefix, and obfuscated or damaged archives: what can be read is listed, the
 * rest is refused with a reason, bad headers are one DecodeError with offset and path.
 */
import { describe, expect, it } from 'vitest';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { entryBytes, METHOD_ENCR, parsePbo, PboNeedMore, pboPattern, probePbo } from '../../shared/formats/pbo/pbo.ts';
import { expectDecodeError } from '../helpers/bad-input.ts';
import { buildPbo, text } from '../helpers/pbo.ts';

const big = new Uint8Array(50_000).map((_, i) => (i % 97 < 50 ? 65 + (i % 7) : (i * 31) & 255));

function archive(): Uint8Array {
  return buildPbo(
    [
      { name: 'config.cpp', data: text('class CfgPatches {};\n'), timestamp: 1_600_000_000 },
      { name: 'data\\box.p3d', data: big, compress: true },
      { name: 'data\\box_co.paa', data: big.subarray(0, 1234) },
    ],
    { properties: [['prefix', 'z\\mod\\addons\\box'], ['product', 'arma3'], ['version', '1.2']] },
  );
}

describe('PBO', () => {
  it('header properties, entries with sizes and times, data that agrees byte for byte', () => {
    const bytes = archive();
    expect(probePbo(bytes)).toBe(true);
    const a = parsePbo(bytes);
    expect(a.prefix).toBe('z\\mod\\addons\\box');
    expect(a.properties).toEqual([['prefix', 'z\\mod\\addons\\box'], ['product', 'arma3'], ['version', '1.2']]);
    expect(a.entries.map((e) => [e.name, e.packing, e.size])).toEqual([
      ['config.cpp', 'stored', 21],
      ['data\\box.p3d', 'lzss', 50_000],
      ['data\\box_co.paa', 'stored', 1234],
    ]);
    expect(a.entries[0]!.timestamp).toBe(1_600_000_000);
    expect(a.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(a.notes).toEqual([]);
    // The entries' data lies end to end after the header, each its stored size.
    expect(a.entries[1]!.dataOffset).toBe(a.entries[0]!.dataOffset + 21);
    expect(a.dataEnd).toBe(bytes.length - 21);
    const read = (i: number): Uint8Array => {
      const e = a.entries[i]!;
      return entryBytes(e, bytes.subarray(e.dataOffset, e.dataOffset + e.dataSize));
    };
    expect(new TextDecoder().decode(read(0))).toBe('class CfgPatches {};\n');
    expect(a.entries[1]!.dataSize).toBeLessThan(50_000);
    expect(Buffer.from(read(1)).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(read(2)).equals(Buffer.from(big.subarray(0, 1234)))).toBe(true);
  });

  it('an OFP archive: no product entry, method 0 with an original size means compressed', () => {
    const bytes = buildPbo([{ name: 'a.p3d', data: big, compress: true, method: 0 }], { sha1: false });
    const a = parsePbo(bytes);
    expect(a.properties).toEqual([]);
    expect(a.entries[0]!.packing).toBe('lzss');
    expect(a.sha1).toBeUndefined();
    const e = a.entries[0]!;
    expect(entryBytes(e, bytes.subarray(e.dataOffset, e.dataOffset + e.dataSize)).length).toBe(50_000);
  });

  it('the header parses from a prefix; a prefix ending inside it asks for more', () => {
    const bytes = archive();
    const whole = parsePbo(bytes);
    const head = bytes.subarray(0, whole.dataStart);
    expect(parsePbo(head, bytes.length).entries.map((e) => e.dataOffset)).toEqual(whole.entries.map((e) => e.dataOffset));
    expect(() => parsePbo(bytes.subarray(0, 40), bytes.length)).toThrow(PboNeedMore);
  });

  it('a compressed entry is expanded under the memory budget and a broken stream is a DecodeError at its offset', () => {
    const bytes = archive();
    const a = parsePbo(bytes);
    const e = a.entries[1]!;
    const stored = bytes.slice(e.dataOffset, e.dataOffset + e.dataSize);
    expect(() => withBudget(new MemoryBudget(10_000), () => entryBytes(e, stored))).toThrow(BudgetError);
    stored[stored.length - 2]! ^= 0xff; // the checksum
    const err = expectDecodeError(() => entryBytes(e, stored));
    expect(err.path).toBe('entries/data\\box.p3d');
    expect(err.offset).toBeGreaterThanOrEqual(e.dataOffset);
    expect(err.detail).toMatch(/^compressed entry: /);
  });

  it('obfuscated and encrypted entries are listed with the reason and refused; the others still read', () => {
    const bytes = buildPbo(
      [
        { name: 'good.p3d', data: big.subarray(0, 100) },
        { name: 'bad\u0001name.p3d', data: big.subarray(0, 10) },
        { name: '..\\..\\evil.p3d', data: big.subarray(0, 10) },
        { name: 'GOOD.p3d', data: big.subarray(0, 10) },
        { name: 'secret.p3d', data: big.subarray(0, 10), method: METHOD_ENCR },
        { name: 'bomb.p3d', data: big.subarray(0, 10), compress: true, originalSize: 0x7fffffff },
        { name: 'odd.p3d', data: big.subarray(0, 10), method: 0x12345678 },
      ],
      { properties: [['prefix', 'x']] },
    );
    const a = parsePbo(bytes);
    const why = Object.fromEntries(a.entries.map((e) => [e.name, e.unreadable ?? 'ok']));
    expect(why['good.p3d']).toBe('ok');
    expect(why['bad\u0001name.p3d']).toMatch(/control characters/);
    expect(why['..\\..\\evil.p3d']).toMatch(/leaves the archive/);
    expect(why['GOOD.p3d']).toMatch(/used by an earlier entry/);
    expect(why['secret.p3d']).toMatch(/encrypted/);
    expect(why['bomb.p3d']).toMatch(/more than its \d+ compressed bytes can hold/);
    expect(why['odd.p3d']).toMatch(/method 0x12345678 is unknown/);
    expect(a.notes).toContain('6 of 7 entries cannot be read');
    const good = a.entries[0]!;
    expect(entryBytes(good, bytes.subarray(good.dataOffset, good.dataOffset + good.dataSize)).length).toBe(100);
    const evil = a.entries[2]!;
    expect(expectDecodeError(() => entryBytes(evil, bytes.subarray(evil.dataOffset, evil.dataOffset + evil.dataSize))).detail).toMatch(/^cannot read/);
  });

  it('data past the end of the file: the entries before it read, the rest are refused', () => {
    const bytes = buildPbo([{ name: 'a.p3d', data: big.subarray(0, 100) }, { name: 'b.p3d', data: big.subarray(0, 100) }], { sha1: false });
    const a = parsePbo(bytes.subarray(0, bytes.length - 50));
    expect(a.entries[0]!.unreadable).toBeUndefined();
    expect(a.entries[1]!.unreadable).toMatch(/runs past the end of the archive/);
  });

  it('a broken header is one DecodeError with offset and node path; every cut fails cleanly', () => {
    const bytes = archive();
    const a = parsePbo(bytes);
    for (let cut = 1; cut < a.dataStart; cut += 3) {
      const e = expectDecodeError(() => parsePbo(bytes.subarray(0, cut)));
      expect(e.offset).toBeLessThanOrEqual(cut);
      expect(e.path).toMatch(/^(header|properties)\[\d+\]/);
    }
    const long = new Uint8Array(3000).fill(65);
    expect(expectDecodeError(() => parsePbo(long)).detail).toMatch(/longer than 1024 bytes/);
  });

  it('patterns: * within a folder, ** across, names without a folder match anywhere, case-insensitive', () => {
    expect(pboPattern('*.p3d')('data\\Box.P3D')).toBe(true);
    expect(pboPattern('data\\*.p3d')('data\\box.p3d')).toBe(true);
    expect(pboPattern('data/*.p3d')('data\\sub\\box.p3d')).toBe(false);
    expect(pboPattern('data/**.p3d')('data\\sub\\box.p3d')).toBe(true);
    expect(pboPattern('config.cpp')('config.cpp')).toBe(true);
    expect(pboPattern('config.cpp')('xconfig.cpp')).toBe(false);
  });
});
