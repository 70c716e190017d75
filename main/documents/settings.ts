/**
 * The editor's settings kept by the main process (Electron and the browser host alike), as JSON
 * in the user config folder: today the texture folders, searched for every open model's textures
 * before its own folder (docs/textures.md). Written atomically; an unreadable or malformed file
 * counts as no settings rather than failing the app.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from './atomic-save.ts';

/** Most texture folders kept (each one is searched for every texture a model names). */
export const MAX_TEXTURE_ROOTS = 32;

export interface StoredSettings {
  /** Absolute folder paths, in search order. */
  textureRoots: string[];
}

export class SettingsFile {
  readonly file: string;
  private readonly configDir: string;
  private value: StoredSettings;

  constructor(configDir: string) {
    this.configDir = configDir;
    this.file = join(configDir, 'settings.json');
    this.value = SettingsFile.read(this.file);
  }

  /** Read once at start (a small file; every texture lookup needs it at once). */
  private static read(file: string): StoredSettings {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { textureRoots?: unknown };
      const roots = Array.isArray(parsed?.textureRoots) ? parsed.textureRoots.filter((r): r is string => typeof r === 'string' && r.length > 0) : [];
      return { textureRoots: roots.slice(0, MAX_TEXTURE_ROOTS) };
    } catch {
      return { textureRoots: [] };
    }
  }

  get(): StoredSettings {
    return { textureRoots: [...this.value.textureRoots] };
  }

  /** Replaces the settings and writes them (atomically: a crash leaves the old file or the new one). */
  async set(next: StoredSettings): Promise<void> {
    this.value = { textureRoots: [...next.textureRoots] };
    await mkdir(this.configDir, { recursive: true });
    await atomicWriteFile(this.file, new TextEncoder().encode(JSON.stringify(this.value, null, 2) + '\n'), { backup: false });
  }
}
