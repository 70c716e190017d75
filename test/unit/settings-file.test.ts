/** The main process's settings file: read once, malformed content counts as no settings, written atomically. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_TEXTURE_ROOTS, SettingsFile } from '../../main/documents/settings.ts';

describe('settings file', () => {
  it('a missing, malformed or oddly shaped file reads as no texture folders; strings are kept, the rest dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodsmith-settings-'));
    try {
      expect(new SettingsFile(join(dir, 'none')).get()).toEqual({ textureRoots: [] });
      writeFileSync(join(dir, 'settings.json'), '{ not json');
      expect(new SettingsFile(dir).get()).toEqual({ textureRoots: [] });
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ textureRoots: 'P:/' }));
      expect(new SettingsFile(dir).get()).toEqual({ textureRoots: [] });
      const many = Array.from({ length: MAX_TEXTURE_ROOTS + 5 }, (_, i) => `/r${i}`);
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ textureRoots: ['/a', 3, null, '', '/b', ...many] }));
      const s = new SettingsFile(dir).get();
      expect(s.textureRoots.slice(0, 2)).toEqual(['/a', '/b']);
      expect(s.textureRoots).toHaveLength(MAX_TEXTURE_ROOTS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('set writes the file (creating the folder) and a new reader sees it; no temporary file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodsmith-settings-'));
    try {
      const cfg = join(dir, 'config');
      const f = new SettingsFile(cfg);
      await f.set({ textureRoots: ['/p', '/mods/x'] });
      expect(JSON.parse(readFileSync(join(cfg, 'settings.json'), 'utf8'))).toEqual({ textureRoots: ['/p', '/mods/x'] });
      expect(new SettingsFile(cfg).get()).toEqual({ textureRoots: ['/p', '/mods/x'] });
      expect(readdirSync(cfg)).toEqual(['settings.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
