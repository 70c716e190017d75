import { describe, expect, it } from 'vitest';
import * as server from '../../shared/ipc/wire.ts';
import { joinBytes } from '../../shared/binary/writer.ts';

// Host and page share one codec module; the pairs below still read as host -> page and back.
const client = server;

const sample = () => ({
  channel: 'doc:scene',
  payload: {
    positions: new Float32Array([1.5, -2, NaN]),
    indices: new Uint32Array([0, 1, 2, 4294967295]),
    joints: new Uint16Array([1, 2, 3]),
    bytes: new Uint8Array([0, 255, 7]),
    odd: new Int8Array([-1]),
    f64: new Float64Array([Math.PI]),
    nested: [{ value: NaN }, { value: -0 }, { value: Infinity }, { value: -Infinity }, { value: 3 }],
    text: 'žluťoučký "kůň" $typed',
    nothing: null,
    empty: new Uint8Array(0),
  },
});

describe('host wire envelopes', () => {
  for (const [from, to] of [[server, client]] as const) {
    it(`round-trips typed arrays and non-JSON numbers (${from === server ? 'host' : 'page'} -> ${to === server ? 'host' : 'page'})`, () => {
      const back = to.decodeEnvelope(from.encodeEnvelope(sample())) as ReturnType<typeof sample>;
      const p = back.payload;
      expect(p.positions).toBeInstanceOf(Float32Array);
      expect([...p.positions]).toEqual([1.5, -2, NaN]);
      expect(p.indices).toEqual(new Uint32Array([0, 1, 2, 4294967295]));
      expect(p.joints).toEqual(new Uint16Array([1, 2, 3]));
      expect(p.bytes).toEqual(new Uint8Array([0, 255, 7]));
      expect(p.odd).toEqual(new Int8Array([-1]));
      expect(p.f64[0]).toBe(Math.PI);
      expect(p.nested.map((n) => n.value)).toEqual([NaN, -0, Infinity, -Infinity, 3]);
      expect(Object.is(p.nested[1]!.value, -0)).toBe(true);
      expect(p.text).toBe('žluťoučký "kůň" $typed');
      expect(p.nothing).toBeNull();
      expect(p.empty).toEqual(new Uint8Array(0));
    });
  }

  it('encodes views into a larger buffer by their own bytes only', () => {
    const big = new Uint8Array([9, 9, 1, 2, 3, 9]);
    const back = server.decodeEnvelope(client.encodeEnvelope({ b: big.subarray(2, 5), f: new Float32Array(big.buffer, 0, 1) })) as { b: Uint8Array; f: Float32Array };
    expect(back.b).toEqual(new Uint8Array([1, 2, 3]));
    expect(back.f.length).toBe(1);
  });

  it('sends Node Buffers as Uint8Array', () => {
    const back = client.decodeEnvelope(server.encodeEnvelope({ b: Buffer.from([1, 2]) })) as { b: Uint8Array };
    expect(back.b).toBeInstanceOf(Uint8Array);
    expect([...back.b]).toEqual([1, 2]);
  });

  it('refuses malformed envelopes without crashing', () => {
    const good = server.encodeEnvelope({ a: new Uint8Array(4) });
    expect(() => server.decodeEnvelope(new Uint8Array([1, 2, 3]))).toThrow(server.WireError);
    expect(() => server.decodeEnvelope(good.subarray(0, 10))).toThrow(server.WireError);
    const lying = new TextEncoder().encode('{"a":{"$typed":"Float32Array","o":0,"n":4096}}');
    const env = new Uint8Array(8 + lying.length);
    env.set([0x4c, 0x53, 0x57, 0x31]);
    new DataView(env.buffer).setUint32(4, lying.length, true);
    env.set(lying, 8);
    expect(() => server.decodeEnvelope(env)).toThrow(/bad typed array/);
    const badType = new TextEncoder().encode('{"a":{"$typed":"Function","o":0,"n":0}}');
    const env2 = new Uint8Array(8 + badType.length);
    env2.set([0x4c, 0x53, 0x57, 0x31]);
    new DataView(env2.buffer).setUint32(4, badType.length, true);
    env2.set(badType, 8);
    expect(() => server.decodeEnvelope(env2)).toThrow(server.WireError);
  });
});

describe('envelope parts and shared decoding', () => {
  it('parts concatenate to the very bytes of encodeEnvelope, arrays written from their own memory', () => {
    const value = sample();
    const { parts, length } = server.encodeEnvelopeParts(value);
    const whole = server.encodeEnvelope(value);
    expect(length).toBe(whole.length);
    expect(joinBytes(parts)).toEqual(whole);
    // The vertex array is not copied: a part is a view of its memory.
    expect(parts.some((p) => p.buffer === value.payload.positions.buffer)).toBe(true);
    // A value without arrays is one part.
    expect(server.encodeEnvelopeParts({ ok: true, value: [1, NaN] }).parts).toHaveLength(1);
  });

  it('shared decoding gives views into the envelope for aligned arrays, with the same values', () => {
    const env = server.encodeEnvelope(sample());
    const back = client.decodeEnvelope(env, { share: true }) as ReturnType<typeof sample>;
    const p = back.payload;
    for (const a of [p.positions, p.indices, p.joints, p.bytes, p.f64]) expect(a.buffer).toBe(env.buffer);
    expect([...p.positions]).toEqual([1.5, -2, NaN]);
    expect(p.indices).toEqual(new Uint32Array([0, 1, 2, 4294967295]));
    expect(p.joints).toEqual(new Uint16Array([1, 2, 3]));
    expect(p.f64[0]).toBe(Math.PI);
    expect(p.empty).toEqual(new Uint8Array(0));
    // Views do not overlap: writing one leaves the others alone.
    p.joints.fill(9);
    expect(p.indices).toEqual(new Uint32Array([0, 1, 2, 4294967295]));
    // Without the option every array owns its buffer.
    const copied = client.decodeEnvelope(env) as ReturnType<typeof sample>;
    expect(copied.payload.positions.buffer).not.toBe(env.buffer);
  });

  it('shared decoding copies an array whose offset is not aligned for its type', () => {
    const env = server.encodeEnvelope({ f: new Float32Array([1, 2, 3]) });
    // The same envelope one byte into a larger buffer: the array cannot be a view there.
    const shifted = new Uint8Array(env.length + 1);
    shifted.set(env, 1);
    const back = client.decodeEnvelope(shifted.subarray(1), { share: true }) as { f: Float32Array };
    expect(back.f).toEqual(new Float32Array([1, 2, 3]));
    expect(back.f.buffer).not.toBe(shifted.buffer);
  });

  it('shared decoding refuses references past the end and bad types as before', () => {
    const make = (json: string) => {
      const text = new TextEncoder().encode(json);
      const env = new Uint8Array(((8 + text.length + 7) & ~7) + 8);
      env.set([0x4c, 0x53, 0x57, 0x31]);
      new DataView(env.buffer).setUint32(4, text.length, true);
      env.set(text, 8);
      return env;
    };
    expect(() => client.decodeEnvelope(make('{"a":{"$typed":"Float32Array","o":0,"n":16}}'), { share: true })).toThrow(/bad typed array/);
    expect(() => client.decodeEnvelope(make('{"a":{"$typed":"Float32Array","o":4,"n":6}}'), { share: true })).toThrow(/bad typed array/);
    expect(() => client.decodeEnvelope(make('{"a":{"$typed":"Float32Array","o":-8,"n":4}}'), { share: true })).toThrow(/bad typed array/);
    expect(() => client.decodeEnvelope(make('{"a":{"$typed":"DataView","o":0,"n":4}}'), { share: true })).toThrow(server.WireError);
    expect(client.decodeEnvelope(make('{"a":{"$typed":"Float32Array","o":0,"n":8}}'), { share: true })).toEqual({ a: new Float32Array(2) });
  });
});
