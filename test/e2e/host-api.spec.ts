/**
 * Open -> edit -> save -> reopen through the host's HTTP API, on a copy of the bundled sample,
 * and document events reaching a page over the WebSocket.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/index.ts';

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
    const ws = new WebSocket(`ws://${location.host}/events?token=${token}`);
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
