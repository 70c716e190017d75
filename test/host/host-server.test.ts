import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeFile } from './fake-format.ts';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { startHost, type Host } from '../../main/host/server.ts';
import { decodeEnvelope, encodeEnvelope } from '../../shared/ipc/wire.ts';
import { createHostClient } from '../../renderer/bridge/host-client.ts';
import type { DocSnapshot, EventMap, OpenedDoc, Result } from '../../shared/ipc/contract.ts';
import type { Scene } from '../../shared/scene/scene.ts';

/** A one-LOD MLOD cube whose faces name `texture` (a drive-letter path breaks a modding rule). */
function mlodNaming(texture: string): Uint8Array {
  const c = cube(1);
  return encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) })]));
}

let base: string;
let root: string;
let outside: string;
let host: Host;
const LIMIT = 64 * 1024;
/** What the host logged (a stack may go to the log, never into a response). */
const logged: string[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP request, so headers (Host, Origin, token) are exactly what the test says. */
function raw(path: string, opts: { method?: string; headers?: Record<string, string>; body?: Uint8Array; hostname?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname: opts.hostname ?? '127.0.0.1', port: host.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** An answer's body as the client reads it: a binary envelope (success) or a one-line JSON error. */
function resultOf<T>(a: Answer): Result<T> | undefined {
  if (a.body.length && a.body.subarray(0, 4).toString() === 'LSW1') return decodeEnvelope(new Uint8Array(a.body)) as Result<T>;
  if (String(a.headers['content-type']).startsWith('application/json')) return JSON.parse(a.body.toString()) as Result<T>;
  return undefined;
}

async function call<T>(channel: string, req: unknown, headers: Record<string, string> = { 'x-lodsmith-token': host.token }): Promise<{ status: number; result?: Result<T>; answer: Answer }> {
  const a = await raw(`/api/${channel}`, { method: 'POST', headers, body: encodeEnvelope({ req }) });
  const result = resultOf<T>(a);
  return { status: a.status, answer: a, ...(result ? { result } : {}) };
}

/** A refusal as the issue asks for it: a 4xx, a JSON body on one line, no stack. */
function expectJsonRefusal(a: Answer, status: number, code?: string): void {
  expect(a.status).toBe(status);
  expect(String(a.headers['content-type'])).toMatch(/^application\/json/);
  const text = a.body.toString();
  expect(text.trimEnd().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(text) as { ok: boolean; error: { code: string; message: string } };
  expect(parsed.ok).toBe(false);
  if (code) expect(parsed.error.code).toBe(code);
  expect(text).not.toMatch(/\bat .+:\d+:\d+|Error:|node:internal/);
}

/** Opens a WebSocket to /events; resolves 'open' with the chosen subprotocol, or 'refused'. */
function socket(opts: { protocols?: string[]; query?: string; headers?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve) => {
    const url = `${host.origin.replace('http', 'ws')}/events${opts.query ?? ''}`;
    if (opts.headers) {
      // A raw upgrade, so a Cookie header can be sent as a browser would.
      const req = request({ hostname: '127.0.0.1', port: host.port, path: '/events', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...opts.headers } });
      req.on('upgrade', (_res, sock) => {
        sock.destroy();
        resolve('open');
      });
      req.on('response', () => resolve('refused'));
      req.on('error', () => resolve('refused'));
      req.end();
      return;
    }
    const ws = new WebSocket(url, opts.protocols);
    ws.onopen = () => {
      const p = ws.protocol;
      ws.close();
      resolve(`open:${p}`);
    };
    ws.onerror = () => resolve('refused');
  });
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'lodsmith-host-'));
  root = join(base, 'models');
  outside = join(base, 'secret');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'a.fake'), fakeFile([{ value: 1, name: 'one' }, { value: 2, name: 'two' }]));
  await writeFile(join(outside, 'private.fake'), fakeFile([{ value: 9, name: 'secret' }]));
  await symlink(join(outside, 'private.fake'), join(root, 'link.fake'));
  await symlink(outside, join(root, 'linkdir'));
  await symlink(join(root, 'a.fake'), join(root, 'sub', 'inner-link.fake'));
  const renderer = join(base, 'renderer');
  await mkdir(renderer);
  await writeFile(join(renderer, 'index.html'), '<!doctype html><html><head>\n<meta http-equiv="Content-Security-Policy" content="default-src \'self\'; connect-src \'self\'" />\n<title>t</title></head><body></body></html>');
  await writeFile(join(base, 'not-served.txt'), 'x');
  host = await startHost({
    roots: [root], configDir: join(base, 'config'), rendererDir: renderer, maxRequestBytes: LIMIT, version: '9.9.9',
    gltf: () => new TextEncoder().encode('glTF'), log: (l) => logged.push(l),
  });
});

afterAll(async () => {
  await host?.close();
  await rm(base, { recursive: true, force: true });
});

describe('browser host: token', () => {
  it('refuses API requests without a token (401) or with a wrong one (403)', async () => {
    expect((await call('doc:list', undefined, {})).status).toBe(401);
    expect((await call('doc:list', undefined, { 'x-lodsmith-token': 'wrong' })).status).toBe(403);
    expect((await call('doc:list', undefined, { 'x-lodsmith-token': host.token + 'x' })).status).toBe(403);
    const ok = await call<DocSnapshot[]>('doc:list', undefined);
    expect(ok.status).toBe(200);
    expect(ok.result).toEqual({ ok: true, value: [] });
  });

  it('accepts the token only in its header: neither a cookie nor the query unlocks the API', async () => {
    const h = { 'x-lodsmith-token': host.token };
    const ok = await raw('/api/app:info', { method: 'POST', headers: h });
    expect(ok.status).toBe(200);
    expect(decodeEnvelope(new Uint8Array(ok.body))).toMatchObject({ ok: true, value: { host: 'browser', version: '9.9.9', roots: ['models'] } });
    // A cookie replayed by another local page (cookies for 127.0.0.1 reach every port) is nothing.
    for (const cookie of [`lodsmith-token-${host.port}=${host.token}`, `lodsmith-token=${host.token}`, `token=${host.token}`]) {
      expectJsonRefusal(await raw('/api/app:info', { method: 'POST', headers: { cookie } }), 401, 'denied');
    }
    expectJsonRefusal(await raw(`/api/app:info?token=${encodeURIComponent(host.token)}`, { method: 'POST' }), 401, 'denied');
  });

  it('the address carries the token in its fragment, which browsers never send', () => {
    const u = new URL(host.url);
    expect(u.search).toBe('');
    expect(u.hash).toBe(`#token=${encodeURIComponent(host.token)}`);
  });

  it('serves the page without the token in it and without any cookie, with a strict CSP header', async () => {
    for (const path of ['/', '/index.html', `/?token=${host.token}`]) {
      const page = await raw(path, { headers: { cookie: `lodsmith-token-${host.port}=${host.token}` } });
      expect(page.status, path).toBe(200);
      expect(page.body.toString()).not.toContain(host.token);
      expect(page.headers['set-cookie'], path).toBeUndefined();
      expect(JSON.stringify(page.headers)).not.toContain(host.token);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      // The desktop app's meta policy (no network at all) would block the host's socket: it is left out here.
      expect(page.body.toString()).not.toContain('http-equiv');
    }
  });

  it('does not serve files outside the renderer folder', async () => {
    const t = `token=${host.token}`;
    for (const p of [`/../not-served.txt?${t}`, `/%2e%2e/not-served.txt?${t}`, `/..%2fnot-served.txt?${t}`]) {
      const a = await raw(p);
      expect([403, 404]).toContain(a.status);
      expect(a.body.toString()).not.toBe('x');
    }
  });

  it('refuses a foreign Host header (DNS rebinding) and a foreign Origin', async () => {
    const h = { 'x-lodsmith-token': host.token };
    expect((await call('doc:list', undefined, { ...h, host: 'evil.example:80' })).status).toBe(403);
    expect((await call('doc:list', undefined, { ...h, origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('doc:list', undefined, { ...h, origin: host.origin })).status).toBe(200);
  });
});

describe('browser host: network', () => {
  it('listens on the loopback address only', async () => {
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      await expect(raw('/', { hostname: external.address })).rejects.toThrow(/ECONNREFUSED/);
    }
    // IPv6 loopback is a different socket, also not bound.
    await expect(raw('/', { hostname: '::1' })).rejects.toThrow(/ECONNREFUSED|EADDRNOTAVAIL|EAFNOSUPPORT/);
  });

  it('limits the request size', async () => {
    const big = await call('doc:importNode', { id: 'doc-1', path: ['items', 0], bytes: new Uint8Array(LIMIT + 1) });
    expectJsonRefusal(big.answer, 413, 'invalid');
    // The server is still fine afterwards.
    expect((await call('doc:list', undefined)).status).toBe(200);
  });

  it('answers malformed bodies and unknown channels with errors, not crashes', async () => {
    const junk = await raw('/api/doc:open', { method: 'POST', headers: { 'x-lodsmith-token': host.token }, body: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]) });
    expectJsonRefusal(junk, 400, 'invalid');
    expectJsonRefusal((await call('doc:nuke', {})).answer, 404, 'invalid');
    const bad = await call('doc:open', { path: 42 });
    expectJsonRefusal(bad.answer, 400, 'invalid');
    expect(bad.result!.ok ? '' : bad.result!.error.message).toContain('path');
    expectJsonRefusal(await raw('/api/doc:list', { headers: { 'x-lodsmith-token': host.token } }), 405);
    expectJsonRefusal((await call('doc:close', { id: 'doc-none' })).answer, 404, 'not-found');
  });

  it('answers a malformed percent-encoding in an /api path with 400, and logs no stack for it', async () => {
    const before = logged.length;
    for (const path of ['/api/%E0%A4%A', '/api/doc%ZZlist', '/api/%', '/api/%C0%80']) {
      const a = await raw(path, { method: 'POST', headers: { 'x-lodsmith-token': host.token } });
      expectJsonRefusal(a, 400, 'invalid');
      expect(a.body.toString()).toContain('percent-encoding');
    }
    expect(logged.slice(before).join('\n')).not.toContain('URIError');
    // Still fine afterwards.
    expect((await call('doc:list', undefined)).status).toBe(200);
  });

  it('no answer carries a stack, whatever is thrown at it', async () => {
    const h = { 'x-lodsmith-token': host.token };
    const tries: Answer[] = [
      await raw('/api/%E0%A4%A', { method: 'POST', headers: h }),
      await raw('/api/doc:open', { method: 'POST', headers: h, body: new Uint8Array([0x4c, 0x53, 0x57, 0x31, 0xff, 0xff, 0xff, 0xff]) }),
      await raw('/api/doc:edit', { method: 'POST', headers: h, body: encodeEnvelope({ req: { id: 'x', command: { op: 'nope' } } }) }),
      await raw('/api/doc:open', { method: 'POST', headers: h, body: encodeEnvelope({ req: { path: 'models/sub' } }) }),
      await raw('/%E0%A4%A'),
      await raw('/api/', { method: 'POST', headers: h }),
    ];
    for (const a of tries) {
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.body.toString()).not.toMatch(/\n\s+at |node:internal|URIError/);
    }
  });
});

describe('browser host: file access stays inside the roots', () => {
  it('opens files by root-relative and by absolute path inside the root', async () => {
    const r = await call<DocSnapshot>('doc:open', { path: 'models/a.fake' });
    expect(r.result).toMatchObject({ ok: true, value: { path: 'models/a.fake', fileName: 'a.fake' } });
    const abs = await call<DocSnapshot>('doc:open', { path: join(root, 'a.fake') });
    expect(abs.result).toMatchObject({ ok: true, value: { path: 'models/a.fake' } });
    const inner = await call<DocSnapshot>('doc:open', { path: 'models/sub/inner-link.fake' });
    expect(inner.result).toMatchObject({ ok: true, value: { path: 'models/a.fake' } });
  });

  it("sends the preview's first scene with the open when asked, typed arrays intact", async () => {
    const plain = await call<OpenedDoc>('doc:open', { path: 'models/a.fake' });
    expect(plain.result?.ok && 'scene' in plain.result.value).toBe(false);
    const r = await call<OpenedDoc>('doc:open', { path: 'models/a.fake', scene: true });
    expect(r.result?.ok).toBe(true);
    const opened = r.result!.ok ? r.result!.value : undefined;
    const scene = await call<Scene>('doc:scene', { id: opened!.id });
    expect(scene.result?.ok).toBe(true);
    expect(opened!.scene).toEqual(scene.result!.ok ? scene.result!.value : undefined);
    expect(opened!.scene!.materials[0]!.textureData).toBeInstanceOf(Uint8Array);
  });

  // Paths are built lazily: the temp folders exist only once beforeAll ran.
  const refused: [string, () => string][] = [
    ['.. segments', () => 'models/../secret/private.fake'],
    ['.. with backslashes', () => 'models\\..\\secret\\private.fake'],
    ['absolute path outside', () => join(outside, 'private.fake')],
    ['an absolute path with .. that lexically leaves the root', () => join(root, '..', 'secret', 'private.fake').replace('/secret', '/models/../secret')],
    ['a symlinked file pointing outside', () => 'models/link.fake'],
    ['a symlinked folder pointing outside', () => 'models/linkdir/private.fake'],
    ['an unknown root', () => 'secret/private.fake'],
    ['a NUL byte', () => 'models/a.fake\0'],
  ];
  for (const [what, path] of refused) {
    it(`refuses ${what}`, async () => {
      const r = await call('doc:open', { path: path() });
      expect(r.result).toMatchObject({ ok: false, error: { code: 'denied' } });
      expectJsonRefusal(r.answer, 403, 'denied');
    });
  }

  it('refuses saving or exporting outside the roots', async () => {
    const { result } = await call<DocSnapshot>('doc:open', { path: 'models/a.fake' });
    const id = result!.ok ? result!.value.id : '';
    for (const path of ['models/../secret/out.fake', join(outside, 'out.fake'), 'models/linkdir/out.fake']) {
      expect((await call('doc:saveAs', { id, path })).result).toMatchObject({ ok: false, error: { code: 'denied' } });
      expect((await call('doc:exportGltf', { id, path })).result).toMatchObject({ ok: false });
    }
    expect(await readFile(join(outside, 'private.fake'))).toEqual(Buffer.from(fakeFile([{ value: 9, name: 'secret' }])));
  });

  it('lists the roots and hides links that lead outside', async () => {
    expect((await call('fs:list', { dir: '' })).result).toEqual({ ok: true, value: [{ name: 'models', path: 'models', dir: true }] });
    const r = await call<{ name: string }[]>('fs:list', { dir: 'models' });
    expect(r.result!.ok && r.result!.value.map((e) => e.name)).toEqual(['sub', 'a.fake']);
    expect((await call('fs:list', { dir: 'models/linkdir' })).result).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect((await call('fs:list', { dir: '/' + 'etc' })).result).toMatchObject({ ok: false, error: { code: 'denied' } });
  });
});

describe('browser host: the client API end to end', () => {
  it('a scene crosses the HTTP API as written (vertex arrays sent in parts, received as views)', async () => {
    const client = createHostClient({ baseUrl: host.origin, token: host.token });
    try {
      await writeFile(join(root, 'sub', 'grid.lod'), buildLargeLodka({ triangles: 5000, textureSets: 2, boneWeights: true }));
      const opened = await client.invoke('doc:open', { path: 'models/sub/grid.lod' });
      if (!opened.ok) throw new Error(opened.error.message);
      const got = await client.invoke('doc:scene', { id: opened.value.id });
      if (!got.ok) throw new Error(got.error.message);
      const scene = got.value;
      expect(scene).toEqual(host.service.scene(opened.value.id));
      const mesh = scene.meshes[0]!;
      expect(mesh.indices.length).toBeGreaterThanOrEqual(5000 * 3);
      expect(mesh.uvs).toHaveLength(2);
      expect(mesh.skin?.joints).toBeInstanceOf(Uint16Array);
      // One response buffer holds them all.
      expect(mesh.positions.buffer).toBe(mesh.indices.buffer);
      await client.invoke('doc:close', { id: opened.value.id });
    } finally {
      client.dispose();
    }
  });

  it('open -> edit -> save -> reopen through the HTTP API, with events over the WebSocket', async () => {
    const client = createHostClient({ baseUrl: host.origin, token: host.token });
    const changed: EventMap['doc:changed'][] = [];
    const off = client.on('doc:changed', (s) => changed.push(s));
    try {
      await writeFile(join(root, 'sub', 'e2e.fake'), fakeFile([{ value: 5, name: 'five' }]));
      // The socket connects asynchronously: wait for it before expecting events.
      await expect.poll(() => host.eventClients()).toBe(1);
      const opened = await client.invoke('doc:open', { path: 'models/sub/e2e.fake' });
      if (!opened.ok) throw new Error(opened.error.message);
      const id = opened.value.id;
      const edited = await client.invoke('doc:edit', { id, command: { op: 'set', path: ['items', 0, 'name'], value: 'edited' } });
      expect(edited).toMatchObject({ ok: true, value: { dirty: true, canUndo: true } });
      await expect.poll(() => changed.length).toBe(1);
      expect(changed[0]).toMatchObject({ id, dirty: true });
      const inspected = await client.invoke('doc:inspect', { id, path: ['items', 0] });
      expect(inspected).toMatchObject({ ok: true, value: { title: 'edited' } });
      const bytes = await client.invoke('doc:bytes', { id, start: 0, end: 4 });
      expect(bytes.ok && bytes.value).toEqual(new TextEncoder().encode('FAKE'));
      const saved = await client.invoke('doc:save', { id });
      expect(saved).toMatchObject({ ok: true, value: { dirty: false } });
      await expect.poll(() => changed.length).toBe(2);
      expect(changed[1]).toMatchObject({ id, dirty: false });
      expect(new Uint8Array(await readFile(join(root, 'sub', 'e2e.fake')))).toEqual(fakeFile([{ value: 5, name: 'edited' }]));
      expect(await readFile(join(root, 'sub', 'e2e.fake.bak'))).toEqual(Buffer.from(fakeFile([{ value: 5, name: 'five' }])));
      await client.invoke('doc:close', { id });
      const reopened = await client.invoke('doc:open', { path: 'models/sub/e2e.fake' });
      if (!reopened.ok) throw new Error(reopened.error.message);
      expect(reopened.value.id).not.toBe(id);
      expect(await client.invoke('doc:inspect', { id: reopened.value.id, path: ['items', 0] })).toMatchObject({ ok: true, value: { title: 'edited' } });
      const recent = await client.invoke('app:recent', undefined);
      expect(recent.ok && recent.value[0]).toBe('models/sub/e2e.fake');
    } finally {
      off();
      client.dispose();
    }
  });

  it("answers the editor's open before its problems, which follow over the WebSocket once no answer is being written", async () => {
    const client = createHostClient({ baseUrl: host.origin, token: host.token });
    const events: EventMap['doc:problems'][] = [];
    const off = client.on('doc:problems', (p) => events.push(p));
    // A large answer the reader holds back: the host is still writing it.
    await writeFile(join(root, 'sub', 'big.lod'), buildLargeLodka({ triangles: 400_000, textureSets: 1, boneWeights: false }));
    const big = await client.invoke('doc:open', { path: 'models/sub/big.lod' });
    if (!big.ok) throw new Error(big.error.message);
    let held: IncomingMessage | undefined;
    let heldBytes = 0;
    const heldDone = new Promise<void>((resolve, reject) => {
      const req = request({ hostname: '127.0.0.1', port: host.port, path: '/api/doc:bytes', method: 'POST', headers: { 'x-lodsmith-token': host.token } }, (res) => {
        held = res;
        res.pause();
        res.on('data', (c: Buffer) => (heldBytes += c.length));
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(encodeEnvelope({ req: { id: big.value.id, start: 0, end: 1 << 30 } }));
    });
    try {
      await writeFile(join(root, 'sub', 'rules.p3d'), mlodNaming('P:/mymod/box_co.paa'));
      await expect.poll(() => host.eventClients()).toBe(1);
      await expect.poll(() => held !== undefined).toBe(true);
      const opened = await client.invoke('doc:open', { path: 'models/sub/rules.p3d', scene: true });
      if (!opened.ok) throw new Error(opened.error.message);
      expect(opened.value.scene?.meshes.length).toBeGreaterThan(0);
      expect(opened.value.problemsPending).toBe(true);
      expect(opened.value.problems).toEqual([]);
      // Still writing the held answer: the problems wait.
      await new Promise((r) => setTimeout(r, 300));
      expect(events).toEqual([]);
      held!.resume();
      await heldDone;
      expect(heldBytes).toBeGreaterThan(8 << 20);
      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toMatchObject({ id: opened.value.id, revision: opened.value.revision });
      expect(events[0]!.problems.some((p) => p.severity === 'error' && p.message.endsWith('[path-absolute]'))).toBe(true);
      // The same list any later snapshot carries.
      const snap = await client.invoke('doc:list', undefined);
      expect(snap.ok && snap.value.find((d) => d.id === opened.value.id)!.problems).toEqual(events[0]!.problems);
      await client.invoke('doc:close', { id: opened.value.id });
    } finally {
      held?.resume();
      await client.invoke('doc:close', { id: big.value.id });
      off();
      client.dispose();
    }
  });

  it('reports a wrong token as a denied error', async () => {
    const client = createHostClient({ baseUrl: host.origin, token: 'nope' });
    try {
      expect(await client.invoke('doc:list', undefined)).toMatchObject({ ok: false, error: { code: 'denied' } });
    } finally {
      client.dispose();
    }
  });

  it('takes the socket token only as a subprotocol, and answers with the plain one', async () => {
    expect(await socket()).toBe('refused');
    expect(await socket({ query: `?token=${host.token}` })).toBe('refused');
    expect(await socket({ headers: { cookie: `lodsmith-token-${host.port}=${host.token}` } })).toBe('refused');
    expect(await socket({ protocols: ['lodsmith', 'lodsmith.token.wrong'] })).toBe('refused');
    expect(await socket({ protocols: ['lodsmith', `lodsmith.token.${host.token}`] })).toBe('open:lodsmith');
    // The raw handshake, to see the answer's headers: the token is not echoed back.
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request({ hostname: '127.0.0.1', port: host.port, path: '/events', headers: {
        connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': `lodsmith, lodsmith.token.${host.token}`,
      } });
      req.on('upgrade', (res, sock) => {
        sock.destroy();
        resolve(res.headers);
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer['sec-websocket-protocol']).toBe('lodsmith');
    expect(JSON.stringify(answer)).not.toContain(host.token);
  });
});

describe('browser host: save policy', () => {
  let id = '';
  const original = fakeFile([{ value: 1, name: 'one' }, { value: 2, name: 'two' }]);
  const exists = (p: string) => lstat(p).then(() => true, () => false);

  beforeAll(async () => {
    await mkdir(join(root, 'save'));
    await mkdir(join(root, '.hidden-dir'));
    await mkdir(join(root, 'save', 'folder.fake'));
    await writeFile(join(root, 'save', 'target.fake'), fakeFile([{ value: 7, name: 'target' }]));
    await symlink(join(root, 'save', 'target.fake'), join(root, 'save', 'live.fake'));
    await symlink(join(root, 'save', 'nowhere.fake'), join(root, 'save', 'dangling.fake'));
    await symlink(join(root, 'save', 'target.fake'), join(root, 'save', 'live.glb'));
    await symlink(join(root, 'save', 'nowhere.glb'), join(root, 'save', 'dangling.glb'));
    const r = await call<DocSnapshot>('doc:open', { path: 'models/a.fake' });
    id = r.result!.ok ? r.result!.value.id : '';
  });

  const names: [string, string][] = [
    ['a text file', 'models/save/notes.txt'],
    ['a dot file', 'models/save/.bashrc'],
    ['an executable', 'models/save/pwn.exe'],
    ['a hidden model', 'models/save/.hidden.fake'],
    ['a name without extension', 'models/save/model'],
    ['a model of another format', 'models/save/other.p3d'],
    ['a file in a hidden folder', 'models/.hidden-dir/x.fake'],
  ];
  for (const [what, path] of names) {
    it(`Save As refuses ${what} with a 403 and writes nothing`, async () => {
      const before = await readdir(join(root, 'save'));
      const r = await call('doc:saveAs', { id, path, overwrite: true });
      expectJsonRefusal(r.answer, 403, 'denied');
      expect(await readdir(join(root, 'save'))).toEqual(before);
      expect(await readdir(join(root, '.hidden-dir'))).toEqual([]);
    });
  }

  it('Export refuses other extensions and dot names, and accepts .glb and .gltf', async () => {
    for (const path of ['models/save/export.txt', 'models/save/.x.glb', 'models/save/x.fake', 'models/save/x.exe']) {
      expectJsonRefusal((await call('doc:exportGltf', { id, path, overwrite: true })).answer, 403, 'denied');
      expect(await exists(join(root, path.slice('models/'.length)))).toBe(false);
    }
    for (const path of ['models/save/out.glb', 'models/save/out.gltf']) {
      expect((await call('doc:exportGltf', { id, path })).result).toEqual({ ok: true, value: null });
      expect(await readFile(join(root, path.slice('models/'.length)), 'utf8')).toBe('glTF');
    }
  });

  it('never writes through or replaces a symlink, live or dangling', async () => {
    const target = await readFile(join(root, 'save', 'target.fake'));
    for (const [channel, path] of [['doc:saveAs', 'models/save/live.fake'], ['doc:saveAs', 'models/save/dangling.fake'], ['doc:exportGltf', 'models/save/live.glb'], ['doc:exportGltf', 'models/save/dangling.glb']] as const) {
      const r = await call(channel, { id, path, overwrite: true });
      expectJsonRefusal(r.answer, 403, 'denied');
      expect(r.result!.ok ? '' : r.result!.error.message).toContain('symbolic link');
      expect((await lstat(join(root, path.slice('models/'.length)))).isSymbolicLink()).toBe(true);
    }
    expect(await readFile(join(root, 'save', 'target.fake'))).toEqual(target);
    expect(await exists(join(root, 'save', 'nowhere.fake'))).toBe(false);
    expect(await exists(join(root, 'save', 'nowhere.glb'))).toBe(false);
    expect((await readdir(join(root, 'save'))).filter((n) => n.endsWith('.bak') || n.endsWith('tmp'))).toEqual([]);
  });

  it('refuses to replace a folder', async () => {
    expectJsonRefusal((await call('doc:saveAs', { id, path: 'models/save/folder.fake', overwrite: true })).answer, 403, 'denied');
  });

  it('overwrites an existing file only when the request says so', async () => {
    const target = join(root, 'save', 'target.fake');
    const before = await readFile(target);
    const refused = await call('doc:saveAs', { id, path: 'models/save/target.fake' });
    expectJsonRefusal(refused.answer, 409, 'conflict');
    expect(refused.result!.ok ? '' : refused.result!.error.message).toContain('already exists');
    expect(await readFile(target)).toEqual(before);
    expect(await exists(`${target}.bak`)).toBe(false);
    const gltfRefused = await call('doc:exportGltf', { id, path: 'models/save/out.glb' });
    expectJsonRefusal(gltfRefused.answer, 409, 'conflict');

    const saved = await call<DocSnapshot>('doc:saveAs', { id, path: 'models/save/target.fake', overwrite: true });
    expect(saved.status).toBe(200);
    expect(saved.result).toMatchObject({ ok: true, value: { path: 'models/save/target.fake' } });
    expect(new Uint8Array(await readFile(target))).toEqual(original);
    expect(await readFile(`${target}.bak`)).toEqual(before);
  });

  it('a new name inside the root is written', async () => {
    const r = await call<DocSnapshot>('doc:saveAs', { id, path: 'models/save/new.fake' });
    expect(r.status).toBe(200);
    expect(new Uint8Array(await readFile(join(root, 'save', 'new.fake')))).toEqual(original);
  });
});

describe('browser host: textures', () => {
  it('serves only texture types from the model folder, never other files', async () => {
    await mkdir(join(root, 'tex'));
    await writeFile(join(root, 'tex', 'm.fake'), fakeFile([{ value: 1, name: 'm' }]));
    await writeFile(join(root, 'tex', 'other.fake'), fakeFile([{ value: 2, name: 'other' }]));
    await writeFile(join(root, 'tex', 'secret.txt'), 'secret');
    await writeFile(join(root, 'tex', 'notes'), 'notes');
    await writeFile(join(root, 'tex', 'm.fake.bak'), 'backup');
    const types = ['.paa', '.pac', '.tga', '.dds', '.png', '.jpg', '.jpeg', '.bmp'];
    for (const t of types) await writeFile(join(root, 'tex', `wood${t}`), `image${t}`);
    await writeFile(join(root, 'tex', 'UPPER.PAA'), 'upper');
    const r = await call<DocSnapshot>('doc:open', { path: 'models/tex/m.fake' });
    const id = r.result!.ok ? r.result!.value.id : '';
    for (const name of ['secret.txt', 'other.fake', 'm.fake', 'notes', 'm.fake.bak', 'textures\\secret.txt', '../a.fake']) {
      expect((await call('doc:texture', { id, name })).result, name).toEqual({ ok: true, value: null });
    }
    for (const t of types) {
      const got = await call<Uint8Array>('doc:texture', { id, name: `data\\wood${t}` });
      expect(got.result, t).toEqual({ ok: true, value: new TextEncoder().encode(`image${t}`) });
    }
    expect((await call('doc:texture', { id, name: 'upper.paa' })).result).toEqual({ ok: true, value: new TextEncoder().encode('upper') });
  });
});

describe('browser host: settings', () => {
  it('texture folders: only existing folders inside the roots, written to settings.json, read back by a new host', async () => {
    await mkdir(join(root, 'pdrive', 'tex'), { recursive: true });
    expect((await call('settings:get', undefined)).result).toEqual({ ok: true, value: { textureRoots: [] } });
    // Outside the roots (also through a link), missing, a file: refused, nothing kept.
    for (const [path, code] of [[outside, 'denied'], ['models/linkdir', 'denied'], ['models/nowhere', 'not-found'], ['models/a.fake', 'invalid']] as const) {
      const r = await call('settings:set', { textureRoots: [path] });
      expect(r.result?.ok, path).toBe(false);
      if (r.result && !r.result.ok) expect(r.result.error.code, path).toBe(code);
    }
    expect((await call('settings:get', undefined)).result).toEqual({ ok: true, value: { textureRoots: [] } });
    // Not an array of names: refused by the request check.
    expect((await call('settings:set', { textureRoots: 'models/pdrive' })).result?.ok).toBe(false);
    const ok = await call('settings:set', { textureRoots: ['models/pdrive', ' models/pdrive ', 'models/sub'] });
    expect(ok.result).toEqual({ ok: true, value: { textureRoots: ['models/pdrive', 'models/sub'] } });
    const stored = JSON.parse(await readFile(join(base, 'config', 'settings.json'), 'utf8')) as { textureRoots: string[] };
    expect(stored.textureRoots).toEqual([join(root, 'pdrive'), join(root, 'sub')]);
    const second = await startHost({ roots: [root], configDir: join(base, 'config'), rendererDir: null, version: '9.9.9', log: () => undefined });
    try {
      const res = await fetch(`${second.origin}/api/settings:get`, { method: 'POST', headers: { 'x-lodsmith-token': second.token }, body: encodeEnvelope({ req: undefined }) as Uint8Array<ArrayBuffer> });
      expect(decodeEnvelope(new Uint8Array(await res.arrayBuffer()))).toEqual({ ok: true, value: { textureRoots: ['models/pdrive', 'models/sub'] } });
    } finally {
      await second.close();
    }
  });

  it('a texture found only through a texture folder; the open document\'s problems follow the setting', async () => {
    await mkdir(join(root, 'pd2', 'a3', 'data'), { recursive: true });
    await writeFile(join(root, 'pd2', 'a3', 'data', 'wall_co.paa'), 'paa');
    await writeFile(join(root, 'sub', 'm2.fake'), fakeFile([{ value: 1, name: 'm' }]));
    const r = await call<DocSnapshot>('doc:open', { path: 'models/sub/m2.fake' });
    const id = r.result!.ok ? r.result!.value.id : '';
    await call('settings:set', { textureRoots: [] });
    expect((await call('doc:texture', { id, name: 'P:\\a3\\data\\wall_co.paa' })).result).toEqual({ ok: true, value: null });
    await call('settings:set', { textureRoots: ['models/pd2'] });
    expect((await call('doc:texture', { id, name: 'P:\\a3\\data\\wall_co.paa' })).result).toEqual({ ok: true, value: new TextEncoder().encode('paa') });
    await call('settings:set', { textureRoots: [] });
  });
});
