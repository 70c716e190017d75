/**
 * The editor's decoding memory setting: sent with `doc:open` (validated by the IPC schema), used
 * by the document service for the decode and every re-read, and kept by the renderer's settings
 * store. The same bomb the CLI refuses is refused by the editor by default and opens once raised.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppErrorException } from '../../main/documents/app-error.ts';
import { DocumentService } from '../../main/documents/document-service.ts';
import { validateRequest } from '../../main/ipc/validate.ts';
import { createFakeApi } from '../../renderer/bridge/fake-api.ts';
import { setApi } from '../../renderer/bridge/index.ts';
import { useDocs } from '../../renderer/stores/use-docs.ts';
import { useSettings } from '../../renderer/stores/use-settings.ts';
import '../../shared/formats/index.ts';
import { odolCodec } from '../../shared/formats/p3d/odol/index.ts';
import { odolLzoBomb } from '../helpers/bombs.ts';

const MiB = 1024 * 1024;
// 80 MiB of vertices from a ~330 KB file: past the default budget (~69 MiB), inside 256 MiB.
const bomb = odolLzoBomb(80 * MiB - ((80 * MiB) % 12));

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-mem-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('document service', () => {
  it('refuses the bomb by default, naming the limit and the setting, and opens it with a raised limit', async () => {
    const file = join(dir, 'bomb.p3d');
    await writeFile(file, bomb);
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });
    let err: unknown;
    try {
      await svc.open(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppErrorException);
    const app = (err as AppErrorException).appError;
    expect(app.code).toBe('decode');
    expect(app.message).toMatch(/decoding memory budget of 69\.\d MiB.*Memory limit setting/);
    expect(app.path).toMatch(/lods\[0\]\/vertices/);
    const s = await svc.open(file, 256 * MiB);
    expect(s.format).toBe('p3d-odol');
  });
});

describe('IPC schema', () => {
  it('accepts a memory setting from 1 MiB to 64 GiB on doc:open and nothing else', () => {
    expect(validateRequest('doc:open', { path: 'a.p3d', maxMemory: 256 * MiB })).toEqual({ ok: true, value: { path: 'a.p3d', maxMemory: 256 * MiB } });
    expect(validateRequest('doc:open', { path: 'a.p3d' })).toEqual({ ok: true, value: { path: 'a.p3d' } });
    for (const bad of [0, -1, 1.5, 1024, 65 * 1024 * MiB, '256M', Number.NaN]) {
      expect(validateRequest('doc:open', { path: 'a.p3d', maxMemory: bad }).ok, String(bad)).toBe(false);
    }
  });
});

describe('renderer settings store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(createFakeApi({ codecs: [odolCodec], files: new Map([['models/bomb.p3d', bomb]]) }));
  });

  it('opens with the default limit until the user raises it, then sends the limit with doc:open', async () => {
    const docs = useDocs();
    const settings = useSettings();
    expect(settings.maxMemoryMiB).toBe(0);
    expect(await docs.open('models/bomb.p3d')).toBeUndefined();
    expect(docs.error?.error.message).toMatch(/decoding memory budget/);
    settings.maxMemoryMiB = 256;
    expect(settings.maxMemoryBytes).toBe(256 * MiB);
    const s = await docs.open('models/bomb.p3d');
    expect(s?.format).toBe('p3d-odol');
  });
});
