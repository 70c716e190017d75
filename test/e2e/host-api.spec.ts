/**
 * Open -> edit -> save -> reopen through the host's HTTP API, on a copy of the bundled sample,
 * document events reaching a page over the WebSocket, Save As asking before it replaces a file,
 * and refusals answered as 4xx with a one-line JSON error.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './fixtures/index.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';

test('open, edit, save and reopen the sample through the HTTP API', async ({ lodsmith }) => {
  test.skip(!lodsmith.files.includes('models/sample.lod'), 'the bundled sample (build/sample/sample.lod) is not generated yet');
  const before = await readFile(join(lodsmith.root, 'sample.lod'));

  const opened = await lodsmith.invoke('doc:open', { path: 'models/sample.lod' });
  if (!opened.ok) throw new Error(opened.error.message);
  expect(opened.value).toMatchObject({ format: 'lodka-lod', dirty: false, fileName: 'sample.lod' });
  const id = opened.value.id;
  // Rename the first material found in the outline through an inspector field.
  const paths: (string | number)[][] = [];
  const walk = (n: typeof opened.value.outline) => {
    if (n.kind === 'material') paths.push([...n.path]);
    for (const c of n.children ?? []) walk(c);
  };
  walk(opened.value.outline);
  expect(paths.length).toBeGreaterThan(0);
  const inspection = await lodsmith.invoke('doc:inspect', { id, path: paths[0]! });
  if (!inspection.ok || !inspection.value) throw new Error('no inspection');
  const nameField = inspection.value.fields.find((f) => f.kind === 'string');
  expect(nameField).toBeTruthy();
  const edited = await lodsmith.invoke('doc:edit', { id, command: { op: 'set', path: nameField!.path, value: 'renamed-e2e' } });
  expect(edited).toMatchObject({ ok: true, value: { dirty: true, canUndo: true } });
  expect(await lodsmith.invoke('doc:save', { id })).toMatchObject({ ok: true, value: { dirty: false } });
  expect(await readFile(join(lodsmith.root, 'sample.lod.bak'))).toEqual(before);
  expect((await readFile(join(lodsmith.root, 'sample.lod'))).includes(Buffer.from('renamed-e2e'))).toBe(true);
  await lodsmith.invoke('doc:close', { id });
  const again = await lodsmith.invoke('doc:open', { path: 'models/sample.lod' });
  if (!again.ok) throw new Error(again.error.message);
  const reread = await lodsmith.invoke('doc:inspect', { id: again.value.id, path: paths[0]! });
  expect(reread.ok && reread.value?.fields.find((f) => f.kind === 'string')?.value).toBe('renamed-e2e');
});

test('the page receives document events over the WebSocket', async ({ page, lodsmith }) => {
  test.skip(!lodsmith.files.includes('models/sample.lod'), 'the bundled sample (build/sample/sample.lod) is not generated yet');
  await page.goto(lodsmith.url);
  // Listen from the page with a bare WebSocket, as the page client does.
  await page.evaluate((token) => {
    const w = window as unknown as { events: string[] };
    w.events = [];
    // The token travels as a subprotocol: a browser cannot set headers on a WebSocket.
    const ws = new WebSocket(`ws://${location.host}/events`, ['lodsmith', `lodsmith.token.${token}`]);
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (e) => {
      const b = new Uint8Array(e.data as ArrayBuffer);
      const len = new DataView(b.buffer).getUint32(4, true);
      w.events.push((JSON.parse(new TextDecoder().decode(b.subarray(8, 8 + len))) as { channel: string }).channel);
    };
    return new Promise((r) => (ws.onopen = r));
  }, lodsmith.token);
  const opened = await lodsmith.invoke('doc:open', { path: 'models/sample.lod' });
  if (!opened.ok) throw new Error(opened.error.message);
  await lodsmith.invoke('doc:screenshot', { id: opened.value.id, png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]), name: 'e2e.png' });
  await expect.poll(() => page.evaluate(() => (window as unknown as { events: string[] }).events)).toContain('doc:changed');
});

test('Save As asks before replacing a file, and refuses names outside the save policy (keyboard only)', async ({ page, lodsmith }) => {
  const robot = encodeLod(buildSampleLod());
  await writeFile(join(lodsmith.root, 'robot.lod'), robot);
  await writeFile(join(lodsmith.root, 'copy.lod'), 'the old copy');
  await page.goto(lodsmith.page({ open: 'models/robot.lod' }));
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);

  const saveAs = async (name: string) => {
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press('Control+Shift+S');
    const field = page.getByRole('dialog', { name: 'Save as' }).getByRole('textbox', { name: 'File name' });
    await expect(field).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
  };

  // An existing file: the window asks, and Escape keeps the file as it was.
  await saveAs('copy.lod');
  const ask = page.getByRole('alertdialog', { name: 'Replace copy.lod?' });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('models/copy.lod already exists');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('replace-confirm.png') });
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  expect(await readFile(join(lodsmith.root, 'copy.lod'), 'utf8')).toBe('the old copy');
  await expect(page.locator('[data-testid=doc-tab]')).toContainText('robot.lod');

  // Asked again and confirmed with the keyboard: replaced, the old copy kept as .bak.
  await saveAs('copy.lod');
  await expect(ask).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(ask.getByRole('button', { name: 'Replace' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await expect(page.locator('[data-testid=doc-tab]')).toContainText('copy.lod');
  await expect.poll(async () => (await readFile(join(lodsmith.root, 'copy.lod'))).equals(robot)).toBe(true);
  expect(await readFile(join(lodsmith.root, 'copy.lod.bak'), 'utf8')).toBe('the old copy');

  // A name the policy refuses: an error, no question, nothing written.
  await saveAs('notes.txt');
  await expect(page.getByText(/Only \.lod files can be written here/)).toBeVisible();
  await expect(ask).toHaveCount(0);
  expect(existsSync(join(lodsmith.root, 'notes.txt'))).toBe(false);
});

test('refusals of the API are 4xx answers with a one-line JSON error', async ({ page, lodsmith }) => {
  await writeFile(join(lodsmith.root, 'robot.lod'), encodeLod(buildSampleLod()));
  const opened = await lodsmith.invoke('doc:open', { path: 'models/robot.lod' });
  if (!opened.ok) throw new Error(opened.error.message);
  await page.goto(lodsmith.origin + '/');
  const answers = await page.evaluate(async ({ token, id }) => {
    const post = async (path: string, req?: unknown) => {
      // The request envelope: magic, JSON length, JSON padded to 8 (no binary parts).
      const json = new TextEncoder().encode(JSON.stringify({ req }));
      const body = new Uint8Array(8 + Math.ceil(json.length / 8) * 8);
      body.set(new TextEncoder().encode('LSW1'));
      new DataView(body.buffer).setUint32(4, json.length, true);
      body.set(json, 8);
      const r = await fetch(path, { method: 'POST', headers: { 'x-lodsmith-token': token }, body: req === undefined ? undefined : body });
      return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
    };
    return [
      await post('/api/doc:saveAs', { id, path: 'models/notes.txt' }),
      await post('/api/doc:saveAs', { id, path: 'models/.bashrc' }),
      await post('/api/doc:exportGltf', { id, path: 'models/export.txt' }),
      await post('/api/doc:saveAs', { id, path: 'models/robot.lod' }),
      await post('/api/%E0%A4%A'),
      await post('/api/doc%ZZlist'),
    ];
  }, { token: lodsmith.token, id: opened.value.id });
  expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 409, 400, 400]);
  for (const a of answers) {
    expect(a.type).toMatch(/^application\/json/);
    expect(a.text.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(a.text)).toMatchObject({ ok: false, error: { message: expect.any(String) } });
    expect(a.text).not.toMatch(/\n\s+at |URIError/);
  }
  expect(existsSync(join(lodsmith.root, 'notes.txt')) || existsSync(join(lodsmith.root, '.bashrc')) || existsSync(join(lodsmith.root, 'export.txt'))).toBe(false);
});
