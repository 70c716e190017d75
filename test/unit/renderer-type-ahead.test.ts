/**
 * Type-ahead in the Open dialog's file list: the letters typed go to the first name starting with
 * them, a repeated letter steps through the names with that first letter, and a pause starts over.
 */
import { describe, expect, it } from 'vitest';
import { TypeAhead } from '../../renderer/lib/type-ahead.ts';

const names = ['ace_point.rtm', 'bmtr_lzo.rtm', 'ladder.p3d', 'man_bandit.p3d', 'map_in.rtm', 'Model.cfg', 'thumbsup.rtm'];

describe('type-ahead', () => {
  it('goes to the first name starting with what was typed, without case', () => {
    const t = new TypeAhead(800);
    expect(t.next('M', 0, names, 0)).toBe(3);
    expect(t.next('a', 100, names, 3)).toBe(3);
    expect(t.next('p', 200, names, 3)).toBe(4);
    expect(t.next('x', 300, names, 4)).toBeUndefined();
  });

  it('steps through the names with one first letter when the letter is typed again, round to the top', () => {
    const t = new TypeAhead(800);
    expect(t.next('m', 0, names, 0)).toBe(3);
    expect(t.next('m', 100, names, 3)).toBe(4);
    expect(t.next('m', 200, names, 4)).toBe(5);
    expect(t.next('m', 300, names, 5)).toBe(3);
  });

  it('starts a new prefix after a pause', () => {
    const t = new TypeAhead(800);
    expect(t.next('l', 0, names, 0)).toBe(2);
    expect(t.next('t', 2000, names, 2)).toBe(6);
    expect(new TypeAhead().next('a', 0, [], -1)).toBeUndefined();
  });
});
