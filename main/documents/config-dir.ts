/**
 * Where the app keeps its small state (recent files, the sample's working copy) when Electron's
 * `userData` is not available: the browser host and tests. LODSMITH_CONFIG_DIR overrides it.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The per-user config folder for `app` (created by whoever writes into it). */
export function userConfigDir(app = 'lodsmith'): string {
  if (process.env.LODSMITH_CONFIG_DIR) return process.env.LODSMITH_CONFIG_DIR;
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), app);
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', app);
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), app);
}

/** Names each temporary file apart (two writers of one file in one process). */
let tempSeq = 0;

/**
 * Writes one of the app's small state files (the recent list, remembered choices) whole or not
 * at all: a temporary file renamed over it, but not the saves' fsyncs and read-back (opens wait
 * for some of these writes, and on a busy disk those took 4-24 ms). A file lost to a power cut
 * starts empty, as an unreadable one does. Never throws: the state is a convenience, and a
 * read-only config folder must not break what the user was doing.
 */
export async function writeStateFile(file: string, value: unknown): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${++tempSeq}.tmp`;
    await writeFile(temp, JSON.stringify(value, null, 2) + '\n');
    await rename(temp, file);
  } catch {
    /* see above */
  }
}
