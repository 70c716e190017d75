/**
 * The desktop app's command line: model files to open, and `--anim ANIM` (repeatable, also
 * `--anim=ANIM`) animation files to attach to the last of them. Other flags (Electron's and
 * Chromium's own) are ignored. Paths come back absolute.
 */
import { resolve } from 'node:path';

export function parseLaunchArgs(args: readonly string[], cwd = process.cwd()): { files: string[]; anims: string[] } {
  const files: string[] = [];
  const anims: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--anim' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) anims.push(resolve(cwd, args[++i]!));
    else if (a.startsWith('--anim=') && a.length > 7) anims.push(resolve(cwd, a.slice(7)));
    else if (!a.startsWith('-') && a !== '.') files.push(resolve(cwd, a));
  }
  return { files, anims };
}
