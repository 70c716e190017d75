/**
 * Where the app keeps its small state (recent files, the sample's working copy) when Electron's
 * `userData` is not available: the browser host and tests. LODSMITH_CONFIG_DIR overrides it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user config folder for `app` (created by whoever writes into it). */
export function userConfigDir(app = 'lodsmith'): string {
  if (process.env.LODSMITH_CONFIG_DIR) return process.env.LODSMITH_CONFIG_DIR;
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), app);
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', app);
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), app);
}
