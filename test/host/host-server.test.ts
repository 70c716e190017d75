import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeFile } from './fake-format.ts';
import { buildLargeLodka } from '../../scripts/fixtures/lodka.ts';
import { startHost, type Host } from '../../main/host/server.ts';
import { decodeEnvelope, encodeEnvelope } from '../../shared/ipc/wire.ts';
import { createHostClient } from '../../renderer/bridge/host-client.ts';
import type { DocSnapshot, EventMap, Result } from '../../shared/ipc/contract.ts';

let base: string;
let root: string;
let outside: string;
let host: Host;
const LIMIT = 64 * 1024;

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

async function call<T>(channel: string, req: unknown, headers: Record<string, string> = { 'x-lodsmith-token': host.token }): Promise<{ status: number; result?: Result<T> }> {
  const a = await raw(`/api/${channel}`, { method: 'POST', headers, body: encodeEnvelope({ req }) });
  const result = a.body.length && a.body.subarray(0, 4).toString() === 'LSW1' ? (decodeEnvelope(new Uint8Array(a.body)) as Result<T>) : undefined;
  return { status: a.status, ...(result ? { result } : {}) };
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
  await writeFile(join(renderer, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  await writeFile(join(base, 'not-served.txt'), 'x');
  host = await startHost({ roots: [root], configDir: join(base, 'config'), rendererDir: renderer, maxRequestBytes: LIMIT, version: '9.9.9' });
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

  it('accepts the token in the query, but never a cookie for the API', async () => {
    const q = await raw(`/api/app:info?token=${encodeURIComponent(host.token)}`, { method: 'POST' });
    expect(q.status).toBe(200);
    expect(decodeEnvelope(new Uint8Array(q.body))).toMatchObject({ ok: true, value: { host: 'browser', version: '9.9.9', roots: ['models'] } });
    const cookie = await raw('/api/app:info', { method: 'POST', headers: { cookie: `lodsmith-token-${host.port}=${host.token}` } });
    expect(cookie.status).toBe(401);
  });

  it('refuses the page and static files without the token', async () => {
    expect((await raw('/')).status).toBe(401);
    expect((await raw('/index.html')).status).toBe(401);
  });

  it('serves the page with the token injected, a strict CSP and a cookie for the assets', async () => {
    const page = await raw(`/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain(`<meta name="lodsmith-token" content="${host.token}" />`);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const setCookie = String(page.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const again = await raw('/index.html', { headers: { cookie: `lodsmith-token-${host.port}=${host.token}` } });
    expect(again.status).toBe(200);
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
    expect(big.status).toBe(413);
    expect(big.result).toMatchObject({ ok: false, error: { code: 'invalid' } });
    // The server is still fine afterwards.
    expect((await call('doc:list', undefined)).status).toBe(200);
  });

  it('answers malformed bodies and unknown channels with errors, not crashes', async () => {
    const junk = await raw('/api/doc:open', { method: 'POST', headers: { 'x-lodsmith-token': host.token }, body: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]) });
    expect(junk.status).toBe(400);
    expect((await call('doc:nuke', {})).status).toBe(404);
    const bad = await call('doc:open', { path: 42 });
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(bad.result!.ok ? '' : bad.result!.error.message).toContain('path');
    expect((await raw('/api/doc:list', { headers: { 'x-lodsmith-token': host.token } })).status).toBe(405);
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

  it('reports a wrong token as a denied error', async () => {
    const client = createHostClient({ baseUrl: host.origin, token: 'nope' });
    try {
      expect(await client.invoke('doc:list', undefined)).toMatchObject({ ok: false, error: { code: 'denied' } });
    } finally {
      client.dispose();
    }
  });

  it('refuses WebSocket connections without the token', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/events`);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    });
    expect(outcome).toBe('refused');
    const ok = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/events?token=${host.token}`);
      ws.onopen = () => {
        ws.close();
        resolve('open');
      };
      ws.onerror = () => resolve('refused');
    });
    expect(ok).toBe('open');
  });
});
