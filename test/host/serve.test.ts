/**
 * `npm run serve` prints the address to open: the token rides in its fragment, which a browser
 * never sends to a server, never in the query.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../main/host/serve.ts';

describe('npm run serve', () => {
  it('prints an address with the token in its fragment', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lodsmith-serve-'));
    const lines: string[] = [];
    const host = await serve({ roots: [dir], port: 0, files: [], sample: false, configDir: join(dir, 'config') }, (l) => lines.push(l));
    try {
      const printed = lines.find((l) => l.startsWith('LodSmith is running at '))!.slice('LodSmith is running at '.length);
      expect(printed).toBe(`http://127.0.0.1:${host.port}/#token=${encodeURIComponent(host.token)}`);
      expect(new URL(printed).search).toBe('');
    } finally {
      await host.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
