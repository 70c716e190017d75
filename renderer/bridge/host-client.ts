/**
 * LodsmithApi over the browser host (`npm run serve`): invokes are HTTP POSTs to
 * `/api/<channel>`, events arrive over a WebSocket at `/events`. Both carry the per-run token,
 * which the page finds in its URL (`?token=`) or in the `<meta name="lodsmith-token">` the host
 * injects into index.html.
 *
 * Payloads travel as binary envelopes so typed arrays (scenes, bytes, screenshots) cross without
 * base64. The format is described in main/host/wire.ts; this file carries its own copy of the
 * codec because the renderer cannot import main/, and a test checks the two against each other.
 */
import type { AppError, EventChannel, EventMap, InvokeChannel, LodsmithApi, Req, Res, Result } from '../../shared/ipc/contract.ts';

const MAGIC = [0x4c, 0x53, 0x57, 0x31]; // LSW1
const ENVELOPE_TYPE = 'application/x-lodsmith-envelope';
const TOKEN_HEADER = 'x-lodsmith-token';

const TYPED = {
  Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;
const TYPED_NAMES = Object.keys(TYPED) as TypedName[];
const align8 = (n: number) => (n + 7) & ~7;

function typedName(v: unknown): TypedName | undefined {
  if (!ArrayBuffer.isView(v) || v instanceof DataView) return undefined;
  return TYPED_NAMES.find((n) => v instanceof TYPED[n]);
}

/** Encodes a value as a host envelope (see main/host/wire.ts). */
export function encodeEnvelope(value: unknown): Uint8Array {
  const blobs: Typed[] = [];
  let blobBytes = 0;
  const json = JSON.stringify(value === undefined ? null : value, function (this: unknown, key: string, v: unknown) {
    // The holder's own value: toJSON (Node Buffer has one) has already run on `v`.
    const original = (this as Record<string, unknown>)[key];
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return { $num: 'NaN' };
      if (v === Infinity) return { $num: 'Infinity' };
      if (v === -Infinity) return { $num: '-Infinity' };
      if (Object.is(v, -0)) return { $num: '-0' };
      return v;
    }
    const t = typedName(original);
    if (t) {
      const arr = original as Typed;
      const o = blobBytes;
      blobs.push(arr);
      blobBytes = align8(blobBytes + arr.byteLength);
      return { $typed: t, o, n: arr.byteLength };
    }
    return v;
  });
  const text = new TextEncoder().encode(json);
  const head = align8(8 + text.length);
  const out = new Uint8Array(head + blobBytes);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, text.length, true);
  out.set(text, 8);
  let o = head;
  for (const b of blobs) {
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), o);
    o = align8(o + b.byteLength);
  }
  return out;
}

/** Decodes a host envelope; throws on anything malformed. */
export function decodeEnvelope(bytes: Uint8Array): unknown {
  if (bytes.length < 8 || MAGIC.some((m, i) => bytes[i] !== m)) throw new Error('not a LodSmith envelope');
  const len = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (8 + len > bytes.length) throw new Error('envelope JSON runs past the end');
  const blobs = bytes.subarray(Math.min(bytes.length, align8(8 + len)));
  const nums: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
  return JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len)), (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as { $typed?: unknown; $num?: unknown; o?: unknown; n?: unknown };
      if (typeof o.$typed === 'string') {
        const Ctor = Object.hasOwn(TYPED, o.$typed) ? TYPED[o.$typed as TypedName] : undefined;
        const off = o.o;
        const n = o.n;
        if (!Ctor || typeof off !== 'number' || typeof n !== 'number' || off < 0 || n < 0 || off + n > blobs.length || n % Ctor.BYTES_PER_ELEMENT !== 0) {
          throw new Error('bad typed array reference in envelope');
        }
        return new Ctor(blobs.slice(off, off + n).buffer, 0, n / Ctor.BYTES_PER_ELEMENT);
      }
      if (typeof o.$num === 'string' && o.$num in nums) return nums[o.$num];
    }
    return v;
  });
}

/** Where the client finds the host; defaults come from the page. Tests pass their own. */
export interface HostClientOptions {
  /** `http://127.0.0.1:PORT`; default: the page's origin. */
  baseUrl?: string;
  token?: string;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
}

/**
 * The token from `?token=` or from the meta tag the host injects. A token found in the address
 * is then removed from it (history.replaceState), so it does not linger in the address bar,
 * bookmarks or screenshots; a reload still works because the host serves the page again with
 * the meta tag.
 */
function pageToken(): string {
  if (typeof location !== 'undefined') {
    const url = new URL(location.href);
    const fromUrl = url.searchParams.get('token');
    if (fromUrl) {
      url.searchParams.delete('token');
      try {
        history.replaceState(history.state, '', url.pathname + url.search + url.hash);
      } catch {
        /* not allowed here: keep the address as it is */
      }
      return fromUrl;
    }
  }
  if (typeof document !== 'undefined') {
    return document.querySelector('meta[name="lodsmith-token"]')?.getAttribute('content') ?? '';
  }
  return '';
}

const unreachable: AppError = { code: 'io', message: 'The LodSmith host is not reachable (was `npm run serve` stopped?)' };

/** The LodsmithApi of a page served by the browser host. */
export function createHostClient(options: HostClientOptions = {}): LodsmithApi & { dispose(): void } {
  const base = options.baseUrl ?? (typeof location !== 'undefined' ? location.origin : 'http://127.0.0.1');
  const token = options.token ?? pageToken();
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const WS = options.WebSocket ?? (typeof WebSocket !== 'undefined' ? WebSocket : undefined);
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  let socket: WebSocket | undefined;
  let disposed = false;
  let retry = 250;

  function deliver(data: ArrayBuffer): void {
    let msg: { channel?: EventChannel; payload?: unknown };
    try {
      msg = decodeEnvelope(new Uint8Array(data)) as typeof msg;
    } catch {
      return;
    }
    if (!msg.channel) return;
    for (const l of listeners.get(msg.channel) ?? []) {
      try {
        (l as (p: unknown) => void)(msg.payload);
      } catch (e) {
        console.error(`listener for ${msg.channel} failed`, e);
      }
    }
  }

  function connect(): void {
    if (!WS || disposed) return;
    const url = `${base.replace(/^http/, 'ws')}/events?token=${encodeURIComponent(token)}`;
    const s = new WS(url);
    s.binaryType = 'arraybuffer';
    s.onopen = () => {
      retry = 250;
    };
    s.onmessage = (ev: MessageEvent) => {
      if (ev.data instanceof ArrayBuffer) deliver(ev.data);
    };
    s.onclose = () => {
      if (socket === s) socket = undefined;
      // The host restarting (or a laptop waking up) should not need a page reload.
      if (!disposed) setTimeout(connect, (retry = Math.min(retry * 2, 5000)));
    };
    socket = s;
  }
  connect();

  return {
    async invoke<C extends InvokeChannel>(channel: C, req: Req<C>): Promise<Result<Res<C>>> {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { [TOKEN_HEADER]: token, 'content-type': ENVELOPE_TYPE },
          body: encodeEnvelope({ req }) as Uint8Array<ArrayBuffer>,
        });
      } catch {
        return { ok: false, error: unreachable };
      }
      if (res.status === 401 || res.status === 403) {
        return { ok: false, error: { code: 'denied', message: 'The host refused the request: open the address (with its token) that `npm run serve` printed' } };
      }
      try {
        const decoded = decodeEnvelope(new Uint8Array(await res.arrayBuffer())) as Result<Res<C>>;
        if (decoded && typeof decoded === 'object' && 'ok' in decoded) return decoded;
      } catch {
        /* fall through */
      }
      return { ok: false, error: { code: 'internal', message: `Unexpected answer from the host (HTTP ${res.status})` } };
    },
    on<C extends EventChannel>(channel: C, listener: (payload: EventMap[C]) => void): () => void {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    dispose() {
      disposed = true;
      socket?.close();
    },
  };
}
