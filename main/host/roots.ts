/**
 * The browser host's file access: only inside the root folders the user named. Paths the renderer
 * sees are `LABEL/relative/path` (LABEL is the root folder's name); a request may also use an
 * absolute path that lies inside a root. Refused: `..` segments, absolute paths outside the roots,
 * and symlinks (or symlinked folders) whose target is outside the roots. A path to write is
 * resolved up to its folder only: the file name itself is never followed (a link there is refused
 * by the write policy, main/documents/write-policy.ts), and no part of it below the root may be
 * hidden (start with a dot).
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FileEntry } from '../../shared/ipc/contract.ts';
import { fail, toAppError, AppErrorException } from '../documents/app-error.ts';
import type { PathIntent, PathPolicy } from '../documents/path-policy.ts';

interface Root {
  label: string;
  /** Real path (symlinks resolved) of the folder. */
  real: string;
}

const MAX_PATH = 4096;

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A {@link PathPolicy} confined to a set of root folders. */
export class RootPaths implements PathPolicy {
  readonly roots: readonly Root[];

  private constructor(roots: Root[]) {
    this.roots = roots;
  }

  /** Resolves the folders (which must exist) and gives each a unique label. */
  static async create(folders: string[]): Promise<RootPaths> {
    const roots: Root[] = [];
    for (const f of folders) {
      const real = await realpath(resolve(f));
      if (!(await stat(real)).isDirectory()) throw new Error(`root is not a folder: ${f}`);
      if (roots.some((r) => r.real === real)) continue;
      const base = basename(real) || 'root';
      let label = base;
      for (let i = 2; roots.some((r) => r.label === label); i++) label = `${base}-${i}`;
      roots.push({ label, real });
    }
    if (roots.length === 0) throw new Error('at least one root folder is needed');
    return new RootPaths(roots);
  }

  /** Labels, as the renderer addresses the roots. */
  labels(): string[] {
    return this.roots.map((r) => r.label);
  }

  private rootOf(real: string): Root | undefined {
    // The deepest root wins when roots nest, so paths stay short.
    return [...this.roots].sort((a, b) => b.real.length - a.real.length).find((r) => inside(r.real, real));
  }

  display(abs: string): string {
    const root = this.rootOf(abs);
    if (!root) return basename(abs);
    const rel = relative(root.real, abs).split(sep).join('/');
    return rel ? `${root.label}/${rel}` : root.label;
  }

  /** The lexical candidate for a user path: root + relative part. Refuses `..` and foreign absolute paths. */
  private candidate(userPath: string): string {
    if (userPath.length > MAX_PATH || userPath.includes('\0')) fail('denied', 'Invalid path');
    const p = userPath.replace(/\\/g, '/');
    const segments = p.split('/');
    if (segments.includes('..')) fail('denied', `Paths may not contain "..": ${userPath}`, { file: userPath });
    if (isAbsolute(p) || /^[A-Za-z]:/.test(p)) {
      const abs = resolve(p);
      if (!this.roots.some((r) => inside(r.real, abs))) fail('denied', `Outside the allowed folders: ${userPath}`, { file: userPath });
      return abs;
    }
    const [label, ...rest] = segments.filter((s) => s !== '' && s !== '.');
    const root = this.roots.find((r) => r.label === label);
    if (!root) fail('denied', `Not inside an allowed folder: ${userPath} (allowed: ${this.labels().join(', ')})`, { file: userPath });
    return join(root.real, ...rest);
  }

  private async confined(real: string, userPath: string): Promise<string> {
    if (!this.rootOf(real)) fail('denied', `The path leads outside the allowed folders (through a link): ${userPath}`, { file: userPath });
    return real;
  }

  async resolve(userPath: string, intent: PathIntent): Promise<string> {
    const cand = this.candidate(userPath);
    if (intent === 'write') return this.resolveWrite(cand, userPath);
    try {
      return await this.confined(await realpath(cand), userPath);
    } catch (e) {
      if (e instanceof AppErrorException) throw e;
      throw new AppErrorException(toAppError(e, userPath));
    }
  }

  /** The folder (which must exist) resolved and confined; the name kept as given: a write never follows it. */
  private async resolveWrite(cand: string, userPath: string): Promise<string> {
    let dir: string;
    try {
      dir = await realpath(dirname(cand));
    } catch (e) {
      throw new AppErrorException(toAppError(e, userPath));
    }
    const abs = join(await this.confined(dir, userPath), basename(cand));
    const root = this.rootOf(abs)!;
    if (relative(root.real, abs).split(sep).some((s) => s.startsWith('.'))) {
      fail('denied', `Hidden files and folders (names starting with a dot) are not written: ${userPath}`, { file: userPath });
    }
    return abs;
  }

  async list(userDir: string): Promise<FileEntry[]> {
    if (userDir.replace(/[\\/.]/g, '') === '') return this.roots.map((r) => ({ name: r.label, path: r.label, dir: true }));
    const abs = await this.resolve(userDir, 'list');
    const out: FileEntry[] = [];
    for (const d of await readdir(abs, { withFileTypes: true })) {
      if (d.name.startsWith('.')) continue;
      try {
        const real = await realpath(join(abs, d.name));
        if (!this.rootOf(real)) continue; // a link out of the roots is not shown
        const st = await stat(real);
        out.push({ name: d.name, path: this.display(join(abs, d.name)), dir: st.isDirectory(), ...(st.isFile() ? { size: st.size } : {}) });
      } catch {
        /* dangling or vanished */
      }
    }
    return out.sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
  }
}
