/**
 * The recent-files list, persisted as JSON in the user config folder. Written atomically (a
 * broken list would be a silly way to lose it); an unreadable list starts empty instead of
 * failing the app.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeStateFile } from './config-dir.ts';

/** How many entries the list keeps. */
export const RECENT_LIMIT = 12;

/** Persistent most-recently-used list of document paths. */
export class RecentFiles {
  readonly file: string;
  private list: string[] | undefined;

  constructor(configDir: string) {
    this.file = join(configDir, 'recent.json');
  }

  /** The list, after any change still being written. */
  async get(): Promise<string[]> {
    await this.writing;
    return this.read();
  }

  /** Moves `path` to the front. Changes are applied and written one after another. */
  add(path: string): Promise<void> {
    return this.change((list) => [path, ...list.filter((p) => p !== path)]);
  }

  remove(path: string): Promise<void> {
    return this.change((list) => list.filter((p) => p !== path));
  }

  private writing: Promise<void> = Promise.resolve();

  private change(edit: (list: string[]) => string[]): Promise<void> {
    const next = this.writing.then(async () => this.store(edit(await this.read()).slice(0, RECENT_LIMIT)));
    this.writing = next;
    return next;
  }

  private async read(): Promise<string[]> {
    if (!this.list) {
      try {
        const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'));
        const files = (parsed as { files?: unknown })?.files;
        this.list = Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string').slice(0, RECENT_LIMIT) : [];
      } catch {
        this.list = [];
      }
    }
    return [...this.list];
  }

  private async store(list: string[]): Promise<void> {
    this.list = list;
    await writeStateFile(this.file, { files: list });
  }
}
