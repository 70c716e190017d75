/** The disk lookup's folder matches: a folder's first match scans its names, later ones use indexes; both answer alike. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsLookup } from '../../main/documents/fs-lookup.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-lookup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Names whose lower cases collide (a case-sensitive disk holds all of them), one that lower-casing
// lengthens (U+0130), and plain ones.
const names = ['Model.CFG', 'model.cfg', 'MODEL.CFG', 'Data', 'box_CO.paa', '\u0130con.paa', 'other.p3d'];
for (const n of names) writeFileSync(join(dir, n), '');

const queries = ['model.cfg', 'MODEL.CFG', 'Model.cfg', 'BOX_co.PAA', 'box_co.paa', 'i\u0307con.paa', '\u0130CON.PAA', 'data', 'missing.cfg', 'other.P3D'];

describe('fsLookup().match', () => {
  it('answers a folder\'s first match (a scan) as later ones (indexes): the exact name first, else the first entry with that lower case', () => {
    const warm = fsLookup();
    warm.match!(dir, 'warm-up', 'warm-up');
    warm.match!(dir, 'warm-up', 'warm-up');
    for (const q of queries) {
      const first = fsLookup().match!(dir, q, q.toLowerCase());
      expect(first, q).toBe(warm.match!(dir, q, q.toLowerCase()));
    }
    const listed = fsLookup().list(dir)!;
    const firstLower = (q: string) => listed.find((n) => n.toLowerCase() === q.toLowerCase());
    expect(fsLookup().match!(dir, 'MODEL.CFG', 'model.cfg')).toBe('MODEL.CFG');
    expect(fsLookup().match!(dir, 'Model.cfg', 'model.cfg')).toBe(firstLower('model.cfg'));
    expect(fsLookup().match!(dir, '\u0130CON.PAA', '\u0130CON.PAA'.toLowerCase())).toBe('\u0130con.paa');
    expect(fsLookup().match!(dir, 'missing.cfg', 'missing.cfg')).toBeUndefined();
  });
});
