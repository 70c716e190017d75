/**
 * Viewport labels never pile up: of labels that would overlap, the nearest is shown and counts the
 * others; labels with room are all shown.
 */
import { describe, expect, it } from 'vitest';
import { declutter, type LabelBox } from '../../renderer/lib/declutter.ts';

const box = (x: number, y: number, depth = 0, w = 60, h = 18): LabelBox => ({ x, y, w, h, depth });
const overlap = (a: LabelBox, b: LabelBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('declutter', () => {
  it('shows every label that has room', () => {
    const r = declutter([box(0, 0), box(100, 0), box(0, 40)]);
    expect(r.map((p) => p.shown)).toEqual([true, true, true]);
    expect(r.map((p) => p.hidden)).toEqual([0, 0, 0]);
  });

  it('ten labels on one spot: one shown, counting the nine it hides', () => {
    const boxes = Array.from({ length: 10 }, (_, i) => box(200 + (i % 3), 100 + (i % 2), i));
    const r = declutter(boxes);
    expect(r.filter((p) => p.shown)).toHaveLength(1);
    expect(r[0]).toEqual({ shown: true, hidden: 9 });
  });

  it('the nearest label wins, whatever the order it comes in', () => {
    const r = declutter([box(0, 0, 5), box(10, 5, 1)]);
    expect(r.map((p) => p.shown)).toEqual([false, true]);
    expect(r[1]!.hidden).toBe(1);
  });

  it('no two shown labels overlap, for a crowd of random labels', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const boxes = Array.from({ length: 200 }, () => box(rand() * 600, rand() * 400, rand() * 10, 40 + rand() * 80));
    const r = declutter(boxes);
    const shown = boxes.filter((_, i) => r[i]!.shown);
    for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) expect(overlap(shown[i]!, shown[j]!)).toBe(false);
    // Every label is either shown or counted by a shown one.
    expect(r.filter((p) => p.shown).length + r.reduce((n, p) => n + p.hidden, 0)).toBe(200);
  });
});
