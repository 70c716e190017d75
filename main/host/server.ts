/**
 * The browser host: the document service behind a local HTTP + WebSocket server, so the renderer
 * runs in an ordinary browser (end-to-end tests, machines without Electron).
 *
 * Security model: bound to 127.0.0.1 only; a random per-run token must accompany every API
 * request (header `x-lodsmith-token`) and every event socket (as a `Sec-WebSocket-Protocol`
 * value `lodsmith.token.<token>`, since a browser cannot set headers on a WebSocket). The token
 * reaches the page only in the printed address's fragment (`/#token=...`), which browsers never
 * send to a server; the page keeps it in sessionStorage. No cookie is set or read (cookies for
 * 127.0.0.1 reach every port of it, so another local service would learn them), and the token is
 * never written into served HTML. The page and its assets are the public renderer bundle and are
 * served without the token. The Host header must name the loopback address (no DNS rebinding); a
 * request from another origin is refused; bodies are size limited; files are confined to the root
 * folders (see roots.ts). Every refusal of the API is a 4xx with a one-line JSON error; nothing a
 * server answers ever carries a stack.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, relative, isAbsolute } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppError, DocSnapshot, EventChannel, EventMap, Result } from '../../shared/ipc/contract.ts';
import { fail } from '../documents/app-error.ts';
import { DocumentService, type GltfWriter } from '../documents/document-service.ts';
import { createDispatcher, type Dispatch } from '../ipc/handlers.ts';
import { RootPaths } from './roots.ts';
import { measureStage } from '../documents/stage-timing.ts';
import { ENVELOPE_TYPE, WireError, decodeEnvelope, encodeEnvelope, encodeEnvelopeParts } from '../../shared/ipc/wire.ts';

export interface HostOptions {
  /** Folders the renderer may read and write in. */
  roots: string[];
  configDir: string;
  samplePath?: string | null;
  /** The built renderer (index.html and assets); without it only the API is served. */
  rendererDir?: string | null;
  /** 0 or absent: a free port. */
  port?: number;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  /** Largest accepted request body (default 64 MiB). */
  maxRequestBytes?: number;
  version?: string;
  gltf?: GltfWriter;
  /** Files to open before serving (the command line's FILE). */
  open?: string[];
  /** Animation files to attach to the last file opened (the command line's `--anim`). */
  anims?: string[];
  log?: (line: string) => void;
}

export interface Host {
  /** The address to open, the token in its fragment (`http://127.0.0.1:PORT/#token=...`). */
  url: string;
  origin: string;
  port: number;
  token: string;
  service: DocumentService;
  dispatch: Dispatch;
  /** How many pages listen for events right now. */
  eventClients(): number;
  close(): Promise<void>;
}

export const TOKEN_HEADER = 'x-lodsmith-token';
/** Work put off until the answers are written runs after this long at the latest (a client that stops reading). */
const AFTER_ANSWER_MAX_MS = 1000;
/** The subprotocol the event socket speaks, and the prefix of the one that carries the token. */
export const WS_PROTOCOL = 'lodsmith';
export const WS_TOKEN_PREFIX = 'lodsmith.token.';

/** The HTTP status of an API answer that failed with `code`: refusals are 4xx, faults 5xx. */
export function statusOf(code: AppError['code']): number {
  switch (code) {
    case 'invalid': return 400;
    case 'denied': return 403;
    case 'not-found': return 404;
    case 'conflict': return 409;
    case 'decode':
    case 'encode': return 422;
    case 'io':
    case 'internal': return 500;
  }
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.wasm': 'application/wasm',
  '.map': 'application/json', '.txt': 'text/plain; charset=utf-8',
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function csp(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
    `connect-src 'self' ${ws}`, "worker-src 'self' blob:", "font-src 'self' data:", "object-src 'none'",
    "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/** Starts the host. Resolves once it listens; `close()` stops it and every connection. */
export async function startHost(opts: HostOptions): Promise<Host> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const maxBody = opts.maxRequestBytes ?? 64 << 20;
  const log = opts.log ?? (() => undefined);
  const paths = await RootPaths.create(opts.roots);
  const sockets = new Set<WebSocket>();

  const emit = <C extends EventChannel>(channel: C, payload: EventMap[C]) => {
    const frame = encodeEnvelope({ channel, payload });
    for (const s of sockets) if (s.readyState === s.OPEN) s.send(frame);
  };
  // Work the service puts off until its answer is out (a new document's problems) waits until no
  // answer is being written: a long task run while an answer's bytes are still queued on its
  // socket would hold the rest of them back. At most AFTER_ANSWER_MAX_MS, for a client that stops reading.
  const writing = new Set<ServerResponse>();
  let later: (() => void)[] = [];
  let laterTimer: ReturnType<typeof setTimeout> | undefined;
  const runLater = (force: boolean) => {
    if ((writing.size && !force) || !later.length) return;
    clearTimeout(laterTimer);
    laterTimer = undefined;
    const tasks = later;
    later = [];
    for (const t of tasks) {
      try {
        t();
      } catch (e) {
        log(`deferred work failed: ${(e as Error)?.stack ?? String(e)}`);
      }
    }
  };
  const afterAnswer = (task: () => void) => {
    later.push(task);
    setImmediate(() => runLater(false));
    laterTimer ??= setTimeout(() => runLater(true), AFTER_ANSWER_MAX_MS);
    laterTimer.unref?.();
  };
  const service = new DocumentService({
    configDir: opts.configDir, paths, emit, samplePath: opts.samplePath ?? null, ...(opts.gltf ? { gltf: opts.gltf } : {}),
    // The folders the user named are where a model's textures may be looked up (a P-drive, mods).
    textureRoots: () => paths.roots.map((r) => r.real),
    prefetchTextures: true,
    afterAnswer,
  });
  const notInBrowser = async (): Promise<never> =>
    fail('invalid', 'Native file dialogs are not available in the browser; pick a file from the folder list');
  const dispatch = createDispatcher(service, {
    host: 'browser', version: opts.version ?? '0.0.0', roots: () => paths.labels(), openDialog: notInBrowser, saveDialog: notInBrowser,
  }, (channel, e) => log(`internal error on ${channel}: ${(e as Error)?.stack ?? String(e)}`));

  let port = 0;
  let origin = '';
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  /** Sends a body given whole, or as parts written one after the other (an envelope's arrays). */
  function send(res: ServerResponse, status: number, body: string | Uint8Array | { parts: Uint8Array[]; length: number }, type = 'text/plain; charset=utf-8', headers: Record<string, string> = {}) {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    res.writeHead(status, {
      'content-type': type, 'content-length': String(length),
      'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store',
      'cross-origin-resource-policy': 'same-origin', 'x-frame-options': 'DENY', ...headers,
    });
    writing.add(res);
    const done = () => {
      if (writing.delete(res) && later.length) setImmediate(() => runLater(false));
    };
    res.once('finish', done);
    res.once('close', done);
    if (typeof body === 'string' || body instanceof Uint8Array) {
      res.end(body);
      return;
    }
    for (const p of body.parts) res.write(p);
    res.end();
  }

  /** A one-line JSON error (never a stack): every refusal and failure of the API. */
  function sendError(res: ServerResponse, status: number, error: AppError, headers: Record<string, string> = {}) {
    send(res, status, `${JSON.stringify({ ok: false, error } satisfies Result<never>)}\n`, 'application/json; charset=utf-8', headers);
  }

  /** The Host and Origin checks every request passes: 'ok', or the status to refuse with. */
  function sameSite(req: IncomingMessage): 'ok' | 403 {
    if (!allowedHosts().has(req.headers.host ?? '')) return 403;
    const o = req.headers.origin;
    if (o !== undefined && o !== origin && o !== origin.replace('127.0.0.1', 'localhost')) return 403;
    return 'ok';
  }

  /** 'ok', or the status to refuse with. The token counts only where it is given: no cookie, no query. */
  function authorize(req: IncomingMessage, given: string | undefined): 'ok' | 401 | 403 {
    if (sameSite(req) !== 'ok') return 403;
    if (!given) return 401;
    return sameSecret(given, token) ? 'ok' : 403;
  }

  /** The token offered as a WebSocket subprotocol (`lodsmith.token.<token>`). */
  function socketToken(req: IncomingMessage): string | undefined {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    return offered.find((p) => p.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length) || undefined;
  }

  async function readBody(req: IncomingMessage): Promise<Uint8Array | 'too-large'> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) return 'too-large';
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      total += c.length;
      if (total > maxBody) return 'too-large';
      chunks.push(c);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  async function api(req: IncomingMessage, res: ServerResponse, rawChannel: string) {
    let channel: string;
    try {
      channel = decodeURIComponent(rawChannel);
    } catch {
      return sendError(res, 400, { code: 'invalid', message: 'Malformed percent-encoding in the API path' });
    }
    if (req.method !== 'POST') return sendError(res, 405, { code: 'invalid', message: 'Use POST' }, { allow: 'POST' });
    const body = await readBody(req);
    if (body === 'too-large') {
      sendError(res, 413, { code: 'invalid', message: `The request is larger than the limit of ${maxBody} bytes` }, { connection: 'close' });
      req.destroy();
      return;
    }
    let payload: unknown;
    try {
      payload = body.length === 0 ? undefined : (decodeEnvelope(body) as { req?: unknown }).req;
    } catch (e) {
      return sendError(res, 400, { code: 'invalid', message: e instanceof WireError ? e.message : 'malformed request' });
    }
    const result = await dispatch(channel, payload);
    if (!result.ok) {
      // A refusal (4xx) or a failure (5xx) with a one-line JSON body: the AppError, no stack.
      const unknown = result.error.message.startsWith('Unknown channel');
      return sendError(res, unknown ? 404 : statusOf(result.error.code), result.error);
    }
    const started = performance.now();
    // In parts: the typed arrays of the answer (a scene's vertex arrays) go out as they are.
    const answer = encodeEnvelopeParts(result);
    measureStage('host:encode', started, { channel, bytes: answer.length });
    send(res, 200, answer, ENVELOPE_TYPE);
  }

  async function staticFile(res: ServerResponse, pathname: string) {
    const dir = opts.rendererDir;
    if (!dir) return send(res, 404, 'The renderer is not built; run npm run serve');
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'Bad path');
    }
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = normalize(join(dir, rel));
    const r = relative(dir, file);
    if (r.startsWith('..') || isAbsolute(r) || rel.includes('\0')) return send(res, 403, 'Forbidden');
    try {
      if (!(await stat(file)).isFile()) return send(res, 404, 'Not found');
    } catch {
      return send(res, 404, 'Not found');
    }
    let body: Uint8Array = await readFile(file);
    const headers: Record<string, string> = { 'content-security-policy': csp(origin) };
    if (extname(file) === '.html') {
      // The page's own CSP meta is written for the desktop app (file://, no network at all); here
      // the header above is the policy, with this host's one WebSocket address. The token is never
      // put into the page: it arrives in the address's fragment.
      body = Buffer.from(body.toString().replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''));
    } else {
      headers['cache-control'] = 'no-cache';
    }
    send(res, 200, body, MIME[extname(file)] ?? 'application/octet-stream', headers);
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname.startsWith('/api/')) {
        const auth = authorize(req, req.headers[TOKEN_HEADER] as string | undefined);
        if (auth === 401) return sendError(res, 401, { code: 'denied', message: 'A token is required (open the address printed by npm run serve)' });
        if (auth === 403) return sendError(res, 403, { code: 'denied', message: 'Forbidden: a wrong token, or a request from another site' });
        return api(req, res, url.pathname.slice(5));
      }
      // The page and its assets: the public renderer bundle, no token (the token never travels
      // to them), but still only for a loopback Host and our own origin.
      if (sameSite(req) !== 'ok') return send(res, 403, 'Forbidden');
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed');
      return staticFile(res, url.pathname);
    })().catch((e: unknown) => {
      log(`request failed: ${(e as Error)?.stack ?? String(e)}`);
      if (!res.headersSent) sendError(res, 500, { code: 'internal', message: 'Internal error' });
      else res.destroy();
    });
  });

  // The answer names the plain subprotocol, never the one carrying the token.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const auth = url.pathname === '/events' ? authorize(req, socketToken(req)) : 404;
    if (auth !== 'ok') {
      socket.end(`HTTP/1.1 ${auth} ${auth === 401 ? 'Unauthorized' : auth === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => sockets.delete(ws));
      // The socket only carries events to the page; anything the page sends is ignored.
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  server.requestTimeout = 120_000;

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  let opened: string | undefined;
  for (const f of opts.open ?? []) {
    const r = await dispatch('doc:open', { path: f });
    if (!r.ok) log(`could not open ${f}: ${r.error.message}`);
    else opened = (r.value as DocSnapshot).id;
  }
  for (const a of opts.anims ?? []) {
    if (!opened) {
      log(`could not attach ${a}: no model was opened`);
      break;
    }
    const r = await dispatch('doc:attachAnimation', { id: opened, path: a });
    if (!r.ok) log(`could not attach ${a}: ${r.error.message}`);
  }

  return {
    url: `${origin}/#token=${encodeURIComponent(token)}`,
    origin,
    port,
    token,
    service,
    dispatch,
    eventClients: () => sockets.size,
    async close() {
      clearTimeout(laterTimer);
      later = [];
      for (const s of sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
