/**
 * LodsmithApi over the browser host (`npm run serve`): invokes are HTTP POSTs to
 * `/api/<channel>`, events arrive over a WebSocket at `/events`. Both carry the per-run token:
 * the `x-lodsmith-token` header on HTTP, and a `Sec-WebSocket-Protocol` value on the socket
 * (a browser cannot set headers on a WebSocket). The page finds the token in its address's
 * fragment (`/#token=...`, never sent to a server), keeps it in sessionStorage (so a reload of
 * this tab still works, and no other site or port ever sees it) and removes it from the address.
 * No cookie carries it.
 *
 * Payloads travel as binary envelopes so typed arrays (scenes, bytes, screenshots) cross without
 * base64, in the format of shared/ipc/wire.ts (the host server uses the same module).
 */
import type { AppError, EventChannel, EventMap, InvokeChannel, LodsmithApi, Req, Res, Result } from '../../shared/ipc/contract.ts';
import { ENVELOPE_TYPE, decodeEnvelope, encodeEnvelope } from '../../shared/ipc/wire.ts';
import { markStage } from '../lib/stage-marks.ts';

const TOKEN_HEADER = 'x-lodsmith-token';
/** Must match main/host/server.ts. */
const WS_PROTOCOL = 'lodsmith';
const WS_TOKEN_PREFIX = 'lodsmith.token.';
/** The sessionStorage key the page keeps its token under. */
export const TOKEN_STORAGE_KEY = 'lodsmith-token';

/** Where the client finds the host; defaults come from the page. Tests pass their own. */
export interface HostClientOptions {
  /** `http://127.0.0.1:PORT`; default: the page's origin. */
  baseUrl?: string;
  token?: string;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
}

/**
 * The token from the address's fragment (`#token=...`), then kept in sessionStorage; the
 * fragment is removed from the address (history.replaceState) so the token does not linger in
 * the address bar, bookmarks or screenshots. Without a fragment, the token this tab stored before
 * (a reload). Empty when neither: the host then refuses every request with a message that says
 * to open the printed address.
 */
export function pageToken(): string {
  if (typeof location === 'undefined') return '';
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('token');
  if (fromUrl) {
    fragment.delete('token');
    const rest = fragment.toString();
    try {
      history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    } catch {
      /* not allowed here: keep the address as it is */
    }
    try {
      sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      /* storage disabled: this page still works until it is reloaded */
    }
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
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
      msg = decodeEnvelope(new Uint8Array(data), { share: true }) as typeof msg;
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
    const url = `${base.replace(/^http/, 'ws')}/events`;
    const s = new WS(url, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${token}`]);
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
      markStage(`invoke:${channel}:sent`);
      try {
        res = await doFetch(`${base}/api/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { [TOKEN_HEADER]: token, 'content-type': ENVELOPE_TYPE },
          body: encodeEnvelope({ req }) as Uint8Array<ArrayBuffer>,
        });
      } catch {
        return { ok: false, error: unreachable };
      }
      if (res.status === 401) {
        return { ok: false, error: { code: 'denied', message: 'The host refused the request: open the address (with its token) that `npm run serve` printed' } };
      }
      // Refusals and failures come as a one-line JSON error with a 4xx or 5xx status.
      if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
        try {
          const r = (await res.json()) as Result<Res<C>>;
          if (r && typeof r === 'object' && r.ok === false && r.error && typeof r.error.message === 'string') return r;
        } catch {
          /* fall through */
        }
        return { ok: false, error: { code: 'internal', message: `Unexpected answer from the host (HTTP ${res.status})` } };
      }
      try {
        const body = new Uint8Array(await res.arrayBuffer());
        markStage(`invoke:${channel}:received`);
        // The response buffer is this call's alone: its arrays can be views into it.
        const decoded = decodeEnvelope(body, { share: true }) as Result<Res<C>>;
        markStage(`invoke:${channel}:decoded`);
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
