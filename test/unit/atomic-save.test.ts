import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atomicWriteFile } from '../../main/documents/atomic-save.ts';
import { AppErrorException } from '../../main/documents/app-error.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (...b: number[]) => new Uint8Array(b);

async function rejection(p: Promise<unknown>): Promise<AppErrorException> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppErrorException);
  return e as AppErrorException;
}

describe('atomicWriteFile', () => {
  it('creates a new file without a backup', async () => {
    const f = join(dir, 'new.bin');
    const r = await atomicWriteFile(f, bytes(1, 2, 3));
    expect(r).toEqual({ path: f, backup: null });
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1, 2, 3));
    expect(await readdir(dir)).toEqual(['new.bin']);
  });

  it('replaces a file, keeps the previous version as .bak and keeps the mode', async () => {
    const f = join(dir, 'm.bin');
    await writeFile(f, bytes(1));
    await chmod(f, 0o640);
    await atomicWriteFile(f, bytes(2));
    await atomicWriteFile(f, bytes(3));
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(3));
    expect(new Uint8Array(await readFile(f + '.bak'))).toEqual(bytes(2));
    expect((await stat(f)).mode & 0o777).toBe(0o640);
    expect((await readdir(dir)).sort()).toEqual(['m.bin', 'm.bin.bak']);
  });

  it('writes through a symlink and keeps the link', async () => {
    const real = join(dir, 'real.bin');
    const link = join(dir, 'link.bin');
    await writeFile(real, bytes(1));
    await symlink(real, link);
    const r = await atomicWriteFile(link, bytes(9));
    expect(r.path).toBe(await fsp.realpath(real));
    expect(await readlink(link)).toBe(real);
    expect(new Uint8Array(await readFile(real))).toEqual(bytes(9));
  });

  it('with noFollow refuses a live or a dangling symlink and leaves both links as they were', async () => {
    const real = join(dir, 'real.bin');
    await writeFile(real, bytes(1));
    await symlink(real, join(dir, 'live.bin'));
    await symlink(join(dir, 'gone.bin'), join(dir, 'dangling.bin'));
    for (const name of ['live.bin', 'dangling.bin']) {
      const err = await rejection(atomicWriteFile(join(dir, name), bytes(9), { noFollow: true }));
      expect(err.appError.code).toBe('denied');
      expect(err.appError.message).toContain('symbolic link');
      expect((await fsp.lstat(join(dir, name))).isSymbolicLink()).toBe(true);
    }
    expect(new Uint8Array(await readFile(real))).toEqual(bytes(1));
    expect((await readdir(dir)).sort()).toEqual(['dangling.bin', 'live.bin', 'real.bin']);
  });

  it('with exclusive creates a new file but never replaces one, even one that appears meanwhile', async () => {
    const f = join(dir, 'new.bin');
    expect(await atomicWriteFile(f, bytes(1), { exclusive: true })).toEqual({ path: f, backup: null });
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    const there = await rejection(atomicWriteFile(f, bytes(2), { exclusive: true }));
    expect(there.appError.code).toBe('conflict');
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    // A file created by someone else between the check and the final step is not replaced.
    const late = join(dir, 'late.bin');
    const err = await rejection(atomicWriteFile(late, bytes(3), { exclusive: true, onStep: async (s) => void (s === 'temp-synced' && (await writeFile(late, 'theirs'))) }));
    expect(err.appError.code).toBe('conflict');
    expect(await readFile(late, 'utf8')).toBe('theirs');
    expect((await readdir(dir)).sort()).toEqual(['late.bin', 'new.bin']);
  });

  it('when NAME.bak is a folder, the error names NAME.bak and nothing is written', async () => {
    const f = join(dir, 'm.bin');
    await writeFile(f, bytes(1));
    await fsp.mkdir(`${f}.bak`);
    const err = await rejection(atomicWriteFile(f, bytes(2)));
    expect(err.appError.message).toBe(`Cannot keep the previous version as ${f}.bak: it is a folder. Move it away and save again; nothing was written.`);
    expect(err.appError.file).toBe(`${f}.bak`);
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    expect((await readdir(dir)).sort()).toEqual(['m.bin', 'm.bin.bak']);
    expect(await readdir(`${f}.bak`)).toEqual([]);
  });

  it('a backup that cannot be renamed into place is named in the error', async () => {
    const f = join(dir, 'm.bin');
    await writeFile(f, bytes(1));
    const rename: typeof fsp.rename = async (a, b) => {
      if (String(b) === `${f}.bak`) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      return fsp.rename(a, b);
    };
    const err = await rejection(atomicWriteFile(f, bytes(2), { io: { rename } }));
    expect(err.appError.message).toContain(`as ${f}.bak`);
    expect(err.appError.file).toBe(`${f}.bak`);
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    expect(await readdir(dir)).toEqual(['m.bin']);
  });

  it('aborts when verification throws, leaving the original and no temp files', async () => {
    const f = join(dir, 'm.bin');
    await writeFile(f, bytes(1));
    const err = await rejection(atomicWriteFile(f, bytes(2), { verify: () => { throw new Error('does not decode'); } }));
    expect(err.appError.message).toContain('does not decode');
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    expect(await readdir(dir)).toEqual(['m.bin']);
  });

  it('passes the bytes read back from disk to verify', async () => {
    const seen: Uint8Array[] = [];
    await atomicWriteFile(join(dir, 'v.bin'), bytes(4, 5), { verify: (b) => void seen.push(b) });
    expect(seen).toEqual([bytes(4, 5)]);
  });

  it('a failed final rename leaves the original and cleans up', async () => {
    const f = join(dir, 'm.bin');
    await writeFile(f, bytes(1));
    const rename: typeof fsp.rename = async (a, b) => {
      if (String(b) === f) throw Object.assign(new Error('io'), { code: 'EIO' });
      return fsp.rename(a, b);
    };
    const err = await rejection(atomicWriteFile(f, bytes(2), { io: { rename } }));
    expect(err.appError).toMatchObject({ code: 'io' });
    expect(err.appError.message).toContain('previous version is unchanged');
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  for (const [code, expected, text] of [['EROFS', 'denied', 'The disk is read-only'], ['EACCES', 'denied', 'Permission denied'], ['ENOSPC', 'io', 'The disk is full']] as const) {
    it(`reports ${code} on the temporary file plainly and keeps the original`, async () => {
      const f = join(dir, 'm.bin');
      await writeFile(f, bytes(1));
      const open: typeof fsp.open = async () => {
        throw Object.assign(new Error(code), { code });
      };
      const err = await rejection(atomicWriteFile(f, bytes(2), { io: { open } }));
      expect(err.appError.code).toBe(expected);
      expect(err.appError.message).toContain(text);
      expect(err.appError.message).toContain('previous version is unchanged');
      expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
      expect(await readdir(dir)).toEqual(['m.bin']);
    });
  }

  it('refuses a folder as target and a missing folder with clear errors', async () => {
    expect((await rejection(atomicWriteFile(dir, bytes(1)))).appError.code).toBe('invalid');
    const missing = await rejection(atomicWriteFile(join(dir, 'gone', 'x.bin'), bytes(1)));
    expect(missing.appError.code).toBe('not-found');
    expect(missing.appError.message).toContain('gone');
  });

  // Root may write anything, so there is nothing to prove when running as root.
  it.skipIf(process.getuid?.() === 0)('refuses a read-only file', async () => {
    const f = join(dir, 'ro.bin');
    await writeFile(f, bytes(1));
    await chmod(f, 0o444);
    expect((await rejection(atomicWriteFile(f, bytes(2)))).appError.code).toBe('denied');
    expect(new Uint8Array(await readFile(f))).toEqual(bytes(1));
  });
});
