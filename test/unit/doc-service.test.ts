import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fsp from 'node:fs/promises';
import { fakeControls, fakeFile } from '../host/fake-format.ts';
import { DocumentService } from '../../main/documents/document-service.ts';
import { AppErrorException } from '../../main/documents/app-error.ts';
import type { AppError, EventMap } from '../../shared/ipc/contract.ts';

let dir: string;
let events: { channel: string; payload: unknown }[];

function service(extra: Partial<ConstructorParameters<typeof DocumentService>[0]> = {}): DocumentService {
  return new DocumentService({
    configDir: join(dir, 'config'),
    emit: (channel, payload) => events.push({ channel, payload }),
    ...extra,
  });
}

async function appError(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof AppErrorException) return e.appError;
    throw e;
  }
  throw new Error('expected an AppError');
}

async function writeModel(name: string, items = [{ value: 1, name: 'a' }, { value: 2, name: 'bb' }]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, fakeFile(items));
  return file;
}

beforeEach(async () => {
  // Real path: documents are keyed by the file's real path (macOS's /tmp is a link).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-docsvc-')));
  events = [];
  fakeControls.corruptEncode = false;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DocumentService open', () => {
  it('opens a file, reports format, outline, problems and progress', async () => {
    const file = await writeModel('m.fake', [{ value: 5000, name: 'big' }]);
    const svc = service();
    const snap = await svc.open(file);
    expect(snap).toMatchObject({ path: file, fileName: 'm.fake', format: 'fake', version: 1, dirty: false, canUndo: false, canRedo: false, changedOnDisk: false });
    expect(snap.bytes).toBe(fakeFile([{ value: 5000, name: 'big' }]).length);
    expect(snap.outline.children?.[0]?.count).toBe(1);
    expect(snap.problems).toEqual([expect.objectContaining({ severity: 'warning', message: 'value above 1000' })]);
    const progress = events.filter((e) => e.channel === 'doc:progress').map((e) => e.payload as EventMap['doc:progress']);
    expect(progress.some((p) => p.task === 'read' && p.fraction === 1)).toBe(true);
    expect(progress.some((p) => p.task === 'decode' && p.fraction === 1)).toBe(true);
    // Opening the same file again, directly or through a link, returns the same document.
    expect((await svc.open(file)).id).toBe(snap.id);
    await symlink(file, join(dir, 'alias.fake'));
    expect((await svc.open(join(dir, 'alias.fake'))).id).toBe(snap.id);
    expect(await svc.list()).toHaveLength(1);
  });

  it('two simultaneous opens of one file make one document', async () => {
    const file = await writeModel('m.fake');
    const svc = service();
    const [a, b] = await Promise.all([svc.open(file), svc.open(file)]);
    expect(a.id).toBe(b.id);
    expect(await svc.list()).toHaveLength(1);
  });

  it('reports a decode error with offset and node path, and opens nothing', async () => {
    const bytes = fakeFile([{ value: 1, name: 'abc' }]);
    const file = join(dir, 'broken.fake');
    await writeFile(file, bytes.subarray(0, bytes.length - 2));
    const svc = service();
    const err = await appError(svc.open(file));
    expect(err).toMatchObject({ code: 'decode', offset: 12, path: 'items[0]/name' });
    expect(err.message).toContain('past the end');
    expect(await svc.list()).toHaveLength(0);
  });

  it('refuses unknown files and missing files with clear errors', async () => {
    await writeFile(join(dir, 'x.bin'), new Uint8Array([1, 2, 3, 4, 5]));
    const svc = service();
    expect(await appError(svc.open(join(dir, 'x.bin')))).toMatchObject({ code: 'decode', offset: 0 });
    const missing = await appError(svc.open(join(dir, 'nope.fake')));
    expect(missing.code).toBe('not-found');
    expect(missing.message).toContain('nope.fake');
    expect(await appError(svc.open(dir))).toMatchObject({ code: 'invalid' });
  });

  it('refuses files above the size limit before reading them', async () => {
    const file = await writeModel('m.fake');
    const err = await appError(service({ maxFileBytes: 4 }).open(file));
    expect(err.code).toBe('invalid');
    expect(err.message).toContain('too large');
  });
});

describe('DocumentService edits', () => {
  it('applies, undoes and redoes edits with labels and dirty state', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    let snap = await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 42, label: 'Set value' });
    expect(snap).toMatchObject({ dirty: true, canUndo: true, canRedo: false, undoLabel: 'Set value', revision: 2 });
    expect(svc.inspect(id, ['items', 0])?.fields[0]?.value).toBe(42);
    snap = await svc.undo(id);
    expect(snap).toMatchObject({ dirty: false, canUndo: false, canRedo: true, redoLabel: 'Set value' });
    expect(svc.inspect(id, ['items', 0])?.fields[0]?.value).toBe(1);
    snap = await svc.redo(id);
    expect(snap.dirty).toBe(true);
    expect(svc.inspect(id, ['items', 0])?.fields[0]?.value).toBe(42);
    expect(events.filter((e) => e.channel === 'doc:changed')).toHaveLength(3);
    expect((await appError(svc.redo(id))).code).toBe('invalid');
  });

  it('merges the sets of one gesture on one path into one undo step, and nothing else', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    // One drag: four moves with the same gesture id.
    for (const v of [10, 11, 12, 13]) await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: v, gesture: 'drag-1' });
    // Two separate committed edits of the same field: two steps.
    await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: 20 });
    await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: 30 });
    // A new drag on the same field is a step of its own.
    for (const v of [40, 41]) await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: v, gesture: 'drag-2' });
    const value = () => svc.inspect(id, ['items', 1])?.fields[0]?.value;
    expect((await svc.getSnapshot(id)).history?.labels).toHaveLength(4);
    await svc.undo(id);
    expect(value()).toBe(30);
    await svc.undo(id);
    expect(value()).toBe(20);
    await svc.undo(id);
    expect(value()).toBe(13);
    const snap = await svc.undo(id);
    expect(value()).toBe(2);
    expect(snap.canUndo).toBe(false);
  });

  it('names each step after the field and the node, and goes back to any step of the history', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: 6, label: 'Type six' });
    await svc.save(id);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 7 });
    let snap = await svc.getSnapshot(id);
    const first = snap.history!.labels[0]!;
    expect(first).toMatch(/^Set value of /);
    expect(first).toContain(snap.outline.children![0]!.children![0]!.label ?? snap.outline.children![0]!.children![0]!.name);
    expect(snap.history).toMatchObject({ labels: [first, 'Type six', 'Set value of ' + first.slice('Set value of '.length)], first: 0, at: 3, savedAt: 2 });
    expect(snap.undoLabel).toBe(snap.history!.labels[2]);
    // Back to the state as opened: three steps undone in one request, all redoable.
    snap = await svc.goto(id, 0);
    expect(snap).toMatchObject({ canUndo: false, canRedo: true, dirty: true, history: { at: 0, savedAt: 2 } });
    expect(svc.inspect(id, ['items', 0])?.fields[0]?.value).toBe(1);
    // Forward to the saved state: clean again.
    snap = await svc.goto(id, 2);
    expect(snap).toMatchObject({ dirty: false, redoLabel: snap.history!.labels[2] });
    expect(svc.inspect(id, ['items', 1])?.fields[0]?.value).toBe(6);
    expect((await appError(svc.goto(id, 9))).code).toBe('invalid');
  });

  it('opens dropped bytes read-only until Save As puts them in a folder', async () => {
    const svc = service();
    const bytes = fakeFile([{ value: 3, name: 'x' }]);
    const snap = await svc.openBytes('dropped.fake', bytes);
    expect(snap).toMatchObject({ fileName: 'dropped.fake', path: 'dropped.fake', readOnly: true, dirty: false });
    expect((await appError(svc.edit(snap.id, { op: 'set', path: ['items', 0, 'value'], value: 4 }))).code).toBe('denied');
    expect((await appError(svc.save(snap.id))).code).toBe('invalid');
    expect((await appError(svc.revert(snap.id))).code).toBe('invalid');
    expect((await appError(svc.openBytes('junk.bin', new Uint8Array([1, 2, 3])))).code).toBe('decode');
    const target = join(dir, 'kept.fake');
    const saved = await svc.saveAs(snap.id, target);
    expect(saved).toMatchObject({ fileName: 'kept.fake', path: target });
    expect(saved.readOnly).toBeUndefined();
    expect(new Uint8Array(await readFile(target))).toEqual(bytes);
    const edited = await svc.edit(snap.id, { op: 'set', path: ['items', 0, 'value'], value: 4 });
    expect(edited.dirty).toBe(true);
  });

  it('finds nodes by name and by field value', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake', [{ value: 1, name: 'alpha' }, { value: 250, name: 'beta' }, { value: 3, name: 'gamma' }]));
    const byValue = svc.find(id, '250');
    expect(byValue.paths).toEqual([['items', 1]]);
    expect(svc.find(id, 'GAM').paths).toEqual([['items', 2]]);
    expect(svc.find(id, '999').paths).toEqual([]);
  });

  it('does not merge across a save, so undo returns to the saved value', async () => {
    const svc = service();
    const file = await writeModel('m.fake');
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: 10 });
    await svc.save(id);
    const snap = await svc.edit(id, { op: 'set', path: ['items', 1, 'value'], value: 20 });
    expect(snap.dirty).toBe(true);
    const back = await svc.undo(id);
    expect(back.dirty).toBe(false);
    expect(svc.inspect(id, ['items', 1])?.fields[0]?.value).toBe(10);
  });

  it('refuses edits the codec rejects and leaves the document untouched', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    const err = await appError(svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: -1 }));
    expect(err).toMatchObject({ code: 'invalid', message: 'value must be a number >= 0' });
    expect((await appError(svc.edit(id, { op: 'set', path: ['items', 9, 'value'], value: 1 }))).code).toBe('invalid');
    const snap = await svc.getSnapshot(id);
    expect(snap).toMatchObject({ dirty: false, canUndo: false, revision: 1 });
  });

  it('creates nodes through the codec', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    const snap = await svc.create(id, ['items'], 'item');
    expect(snap.outline.children?.[0]?.count).toBe(3);
    expect(snap.undoLabel).toBe('Add item to items');
    expect((await appError(svc.create(id, ['items'], 'bone'))).code).toBe('invalid');
  });

  it('serves bytes of the original file and of the edited document', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    expect([...svc.bytes(id, 0, 4)]).toEqual([...new TextEncoder().encode('FAKE')]);
    expect(svc.bytes(id, 8, 12)).toEqual(new Uint8Array([1, 0, 0, 0]));
    expect(svc.bytes(id, -5, 1e9).length).toBe(fakeFile([{ value: 1, name: 'a' }, { value: 2, name: 'bb' }]).length);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 0x01020304 });
    expect(svc.bytes(id, 8, 12)).toEqual(new Uint8Array([4, 3, 2, 1]));
  });
});

describe('DocumentService saving', () => {
  it('saves atomically, keeps the previous version as .bak and reopens with the edit', async () => {
    const file = await writeModel('m.fake');
    const before = await readFile(file);
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 1, 'name'], value: 'renamed' });
    const snap = await svc.save(id);
    expect(snap).toMatchObject({ dirty: false, changedOnDisk: false, canUndo: true });
    expect(new Uint8Array(await readFile(file))).toEqual(fakeFile([{ value: 1, name: 'a' }, { value: 2, name: 'renamed' }]));
    expect(await readFile(file + '.bak')).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake', 'm.fake.bak']);
    const again = service();
    const reopened = await again.open(file);
    expect(again.inspect(reopened.id, ['items', 1])?.title).toBe('renamed');
    expect((await again.recentFiles())[0]).toBe(file);
  });

  it('an untouched document saves byte for byte', async () => {
    const file = await writeModel('m.fake');
    const before = new Uint8Array(await readFile(file));
    const svc = service();
    const { id } = await svc.open(file);
    await svc.save(id);
    expect(new Uint8Array(await readFile(file))).toEqual(before);
  });

  it('warns with a conflict when the file changed on disk, and overwrites only when told', async () => {
    const file = await writeModel('m.fake');
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 9 });
    const theirs = fakeFile([{ value: 77, name: 'someone else' }]);
    await writeFile(file, theirs);
    expect((await svc.getSnapshot(id)).changedOnDisk).toBe(true);
    const err = await appError(svc.save(id));
    expect(err.code).toBe('conflict');
    expect(new Uint8Array(await readFile(file))).toEqual(theirs);
    const snap = await svc.save(id, { overwriteChanged: true });
    expect(snap).toMatchObject({ dirty: false, changedOnDisk: false });
    expect(new Uint8Array(await readFile(file + '.bak'))).toEqual(theirs);
    expect(new Uint8Array(await readFile(file))).toEqual(fakeFile([{ value: 9, name: 'a' }, { value: 2, name: 'bb' }]));
  });

  it('a touched but unchanged file is not a conflict', async () => {
    const file = await writeModel('m.fake');
    const svc = service();
    const { id } = await svc.open(file);
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 3 });
    await expect(svc.save(id)).resolves.toMatchObject({ dirty: false });
  });

  it('a deleted file is a conflict; saving anyway recreates it', async () => {
    const file = await writeModel('m.fake');
    const svc = service();
    const { id } = await svc.open(file);
    await rm(file);
    expect((await appError(svc.save(id))).code).toBe('conflict');
    await svc.save(id, { overwriteChanged: true });
    expect(new Uint8Array(await readFile(file))).toEqual(fakeFile([{ value: 1, name: 'a' }, { value: 2, name: 'bb' }]));
  });

  it('does not write a file that would not decode again', async () => {
    const file = await writeModel('m.fake');
    const before = await readFile(file);
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    fakeControls.corruptEncode = true;
    const err = await appError(svc.save(id));
    expect(err.code).toBe('encode');
    expect(err.message).toContain('would not open again');
    expect(await readFile(file)).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake']);
    expect((await svc.getSnapshot(id)).dirty).toBe(true);
  });

  it('reports an encode error with the node path and writes nothing', async () => {
    const file = await writeModel('m.fake');
    const before = await readFile(file);
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 2 ** 40 });
    expect(await appError(svc.save(id))).toMatchObject({ code: 'encode', path: 'items' });
    expect(await readFile(file)).toEqual(before);
  });

  it('a full disk gives a clear error and loses nothing', async () => {
    const file = await writeModel('m.fake');
    const before = await readFile(file);
    const enospc: typeof fsp.open = (async (...args: Parameters<typeof fsp.open>) => {
      const fh = await fsp.open(...args);
      return new Proxy(fh, {
        get(target, prop, receiver) {
          if (prop === 'write') return async () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }); };
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    }) as typeof fsp.open;
    const svc = service({ io: { open: enospc } });
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    const err = await appError(svc.save(id));
    expect(err.code).toBe('io');
    expect(err.message).toContain('The disk is full');
    expect(err.message).toContain('previous version is unchanged');
    expect(await readFile(file)).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake']);
    expect((await svc.getSnapshot(id)).dirty).toBe(true);
  });

  it('a vanished folder gives a clear error and keeps the edits in memory', async () => {
    const sub = join(dir, 'sub');
    await fsp.mkdir(sub);
    const file = join(sub, 'm.fake');
    await writeFile(file, fakeFile([{ value: 1, name: 'a' }]));
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    await rm(sub, { recursive: true });
    const err = await appError(svc.save(id, { overwriteChanged: true }));
    expect(err.code).toBe('not-found');
    expect(err.message).toContain('not available');
    const saved = await svc.saveAs(id, join(dir, 'rescued.fake'));
    expect(saved).toMatchObject({ fileName: 'rescued.fake', dirty: false });
    expect(new Uint8Array(await readFile(join(dir, 'rescued.fake')))).toEqual(fakeFile([{ value: 5, name: 'a' }]));
  });

  it('save as moves the document to the new path and leaves the old file alone', async () => {
    const file = await writeModel('m.fake');
    const before = await readFile(file);
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    const snap = await svc.saveAs(id, join(dir, 'copy.fake'));
    expect(snap).toMatchObject({ path: join(dir, 'copy.fake'), dirty: false });
    expect(await readFile(file)).toEqual(before);
    expect(await svc.recent.get()).toEqual([join(dir, 'copy.fake'), file]);
  });

  it('reverts to the version on disk', async () => {
    const file = await writeModel('m.fake');
    const svc = service();
    const { id } = await svc.open(file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    await writeFile(file, fakeFile([{ value: 8, name: 'disk' }]));
    const snap = await svc.revert(id);
    expect(snap).toMatchObject({ dirty: false, canUndo: false, changedOnDisk: false });
    expect(svc.inspect(id, ['items', 0])?.title).toBe('disk');
  });
});

describe('DocumentService save policy (the desktop app: any local path, same rules)', () => {
  it('Save As and export accept only their extensions, no dot names, no links, no silent overwrite', async () => {
    const file = await writeModel('m.fake');
    const svc = service({ gltf: () => new Uint8Array([1]) });
    const { id } = await svc.open(file);
    for (const name of ['notes.txt', '.bashrc', 'pwn.exe', '.hidden.fake', 'x.p3d', 'noext']) {
      expect(await appError(svc.saveAs(id, join(dir, name), true)), name).toMatchObject({ code: 'denied' });
    }
    for (const name of ['export.txt', '.x.glb', 'x.fake']) {
      expect(await appError(svc.exportGltf(id, join(dir, name), undefined, undefined, true)), name).toMatchObject({ code: 'denied' });
    }
    await writeModel('other.fake', [{ value: 3, name: 'other' }]);
    await symlink(join(dir, 'other.fake'), join(dir, 'live.fake'));
    await symlink(join(dir, 'none.fake'), join(dir, 'dangling.fake'));
    for (const name of ['live.fake', 'dangling.fake']) {
      expect(await appError(svc.saveAs(id, join(dir, name), true)), name).toMatchObject({ code: 'denied' });
    }
    expect(await appError(svc.saveAs(id, join(dir, 'other.fake')))).toMatchObject({ code: 'conflict', message: expect.stringContaining('already exists') });
    expect(await appError(svc.saveAs(id, file))).toMatchObject({ code: 'conflict' });
    expect((await readdir(dir)).filter((n) => n !== 'config').sort()).toEqual(['dangling.fake', 'live.fake', 'm.fake', 'other.fake']);
    expect(new Uint8Array(await readFile(join(dir, 'other.fake')))).toEqual(fakeFile([{ value: 3, name: 'other' }]));
    await svc.saveAs(id, join(dir, 'other.fake'), true);
    expect(new Uint8Array(await readFile(join(dir, 'other.fake')))).toEqual(fakeFile([{ value: 1, name: 'a' }, { value: 2, name: 'bb' }]));
    await svc.exportGltf(id, join(dir, 'out.glb'));
    expect(await appError(svc.exportGltf(id, join(dir, 'out.glb')))).toMatchObject({ code: 'conflict' });
    await svc.exportGltf(id, join(dir, 'out.glb'), undefined, undefined, true);
  });

  it('Save refuses when the document file was replaced by a link meanwhile', async () => {
    const file = await writeModel('m.fake');
    await writeModel('elsewhere.fake');
    const svc = service();
    const { id } = await svc.open(file);
    await rm(file);
    await symlink(join(dir, 'elsewhere.fake'), file);
    await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
    expect(await appError(svc.save(id, { overwriteChanged: true }))).toMatchObject({ code: 'denied' });
    expect(new Uint8Array(await readFile(join(dir, 'elsewhere.fake')))).toEqual(fakeFile([{ value: 1, name: 'a' }, { value: 2, name: 'bb' }]));
  });
});

describe('DocumentService node bytes, screenshots, textures', () => {
  it('exports a node and imports bytes over another, undoably', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    const first = svc.exportNode(id, ['items', 0]);
    expect(first).toEqual(fakeFile([{ value: 1, name: 'a' }]).subarray(8));
    const snap = await svc.importNode(id, ['items', 1], first);
    expect(snap.dirty).toBe(true);
    expect(svc.inspect(id, ['items', 1])?.title).toBe('a');
    expect(svc.exportNode(id, ['items', 1])).toEqual(first);
    await svc.undo(id);
    expect(svc.inspect(id, ['items', 1])?.title).toBe('bb');
  });

  it('refuses imported bytes that do not decode as the node', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    const err = await appError(svc.importNode(id, ['items', 1], new Uint8Array([1, 0, 0, 0, 200, 0, 0, 0])));
    expect(err.code).toBe('decode');
    expect(err.message).toContain('do not fit');
    expect((await svc.getSnapshot(id)).dirty).toBe(false);
    expect((await appError(() => svc.exportNode(id, ['nothing']))).code).toBe('invalid');
  });

  it('stores a screenshot as an undoable edit', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    let snap = await svc.screenshot(id, new Uint8Array(10), 'preview');
    expect(snap).toMatchObject({ dirty: true, undoLabel: 'Screenshot' });
    expect(snap.outline.children?.[0]?.count).toBe(3);
    snap = await svc.screenshot(id, new Uint8Array(20));
    expect(snap.outline.children?.[0]?.count).toBe(3);
    expect(svc.inspect(id, ['items', 2])?.title).toBe('SHOT SHOT:20');
    await svc.undo(id);
    snap = await svc.undo(id);
    expect(snap.outline.children?.[0]?.count).toBe(2);
  });

  it('finds embedded textures and files next to the model, never outside its folder', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    await writeFile(join(dir, 'Wood.PNG'), new Uint8Array([9, 9]));
    expect(await svc.texture(id, 'embedded.png')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await svc.texture(id, 'data\\textures\\wood.png')).toEqual(new Uint8Array([9, 9]));
    expect(await svc.texture(id, '../m.fake.bak')).toBeNull();
    expect(await svc.texture(id, '..')).toBeNull();
    // Only image types: never another file beside the model.
    await writeFile(join(dir, 'secret.txt'), 'secret');
    await writeModel('other.fake');
    for (const name of ['secret.txt', 'other.fake', 'm.fake']) expect(await svc.texture(id, name), name).toBeNull();
    await writeFile(join(dir, 'hull.paa'), new Uint8Array([7]));
    expect(await svc.texture(id, 'p:\\ca\\hull.PAA')).toEqual(new Uint8Array([7]));
  });
});

describe('DocumentService sample, recent, close', () => {
  it('opens a working copy of the sample, so the bundled file is never modified', async () => {
    const sample = await writeModel('sample.fake');
    const before = await readFile(sample);
    const svc = service({ samplePath: sample });
    const snap = await svc.openSample();
    expect(snap.path).toBe(join(dir, 'config', 'sample', 'sample.fake'));
    await svc.edit(snap.id, { op: 'set', path: ['items', 0, 'value'], value: 3 });
    await svc.save(snap.id);
    expect(await readFile(sample)).toEqual(before);
    expect((await svc.openSample()).id).toBe(snap.id);
    expect((await appError(service().openSample())).code).toBe('not-found');
  });

  it('persists recent files and hides entries that vanished', async () => {
    const a = await writeModel('a.fake');
    const b = await writeModel('b.fake');
    const svc = service();
    await svc.open(a);
    await svc.open(b);
    expect(await service().recentFiles()).toEqual([b, a]);
    await rm(a);
    expect(await service().recentFiles()).toEqual([b]);
  });

  it('closes documents and emits doc:closed', async () => {
    const svc = service();
    const { id } = await svc.open(await writeModel('m.fake'));
    await svc.close(id);
    expect(events.at(-1)).toEqual({ channel: 'doc:closed', payload: { id } });
    expect((await appError(svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 1 }))).code).toBe('not-found');
  });
});
