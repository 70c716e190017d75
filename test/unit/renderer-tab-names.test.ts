/**
 * Document tabs never read the same: same-named files get the shortest distinguishing folder,
 * and long names that share a prefix stay distinguishable once shortened.
 */
import { describe, expect, it } from 'vitest';
import { TAB_NAME_MAX, tabNames, type TabSource } from '../../renderer/lib/tab-names.ts';

const doc = (id: string, path: string): TabSource => ({ id, path, fileName: path.split('/').pop()! });
const shown = (docs: TabSource[]) => {
  const m = tabNames(docs);
  return docs.map((d) => `${m.get(d.id)!.short}${m.get(d.id)!.folder ? ` [${m.get(d.id)!.folder}]` : ''}`);
};

describe('tabNames', () => {
  it('shows short unique names as they are, without folders', () => {
    expect(shown([doc('1', 'models/robot.lod'), doc('2', 'models/tank.p3d')])).toEqual(['robot.lod', 'tank.p3d']);
  });

  it('gives same-named files the shortest folder suffix that tells them apart', () => {
    const docs = [doc('1', 'mods/a/data/tank.p3d'), doc('2', 'mods/b/data/tank.p3d'), doc('3', 'mods/a/other/tank.p3d')];
    const r = shown(docs);
    expect(new Set(r).size).toBe(3);
    // "data" alone is shared by 1 and 2: they need one more folder; 3 is told apart by "other".
    expect(r).toEqual(['tank.p3d […/a/data]', 'tank.p3d […/b/data]', 'tank.p3d […/other]']);
  });

  it('a folder differing near the file is enough', () => {
    expect(shown([doc('1', 'x/one/house.p3d'), doc('2', 'x/two/house.p3d')])).toEqual(['house.p3d […/one]', 'house.p3d […/two]']);
  });

  it('shortens long names in the middle, so names sharing a long prefix still differ', () => {
    const docs = [doc('1', 'g/skeleton_warrior_axe_walk.animation'), doc('2', 'g/skeleton_warrior_axe_attack.animation')];
    const r = shown(docs);
    for (const s of r) expect(s.length).toBeLessThanOrEqual(TAB_NAME_MAX);
    expect(r[0]).toMatch(/^skeleton_w…/);
    expect(r[0]).toMatch(/walk\.animation$/);
    expect(r[1]).toMatch(/attack\.animation$/);
    expect(r[0]).not.toBe(r[1]);
  });

  it('names that differ only in the middle show the part where they differ', () => {
    const docs = [doc('1', 'p/building_ruin_A_variant_with_long_suffix_co.p3d'), doc('2', 'p/building_ruin_B_variant_with_long_suffix_co.p3d')];
    const r = shown(docs);
    expect(r[0]).not.toBe(r[1]);
    expect(r[0]).toContain('A_variant');
    expect(r[1]).toContain('B_variant');
    for (const s of r) expect(s.length).toBeLessThanOrEqual(TAB_NAME_MAX + 1);
  });
});
