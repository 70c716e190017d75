/**
 * The browser host seen from a real browser: the token travels only in the address's fragment,
 * the page's sessionStorage, a request header and the socket's subprotocol (never a cookie,
 * never the served HTML); the API refuses requests without it, the server listens on loopback
 * only, file access stays inside the root, oversized requests are refused, and the desktop
 * page's own CSP closes the network to it.
 */
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { test, expect } from './fixtures/index.ts';
import { repoRoot } from './fixtures/paths.ts';

test('the token arrives in the fragment, moves to sessionStorage, and is in no cookie and no served page', async ({ page, lodsmith }) => {
  const seen: { url: string; setCookie?: string; body?: string }[] = [];
  page.on('response', async (r) => {
    const entry: (typeof seen)[number] = { url: r.url(), ...(r.headers()['set-cookie'] ? { setCookie: r.headers()['set-cookie'] } : {}) };
    seen.push(entry);
    if ((r.headers()['content-type'] ?? '').startsWith('text/html')) entry.body = await r.text().catch(() => '');
  });
  expect(lodsmith.url).toBe(`${lodsmith.origin}/#token=${encodeURIComponent(lodsmith.token)}`);
  const ok = await page.goto(lodsmith.url);
  expect(ok?.status()).toBe(200);
  expect(ok?.headers()['content-security-policy']).toContain("default-src 'self'");
  // The page's own bundle loaded and reached the API (its requests carry the token as a header).
  await expect(page.locator('#app')).not.toBeEmpty();
  await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
  expect(await page.evaluate(() => sessionStorage.getItem('lodsmith-token'))).toBe(lodsmith.token);
  expect(await page.evaluate(() => document.documentElement.outerHTML.includes(sessionStorage.getItem('lodsmith-token') ?? '\0'))).toBe(false);
  await expect.poll(() => lodsmith.host.eventClients()).toBe(1);
  expect(await page.context().cookies()).toEqual([]);
  expect(seen.filter((r) => r.setCookie)).toEqual([]);
  const pages = seen.filter((r) => r.body !== undefined);
  expect(pages.length).toBeGreaterThan(0);
  for (const r of pages) expect(r.body).not.toContain(lodsmith.token);
  // The request for the page itself never carried the token (a fragment is not sent).
  for (const r of seen) expect(r.url).not.toContain(lodsmith.token);
});

test('a replayed cookie alone is refused by the API and by the event socket', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.origin + '/');
  // What another local page could plant: cookies for 127.0.0.1 reach every port.
  await page.context().addCookies([
    { name: `lodsmith-token-${new URL(lodsmith.origin).port}`, value: lodsmith.token, url: lodsmith.origin },
    { name: 'lodsmith-token', value: lodsmith.token, url: lodsmith.origin },
  ]);
  const outcome = await page.evaluate(async (token) => {
    const post = (headers: Record<string, string>) => fetch('/api/doc:list', { method: 'POST', headers, credentials: 'include' }).then((r) => r.status);
    const socket = (protocols?: string[]) => new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/events`, protocols);
      ws.onopen = () => {
        resolve(`open:${ws.protocol}`);
        ws.close();
      };
      ws.onerror = () => resolve('refused');
    });
    return {
      cookieOnly: await post({}),
      withToken: await post({ 'x-lodsmith-token': token }),
      socketCookieOnly: await socket(),
      socketWithToken: await socket(['lodsmith', `lodsmith.token.${token}`]),
    };
  }, lodsmith.token);
  expect(outcome).toEqual({ cookieOnly: 401, withToken: 200, socketCookieOnly: 'refused', socketWithToken: 'open:lodsmith' });
});

test('another origin cannot use the API even with a leaked cookie', async ({ page, lodsmith, request }) => {
  await page.goto(lodsmith.url);
  const res = await request.post(`${lodsmith.origin}/api/doc:list`, { headers: { origin: 'http://evil.example', 'x-lodsmith-token': lodsmith.token } });
  expect(res.status()).toBe(403);
});

test('the host listens on 127.0.0.1 only', async ({ lodsmith, request }) => {
  expect(new URL(lodsmith.url).hostname).toBe('127.0.0.1');
  const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
  test.skip(!external, 'this machine has no non-loopback IPv4 address to try');
  const port = new URL(lodsmith.url).port;
  await expect(request.get(`http://${external!.address}:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
});

test('paths outside the root are refused: .., absolute, symlinks', async ({ lodsmith }) => {
  await writeFile(join(lodsmith.dir, 'outside.lod'), new Uint8Array(16));
  await symlink(join(lodsmith.dir, 'outside.lod'), join(lodsmith.root, 'escape.lod'));
  await symlink(lodsmith.dir, join(lodsmith.root, 'up'));
  for (const path of ['models/../outside.lod', join(lodsmith.dir, 'outside.lod'), 'models/escape.lod', 'models/up/outside.lod', '/etc/passwd']) {
    const r = await lodsmith.invoke('doc:open', { path });
    expect(r, path).toMatchObject({ ok: false, error: { code: 'denied' } });
  }
  const list = await lodsmith.invoke('fs:list', { dir: 'models' });
  expect(list.ok && list.value.map((e) => e.name)).not.toContain('escape.lod');
});

test('oversized requests are refused with 413 and the host keeps working', async ({ lodsmith, request }) => {
  const big = Buffer.alloc(65 << 20);
  const res = await request.post(`${lodsmith.origin}/api/doc:importNode`, {
    headers: { 'x-lodsmith-token': lodsmith.token, 'content-type': 'application/x-lodsmith-envelope' },
    data: big,
  }).catch((e: Error) => e);
  // Either the 413 arrives or the host cut the upload short; both refuse the body.
  if (!(res instanceof Error)) expect(res.status()).toBe(413);
  expect(await lodsmith.invoke('doc:list', undefined)).toEqual({ ok: true, value: [] });
});

test('the token leaves the address bar once the page has it; a reload of the tab still works, another tab does not get it', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.page({ sample: '1' }));
  await expect.poll(() => page.url()).toBe(`${lodsmith.origin}/?sample=1`);
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  await expect.poll(() => lodsmith.host.eventClients()).toBeGreaterThan(0);
  const status = await page.evaluate(async () => {
    const token = sessionStorage.getItem('lodsmith-token') ?? '';
    return (await fetch('/api/doc:list', { method: 'POST', headers: { 'x-lodsmith-token': token } })).status;
  });
  expect(status).toBe(200);
  // sessionStorage belongs to the tab: a page opened without the address's fragment has no token.
  const other = await page.context().newPage();
  await other.goto(lodsmith.origin + '/');
  expect(await other.evaluate(() => sessionStorage.getItem('lodsmith-token'))).toBeNull();
  await expect(other.getByText(/open the address .*npm run serve/).first()).toBeVisible();
});

test("the desktop page's own CSP (file://, no header) blocks the network, forms and plugins", async ({ page, lodsmith }) => {
  const built = join(repoRoot, 'out', 'renderer', 'index.html');
  test.skip(!existsSync(built), 'the renderer is not built');
  await page.goto(pathToFileURL(built).href);
  const violations = await page.evaluate(async (origin) => {
    const seen: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    await fetch(`${origin}/api/doc:list`, { method: 'POST' }).catch(() => undefined);
    await new Promise<void>((resolve) => {
      try {
        const ws = new WebSocket(`${origin.replace('http', 'ws')}/events`);
        ws.onerror = () => resolve();
        ws.onopen = () => resolve();
      } catch {
        resolve();
      }
    });
    const obj = document.createElement('object');
    obj.data = `${origin}/x.swf`;
    document.body.append(obj);
    const form = document.createElement('form');
    form.action = `${origin}/api/doc:list`;
    form.method = 'post';
    form.target = '_blank';
    document.body.append(form);
    form.submit();
    // Violation events arrive asynchronously (the object's one can come after the form's); wait
    // until each blocked kind has been reported, for at most five seconds.
    const wanted = ['connect-src', 'object-src', 'form-action'];
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !wanted.every((d) => seen.filter((v) => v.startsWith(d + ' ')).length >= (d === 'connect-src' ? 2 : 1))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 100));
    return seen;
  }, lodsmith.origin);
  const directives = violations.map((v) => v.split(' ')[0]);
  expect(directives).toEqual(expect.arrayContaining(['connect-src', 'object-src', 'form-action']));
  expect(violations.filter((v) => v.startsWith('connect-src'))).toHaveLength(2);
});
