/**
 * The browser host seen from a real browser: the page only loads with its token, the API
 * refuses pages and requests without it, the server listens on loopback only, file access stays
 * inside the root, and oversized requests are refused.
 */
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { symlink, writeFile } from 'node:fs/promises';
import { test, expect } from './fixtures/index.ts';

test('the page loads with the token and is refused without it', async ({ page, lodsmith }) => {
  const refused = await page.goto(lodsmith.origin + '/');
  expect(refused?.status()).toBe(401);
  const wrong = await page.goto(lodsmith.origin + '/?token=not-the-token');
  expect(wrong?.status()).toBe(403);
  const ok = await page.goto(lodsmith.url);
  expect(ok?.status()).toBe(200);
  expect(ok?.headers()['content-security-policy']).toContain("default-src 'self'");
  await expect(page.locator('meta[name="lodsmith-token"]')).toHaveAttribute('content', lodsmith.token);
  // The page's own bundle loaded (its assets are fetched without the token in their URL).
  await expect(page.locator('#app')).not.toBeEmpty();
});

test('API calls from the page need the token; the cookie alone is not enough', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.url);
  const statuses = await page.evaluate(async (token) => {
    const post = (headers: Record<string, string>) => fetch('/api/doc:list', { method: 'POST', headers }).then((r) => r.status);
    return { without: await post({}), withToken: await post({ 'x-lodsmith-token': token }) };
  }, lodsmith.token);
  expect(statuses).toEqual({ without: 401, withToken: 200 });
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
  await expect(request.get(`http://${external!.address}:${port}/?token=${lodsmith.token}`)).rejects.toThrow(/ECONNREFUSED/);
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

test('the token leaves the address bar once the page has it, and a reload still works', async ({ page, lodsmith }) => {
  await page.goto(lodsmith.page({ sample: '1' }));
  await expect.poll(() => new URL(page.url()).searchParams.has('token')).toBe(false);
  expect(new URL(page.url()).searchParams.get('sample')).toBe('1');
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  const status = await page.evaluate(async () => {
    const token = document.querySelector('meta[name="lodsmith-token"]')?.getAttribute('content') ?? '';
    return (await fetch('/api/doc:list', { method: 'POST', headers: { 'x-lodsmith-token': token } })).status;
  });
  expect(status).toBe(200);
});
