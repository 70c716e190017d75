/**
 * Saving when the disk refuses: each case gives a sentence naming the problem, leaves the file
 * and its backup as they were, leaves no temporary file and keeps the edits in memory, so the
 * user can save again or elsewhere. (Conflicts, a full disk while writing and a vanished folder
 * are in doc-service.test.ts.) Errors are injected, so this runs the same as root.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeFile } from '../host/fake-format.ts';
import type { AtomicIo } from '../../main/documents/atomic-save.ts';
import { AppErrorException } from '../../main/documents/app-error.ts';
import { DocumentService } from '../../main/documents/document-service.ts';
import type { AppError } from '../../shared/ipc/contract.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-docfaults-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const errno = (code: string) => Object.assign(new Error(code), { code });

/**
 * Saves with `io` injected and checks that nothing was lost. `backupRotated`: the failure came
 * after the backup step, so `.bak` already holds the file on disk (still complete), as a
 * successful save would leave it.
 */
async function saveFails(io: Partial<AtomicIo>, backupRotated = false): Promise<{ err: AppError; file: string; svc: DocumentService; id: string }> {
  const file = join(dir, 'm.fake');
  await writeFile(file, fakeFile([{ value: 1, name: 'a' }]));
  await writeFile(file + '.bak', fakeFile([{ value: 0, name: 'older' }]));
  const svc = new DocumentService({ configDir: join(dir, 'config'), io });
  const { id } = await svc.open(file);
  await svc.edit(id, { op: 'set', path: ['items', 0, 'value'], value: 5 });
  const e = await svc.save(id).then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppErrorException);
  expect(new Uint8Array(await readFile(file))).toEqual(fakeFile([{ value: 1, name: 'a' }]));
  expect(new Uint8Array(await readFile(file + '.bak'))).toEqual(backupRotated ? fakeFile([{ value: 1, name: 'a' }]) : fakeFile([{ value: 0, name: 'older' }]));
  expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake', 'm.fake.bak']);
  expect(await svc.getSnapshot(id)).toMatchObject({ dirty: true, changedOnDisk: false });
  return { err: (e as AppErrorException).appError, file, svc, id };
}

describe('DocumentService save when the disk refuses', () => {
  it('a read-only file (EACCES from the write check) is refused before anything is written', async () => {
    const { err, file } = await saveFails({ access: async () => { throw errno('EACCES'); } });
    expect(err).toMatchObject({ code: 'denied', message: `The file is read-only: ${file}` });
  });

  it('a read-only folder (EACCES creating the temporary file)', async () => {
    const { err } = await saveFails({ open: async () => { throw errno('EACCES'); } });
    expect(err.code).toBe('denied');
    expect(err.message).toContain('Permission denied');
    expect(err.message).toContain('previous version is unchanged');
  });

  it('EPERM when replacing the file (a locked or immutable file)', async () => {
    const file = join(dir, 'm.fake');
    const rename: typeof fsp.rename = async (a, b) => {
      if (String(b) === file) throw errno('EPERM');
      return fsp.rename(a, b);
    };
    const { err } = await saveFails({ rename }, true);
    expect(err.code).toBe('denied');
    expect(err.message).toContain('Operation not permitted');
    expect(err.message).toContain('previous version is unchanged');
  });

  it('a full disk while copying the backup (ENOSPC)', async () => {
    const { err, svc, id } = await saveFails({ copyFile: async () => { throw errno('ENOSPC'); } });
    expect(err.code).toBe('io');
    expect(err.message).toContain('The disk is full');
    expect(err.message).toContain('previous version is unchanged');
    // Saving elsewhere still works, with the edit.
    await svc.saveAs(id, join(dir, 'rescued.fake'));
    expect(new Uint8Array(await readFile(join(dir, 'rescued.fake')))).toEqual(fakeFile([{ value: 5, name: 'a' }]));
  });
});
