/** The remembered config choices: read once, malformed rows dropped, most recent first, bounded, written whole. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHOSEN_CONFIGS_LIMIT, ChosenConfigs } from '../../main/documents/chosen-configs.ts';

function withDir(run: (dir: string) => Promise<void> | void) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodsmith-chosen-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

describe('remembered model configs', () => {
  it('a missing or malformed list remembers nothing; malformed rows are dropped, the rest kept', withDir((dir) => {
    expect(new ChosenConfigs(join(dir, 'none')).get('/m.p3d')).toBeUndefined();
    writeFileSync(join(dir, 'model-configs.json'), '{ not json');
    expect(new ChosenConfigs(dir).get('/m.p3d')).toBeUndefined();
    writeFileSync(join(dir, 'model-configs.json'), JSON.stringify({ models: [['/a.p3d', '/a.cfg'], ['/b.p3d'], [3, '/x'], ['', '/y'], 'z', ['/a.p3d', '/later.cfg'], ['/c.p3d', '/c.cfg']] }));
    const c = new ChosenConfigs(dir);
    expect(c.get('/a.p3d')).toBe('/a.cfg');
    expect(c.get('/b.p3d')).toBeUndefined();
    expect(c.get('/c.p3d')).toBe('/c.cfg');
  }));

  it('set writes the list (creating the folder), most recent first; null forgets; no temporary file is left', withDir(async (dir) => {
    const cfg = join(dir, 'config');
    const c = new ChosenConfigs(cfg);
    await c.set('/a.p3d', '/a.cfg');
    await c.set('/b.p3d', '/b.cfg');
    await c.set('/a.p3d', '/a2.cfg');
    expect(JSON.parse(readFileSync(join(cfg, 'model-configs.json'), 'utf8'))).toEqual({ models: [['/a.p3d', '/a2.cfg'], ['/b.p3d', '/b.cfg']] });
    await c.set('/b.p3d', null);
    expect(new ChosenConfigs(cfg).get('/b.p3d')).toBeUndefined();
    expect(new ChosenConfigs(cfg).get('/a.p3d')).toBe('/a2.cfg');
    expect(readdirSync(cfg)).toEqual(['model-configs.json']);
  }));

  it(`keeps the ${CHOSEN_CONFIGS_LIMIT} most recent choices`, withDir(async (dir) => {
    const c = new ChosenConfigs(dir);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < CHOSEN_CONFIGS_LIMIT + 3; i++) writes.push(c.set(`/m${i}.p3d`, `/c${i}.cfg`));
    await Promise.all(writes);
    const stored = JSON.parse(readFileSync(join(dir, 'model-configs.json'), 'utf8')) as { models: [string, string][] };
    expect(stored.models).toHaveLength(CHOSEN_CONFIGS_LIMIT);
    expect(stored.models[0]).toEqual([`/m${CHOSEN_CONFIGS_LIMIT + 2}.p3d`, `/c${CHOSEN_CONFIGS_LIMIT + 2}.cfg`]);
    const again = new ChosenConfigs(dir);
    expect(again.get('/m0.p3d')).toBeUndefined();
    expect(again.get('/m3.p3d')).toBe('/c3.cfg');
  }));
});
