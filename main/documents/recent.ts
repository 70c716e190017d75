/**
 * The recent-files list, persisted as JSON in the user config folder. Written atomically (a
 * broken list would be a silly way to lose it); an unreadable list starts empty instead of
 * failing the app.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from './atomic-save.ts';

/** How many entries the list keeps. */
export const RECENT_LIMIT = 12;

/** Persistent most-recently-used list of document paths. */
export class RecentFiles {
  readonly file: string;
  private readonly configDir: string;
  private list: string[] | undefined;

  constructor(configDir: string) {
    this.configDir = configDir;
    this.file = join(configDir, 'recent.json');
  }

  async get(): Promise<string[]> {
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

  /** Moves `path` to the front. */
  async add(path: string): Promise<void> {
    const list = (await this.get()).filter((p) => p !== path);
    list.unshift(path);
    await this.store(list.slice(0, RECENT_LIMIT));
  }

  async remove(path: string): Promise<void> {
    await this.store((await this.get()).filter((p) => p !== path));
  }

  private async store(list: string[]): Promise<void> {
    this.list = list;
    try {
      await mkdir(this.configDir, { recursive: true });
      await atomicWriteFile(this.file, new TextEncoder().encode(JSON.stringify({ files: list }, null, 2) + '\n'), { backup: false });
    } catch {
      // The list is a convenience: a read-only config folder must not break opening a file.
    }
  }
}
