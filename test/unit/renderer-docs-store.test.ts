/**
 * The document store against the in-memory API over the real LODka codec: what the renderer
 * sends for edits, refusals, undo/redo, save and structure actions.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { createFakeApi } from '../../renderer/bridge/fake-api.ts';
import { setApi } from '../../renderer/bridge/index.ts';
import { findImage, nodeImageBytes, useDocs } from '../../renderer/stores/use-docs.ts';
import { findNode as findIn, nodesOfKind } from '../../renderer/lib/tree-model.ts';
import type { DocSnapshot, Result } from '../../shared/ipc/contract.ts';
import type { Problem } from '../../shared/model/problems.ts';

let files: Map<string, Uint8Array>;

beforeEach(() => {
  setActivePinia(createPinia());
  files = new Map([
    ['models/sample.lod', encodeLod(buildSampleLod())],
    ['models/broken.lod', new TextEncoder().encode('LODka3D1\x4c\x4f\x44\x31\xff\xff\xff\x7f\x01\x00\x00\x00')],
  ]);
  setApi(createFakeApi({ codecs: [lodkaCodec], files, sample: 'models/sample.lod' }));
});

async function openSample() {
  const docs = useDocs();
  const s = await docs.openSample();
  expect(s).toBeDefined();
  return docs;
}

describe('document store', () => {
  it("keeps the scene that came with an open for the preview's first request, once, outside the document state", async () => {
    const docs = useDocs();
    const s = await docs.open('models/sample.lod');
    expect(s).toBeDefined();
    expect('scene' in s!).toBe(false);
    expect('scene' in docs.active!).toBe(false);
    const scene = docs.takeOpenedScene(s!.id, s!.revision);
    expect(scene?.meshes.length).toBeGreaterThan(0);
    expect(docs.takeOpenedScene(s!.id, s!.revision)).toBeUndefined();
    // Another revision's request gets none (the preview asks doc:scene then).
    await docs.close(s!.id);
    const again = await docs.open('models/sample.lod');
    expect(docs.takeOpenedScene(again!.id, again!.revision + 1)).toBeUndefined();
    expect(docs.takeOpenedScene(again!.id, again!.revision)).toBeUndefined();
  });

  it('opens the sample, selects it and inspects the selection', async () => {
    const docs = await openSample();
    expect(docs.active?.format).toBe('lodka-lod');
    const mat = nodesOfKind(docs.active!.outline, 'material')[0]!;
    docs.select(mat.path);
    await docs.refreshInspection();
    expect(docs.inspection?.fields.some((f) => f.name === 'diffuse' && f.kind === 'rgba')).toBe(true);
    // Selecting reveals the node: each ancestor row is expanded.
    expect(docs.activeUi!.expanded.size).toBeGreaterThan(2);
  });

  it('sends a set edit, marks the document dirty, and undoes and redoes it', async () => {
    const docs = await openSample();
    const mat = nodesOfKind(docs.active!.outline, 'material')[0]!;
    const ins = await docs.inspect(mat.path);
    const diffuse = ins!.fields.find((f) => f.name === 'diffuse')!;
    const rev = docs.active!.revision;
    expect(await docs.edit({ op: 'set', path: diffuse.path, value: [1, 0, 0, 1] })).toBeUndefined();
    expect(docs.active!.dirty).toBe(true);
    expect(docs.active!.revision).toBeGreaterThan(rev);
    expect((await docs.inspect(mat.path))!.fields.find((f) => f.name === 'diffuse')!.value).toEqual([1, 0, 0, 1]);
    await docs.undo();
    expect(docs.active!.dirty).toBe(false);
    expect((await docs.inspect(mat.path))!.fields.find((f) => f.name === 'diffuse')!.value).toEqual(diffuse.value);
    await docs.redo();
    expect((await docs.inspect(mat.path))!.fields.find((f) => f.name === 'diffuse')!.value).toEqual([1, 0, 0, 1]);
  });

  it('returns the codec refusal and leaves the document untouched', async () => {
    const docs = await openSample();
    const mat = nodesOfKind(docs.active!.outline, 'material')[0]!;
    const shin = (await docs.inspect(mat.path))!.fields.find((f) => f.name === 'shininess')!;
    const err = await docs.edit({ op: 'set', path: shin.path, value: 300 });
    expect(err?.code).toBe('invalid');
    expect(err?.message).toMatch(/128|255|between|most/);
    expect(docs.active!.dirty).toBe(false);
    expect(docs.active!.canUndo).toBe(false);
  });

  it('saves, and the saved bytes decode with the edit in them', async () => {
    const docs = await openSample();
    const scheme = nodesOfKind(docs.active!.outline, 'light').find((n) => n.path[n.path.length - 2] !== 'lights')!;
    const name = (await docs.inspect(scheme.path))!.fields.find((f) => f.name === 'name')!;
    await docs.edit({ op: 'set', path: name.path, value: 'Dusk' });
    expect(await docs.save()).toBe(true);
    expect(docs.active!.dirty).toBe(false);
    const reread = lodkaCodec.decode(files.get('models/sample.lod')!);
    expect(lodkaCodec.inspect(reread, name.path.slice(0, -1))!.fields.find((f) => f.name === 'name')!.value).toBe('Dusk');
  });

  it('adds, moves and deletes list elements through the outline actions', async () => {
    const docs = await openSample();
    const set = nodesOfKind(docs.active!.outline, 'colliders').find((n) => n.actions?.add?.includes('collider'))!;
    const before = set.children?.length ?? 0;
    expect(await docs.create(set.path, 'collider')).toBe(true);
    const after = nodesOfKind(docs.active!.outline, 'colliders').find((n) => JSON.stringify(n.path) === JSON.stringify(set.path))!;
    expect(after.children!.length).toBe(before + 1);
    // The new collider is selected.
    expect(docs.selectedPath).toEqual(after.children![before]!.path);
    expect(await docs.move(after.children![before]!.path, -1)).toBe(true);
    expect(docs.selectedPath![docs.selectedPath!.length - 1]).toBe(before - 1);
    expect(await docs.remove(docs.selectedPath!)).toBe(true);
    const final = nodesOfKind(docs.active!.outline, 'colliders').find((n) => JSON.stringify(n.path) === JSON.stringify(set.path))!;
    expect(final.children?.length ?? 0).toBe(before);
  });

  it('duplicates a record next to the original with all its field values', async () => {
    const docs = await openSample();
    const lib = nodesOfKind(docs.active!.outline, 'materials').find((n) => n.children?.some((c) => c.kind === 'material'))!;
    const first = lib.children![0]!;
    const before = lib.children!.length;
    const original = await docs.inspect(first.path);
    expect(await docs.duplicate(first, lib, lib.actions!.add![0]!)).toBe(true);
    const after = findIn(docs.active!.outline, lib.path)!;
    expect(after.children!.length).toBe(before + 1);
    // The copy sits right after the original and is selected.
    const copyPath = [...first.path.slice(0, -1), (first.path[first.path.length - 1] as number) + 1];
    expect(docs.selectedPath).toEqual(copyPath);
    const copy = await docs.inspect(copyPath);
    const values = (i: typeof copy) => i!.fields.filter((f) => !f.readonly).map((f) => [f.name, f.value]);
    expect(values(copy)).toEqual(values(original));
  });

  it('shows a decode failure with its offset and leaves no tab behind', async () => {
    const docs = useDocs();
    expect(await docs.open('models/broken.lod')).toBeUndefined();
    expect(docs.docs).toHaveLength(0);
    expect(docs.error?.error.code).toBe('decode');
    expect(typeof docs.error?.error.offset).toBe('number');
  });

  it('finds the IMG1 screenshot image in the document', async () => {
    const docs = await openSample();
    const img = nodesOfKind(docs.active!.outline, 'image')[0]!;
    const png = await nodeImageBytes(docs, img.path);
    expect(png).not.toBeNull();
    expect([...png!.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    // The PNG ends with its IEND chunk.
    expect(new TextDecoder().decode(png!.subarray(png!.length - 8, png!.length - 4))).toBe('IEND');
    expect(findImage(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});

describe('events from the document service', () => {
  it('runs menu commands, shows progress and follows changes made elsewhere', async () => {
    const api = createFakeApi({ codecs: [lodkaCodec], files, sample: 'models/sample.lod' });
    setApi(api);
    const docs = useDocs();
    const menu: string[] = [];
    docs.listen((c) => {
      menu.push(c);
      if (c === 'edit:undo') void docs.undo();
    });
    await docs.openSample();
    const mat = nodesOfKind(docs.active!.outline, 'material')[0]!;
    const name = (await docs.inspect(mat.path))!.fields.find((f) => f.name === 'matName')!;
    await docs.edit({ op: 'set', path: name.path, value: 'chrome' });
    expect(docs.active!.dirty).toBe(true);

    api.emit('menu:command', { command: 'edit:undo' });
    expect(menu).toEqual(['edit:undo']);
    await expect.poll(() => docs.active!.dirty).toBe(false);

    api.emit('doc:progress', { id: docs.active!.id, task: 'Saving', fraction: 0.4 });
    expect(docs.progress).toEqual({ task: 'Saving', fraction: 0.4 });
    api.emit('doc:progress', { id: docs.active!.id, task: 'Saving', fraction: 1 });
    expect(docs.progress).toBeNull();

    // A snapshot pushed by the service (another window, a revert from the menu) replaces ours;
    // an older one arriving late does not.
    const current = docs.active!;
    api.emit('doc:changed', { ...current, revision: current.revision + 5, dirty: true });
    expect(docs.active!.revision).toBe(current.revision + 5);
    api.emit('doc:changed', { ...current, revision: current.revision + 1, dirty: false });
    expect(docs.active!.dirty).toBe(true);

    api.emit('doc:closed', { id: current.id });
    expect(docs.docs).toHaveLength(0);
    docs.unlisten();
  });
});

describe('the same revision announced again', () => {
  it("keeps the store's snapshot object, takes what differs into it and does not inspect again", async () => {
    const api = createFakeApi({ codecs: [lodkaCodec], files, sample: 'models/sample.lod' });
    const inspects: unknown[] = [];
    setApi({ ...api, invoke: ((c: string, req: unknown) => (c === 'doc:inspect' && inspects.push(req), (api.invoke as (c: string, r: unknown) => unknown)(c, req))) as typeof api.invoke });
    const docs = useDocs();
    docs.listen(() => undefined);
    await docs.openSample();
    const mat = nodesOfKind(docs.active!.outline, 'material')[0]!;
    docs.select(mat.path);
    await docs.refreshInspection();
    const name = (await docs.inspect(mat.path))!.fields.find((f) => f.name === 'matName')!;
    await docs.edit({ op: 'set', path: name.path, value: 'chrome' });
    await expect.poll(() => docs.inspection?.fields.find((f) => f.name === 'matName')?.value).toBe('chrome');
    const held = docs.active!;
    const outline = held.outline;
    const asked = inspects.length;
    // The edit's doc:changed event after its answer: the same snapshot, as a new object.
    api.emit('doc:changed', JSON.parse(JSON.stringify(held)) as DocSnapshot);
    // Settings: the same revision with other problems (a texture found in a new folder).
    const problems: Problem[] = [{ severity: 'warning', message: 'texture not found: a.paa', where: '' }];
    api.emit('doc:changed', { ...JSON.parse(JSON.stringify(held)), problems } as DocSnapshot);
    expect(docs.active).toBe(held);
    expect(docs.active!.outline).toBe(outline);
    expect(docs.active!.problems).toEqual(problems);
    await new Promise((r) => setTimeout(r, 0));
    expect(inspects.length).toBe(asked);
    // A later revision is a new snapshot, and the inspection is asked for again.
    api.emit('doc:changed', { ...JSON.parse(JSON.stringify(held)), revision: held.revision + 1 } as DocSnapshot);
    expect(docs.active).not.toBe(held);
    await expect.poll(() => inspects.length).toBe(asked + 1);
    docs.unlisten();
  });
});

describe('problems that follow the open (doc:problems)', () => {
  /** The API with doc:open answering as the host's editor open does: problems pending, sent as an event before or after the answer. */
  function pendingApi(order: 'before' | 'after') {
    const api = createFakeApi({ codecs: [lodkaCodec], files, sample: 'models/sample.lod' });
    const invoke = api.invoke.bind(api);
    const sent: Problem[][] = [];
    const problems: Problem[] = [{ severity: 'warning', message: 'a rule broken [path-missing]', where: 'material 0' }];
    api.invoke = (async (channel: string, req: unknown) => {
      const r = await (invoke as (c: string, q: unknown) => Promise<Result<DocSnapshot>>)(channel, req);
      if (channel !== 'doc:open' || !r.ok) return r;
      const send = () => {
        sent.push(problems);
        api.emit('doc:problems', { id: r.value.id, revision: r.value.revision, problems });
      };
      if (order === 'before') send();
      else setTimeout(send, 0);
      return { ok: true, value: { ...r.value, problems: [], problemsPending: true } };
    }) as typeof api.invoke;
    setApi(api);
    return { api, problems, sent };
  }

  for (const order of ['before', 'after'] as const) {
    it(`shows them whether the event comes ${order} the open's answer`, async () => {
      const { problems, sent } = pendingApi(order);
      const docs = useDocs();
      docs.listen(() => undefined);
      await docs.open('models/sample.lod');
      const shown = docs.active;
      if (order === 'after') expect(shown!.problemsPending).toBe(true);
      await expect.poll(() => sent.length).toBe(1);
      await expect.poll(() => docs.active!.problems).toEqual(problems);
      // The same document object: watchers of the active document (the preview) see no new one.
      expect(docs.active).toBe(shown);
      expect(docs.active!.problemsPending).toBeUndefined();
      docs.unlisten();
    });
  }

  it('takes them only for the revision that waits for them', async () => {
    const { api, sent } = pendingApi('after');
    const docs = useDocs();
    docs.listen(() => undefined);
    const s = await docs.open('models/sample.lod');
    // An edit came first: its snapshot has its own problems, and the late event changes nothing.
    api.emit('doc:changed', { ...docs.active!, problems: [], problemsPending: undefined, revision: s!.revision + 1 } as DocSnapshot);
    await expect.poll(() => sent.length).toBe(1);
    expect(docs.active!.revision).toBe(s!.revision + 1);
    expect(docs.active!.problems).toEqual([]);
    docs.unlisten();
  });
});

